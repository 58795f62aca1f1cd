/* SPDX-License-Identifier: Apache-2.0 */
/* The FIELD_INFO chunk (format/FORMAT.md section 2): display attributes of struct fields
 * (schema keys format, unit, description). Payload: u32 count, then count times {u16 struct_id,
 * u16 field_index, u8 display, String unit, String description}.
 *
 * The chunk comes before the stream, so it is kept as bytes until the meta-info has been read
 * and then checked against it. A bad chunk never costs a record: the entries before the problem
 * are kept and the problem is reported when the stream ends (see evrec_reader.h). */
#include <stdarg.h>
#include <stdlib.h>

#include "reader_internal.h"

/* Keep the first problem of the chunk (the deferred error). */
static void fi_problem(evrec_reader_t *r, evrec_status st, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fi_problem(evrec_reader_t *r, evrec_status st, uint64_t off, const char *fmt, ...)
{
    if (r->fi.err.status != EVREC_OK) {
        return;
    }
    r->fi.err.status = st;
    r->fi.err.offset = off;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fi.err.message, sizeof r->fi.err.message, fmt, ap);
    va_end(ap);
}

void rd_field_info_chunk(evrec_reader_t *r, uint64_t off, const uint8_t *p, uint32_t len)
{
    if (r->fi.raw || r->stream.started) {
        fi_problem(r, EVREC_E_CORRUPT, off,
                   "FIELD_INFO chunk at offset %llu %s (expected one, before the first STREAM "
                   "chunk); it is ignored",
                   (unsigned long long)off, r->fi.raw ? "is the second one" : "comes after STREAM data");
        return;
    }
    r->fi.raw = malloc(len ? len : 1u);
    if (!r->fi.raw) {
        fi_problem(r, EVREC_E_NOMEM, off, "out of memory for the FIELD_INFO chunk (%u bytes)", (unsigned)len);
        return;
    }
    if (len) {
        memcpy(r->fi.raw, p, len);
    }
    r->fi.raw_len = len;
    r->fi.offset = off;
}

/* Cursor over the payload, with file offsets for the messages. */
typedef struct fi_cursor {
    const uint8_t *p;
    uint32_t len, pos;
    uint64_t base; /* file offset of p[0] */
} fi_cursor_t;

/* Text check: no NUL; no control character except (in descriptions) newline and tab. Returns
 * the offending byte's index or -1. */
static long bad_char(const uint8_t *s, uint32_t n, int multiline)
{
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == 0x7F || (c < 0x20 && !(multiline && (c == '\n' || c == '\t')))) {
            return (long)i;
        }
    }
    return -1;
}

/* One String of an entry; *out = NULL for an empty one. 0 on a problem (reported). */
static int fi_string(evrec_reader_t *r, fi_cursor_t *c, uint32_t entry, const char *what, uint32_t max,
                     int multiline, const char **out)
{
    uint64_t off = c->base + c->pos;
    if (c->len - c->pos < 4) {
        fi_problem(r, EVREC_E_CORRUPT, off,
                   "FIELD_INFO entry %u: the length of its %s runs past the end of the chunk", (unsigned)entry,
                   what);
        return 0;
    }
    uint32_t n = rd_be32(c->p + c->pos);
    c->pos += 4;
    if (n > max) {
        fi_problem(r, EVREC_E_UNSUPPORTED, off, "FIELD_INFO entry %u: %s of %u bytes; at most %u are accepted",
                   (unsigned)entry, what, (unsigned)n, (unsigned)max);
        return 0;
    }
    if (n > c->len - c->pos) {
        fi_problem(r, EVREC_E_CORRUPT, off,
                   "FIELD_INFO entry %u: %s of %u bytes runs past the end of the chunk (%u bytes left)",
                   (unsigned)entry, what, (unsigned)n, (unsigned)(c->len - c->pos));
        return 0;
    }
    long bad = bad_char(c->p + c->pos, n, multiline);
    if (bad >= 0) {
        fi_problem(r, EVREC_E_CORRUPT, off + 4 + (uint64_t)bad,
                   "FIELD_INFO entry %u: %s holds the control byte 0x%02X at offset %llu (expected "
                   "text%s)",
                   (unsigned)entry, what, (unsigned)c->p[c->pos + (uint32_t)bad],
                   (unsigned long long)(off + 4 + (uint64_t)bad), multiline ? ", lines and tabs" : "");
        return 0;
    }
    *out = NULL;
    if (n) {
        char *s = rd_name_dup(r, c->p + c->pos, n);
        if (!s) {
            fi_problem(r, EVREC_E_NOMEM, off, "out of memory for the FIELD_INFO strings");
            return 0;
        }
        *out = s;
    }
    c->pos += n;
    return 1;
}

