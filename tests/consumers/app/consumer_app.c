/* SPDX-License-Identifier: Apache-2.0 */
/* A host program as a user writes it against an installed evrec: event types from its own schema
 * (evrec-gen), two threads recording, a save to the file named on the command line.
 * Usage: consumer_app OUT.evr. Exit 0 when the file was written with every record. */
#include <pthread.h>
#include <stdio.h>

#include "consumer_events.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec_posix.h"

#define STEPS 1000u

static evrec_host_t host;
static uint64_t trace[8 * 1024]; /* 8-byte aligned, as evrec_recorder_init() asks */

static void *work(void *arg)
{
    consumer_Worker_t who = *(const consumer_Worker_t *)arg;
    for (uint32_t i = 0; i < STEPS; i++) {
        consumer_record_Work(&host, who, i);
    }
    return NULL;
}

static int file_write(void *ctx, const void *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer_app OUT.evr\n");
        return 2;
    }
    evrec_recorder_t rec;
    evrec_host_init(&host);
    if (evrec_recorder_init(&rec, trace, sizeof trace) != EVREC_OK ||
        evrec_host_start(&host, &rec, &consumer_meta, evrec_posix_time_freq(0)) != EVREC_OK) {
        fprintf(stderr, "consumer_app: cannot start the recorder\n");
        return 1;
    }
    consumer_Worker_t left = consumer_Worker_Left, right = consumer_Worker_Right;
    pthread_t a, b;
    if (pthread_create(&a, NULL, work, &left) != 0 || pthread_create(&b, NULL, work, &right) != 0) {
        fprintf(stderr, "consumer_app: cannot start the threads\n");
        return 1;
    }
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    evrec_host_stop(&host, NULL);

    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    evrec_sink_t sink = {file_write, f};
    evrec_status st = evrec_save(&rec, &sink);
    if (fclose(f) != 0 || st != EVREC_OK) {
        fprintf(stderr, "consumer_app: save failed: %s\n", evrec_strerror(st));
        return 1;
    }
    printf("consumer_app: %lu records, %lu dropped\n", (unsigned long)evrec_recorder_counts(&rec).recorded,
           (unsigned long)evrec_recorder_counts(&rec).dropped);
    return evrec_recorder_counts(&rec).dropped == 0 && evrec_recorder_counts(&rec).recorded == 2u * STEPS + 2u ? 0
                                                                                                               : 1;
}
