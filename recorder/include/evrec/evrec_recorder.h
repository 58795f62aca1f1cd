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
 * Buffer layout: a ::EVREC_BUF_HEADER_SIZE-byte header (::evrec_buf_header_t: geometry, state,
 * counts), optionally a meta-info blob (evrec_recorder_keep_meta()), then the record area: records
 * one after another, each `uint32 time; uint16 id;` then its fields in native order, taking the
 * event struct's native size rounded up to 4 bytes. The first record is EventControl Start, the
 * last EventControl Stop. Because the header is in the buffer, a buffer that survives its program
 * (a crash, a reset, a debugger dump) can still be saved: evrec_recorder_recover().
 *
 * Concurrency: the record path costs one timestamp read, one relaxed load, one atomic
 * fetch-and-add and the stores of the record; it never blocks, allocates or aborts. Any number
 * of threads and interrupt/signal handlers may record at once. Each record is committed by a
 * release store of its id (the buffer is pre-filled with 0xFF, so id 0xFFFF means "not reserved
 * yet", and evrec_reserve() writes a provisional id, EVREC_ID_PROVISIONAL(), until the commit);
 * evrec_host_stop() closes allocation and then waits for every allocated record to be committed
 * (the guarantee of CCore's GuardCount without its two extra atomics per record). Threads on
 * several cores that record through one host share its allocation offset (one cache line that
 * every record writes): split the recorder into per-core lanes instead (evrec/evrec_lanes.h).
 *
 * API overview:
 * - The buffer: evrec_recorder_init() (one-shot), evrec_recorder_init_cyclic() (ring of blocks),
 *   evrec_recorder_keep_meta(), evrec_recorder_counts(), evrec_recorder_records().
 * - A buffer from elsewhere: evrec_recorder_recover(), evrec_recorder_recover_ex() (after a crash
 *   or reset), evrec_recorder_wrap() (records made by other means).
 * - The host: evrec_host_init(), evrec_host_start(), evrec_host_stop().
 * - Recording: evrec_reserve() + evrec_commit() (the fast path generated code uses),
 *   evrec_record() (table-driven), evrec_tick() (periodic EventControl Tick).
 * - Layout: ::evrec_buf_header_t, EVREC_BUF_HEADER_SIZE, EVREC_CYCLIC_BUFFER_SIZE(),
 *   EVREC_ID_PROVISIONAL(); saving the buffer: evrec/evrec_save.h.
 *
 * Freestanding: no malloc, no stdio; needs the port header `evrec_port.h`.
 *
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_RECORDER_H
#define EVREC_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_atomic.h"
#include "evrec/evrec_config.h"
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
/** Smallest record area accepted, bytes (CCore: MaxEventLen), besides ::EVREC_BUF_HEADER_SIZE. */
#define EVREC_MIN_BUFFER 256u
/** Smallest provisional id: evrec_reserve() stores EVREC_ID_PROVISIONAL(slot size) as the id of
 * the slot it reserves, which evrec_commit() then overwrites with the real id. So a slot reserved
 * and never committed (its context was killed or reset in between) still says how long it is, and
 * a recovery steps over it to the records committed after it. Event ids stay below this
 * (evrec_host_start() refuses a meta-info with more events: ::EVREC_E_META). */
#define EVREC_ID_PROVISIONAL_MIN 0xFFC0u
/** Provisional id of a reserved slot of `slot_size` bytes (8 .. ::EVREC_MAX_EVENT_SIZE, a multiple
 * of 4): 0xFFC0 .. 0xFFFE, never ::EVREC_ID_NONE. */
#define EVREC_ID_PROVISIONAL(slot_size) ((uint16_t)(0xFFBEu + (unsigned)(slot_size) / 4u))
/** Slot size in bytes a provisional id says; 0 when `id` is not one. */
#define EVREC_PROVISIONAL_SIZE(id)                                                                                \
    ((id) >= EVREC_ID_PROVISIONAL_MIN && (id) < EVREC_ID_NONE ? ((size_t)(id)-0xFFBEu) * 4u : (size_t)0)
/** Allocation offset that marks a host with no recorder attached. */
#define EVREC_POS_CLOSED (((size_t)-1) / 2u + 1u)
/** evrec_host_t::block_mask of a host recording in streaming mode (evrec/evrec_stream.h). */
#define EVREC_STREAM_BLOCK_MASK ((size_t)-1)

/** Bytes at the start of the user's trace buffer that hold its header (::evrec_buf_header_t):
 * the record area starts after it (and after the meta-info blob, if one is kept). */
#define EVREC_BUF_HEADER_SIZE 128u
/** Header magic as a native `uint32_t`: read as big-endian bytes it spells "EVR4" on a target
 * with a 4-byte size_t and "EVR8" with an 8-byte one; a little-endian target stores the bytes
 * reversed ("4RVE"). A reader of a memory image tells the target's byte order and size_t width
 * from these four bytes (FORMAT.md, "RAM buffer header and recovery"). */
#define EVREC_BUF_MAGIC (0x45565200u | (uint32_t)('0' + sizeof(size_t)))
/** Version of the in-buffer header layout of a plain (single-lane) buffer. */
#define EVREC_BUF_VERSION 1u
/** Version of a buffer split into lanes by evrec_lanes_start() (evrec/evrec_lanes.h): the
 * fixed header is the same, `lanes` > 0 sub-buffers follow (FORMAT.md section 7). A
 * single-lane buffer keeps version 1, so that older recovery tools still read it. */
#define EVREC_BUF_VERSION_LANES 2u
/** ::evrec_buf_header_t::state values. */
#define EVREC_BUF_READY 0u     /**< initialised, nothing recorded yet */
#define EVREC_BUF_RECORDING 1u /**< a recording is (or was, at a crash or reset) going on */
#define EVREC_BUF_STOPPED 2u   /**< stopped (or recovered): the counts are final, save may run */
/** ::evrec_buf_header_t::flags bits. */
#define EVREC_BUF_CYCLIC 1u    /**< cyclic mode: the record area is a ring of blocks */
#define EVREC_BUF_META 2u      /**< a meta-info blob is kept at meta_offset (evrec_recorder_keep_meta()) */
#define EVREC_BUF_WANT_META 4u /**< keep_meta was asked: start writes the blob */
#define EVREC_BUF_LANES 8u     /**< the record area is split into `lanes` sub-buffers (version 2) */
#define EVREC_BUF_STREAM                                                                                          \
    16u /**< streaming mode (evrec/evrec_stream.h): with EVREC_BUF_CYCLIC, a ring the drain empties */

/**
 * @brief Header at the start of the user's trace buffer (the idea of ThreadX's TX_TRACE_HEADER):
 * everything save and a crash recovery need, and the recording's bookkeeping, live in the buffer
 * itself, so that the RAM a recording needs besides the buffer is a few dozen bytes (the host and
 * the recorder object), and so that a buffer that outlives the program (a file-backed mapping, a
 * `.noinit` section across a reset, a debugger's memory dump) can still be saved.
 *
 * Native byte order and native size_t width; byte offsets for a W-byte size_t are in brackets
 * (FORMAT.md, "RAM buffer header and recovery"). Written by evrec_recorder_init() and the
 * recording; read-only for the user (read the counts with evrec_recorder_counts()).
 */
typedef struct evrec_buf_header {
    uint32_t magic;                  /**< [0] ::EVREC_BUF_MAGIC */
    uint16_t version;                /**< [4] ::EVREC_BUF_VERSION */
    uint16_t header_size;            /**< [6] ::EVREC_BUF_HEADER_SIZE */
    uint32_t state;                  /**< [8] EVREC_BUF_READY / _RECORDING / _STOPPED */
    uint32_t flags;                  /**< [12] EVREC_BUF_CYCLIC, EVREC_BUF_META */
    uint64_t time_freq;              /**< [16] timestamp frequency, Hz (0 = unknown) */
    uint64_t schema_hash;            /**< [24] the meta-info's schema hash (evrec_meta_t::schema_hash) */
    uint64_t recorded;               /**< [32] after stop: records save writes (Start, Stop included) */
    uint64_t buf_size;               /**< [40] bytes of the whole buffer (header included) */
    uint32_t records_offset;         /**< [48] where the record area starts, bytes from the header */
    uint32_t records_size;           /**< [52] bytes of the record area (cyclic: the ring) */
    uint32_t block_size;             /**< [56] cyclic: bytes per block (a power of two); 0 one-shot */
    uint32_t block_count;            /**< [60] cyclic: blocks in the ring (a power of two); 0 one-shot */
    uint32_t meta_offset;            /**< [64] meta-info blob, bytes from the header; 0 = none */
    uint32_t meta_size;              /**< [68] bytes of the meta-info blob */
    uint32_t full_time;              /**< [72] timestamp of the first drop (the buffer filled) */
    uint32_t lanes;                  /**< [76] allocation lanes: 1, or N after evrec_lanes_start() */
    evrec_atomic_size_t dropped;     /**< [80] drops in the recording (wraps at SIZE_MAX) */
    evrec_atomic_size_t fail_pos;    /**< [80+W] one-shot: smallest offset whose allocation failed */
    evrec_atomic_size_t overwritten; /**< [80+2W] cyclic: intact records cleared for reuse */
    size_t end_pos;                  /**< [80+3W] after stop: allocation position after Stop (virtual) */
    size_t used;                     /**< [80+4W] after stop: native bytes of the records save writes */
    const evrec_meta_t *meta;        /**< [80+5W] the meta-info's address on the target (informative) */
} evrec_buf_header_t;

/**
 * @brief A trace buffer (CCore EventRecorder). User memory, a few words: the buffer's header
 * holds the rest. Set up with evrec_recorder_init() or evrec_recorder_init_cyclic(); fields are
 * private (read the counts with evrec_recorder_counts()).
 */
typedef struct evrec_recorder {
    evrec_buf_header_t *hdr;               /**< the user's buffer: its header, then the record area */
    struct evrec_host *host;               /**< the host while attached (cyclic save while recording) */
    const struct evrec_cyclic_ops *cyclic; /**< cyclic: the ring's code, so that it is linked only
                                                when used; NULL in one-shot mode */
    evrec_status (*keep_meta)(struct evrec_recorder *rec, const evrec_meta_t *meta,
                              uint64_t time_freq); /**< writes the meta-info blob at start (set by
                                                       evrec_recorder_keep_meta()), else NULL */
    const struct evrec_attrs *attrs; /**< the recording's attributes (evrec_recorder_set_attrs()), or NULL */
} evrec_recorder_t;

/** @brief What a recording left in a buffer: evrec_recorder_counts(). */
typedef struct evrec_recorder_counts {
    uint64_t recorded;    /**< records save writes, Start and Stop included (after stop; cyclic:
                               the records of the intact blocks, Start too while not overwritten) */
    uint64_t dropped;     /**< events dropped because the buffer was full */
    uint64_t overwritten; /**< cyclic: intact records lost to overwriting */
    size_t used;          /**< native bytes of the records save writes (block headers and unused
                               block tails not counted) */
    size_t size;          /**< bytes of the record area (cyclic: the ring) */
    size_t block_count;   /**< cyclic: blocks in the ring; 0 one-shot */
    uint32_t state;       /**< EVREC_BUF_READY / _RECORDING / _STOPPED */
} evrec_recorder_counts_t;

/**
 * @brief The counts of a recorder's buffer (they live in its header).
 * @param[in] rec an initialised recorder.
 * @return the counts; all zero for a NULL recorder or one never initialised. While recording goes
 *     on, `dropped` and `overwritten` are live and the others are those of the last stop. A
 *     recorder split into lanes (evrec/evrec_lanes.h) holds the sums over its lanes from
 *     evrec_lanes_stop() on (`recorded` and `used` less the copies save writes once: the lanes'
 *     Starts, Stops and evrec_lanes_tick() Ticks but one each, see evrec_lanes_stop()); while its lanes
 *     record, each lane's live counts are evrec_recorder_lane_counts()'s.
 * **Context:** any; lock-free (plain loads).
 */
evrec_recorder_counts_t evrec_recorder_counts(const evrec_recorder_t *rec);

/**
 * @brief The record area of an initialised recorder (after its header and meta-info blob): a
 * one-shot recording's records are at offsets 0 .. evrec_recorder_counts().used.
 * @pre `rec` was initialised (evrec_recorder_init(), _init_cyclic(), _recover() or _wrap()).
 * @param[in] rec the recorder.
 * @return the first byte of the record area, inside the caller's buffer.
 * **Context:** any, ISR-safe; two loads.
 */
static inline uint8_t *evrec_recorder_records(const evrec_recorder_t *rec)
{
    return (uint8_t *)rec->hdr + rec->hdr->records_offset;
}

/** Size of the header at the start of each cyclic block, bytes (FORMAT.md is silent on
 * it: blocks exist only in RAM; save writes plain records). */
#define EVREC_BLOCK_HEADER 16u

/** @brief Header of a cyclic block, in the buffer. */
typedef struct evrec_block_header {
    uint32_t seq;              /**< once opened: block number (bits 0..23), distance back to the
                                    block it followed (bits 24..31); all ones before */
    uint32_t closed;           /**< 0 while open; once closed: the offset of its first unused
                                    byte (bits 0..16) and the number of records allocated in it
                                    (bits 17..31), written together by the context that closes it */
    evrec_atomic_size_t ready; /**< block number this slot was cleared for; all ones while clearing */
#if SIZE_MAX <= 0xFFFFFFFFu
    uint32_t pad;
#endif
} evrec_block_header_t;

/** Bits of evrec_block_header_t::closed. */
#define EVREC_CLOSED_USED_MASK 0x1FFFFu
#define EVREC_CLOSED_COUNT_SHIFT 17u

/**
 * @brief The object code records through (CCore EventRecorderHost). Usually one global.
 * Zero-initialise it or call evrec_host_init(). Fields are private. It holds only what the
 * record path reads (the rest is in the buffer's header): on hosts with a data cache the
 * read-only part and the allocation offset that every record writes are on different cache lines.
 */
typedef struct evrec_host {
    evrec_atomic_size_t pos; /**< next free offset (cyclic: plus, in the bits above the offset,
                                   the records allocated in the current block, in units of
                                   count_one); >= EVREC_POS_CLOSED when detached */
#if EVREC_HOST_SPLIT_LINES
    _Alignas(EVREC_HOST_SPLIT_LINES) uint8_t *buf; /**< record area of the attached recorder */
#else
    uint8_t *buf; /**< record area of the attached recorder */
#endif
    size_t cap;               /**< one-shot: bytes usable by events (buffer size minus the Stop slot);
                                   cyclic: EVREC_POS_CLOSED; streaming: the end of the block `pos` is in
                                   (lower, even 0, while a block switch is being published) */
    size_t block_mask;        /**< cyclic: block_size - 1; 0 in one-shot mode; ::EVREC_STREAM_BLOCK_MASK
                                   in streaming mode */
    size_t ring_mask;         /**< cyclic: ring bytes - 1; SIZE_MAX in one-shot mode */
    size_t count_one;         /**< cyclic: 1 in the record-count bits of pos (above the offset);
                                   streaming: block numbers - 1 (they run modulo a power of two) */
    const evrec_meta_t *meta; /**< meta-info of the attached recording */
    evrec_recorder_t *rec;    /**< attached recorder */
    unsigned block_shift;     /**< cyclic: log2(block_size) */
} evrec_host_t;

/**
 * @brief Give a recorder its trace buffer (one-shot mode: records until full, then drops).
 * Writes a fresh header at the start of `buf` (a buffer a previous run left must be recovered with
 * evrec_recorder_recover() before this).
 * @pre The recorder is attached to no host (never started, or stopped).
 * @param[out] rec the recorder (user memory).
 * @param[in] buf trace buffer, 8-byte aligned, owned by the caller for as long as the recorder is
 *     used.
 * @param[in] size bytes in buf, header included; rounded down to 4. The record area is `size -
 *     EVREC_BUF_HEADER_SIZE` bytes.
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL, misaligned, or fewer than ::EVREC_MIN_BUFFER bytes after the header.
 * **Context:** thread, not while the recorder is attached.
 */
evrec_status evrec_recorder_init(evrec_recorder_t *rec, void *buf, size_t size);

/**
 * @brief Attach the recording's attributes (evrec/evrec_attrs.h): the saves of `rec` write them
 * as an ATTRS chunk (FORMAT.md section 2.6), and a stream (evrec_stream_t::rec) sends them in its
 * meta document. The object is read at each save (and at each meta document), not copied: its
 * values may still be set or changed after this call.
 * @pre `rec` was initialised: evrec_recorder_init() and the other initialisers clear the pointer.
 * @param[in,out] rec the recorder.
 * @param[in] attrs the attributes (caller-owned, kept until the last save), or NULL to detach.
 * @retval EVREC_OK attached.
 * @retval EVREC_E_ARG `rec` is NULL.
 * **Context:** thread; not concurrent with a save of `rec`.
 */
evrec_status evrec_recorder_set_attrs(evrec_recorder_t *rec, const struct evrec_attrs *attrs);

/** Bytes of a cyclic trace buffer of `blocks` blocks of `block_size` bytes (header included). */
#define EVREC_CYCLIC_BUFFER_SIZE(blocks, block_size)                                                              \
    ((size_t)(blocks) * (size_t)(block_size) + EVREC_BUF_HEADER_SIZE)

/**
 * @brief Give a recorder its trace buffer in cyclic (last-is-best) mode: the buffer is a ring of
 * `block_size` blocks; a record never straddles a block; when the ring is full the oldest block is
 * cleared and reused, so the buffer always holds the newest records (as the ThreadX context-switch
 * logger of "Debugging Threading issues in ThreadX circa 2011" and QS's last-is-best policy do).
 * Each block starts with a ::EVREC_BLOCK_HEADER-byte header that keeps, once the block is closed,
 * its extent and record count, so that reusing a block costs no walk over its records. The ring
 * keeps the newest `block_count - 2` blocks whole: one block ahead of the writer is cleared in
 * advance.
 * @pre The recorder is attached to no host (never started, or stopped).
 * @param[out] rec the recorder.
 * @param[in] buf trace buffer, 8-byte aligned, caller-owned.
 * @param[in] size bytes in buf, header included: the ring uses the largest power-of-two number of
 * blocks that fits after the header (EVREC_CYCLIC_BUFFER_SIZE(n, block_size) gives exactly n).
 * @param[in] block_size bytes per block: a power of two, 256 .. 65536; every event's native size
 * plus the block header must fit in it (checked by evrec_host_start()). A save while recording
 * goes on needs block_size <= EVREC_SAVE_CHUNK - 16.
 * Limits: a context that needs the next block while another is clearing it skips that block (or
 * drops its event, counted, after 8 busy blocks). A context preempted for a whole lap of the ring
 * inside a block switch never tears or reorders anything: the block it holds is skipped (not
 * cleared) lap after lap until it is done. Its records are then older than the ring's window:
 * they are counted as overwritten when the slot is next reused, and neither saved nor counted if
 * recording stops before that. A context preempted for a whole lap between reserving and
 * committing a record is detected when its block is reused if ::EVREC_CYCLIC_GUARD is 1 (the
 * default on hosts; the block is skipped until the record is committed); with 0 (the default of
 * the MCU ports, where an interrupt never lasts a lap) the block is reused and the late record
 * can tear a newer one. Size the ring so that a lap takes longer than the longest preemption of
 * a recording context. On a 32-bit target the ring holds at most 2^(31 - 2 log2(block_size))
 * blocks (the block numbering shares the allocation word with the per-block record count).
 * @retval EVREC_OK ready.
 * @retval EVREC_E_ARG NULL, misaligned, block_size not a power of two in range, fewer than 4 blocks
 *     fit, or more than a quarter of the block numbering.
 * **Context:** thread, not while the recorder is attached.
 */
evrec_status evrec_recorder_init_cyclic(evrec_recorder_t *rec, void *buf, size_t size, size_t block_size);

/**
 * @brief Keep a save-ready copy of the meta-info in the buffer, after its header, so that a tool
 * that has only the buffer (a file-backed mapping after a crash, a debugger's memory dump) can
 * write a complete file: `evrec recover`. evrec_host_start() writes it: the CCore meta-info stream
 * as save writes it (big-endian, FORMAT.md section 3), then the native layout (struct sizes
 * and field offsets). Run-time enum names registered after start are not in it. The record area
 * shrinks by the blob's size (a cyclic ring may lose blocks: start fails with EVREC_E_ARG when
 * fewer than 4 remain). Links the save code into the program.
 * @pre The recorder is attached to no host (never started, or stopped).
 * @param[in,out] rec an initialised recorder, not attached.
 * @retval EVREC_OK kept from the next start on.
 * @retval EVREC_E_ARG NULL or not initialised.
 * @retval EVREC_E_BUSY attached.
 * **Context:** thread, not while the recorder is attached.
 */
evrec_status evrec_recorder_keep_meta(evrec_recorder_t *rec);

/**
 * @brief Recover a trace buffer that a previous run of this program left (a `.noinit` section
 * across a reset, a file-backed mapping after a crash, an image loaded from a debugger's dump):
 * checks its header, then finishes the recording as evrec_host_stop() would (without a Stop
 * record): every committed record is kept, slots reserved and never committed are skipped and
 * counted (as dropped too; evrec_recorder_recover_ex() also gives their offsets), and the counts
 * are stored; evrec_save() then writes the file.
 * Records must be this target's native layout and byte order (a tool reading another target's
 * image converts it first: `evrec recover`).
 * @pre Nothing records into `buf` meanwhile.
 * @param[out] rec the recorder to set up over it.
 * @param[in,out] buf the buffer, as the previous run gave it to evrec_recorder_init*().
 * @param[in] size its bytes.
 * @param[in] meta the program's meta-info: its schema hash must match the header's (save uses it).
 * @param[out] partial optional: slots reserved and never committed (skipped).
 * @retval EVREC_OK recovered: save it, then init the recorder afresh to record again.
 * @retval EVREC_E_END the buffer holds a recording that was stopped (and maybe saved) normally:
 *         `rec` is set up too; save it again if wanted.
 * @retval EVREC_E_NOT_RECORDING no valid header (cold boot: random RAM) or nothing was recorded.
 * @retval EVREC_E_UNSUPPORTED a header of another byte order, size_t width or layout version.
 * @retval EVREC_E_CORRUPT the header's geometry does not fit `size` or is inconsistent.
 * @retval EVREC_E_META the schema hash differs from meta's (another firmware recorded it), or
 *         meta has more than ::EVREC_ID_PROVISIONAL_MIN events.
 * @retval EVREC_E_ARG NULL pointer or `buf` not 8-byte aligned.
 * **Context:** thread; nothing may record into the buffer meanwhile.
 */
evrec_status evrec_recorder_recover(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                                    uint64_t *partial);

/** Offsets of skipped slots an ::evrec_recover_report_t keeps (the first ones found). */
#define EVREC_RECOVER_OFFSETS 16u

/** @brief What evrec_recorder_recover_ex() found besides the records it kept. */
typedef struct evrec_recover_report {
    uint64_t skipped;                       /**< slots reserved and never committed (their context died between
                                  evrec_reserve() and evrec_commit()): stepped over, not saved,
                                  and added to the header's `dropped` */
    uint32_t offsets_kept;                  /**< entries of `offset` used: min(skipped, ::EVREC_RECOVER_OFFSETS) */
    uint64_t offset[EVREC_RECOVER_OFFSETS]; /**< byte offsets of the first skipped slots, from the
                                                 start of the buffer given to recover */
} evrec_recover_report_t;

/**
 * @brief evrec_recorder_recover() with a report of the slots it skipped. Recovery reads only
 * `buf[0 .. size)`: every offset, size, count and flag of the header (and of each lane's header
 * and each cyclic block's header) is checked against `size` and alignment before it is used.
 * Every committed record is kept, whatever other contexts were doing: a slot that was reserved
 * and never committed is stepped over by the size its provisional id (EVREC_ID_PROVISIONAL())
 * gives, or, when its context died before even that was written, by finding the next record
 * after its 0xFF bytes; the records after it are moved down over it (the buffer is rewritten), so
 * that save reads them back to back. Each skipped slot is counted in the header's `dropped`, so the
 * saved file does not claim a complete recording. A buffer split into lanes gets the lanes' summed
 * `dropped` and `overwritten`, and as `recorded` the records the saved file holds (the lanes'
 * copies of Start, Stop and each evrec_lanes_tick() Tick, which save writes once, not counted).
 * @pre Nothing records into `buf` meanwhile.
 * @param[out] rec the recorder to set up over the buffer, as evrec_recorder_recover().
 * @param[in,out] buf the buffer, as the previous run gave it to evrec_recorder_init*().
 * @param[in] size its bytes.
 * @param[in] meta the program's meta-info: its schema hash must match the header's.
 * @param[out] report optional (caller's memory): the skipped slots' count and first offsets; zeroed
 *     first.
 * @retval EVREC_OK recovered.
 * @retval EVREC_E_END stopped normally (nothing skipped).
 * @retval EVREC_E_NOT_RECORDING no valid header or nothing recorded.
 * @retval EVREC_E_UNSUPPORTED another byte order, size_t width or layout version.
 * @retval EVREC_E_CORRUPT the geometry does not fit `size`, is misaligned, or has unknown flags.
 * @retval EVREC_E_META schema hash differs, or meta has more than ::EVREC_ID_PROVISIONAL_MIN
 *     events.
 * @retval EVREC_E_ARG NULL pointer or `buf` not 8-byte aligned.
 * **Context:** thread; nothing may record into the buffer meanwhile.
 */
evrec_status evrec_recorder_recover_ex(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                                       evrec_recover_report_t *report);

/**
 * @brief Out-of-line part of cyclic allocation: a record that does not fit the current block.
 * Not for direct use (evrec_reserve() calls it).
 * @param[in,out] host the host, in cyclic mode.
 * @param[in] cur the allocation word evrec_reserve() last read.
 * @param[in] len the slot size, bytes.
 * @return the allocated position, or EVREC_POS_CLOSED (nothing to write).
 * **Context:** as evrec_reserve().
 */
size_t evrec_reserve_cyclic_switch(evrec_host_t *host, size_t cur, size_t len);

/**
 * @brief Set up a stopped recorder over records a program built itself (a converter, a test), so
 * that evrec_save() writes them: `buf` starts with ::EVREC_BUF_HEADER_SIZE bytes for the header
 * (written here), then `used` bytes of native one-shot records (Start first, Stop last, as a
 * recording leaves them).
 * @param[out] rec the recorder.
 * @param[in,out] buf header space then records, 8-byte aligned, caller-owned.
 * @param[in] size bytes of buf.
 * @param[in] meta their meta-info (kept until save).
 * @param[in] time_freq Hz (0 = unknown).
 * @param[in] used bytes of records after the header.
 * @param[in] recorded records among them.
 * @param[in] dropped drops to report in the file header.
 * @retval EVREC_OK ready to save.
 * @retval EVREC_E_ARG NULL, misaligned, or used does not fit.
 * **Context:** thread.
 */
evrec_status evrec_recorder_wrap(evrec_recorder_t *rec, void *buf, size_t size, const evrec_meta_t *meta,
                                 uint64_t time_freq, size_t used, uint64_t recorded, uint64_t dropped);

/**
 * @brief Make a host that records nothing until evrec_host_start().
 * @param[out] host the object (user memory). A zero-initialised static host is equivalent.
 * **Context:** before any thread records through it.
 */
void evrec_host_init(evrec_host_t *host);

/**
 * @brief Attach a recorder and start recording: fills the buffer with 0xFF, writes EventControl
 * Start as the first record, then opens allocation (CCore StartStop constructor).
 * @param[in,out] host the host.
 * @pre `rec` is initialised and attached to no host; evrec_meta_validate(meta) returned EVREC_OK.
 * @param[in,out] rec an initialised recorder, not attached elsewhere.
 * @param[in] meta validated meta-info, kept alive until save is done.
 * @param[in] time_freq timestamp frequency in Hz written to the file (0 = unknown): usually
 *     EVREC_PORT_TIME_FREQ(), which every port defines (the POSIX port measures the TSC once per
 *     process; the null port and a port without it give 0).
 * @retval EVREC_OK recording.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_BUSY the host already has a recorder.
 * @retval EVREC_E_META meta has no event 0 of size 8 (EventControl), or more than
 *     ::EVREC_ID_PROVISIONAL_MIN events.
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
 * @param[in,out] host the host.
 * @param[out] rec_out optional: the recorder that was attached.
 * @retval EVREC_OK stopped.
 * @retval EVREC_E_NOT_RECORDING nothing was attached.
 * **Context:** thread. Spins (EVREC_PORT_RELAX()) while another context is inside a record call,
 * so it must not be called from an interrupt or signal handler that may have interrupted a
 * recording context (that would wait forever). Calls racing with it are either recorded or
 * ignored, never lost half-written.
 */
evrec_status evrec_host_stop(evrec_host_t *host, evrec_recorder_t **rec_out);

/**
 * @brief Out-of-line slow path of evrec_reserve(): counts the drop unless `pos` says the host is
 * detached. Not for direct use.
 * @param[in,out] host the host.
 * @param[in] pos the allocation word that failed (>= EVREC_POS_CLOSED: detached, not counted).
 * @return always NULL.
 * **Context:** as evrec_reserve().
 */
void *evrec_reserve_failed(evrec_host_t *host, size_t pos);

/* The compare-and-swap of evrec_reserve() with its orders (evrec_atomic_cas()) as fences around
 * the caller's whole test: on a uniprocessor port the compiler then branches on the store's status
 * instead of materialising a flag between two barriers (four instructions less per record). */
#if EVREC_PORT_HAS_ATOMICS && EVREC_UP_ORDER && defined(EVREC_PORT_CAS_FAILED)
/* the port's own (ports/cortex-m: LDREX/STREX without an IT block); *e is not updated, the slow
 * path reads `pos` again */
#define EVREC_CAS_(p, e, v) (EVREC_PORT_CAS_FAILED((p), *(e), (v)) == 0)
#define EVREC_CAS_FENCE_(order) __atomic_signal_fence(order)
#elif EVREC_PORT_HAS_ATOMICS && EVREC_UP_ORDER
#define EVREC_CAS_(p, e, v) __atomic_compare_exchange_n((p), (e), (v), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)
#define EVREC_CAS_FENCE_(order) __atomic_signal_fence(order)
#else
#define EVREC_CAS_(p, e, v) evrec_atomic_cas((p), (e), (v))
#define EVREC_CAS_FENCE_(order) ((void)0)
#endif

/**
 * @brief Reserve a slot of `slot_size` bytes and stamp it: the fast path used by generated code.
 *
 * @param[in,out] host the host.
 * @param[in] slot_size the event struct's native size rounded up to 4 bytes; at most
 *     ::EVREC_MAX_EVENT_SIZE.
 * @return a pointer to the slot with `time` and a provisional id (EVREC_ID_PROVISIONAL()) already
 *     written (the caller writes the fields, then calls evrec_commit() with the event id), or
 *     NULL if nothing is to be written: no recorder attached (not counted) or buffer full
 *     (counted as a drop; in cyclic mode, a drop happens only when another context is clearing
 *     the next block at that very moment).
 * **Context:** lock-free; wait-free in one-shot mode; any thread, interrupt or signal handler.
 * Cost: one timestamp read, three relaxed loads, one atomic fetch-and-add (one-shot) or
 * compare-and-swap (cyclic: at a block boundary also the clearing of one block ahead; streaming:
 * against the end of the current block, the block switch out of line), the stores of the time
 * and of the provisional id.
 * @code
 * my_event_t *e = evrec_reserve(&host, sizeof(my_event_t));
 * if (e) { e->a = 1; e->b = 2; evrec_commit(e, MY_EVENT_ID); }
 * @endcode
 */
static EVREC_ALWAYS_INLINE void *evrec_reserve(evrec_host_t *host, size_t slot_size)
{
    /* Acquire: pairs with the release store of `pos` in evrec_host_start(), which publishes the
     * geometry (buf, cap, block_mask, ring_mask) read here; relaxed atomic loads of those (plain
     * loads) because a restart may rewrite them while a context that saw the host closed reads. */
    size_t seen = evrec_atomic_load_acquire(&host->pos);
    size_t cap = EVREC_LOAD_RELAXED(&host->cap);
    size_t block_mask = EVREC_LOAD_RELAXED(&host->block_mask);
    uint32_t t;
    size_t p;
    if (__builtin_expect(block_mask == 0, 1)) {
        /* one-shot: one fetch-and-add */
        if (__builtin_expect(seen >= cap, 0)) {
            return evrec_reserve_failed(host, seen);
        }
        t = EVREC_PORT_TIMESTAMP();
        p = evrec_atomic_fetch_add(&host->pos, slot_size);
        if (__builtin_expect(p + slot_size > EVREC_LOAD_RELAXED(&host->cap), 0)) {
            return evrec_reserve_failed(host, p);
        }
    } else if (__builtin_expect(block_mask == EVREC_STREAM_BLOCK_MASK, 1)) {
        /* streaming: one compare-and-swap while the record fits below cap, the end of the block
         * `pos` is in (so nothing is ever allocated beyond it: no failed allocation to undo);
         * else, or when another context came first, the out-of-line path (block switch, retry,
         * drop). cap is never EVREC_POS_CLOSED: a detached host fails the test. */
        t = EVREC_PORT_TIMESTAMP();
        p = seen;
        size_t expected = seen; /* not p: the failure's update would cost a move on the fast path */
        EVREC_CAS_FENCE_(__ATOMIC_RELEASE);
        if (__builtin_expect(p + slot_size > cap, 0) ||
            __builtin_expect(!EVREC_CAS_(&host->pos, &expected, p + slot_size), 0)) {
            p = evrec_reserve_cyclic_switch(host, expected, slot_size);
            if (p == EVREC_POS_CLOSED) {
                return NULL;
            }
        }
        EVREC_CAS_FENCE_(__ATOMIC_ACQUIRE);
    } else {
        if (__builtin_expect(seen >= cap, 0)) {
            return evrec_reserve_failed(host, seen); /* cap is EVREC_POS_CLOSED: detached */
        }
        /* cyclic: one compare-and-swap while the record fits the current block, the count bits
         * above the position counting its records (count_one each); else, or when another
         * context came first, the out-of-line path (block switch or retry) */
        t = EVREC_PORT_TIMESTAMP();
        p = seen;
        size_t expected = seen;
        EVREC_CAS_FENCE_(__ATOMIC_RELEASE);
        if (__builtin_expect(
                ((p - EVREC_BLOCK_HEADER) & block_mask) + slot_size > block_mask + 1u - EVREC_BLOCK_HEADER, 0) ||
            __builtin_expect(
                !EVREC_CAS_(&host->pos, &expected, p + slot_size + EVREC_LOAD_RELAXED(&host->count_one)), 0)) {
            p = evrec_reserve_cyclic_switch(host, expected, slot_size);
            if (p == EVREC_POS_CLOSED) {
                return NULL;
            }
        }
        EVREC_CAS_FENCE_(__ATOMIC_ACQUIRE);
    }
    evrec_record_header_t *r = (evrec_record_header_t *)(void *)(EVREC_LOAD_RELAXED(&host->buf) +
                                                                 (p & EVREC_LOAD_RELAXED(&host->ring_mask)));
    /* With the time, a provisional id: the slot's extent, for a recovery if this context dies
     * before evrec_commit() (a constant: slot_size is sizeof of the event struct in generated
     * code). One 8-byte store where it is one instruction (ARMv7 STRD, 64-bit hosts); the 2 bytes
     * after the id are the slot's own and written by the caller next. Under ThreadSanitizer the
     * id is a relaxed atomic store (readers load it atomically). */
#if !EVREC_TSAN && (defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_7M__) || UINTPTR_MAX > 0xFFFFFFFFu)
    uint64_t word = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                        ? (uint64_t)t | (uint64_t)EVREC_ID_PROVISIONAL(slot_size) << 32
                        : (uint64_t)t << 32 | (uint64_t)EVREC_ID_PROVISIONAL(slot_size) << 16;
    __builtin_memcpy(r, &word, 8);
#else
    r->time = t;
    EVREC_STORE_RELAXED(&r->id, EVREC_ID_PROVISIONAL(slot_size));
#endif
    return r;
}

/**
 * @brief Publish a record reserved with evrec_reserve(): stores its id with release order.
 * @pre `slot` came from evrec_reserve() in this context and is not committed yet.
 * @param[in,out] slot the pointer evrec_reserve() returned (not NULL).
 * @param[in] id its event id.
 * **Context:** same context that reserved the slot; ISR-safe.
 */
static EVREC_ALWAYS_INLINE void evrec_commit(void *slot, uint16_t id)
{
    EVREC_STORE_RELEASE(&((evrec_record_header_t *)slot)->id, id);
}

/**
 * @brief Reserve two records in one allocation, stamped with one timestamp read: for a pair of
 * events that always go together (a kernel's context switch: the task switched out, the task
 * switched in). The second record starts `first_size` bytes after the first.
 *
 * The whole slot carries EVREC_ID_PROVISIONAL(first_size + second_size), the second record's
 * header EVREC_ID_PROVISIONAL(second_size); commit the first record, then the second (each with
 * evrec_commit()). Only the lock-free fast path is tried: when it cannot allocate the pair at once
 * (a cyclic or streaming block boundary, another context came first, a one-shot buffer already
 * full, no recorder attached) `*split` is set and the caller records the two events one by one
 * (evrec_reserve() each: their own slow paths count what they drop). When a one-shot buffer fills
 * inside the pair, both records are dropped and counted (two drops).
 * @param[in,out] host the host.
 * @param[in] first_size slot size of the first record, bytes (sizeof its event struct).
 * @param[in] second_size slot size of the second, bytes; first_size + second_size <=
 *     ::EVREC_MAX_EVENT_SIZE.
 * @param[out] split set to 1 when the caller must record the two events one by one, else 0.
 * @return the first record's slot (time and provisional ids written), or NULL.
 * **Context:** lock-free, wait-free in one-shot mode; any thread, interrupt or signal handler.
 * Cost: that of one evrec_reserve() plus one store (two on ports without an 8-byte store).
 */
static EVREC_ALWAYS_INLINE void *evrec_reserve_pair(evrec_host_t *host, size_t first_size, size_t second_size,
                                                    int *split)
{
    size_t n = first_size + second_size;
    size_t seen = evrec_atomic_load_acquire(&host->pos);
    size_t cap = EVREC_LOAD_RELAXED(&host->cap);
    size_t block_mask = EVREC_LOAD_RELAXED(&host->block_mask);
    uint32_t t;
    size_t p = seen;
    size_t expected = seen;
    *split = 1;
    if (__builtin_expect(block_mask == 0, 1)) {
        if (__builtin_expect(seen >= cap, 0)) {
            return NULL;
        }
        t = EVREC_PORT_TIMESTAMP();
        p = evrec_atomic_fetch_add(&host->pos, n);
        if (__builtin_expect(p + n > EVREC_LOAD_RELAXED(&host->cap), 0)) {
            *split = 0;
            (void)evrec_reserve_failed(host, p);
            return evrec_reserve_failed(host, p); /* both dropped, both counted */
        }
    } else if (block_mask == EVREC_STREAM_BLOCK_MASK) {
        t = EVREC_PORT_TIMESTAMP();
        EVREC_CAS_FENCE_(__ATOMIC_RELEASE);
        if (__builtin_expect(seen + n > cap, 0) ||
            __builtin_expect(!EVREC_CAS_(&host->pos, &expected, seen + n), 0)) {
            return NULL;
        }
        EVREC_CAS_FENCE_(__ATOMIC_ACQUIRE);
    } else {
        if (__builtin_expect(seen >= cap, 0)) {
            return NULL;
        }
        t = EVREC_PORT_TIMESTAMP();
        EVREC_CAS_FENCE_(__ATOMIC_RELEASE);
        if (((seen - EVREC_BLOCK_HEADER) & block_mask) + n > block_mask + 1u - EVREC_BLOCK_HEADER ||
            !EVREC_CAS_(&host->pos, &expected, seen + n + 2u * EVREC_LOAD_RELAXED(&host->count_one))) {
            return NULL; /* two records: two in the block's count */
        }
        EVREC_CAS_FENCE_(__ATOMIC_ACQUIRE);
    }
    *split = 0;
    uint8_t *slot = EVREC_LOAD_RELAXED(&host->buf) + (p & EVREC_LOAD_RELAXED(&host->ring_mask));
    evrec_record_header_t *r = (evrec_record_header_t *)(void *)slot;
    evrec_record_header_t *r2 = (evrec_record_header_t *)(void *)(slot + first_size);
    /* Each header's time and provisional id in one 8-byte store where that is one instruction, as
     * evrec_reserve() does (the 2 bytes after each id are the caller's, written next). */
#if !EVREC_TSAN && (defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_7M__) || UINTPTR_MAX > 0xFFFFFFFFu)
    uint64_t word = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                        ? (uint64_t)t | (uint64_t)EVREC_ID_PROVISIONAL(n) << 32
                        : (uint64_t)t << 32 | (uint64_t)EVREC_ID_PROVISIONAL(n) << 16;
    uint64_t word2 = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                         ? (uint64_t)t | (uint64_t)EVREC_ID_PROVISIONAL(second_size) << 32
                         : (uint64_t)t << 32 | (uint64_t)EVREC_ID_PROVISIONAL(second_size) << 16;
    __builtin_memcpy(r, &word, 8);
    __builtin_memcpy(r2, &word2, 8);
#else
    r->time = t;
    EVREC_STORE_RELAXED(&r->id, EVREC_ID_PROVISIONAL(n));
    r2->time = t;
    EVREC_STORE_RELAXED(&r2->id, EVREC_ID_PROVISIONAL(second_size));
#endif
    return r;
}

/**
 * @brief Record one event from a complete native event struct (the generic, table-driven path).
 * @param[in,out] host the host.
 * @param[in] event_id index in the meta-info's events.
 * @param[in] fields a complete native struct of that event type; its `time` and `id` members are
 * ignored (overwritten in the copy). Native size bytes are read.
 * @retval EVREC_OK recorded.
 * @retval EVREC_E_NOT_RECORDING no recorder attached (not counted).
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
 * @retval EVREC_OK recorded.
 * @retval EVREC_E_NOT_RECORDING no recorder attached (not counted).
 * @retval EVREC_E_DROPPED buffer full; counted in the recorder's `dropped`.
 * **Context:** lock-free; any thread or interrupt (a timer interrupt is typical).
 */
evrec_status evrec_tick(evrec_host_t *host);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_RECORDER_H */
