/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --ccore`: the bare CCore EventRecorder stream that CCore's EventView loads
 * (format/FORMAT.md section 3): the MetaInfo, the records, the End record.
 *
 * The MetaInfo and the End record come from the recorder library's own encoder
 * (evrec_save_ccore() with no records writes exactly MetaInfo + End), so they are byte for byte
 * what a recorder saving these tables in bare CCore mode writes; the records in between are the
 * packed big-endian bytes the reader returns, unchanged. The file's own time_freq is kept (not a
 * --time-freq given to this command). Display attributes (FIELD_INFO) and the container's counts
 * have no place in a CCore stream; losses are reported on stderr by the command only. */
#include <stdlib.h>

#include "evrec/evrec_save.h"
#include "export.h"

#define END_RECORD_SIZE 7u

typedef struct ccore {
    export_out_t *o;
    export_out_t meta; /* MetaInfo followed by the End record */
} ccore_t;

static int sink_write(void *ctx, const void *data, size_t len)
{
    export_put(ctx, data, len);
    return 0;
}

static void *ccore_begin(export_out_t *o, const export_meta_t *meta)
{
    ccore_t *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("out of memory");
        return NULL;
    }
    c->o = o;
    evrec_sink_t sink = {sink_write, &c->meta};
    evrec_status st = evrec_save_ccore(meta->meta, meta->info->time_freq, NULL, 0, &sink);
    if (st != EVREC_OK || c->meta.len < END_RECORD_SIZE) {
        cli_error("%s: cannot encode the meta-info as a CCore stream (status %d)", meta->input, (int)st);
        free(c->meta.p);
        free(c);
        return NULL;
    }
    export_put(o, c->meta.p, c->meta.len - END_RECORD_SIZE);
    return c;
}

static int ccore_record(void *w, const evrec_record_t *rec)
{
    ccore_t *c = w;
    export_put(c->o, rec->data, rec->size);
    return 0;
}

static int ccore_loss(void *w, const export_loss_t *l)
{
    (void)w;
    (void)l;
    return 0; /* a CCore stream cannot say it; the command reports losses on stderr */
}

static int ccore_end(void *w, const export_end_t *end)
{
    ccore_t *c = w;
    if (end) {
        export_put(c->o, c->meta.p + c->meta.len - END_RECORD_SIZE, END_RECORD_SIZE);
    }
    free(c->meta.p);
    free(c);
    return 0;
}

const export_writer_t export_writer_ccore = {"ccore", "--ccore", ccore_begin, ccore_record, ccore_loss, ccore_end,
                                             NULL};
