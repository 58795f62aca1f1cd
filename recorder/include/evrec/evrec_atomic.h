/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_atomic.h
 * @brief The few atomic operations the recorder needs, on C11 atomics or on a port's critical
 * section.
 *
 * API overview (used by the recorder and by inline record paths; an application rarely calls
 * them itself):
 * - Read-modify-write: evrec_atomic_fetch_add(), evrec_atomic_exchange(), evrec_atomic_cas().
 * - Loads and stores: evrec_atomic_load(), evrec_atomic_load_acquire(), evrec_atomic_store(),
 *   EVREC_LOAD_RELAXED(), EVREC_STORE_RELAXED(), EVREC_STORE_RELEASE().
 * - Configuration: EVREC_PORT_HAS_ATOMICS, EVREC_PORT_UNIPROCESSOR (from the port); EVREC_NO_TSAN
 *   on a function that races on purpose.
 *
 * A port whose core has C11 atomics that are lock-free for `size_t` (x86, AArch64, ARMv7-M and
 * ARMv8-M main with LDREX/STREX, RISC-V with the A extension) leaves EVREC_PORT_HAS_ATOMICS at 1.
 * A port without them (ARMv6-M: Cortex-M0/M0+, RV32 without A) defines in its evrec_port.h:
 * `EVREC_PORT_HAS_ATOMICS 0` and the three parts of a critical section that is legal in an
 * interrupt handler and nests: `EVREC_PORT_CRITICAL_STATE` (a declaration),
 * `EVREC_PORT_CRITICAL_ENTER()` and `EVREC_PORT_CRITICAL_EXIT()` (both compiler barriers).
 * Loads and stores of aligned `size_t` and `uint16_t` are single instructions on every target and
 * need no critical section.
 *
 * EVREC_PORT_UNIPROCESSOR (default 0; the Cortex-M and RISC-V ports set 1): every context that
 * records into a host runs on one core (threads and interrupt handlers of a single-core MCU). A
 * core observes its own memory accesses in program order, interrupts included (Arm ARMv7-M
 * Architecture Reference Manual, A3.7.3 "Memory barriers"; Arm application note "ARM Cortex-M
 * Programming Guide to Memory Barrier Instructions", section 4: no DMB is needed between
 * thread and handler code of one processor), so the acquire and release orders below need only
 * keep the compiler from reordering: they become relaxed accesses bracketed by signal fences
 * (`atomic_signal_fence`, no instruction) instead of DMB/FENCE instructions. A port for a
 * multi-core part whose cores record into the same buffer (RP2040, a dual-core STM32H7 with a
 * shared buffer, a multi-hart RISC-V) defines EVREC_PORT_UNIPROCESSOR 0 and keeps the barriers.
 * A ThreadSanitizer build keeps them too (it models the orders, not the core count).
 */
#ifndef EVREC_ATOMIC_H
#define EVREC_ATOMIC_H

#include <stddef.h>
#include <stdint.h>

/* The port's evrec_port.h says whether the core has atomics. A host program that only reads
 * files (evrec_reader.h, evrec_meta.h) needs no port: without one on the include path the C11
 * atomics of every host are taken. (`__has_include` is in GCC >= 5 and clang.) */
#if defined(__has_include)
#if __has_include("evrec_port.h")
#include "evrec_port.h"
#endif
#else
#include "evrec_port.h"
#endif

#ifndef EVREC_PORT_HAS_ATOMICS
#define EVREC_PORT_HAS_ATOMICS 1
#endif
#ifndef EVREC_PORT_UNIPROCESSOR
#define EVREC_PORT_UNIPROCESSOR 0
#endif

/* EVREC_TSAN: 1 in a ThreadSanitizer build (gcc defines __SANITIZE_THREAD__, clang has the
 * feature test). TSan does not model stand-alone fences (and gcc rejects atomic_thread_fence
 * under -fsanitize=thread with -Wtsan), so the few places that pair relaxed loads with one fence
 * use acquire loads instead in such a build; the target code is unchanged. */
#if defined(__SANITIZE_THREAD__)
#define EVREC_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EVREC_TSAN 1
#endif
#endif
#ifndef EVREC_TSAN
#define EVREC_TSAN 0
#endif

