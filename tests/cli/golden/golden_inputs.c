/* SPDX-License-Identifier: Apache-2.0 */
/* golden_inputs DIR: write the fixed recordings of the golden viewer test (golden.sh) to DIR:
 *   demo.evr       every event type of tests/gen/pass/full (the demo schema) a few times over,
 *                  fake clock (tests/recorder/port), a 32-bit time wrap, as a container
 *   demo.ccore     the same recording as a bare CCore EventRecorder stream
 *   damaged.evr    demo.evr with its stream cut into 64-byte chunks and one byte of a middle
 *                  STREAM chunk of the records flipped: a damaged range the reader skips (FORMAT.md, SYNC chunks)
 * The same bytes on every run: the clock is a variable, nothing depends on the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_events.h"
#include "evrec/evrec_container.h"
#include "evrec/evrec_save.h"
#include "reader_fixtures.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

static void fail(const char *what)
{
    fprintf(stderr, "golden_inputs: %s\n", what);
    exit(1);
}

static void record_round(evrec_host_t *host, uint32_t k, demo_TaskId_t t1, demo_TaskId_t t2,
                         demo_Channel_t usb)
{
    demo_record_TaskSwitch(host, k % 2 ? t2 : t1, k % 2 ? t1 : t2,
                           k % 3 ? demo_TaskState_Blocked : demo_TaskState_Ready);
    demo_record_IsrEnter(host, (uint8_t)(7 + k % 2));
    demo_record_IsrExit(host, (uint8_t)(7 + k % 2), 1234 + 17 * k);
    demo_record_PhaseChange(host, (demo_Phase_t)(k % 3));
    demo_record_Sent(host, (demo_Packet_t){k % 2 ? usb : demo_Channel_Uart, (uint8_t)(12 + k), {3, 4}, 0xBEEF + k},
                     0x20000100u + 16 * k);
    if (k % 4 == 3) {
        demo_record_Fault(host, k % 8 == 3 ? demo_ErrorCode_Timeout : demo_ErrorCode_Fatal, 0x08000F00u + k,
                          (uint16_t)k, 0x5A);
    }
    demo_record_Heartbeat(host);
}

static void record_demo(int bare, fx_buf_t *out)
{
    static _Alignas(8) unsigned char trace[8192];
    evrec_host_t host;
    evrec_recorder_t rec;
    evrec_test_clock_now = 0xFFFFF000u; /* wraps after a few hundred stamps */
    evrec_test_clock_step = 37;
    if (demo_runtime_init() != EVREC_OK || evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK) {
        fail("cannot start the recorder");
    }
    evrec_host_init(&host);
    if (evrec_host_start(&host, &rec, &demo_meta, demo_meta.time_freq) != EVREC_OK) {
        fail("cannot start the recorder");
    }
    demo_TaskId_t t1, t2;
    demo_Channel_t usb;
    if (demo_TaskId_alloc("main", &t1) != EVREC_OK || demo_TaskId_alloc("worker", &t2) != EVREC_OK ||
        demo_Channel_alloc("usb", &usb) != EVREC_OK) {
        fail("cannot name the run-time enum values");
    }
    for (uint32_t k = 0; k < 12; k++) {
        record_round(&host, k, t1, t2, usb);
    }
    if (evrec_host_stop(&host, NULL) != EVREC_OK) {
        fail("cannot stop the recorder");
    }
    evrec_sink_t sink = fx_sink(out);
    evrec_save_options_t opt = {0, bare};
    if (evrec_save_ex(&rec, &sink, &opt) != EVREC_OK) {
        fail("cannot save");
    }
}

static void write_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fail(path);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: golden_inputs DIR\n");
        return 2;
    }
    fx_buf_t evr = {0}, bare = {0}, chunked = {0};
    record_demo(0, &evr);
    record_demo(1, &bare);
    write_file(argv[1], "demo.evr", evr.p, evr.len);
    write_file(argv[1], "demo.ccore", bare.p, bare.len);
    fx_rechunk(evr.p, evr.len, 64, 0, &chunked);
    fx_chunk_t chunks[256];
    size_t n = fx_chunks(chunked.p, chunked.len, chunks, 256);
    size_t streams = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        streams += chunks[i].type == EVREC_CHUNK_STREAM;
    }
    /* A STREAM chunk three quarters in: records (not the meta-info) before and after it. */
    for (size_t i = 0, seen = 0; i < n && !k; i++) {
        if (chunks[i].type == EVREC_CHUNK_STREAM && ++seen == streams * 3 / 4) {
            k = i;
        }
    }
    if (streams < 8 || !k) {
        fail("too few chunks to damage one");
    }
    chunked.p[chunks[k].off + 20] ^= 0x40; /* a payload byte: the chunk's CRC fails */
    write_file(argv[1], "damaged.evr", chunked.p, chunked.len);
    fx_buf_free(&evr);
    fx_buf_free(&bare);
    fx_buf_free(&chunked);
    return 0;
}
