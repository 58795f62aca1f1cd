/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats`: the text report (sink_stats.c calls it at the end of the run). */
#ifndef EVREC_CLI_STATS_TEXT_H
#define EVREC_CLI_STATS_TEXT_H

#include <stdint.h>

#include "sink_stats.h"

/* What the printing functions share. */
typedef struct stats_out {
    const evrec_reader_t *r;
    uint64_t freq; /* effective Hz, 0 = unknown */
    const evrec_symbols_t *syms;
    uint32_t top;
    cli_buf_t b;
} stats_out_t;

/* The file, clock, records, damage, selection, events, spans and counters sections. */
void stats_print_text(stats_out_t *o, const cli_stats_display_t *opt, const evrec_stats_t *s,
                      evrec_time_source src, uint64_t unverified, const cli_sink_end_t *end);
/* The RTOS catalogue's sections (CPU, interrupts, waits) and the address values. */
void stats_print_rtos(stats_out_t *o, const evrec_stats_t *s);

#endif /* EVREC_CLI_STATS_TEXT_H */
