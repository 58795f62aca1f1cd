/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats --format json`: everything the text shows, as one JSON object (RFC 8259) on
 * standard output. The keys are listed in the command's --help. */
#ifndef EVREC_CLI_STATS_JSON_H
#define EVREC_CLI_STATS_JSON_H

#include <stdint.h>

#include "evrec/evrec_analysis.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_sched.h"
#include "evrec/evrec_symbols.h"

/* What the statistics were made of. All pointers are borrowed. */
typedef struct stats_json_in {
    const char *path;
    const evrec_reader_t *r;
    const evrec_stats_t *s;
    const evrec_sched_result_t *sched; /* a kernel trace: the task-state model's figures ("sched"); else NULL */
    const evrec_symbols_t *syms;       /* or NULL */
    uint64_t freq;                     /* effective Hz, 0 = unknown */
    evrec_time_source src;
    uint64_t unverified; /* records from a truncated chunk */
    int selection;       /* a selection was given */
    int stopped;         /* reading stopped before the end (window or --limit) */
    uint64_t stopped_at; /* the record index where it stopped */
    int limit_hit;       /* it stopped because of --limit */
    int damaged;         /* the reader's sticky error applies (the file is damaged) */
} stats_json_in_t;

/* Print the object and a newline on stdout. Returns 1 when every write succeeded. */
int stats_json_print(const stats_json_in_t *in);

#endif
