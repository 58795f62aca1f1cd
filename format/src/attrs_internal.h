/* SPDX-License-Identifier: Apache-2.0 */
/* The ATTRS chunk's payload (FORMAT.md section 2.6), checked and walked: shared by the reader
 * (reader_attrs.c) and the stream's file writer (format/stream/stream_file.c, `--tag`). Not
 * installed. */
#ifndef EVREC_ATTRS_INTERNAL_H
#define EVREC_ATTRS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Bounds of FORMAT.md section 2.6 (as evrec_attrs.h's EVREC_ATTR_*_LIMIT). */
#define RD_ATTR_KEY_MAX 32u
#define RD_ATTR_VALUE_MAX 255u
#define RD_ATTR_COUNT_MAX 64u

/* Called for each attribute of a well-formed payload, in order; key and value are not
 * NUL-terminated. */
typedef void (*rd_attr_fn)(void *ctx, const uint8_t *key, uint32_t key_len, const uint8_t *value,
                           uint32_t value_len);

/* Checks the payload p[0, len); NULL when it is well-formed (then `each`, unless NULL, gets every
 * attribute), else what was expected, with *at = the payload offset of the problem. */
const char *rd_attrs_check(const uint8_t *p, uint32_t len, uint32_t *at, rd_attr_fn each, void *ctx);

/* 1 when k[0, n) is a valid key: 1..32 bytes of A-Z a-z 0-9 _ . - */
int rd_attr_key_ok(const uint8_t *k, size_t n);

/* 1 when v[0, n) is a valid value: at most 255 bytes of well-formed UTF-8 without NUL. */
int rd_attr_value_ok(const uint8_t *v, size_t n);

#endif /* EVREC_ATTRS_INTERNAL_H */