/* Per-struct lookup table of the kept entries. 0 when memory runs out. */
static int build_index(evrec_reader_t *r)
{
    uint64_t total = 0;
    r->fi.base = malloc((r->tables.meta.struct_count ? r->tables.meta.struct_count : 1u) * sizeof *r->fi.base);
    if (!r->fi.base) {
        return 0;
    }
    for (uint32_t s = 0; s < r->tables.meta.struct_count; s++) {
        r->fi.base[s] = (uint32_t)total;
        total += r->tables.structs[s].field_count;
    }
    if (total > UINT32_MAX / sizeof *r->fi.by_field) {
        return 0;
    }
    r->fi.by_field = calloc(total ? (size_t)total : 1u, sizeof *r->fi.by_field);
    return r->fi.by_field != NULL;
}

/* Entry i of `count` (room for n entries) at the cursor: checked, kept and indexed. 0 at the
 * first problem (recorded: the entries before it are kept). */
static int parse_entry(evrec_reader_t *r, fi_cursor_t *c, uint32_t i, uint32_t count, uint32_t n)
{
    uint64_t off = c->base + c->pos;
    if (c->len - c->pos < 5 || i >= n) {
        fi_problem(r, EVREC_E_CORRUPT, off,
                   "FIELD_INFO chunk at offset %llu: entry %u of %u at offset %llu runs past the end "
                   "of the chunk (the count is too large for its %u payload bytes)",
                   (unsigned long long)r->fi.offset, (unsigned)i, (unsigned)count, (unsigned long long)off,
                   (unsigned)c->len);
        return 0;
    }
    evrec_field_info_t e;
    e.struct_id = rd_be16(c->p + c->pos);
    e.field_index = rd_be16(c->p + c->pos + 2);
    e.display = c->p[c->pos + 4];
    c->pos += 5;
    if (e.struct_id >= r->tables.meta.struct_count) {
        fi_problem(r, EVREC_E_BAD_ID, off,
                   "FIELD_INFO entry %u at offset %llu: struct id %u; the file has %u structs", (unsigned)i,
                   (unsigned long long)off, (unsigned)e.struct_id, (unsigned)r->tables.meta.struct_count);
        return 0;
    }
    const evrec_struct_desc_t *s = &r->tables.structs[e.struct_id];
    if (e.field_index >= s->field_count) {
        fi_problem(r, EVREC_E_BAD_ID, off,
                   "FIELD_INFO entry %u at offset %llu: field index %u of struct %s, which has %u fields",
                   (unsigned)i, (unsigned long long)off, (unsigned)e.field_index, s->name,
                   (unsigned)s->field_count);
        return 0;
    }
    if (e.display > EVREC_DISPLAY_ADDRESS) {
        fi_problem(r, EVREC_E_CORRUPT, off + 4,
                   "FIELD_INFO entry %u (%s.%s): display %u; expected 0 (default), 1 (decimal), 2 "
                   "(hex) or 3 (address)",
                   (unsigned)i, s->name, s->fields[e.field_index].name, (unsigned)e.display);
        return 0;
    }
    const evrec_field_info_t **slot = &r->fi.by_field[r->fi.base[e.struct_id] + e.field_index];
    if (*slot) {
        fi_problem(r, EVREC_E_CORRUPT, off, "FIELD_INFO entry %u (%s.%s): a second entry for this field",
                   (unsigned)i, s->name, s->fields[e.field_index].name);
        return 0;
    }
    if (!fi_string(r, c, i, "unit", EVREC_READER_MAX_NAME, 0, &e.unit) ||
        !fi_string(r, c, i, "description", EVREC_READER_MAX_TEXT, 1, &e.description)) {
        return 0;
    }
    r->fi.entries[i] = e;
    *slot = &r->fi.entries[i];
    r->fi.count = i + 1;
    return 1;
}

