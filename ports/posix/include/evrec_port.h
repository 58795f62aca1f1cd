/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_port.h (POSIX port)
 * @brief Hot-path macros of the POSIX host port: timestamp, its frequency, spin hint.
 *
 * Timestamp unit: on x86-64 the low 32 bits of the time-stamp counter (TSC, invariant on every
 * CPU this runs on; about 10 ns per read on a VM), frequency calibrated by
 * evrec_posix_time_freq() (evrec_posix.h) against CLOCK_MONOTONIC; on AArch64 the virtual
 * counter CNTVCT_EL0 with CNTFRQ_EL0; elsewhere CLOCK_MONOTONIC in nanoseconds (1 GHz). Counts
 * up; wraps every 2^32 ticks (about 1.5 s at 3 GHz), which the 10 Hz tick thread covers.
 *
 * Overview:
 * - The port contract (PORTING.md): EVREC_PORT_TIMESTAMP(), EVREC_PORT_TIME_FREQ()
 *   (evrec_posix_port_time_freq()), EVREC_PORT_RELAX(), EVREC_PORT_CORE_ID(), EVREC_PORT_CRC32C
 *   (SSE4.2: evrec_port_posix_crc32c()).
 * - Lanes: evrec_posix_cpu() (the caller's CPU), evrec_posix_thread_lane() (a lane per thread).
 * - The rest of the POSIX port (calibration, tick thread, saving to a file): evrec_posix.h,
 *   evrec_save_file.h, evrec_out_file.h.
 *
 * PORTING.md is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_PORT_H
#define EVREC_PORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/**
 * @brief Frequency of EVREC_PORT_TIMESTAMP(), Hz: evrec_posix_time_freq(0), measured on the
 * first call of the process and cached (the first call on x86-64 busy-waits about 20 ms).
 * Defined in the evrec_port_posix library (CMake target evrec::port_posix), not in the core.
 * @return ticks per second, never 0.
 * **Context:** thread-safe (the first caller measures, concurrent first callers wait for it);
 * not from a signal handler.
 */
uint64_t evrec_posix_port_time_freq(void);
#ifdef __cplusplus
}
#endif
/** Timestamp frequency in Hz for evrec_host_start() (links evrec_port_posix). */
#define EVREC_PORT_TIME_FREQ() evrec_posix_port_time_freq()

#if defined(__x86_64__) || defined(__i386__)
#include <stddef.h>
#include <string.h>
#include <x86intrin.h>
/** 32-bit free-running timestamp, port ticks. */
#define EVREC_PORT_TIMESTAMP() ((uint32_t)__rdtsc())
/** Spin-wait hint used while stop waits for records in flight. */
#define EVREC_PORT_RELAX() _mm_pause()
#if defined(__SSE4_2__) && defined(__x86_64__)
/** Lane length of the three-way CRC, bytes, and the constant that moves a CRC register over one
 * lane (a power of x mod P in the representation of evrec_port_posix_crc_mul()). Checked against
 * a bitwise CRC-32C at many lengths by evrec's tests. */
#define EVREC_POSIX_CRC_LANE 4096u
#define EVREC_POSIX_CRC_LANE_SHIFT 0x35d73a62u

/**
 * @brief a * b mod P, CRC-32C polynomials in the reflected representation (bit 31 = x^0).
 * @param[in] a a polynomial, not 0.
 * @param[in] b a polynomial.
 * @return the product mod P.
 * **Context:** any; pure.
 */
static inline uint32_t evrec_port_posix_crc_mul(uint32_t a, uint32_t b)
{
    uint32_t m = 1u << 31, r = 0;
    for (;;) {
        if (a & m) {
            r ^= b;
            if ((a & (m - 1u)) == 0) {
                break;
            }
        }
        m >>= 1;
        b = (b & 1u) ? (b >> 1) ^ 0x82F63B78u : b >> 1;
    }
    return r;
}

/**
 * @brief CRC-32C with the SSE4.2 crc32 instruction; same result as evrec_crc32c(). Long inputs
 * run three independent crc32 chains over three lanes (the instruction has a 3-cycle latency and
 * a 1-cycle throughput) and combine them: the CRC register is linear, so
 * reg(A|B|C) = shift(shift(reg(A)) ^ reg0(B)) ^ reg0(C), a shift by one lane being a
 * multiplication by a constant mod P.
 * @param[in] crc the value so far (0 for a fresh start).
 * @param[in] data bytes.
 * @param[in] len bytes.
 * @return the updated CRC (chainable, as evrec_crc32c()).
 * **Context:** any; pure.
 */
