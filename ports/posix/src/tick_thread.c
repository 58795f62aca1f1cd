/* SPDX-License-Identifier: Apache-2.0 */
/* POSIX port: the tick thread (CCore's HCore TickTask of EventRecorder). */
#include <errno.h>
#include <time.h>

#include "evrec/evrec_lanes.h"
#include "evrec_posix.h"

static void *tick_main(void *arg)
{
    evrec_posix_tick_t *t = (evrec_posix_tick_t *)arg;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    pthread_mutex_lock(&t->lock);
    while (t->running) {
        next.tv_nsec += (long)t->period_us * 1000;
        while (next.tv_nsec >= 1000000000L) {
            next.tv_nsec -= 1000000000L;
            next.tv_sec++;
        }
        int rc = 0;
        while (t->running && rc != ETIMEDOUT) {
            rc = pthread_cond_timedwait(&t->wake, &t->lock, &next);
        }
        if (!t->running) {
            break;
        }
        pthread_mutex_unlock(&t->lock);
        if (t->lanes) {
            (void)evrec_lanes_tick(t->lanes);
        } else {
            (void)evrec_tick(t->host);
        }
        pthread_mutex_lock(&t->lock);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static evrec_status tick_start(evrec_posix_tick_t *t, unsigned hz);

evrec_status evrec_posix_tick_start(evrec_posix_tick_t *t, evrec_host_t *host, unsigned hz)
{
    if (!t || !host) {
        return EVREC_E_ARG;
    }
    t->host = host;
    t->lanes = NULL;
    return tick_start(t, hz);
}

evrec_status evrec_posix_tick_start_lanes(evrec_posix_tick_t *t, evrec_lanes_t *lanes, unsigned hz)
{
    if (!t || !lanes) {
        return EVREC_E_ARG;
    }
    t->host = NULL;
    t->lanes = lanes;
    return tick_start(t, hz);
}

static evrec_status tick_start(evrec_posix_tick_t *t, unsigned hz)
{
    if (hz == 0) {
        hz = 10;
    }
    if (hz > 100000) {
        return EVREC_E_ARG;
    }
    t->period_us = 1000000u / hz;
    t->running = 1;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&t->wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&t->lock, NULL);
    if (pthread_create(&t->thread, NULL, tick_main, t) != 0) {
        pthread_cond_destroy(&t->wake);
        pthread_mutex_destroy(&t->lock);
        return EVREC_E_NOMEM;
    }
    return EVREC_OK;
}

void evrec_posix_tick_stop(evrec_posix_tick_t *t)
{
    pthread_mutex_lock(&t->lock);
    t->running = 0;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
}
