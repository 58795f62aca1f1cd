/* SPDX-License-Identifier: Apache-2.0 */
/* What a recording made from a stream lost (FORMAT.md section 8.4; evrec_reader_stream_losses()),
 * as `evrec info` and `evrec stats` print it: a first line that says a recording is lossy, then
 * the losses per lane and the damaged input ranges.
 * **Context:** prints to stdout; reads the reader only. */
#ifndef EVREC_CLI_STREAM_LOSSES_H
#define EVREC_CLI_STREAM_LOSSES_H

#include "evrec/evrec_reader.h"

/** 1 when the file has a LOSSES chunk that reports a loss or whose counts are not final. */
int cli_losses_lossy(const evrec_reader_t *r);

/** The report's first line when cli_losses_lossy(): "LOSSY:  N records lost: ..."; nothing
 * otherwise. */
void cli_losses_headline(const evrec_reader_t *r);

/** "losses:" lines (files made from a stream only): per lane the target's drops and the records
 * lost in transport, and the first damaged input ranges. */
void cli_losses_detail(const evrec_reader_t *r);

#endif
