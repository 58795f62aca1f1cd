/* SPDX-License-Identifier: Apache-2.0 */
/* A recording made from a schema text, for the tests of the commands that compare files with
 * schemas (`evrec check`, `evrec schema`, `evrec info`'s tracks lines). */
#ifndef CLI_SCHEMA_FILE_H
#define CLI_SCHEMA_FILE_H

#include <stdint.h>

/* Write `yaml` to DIR/NAME.yaml, load it with the schema library, record Start and Stop through
 * its tables and save DIR/NAME.evr. Returns the .evr path (malloc'd) and the schema's hash in
 * `*hash` (when not NULL). Fails the calling Criterion test on any error. */
char *cli_schema_recording(const char *dir, const char *name, const char *yaml, uint64_t *hash);

#endif
