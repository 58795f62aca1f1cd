/* SPDX-License-Identifier: Apache-2.0 */
/* Trice configuration for trice_insn.c: Trice's direct RTT mode (no deferred output): every
 * TRice is encoded in a static buffer and written at once into RTT up channel 0 with the 32-bit
 * writer (TRICE_DIRECT_SEGGER_RTT_32BIT_WRITE, the fastest direct path Trice's
 * triceDefaultConfig.h describes). The 32-bit stamp of TRice is the DWT cycle counter, as the
 * other firmwares' timestamps; the RTT sizes are those of SEGGER_RTT_Conf.h; every other setting
 * is Trice's default. */
#ifndef TRICE_CONFIG_H_
#define TRICE_CONFIG_H_

#define TRICE_BUFFER TRICE_STATIC_BUFFER
#define TRICE_DIRECT_OUTPUT 1
#define TRICE_DEFERRED_OUTPUT 0
#define TRICE_DIRECT_SEGGER_RTT_32BIT_WRITE 1
/* The RTT sizes of SEGGER_RTT_Conf.h (Trice checks they match). */
#define TRICE_SEGGER_RTT_MAX_NUM_UP_BUFFERS 3
#define TRICE_SEGGER_RTT_MAX_NUM_DOWN_BUFFERS 3
#define TRICE_BUFFER_SIZE_UP 16384
#define TRICE_BUFFER_SIZE_DOWN 16
#define TRICE_SEGGER_RTT_PRINTF_BUFFER_SIZE 0
#define TriceStamp32 (*(volatile uint32_t *)0xE0001004u)

/* trice-insn-locked.elf: the same with Trice's documented critical section around each message
 * (SEGGER_RTT_LOCK, BASEPRI), which a TRice called from more than one context needs; Trice's
 * default is no lock. */
#ifdef BENCH_TRICE_LOCKED
#define TRICE_ENTER_CRITICAL_SECTION                                                                              \
    {                                                                                                             \
        SEGGER_RTT_LOCK()                                                                                         \
        {
#define TRICE_LEAVE_CRITICAL_SECTION                                                                              \
    }                                                                                                             \
    SEGGER_RTT_UNLOCK()                                                                                           \
    }
#endif

#endif /* TRICE_CONFIG_H_ */
