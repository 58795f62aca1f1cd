/* SPDX-License-Identifier: Apache-2.0 */
/* make_ctf_fixtures DIR: the recordings of the CTF tests (test_ctf.py), written into DIR with the
 * real recorder and the reader tests' all-kinds meta-info (tests/reader/reader_fixtures.h):
 *   all.evr        every field kind, nested structs, run-time enum names ("Task B" has a blank),
 *                  Ticks, Start/Stop: the demo-like file
 *   all.ccore      the same as a bare CCore stream
 *   drops.evr      a one-shot buffer too small: the header counts dropped events
 *   cyclic.evr     a cyclic buffer that wrapped: the header counts overwritten records
 *   reorder.evr    hand-timed: two records stamped earlier than the record before them
 *   ticks.evr      hand-timed, time_freq 0: the frequency comes from 10 Hz ticks
 *   damaged.evr    all.evr in 256-byte chunks with one chunk's CRC broken half-way (no SYNC
 *                  chunks: the reader stops there)
 *   gap.evr        3000 records as the recorder saves them (STREAM chunks with SYNC chunks
 *                  between them) with a byte flipped in a STREAM chunk in the middle: the reader
 *                  resumes at the next SYNC point */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "reader_fixtures.h"

static int put_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

/* Record n events (alternating EvAll and EvSimple, a Tick every 7) into a buffer of `size`
 * bytes: one-shot (block 0) or cyclic (block_size), and save it as a container. */
static void record(size_t n, size_t size, size_t block, fx_buf_t *out)
{
    const evrec_meta_t *m = fx_meta_init();
    uint32_t v;
    evrec_runtime_enum_alloc(fx_runtime_enum(), "TaskA", &v);
    evrec_runtime_enum_alloc(fx_runtime_enum(), "Task B", &v);
    void *buf = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    if (block) {
        evrec_recorder_init_cyclic(&rec, buf, size, block);
    } else {
        evrec_recorder_init(&rec, buf, size);
    }
    evrec_host_init(&host);
    evrec_host_start(&host, &rec, m, 1000000000u);
    for (uint32_t k = 0; k < n; k++) {
        if (k % 2 == 0) {
            fx_ev_all_t e;
            fx_expect_all(k, &e);
            evrec_record(&host, FX_EVENT_ALL, &e);
        } else {
            fx_ev_simple_t *s = evrec_reserve(&host, sizeof *s);
            if (s) {
                s->v = fx_expect_simple(k);
                evrec_commit(s, FX_EVENT_SIMPLE);
            }
        }
        if (k % 7 == 6) {
            evrec_tick(&host);
        }
    }
    evrec_host_stop(&host, NULL);
    evrec_sink_t sink = fx_sink(out);
    evrec_save(&rec, &sink);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_ctf_fixtures DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    int bad = 0;
    fx_buf_t b = {0};

    fx_record(300, 0, &b);
    bad |= put_file(dir, "all.evr", b.p, b.len);
    /* damaged: 256-byte chunks, the CRC of the chunk in the middle of the stream broken */
    fx_buf_t rc = {0};
    fx_rechunk(b.p, b.len, 256, 0, &rc);
    fx_chunk_t ch[4096];
    size_t n = fx_chunks(rc.p, rc.len, ch, 4096);
    size_t streams = 0, mid = 0;
    for (size_t i = 0; i < n; i++) {
        streams += ch[i].type == EVREC_CHUNK_STREAM;
    }
    for (size_t i = 0, s = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM && s++ == streams / 2) {
            mid = i;
        }
    }
    rc.p[ch[mid].off + 4] ^= 0x5A;
    bad |= put_file(dir, "damaged.evr", rc.p, rc.len);
    fx_buf_free(&rc);
    fx_buf_free(&b);

    fx_record(3000, 0, &b);
    n = fx_chunks(b.p, b.len, ch, 4096);
    streams = 0;
    mid = 0;
    for (size_t i = 0; i < n; i++) {
        streams += ch[i].type == EVREC_CHUNK_STREAM;
    }
    for (size_t i = 0, s = 0; i < n; i++) {
        if (ch[i].type == EVREC_CHUNK_STREAM && s++ == streams / 2) {
            mid = i;
        }
    }
    if (streams < 3) {
        fprintf(stderr, "make_ctf_fixtures: gap.evr: %zu STREAM chunks, want 3 or more\n", streams);
        bad = 1;
    }
    b.p[ch[mid].off + 50] ^= 0xFF;
    bad |= put_file(dir, "gap.evr", b.p, b.len);
    fx_buf_free(&b);

    fx_record(50, 1, &b);
    bad |= put_file(dir, "all.ccore", b.p, b.len);
    fx_buf_free(&b);

    record(400, 2048, 0, &b);
    bad |= put_file(dir, "drops.evr", b.p, b.len);
    fx_buf_free(&b);

    record(2000, 4096, 512, &b);
    bad |= put_file(dir, "cyclic.evr", b.p, b.len);
    fx_buf_free(&b);

    fx_native_t nt = {0};
    fx_native_control(&nt, 1000, EVREC_CONTROL_START);
    fx_native_simple(&nt, 1100, 1);
    fx_native_simple(&nt, 1200, 2);
    fx_native_simple(&nt, 1150, 3); /* stamped before its predecessor (concurrent writers) */
    fx_native_simple(&nt, 1300, 4);
    fx_native_simple(&nt, 1400, 5);
    fx_native_simple(&nt, 1250, 6); /* two records back */
    fx_native_simple(&nt, 1500, 7);
    fx_native_control(&nt, 1600, EVREC_CONTROL_STOP);
    fx_native_save(&nt, 1000, 0, &b);
    bad |= put_file(dir, "reorder.evr", b.p, b.len);
    fx_native_free(&nt);
    fx_buf_free(&b);

    /* time_freq 0: Ticks every 1000 ticks at the default 10 Hz make 10 kHz */
    fx_native_control(&nt, 0, EVREC_CONTROL_START);
    for (uint32_t k = 1; k <= 6; k++) {
        fx_native_simple(&nt, k * 1000u - 500u, k);
        fx_native_control(&nt, k * 1000u, EVREC_CONTROL_TICK);
    }
    fx_native_control(&nt, 6500, EVREC_CONTROL_STOP);
    fx_native_save(&nt, 0, 0, &b);
    bad |= put_file(dir, "ticks.evr", b.p, b.len);
    fx_native_free(&nt);
    fx_buf_free(&b);
    return bad;
}