evrec_status rd_field_info_parse(evrec_reader_t *r)
{
    if (!r->fi.raw) {
        return EVREC_OK;
    }
    fi_cursor_t c = {r->fi.raw, r->fi.raw_len, 0, r->fi.offset + 8};
    if (c.len < 4) {
        fi_problem(r, EVREC_E_CORRUPT, r->fi.offset,
                   "FIELD_INFO chunk at offset %llu has %u payload bytes; expected at least 4 (u32 count)",
                   (unsigned long long)r->fi.offset, (unsigned)c.len);
        return EVREC_OK;
    }
    uint32_t count = rd_be32(c.p);
    c.pos = 4;
    /* Each entry takes at least 13 bytes: the count cannot exceed what the payload holds. */
    uint32_t fit = (c.len - 4) / 13u;
    uint32_t n = count < fit ? count : fit;
    if (!build_index(r)) {
        return rd_fail(r, EVREC_E_NOMEM, r->fi.offset, "out of memory for the FIELD_INFO index");
    }
    r->fi.entries = calloc(n ? n : 1u, sizeof *r->fi.entries);
    if (!r->fi.entries) {
        return rd_fail(r, EVREC_E_NOMEM, r->fi.offset, "out of memory for %u FIELD_INFO entries", (unsigned)n);
    }
    uint32_t i = 0;
    while (i < count && parse_entry(r, &c, i, count, n)) {
        i++;
    }
    if (i == count && c.pos != c.len) {
        fi_problem(r, EVREC_E_CORRUPT, c.base + c.pos,
                   "FIELD_INFO chunk at offset %llu: %u bytes after its %u entries (expected none)",
                   (unsigned long long)r->fi.offset, (unsigned)(c.len - c.pos), (unsigned)count);
    }
    if (r->fi.count) {
        r->fi.table.schema_hash = r->info.schema_hash_computed;
        r->fi.table.count = r->fi.count;
        r->fi.table.entries = r->fi.entries;
        r->tables.meta.field_info = &r->fi.table;
    }
    return r->errs.first.status;
}

evrec_status rd_field_info_deferred(evrec_reader_t *r)
{
    if (r->fi.err.status == EVREC_OK) {
        return EVREC_OK;
    }
    return rd_damage(r, r->fi.err.status, r->fi.err.offset, 0, "%s", r->fi.err.message);
}

void rd_field_info_free(evrec_reader_t *r)
{
    free(r->fi.raw);
    free(r->fi.entries);
    free(r->fi.by_field);
    free(r->fi.base);
}

const evrec_field_info_t *evrec_reader_field_info(const evrec_reader_t *r, uint16_t struct_id,
                                                  uint32_t field_index)
{
    if (!r || !r->tables.have_meta || !r->fi.by_field || struct_id >= r->tables.meta.struct_count ||
        field_index >= r->tables.structs[struct_id].field_count) {
        return NULL;
    }
    return r->fi.by_field[r->fi.base[struct_id] + field_index];
}

const evrec_reader_error_t *evrec_reader_field_info_error(const evrec_reader_t *r)
{
    static const evrec_reader_error_t no_reader = {EVREC_E_ARG, 0, "no reader"};
    return r ? &r->fi.err : &no_reader;
}
