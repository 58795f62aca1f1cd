/* SPDX-License-Identifier: Apache-2.0 */
/* The tracks, spans and counters a file declares (its TRACKS chunk), as `evrec info` lists them. */
#ifndef EVREC_CLI_TRACKS_H
#define EVREC_CLI_TRACKS_H

#include "evrec/evrec_reader.h"

/**
 * @brief Print one short line per track, span and counter of the file (nothing when it has
 * none), after a `tracks:`/`spans:`/`counters:` count line each; a dropped TRACKS chunk is said.
 * **Context:** thread; writes to stdout.
 */
void cli_print_tracks(const evrec_reader_t *r);

#endif /* EVREC_CLI_TRACKS_H */
