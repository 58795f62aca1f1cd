/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_save_file.h
 * @brief Host conveniences of the POSIX port: save a stopped recorder to a stdio stream or to a
 * file path, without writing an ::evrec_sink_t by hand. They wrap evrec_save_ex() (the recorder
 * core stays freestanding; these live in the evrec_port_posix library).
 *
 * API overview: evrec_save_file() / evrec_save_file_ex() (an open FILE), evrec_save_path() /
 * evrec_save_path_ex() (a path, replaced atomically as evrec_out_file.h describes).
 */
#ifndef EVREC_SAVE_FILE_H
#define EVREC_SAVE_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Save a stopped recorder to an open stdio stream (evrec_save_ex() through fwrite).
 * @param[in] rec a recorder after evrec_host_stop() (or a cyclic one while it records, as
 *     evrec_save_ex()).
 * @param[in,out] f a stream open for writing in binary mode; it stays open and owned by the caller;
 *     it is flushed (fflush) before returning.
 * @param[in] opt options, or NULL for the defaults (the container format).
 * @param[out] bytes optional: bytes written to `f` by this call (also on failure).
 * @retval EVREC_OK every byte was written and flushed.
 * @retval EVREC_E_ARG `rec` or `f` is NULL.
 * @retval EVREC_E_IO fwrite or fflush failed (errno tells why); `f` holds a partial file.
 * @retval EVREC_E_BUSY the recorder is still attached, or never recorded (as evrec_save()).
 * @retval EVREC_E_CORRUPT as evrec_save(): a record with an id the meta-info lacks.
 * **Context:** thread; not reentrant for the same stream.
 */
evrec_status evrec_save_file_ex(const evrec_recorder_t *rec, FILE *f, const evrec_save_options_t *opt,
                                uint64_t *bytes);

/**
 * @brief evrec_save_file_ex() with the defaults: the evrec container to `f`.
 * @param[in] rec a stopped recorder.
 * @param[in,out] f an open binary stream (caller-owned, left open).
 * @retval EVREC_OK written and flushed.
 * @retval EVREC_E_ARG NULL pointer.
 * @retval EVREC_E_IO a write failed (errno tells why).
 * @retval EVREC_E_BUSY the recorder is still attached, or never recorded (as evrec_save()).
 * @retval EVREC_E_CORRUPT as evrec_save(): a record with an id the meta-info lacks.
 * **Context:** thread.
 * @code
 * if (evrec_save_file(&rec, stdout) != EVREC_OK) { perror("save"); }
 * @endcode
 */
evrec_status evrec_save_file(const evrec_recorder_t *rec, FILE *f);

/**
 * @brief Save a stopped recorder to a file at `path` by the output-path rule of
 * evrec_out_file.h: the bytes go to a new temporary file in the same directory
 * (`.NAME.XXXXXX`), which is synced (fsync) and then renamed over `path`. On any failure the
 * temporary file is removed and `path` is left as it was: an existing file is never truncated
 * or removed, and no file is created. A symbolic link at `path` is followed: the file it names
 * is replaced, the link stays (a link that names nothing is refused). A device or FIFO at
 * `path` (/dev/null, a pipe, a serial line) is written in place and never replaced or removed;
 * a directory or socket is refused.
 * @param[in] rec a stopped recorder.
 * @param[in] path the file to create or replace.
 * @param[in] opt options, or NULL for the defaults (the container format).
 * @param[out] bytes optional: the size of the file written (0 on failure).
 * @retval EVREC_OK `path` holds the whole file.
 * @retval EVREC_E_ARG `rec` or `path` is NULL, or `path` is empty.
 * @retval EVREC_E_IO the temporary file could not be created, written, synced or renamed
 * (errno tells why, e.g. ENOENT for a missing directory, EISDIR when `path` is a directory,
 * ENXIO for a socket, ENOSPC for a full disk).
 * @retval EVREC_E_NOMEM no memory for the temporary name.
 * @retval EVREC_E_BUSY the recorder is still attached, or never recorded (nothing is created).
 * @retval EVREC_E_CORRUPT as evrec_save(): a record with an id the meta-info lacks.
 * **Context:** thread.
 */
evrec_status evrec_save_path_ex(const evrec_recorder_t *rec, const char *path, const evrec_save_options_t *opt,
                                uint64_t *bytes);

/**
 * @brief evrec_save_path_ex() with the defaults: the evrec container to the file `path`,
 * replaced atomically (never truncated on failure). Errors as evrec_save_path_ex().
 * @param[in] rec a stopped recorder.
 * @param[in] path the file to create or replace.
 * @retval EVREC_OK written.
 * @retval EVREC_E_ARG NULL pointer or empty path.
 * @retval EVREC_E_IO create, write or rename failed (errno tells why).
 * @retval EVREC_E_NOMEM out of memory.
 * @retval EVREC_E_BUSY the recorder is still attached, or never recorded (as evrec_save()).
 * @retval EVREC_E_CORRUPT as evrec_save(): a record with an id the meta-info lacks.
 * **Context:** thread.
 * @code
 * evrec_host_stop(&host, NULL);
 * evrec_status st = evrec_save_path(&rec, "trace.evrec");
 * if (st != EVREC_OK) { fprintf(stderr, "save: %s\n", evrec_strerror(st)); }
 * @endcode
 */
evrec_status evrec_save_path(const evrec_recorder_t *rec, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SAVE_FILE_H */
