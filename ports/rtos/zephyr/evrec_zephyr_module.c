/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The module's set-up from Kconfig (CONFIG_EVREC): a static buffer of CONFIG_EVREC_BUFFER_SIZE
 * bytes split into one lane per CPU, the hooks given each lane's host, a k_timer that records
 * the lanes' Tick every CONFIG_EVREC_TICK_MS, and the start at boot (CONFIG_EVREC_AUTOSTART).
 * Built only inside a Zephyr build (the module's CMakeLists.txt).
 */
#include <zephyr/init.h>
#include <zephyr/kernel.h>

#include "evrec/evrec_lanes.h"
#include "evrec_zephyr.h"
#include "zephyr_events.h"

#if defined(CONFIG_SMP) && defined(CONFIG_MP_MAX_NUM_CPUS)
#define CPUS CONFIG_MP_MAX_NUM_CPUS
#else
#define CPUS 1
#endif

static uint8_t trace_buf[CONFIG_EVREC_BUFFER_SIZE] __aligned(64);
static evrec_recorder_t rec;
static evrec_lanes_t lanes;
static evrec_lane_t lane[CPUS];
static struct k_timer tick_timer;
static bool recording; /* between a successful start and its stop (one caller at a time) */

static void tick(struct k_timer *timer)
{
    (void)timer;
    (void)evrec_lanes_tick(&lanes);
}

int evrec_zephyr_start(void)
{
    if (recording) {
        return EVREC_E_BUSY; /* the buffer is not set up again under the lanes */
    }
    evrec_status st;
#ifdef CONFIG_EVREC_MODE_CYCLIC
    st = evrec_recorder_init_cyclic(&rec, trace_buf, sizeof trace_buf, CONFIG_EVREC_CYCLIC_BLOCK_SIZE);
#else
    st = evrec_recorder_init(&rec, trace_buf, sizeof trace_buf);
#endif
    if (st == EVREC_OK) {
        st = evrec_lanes_init(&lanes, lane, CPUS);
    }
    if (st != EVREC_OK) {
        return (int)st;
    }
    evrec_host_t *hosts[CPUS];
    for (unsigned k = 0; k < CPUS; k++) {
        hosts[k] = evrec_lane_host_at(&lanes, k);
    }
    st = (evrec_status)evrec_zephyr_init(hosts, CPUS);
    if (st == EVREC_OK) {
        st = evrec_lanes_start(&lanes, &rec, &zephyr_meta, EVREC_PORT_TIME_FREQ());
    }
    if (st == EVREC_OK) {
        k_timer_init(&tick_timer, tick, NULL);
        k_timer_start(&tick_timer, K_MSEC(CONFIG_EVREC_TICK_MS), K_MSEC(CONFIG_EVREC_TICK_MS));
        recording = true;
    }
    return (int)st;
}

int evrec_zephyr_stop(void)
{
    if (!recording) {
        return EVREC_E_NOT_RECORDING;
    }
    k_timer_stop(&tick_timer);
    recording = false;
    return (int)evrec_lanes_stop(&lanes, NULL);
}

evrec_recorder_t *evrec_zephyr_recorder(void)
{
    return &rec;
}

#ifdef CONFIG_EVREC_AUTOSTART
static int evrec_zephyr_autostart(void)
{
    return evrec_zephyr_start() == EVREC_OK ? 0 : -EINVAL;
}

SYS_INIT(evrec_zephyr_autostart, POST_KERNEL, 0);
#endif
