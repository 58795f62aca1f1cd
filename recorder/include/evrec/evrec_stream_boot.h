/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_stream_boot.h
 * @brief The previous boot's recording through the stream: a recording that survived a reset in a
 * `.noinit` trace buffer (evrec_recorder_recover()) is saved as an evrec file and sent, in
 * S_PREV_BOOT frames (FORMAT.md section 8.2, type 17), through the transport of the live stream
 * before that stream starts, so that the host (`evrec record`) gets the last crash without a
 * debugger and saves it as a file of its own.
 *
 * API overview: evrec_stream_send_prev_boot() (the frames), ::EVREC_STREAM_PREV_BOOT_MIN_FRAME;
 * the recovery it follows: evrec_recorder_recover() (evrec/evrec_recorder.h); the live stream it
 * precedes: evrec_stream_start() (evrec/evrec_stream.h).
 *
 * Typical use, at boot, before the live stream starts:
 * @code
 * static uint64_t crash_buf[8192] __attribute__((section(".noinit")));
 * static uint8_t ring[EVREC_CYCLIC_BUFFER_SIZE(16, 1024)] __attribute__((aligned(8)));
 * static uint8_t frame[512];
 * static evrec_stream_t stream;
 * uint32_t id = 0x5EED0001u; // nonzero and new at every boot (a boot count kept in .noinit, a timestamp)
 * evrec_recorder_t prev;
 * evrec_status st = evrec_recorder_recover(&prev, crash_buf, sizeof crash_buf, &app_meta, NULL);
 * if (st == EVREC_OK || st == EVREC_E_END) {
 *     evrec_sink_t tx = {my_uart_write, &uart}; // may wait for the UART: nothing records yet
 *     evrec_stream_send_prev_boot(&prev, id, &tx, frame, sizeof frame);
 * }
 * crash_buf[0] = 0; // sent once: the next boot finds no header
 * evrec_stream_init(&stream, ring, sizeof ring, 1024, 64);
 * evrec_stream_start(&stream, &host, &app_meta, EVREC_PORT_TIME_FREQ(), id); // the same id
 * @endcode
 *
 * Freestanding: no malloc, no stdio.
 */
#ifndef EVREC_STREAM_BOOT_H
#define EVREC_STREAM_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_status.h"
#include "evrec/evrec_stream.h"
#include "evrec/evrec_stream_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Smallest frame buffer evrec_stream_send_prev_boot() takes, bytes (a frame of 36 file bytes). */
#define EVREC_STREAM_PREV_BOOT_MIN_FRAME 64u

/**
 * @brief Send a stopped or recovered recording as an evrec file (exactly the bytes evrec_save()
 * writes) in S_PREV_BOOT frames (FORMAT.md section 8.2): the file is saved twice, once to
 * measure its size and CRC-32C, once to send it; each frame is written to `transport` whole.
 * @param[in] rec the recording: a recorder after evrec_recorder_recover() (EVREC_OK or
 *     EVREC_E_END), or after evrec_host_stop(); not in streaming mode; read only.
 * @param[in] stream_id the id of the live stream that follows (nonzero; pass the same to
 *     evrec_stream_start()): a host takes these frames as that stream's.
 * @param[in] transport where the frames go: its `write` must take every byte (it may wait: this
 *     runs at boot, before the recording), 0 on success.
 * @param[out] frame caller's buffer for one frame, bytes [0, frame_cap).
 * @param[in] frame_cap bytes of `frame`, at least ::EVREC_STREAM_PREV_BOOT_MIN_FRAME; frames carry
 *     up to frame_cap - 28 bytes of the file (at most 65,520).
 * @retval EVREC_OK every frame was written.
 * @retval EVREC_E_ARG NULL pointer, stream_id 0, or frame_cap too small.
 * @retval EVREC_E_BUSY the recorder is still attached to a host, or never recorded (nothing sent).
 * @retval EVREC_E_UNSUPPORTED a recorder in streaming mode, or split into lanes in a build without
 *     EVREC_SAVE_LANES (nothing sent).
 * @retval EVREC_E_CORRUPT a record has an id the meta-info lacks (memory overwritten): the file
 *     sent has the records before it and is ended properly, as evrec_save() writes it.
 * @retval EVREC_E_IO the transport failed (the host gets an incomplete file), or the file is
 *     larger than 2^32 - 1 bytes.
 * **Context:** thread, at boot: nothing may record into `rec` meanwhile. Cost: two saves of the
 * recording and a CRC-32C of the file.
 */
evrec_status evrec_stream_send_prev_boot(const evrec_recorder_t *rec, uint32_t stream_id,
                                         const evrec_sink_t *transport, void *frame, size_t frame_cap);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_STREAM_BOOT_H */
