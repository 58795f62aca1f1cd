/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_out_file.h
 * @brief The one rule every evrec host program follows for an output path (evrec and all its
 * subcommands, evrec-gen, evrec-demo, evrec_save_path()). Library evrec_out_file
 * (evrec::out_file), part of the POSIX port's host layer.
 *
 * What happens to OUT, by what it is when the output is opened (lstat(2), then stat(2)):
 * | OUT is                         | what is written                                          |
 * |--------------------------------|----------------------------------------------------------|
 * | absent, or a regular file      | a new temporary file `.NAME.XXXXXX` in OUT's directory,  |
 * |                                | fsync'd and renamed over OUT by evrec_out_file_commit()  |
 * | a symbolic link                | resolved (realpath(3)); the rule applies to the file it  |
 * |                                | names: that file is replaced, the link itself stays      |
 * | a link that names nothing      | refused (nothing is created through a dangling link)     |
 * | a character or block device, a | written in place: opened O_WRONLY without O_TRUNC, never |
 * | FIFO (/dev/null, a live pipe)  | renamed over, truncated or removed                       |
 * | "-"                            | standard output, in place                                |
 * | a directory or a socket        | refused with a message                                   |
 *
 * Until evrec_out_file_commit() succeeds, OUT is untouched: a failed or empty run calls
 * evrec_out_file_abort(), which removes only the temporary file. A full disk (ENOSPC), a
 * read-only directory or file system, a failed fsync or rename leaves OUT as it was. The new
 * file gets the mode (and, where allowed, the owner) an existing OUT had, else 0666 less the
 * umask (the temporary file is created with mode 0666 and O_EXCL, so the kernel applies the umask and a default ACL; no
 * umask(2) round trip that would race with other threads). Replacing OUT by rename(2) gives it
 * a new inode: hard links to the old file keep the old content.
 *
 * Writing in place cannot be undone: a device or FIFO receives bytes as they are written.
 *
 * API overview: evrec_out_file_open(), evrec_out_file_write(), then evrec_out_file_commit() or
 * evrec_out_file_abort(); evrec_out_file_temp_path() (write by name), evrec_out_file_fail() and
 * evrec_out_file_message() (the error to report).
 */
#ifndef EVREC_OUT_FILE_H
#define EVREC_OUT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** evrec_out_file_open() flag: the program writes the output by name (a library that takes a
 * file name, such as cairo's PNG and SVG writers), through evrec_out_file_temp_path(). Then a
 * device or FIFO also gets a temporary file (in $TMPDIR, else /tmp), copied into it by
 * evrec_out_file_commit(). */
#define EVREC_OUT_FILE_NAMED 1u

/** An output being written. All members are read-only for the caller. */
typedef struct evrec_out_file {
    const char *path;  /**< OUT as given (the caller's string, not copied) */
    char *target;      /**< the regular file renamed over (OUT, or what its link names); malloc'd;
                           NULL when written in place */
    char *tmp;         /**< the temporary file (malloc'd), NULL when written in place unnamed */
    int fd;            /**< where evrec_out_file_write() writes; -1 when named or closed */
    unsigned flags;    /**< as given to evrec_out_file_open() */
    int err;           /**< errno of the first failure, 0 while none */
    uint64_t bytes;    /**< bytes written by evrec_out_file_write() so far */
    char message[384]; /**< the last failure, "OUT: what went wrong" (empty while none) */
} evrec_out_file_t;

/**
 * @brief Open the output OUT by the rule above; nothing at OUT changes before
 * evrec_out_file_commit().
 * @param[out] o the output (caller-owned storage; end it with evrec_out_file_commit() or
 * evrec_out_file_abort() once this returned EVREC_OK; nothing to end after a failure).
 * @param[in] path OUT, or "-" for standard output; must stay valid until the output ends.
 * @param[in] flags 0 or ::EVREC_OUT_FILE_NAMED.
 * @retval EVREC_OK ready to write.
 * @retval EVREC_E_ARG `o` or `path` is NULL, or `path` is empty.
 * @retval EVREC_E_IO OUT is a directory, a socket or a dangling link, its directory does not
 * exist or cannot be written, or the device cannot be opened: o->err holds the errno and
 * evrec_out_file_message() says which.
 * @retval EVREC_E_NOMEM no memory for the temporary file's name.
 * **Context:** thread; one output per object; opening a FIFO waits for its reader.
 */
