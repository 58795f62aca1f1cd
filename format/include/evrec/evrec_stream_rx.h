/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_stream_rx.h
 * @brief Host side of the stream format (FORMAT.md section 8): finds frames in bytes that arrive
 * in pieces of any size, checks them, accounts every loss, and hands out the records; writes them
 * as a normal evrec file as they come.
 *
 * API overview (sources in format/stream/):
 * - evrec_srx_feed() / evrec_srx_finish(): the receiver. Frames are found by their sync magic,
 *   type, length and CRC-32C; bytes that are not an intact frame are **damage** (offset and
 *   length in the input). The meta document is assembled from S_META pieces and used once its
 *   CRC checks. S_RECORDS frames are checked against each lane's sequence number: a frame from
 *   further on counts the records in between as lost in transport; a frame already seen
 *   (duplicated, or come late) is not shown again. S_LOSS and S_END give the target's drops.
 *   S_PREV_BOOT frames carry the previous boot's recording, handed out as a file in pieces.
 * - ::evrec_srx_sink_t: what the receiver hands out, in input order (the meta document, each
 *   batch of new records, the end).
 * - evrec_sfile_open() ... evrec_sfile_close_rx(): a container file written as frames come
 *   (FORMAT.md section 8.3), valid after every batch: a file cut short is read up to its last
 *   whole chunk.
 *
 * Memory: the receiver allocates (malloc) its input window (at most two frames' worth) and the
 * meta document (bounded by the largest frame times the pieces received, never by a size a frame
 * merely claims beyond 16 MiB). Not thread-safe: one receiver per thread.
 */
#ifndef EVREC_STREAM_RX_H
#define EVREC_STREAM_RX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Lanes a receiver keeps counts for (lane numbers above are counted in lane 0's `other`). */
#define EVREC_SRX_LANES 16u
/** Largest meta document a receiver accepts, bytes. */
#define EVREC_SRX_MAX_DOC (16u << 20)

/** @brief Counts of one lane (FORMAT.md section 8.2). Every record the lane recorded is in exactly
 * one of `received`, `lost_transport`, `dropped` once the stream's S_END frame was received. */
typedef struct evrec_srx_lane {
    uint64_t received;       /**< records handed out (each once) */
    uint64_t lost_transport; /**< records the sequence numbers show missing (damaged or missing frames,
                                  or sent before the first complete meta document) */
    uint64_t dropped;        /**< records the target dropped (its buffer full): the highest `total` seen */
    uint64_t duplicates;     /**< records received again (duplicated or late frames), not handed out */
    uint64_t end_sent;       /**< S_END: records the lane sent; 0 before S_END */
    uint64_t end_dropped;    /**< S_END: records the lane dropped */
    uint64_t transport_gaps; /**< places where the sequence numbers jump (records lost in transport):
                                  at least one frame was lost at each */
    uint64_t drop_places;    /**< S_LOSS frames that reported new drops: places where the target
                                  dropped (at least: an S_LOSS frame lost in transport hides one) */
} evrec_srx_lane_t;

/** @brief Counts of a receiver. */
typedef struct evrec_srx_stats {
    uint64_t bytes;           /**< input bytes */
    uint64_t frames;          /**< intact frames */
    uint64_t damaged_bytes;   /**< input bytes in no intact frame */
    uint64_t damaged_ranges;  /**< separate damaged ranges */
    uint64_t other_stream;    /**< intact frames of another stream id than the first (ignored) */
    uint64_t first_damage_at; /**< offset of the first damaged range (valid when damaged_ranges) */
    uint32_t stream_id;       /**< the stream followed; 0 before its first frame */
    int have_meta;            /**< a complete meta document was received */
    int ended;                /**< its S_END frame was received */
    uint64_t prev_size;       /**< S_PREV_BOOT: bytes of the previous boot's file; 0 when none came */
    uint64_t prev_received;   /**< bytes of it handed out (in order, from offset 0) */
    int prev_ok;              /**< 1: all of it was handed out and its CRC-32C checks; -1: all
                                   of it came but the CRC does not check; 0: not complete */
    evrec_srx_lane_t lane[EVREC_SRX_LANES];
} evrec_srx_stats_t;

/** @brief What a receiver hands out; every callback may be NULL. Pointers are valid during the
 * call only. A callback that returns non-zero stops the receiver (evrec_srx_feed() returns
 * EVREC_E_IO). */
typedef struct evrec_srx_sink {
    /** The meta document (FORMAT.md section 8.2: u32 L, MetaInfo, chunks), once, before any record. */
    int (*meta)(void *ctx, const uint8_t *doc, size_t size);
    /** New records of `lane`: `count` whole packed records in `data` (CCore layout), and the time
     * state before the first of them (a SYNC payload, 36 bytes; its `index` is the lane's sequence
     * number). */
    int (*records)(void *ctx, unsigned lane, const uint8_t *data, size_t size, uint64_t count,
                   const uint8_t state[36]);
    /** A damaged range of the input: `offset`, `bytes`. */
    void (*damage)(void *ctx, uint64_t offset, uint64_t bytes);
    void *ctx;
} evrec_srx_sink_t;

/** @brief Takes the next piece of the previous boot's recording (S_PREV_BOOT, FORMAT.md section
 * 8.2): an evrec file of `total` bytes, handed out in order from offset 0, each byte once; `data`
 * holds bytes [offset, offset + size) (valid during the call only). The stats' `prev_ok` is up to
 * date when the last piece comes. Non-zero stops the receiver (evrec_srx_feed() returns
 * EVREC_E_IO). */
typedef int (*evrec_srx_prev_boot_fn)(void *ctx, const uint8_t *data, size_t size, uint64_t offset,
                                      uint64_t total);

/** @brief A receiver (opaque). */
typedef struct evrec_srx evrec_srx_t;

/**
 * @brief Make a receiver.
 * @param[out] out the receiver; free with evrec_srx_free().
 * @param[in] sink where records go (copied; may be NULL: counts only).
 * @retval EVREC_OK made.
 * @retval EVREC_E_ARG out is NULL.
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** thread.
 */
evrec_status evrec_srx_new(evrec_srx_t **out, const evrec_srx_sink_t *sink);

/**
 * @brief Where the receiver hands out the previous boot's recording (S_PREV_BOOT frames); without
 * it those frames are only counted (the stats' `prev_*`).
 * @param[in,out] rx the receiver, before its first evrec_srx_feed().
 * @param[in] fn the callback, or NULL.
 * @param[in] ctx passed to fn (the caller's).
 * **Context:** thread.
 */
void evrec_srx_set_prev_boot(evrec_srx_t *rx, evrec_srx_prev_boot_fn fn, void *ctx);

/**
 * @brief Give the receiver the next bytes of the input (any size, any cut).
 * @param[in,out] rx the receiver.
 * @param[in] data bytes (the caller's; not kept).
 * @param[in] size bytes.
 * @retval EVREC_OK taken; frames complete in them were handed out.
 * @retval EVREC_E_NOMEM out of memory (the receiver is unchanged).
 * @retval EVREC_E_IO a sink callback returned non-zero.
 * **Context:** thread.
 */
evrec_status evrec_srx_feed(evrec_srx_t *rx, const void *data, size_t size);

/**
 * @brief End of input: bytes held that are no complete frame are damage.
 * @param[in,out] rx the receiver.
 * @retval EVREC_OK done.
 * @retval EVREC_E_IO a sink callback returned non-zero.
 * **Context:** thread.
 */
evrec_status evrec_srx_finish(evrec_srx_t *rx);

/**
 * @brief The receiver's counts so far.
 * @param[in] rx the receiver.
 * @return its counts (owned by the receiver, valid until the next call on it).
 * **Context:** thread.
 */
const evrec_srx_stats_t *evrec_srx_stats(const evrec_srx_t *rx);

/**
 * @brief Free a receiver (NULL is ignored).
 * @param[in] rx the receiver.
 * **Context:** thread.
 */
void evrec_srx_free(evrec_srx_t *rx);

/**
 * @brief Event sizes of a meta document: the packed size (`save_len`) of each event id.
 * @param[in] doc the document (FORMAT.md section 8.2).
 * @param[in] size its bytes.
 * @param[out] save_len 65536 entries (caller's), each 0 for an id with no event.
 * @param[out] meta_off where the MetaInfo starts in doc (4).
 * @param[out] meta_len its bytes.
 * @retval EVREC_OK parsed.
 * @retval EVREC_E_CORRUPT a count or length runs past the document, or L is not the MetaInfo's size.
 * **Context:** thread; pure.
 */
evrec_status evrec_srx_doc_events(const uint8_t *doc, size_t size, uint32_t *save_len, size_t *meta_off,
                                  size_t *meta_len);

/**
 * @brief Check one `--tag` of `evrec record`: `key=value`, the key 1..32 bytes of
 * `A-Z a-z 0-9 _ . -`, the value at most 255 bytes of UTF-8 (FORMAT.md section 2.6).
 * @param[in] tag the tag (NUL-terminated), or NULL.
 * @return NULL when it is valid, else what was expected (a static string).
 * **Context:** any; pure.
 */
const char *evrec_srx_tag_error(const char *tag);

/**
 * @brief The meta document `doc` with its attributes (ATTRS chunk, FORMAT.md section 2.6)
 * merged with `tags`: a tag replaces the value of a key the target set, or adds one. The ATTRS
 * chunk then follows the document's other chunks; a document whose ATTRS chunk is malformed
 * keeps the tags only.
 * @param[in] doc the meta document (evrec_srx_sink_t::meta), `size` bytes.
 * @param[in] size bytes of doc.
 * @param[in] tags `ntags` strings `key=value` (evrec_srx_tag_error() NULL for each).
 * @param[in] ntags entries of tags; 0 leaves the attributes as they are.
 * @param[out] out the new document (malloc'd; the caller frees it).
 * @param[out] out_size its bytes.
 * @retval EVREC_OK made.
 * @retval EVREC_E_ARG a tag is not valid.
 * @retval EVREC_E_NO_SPACE more than 64 attributes in all.
 * @retval EVREC_E_CORRUPT the document is not a valid one.
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** thread.
 */
evrec_status evrec_srx_doc_tag(const uint8_t *doc, size_t size, const char *const *tags, size_t ntags,
                               uint8_t **out, size_t *out_size);

/** @brief A container written as a stream is received (FORMAT.md section 8.3). Opaque. */
typedef struct evrec_sfile evrec_sfile_t;

/**
 * @brief Start a file: writes the header (counts unknown), the meta document's chunks and the
 * MetaInfo as STREAM chunk 0.
 * @param[out] out the writer; evrec_sfile_close() frees it.
 * @param[in] f an open file (the caller's; flushed by evrec_sfile_flush(), not closed here),
 *     positioned at its start. A regular file gets its header again with the final counts at
 *     the end; a pipe or device keeps the first header (counts unknown).
 * @param[in] doc the meta document.
 * @param[in] size its bytes.
 * @retval EVREC_OK written.
 * @retval EVREC_E_CORRUPT the document is not a valid one.
 * @retval EVREC_E_IO a write failed.
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** thread.
 */
evrec_status evrec_sfile_open(evrec_sfile_t **out, FILE *f, const uint8_t *doc, size_t size);

/**
 * @brief Append a batch of records (an evrec_srx_sink_t::records call): SYNC, SEQ and STREAM
 * chunks.
 * @param[in,out] w the writer.
 * @param[in] data packed records.
 * @param[in] size bytes.
 * @param[in] count records in them.
 * @param[in] state the time state before them (36 bytes; its index is replaced by the records in
 *     the file).
 * @retval EVREC_OK written (buffered until evrec_sfile_flush()).
 * @retval EVREC_E_IO a write failed.
 * **Context:** thread.
 */
evrec_status evrec_sfile_records(evrec_sfile_t *w, const uint8_t *data, size_t size, uint64_t count,
                                 const uint8_t state[36]);

/**
 * @brief Push what was written to the file (fflush).
 * @param[in,out] w the writer.
 * @retval EVREC_OK flushed.
 * @retval EVREC_E_IO it failed.
 * **Context:** thread.
 */
evrec_status evrec_sfile_flush(evrec_sfile_t *w);

/**
 * @brief End the file: the End record, the END chunk, and the header again with the final
 * counts; frees the writer (also on error). The LOSSES chunk stays as written at the start (not
 * final): use evrec_sfile_close_rx() when the receiver is at hand.
 * @param[in] w the writer (NULL is ignored).
 * @param[in] dropped records the target dropped (its buffer full), for the header.
 * @retval EVREC_OK done.
 * @retval EVREC_E_IO a write or the seek failed.
 * **Context:** thread.
 */
evrec_status evrec_sfile_close(evrec_sfile_t *w, uint64_t dropped);

/**
 * @brief End the file as evrec_sfile_close() does, with the receiver's final counts: the header's
 * `dropped` is the target's drops (all lanes), and the LOSSES chunk (FORMAT.md section 8.4) is
 * written again with each lane's drops and records lost in transport and the damaged input
 * ranges. A pipe or a device keeps both as written first (counts not final).
 * @param[in] w the writer (NULL is ignored); freed, also on error.
 * @param[in] rx the receiver that fed it (its counts are read, not changed).
 * @retval EVREC_OK done.
 * @retval EVREC_E_IO a write or a seek failed.
 * **Context:** thread.
 */
evrec_status evrec_sfile_close_rx(evrec_sfile_t *w, const evrec_srx_t *rx);

/**
 * @brief End one file of a series (`evrec record --split-size`) as evrec_sfile_close_rx() does,
 * with the losses since `base`: the header's `dropped` and the LOSSES chunk count what the
 * receiver counted after the copy `base` was taken (when this file was begun). Damaged ranges
 * are listed while they are among the input's first 16 (section 8.4: `listed` <= `slots`);
 * the others are counted. Records lost in a gap are counted in the file whose frame showed the
 * gap.
 * @param[in] w the writer (NULL is ignored); freed, also on error.
 * @param[in] rx the receiver that fed it (its counts are read, not changed).
 * @param[in] base a copy of evrec_srx_stats(rx) taken when this file was begun; NULL: from the
 *     start (as evrec_sfile_close_rx()).
 * @retval EVREC_OK done.
 * @retval EVREC_E_IO a write or a seek failed.
 * **Context:** thread.
 */
evrec_status evrec_sfile_close_part(evrec_sfile_t *w, const evrec_srx_t *rx, const evrec_srx_stats_t *base);

/**
 * @brief Records written so far.
 * @param[in] w the writer.
 * @return records in the file.
 * **Context:** thread.
 */
uint64_t evrec_sfile_records_written(const evrec_sfile_t *w);

/**
 * @brief Bytes that closing the file would still write after one more batch of records: the End
 *     record, the INDEX chunk with one more entry (FORMAT.md section 2.5), the COPY chunks, TAIL
 *     and END (section 2.4). A split by size (`evrec record --split-size`) keeps room for them.
 *     Constant time: the copies' size is taken from the meta document when the file is opened,
 *     so it may be asked after every batch.
 * @param[in] w the writer.
 * @return bytes (an upper bound).
 * **Context:** thread.
 */
uint64_t evrec_sfile_end_size(const evrec_sfile_t *w);

/**
 * @brief Whether bytes start like a captured stream (a frame's sync magic, FORMAT.md section 8.3).
 * @param[in] head the first bytes of a file.
 * @param[in] size bytes at head.
 * @return 1 when they do, else 0.
 * **Context:** any; pure.
 */
int evrec_srx_is_capture(const void *head, size_t size);

/**
 * @brief A whole captured stream to a container file (receiver and writer in one go). The file
 * has the records of the first stream id met; its header's `dropped` counts the target's drops,
 * its LOSSES chunk (FORMAT.md section 8.4) tells them apart from the records lost in transport.
 * @param[in] in the capture, read to its end (the caller's).
 * @param[in] out the file to write, seekable, at its start (the caller's; not closed).
 * @retval EVREC_OK written.
 * @retval EVREC_E_CORRUPT no complete meta document in the capture: no file can be made.
 * @retval EVREC_E_IO reading `in` or writing `out` failed.
 * @retval EVREC_E_NOMEM out of memory.
 * **Context:** thread; not reentrant (a static input buffer).
 */
evrec_status evrec_srx_convert(FILE *in, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_STREAM_RX_H */