/** On the record path's inline functions (evrec_reserve(), evrec_commit()): inlined at every call
 * site whatever the compiler's size heuristics say (GCC otherwise outlines evrec_reserve() at -O2
 * on Cortex-M when a caller has several record calls, adding a call and a return per record).
 * Left to the compiler when optimising for size (-Os), where one shared copy is what is asked. */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__)
#define EVREC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define EVREC_ALWAYS_INLINE inline
#endif

/** 1 when acquire/release orders need only compiler barriers (EVREC_PORT_UNIPROCESSOR above). */
#define EVREC_UP_ORDER (EVREC_PORT_UNIPROCESSOR && !EVREC_TSAN)

/** @brief Release store of a plain field (`__atomic_store_n` with release order; on a
 * uniprocessor port a compiler barrier and a plain store).
 * **Context:** any. */
#if EVREC_UP_ORDER
#define EVREC_STORE_RELEASE(p, v)                                                                                 \
    do {                                                                                                          \
        __atomic_signal_fence(__ATOMIC_RELEASE);                                                                  \
        __atomic_store_n((p), (v), __ATOMIC_RELAXED);                                                             \
    } while (0)
#else
#define EVREC_STORE_RELEASE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#endif

/**
 * @brief On a function whose plain accesses race on purpose with other contexts: the live save of
 * a cyclic recorder reads blocks that recording contexts may be clearing and refilling meanwhile
 * (evrec_save() while recording), and keeps what it read only if the block's header still names
 * the same block afterwards (a seqlock-style read); the clearing of a block by the cyclic writer
 * when it moves to the next block is the write side of that race. Under ThreadSanitizer such a
 * function is not instrumented (the race is known and validated); in every other build it
 * expands to nothing.
 */
#if EVREC_TSAN
#define EVREC_NO_TSAN __attribute__((no_sanitize("thread")))
#else
#define EVREC_NO_TSAN
#endif

/**
 * @brief Relaxed atomic load / store of a plain, naturally aligned field of at most pointer size.
 * For evrec_host_t's geometry (buf, cap, meta, block_mask, ring_mask): evrec_host_start() rewrites
 * it while another context may be reading it in evrec_reserve() (a restart while it records); it
 * is published by the release store of `pos` and read after the acquire load of `pos`. The same
 * instruction as a plain access on every target (also the critical-section ports); under
 * ThreadSanitizer an atomic access, hence no data race.
 * **Context:** any.
 */
#define EVREC_LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
/** @copydoc EVREC_LOAD_RELAXED */
#define EVREC_STORE_RELAXED(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

#if EVREC_PORT_HAS_ATOMICS
#include <stdatomic.h>

/** A size_t that is read and modified atomically. */
typedef _Atomic size_t evrec_atomic_size_t;

/**
 * @brief Atomic `old = *p; *p += v; return old;` with acquire order.
 * @param[in,out] p the word.
 * @param[in] v what to add (bytes, when p is an allocation offset).
 * @return the value before the addition.
 * **Context:** any, ISR-safe; lock-free with atomics, else inside the port's critical section.
 */
static inline size_t evrec_atomic_fetch_add(evrec_atomic_size_t *p, size_t v)
{
#if EVREC_UP_ORDER
    size_t old = atomic_fetch_add_explicit(p, v, memory_order_relaxed);
    atomic_signal_fence(memory_order_acquire);
    return old;
#else
    return atomic_fetch_add_explicit(p, v, memory_order_acquire);
#endif
}

/**
 * @brief Atomic exchange with acquire-release order.
 * @param[in,out] p the word.
 * @param[in] v the new value.
 * @return the value before the exchange.
 * **Context:** any, ISR-safe; lock-free with atomics, else inside the port's critical section.
 */
static inline size_t evrec_atomic_exchange(evrec_atomic_size_t *p, size_t v)
{
#if EVREC_UP_ORDER
    atomic_signal_fence(memory_order_release);
    size_t old = atomic_exchange_explicit(p, v, memory_order_relaxed);
    atomic_signal_fence(memory_order_acquire);
    return old;
#else
    return atomic_exchange_explicit(p, v, memory_order_acq_rel);
#endif
}

