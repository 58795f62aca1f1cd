/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the stream receiver (format/stream: frames, meta document, sequence numbers) and
 * the file it writes (FORMAT.md section 8). The input is a captured stream; it goes through
 *  1. the receiver, fed in odd-sized chunks, whose counts must add up (records handed out are
 *     whole records of the document's sizes, damage never exceeds the input, the previous boot's
 *     file is handed out in order, each byte once, never beyond the size its frames give, and
 *     nothing after its last piece, not even an empty piece);
 *  2. evrec_srx_convert() into a file that the reader then reads to its end; the file's LOSSES
 *     chunk is final and fits the input.
 * Only what the API promises is asserted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_stream_rx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static int on_records(void *ctx, unsigned lane, const uint8_t *d, size_t n, uint64_t count,
                      const uint8_t state[36])
{
    uint64_t *acc = ctx;
    if (count == 0 || n < 6u * count || lane >= EVREC_SRX_LANES) {
        fprintf(stderr, "records: %llu records in %zu bytes, lane %u\n", (unsigned long long)count, n, lane);
        abort();
    }
    *acc += count + d[0] + state[35];
    return 0;
}

typedef struct prev_seen {
    uint64_t handed; /* bytes handed out */
    int whole;       /* the last piece came (offset + size == total): nothing may follow */
} prev_seen_t;

static int on_prev_boot(void *ctx, const uint8_t *d, size_t n, uint64_t offset, uint64_t total)
{
    prev_seen_t *ps = ctx;
    uint64_t *handed = &ps->handed;
    if (ps->whole || offset != *handed || n > total || offset > total - n) {
        fprintf(stderr, "previous boot: %zu bytes at %llu of %llu, %llu handed out before\n", n,
                (unsigned long long)offset, (unsigned long long)total, (unsigned long long)*handed);
        abort();
    }
    *handed += n;
    ps->whole = *handed == total;
    sink += n ? d[0] : 0;
    return 0;
}

static void receive(const uint8_t *data, size_t size)
{
    uint64_t acc = 0;
    prev_seen_t prev = {0, 0};
    evrec_srx_sink_t s = {NULL, on_records, NULL, &acc};
    evrec_srx_t *rx = NULL;
    if (evrec_srx_new(&rx, &s) != EVREC_OK) {
        return;
    }
    evrec_srx_set_prev_boot(rx, on_prev_boot, &prev);
    size_t q = 0, k = 1;
    while (q < size) {
        size_t n = size - q < k ? size - q : k;
        (void)evrec_srx_feed(rx, data + q, n);
        q += n;
        k = k * 3u % 1021u + 1u;
    }
    (void)evrec_srx_finish(rx);
    const evrec_srx_stats_t *st = evrec_srx_stats(rx);
    if (st->bytes != size || st->damaged_bytes > size || st->prev_received != prev.handed ||
        st->prev_received > st->prev_size) {
        fprintf(stderr, "receiver: %llu bytes counted of %zu, %llu damaged\n", (unsigned long long)st->bytes, size,
                (unsigned long long)st->damaged_bytes);
        abort();
    }
    sink += acc + st->lane[0].received;
    evrec_srx_free(rx);
}

static void convert(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)(uintptr_t)data, size ? size : 1u, "rb");
    FILE *out = tmpfile();
    if (in && out && size && evrec_srx_convert(in, out) == EVREC_OK) {
        rewind(out);
        evrec_reader_t *r = NULL;
        if (evrec_reader_open_file(&r, out, NULL) == EVREC_OK) {
            /* the file has the receiver's final losses (FORMAT.md section 8.4) */
            const evrec_stream_losses_t *l = evrec_reader_stream_losses(r);
            if (!l || !l->final || l->listed > l->damaged_ranges || l->damaged_bytes > size) {
                fprintf(stderr, "convert: no final LOSSES chunk, or one that does not fit the input\n");
                abort();
            }
            evrec_record_t rec;
            while (evrec_reader_next(r, &rec) == EVREC_OK) {
                sink += rec.id;
            }
        }
        evrec_reader_close(r);
    }
    if (in) {
        fclose(in);
    }
    if (out) {
        fclose(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    receive(data, size);
    convert(data, size);
    return 0;
}
