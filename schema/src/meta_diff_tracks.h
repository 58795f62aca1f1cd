/* SPDX-License-Identifier: Apache-2.0 */
/* Differences in tracks, spans and counters (meta_diff_tracks.c), for evrec_meta_diff(). */
#ifndef EVREC_GEN_META_DIFF_TRACKS_H
#define EVREC_GEN_META_DIFF_TRACKS_H

#include "evrec/evrec_schema.h"

/* One call of fn per difference (fn may be NULL); returns how many. Tables must be valid
 * (evrec_tracks_validate). */
size_t gen_tracks_diff(const evrec_meta_t *expected, const evrec_meta_t *actual, const char *en, const char *an,
                       evrec_diff_fn fn, void *ctx);

#endif /* EVREC_GEN_META_DIFF_TRACKS_H */
