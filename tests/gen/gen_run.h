/* SPDX-License-Identifier: Apache-2.0 */
/* Run evrec-gen as a child process and read files, for the generator tests. */
#ifndef EVREC_TEST_GEN_RUN_H
#define EVREC_TEST_GEN_RUN_H

#include <stddef.h>

/** Run EVREC_GEN_EXE with `args` (NULL-terminated, without argv[0]) in directory `cwd`.
 * @param[out] err malloc'd text the child wrote to stderr (NUL-terminated).
 * @return the exit status, or -1 if the child did not exit normally (a crash). */
int gen_run(const char *cwd, const char *const *args, char **err);

/** The whole file, malloc'd and NUL-terminated, or NULL. */
char *gen_read_file(const char *path, size_t *len);

/** A fresh empty directory under the build tree (unique per call); malloc'd path. */
char *gen_temp_dir(const char *tag);

/** Number of entries in a directory, "." and ".." excluded; -1 if it cannot be read. */
int gen_dir_entries(const char *dir);

#endif
