/* SPDX-License-Identifier: Apache-2.0 */
/* Byte order for the viewer: unsigned integers read from byte buffers. Records in a file are
 * big-endian (format/FORMAT.md section 3: the CCore layout); a trace buffer image is in the
 * target's order (little-endian on the targets evrec supports); SyS-T payloads are little-endian
 * (the MIPI SyS-T specification). One copy of each, for every part of the viewer. */
#ifndef EVREC_CLI_BYTES_H
#define EVREC_CLI_BYTES_H

#include <stdint.h>

/** Big-endian 16-bit value at `p`. **Context:** pure. */
static inline uint32_t cli_be16(const uint8_t *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

/** Big-endian 32-bit value at `p`. **Context:** pure. */
static inline uint32_t cli_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/** Big-endian value of `width` bytes (1, 2 or 4: a leaf field's evrec_kind_width()) at `p`.
 * **Context:** pure. */
static inline uint32_t cli_be_field(const uint8_t *p, unsigned width)
{
    return width == 1 ? p[0] : width == 2 ? cli_be16(p) : cli_be32(p);
}

/** Little-endian 32-bit value at `p`. **Context:** pure. */
static inline uint32_t cli_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/** Little-endian value of `n` bytes (0..8) at `p`. **Context:** pure. */
static inline uint64_t cli_le_n(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n-- > 0) {
        v = v << 8 | p[n];
    }
    return v;
}

#endif /* EVREC_CLI_BYTES_H */
