/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_stream_format.h
 * @brief The bytes of the stream format (FORMAT.md section 8): frame magic, frame types and
 * payload sizes. Shared by the target's drain (evrec/evrec_stream.h) and the host's receiver
 * (evrec/evrec_stream_rx.h); needs no port.
 *
 * API overview: EVREC_STREAM_MAGIC and EVREC_STREAM_FRAME_HEADER (every frame), the frame types
 * EVREC_FRAME_META, _RECORDS, _LOSS, _END, _PREV_BOOT, and the fixed parts of their payloads.
 */
#ifndef EVREC_STREAM_FORMAT_H
#define EVREC_STREAM_FORMAT_H

/** The 4 bytes that start every frame (FORMAT.md section 8.1). */
#define EVREC_STREAM_MAGIC                                                                                        \
    "\xEB"                                                                                                        \
    "EVS"
/** Bytes of framing per frame: magic, type and length, CRC-32C. */
#define EVREC_STREAM_FRAME_HEADER 12u
/** Largest payload a frame may have, bytes (a receiver refuses longer lengths). */
#define EVREC_STREAM_MAX_PAYLOAD 65536u
/** Frame types (FORMAT.md section 8.2): chunk types 11..14 and 17. */
#define EVREC_FRAME_META 11u    /**< a piece of the meta document */
#define EVREC_FRAME_RECORDS 12u /**< records of one lane, with their time state */
#define EVREC_FRAME_LOSS 13u    /**< records the target dropped */
#define EVREC_FRAME_END 14u     /**< the end of the stream, final counts */
/** A piece of the previous boot's recording, an evrec file (evrec/evrec_stream_boot.h). */
#define EVREC_FRAME_PREV_BOOT 17u
/** Payload bytes of an S_META frame before its piece of the document. */
#define EVREC_FRAME_META_HEAD 16u
/** Payload bytes of an S_PREV_BOOT frame before its piece of the file (as S_META). */
#define EVREC_FRAME_PREV_BOOT_HEAD 16u
/** Payload bytes of an S_RECORDS frame before its records (stream id, lane, SYNC payload). */
#define EVREC_FRAME_RECORDS_HEAD 44u
/** Payload bytes of an S_LOSS frame. */
#define EVREC_FRAME_LOSS_SIZE 32u
#endif /* EVREC_STREAM_FORMAT_H */
