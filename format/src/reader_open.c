/* SPDX-License-Identifier: Apache-2.0 */
/* Opening and closing a reader over a path, a FILE* or memory; accessors of what the open read. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "reader_internal.h"

static evrec_reader_t *reader_new(const evrec_reader_options_t *opt)
{
    evrec_reader_t *r = calloc(1, sizeof *r);
    if (r && opt) {
        r->opt = *opt;
    }
    return r;
}

/* Header or CCore probe, then the meta-info. */
static evrec_status reader_start(evrec_reader_t *r)
{
    r->info.file_size = r->src.size_known ? r->src.size : 0;
    evrec_status st = rd_open_container_or_ccore(r);
    if (st == EVREC_OK) {
        rd_copy_use(r); /* the start of the file is damaged: the copies at the end (FORMAT.md 2.4) */
        st = rd_parse_meta(r);
        if (st != EVREC_OK && !r->halt && r->have_meta) {
            st = EVREC_OK; /* damage before the stream (a display-only chunk): recorded, read on */
        }
        if (st == EVREC_OK && r->meta_damaged) {
            /* Read from a chunk whose CRC failed: trusted only if it hashes as the header says. */
            if (r->info.schema_hash_stored == 0 || r->info.schema_hash_stored != r->info.schema_hash_computed) {
                r->have_meta = 0;
                st = rd_fail(r, EVREC_E_CHECKSUM, r->meta_damage_off,
                             "the meta-info lies in the damaged chunk at offset %llu and its schema hash "
                             "(0x%016llX) is not the header's (0x%016llX): no record can be trusted",
                             (unsigned long long)r->meta_damage_off,
                             (unsigned long long)r->info.schema_hash_computed,
                             (unsigned long long)r->info.schema_hash_stored);
            } else if (r->seg_damaged) {
                r->seg_pos = r->seg_len; /* the records of the damaged chunk are not used */
                r->discont = 1;
                r->info.records_offset = rd_item_offset(r);
            }
        }
        if (st != EVREC_OK && r->info.format == EVREC_FILE_CCORE) {
            /* Say both: it was not a container, and as a CCore stream it failed here. */
            static const char prefix[] = "no evrec magic, and not a valid CCore stream: ";
            char msg[sizeof r->err.message];
            size_t keep = sizeof msg - sizeof prefix;
            memcpy(msg, prefix, sizeof prefix - 1);
            size_t n = strnlen(r->err.message, keep);
            memcpy(msg + sizeof prefix - 1, r->err.message, n);
            msg[sizeof prefix - 1 + n] = 0;
            memcpy(r->err.message, msg, sizeof msg);
        }
    }
    if (st != EVREC_OK) {
        if (r->info.format == EVREC_FILE_CCORE) {
            r->info.format = EVREC_FILE_UNKNOWN; /* not recognised after all */
        }
        return st;
    }
    r->opened = 1;
    return EVREC_OK;
}

/* Size and seekability of a FILE*, from its current position. */
static void probe_file(rd_source_t *s)
{
    struct stat st;
    s->file_start = ftello(s->f);
    if (s->file_start >= 0 && fstat(fileno(s->f), &st) == 0 && S_ISREG(st.st_mode)) {
        s->seekable = 1;
        s->size_known = 1;
        s->size = (uint64_t)st.st_size > (uint64_t)s->file_start ? (uint64_t)st.st_size - (uint64_t)s->file_start : 0;
    }
}

evrec_status evrec_reader_open_path(evrec_reader_t **out, const char *path, const evrec_reader_options_t *opt)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    if (!path) {
        return EVREC_E_ARG;
    }
    evrec_reader_t *r = reader_new(opt);
    if (!r) {
        return EVREC_E_NOMEM;
    }
    *out = r;
    r->src.kind = SRC_FILE;
    r->src.path = malloc(strlen(path) + 1);
    if (!r->src.path) {
        return rd_fail(r, EVREC_E_NOMEM, 0, "out of memory");
    }
    strcpy(r->src.path, path);
    r->src.f = fopen(path, "rb");
    if (!r->src.f) {
        return rd_fail(r, EVREC_E_IO, 0, "cannot open: %s", strerror(errno));
    }
    r->src.own_file = 1;
    probe_file(&r->src);
    return reader_start(r);
}

evrec_status evrec_reader_open_file(evrec_reader_t **out, FILE *f, const evrec_reader_options_t *opt)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    if (!f) {
        return EVREC_E_ARG;
    }
    evrec_reader_t *r = reader_new(opt);
    if (!r) {
        return EVREC_E_NOMEM;
    }
    *out = r;
    r->src.kind = SRC_FILE;
    r->src.f = f;
    probe_file(&r->src);
    return reader_start(r);
}

evrec_status evrec_reader_open_memory(evrec_reader_t **out, const void *data, size_t size,
                                      const evrec_reader_options_t *opt)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    if (!data && size) {
        return EVREC_E_ARG;
    }
    evrec_reader_t *r = reader_new(opt);
    if (!r) {
        return EVREC_E_NOMEM;
    }
    *out = r;
    static const uint8_t empty[1] = {0};
    r->src.kind = SRC_MEMORY;
    r->src.mem = data ? (const uint8_t *)data : empty;
    r->src.mem_size = size;
    r->src.size = size;
    r->src.size_known = 1;
    return reader_start(r);
}

void evrec_reader_close(evrec_reader_t *r)
{
    if (!r) {
        return;
    }
    if (r->src.own_file && r->src.f) {
        fclose(r->src.f);
    }
    free(r->src.path);
    rd_free_meta(r);
    rd_field_info_free(r);
    rd_view_free(r);
    rd_lanes_free(r);
    free(r->copy_meta);
    free(r->buf);
    free(r->event_counts);
    free(r->damage);
    free(r);
}

const evrec_file_info_t *evrec_reader_info(const evrec_reader_t *r)
{
    static const evrec_file_info_t none;
    if (!r) {
        return &none;
    }
    return &r->info;
}

const evrec_meta_t *evrec_reader_meta(const evrec_reader_t *r)
{
    return r && r->have_meta ? &r->meta : NULL;
}

uint32_t evrec_reader_event_size(const evrec_reader_t *r, uint16_t event_id)
{
    return r && r->have_meta && event_id < r->meta.event_count ? r->save_len[event_id] : 0;
}

const char *evrec_reader_event_name(const evrec_reader_t *r, uint16_t event_id)
{
    if (!r || !r->have_meta || event_id >= r->meta.event_count) {
        return NULL;
    }
    return r->structs[r->events[event_id].struct_id].name;
}
