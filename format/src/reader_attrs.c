/* SPDX-License-Identifier: Apache-2.0 */
/* The ATTRS chunk (FORMAT.md section 2.6): the recording's attributes (device, firmware, boot,
 * free keys). Display-only: a malformed chunk is a damaged range that lost no record. */
#include <stdlib.h>
#include <string.h>

#include "attrs_internal.h"
#include "evrec/evrec_container.h"
#include "reader_internal.h"

int rd_attr_key_ok(const uint8_t *k, size_t n)
{
    if (n == 0 || n > RD_ATTR_KEY_MAX) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t c = k[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                 c == '.' || c == '-';
        if (!ok) {
            return 0;
        }
    }
    return 1;
}

/* Bytes of the UTF-8 sequence at v[0, n), 0 when it is not well-formed (RFC 3629: no overlong
 * form, no surrogate, at most U+10FFFF). */
static size_t utf8_seq(const uint8_t *v, size_t n)
{
    uint8_t c = v[0];
    if (c < 0x80u) {
        return c ? 1u : 0u;
    }
    size_t len = c >= 0xF0u ? 4u : c >= 0xE0u ? 3u : c >= 0xC2u ? 2u : 0u;
    if (len == 0 || c > 0xF4u || n < len) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((v[i] & 0xC0u) != 0x80u) {
            return 0;
        }
    }
    uint8_t d = v[1];
    if ((c == 0xE0u && d < 0xA0u) || (c == 0xEDu && d > 0x9Fu) || (c == 0xF0u && d < 0x90u) ||
        (c == 0xF4u && d > 0x8Fu)) {
        return 0;
    }
    return len;
}

int rd_attr_value_ok(const uint8_t *v, size_t n)
{
    if (n > RD_ATTR_VALUE_MAX) {
        return 0;
    }
    for (size_t i = 0, k; i < n; i += k) {
        if ((k = utf8_seq(v + i, n - i)) == 0) {
            return 0;
        }
    }
    return 1;
}

/* 1 when the key at p + off (length kn) equals one of the keys before it. */
static int key_seen(const uint8_t *p, uint32_t first, uint32_t off, uint32_t kn)
{
    for (uint32_t q = first; q < off - 1u;) {
        uint32_t qn = p[q], vn = p[q + 1u + qn];
        if (qn == kn && memcmp(p + q + 1u, p + off, kn) == 0) {
            return 1;
        }
        q += 2u + qn + vn;
    }
    return 0;
}

const char *rd_attrs_check(const uint8_t *p, uint32_t len, uint32_t *at, rd_attr_fn each, void *ctx)
{
    *at = 0;
    if (len < 1u || p[0] > RD_ATTR_COUNT_MAX) {
        return "a count of 0..64 attributes";
    }
    uint32_t off = 1;
    for (uint32_t i = 0; i < p[0]; i++) {
        *at = off;
        if (off >= len || p[off] == 0 || p[off] > RD_ATTR_KEY_MAX || len - off - 1u < p[off] + 1u) {
            return "a key length of 1..32 bytes within the chunk, then a value length";
        }
        uint32_t kn = p[off], vn = p[off + 1u + kn];
        if (!rd_attr_key_ok(p + off + 1u, kn)) {
            return "a key of A-Z a-z 0-9 _ . - only";
        }
        if (key_seen(p, 1, off + 1u, kn)) {
            return "each key once";
        }
        *at = off + 1u + kn;
        if (len - *at - 1u < vn) {
            return "a value within the chunk";
        }
        if (!rd_attr_value_ok(p + *at + 1u, vn)) {
            return "a value of well-formed UTF-8 without NUL";
        }
        off = *at + 1u + vn;
    }
    *at = off;
    if (off != len) {
        return "nothing after the last attribute";
    }
    for (uint32_t i = 0, q = 1; each && i < p[0]; i++) {
        uint32_t kn = p[q], vn = p[q + 1u + kn];
        each(ctx, p + q + 1u, kn, p + q + 2u + kn, vn);
        q += 2u + kn + vn;
    }
    return NULL;
}

/* Copies one attribute into the reader's table (strings NUL-terminated in its storage). */
static void keep_attr(void *ctx, const uint8_t *key, uint32_t kn, const uint8_t *value, uint32_t vn)
{
    rd_attrs_t *a = (rd_attrs_t *)ctx;
    char *s = a->text + a->used;
    memcpy(s, key, kn);
    s[kn] = 0;
    memcpy(s + kn + 1u, value, vn);
    s[kn + 1u + vn] = 0;
    a->key[a->count] = s;
    a->value[a->count] = s + kn + 1u;
    a->count++;
    a->used += kn + vn + 2u;
}

void rd_attrs_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    if (r->attrs.have) {
        return; /* the first one counts (a writer writes one) */
    }
    uint32_t at;
    const char *want = rd_attrs_check(p, len, &at, NULL, NULL);
    if (want) {
        rd_damage(r, EVREC_E_CORRUPT, off, EVREC_CHUNK_HEADER_SIZE + (uint64_t)len,
                  "ATTRS chunk at offset %llu: bad byte at offset %llu (expected %s); the recording's "
                  "attributes are not known, every record is read",
                  (unsigned long long)off, (unsigned long long)(off + EVREC_CHUNK_HEADER_SIZE + at), want);
        rd_damage_nothing_lost(r);
        return;
    }
    /* len = 1 + the sum of 2 + key + value bytes: the strings with their NULs take len - 1. */
    r->attrs.text = malloc((size_t)len + 1u);
    if (!r->attrs.text) {
        return; /* out of memory: shown as no ATTRS chunk */
    }
    r->attrs.count = 0;
    r->attrs.used = 0;
    (void)rd_attrs_check(p, len, &at, keep_attr, &r->attrs);
    r->attrs.have = 1;
}

void rd_attrs_free(evrec_reader_t *r)
{
    free(r->attrs.text);
    memset(&r->attrs, 0, sizeof r->attrs);
}

uint32_t evrec_reader_attr_count(const evrec_reader_t *r)
{
    return r ? r->attrs.count : 0u;
}

evrec_status evrec_reader_attr(const evrec_reader_t *r, uint32_t i, const char **key, const char **value)
{
    if (!r || !key || !value || i >= r->attrs.count) {
        return EVREC_E_ARG;
    }
    *key = r->attrs.key[i];
    *value = r->attrs.value[i];
    return EVREC_OK;
}

const char *evrec_reader_attr_find(const evrec_reader_t *r, const char *key)
{
    for (uint32_t i = 0; r && key && i < r->attrs.count; i++) {
        if (strcmp(r->attrs.key[i], key) == 0) {
            return r->attrs.value[i];
        }
    }
    return NULL;
}
