/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats`: the text report (sink_stats.c calls it at the end of the run). */
#ifndef EVREC_CLI_STATS_TEXT_H
#define EVREC_CLI_STATS_TEXT_H

#include <stdint.h>

#include "evrec/evrec_sched.h"
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
/* The RTOS catalogue's sections (CPU, interrupts, waits; then, for a kernel trace, those of the
 * task-state model: `sched`, or NULL) and the address values. */
void stats_print_rtos(stats_out_t *o, const evrec_stats_t *s, const evrec_sched_result_t *sched);

/* The kernel sections (stats_sched_text.c): tasks, ready-to-running latency, blocked time, cores. */
void stats_print_sched(stats_out_t *o, const evrec_sched_result_t *res);

/* Helpers of stats_text.c for the other text sections: end the line in o->b and print it; a
 * duration by magnitude (ticks when the clock is unknown); a percentage ("-" of 0); a name,
 * escaped, or the value. */
void stats_text_flush(stats_out_t *o);
const char *stats_text_dur(const stats_out_t *o, uint64_t ticks, char *buf, size_t size);
const char *stats_text_pct(uint64_t part, uint64_t whole, char *buf, size_t size);
void stats_text_name(stats_out_t *o, const char *name, uint32_t value);

#endif /* EVREC_CLI_STATS_TEXT_H */
