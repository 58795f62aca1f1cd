/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec record --tag key=value`: the meta document's ATTRS chunk (FORMAT.md section 2.6) with
 * the tags added, or replacing the target's values of their keys. */
#include <stdlib.h>
#include <string.h>

#include "../src/attrs_internal.h"
#include "evrec/evrec_container.h"
#include "stream_internal.h"

/* The attributes being merged: the document's, then the tags (a tag replaces a value in place). */
typedef struct merged {
    uint32_t count;
    const uint8_t *key[RD_ATTR_COUNT_MAX], *value[RD_ATTR_COUNT_MAX];
    uint32_t kn[RD_ATTR_COUNT_MAX], vn[RD_ATTR_COUNT_MAX];
    int full; /* a new key found no room */
} merged_t;

static void merge_one(void *ctx, const uint8_t *key, uint32_t kn, const uint8_t *value, uint32_t vn)
{
    merged_t *m = (merged_t *)ctx;
    uint32_t i = 0;
    while (i < m->count && !(m->kn[i] == kn && memcmp(m->key[i], key, kn) == 0)) {
        i++;
    }
    if (i == m->count) {
        if (i == RD_ATTR_COUNT_MAX) {
            m->full = 1;
            return;
        }
        m->key[i] = key;
        m->kn[i] = kn;
        m->count++;
    }
    m->value[i] = value;
    m->vn[i] = vn;
}

const char *evrec_srx_tag_error(const char *tag)
{
    const char *eq = tag ? strchr(tag, '=') : NULL;
    if (!eq) {
        return "key=value";
    }
    if (!rd_attr_key_ok((const uint8_t *)tag, (size_t)(eq - tag))) {
        return "a key of 1..32 bytes of A-Z a-z 0-9 _ . - before '='";
    }
    if (!rd_attr_value_ok((const uint8_t *)eq + 1, strlen(eq + 1))) {
        return "a value of at most 255 bytes of UTF-8 after '='";
    }
    return NULL;
}

/* The ATTRS chunk of `m`, whole, at d; returns its bytes. */
static size_t put_attrs_chunk(uint8_t *d, const merged_t *m)
{
    uint8_t *p = d + EVREC_CHUNK_HEADER_SIZE;
    *p++ = (uint8_t)m->count;
    for (uint32_t i = 0; i < m->count; i++) {
        *p++ = (uint8_t)m->kn[i];
        memcpy(p, m->key[i], m->kn[i]);
        p += m->kn[i];
        *p++ = (uint8_t)m->vn[i];
        memcpy(p, m->value[i], m->vn[i]);
        p += m->vn[i];
    }
    size_t len = (size_t)(p - d) - EVREC_CHUNK_HEADER_SIZE;
    srx_put32(d, (uint32_t)EVREC_CHUNK_ATTRS << 24 | (uint32_t)len);
    srx_put32(d + 4, evrec_crc32c(evrec_crc32c(0, d, 4), d + EVREC_CHUNK_HEADER_SIZE, len));
    return EVREC_CHUNK_HEADER_SIZE + len;
}

/* Copies the chunks of doc[from, size) to d except ATTRS, whose attributes go into m; returns the
 * bytes copied, or SIZE_MAX when a chunk runs past the document. */
static size_t copy_chunks(uint8_t *d, const uint8_t *doc, size_t from, size_t size, merged_t *m)
{
    size_t n = 0;
    for (size_t at = from; at < size;) {
        if (size - at < EVREC_CHUNK_HEADER_SIZE) {
            return SIZE_MAX;
        }
        uint32_t word = srx_be32(doc + at), len = word & 0xFFFFFFu;
        if (size - at - EVREC_CHUNK_HEADER_SIZE < len) {
            return SIZE_MAX;
        }
        uint32_t bad;
        if ((word >> 24) == EVREC_CHUNK_ATTRS) {
            (void)rd_attrs_check(doc + at + EVREC_CHUNK_HEADER_SIZE, len, &bad, merge_one, m);
        } else {
            memcpy(d + n, doc + at, EVREC_CHUNK_HEADER_SIZE + len);
            n += EVREC_CHUNK_HEADER_SIZE + len;
        }
        at += EVREC_CHUNK_HEADER_SIZE + len;
    }
    return n;
}

evrec_status evrec_srx_doc_tag(const uint8_t *doc, size_t size, const char *const *tags, size_t ntags,
                               uint8_t **out, size_t *out_size)
{
    size_t off = 0, len = 0;
    uint32_t *sl = malloc(65536u * sizeof *sl);
    evrec_status st = sl ? evrec_srx_doc_events(doc, size, sl, &off, &len) : EVREC_E_NOMEM;
    free(sl);
    if (st != EVREC_OK) {
        return st;
    }
    merged_t *m = calloc(1, sizeof *m);
    uint8_t *d = malloc(size + EVREC_CHUNK_HEADER_SIZE + 1u + RD_ATTR_COUNT_MAX * (2u + 32u + 255u));
    size_t n = m && d ? off + len : 0;
    if (n) {
        memcpy(d, doc, n);
        size_t c = copy_chunks(d + n, doc, n, size, m);
        st = c == SIZE_MAX ? EVREC_E_CORRUPT : EVREC_OK;
        n += c == SIZE_MAX ? 0u : c;
    } else {
        st = EVREC_E_NOMEM;
    }
    for (size_t i = 0; st == EVREC_OK && i < ntags; i++) {
        const char *eq = evrec_srx_tag_error(tags[i]) ? NULL : strchr(tags[i], '=');
        if (!eq) {
            st = EVREC_E_ARG;
            break;
        }
        merge_one(m, (const uint8_t *)tags[i], (uint32_t)(eq - tags[i]), (const uint8_t *)eq + 1,
                  (uint32_t)strlen(eq + 1));
    }
    if (st == EVREC_OK && m->full) {
        st = EVREC_E_NO_SPACE;
    }
    if (st == EVREC_OK && m->count) {
        n += put_attrs_chunk(d + n, m);
    }
    free(m);
    if (st != EVREC_OK) {
        free(d);
        return st;
    }
    *out = d;
    *out_size = n;
    return EVREC_OK;
}
