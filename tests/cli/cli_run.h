/* SPDX-License-Identifier: Apache-2.0 */
/* Run a program (the built `evrec`, `evrec-gen`, a compiler) as a child process and capture its
 * output, for the CLI tests of `evrec dump` display attributes, `evrec schema` and `evrec check`. */
#ifndef EVREC_TEST_CLI_RUN_H
#define EVREC_TEST_CLI_RUN_H

#include <stddef.h>

typedef struct cli_run {
    int status; /* exit code, or -1 when killed by a signal */
    char *out, *err;
    size_t out_len, err_len;
} cli_run_t;

/* Run argv[0] with argv (NULL-terminated), in directory `cwd` (NULL = here), standard input
 * from the file `in` (NULL = /dev/null). */
cli_run_t cli_run_io(const char *cwd, const char *in, const char *const *argv);
/* cli_run_io() with standard input from /dev/null. */
cli_run_t cli_run_argv(const char *cwd, const char *const *argv);
/* Run `prog` with the arguments that follow (NULL-terminated), standard input from `in`. */
cli_run_t cli_run_in(const char *in, const char *prog, ...);
/* Run `prog` with the arguments that follow (NULL-terminated). */
cli_run_t cli_run(const char *prog, ...);
void cli_run_free(cli_run_t *r);

/* The whole file, malloc'd and NUL-terminated, or NULL. */
char *cli_read_file(const char *path, size_t *len);
/* Write a text file; 0 on success. */
int cli_write_file(const char *path, const char *text);
/* A fresh empty directory under the build tree (unique per call); malloc'd path. */
char *cli_temp_dir(const char *tag);

#endif
