/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_rtt.h
 * @brief An RTT-compatible up-channel for the stream (evrec/evrec_stream.h): drained frames are
 * written into a ring in target RAM that a debug probe reads while the target runs, described by
 * a control block with SEGGER RTT's public layout, so that J-Link, OpenOCD (`rtt setup` /
 * `rtt server`), probe-rs, pyOCD and `evrec record gdb:HOST:PORT --elf FW.elf` find and read it
 * without SEGGER's code.
 *
 * The layout (SEGGER's RTT documentation, wiki.segger.com/RTT "Implementation"; the RTT support
 * of OpenOCD's target layer and probe-rs' rtt module read it so): a control block of
 * - `acID[16]`: "SEGGER RTT", NUL-padded: what a host searches RAM for (OpenOCD: byte by byte,
 *   any alignment) or finds by the ELF symbol `_SEGGER_RTT` (probe-rs, `evrec record`);
 * - `int MaxNumUpBuffers`, `int MaxNumDownBuffers`;
 * - the up buffers, then the down buffers, each `{const char *sName; char *pBuffer;
 *   unsigned SizeOfBuffer; unsigned WrOff; unsigned RdOff; unsigned Flags;}` (24 bytes on a 32-bit
 *   target). The target writes at `WrOff`, the host reads from `RdOff` up to `WrOff` and then
 *   writes `RdOff`; `WrOff == RdOff` is empty and one byte always stays free.
 *
 * This block has one up buffer (channel 0, the stream) and one down buffer without memory
 * (size 0: nothing is read from the host). `Flags` reads 0 (SEGGER's "no block, skip") whatever
 * the mode below; a host that writes it (a blocking mode) changes nothing: the record path never
 * waits for a host.
 *
 * API overview: evrec_rtt_init() (the control block), evrec_rtt_drain() (frames of a stream into
 * the up buffer, as many as fit), evrec_rtt_write() (any bytes, all or nothing),
 * evrec_rtt_free_bytes(), evrec_rtt_counts().
 *
 * Typical use (the idle loop, a timer or a DMA-complete interrupt of the firmware):
 * @code
 * evrec_rtt_t _SEGGER_RTT;              // a global, by the name probe-rs and evrec record look for
 * static evrec_stream_t stream;
 * static uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 1024)] __attribute__((aligned(8)));
 * static uint8_t up[4096];               // the up buffer a probe reads
 * static uint8_t scratch[EVREC_STREAM_MIN_CAP + 256];
 * evrec_rtt_init(&_SEGGER_RTT, up, sizeof up, "evrec", EVREC_RTT_SKIP);
 * evrec_stream_init(&stream, ring, sizeof ring, 1024, 64);
 * evrec_stream_start(&stream, &host, &my_meta, 0, 0);
 * for (;;) {
 *     evrec_rtt_drain(&_SEGGER_RTT, &stream, scratch, sizeof scratch);
 *     ... sleep until the next interrupt ...
 * }
 * @endcode
 *
 * Context rules: evrec_rtt_drain() and evrec_rtt_write() are the single writer of the up buffer
 * (one context at a time, as evrec_stream_drain()); they never wait. On a core with a data cache
 * (Cortex-M7), put the control block and the up buffer in memory the probe sees (non-cacheable
 * or write-through): a probe reads RAM behind the cache.
 *
 * Freestanding: no malloc, no stdio. RTT.md (installed with evrec in share/doc/evrec/) tells how
 * each host tool reads the block and what polling through a GDB server costs the target.
 */
#ifndef EVREC_RTT_H
#define EVREC_RTT_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_status.h"
#include "evrec/evrec_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The control block's ID string (16 bytes with its NUL padding). */
#define EVREC_RTT_ID "SEGGER RTT"
/** The ELF symbol name hosts look the control block up by (probe-rs, `evrec record gdb:`). */
#define EVREC_RTT_SYMBOL "_SEGGER_RTT"

/** @brief One RTT buffer, SEGGER's public layout (the host reads and writes it; fields public). */
typedef struct evrec_rtt_buffer {
    const char *name; /**< sName: NUL-terminated channel name, or NULL */
    uint8_t *buffer;  /**< pBuffer: the ring, SizeOfBuffer bytes */
    uint32_t size;    /**< SizeOfBuffer, bytes */
    uint32_t wr_off;  /**< WrOff: next byte the writer writes (up: the target) */
    uint32_t rd_off;  /**< RdOff: next byte the reader reads (up: the host writes it) */
    uint32_t flags;   /**< Flags: mode bits; 0 here */
} evrec_rtt_buffer_t;

/** @brief The control block, SEGGER's public layout with one up and one down buffer. */
typedef struct evrec_rtt_cb {
    char id[16];             /**< acID: EVREC_RTT_ID, written last by evrec_rtt_init() */
    int32_t max_up;          /**< MaxNumUpBuffers: 1 */
    int32_t max_down;        /**< MaxNumDownBuffers: 1 */
    evrec_rtt_buffer_t up;   /**< up buffer 0: the stream */
    evrec_rtt_buffer_t down; /**< down buffer 0: no memory (size 0) */
} evrec_rtt_cb_t;

