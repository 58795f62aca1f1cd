/* SPDX-License-Identifier: Apache-2.0 */
/* The dump line: the one layout of `evrec dump` and of the stream decoders' event lines
 * (`evrec qs-decode`, `evrec syst-decode` with --meta or --schema):
 *   TIME  EVENT  [CLASS]  path=value ...  [Marker]
 * TIME is 16 characters (seconds with ns precision, or ticks when the clock is unknown); the
 * event column is `wname` wide and the class column `wclass` (none when 0). A line is built as
 *   start = cli_line_time(b, ...); <event name>; cli_line_after_name(); [<class name>];
 *   cli_line_after_class(); cli_line_field() ...; [cli_buf_marker()]; [notes]; cli_line_end(b, start)
 * **Context:** pure formatting into a cli_buf_t (which grows). */
#ifndef EVREC_CLI_LINE_H
#define EVREC_CLI_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/** The time column and the two blanks after it. `ns_known`: `ns` (ns since the first record) as
 * seconds, else `t64` (ticks). Returns where the line's columns start (for the padding below). */
size_t cli_line_time(cli_buf_t *b, int ns_known, uint64_t ns, uint64_t t64);
/** After the event name: pad to the class column (to the fields when `wclass` is 0). */
void cli_line_after_name(cli_buf_t *b, size_t start, size_t wname, size_t wclass);
/** After the class name (or its empty column): pad to the fields, then the blank before them. */
void cli_line_after_class(cli_buf_t *b, size_t start, size_t wname, size_t wclass);
/** A field's " path=" (dump caches it per event type, then appends values). */
void cli_line_field_name(cli_buf_t *b, const char *path);
/** One field: " path=value", the value as cli_buf_field_value() shows it (enum name `vname`
 * when known, display format `info` unless NULL, `hex` for integers without a format). */
void cli_line_field(cli_buf_t *b, const char *path, uint8_t kind, uint32_t value, const char *vname,
                    const evrec_field_info_t *info, int hex);
/** End the line that began at `start`: no trailing blanks, then '\n'. */
void cli_line_end(cli_buf_t *b, size_t start);

#endif /* EVREC_CLI_LINE_H */
