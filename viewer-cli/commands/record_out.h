/* SPDX-License-Identifier: Apache-2.0 */
/* The files `evrec record` writes (record_out.c): one file, or (--split-size, --split-time) a
 * series NAME-0001.evr, NAME-0002.evr ... each a complete container with its own meta-info
 * (format/FORMAT.md section 8.3), the oldest removed beyond --keep. A file is only ever created
 * (O_EXCL), never replaced; only files created in this run are removed. */
#ifndef EVREC_CLI_RECORD_OUT_H
#define EVREC_CLI_RECORD_OUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "evrec/evrec_stream_rx.h"

/** A file made in this run (for --keep: removed only when it is still that file). */
typedef struct record_made {
    char *name;
    dev_t dev;
    ino_t ino;
} record_made_t;

/** The output of `evrec record`. Zero-initialise, set the options, then record_out_check(). */
typedef struct record_out {
    const char *path;        /**< -o as given: a path, "-", a FIFO or a device */
    uint64_t split_size;     /**< --split-size, bytes per file (0: no split by size) */
    uint64_t split_time;     /**< --split-time, seconds per file (0: no split by time) */
    uint64_t keep;           /**< --keep, files kept (0: all) */
    const evrec_srx_t *rx;   /**< for the losses of each file (set once made) */
    const char *const *tags; /**< --tag KEY=VALUE: attributes set on the meta document's */
    size_t ntags;
    /* state */
    FILE *f;
    evrec_sfile_t *w;
    char *name;   /**< the file being written ("-" for standard output) */
    uint8_t *doc; /**< the meta document (split: written again in every file) */
    size_t doc_size;
    unsigned number;           /**< split: the number of the file being written (1 ...) */
    double opened;             /**< CLOCK_MONOTONIC seconds when it was opened */
    uint64_t bytes_closed;     /**< bytes of the files already closed */
    uint64_t records_closed;   /**< records in the files already closed */
    evrec_srx_stats_t at_open; /**< the receiver's counts when it was opened (its losses are those since) */
    record_made_t *made;       /**< split: the files made, oldest first (those removed included) */
    size_t made_count, removed;
    int failed; /**< a write, create or remove failed (reported) */
    /** Called after a split file was closed and before the next is opened (--show follows it). */
    void (*closed)(void *ctx, const char *name);
    void *closed_ctx;
} record_out_t;

/* Every function below runs on the command's one thread and reports its errors on stderr
 * ("evrec: PATH: ..."). */

/**
 * @brief Check the options against -o before anything is read.
 * @param[in] o the output, options set.
 * @retval 1 the path fits (a series: -o names a file, and NAME-0001.evr does not exist; one
 * file: it does not exist, or is "-", a FIFO or a device).
 * @retval 0 it does not (said).
 */
int record_out_check(record_out_t *o);

/**
 * @brief The receiver's meta callback (evrec_srx_sink_t::meta): keeps a copy of the document
 * (malloc, freed by record_out_close()) and opens the first file.
 * @retval 0 opened.
 * @retval 1 the file could not be created or written, or memory ran out (said; o->failed set).
 */
int record_out_meta(void *ctx, const uint8_t *doc, size_t size);

/**
 * @brief The receiver's records callback: begins the next file of a series when due, then
 * writes the batch (buffered until record_out_flush()).
 * @retval 0 written.
 * @retval 1 a write failed, or the next file could not be created (said; o->failed set).
 */
int record_out_records(void *ctx, unsigned lane, const uint8_t *data, size_t size, uint64_t count,
                       const uint8_t state[36]);

/**
 * @brief Push what was written to the file (fflush).
 * @retval 1 pushed (or nothing open yet).
 * @retval 0 it failed (said; o->failed set).
 */
int record_out_flush(record_out_t *o);

/** Bytes written in all files (those removed by --keep included); pure. */
uint64_t record_out_bytes(const record_out_t *o);

/** Records written in all files; pure. */
uint64_t record_out_count(const record_out_t *o);

/**
 * @brief End the file being written (End record, END chunk, its header with its own counts) and
 * free the document and the list of files made.
 * @retval 1 every file was written and closed.
 * @retval 0 a write, close or earlier step failed (said).
 */
int record_out_close(record_out_t *o);

/** Records lost so far by a receiver: returns those lost in transport, `*dropped` the target's
 * drops (all lanes). Pure. */
uint64_t record_lost_total(const evrec_srx_stats_t *s, uint64_t *dropped);

#endif /* EVREC_CLI_RECORD_OUT_H */
