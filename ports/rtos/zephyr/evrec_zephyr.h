/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_zephyr.h
 * @brief The Zephyr kernel trace (ports/rtos/zephyr/README.md): Zephyr's tracing hooks
 * (include/zephyr/tracing/tracing.h, with CONFIG_TRACING_USER: the `sys_trace_*_user()`
 * callbacks of subsys/tracing/user) recorded as the events of zephyr.yaml (the RTOS catalogue
 * plus TaskReady, TaskCreate, TaskDelete, TaskPriority), one evrec host per CPU.
 *
 * The module (CONFIG_EVREC, evrec_zephyr_module.c) sets it up from Kconfig: a buffer, one lane
 * per CPU, a tick timer, start at boot. An application that manages its own recorder calls
 * evrec_zephyr_init() itself and leaves CONFIG_EVREC_AUTOSTART off.
 *
 * Build knobs (compile definitions; the module sets them from Kconfig):
 *   EVREC_ZEPHYR_MAX_CPUS   hosts (CPUs) served, 1..32, default CONFIG_MP_MAX_NUM_CPUS on SMP, else 1
 *   EVREC_ZEPHYR_NAME_LEN   bytes kept of a thread or object name (with the NUL), 4..64, default 24
 *   EVREC_ZEPHYR_ISR_IDS    interrupt numbers that can be named, 1..1024, default 256
 *   EVREC_ZEPHYR_ISR_ID()   the interrupt number of IsrEnter/IsrExit, default 0 (Cortex-M:
 *                           `(__get_IPSR() & 0x1FFu)`)
 */
#ifndef EVREC_ZEPHYR_H
#define EVREC_ZEPHYR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct evrec_host;
struct evrec_recorder;

/**
 * @brief Reset the hooks' state (thread and object ids, names) and give the host of each CPU.
 * Threads and objects the kernel made before are named when the trace first sees them.
 * @param[in] hosts one started or not yet started host per CPU (CPU k records into hosts[k]);
 *     the caller owns them and keeps them alive while the hooks may run. A NULL entry: that
 *     CPU records nothing.
 * @param[in] cpus entries in hosts, 1..EVREC_ZEPHYR_MAX_CPUS.
 * @retval EVREC_OK ready; also resets the run-time names (zephyr_runtime_init()).
 * @retval EVREC_E_ARG hosts is NULL, or cpus is 0 or above EVREC_ZEPHYR_MAX_CPUS.
 * **Context:** thread, before the hooks run (at boot, or with the hosts stopped).
 */
int evrec_zephyr_init(struct evrec_host *const *hosts, unsigned cpus);

/**
 * @brief Name the interrupt number `isr_id` (what EVREC_ZEPHYR_ISR_ID() returns in the
 * handler): its IsrEnter/IsrExit then carry an RtosIsr value with that name.
 * @param[in] isr_id interrupt number, below EVREC_ZEPHYR_ISR_IDS.
 * @param[in] name the name; the pointer is kept (a string literal or static storage).
 * @retval EVREC_OK named.
 * @retval EVREC_E_ARG isr_id out of range or name NULL.
 * @retval EVREC_E_EXHAUSTED every RtosIsr run-time value is taken (63).
 * **Context:** thread, before the interrupt is enabled.
 */
int evrec_zephyr_isr_name(unsigned isr_id, const char *name);

/**
 * @brief Name a kernel object (a `struct k_sem`, `k_mutex`, `k_msgq` or `k_event`): Zephyr's
 * objects have no names, so without this one is called by its kind and number ("sem1").
 * @param[in] object the object's address (as given to the kernel's calls).
 * @param[in] name the name; copied (EVREC_ZEPHYR_NAME_LEN - 1 bytes at most).
 * @retval EVREC_OK named (the object gets its RtosObject value now if it had none).
 * @retval EVREC_E_ARG object or name NULL.
 * @retval EVREC_E_EXHAUSTED no RtosObject value is left (127) for an object not seen before.
 * **Context:** thread or ISR; takes the hooks' spinlock for a few loads and stores.
 */
int evrec_zephyr_object_name(const void *object, const char *name);

/* ---- the module (CONFIG_EVREC, evrec_zephyr_module.c) ---- */

/**
 * @brief Start recording into the module's buffer (CONFIG_EVREC_BUFFER_SIZE bytes, one lane per
 * CPU, one-shot or cyclic per CONFIG_EVREC_MODE) and its tick timer; done at boot with
 * CONFIG_EVREC_AUTOSTART. Starting again after evrec_zephyr_stop() begins a new recording.
 * @retval EVREC_OK recording.
 * @retval EVREC_E_ARG the buffer is too small for a lane per CPU.
 * @retval EVREC_E_BUSY already recording.
 * **Context:** thread (POST_KERNEL or later).
 */
int evrec_zephyr_start(void);

/**
 * @brief Stop the tick timer and every lane; the recorder then holds the trace for evrec_save().
 * @retval EVREC_OK stopped.
 * @retval EVREC_E_NOT_RECORDING not started.
 * **Context:** thread (it waits for records in flight on other CPUs).
 */
int evrec_zephyr_stop(void);

/**
 * @brief The module's recorder, for evrec_save() (evrec/evrec_save.h) after evrec_zephyr_stop().
 * @return the recorder, owned by the module (static storage).
 * **Context:** any.
 */
struct evrec_recorder *evrec_zephyr_recorder(void);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_ZEPHYR_H */
