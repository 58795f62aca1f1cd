/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file frame.h
 * @brief The demo's frame buffers and the work the stages do on them: a test pattern (capture),
 * a run-length code (encode, and decode in the sink).
 *
 * A frame is an 8-bit grey image of ::DEMO_FRAME_WIDTH x ::DEMO_FRAME_HEIGHT pixels. The pattern
 * has long runs (diagonal bands that move with the frame number) and one incompressible
 * checkerboard square, so the code's output size changes from frame to frame.
 */
#ifndef DEMO_FRAME_H
#define DEMO_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define DEMO_FRAME_WIDTH 320u
#define DEMO_FRAME_HEIGHT 240u
/** Bytes of one frame's pixels. */
#define DEMO_FRAME_BYTES (DEMO_FRAME_WIDTH * DEMO_FRAME_HEIGHT)
/** Worst-case bytes of a frame's run-length code (every run of length 1). */
#define DEMO_ENCODED_MAX (2u * DEMO_FRAME_BYTES)
/** Side of the checkerboard square, pixels. */
#define DEMO_SQUARE 48u

/** @brief One frame buffer of the pool, with what the stages learned about it. */
typedef struct demo_frame {
    uint32_t number;        /**< frame number, from 0 */
    int hashed;             /**< 1 when the process stage set `hash` */
    uint64_t hash;          /**< XXH64(pixels, bytes, 0), set by the process stage */
    uint32_t encoded_bytes; /**< bytes of `encoded`; 0 = not encoded (the sink reads pixels) */
    uint8_t *pixels;        /**< DEMO_FRAME_BYTES, owned by the pool */
    uint8_t *encoded;       /**< DEMO_ENCODED_MAX, owned by the pool */
} demo_frame_t;

/**
 * @brief Draw the test pattern of frame `number` into `pixels` (DEMO_FRAME_BYTES bytes).
 * Deterministic: the same number always gives the same bytes. **Context:** any thread.
 */
void demo_frame_draw(uint8_t *pixels, uint32_t number);

/**
 * @brief Run-length code: pairs (run length 1..255, value).
 * @param[in] src bytes. @param n bytes of src. @param[out] dst at least 2 * n bytes.
 * @return bytes written to dst. **Context:** any thread.
 */
size_t demo_rle_encode(const uint8_t *src, size_t n, uint8_t *dst);

/**
 * @brief Undo demo_rle_encode().
 * @param[in] src code. @param n bytes of code. @param[out] dst output. @param cap bytes of dst.
 * @return bytes written, or (size_t)-1 when the code is malformed (odd length, a run of 0, or
 * more than cap bytes). **Context:** any thread.
 */
size_t demo_rle_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap);

#endif /* DEMO_FRAME_H */
