/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats` as a pipeline sink (sink.h): per-event counts and rates, spans, counters, the
 * RTOS catalogue's CPU load, interrupt and wait statistics, addresses; printed at the end on
 * standard output as text or one JSON object (stats_json.h). */
#ifndef EVREC_CLI_SINK_STATS_H
#define EVREC_CLI_SINK_STATS_H

#include <stdint.h>

#include "cli.h"
#include "evrec/evrec_analysis.h"
#include "evrec/evrec_symbols.h"
#include "sink.h"

/** What the report shows (the sink's user pointer; borrowed, read during the run). */
typedef struct cli_stats_display {
    const char *path;            /**< the input as given, for the "file:" line */
    int selection;               /**< 1: a selection narrowed the records ("selection:" line) */
    int json;                    /**< 1: --format json */
    uint32_t top;                /**< --top N: locations and address values to list */
    const evrec_symbols_t *syms; /**< --elf symbols, or NULL */
} cli_stats_display_t;

/** The sink; its user pointer is a `const cli_stats_display_t *`. */
extern const cli_sink_t cli_sink_stats;

#endif /* EVREC_CLI_SINK_STATS_H */
