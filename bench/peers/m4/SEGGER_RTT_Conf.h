/* SPDX-License-Identifier: Apache-2.0 */
/* RTT configuration for the peer firmwares of this folder (sysview_insn.c, trice_insn.c), read by
 * SEGGER_RTT.c of the peer's checkout. Written for this benchmark: 3 up and 3 down channels
 * (SystemView takes up channel 1, Trice channel 0), a 16 KiB channel-0 up buffer (more than one
 * measured loop writes, so the loop never meets a full buffer), no printf buffer, skip mode.
 * The lock is the usual ARMv7-M one, BASEPRI raised to 0x20 and restored (the priority SEGGER's
 * documentation gives as its Cortex-M3/M4 default), so the locked paths cost what they cost on a
 * device. */
#ifndef SEGGER_RTT_CONF_H
#define SEGGER_RTT_CONF_H

#define SEGGER_RTT_MAX_NUM_UP_BUFFERS 3
#define SEGGER_RTT_MAX_NUM_DOWN_BUFFERS 3
#define BUFFER_SIZE_UP 16384
#define BUFFER_SIZE_DOWN 16
#define SEGGER_RTT_PRINTF_BUFFER_SIZE 0
#define SEGGER_RTT_MODE_DEFAULT SEGGER_RTT_MODE_NO_BLOCK_SKIP
#define SEGGER_RTT_MEMCPY_USE_BYTELOOP 0
#define SEGGER_RTT_MAX_INTERRUPT_PRIORITY 0x20

#define SEGGER_RTT_LOCK()                                                                                         \
    {                                                                                                             \
        unsigned int bench_rtt_basepri_;                                                                          \
        __asm volatile("mrs %0, basepri\n\tmsr basepri_max, %1"                                                   \
                       : "=&r"(bench_rtt_basepri_)                                                                \
                       : "r"(SEGGER_RTT_MAX_INTERRUPT_PRIORITY)                                                   \
                       : "memory");
#define SEGGER_RTT_UNLOCK()                                                                                       \
    __asm volatile("msr basepri, %0" : : "r"(bench_rtt_basepri_) : "memory");                                     \
    }

#endif /* SEGGER_RTT_CONF_H */
