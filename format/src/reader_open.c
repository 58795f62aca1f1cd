/* SPDX-License-Identifier: Apache-2.0 */
/* Opening and closing a reader over a path, a FILE* or memory; accessors of what the open read. */
#include <errno.h>
#include <stdlib.h>

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
        if (st != EVREC_OK && !r->errs.halt && r->tables.have_meta) {
            st = EVREC_OK; /* damage before the stream (a display-only chunk): recorded, read on */
        }
        if (st == EVREC_OK && r->stream.meta_damaged) {
            /* Read from a chunk whose CRC failed: trusted only if it hashes as the header says. */
            if (r->info.schema_hash_stored == 0 || r->info.schema_hash_stored != r->info.schema_hash_computed) {
                r->tables.have_meta = 0;
                st = rd_fail(r, EVREC_E_CHECKSUM, r->stream.meta_damage_off,
                             "the meta-info lies in the damaged chunk at offset %llu and its schema hash "
                             "(0x%016llX) is not the header's (0x%016llX): no record can be trusted",
                             (unsigned long long)r->stream.meta_damage_off,
                             (unsigned long long)r->info.schema_hash_computed,
                             (unsigned long long)r->info.schema_hash_stored);
            } else if (r->stream.seg_damaged) {
                r->stream.seg_pos = r->stream.seg_len; /* the records of the damaged chunk are not used */
                r->resync.discont = 1;
                r->info.records_offset = rd_item_offset(r);
            }
        }
        if (st != EVREC_OK && r->info.format == EVREC_FILE_CCORE) {
            /* Say both: it was not a container, and as a CCore stream it failed here. */
            rd_error_prefix(r, "no evrec magic, and not a valid CCore stream: ");
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
    int st = src_open_path(&r->src, path);
    if (st == 1) {
        return rd_fail(r, EVREC_E_NOMEM, 0, "out of memory");
    }
    if (st == 2) {
        return rd_fail(r, EVREC_E_IO, 0, "cannot open: %s", strerror(errno));
    }
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
    src_open_file(&r->src, f);
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
    src_open_memory(&r->src, data, size);
    return reader_start(r);
}

void evrec_reader_close(evrec_reader_t *r)
{
    if (!r) {
        return;
    }
    src_close(&r->src);
    rd_free_meta(r);
    rd_field_info_free(r);
    rd_tracks_free(r);
    rd_lanes_free(r);
    rd_losses_free(r);
    rd_index_free(r);
    rd_attrs_free(r);
    free(r->copy.meta);
    free(r->stream.buf);
    free(r->event_counts);
    rd_errors_free(r);
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
    return r && r->tables.have_meta ? &r->tables.meta : NULL;
}

uint32_t evrec_reader_event_size(const evrec_reader_t *r, uint16_t event_id)
{
    return r && r->tables.have_meta && event_id < r->tables.meta.event_count ? r->tables.save_len[event_id] : 0;
}

const char *evrec_reader_event_name(const evrec_reader_t *r, uint16_t event_id)
{
    if (!r || !r->tables.have_meta || event_id >= r->tables.meta.event_count) {
        return NULL;
    }
    return r->tables.structs[r->tables.events[event_id].struct_id].name;
}