evrec_status evrec_out_file_open(evrec_out_file_t *o, const char *path, unsigned flags);

/**
 * @brief Append `len` bytes (retrying short writes and EINTR). After a failure every later call
 * fails too, without writing.
 * @param[in,out] o an output opened without ::EVREC_OUT_FILE_NAMED.
 * @param[in] data `len` bytes (caller-owned, not kept).
 * @param[in] len bytes; 0 writes nothing.
 * @retval EVREC_OK all written.
 * @retval EVREC_E_ARG `o` is NULL, or `data` is NULL with `len` > 0, or the output is named.
 * @retval EVREC_E_IO a write failed now or before (o->err: ENOSPC, EFBIG, EPIPE, ...).
 * **Context:** thread; not for signal handlers.
 */
evrec_status evrec_out_file_write(evrec_out_file_t *o, const void *data, size_t len);

/**
 * @brief Finish the output: fsync and rename the temporary file over OUT (or copy a named
 * temporary file into a device or FIFO); after a failure OUT is left as it was and the
 * temporary file is removed. Ends the output in every case.
 * @param[in,out] o an opened output (its memory is freed; the struct itself stays the caller's).
 * @retval EVREC_OK OUT holds everything written.
 * @retval EVREC_E_ARG `o` is NULL.
 * @retval EVREC_E_IO an earlier write, the fsync, close or rename failed (o->err, and
 * evrec_out_file_message() names OUT and the cause).
 * **Context:** thread.
 */
evrec_status evrec_out_file_commit(evrec_out_file_t *o);

/**
 * @brief Give up the output: remove the temporary file; OUT is left as it was (a device or FIFO
 * keeps what was already written to it). Ends the output; NULL or an ended output is a no-op.
 * @param[in,out] o an opened output, or NULL.
 * **Context:** thread.
 */
void evrec_out_file_abort(evrec_out_file_t *o);

/**
 * @brief The temporary file to write by name (::EVREC_OUT_FILE_NAMED), or NULL when the output
 * is written in place through evrec_out_file_write().
 * @param[in] o an opened output.
 * @return a string owned by `o`, valid until the output ends.
 * **Context:** thread.
 */
const char *evrec_out_file_temp_path(const evrec_out_file_t *o);

/**
 * @brief Record that the program's own writing by name failed (an ::EVREC_OUT_FILE_NAMED
 * output), so that evrec_out_file_commit() fails and leaves OUT alone.
 * @param[in,out] o an opened output.
 * @param[in] err an errno value, or 0 for EIO.
 * **Context:** thread.
 */
void evrec_out_file_fail(evrec_out_file_t *o, int err);

/**
 * @brief The last failure as one line "OUT: what went wrong: strerror" (no program name, no
 * newline), or "" when none.
 * @param[in] o an output (opened, failed or ended).
 * @return a string owned by `o`.
 * **Context:** thread.
 * @code
 * evrec_out_file_t out;
 * if (evrec_out_file_open(&out, "trace.csv", 0) != EVREC_OK) {
 *     fprintf(stderr, "tool: %s\n", evrec_out_file_message(&out));
 * } else if (evrec_out_file_write(&out, "a,b\n", 4) != EVREC_OK) {
 *     evrec_out_file_abort(&out); // trace.csv is left as it was
 * } else if (evrec_out_file_commit(&out) != EVREC_OK) {
 *     fprintf(stderr, "tool: %s\n", evrec_out_file_message(&out));
 * }
 * @endcode
 */
const char *evrec_out_file_message(const evrec_out_file_t *o);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_OUT_FILE_H */