/**
 * @brief Compare and swap (weak: may fail spuriously; acquire-release on success, relaxed on
 * failure).
 * @param[in,out] p the word.
 * @param[in,out] expected the value `*p` must hold; on failure, set to the value it holds.
 * @param[in] v the value stored when `*p == *expected`.
 * @return 1 `v` was stored, 0 not (`*expected` updated).
 * **Context:** any, ISR-safe; lock-free with atomics, else inside the port's critical section.
 */
static inline int evrec_atomic_cas(evrec_atomic_size_t *p, size_t *expected, size_t v)
{
#if EVREC_UP_ORDER
    atomic_signal_fence(memory_order_release);
    int ok = atomic_compare_exchange_weak_explicit(p, expected, v, memory_order_relaxed, memory_order_relaxed);
    atomic_signal_fence(memory_order_acquire);
    return ok;
#else
    return atomic_compare_exchange_weak_explicit(p, expected, v, memory_order_acq_rel, memory_order_relaxed);
#endif
}

/**
 * @brief Relaxed load.
 * @param[in] p the word.
 * @return its value.
 * **Context:** any, ISR-safe (a single load).
 */
static inline size_t evrec_atomic_load(const evrec_atomic_size_t *p)
{
    return atomic_load_explicit((evrec_atomic_size_t *)(uintptr_t)p, memory_order_relaxed);
}

/**
 * @brief Acquire load: later accesses are not moved before it.
 * @param[in] p the word.
 * @return its value.
 * **Context:** any, ISR-safe (a single load).
 */
static inline size_t evrec_atomic_load_acquire(const evrec_atomic_size_t *p)
{
#if EVREC_UP_ORDER
    size_t v = atomic_load_explicit((evrec_atomic_size_t *)(uintptr_t)p, memory_order_relaxed);
    atomic_signal_fence(memory_order_acquire);
    return v;
#else
    return atomic_load_explicit((evrec_atomic_size_t *)(uintptr_t)p, memory_order_acquire);
#endif
}

/**
 * @brief Release store: earlier accesses are not moved after it.
 * @param[out] p the word.
 * @param[in] v the value.
 * **Context:** any, ISR-safe (a single store).
 */
static inline void evrec_atomic_store(evrec_atomic_size_t *p, size_t v)
{
#if EVREC_UP_ORDER
    atomic_signal_fence(memory_order_release);
    atomic_store_explicit(p, v, memory_order_relaxed);
#else
    atomic_store_explicit(p, v, memory_order_release);
#endif
}

#else /* critical-section port */

typedef volatile size_t evrec_atomic_size_t;

static inline size_t evrec_atomic_fetch_add(evrec_atomic_size_t *p, size_t v)
{
    size_t old;
    EVREC_PORT_CRITICAL_STATE;
    EVREC_PORT_CRITICAL_ENTER();
    old = *p;
    *p = old + v;
    EVREC_PORT_CRITICAL_EXIT();
    return old;
}

static inline size_t evrec_atomic_exchange(evrec_atomic_size_t *p, size_t v)
{
    size_t old;
    EVREC_PORT_CRITICAL_STATE;
    EVREC_PORT_CRITICAL_ENTER();
    old = *p;
    *p = v;
    EVREC_PORT_CRITICAL_EXIT();
    return old;
}

static inline int evrec_atomic_cas(evrec_atomic_size_t *p, size_t *expected, size_t v)
{
    int ok;
    EVREC_PORT_CRITICAL_STATE;
    EVREC_PORT_CRITICAL_ENTER();
    ok = *p == *expected;
    if (ok) {
        *p = v;
    } else {
        *expected = *p;
    }
    EVREC_PORT_CRITICAL_EXIT();
    return ok;
}

static inline size_t evrec_atomic_load(const evrec_atomic_size_t *p)
{
    return *p;
}
#if EVREC_UP_ORDER
#define EVREC_CS_FENCE_ __atomic_signal_fence
#else
#define EVREC_CS_FENCE_ __atomic_thread_fence
#endif
static inline size_t evrec_atomic_load_acquire(const evrec_atomic_size_t *p)
{
    size_t v = *p;
    EVREC_CS_FENCE_(__ATOMIC_ACQUIRE);
    return v;
}
static inline void evrec_atomic_store(evrec_atomic_size_t *p, size_t v)
{
    EVREC_CS_FENCE_(__ATOMIC_RELEASE);
    *p = v;
}

#endif

#endif /* EVREC_ATOMIC_H */
