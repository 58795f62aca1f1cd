/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_recorder.h
 * @brief The trace buffer (recorder), the host it attaches to, and the record path.
 *
 * Model (CCore EventRecorderHost / EventRecorder, EventRecorder.h): a **recorder** is a trace
 * buffer in memory the user gives; a **host** is the global object that code records through.
 * Nothing is recorded until evrec_host_start() attaches a recorder; evrec_host_stop() detaches it,
 * after which evrec_save() writes the file.
 *
 * Buffer layout: records one after another from offset 0, each `uint32 time; uint16 id;` then its
 * fields in native order, taking the event struct's native size rounded up to 4 bytes. The
 * first record is EventControl Start, the last EventControl Stop.
 *
 * Concurrency: the record path costs one timestamp read, one relaxed load, one atomic
 * fetch-and-add and the stores of the record; it never blocks, allocates or aborts. Any number
 * of threads and interrupt/signal handlers may record at once. Each record is committed by a
 * release store of its id (the buffer is pre-filled with 0xFF, so id 0xFFFF means "not yet");
 * evrec_host_stop() closes allocation and then waits for every allocated record to be committed
 * (the guarantee of CCore's GuardCount without its two extra atomics per record).
 *
 * Freestanding: no malloc, no stdio; needs the port header `evrec_port.h`.
 */
#ifndef EVREC_RECORDER_H
#define EVREC_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_atomic.h"
#include "evrec/evrec_meta.h"
#include "evrec/evrec_status.h"
#include "evrec_port.h"

#ifndef EVREC_PORT_TIME_FREQ
/** Frequency of EVREC_PORT_TIMESTAMP() in Hz, for evrec_host_start(). Every port in ports/
 * defines it (the POSIX port measures it once); a port that does not gets 0, "unknown". */
#define EVREC_PORT_TIME_FREQ() ((uint64_t)0)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Native size of the EventControl record, bytes: the slot kept free for Stop. */
#define EVREC_CONTROL_SLOT 8u
/** Smallest trace buffer accepted, bytes (CCore: MaxEventLen). */
#define EVREC_MIN_BUFFER 256u
/** Allocation offset that marks a host with no recorder attached. */
#define EVREC_POS_CLOSED (((size_t)-1) / 2u + 1u)

/**
 * @brief A trace buffer and what a recording left in it. User memory; see evrec_recorder_init().
 * Fields are read by save and the tests; treat them as read-only.
 */
typedef struct evrec_recorder {
    uint8_t *buf;          /**< user memory, 4-byte aligned */
    size_t size;           /**< usable bytes of buf (multiple of 4) */
    size_t used;           /**< bytes of records after stop (Start .. Stop), native slot sizes;
                                cyclic: of the records save writes (block headers and unused
                                block tails not counted) */
    uint64_t recorded;     /**< records in the buffer after stop, Start and Stop included: the
                                count save writes in the file header; cyclic: the records of
                                the intact blocks (Start too while not overwritten) */
    uint64_t dropped;      /**< events dropped because the buffer was full */
    uint64_t time_freq;    /**< timestamp frequency of the recording, Hz (0 = unknown) */
    const evrec_meta_t *meta; /**< meta-info of the recording (set by start) */
    int state;             /**< 0 idle, 1 attached, 2 stopped (has data) */
    /* Cyclic mode (evrec_recorder_init_cyclic); block_size 0 = one-shot. */
    size_t block_size;     /**< bytes per block, a power of two */
    size_t block_count;    /**< blocks in the ring, a power of two >= 4 */
    size_t end_pos;        /**< cyclic: allocation position after Stop (virtual bytes) */
    uint64_t overwritten;  /**< cyclic: intact records lost to overwriting, after stop */
    struct evrec_host *host; /**< the host while attached (cyclic save while recording) */
    const struct evrec_cyclic_ops *cyclic; /**< cyclic: the ring's code, so that it is linked only
                                                when used; NULL in one-shot mode */
} evrec_recorder_t;

/** Size of the header at the start of each cyclic block, bytes (format/FORMAT.md is silent on
 * it: blocks exist only in RAM; save writes plain records). */
#define EVREC_BLOCK_HEADER 16u

/** @brief Header of a cyclic block, in the buffer. */
typedef struct evrec_block_header {
    uint32_t seq;              /**< once opened: block number (bits 0..23), distance back to the
                                    block it followed (bits 24..31); all ones before */
    uint32_t used;             /**< offset of the first unused byte once closed; 0 while open */
    evrec_atomic_size_t ready; /**< block number this slot was cleared for; all ones while clearing */
#if SIZE_MAX <= 0xFFFFFFFFu
    uint32_t pad;
#endif
} evrec_block_header_t;

/**
 * @brief The object code records through (CCore EventRecorderHost). Usually one global.
 * Zero-initialise it or call evrec_host_init(). Fields are private.
 */
typedef struct evrec_host {
    evrec_atomic_size_t pos;  /**< next free offset; >= EVREC_POS_CLOSED when detached */
    uint8_t *buf;             /**< buffer of the attached recorder */
    size_t cap;               /**< bytes usable by events (buffer size minus the Stop slot) */
    const evrec_meta_t *meta; /**< meta-info of the attached recording */
    evrec_atomic_size_t dropped; /**< drops in the current recording (wraps at SIZE_MAX) */
    evrec_atomic_size_t fail_pos; /**< smallest offset whose allocation failed */
    uint32_t full_time;       /**< timestamp of the first drop (the buffer filled) */
    evrec_recorder_t *rec;    /**< attached recorder */
    size_t block_mask;        /**< cyclic: block_size - 1; 0 in one-shot mode */
    size_t ring_mask;         /**< cyclic: ring bytes - 1; SIZE_MAX in one-shot mode */
    unsigned block_shift;     /**< cyclic: log2(block_size) */
    evrec_atomic_size_t overwritten; /**< cyclic: intact records cleared for reuse */
} evrec_host_t;

/**
 * @brief Give a recorder its trace buffer.
 * @param[out] rec the recorder (user memory). @param[in] buf trace buffer, 4-byte aligned, owned
 * by the caller for as long as the recorder is used. @param size bytes in buf; rounded down to 4.
 * @retval EVREC_OK ready. @retval EVREC_E_ARG NULL, misaligned, or size < ::EVREC_MIN_BUFFER.
 * **Context:** thread, not while the recorder is attached.
 */
evrec_status evrec_recorder_init(evrec_recorder_t *rec, void *buf, size_t size);

/**
 * @brief Give a recorder its trace buffer in cyclic (last-is-best) mode: the buffer is a ring of
 * `block_size` blocks; a record never straddles a block; when the ring is full the oldest block is
 * cleared and reused, so the buffer always holds the newest records (as the ThreadX context-switch
 * logger of "Debugging Threading issues in ThreadX circa 2011" and QS's last-is-best policy do).
 * Each block starts with a ::EVREC_BLOCK_HEADER-byte header. The ring keeps the newest
 * `block_count - 2` blocks whole: one block ahead of the writer is cleared in advance.
 * @param[out] rec the recorder. @param[in] buf trace buffer, 8-byte aligned, caller-owned.
 * @param size bytes in buf; the ring uses the largest power-of-two number of blocks that fits.
 * @param block_size bytes per block: a power of two, 256 .. 65536; every event's native size
 * plus the block header must fit in it (checked by evrec_host_start()). A save while recording
 * goes on needs block_size <= EVREC_SAVE_CHUNK - 16.
 * Limits: a context that needs the next block while another is clearing it skips that block (or
 * drops its event, counted, after 8 busy blocks). A context preempted for a whole lap of the ring
 * inside a block switch or between reserving and committing a record never tears or reorders
 * anything: the block it holds is skipped (not cleared) lap after lap until it is done. Its
 * records are then older than the ring's window: they are counted as overwritten when the slot
 * is next reused, and neither saved nor counted if recording stops before that. Size the ring so
 * that a lap takes longer than the longest preemption of a recording context (an MCU interrupt
 * never lasts a lap).
 * @retval EVREC_OK ready. @retval EVREC_E_ARG NULL, misaligned, block_size not a power of two in
 * range, fewer than 4 blocks fit, or more than a quarter of the block numbering (2^22 blocks,
 * or 2^28 / block_size on a 32-bit target).
 * **Context:** thread, not while the recorder is attached.
 */
evrec_status evrec_recorder_init_cyclic(evrec_recorder_t *rec, void *buf, size_t size, size_t block_size);

/** @brief Out-of-line part of cyclic allocation: a record that does not fit the current block.
 * Not for direct use. @return the allocated position, or EVREC_POS_CLOSED (nothing to write). */
size_t evrec_reserve_cyclic_switch(evrec_host_t *host, size_t cur, size_t len);

/**
 * @brief Make a host that records nothing until evrec_host_start().
 * @param[out] host the object (user memory). A zero-initialised static host is equivalent.
 * **Context:** before any thread records through it.
 */
void evrec_host_init(evrec_host_t *host);

/**
 * @brief Attach a recorder and start recording: fills the buffer with 0xFF, writes EventControl
 * Start as the first record, then opens allocation (CCore StartStop constructor).
 * @param[in,out] host the host. @param[in,out] rec an initialised recorder, not attached
 * elsewhere. @param[in] meta validated meta-info, kept alive until save is done. @param time_freq
 * timestamp frequency in Hz written to the file (0 = unknown): usually EVREC_PORT_TIME_FREQ(),
 * which every port defines (the POSIX port measures the TSC once per process; the null port and a
 * port without it give 0).
 * @retval EVREC_OK recording. @retval EVREC_E_ARG NULL pointer. @retval EVREC_E_BUSY the host
 * already has a recorder. @retval EVREC_E_META meta has no event 0 of size 8 (EventControl).
 * **Context:** thread; one caller at a time per host. Cost: a memset of the buffer.
 */
evrec_status evrec_host_start(evrec_host_t *host, evrec_recorder_t *rec, const evrec_meta_t *meta,
                              uint64_t time_freq);

/**
 * @brief Stop recording and detach: closes allocation, waits until every record already
 * allocated is committed, writes EventControl Stop as the last record, and stores the counts in
 * the recorder (CCore StartStop destructor). If events were dropped, Stop carries the time of the
 * first drop: the recording really ended when the buffer filled, and a later stamp could lie more
 * than a 32-bit wrap after the last record (ticks were dropped too) and be misread.
 * @param[in,out] host the host. @param[out] rec_out optional: the recorder that was attached.
 * @retval EVREC_OK stopped. @retval EVREC_E_NOT_RECORDING nothing was attached.
 * **Context:** thread. Spins (EVREC_PORT_RELAX()) while another context is inside a record call,
 * so it must not be called from an interrupt or signal handler that may have interrupted a
 * recording context (that would wait forever). Calls racing with it are either recorded or
 * ignored, never lost half-written.
 */
evrec_status evrec_host_stop(evrec_host_t *host, evrec_recorder_t **rec_out);

/**
 * @brief Out-of-line slow path of evrec_reserve(): counts the drop unless `pos` says the host is
 * detached. Not for direct use. @return always NULL. **Context:** as evrec_reserve().
 */
void *evrec_reserve_failed(evrec_host_t *host, size_t pos);

/**
 * @brief Reserve a slot of `slot_size` bytes and stamp it: the fast path used by generated code.
 *
 * @param[in,out] host the host. @param slot_size the event struct's native size rounded up to
 * 4 bytes; at most ::EVREC_MAX_EVENT_SIZE.
 * @return a pointer to the slot with `time` already written (the caller writes the fields, then
 * calls evrec_commit() with the event id), or NULL if nothing is to be written: no recorder
 * attached (not counted) or buffer full (counted as a drop; in cyclic mode, a drop happens only
 * when another context is clearing the next block at that very moment).
 * **Context:** lock-free; wait-free in one-shot mode; any thread, interrupt or signal handler.
 * Cost: one timestamp read, one relaxed load, one atomic fetch-and-add (one-shot) or
 * compare-and-swap (cyclic; at a block boundary also the clearing of one block ahead).
 * @code
 * my_event_t *e = evrec_reserve(&host, sizeof(my_event_t));
 * if (e) { e->a = 1; e->b = 2; evrec_commit(e, MY_EVENT_ID); }
 * @endcode
 */
static inline void *evrec_reserve(evrec_host_t *host, size_t slot_size)
{
    /* Acquire: pairs with the release store of `pos` in evrec_host_start(), which publishes the
     * geometry (buf, cap, block_mask, ring_mask) read here; relaxed atomic loads of those (plain
     * loads) because a restart may rewrite them while a context that saw the host closed reads. */
    size_t seen = evrec_atomic_load_acquire(&host->pos);
    if (__builtin_expect(seen >= EVREC_LOAD_RELAXED(&host->cap), 0)) {
        return evrec_reserve_failed(host, seen);
    }
    uint32_t t = EVREC_PORT_TIMESTAMP();
    size_t p;
    size_t block_mask = EVREC_LOAD_RELAXED(&host->block_mask);
    if (__builtin_expect(block_mask == 0, 1)) {
        /* one-shot: one fetch-and-add */
        p = evrec_atomic_fetch_add(&host->pos, slot_size);
        if (__builtin_expect(p + slot_size > EVREC_LOAD_RELAXED(&host->cap), 0)) {
            return evrec_reserve_failed(host, p);
        }
    } else {
        /* cyclic: compare-and-swap while the record fits the current block */
        p = seen;
        for (;;) {
            if (((p - EVREC_BLOCK_HEADER) & block_mask) + slot_size >
                block_mask + 1u - EVREC_BLOCK_HEADER) {
                p = evrec_reserve_cyclic_switch(host, p, slot_size);
                if (p == EVREC_POS_CLOSED) {
                    return NULL;
                }
                break;
            }
            if (evrec_atomic_cas(&host->pos, &p, p + slot_size)) {
                break;
            }
            if (p >= EVREC_POS_CLOSED) {
                return NULL;
            }
        }
    }
    evrec_record_header_t *r = (evrec_record_header_t *)(void *)(EVREC_LOAD_RELAXED(&host->buf) +
                                                               (p & EVREC_LOAD_RELAXED(&host->ring_mask)));
    r->time = t;
    return r;
}

/**
 * @brief Publish a record reserved with evrec_reserve(): stores its id with release order.
 * @param[in,out] slot the pointer evrec_reserve() returned (not NULL). @param id its event id.
 * **Context:** same context that reserved the slot; ISR-safe.
 */
static inline void evrec_commit(void *slot, uint16_t id)
{
    __atomic_store_n(&((evrec_record_header_t *)slot)->id, id, __ATOMIC_RELEASE);
}

/**
 * @brief Record one event from a complete native event struct (the generic, table-driven path).
 * @param[in,out] host the host. @param event_id index in the meta-info's events.
 * @param[in] fields a complete native struct of that event type; its `time` and `id` members are
 * ignored (overwritten in the copy). Native size bytes are read.
 * @retval EVREC_OK recorded. @retval EVREC_E_NOT_RECORDING no recorder attached (not counted).
 * @retval EVREC_E_DROPPED buffer full; counted in the recorder's `dropped`.
 * @retval EVREC_E_BAD_ID event_id is not in the meta-info (nothing recorded, nothing counted).
 * **Context:** lock-free; any thread, interrupt or signal handler.
 */
evrec_status evrec_record(evrec_host_t *host, uint16_t event_id, const void *fields);

/**
 * @brief Record EventControl Tick (CCore EventRecorderHost::tick). Call it periodically so that
 * no two consecutive records are a full 2^32 timestamp ticks apart; the POSIX port's tick thread
 * does it at 10 Hz.
 * @param[in,out] host the host.
 * @retval EVREC_OK recorded. @retval EVREC_E_NOT_RECORDING / EVREC_E_DROPPED as evrec_record().
 * **Context:** lock-free; any thread or interrupt (a timer interrupt is typical).
 */
evrec_status evrec_tick(evrec_host_t *host);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_RECORDER_H */