static inline uint32_t evrec_port_posix_crc32c(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t c = (uint32_t)~crc;
    while (len >= 3u * EVREC_POSIX_CRC_LANE) {
        uint64_t c1 = 0, c2 = 0;
        for (size_t k = 0; k < EVREC_POSIX_CRC_LANE; k += 8) {
            uint64_t w0, w1, w2;
            __builtin_memcpy(&w0, p + k, 8);
            __builtin_memcpy(&w1, p + EVREC_POSIX_CRC_LANE + k, 8);
            __builtin_memcpy(&w2, p + 2u * EVREC_POSIX_CRC_LANE + k, 8);
            c = _mm_crc32_u64(c, w0);
            c1 = _mm_crc32_u64(c1, w1);
            c2 = _mm_crc32_u64(c2, w2);
        }
        uint32_t k8 = EVREC_POSIX_CRC_LANE_SHIFT;
        c = evrec_port_posix_crc_mul(k8, evrec_port_posix_crc_mul(k8, (uint32_t)c) ^ (uint32_t)c1) ^ (uint32_t)c2;
        p += 3u * EVREC_POSIX_CRC_LANE;
        len -= 3u * EVREC_POSIX_CRC_LANE;
    }
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t w;
        __builtin_memcpy(&w, p, 8); /* inlined even under -ffreestanding */
        c = _mm_crc32_u64(c, w);
    }
    uint32_t c32 = (uint32_t)c;
    for (; len; len--, p++) {
        c32 = _mm_crc32_u8(c32, *p);
    }
    return ~c32;
}
#define EVREC_PORT_CRC32C(crc, data, len) evrec_port_posix_crc32c((crc), (data), (len))
#endif
#elif defined(__aarch64__)
/**
 * @brief The timestamp on AArch64: the low 32 bits of the virtual counter CNTVCT_EL0.
 * @return counter ticks (CNTFRQ_EL0 per second), modulo 2^32.
 * **Context:** any thread or signal handler.
 */
static inline uint32_t evrec_port_posix_cntvct(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return (uint32_t)v;
}
#define EVREC_PORT_TIMESTAMP() evrec_port_posix_cntvct()
#define EVREC_PORT_RELAX() __asm__ volatile("yield")
#else
#include <time.h>
/**
 * @brief The timestamp elsewhere: CLOCK_MONOTONIC in nanoseconds, modulo 2^32.
 * @return nanoseconds, modulo 2^32.
 * **Context:** any thread or signal handler (clock_gettime() is async-signal-safe).
 */
static inline uint32_t evrec_port_posix_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}
#define EVREC_PORT_TIMESTAMP() evrec_port_posix_monotonic()
#define EVREC_PORT_RELAX() ((void)0)
#endif

/* ---- lanes (evrec/evrec_lanes.h): the caller's CPU, or a lane per thread ---- */
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
/**
 * @brief sched_getcpu(): the slow path of evrec_posix_cpu(). Defined in evrec_port_posix.
 * @return the CPU number, 0 when sched_getcpu() fails.
 * **Context:** any thread; async-signal-safe.
 */
unsigned evrec_posix_cpu_slow(void);
/** @brief The calling thread's lane number plus 1 (0: not assigned yet); see
 * evrec_posix_thread_lane(). */
#ifdef __cplusplus
extern thread_local unsigned evrec_posix_lane_tls;
#else
extern _Thread_local unsigned evrec_posix_lane_tls;
#endif
/**
 * @brief Assigns the calling thread the next lane number (0, 1, 2 ... in the order threads
 * first ask): the slow path of evrec_posix_thread_lane().
 * @return the lane number.
 * **Context:** thread.
 */
unsigned evrec_posix_thread_lane_assign(void);
#ifdef __cplusplus
}
#endif

#if !defined(__cplusplus) && defined(__linux__) && defined(__GLIBC__) &&                                          \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)) && (defined(__x86_64__) || defined(__aarch64__))
extern const ptrdiff_t __rseq_offset; /* glibc 2.35+: the thread's registered struct rseq */
/**
 * @brief The thread pointer (x86-64: %fs:0; AArch64: TPIDR_EL0).
 * @return the calling thread's thread pointer.
 * **Context:** any thread or signal handler.
 */
static inline const char *evrec_posix_tp(void)
{
#if defined(__x86_64__)
    const char *tp;
    __asm__("movq %%fs:0, %0" : "=r"(tp));
    return tp;
#else
    return (const char *)__builtin_thread_pointer();
#endif
}
/**
 * @brief The CPU running the caller, as sched_getcpu() gives it, in one load: the `cpu_id` that
 * the kernel keeps in the thread's restartable-sequences area (glibc 2.35+ registers it for
 * every thread; struct rseq, offset 4); sched_getcpu() when it is not registered. The thread may
 * move to another CPU right after: a lane chosen with it is shared now and then, which lanes
 * allow (their allocation is atomic).
 * @return the CPU number.
 * **Context:** any thread or signal handler.
 */
static inline unsigned evrec_posix_cpu(void)
{
    uint32_t c = *(const volatile uint32_t *)(const void *)(evrec_posix_tp() + __rseq_offset + 4);
    return c < 0x80000000u ? c : evrec_posix_cpu_slow();
}
#else
/**
 * @brief The CPU running the caller (sched_getcpu()).
 * @return the CPU number, 0 when sched_getcpu() fails.
 * **Context:** any thread.
 */
static inline unsigned evrec_posix_cpu(void)
{
    return evrec_posix_cpu_slow();
}
#endif

/**
 * @brief The calling thread's own lane number: 0, 1, 2 ... in the order threads first ask
 * (one thread-local load after the first call). With at least as many lanes as recording
 * threads no two threads share a lane wherever they run.
 * @return the lane number.
 * **Context:** thread (not a signal handler that may run before its thread's first call).
 */
static inline unsigned evrec_posix_thread_lane(void)
{
    unsigned v = evrec_posix_lane_tls;
    return v ? v - 1u : evrec_posix_thread_lane_assign();
}

/** Core running the caller (evrec_lane_host()'s default lane choice): evrec_posix_cpu(). */
#define EVREC_PORT_CORE_ID() evrec_posix_cpu()

#endif /* EVREC_PORT_H */
