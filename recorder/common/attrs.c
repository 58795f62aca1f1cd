/* SPDX-License-Identifier: Apache-2.0 */
/* Recording attributes (evrec/evrec_attrs.h) and their ATTRS chunk (FORMAT.md section 2.6):
 * u8 count, then per attribute u8 key length, the key, u8 value length, the value. */
#include "evrec/evrec_attrs.h"
#include "save_internal.h"

static size_t bounded_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n <= max && s[n]) {
        n++;
    }
    return n;
}

static int key_byte_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

/* 1 when the stored key `k` is the kn bytes of `key`. */
static int same_key(const char *k, const char *key, size_t kn)
{
    for (size_t i = 0; i < kn; i++) {
        if (k[i] != key[i]) {
            return 0;
        }
    }
    return k[kn] == 0;
}

evrec_status evrec_attrs_init(evrec_attrs_t *attrs)
{
    if (!attrs) {
        return EVREC_E_ARG;
    }
    __builtin_memset(attrs, 0, sizeof *attrs);
    return EVREC_OK;
}

evrec_status evrec_attrs_set(evrec_attrs_t *attrs, const char *key, const char *value)
{
    if (!attrs || !key || !value || attrs->count > EVREC_ATTRS_MAX) {
        return EVREC_E_ARG;
    }
    size_t kn = bounded_len(key, EVREC_ATTRS_KEY_MAX), vn = bounded_len(value, EVREC_ATTRS_VALUE_MAX);
    if (kn == 0 || kn > EVREC_ATTRS_KEY_MAX || vn > EVREC_ATTRS_VALUE_MAX) {
        return EVREC_E_ARG;
    }
    for (size_t i = 0; i < kn; i++) {
        if (!key_byte_ok(key[i])) {
            return EVREC_E_ARG;
        }
    }
    uint32_t i = 0;
    while (i < attrs->count && !same_key(attrs->entry[i].key, key, kn)) {
        i++;
    }
    if (i == attrs->count) {
        if (i == EVREC_ATTRS_MAX) {
            return EVREC_E_NO_SPACE;
        }
        __builtin_memcpy(attrs->entry[i].key, key, kn + 1u);
        attrs->count++;
    }
    __builtin_memcpy(attrs->entry[i].value, value, vn + 1u);
    return EVREC_OK;
}

/* One pass over the payload: 0 measures it into w->len, 1 chains its CRC into w->crc, 2 writes
 * it to w->sink (w->failed on an error). */
typedef struct attrs_walk {
    const evrec_sink_t *sink;
    int pass, failed;
    uint32_t len, crc;
} attrs_walk_t;

static void walk_bytes(attrs_walk_t *w, const void *p, size_t n)
{
    if (w->pass == 0) {
        w->len += (uint32_t)n;
    } else if (w->pass == 1) {
        w->crc = evrec_crc32c(w->crc, p, n);
    } else if (n && !w->failed && w->sink->write(w->sink->ctx, p, n) != 0) {
        w->failed = 1;
    }
}

static void walk_payload(attrs_walk_t *w, const evrec_attrs_t *a)
{
    uint8_t n = (uint8_t)a->count;
    walk_bytes(w, &n, 1);
    for (uint32_t i = 0; i < a->count; i++) {
        const evrec_attr_t *e = &a->entry[i];
        uint8_t kn = (uint8_t)bounded_len(e->key, EVREC_ATTRS_KEY_MAX);
        uint8_t vn = (uint8_t)bounded_len(e->value, EVREC_ATTRS_VALUE_MAX);
        walk_bytes(w, &kn, 1);
        walk_bytes(w, e->key, kn);
        walk_bytes(w, &vn, 1);
        walk_bytes(w, e->value, vn);
    }
}

evrec_status evrec_attrs_put_chunk(const evrec_attrs_t *attrs, const evrec_sink_t *sink)
{
    if (!sink) {
        return EVREC_E_ARG;
    }
    if (!attrs || attrs->count == 0 || attrs->count > EVREC_ATTRS_MAX) {
        return EVREC_OK;
    }
    attrs_walk_t w = {sink, 0, 0, 0, 0};
    walk_payload(&w, attrs);
    uint8_t h[EVREC_CHUNK_HEADER_SIZE];
    evrec_put_be32(h, ((uint32_t)EVREC_CHUNK_ATTRS << 24) | w.len);
    w.crc = evrec_crc32c(0, h, 4);
    w.pass = 1;
    walk_payload(&w, attrs);
    evrec_put_be32(h + 4, w.crc);
    if (sink->write(sink->ctx, h, sizeof h) != 0) {
        return EVREC_E_IO;
    }
    w.pass = 2;
    walk_payload(&w, attrs);
    return w.failed ? EVREC_E_IO : EVREC_OK;
}
