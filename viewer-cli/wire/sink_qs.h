/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec qs`: the QP/Spy (QS) encoder as a pipeline sink (sink.h): the session records (QS_EMPTY,
 * target info with reset, dictionaries), then one application-specific record per recorded event
 * (format/qs/QS.md), with the header's losses as EVREC_LOST records where QSPY expects them. */
#ifndef EVREC_CLI_SINK_QS_H
#define EVREC_CLI_SINK_QS_H

#include <stdint.h>

#include "evrec/evrec_qs.h"
#include "sink.h"

/** The sink's user pointer: the encoder's options in, the counts for the summary out. */
typedef struct cli_qs_run {
    const char *out;            /**< OUT as given ("-": standard output), for the summary */
    evrec_qs_options_t options; /**< time size, classes, enum names (copied into the map) */
    /* set by the sink */
    uint64_t frames, bytes, events, syncs;
    unsigned time_size; /**< timestamp bytes on the wire */
    int classes;        /**< one record id per event class */
    int started;        /**< the map was built: the summary applies */
} cli_qs_run_t;

/** The sink; its user pointer is a ::cli_qs_run_t. Writes to the pipeline's output file. */
extern const cli_sink_t cli_sink_qs;

#endif /* EVREC_CLI_SINK_QS_H */
