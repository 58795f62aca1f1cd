/* SPDX-License-Identifier: Apache-2.0 */
/* A captured stream (the bytes of a transport, FORMAT.md section 8) turned into a container file
 * in one go: the receiver feeds the file writer. What a reader does with a file that starts with
 * a frame's magic (format/src/reader_source.c). */
#include <string.h>

#include "evrec/evrec_stream_format.h"
#include "stream_internal.h"

typedef struct convert {
    FILE *out;
    evrec_sfile_t *w;
} convert_t;

static int on_meta(void *ctx, const uint8_t *doc, size_t size)
{
    convert_t *c = (convert_t *)ctx;
    return evrec_sfile_open(&c->w, c->out, doc, size) != EVREC_OK;
}

static int on_records(void *ctx, unsigned lane, const uint8_t *data, size_t size, uint64_t count,
                      const uint8_t state[36])
{
    convert_t *c = (convert_t *)ctx;
    (void)lane;
    return evrec_sfile_records(c->w, data, size, count, state) != EVREC_OK;
}

int evrec_srx_is_capture(const void *head, size_t size)
{
    return size >= 4 && memcmp(head, EVREC_STREAM_MAGIC, 4) == 0;
}

evrec_status evrec_srx_convert(FILE *in, FILE *out)
{
    convert_t c = {out, NULL};
    evrec_srx_sink_t sink = {on_meta, on_records, NULL, &c};
    evrec_srx_t *rx = NULL;
    evrec_status st = evrec_srx_new(&rx, &sink);
    static uint8_t buf[1u << 16];
    size_t n;
    while (st == EVREC_OK && (n = fread(buf, 1, sizeof buf, in)) != 0) {
        st = evrec_srx_feed(rx, buf, n);
    }
    if (st == EVREC_OK) {
        st = ferror(in) ? EVREC_E_IO : evrec_srx_finish(rx);
    }
    if (st == EVREC_OK && !c.w) {
        st = EVREC_E_CORRUPT; /* no complete meta-info in the capture */
    }
    if (c.w) {
        evrec_status cs = evrec_sfile_close_rx(c.w, rx);
        st = st == EVREC_OK ? cs : st;
    }
    evrec_srx_free(rx);
    return st;
}
