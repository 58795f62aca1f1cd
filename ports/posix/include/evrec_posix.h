/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_posix.h
 * @brief Host services of the POSIX port: timestamp frequency and the tick thread
 * (as CCore's EventRecorder on HCore, `TickTask`: a task that records EventControl Tick at 10 Hz).
 *
 * API overview:
 * - Time: evrec_posix_time_freq() (EVREC_PORT_TIMESTAMP()'s frequency, calibrated once).
 * - Ticks: evrec_posix_tick_start(), evrec_posix_tick_start_lanes(), evrec_posix_tick_stop().
 * - A trace buffer in a file that survives the process: evrec_posix_map_buffer(),
 *   evrec_posix_unmap_buffer().
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
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
 * @param[in] calib_ms calibration time in ms (0 = the default, 20 ms).
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
    struct evrec_lanes *lanes; /* evrec_posix_tick_start_lanes(): tick every lane; else NULL */
} evrec_posix_tick_t;

/**
 * @brief Start a thread that calls evrec_tick(host) every 1/hz seconds (HCore TickTask).
 * @param[out] t the tick object (user memory, lives until evrec_posix_tick_stop()).
 * @param[in] host the host to tick; it may be started and stopped meanwhile (ticks while detached
 *     are ignored).
 * @param[in] hz ticks per second, 1..100000 (0 = the default, 10 Hz).
 * @retval EVREC_OK running.
 * @retval EVREC_E_ARG NULL or hz out of range.
 * @retval EVREC_E_NOMEM the thread could not be created.
 * **Context:** thread.
 */
evrec_status evrec_posix_tick_start(evrec_posix_tick_t *t, evrec_host_t *host, unsigned hz);

/**
 * @brief As evrec_posix_tick_start() for a recorder split into lanes (evrec/evrec_lanes.h): the
 * thread calls evrec_lanes_tick(lanes) every 1/hz seconds, a Tick into every lane with one
 * timestamp, so that each lane's times extend to 64 bits on their own (FORMAT.md
 * section 2.3). Stop it with evrec_posix_tick_stop().
 * @param[out] t the tick object.
 * @param[in] lanes initialised lanes (they may be started and stopped meanwhile).
 * @param[in] hz ticks per second, 1..100000 (0 = 10 Hz).
 * @retval EVREC_OK running.
 * @retval EVREC_E_ARG NULL or hz out of range.
 * @retval EVREC_E_NOMEM the thread could not be created.
 * **Context:** thread.
 */
evrec_status evrec_posix_tick_start_lanes(evrec_posix_tick_t *t, struct evrec_lanes *lanes, unsigned hz);

/**
 * @brief Stop the tick thread and wait for it to exit (at most one period).
 * @param[in,out] t a started tick object.
 * **Context:** thread, not the tick thread itself.
 */
void evrec_posix_tick_stop(evrec_posix_tick_t *t);

/**
 * @brief Map a trace buffer from a file (MAP_SHARED), so that it outlives the process: after a
 * crash or a kill the file holds the buffer's header and every committed record, and
 * `evrec recover FILE -o out.evr` writes a normal file from it. Give the mapping to
 * evrec_recorder_init() or evrec_recorder_init_cyclic() with the same size, and call
 * evrec_recorder_keep_meta() so that the meta-info is in the file too.
 * @param[in] path the file: created (mode 0644) if missing; an existing file is resized to `size`
 * and its content kept only when `keep` is non-zero (else it is zeroed first).
 * @param[in] size bytes of the buffer (header included).
 * @param[in] keep 1: keep an existing file's bytes (to recover it with evrec_recorder_recover());
 *     0: start afresh.
 * @param[out] out the mapping (page-aligned), to give to evrec_posix_unmap_buffer().
 * @retval EVREC_OK mapped.
 * @retval EVREC_E_ARG NULL or size 0.
 * @retval EVREC_E_IO open, resize or mmap failed (errno tells why).
 * **Context:** thread. The kernel writes the pages back to the file on its own schedule; a
 * machine crash (not a process crash) can lose the newest pages unless msync() is called.
 */
evrec_status evrec_posix_map_buffer(const char *path, size_t size, int keep, void **out);

/**
 * @brief Unmap a buffer of evrec_posix_map_buffer() (its file stays).
 * @param[in] buf the mapping.
 * @param[in] size its size.
 * **Context:** thread, after recording stopped.
 */
void evrec_posix_unmap_buffer(void *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_POSIX_H */
