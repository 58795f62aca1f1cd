/* SPDX-License-Identifier: Apache-2.0 */
/* The `evrec` program run in process by the fuzz_cli_* targets: the input written to a file in a
 * private temporary directory, commands run through cli_main() with their standard output and
 * error discarded (sanitizer reports still reach file descriptor 2), outputs removed after each
 * input. Set EVREC_FUZZ_VERBOSE=1 to see what the commands print. */
#ifndef EVREC_FUZZ_CLI_HARNESS_H
#define EVREC_FUZZ_CLI_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* Writes the input to <dir>/<name> and returns that path (static storage, valid until the next
 * call with the same name); NULL when the file cannot be written. The first call makes the
 * directory (removed with everything in it when the process ends). */
const char *fuzz_cli_input(const char *name, const uint8_t *data, size_t size);

/* <dir>/<name>: a path for an output. */
const char *fuzz_cli_out(const char *name);

/* A file of the source tree (a fixed schema or recording): EVREC_SOURCE_DIR/<rel>. */
const char *fuzz_cli_src(const char *rel);

/* Runs `evrec arg...` (NULL-terminated) in process; returns its exit status. Aborts when the
 * status is not 0, 1 or 2 (the program promises no other). */
int fuzz_cli_run(const char *arg, ...);

/* Removes every output of the last input (the input files stay). */
void fuzz_cli_clean(void);

#endif /* EVREC_FUZZ_CLI_HARNESS_H */
