/* SPDX-License-Identifier: Apache-2.0 */
/* The `evrec dump` line printer as a pipeline sink (sink.h): one aligned line per record,
 *   [OFFSET] [#INDEX] [Ln] TIME  EVENT  [CLASS]  path=value ...  [Marker] [(notes)]
 * on standard output (the pipeline runs it without an output file). */
#ifndef EVREC_CLI_SINK_DUMP_H
#define EVREC_CLI_SINK_DUMP_H

#include "cli.h"
#include "sink.h"

/** The display options of `evrec dump` (the sink's `user` pointer; read during the run). */
typedef struct cli_dump_display {
    int hex;     /**< integers without a format of their own in hexadecimal */
    int raw;     /**< ignore the display attributes (FIELD_INFO): plain numbers, no units */
    int offsets; /**< start each line with the record's byte offset in the file */
    int index;   /**< start each line with the record's index (#N) */
} cli_dump_display_t;

/** The sink: begin() takes a `const cli_dump_display_t *` as user pointer. */
extern const cli_sink_t cli_sink_dump;

#endif /* EVREC_CLI_SINK_DUMP_H */
