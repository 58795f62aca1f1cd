/* SPDX-License-Identifier: Apache-2.0 */
/* For the fuzz targets that mutate containers: the header CRC and the CRC of every whole chunk
 * recomputed (format/FORMAT.md sections 1-2), so that a mutated chunk is read for what it says
 * instead of failing its CRC. */
#ifndef EVREC_FUZZ_FIX_CRCS_H
#define EVREC_FUZZ_FIX_CRCS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evrec/evrec_container.h"

static inline uint32_t fix_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void fix_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Recomputes the CRCs of the `size` bytes at `b` in place. Returns 1 when `b` is a container
 * (whether or not a CRC changed), 0 when it is not (nothing changed). */
static inline int fix_crcs(uint8_t *b, size_t size)
{
    static const uint8_t magic[8] = {0x45, 0x56, 0x52, 0x43, 0x0D, 0x0A, 0x1A, 0x0A};
    if (size < EVREC_HEADER_SIZE || memcmp(b, magic, 8) != 0) {
        return 0;
    }
    fix_put32(b + 44, evrec_crc32c(0, b, 44));
    size_t off = EVREC_HEADER_SIZE;
    while (size - off >= 8) {
        size_t len = fix_be32(b + off) & 0xFFFFFFu;
        if (len > size - off - 8) {
            break;
        }
        fix_put32(b + off + 4, evrec_crc32c(evrec_crc32c(0, b + off, 4), b + off + 8, len));
        off += 8 + len;
    }
    return 1;
}

#endif