/** @brief What evrec_rtt_drain() does with frames when the host reads slower than they come. */
typedef enum evrec_rtt_mode {
    /** Skip: drain only what fits now; the rest waits in the stream's ring, which drops the
     * newest records once full (counted exactly, sent as S_LOSS). Nothing is lost in transport. */
    EVREC_RTT_SKIP = 0,
    /** Drop: drain up to the scratch buffer's size every call and drop the whole frames that do
     * not fit (counted in evrec_rtt_counts()); the ring never fills, the host counts the records
     * of a dropped frame as lost in transport (sequence numbers). A dropped S_END frame ends
     * the stream without its final counts. */
    EVREC_RTT_DROP = 1
} evrec_rtt_mode_t;

/**
 * @brief The transport: the control block (first, so that its address is the object's), and the
 * writer's state. User memory; define it as a global named EVREC_RTT_SYMBOL for probe-rs and
 * `evrec record gdb:`.
 */
typedef struct evrec_rtt {
    evrec_rtt_cb_t cb;       /**< what the host reads */
    evrec_rtt_mode_t mode;   /**< as given to evrec_rtt_init() */
    uint64_t frames_dropped; /**< EVREC_RTT_DROP: frames that did not fit */
    uint64_t bytes_dropped;  /**< EVREC_RTT_DROP: their bytes */
    uint64_t bytes_written;  /**< bytes written into the up buffer */
} evrec_rtt_t;

/** @brief Counts of an RTT transport: evrec_rtt_counts(). */
typedef struct evrec_rtt_counts {
    uint64_t bytes_written;  /**< bytes put into the up buffer */
    uint64_t frames_dropped; /**< frames dropped (EVREC_RTT_DROP only) */
    uint64_t bytes_dropped;  /**< their bytes */
} evrec_rtt_counts_t;

/**
 * @brief Set up the control block: buffers, counts, then (after a barrier) the ID string, written
 * from its last byte to its first with volatile stores: a host that searches RAM finds the ID
 * only once the block behind it is valid, and the image holds no copy of the whole ID that a
 * search of flash or of a stale RAM copy could find first.
 * @param[out] rtt the transport (user memory, kept as long as a host may read it).
 * @param[in] up the up buffer (user memory, owned by the transport from now on).
 * @param[in] up_size bytes of up, 16 .. 2^31; one byte always stays free.
 * @param[in] name channel name shown by host tools (static string), or NULL.
 * @param[in] mode EVREC_RTT_SKIP or EVREC_RTT_DROP.
 * @retval EVREC_OK ready; the host may attach from now on.
 * @retval EVREC_E_ARG rtt or up NULL, up_size out of range, or an unknown mode.
 * **Context:** thread, before any drain; not while a host reads the block.
 */
evrec_status evrec_rtt_init(evrec_rtt_t *rtt, void *up, size_t up_size, const char *name, evrec_rtt_mode_t mode);

/**
 * @brief Bytes that can be written into the up buffer now (the host's RdOff as last written).
 * @param[in] rtt an initialised transport.
 * @return free bytes (0 for NULL).
 * **Context:** any; one load of RdOff.
 */
size_t evrec_rtt_free_bytes(const evrec_rtt_t *rtt);

/**
 * @brief Write `len` bytes into the up buffer if they all fit, else nothing. Order: the data
 * first, then WrOff with a release barrier (a DMB on Arm), because the probe reads the buffer
 * while the core runs, as another bus master: it reads WrOff, then the bytes up to it; a WrOff
 * that became visible before the bytes (reordered by the compiler or by the write buffer) would
 * hand it stale bytes as new. Likewise RdOff is read with an acquire barrier before the bytes it
 * frees are overwritten.
 * @param[in,out] rtt an initialised transport.
 * @param[in] data the bytes (caller's memory, not kept).
 * @param[in] len bytes.
 * @return len when written, 0 when they did not fit (or len is 0, or an argument is NULL).
 * **Context:** the single writer of the up buffer; never waits.
 */
size_t evrec_rtt_write(evrec_rtt_t *rtt, const void *data, size_t len);

/**
 * @brief Move whole frames of `s` (evrec_stream_drain()) into the up buffer. EVREC_RTT_SKIP:
 * frames are drained straight into the up buffer where it has ::EVREC_STREAM_MIN_CAP contiguous
 * free bytes, else (at the ring's end) into `scratch` sized to the free space and copied in two
 * pieces; only what fits is drained. EVREC_RTT_DROP: up to `scratch_size` bytes are drained every
 * call and the frames that do not fit are dropped.
 * @param[in,out] rtt an initialised transport.
 * @param[in,out] s a started stream (evrec_stream_start()).
 * @param[out] scratch caller's memory for frames at the ring's end (and in drop mode), at least
 *     ::EVREC_STREAM_MIN_CAP bytes.
 * @param[in] scratch_size bytes of scratch.
 * @return bytes written into the up buffer by this call (0: nothing to send, no room, or a bad
 *     argument).
 * **Context:** the single consumer of `s` and single writer of the up buffer (evrec_stream.h's
 * rules); any context, ISR-safe, never waits. Cost: the drain's, plus a copy of the frames that
 * go through scratch.
 */
size_t evrec_rtt_drain(evrec_rtt_t *rtt, evrec_stream_t *s, void *scratch, size_t scratch_size);

/**
 * @brief Counts of a transport.
 * @param[in] rtt the transport.
 * @return bytes written and frames/bytes dropped (all zero for NULL).
 * **Context:** any; plain loads (a 64-bit count read while the writer updates it may be torn on
 * a 32-bit core: read it from the writer's context or after the stream is done).
 */
evrec_rtt_counts_t evrec_rtt_counts(const evrec_rtt_t *rtt);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_RTT_H */
