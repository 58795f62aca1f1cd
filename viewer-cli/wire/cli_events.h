/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the stream decoders (`evrec qs-decode`, `evrec syst-decode`): an event
 * record rebuilt from a stream printed like `evrec dump`, and the decoded records collected and
 * written as an evrec container with the losses counted as drops. */
#ifndef EVREC_CLI_EVENTS_H
#define EVREC_CLI_EVENTS_H

#include "cli.h"
#include "evrec/evrec_meta.h"

/* Widths of the event-name and class columns for the events of `m` (at most 32 each). */
void cli_event_columns(const evrec_meta_t *m, size_t *wname, size_t *wclass);

/* The values of every enum of one meta-info sorted by value (a file need not list them
 * ascending; ties keep the file's order), for the enum names of cli_event_line(). State of one
 * run of a command: zero-initialise, built on first use for the meta-info printed (rebuilt if
 * another is passed), released with cli_enum_index_free(). */
typedef struct cli_enum_index {
    const evrec_meta_t *meta;
    const evrec_enum_value_t ***by_value; /* per enum: pointers into its values, sorted */
    uint8_t *has_markers;                 /* per enum: a value (or the run-time range) has one */
    uint32_t count;
} cli_enum_index_t;

/* Frees the index (it may be used again: it is zeroed). */
void cli_enum_index_free(cli_enum_index_t *idx);

/* Append one dump-like line for a native record (u32 time at 0, u16 id at 4, fields at the
 * offsets of the tables): time since the first event (t64 ticks; seconds when freq is known),
 * event, class, path=value with enum names (through `idx`, the run's index), display formats and
 * units, marker; then '\n'. */
void cli_event_line(cli_buf_t *b, cli_enum_index_t *idx, const evrec_meta_t *m, const uint8_t *native, uint16_t id,
                    uint64_t t64, uint64_t freq, size_t wname, size_t wclass);

/* Decoded records collected for an evrec file: native records in 4-byte slots. */
typedef struct cli_evr_records {
    const evrec_meta_t *meta;
    uint8_t *recs;
    size_t len, cap;
    uint64_t count;
    int nomem;
} cli_evr_records_t;

/* Keep one native record of event `id` (copies it). On out of memory sets nomem. */
void cli_evr_keep(cli_evr_records_t *c, const uint8_t *native, uint16_t id);

/* Write the records to `path` as an evrec container with time_freq `freq` and `dropped` drops
 * (a temporary file renamed over path when complete; a device or FIFO written in place; on a
 * failure path is left as it was). No record (nothing decoded): nothing is written, the path is
 * left as it was and -1 is returned with a message. Returns 0, or -1 after printing the error. */
int cli_evr_write(cli_evr_records_t *c, const char *path, uint64_t freq, uint64_t dropped);

/* Free the collected records. */
void cli_evr_free(cli_evr_records_t *c);

#endif /* EVREC_CLI_EVENTS_H */
