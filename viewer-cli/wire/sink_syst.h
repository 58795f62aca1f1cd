/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec syst -o OUT`: the MIPI SyS-T encoder as a pipeline sink (sink.h): a CLOCK message, then
 * one CATALOG message per selected event (binary, or the printer's 'SYS-T RAW DATA: <HEX>' text
 * lines), and a summary line. */
#ifndef EVREC_CLI_SINK_SYST_H
#define EVREC_CLI_SINK_SYST_H

#include <stdint.h>

#include "evrec/evrec_syst_host.h"
#include "sink.h"

/** The sink's user pointer: the encoder's options in, the counts for the summary out. */
typedef struct cli_syst_run {
    const char *out;                     /**< OUT as given ("-": standard output), for the summary */
    int text;                            /**< 1: text lines, 0: binary messages */
    const evrec_syst_options_t *options; /**< origin, severity, ids, CRC, timestamps */
    /** Called once the catalog map is built (NULL: nothing): writes the collateral XML.
     * Returns CLI_OK, or an exit code after reporting a failure (nothing is converted then). */
    int (*on_map)(void *ctx, const evrec_syst_map_t *map);
    void *on_map_ctx;
    /* set by the sink */
    uint64_t messages, events, bytes;
    int started; /**< the output was opened: the summary applies */
} cli_syst_run_t;

/** The sink; its user pointer is a ::cli_syst_run_t. Writes to the pipeline's output file. */
extern const cli_sink_t cli_sink_syst;

/**
 * @brief The catalog map of a meta-info, with the error reported as `evrec syst` words it.
 * @param[out] map the map (release with evrec_syst_map_release()).
 * @param input the recording's path, for the message.
 * @retval EVREC_OK built.
 * @retval other reported on stderr (a duplicate catalog id, memory).
 * **Context:** one thread.
 */
evrec_status cli_syst_map_build(evrec_syst_map_t *map, const evrec_meta_t *meta, const evrec_syst_options_t *opt,
                                const char *input);

#endif /* EVREC_CLI_SINK_SYST_H */
