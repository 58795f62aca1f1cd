/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_posix.h
 * @brief Host services of the POSIX port: timestamp frequency and the tick thread
 * (as CCore's EventRecorder on HCore, `TickTask`: a task that records EventControl Tick at 10 Hz).
 */
#ifndef EVREC_POSIX_H
#define EVREC_POSIX_H

#include <pthread.h>
#include <stdint.h>

#include "evrec/evrec_recorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Measure the frequency of EVREC_PORT_TIMESTAMP() against CLOCK_MONOTONIC.
 * On x86-64 this busy-waits about `calib_ms` milliseconds (the TSC has no architectural
 * frequency register); elsewhere the frequency is known and this returns at once.
 * Each call measures again; EVREC_PORT_TIME_FREQ() (evrec_port.h) measures once per process
 * with the default and caches the result: pass that to evrec_host_start().
 * @param calib_ms calibration time in ms (0 = the default, 20 ms).
 * @return timestamp ticks per second (Hz), never 0.
 * **Context:** thread; reentrant.
 * @code
 * evrec_host_start(&host, &rec, &app_meta, EVREC_PORT_TIME_FREQ());
 * @endcode
 */
uint64_t evrec_posix_time_freq(unsigned calib_ms);

/** @brief The tick thread. User memory; fields are private. */
typedef struct evrec_posix_tick {
    pthread_t thread;
    evrec_host_t *host;
    unsigned period_us;
    int running;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} evrec_posix_tick_t;

/**
 * @brief Start a thread that calls evrec_tick(host) every 1/hz seconds (HCore TickTask).
 * @param[out] t the tick object (user memory, lives until evrec_posix_tick_stop()).
 * @param[in] host the host to tick; it may be started and stopped meanwhile (ticks while
 * detached are ignored). @param hz ticks per second, 1..100000 (0 = the default, 10 Hz).
 * @retval EVREC_OK running. @retval EVREC_E_ARG NULL or hz out of range.
 * @retval EVREC_E_NOMEM the thread could not be created.
 * **Context:** thread.
 */
evrec_status evrec_posix_tick_start(evrec_posix_tick_t *t, evrec_host_t *host, unsigned hz);

/**
 * @brief Stop the tick thread and wait for it to exit (at most one period).
 * @param[in,out] t a started tick object. **Context:** thread, not the tick thread itself.
 */
void evrec_posix_tick_stop(evrec_posix_tick_t *t);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_POSIX_H */
