/* SPDX-License-Identifier: Apache-2.0 */
/* A recording split into lanes, saved to a temporary file, for the CLI tests. */
#ifndef EVREC_TEST_CLI_LANES_FILE_H
#define EVREC_TEST_CLI_LANES_FILE_H

#include <stdint.h>

/* `n` EvSimple records (the reader fixtures' meta-info), record i in lane i % nlanes (1..4) with
 * v = i, real clock, saved as a container; returns the file's path (malloc'd; the caller removes
 * and frees it). Fails the running Criterion test on any error. */
char *cli_lanes_file(uint32_t nlanes, uint32_t n);

#endif /* EVREC_TEST_CLI_LANES_FILE_H */
