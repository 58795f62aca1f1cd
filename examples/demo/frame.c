/* SPDX-License-Identifier: Apache-2.0 */
/* Frame content: test pattern and run-length code (see frame.h). */
#include <string.h>

#include "frame.h"

void demo_frame_draw(uint8_t *pixels, uint32_t number)
{
    /* Diagonal bands 16 pixels wide that move 2 pixels per frame: long runs in every row. */
    uint32_t off = (number % 8u) * 2u;
    uint32_t base = number / 8u;
    for (uint32_t y = 0; y < DEMO_FRAME_HEIGHT; y++) {
        uint8_t *row = pixels + (size_t)y * DEMO_FRAME_WIDTH;
        uint32_t x = 0;
        while (x < DEMO_FRAME_WIDTH) {
            uint32_t band = (x + off) / 16u;
            uint32_t end = (band + 1u) * 16u - off;
            if (end > DEMO_FRAME_WIDTH) {
                end = DEMO_FRAME_WIDTH;
            }
            memset(row + x, (int)(((band + base + y / 16u) * 37u) & 0xFFu), end - x);
            x = end;
        }
    }
    /* A checkerboard square that walks across the image: incompressible by run length. */
    uint32_t sx = (number * 3u) % (DEMO_FRAME_WIDTH - DEMO_SQUARE);
    uint32_t sy = (number * 2u) % (DEMO_FRAME_HEIGHT - DEMO_SQUARE);
    for (uint32_t y = 0; y < DEMO_SQUARE; y++) {
        uint8_t *row = pixels + (size_t)(sy + y) * DEMO_FRAME_WIDTH + sx;
        for (uint32_t x = 0; x < DEMO_SQUARE; x++) {
            row[x] = ((x ^ y) & 1u) ? (uint8_t)(0xF0u ^ number) : (uint8_t)(0x0Fu + x);
        }
    }
}

size_t demo_rle_encode(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t out = 0;
    size_t i = 0;
    while (i < n) {
        uint8_t v = src[i];
        size_t run = 1;
        while (i + run < n && run < 255u && src[i + run] == v) {
            run++;
        }
        dst[out++] = (uint8_t)run;
        dst[out++] = v;
        i += run;
    }
    return out;
}

size_t demo_rle_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    if (n % 2u) {
        return (size_t)-1;
    }
    size_t out = 0;
    for (size_t i = 0; i < n; i += 2u) {
        size_t run = src[i];
        if (run == 0 || run > cap - out) {
            return (size_t)-1;
        }
        memset(dst + out, src[i + 1], run);
        out += run;
    }
    return out;
}
