/* SPDX-License-Identifier: Apache-2.0 */
/* timeline_shared_end_trace OUT.evr: a recording of two spans that share their end (shared_end.yaml)
 * on the fake clock (1 MHz: a tick is 1 us): Reader waits for an item from 100 to 1000 us, Writer
 * waits for room from 1100 to 2000 us. A window from 500 us sees Reader's Woken without its begin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_save.h"
#include "shend_events.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

static void at(uint32_t t)
{
    evrec_test_clock_now = t;
    evrec_test_clock_step = 0;
}

static int file_write(void *ctx, const void *data, size_t n)
{
    return fwrite(data, 1, n, ctx) == n ? 0 : 1;
}

int main(int argc, char **argv)
{
    static _Alignas(8) unsigned char buf[65536];
    evrec_recorder_t rec;
    evrec_host_t host;
    if (argc != 2 || evrec_recorder_init(&rec, buf, sizeof buf) != EVREC_OK) {
        fprintf(stderr, "usage: timeline_shared_end_trace OUT.evr\n");
        return 2;
    }
    evrec_host_init(&host);
    at(0);
    if (evrec_host_start(&host, &rec, &shend_meta, 1000000u) != EVREC_OK) {
        return 1;
    }
    at(100);
    shend_record_QueueWait(&host, shend_Thread_Reader, shend_WaitType_WaitNotEmpty);
    at(1000);
    shend_record_QueueWait(&host, shend_Thread_Reader, shend_WaitType_Woken);
    at(1100);
    shend_record_QueueWait(&host, shend_Thread_Writer, shend_WaitType_WaitNotFull);
    at(2000);
    shend_record_QueueWait(&host, shend_Thread_Writer, shend_WaitType_Woken);
    at(2100);
    FILE *f = fopen(argv[1], "wb");
    evrec_sink_t sink = {file_write, f};
    int ok = f && evrec_host_stop(&host, NULL) == EVREC_OK && evrec_save(&rec, &sink) == EVREC_OK;
    return f && fclose(f) == 0 && ok ? 0 : 1;
}
