/* SPDX-License-Identifier: Apache-2.0 */
/* The VIEW payload (format/FORMAT.md section 2), shared by save.c and the schema hash. Not
 * installed. */
#ifndef EVREC_VIEW_INTERNAL_H
#define EVREC_VIEW_INTERNAL_H

#include "evrec/evrec_meta.h"
#include "evrec/evrec_save.h"

typedef void (*evrec_view_emit_fn)(void *ctx, const void *p, size_t n);

/* 1 when meta->view has at least one track, span or counter (only then is anything written). */
int evrec_view_present(const evrec_meta_t *meta);
/* The payload bytes, in pieces, through emit. */
void evrec_view_payload(const evrec_view_t *v, evrec_view_emit_fn emit, void *ctx);
/* The VIEW chunk (header, CRC, payload) straight to the sink; nothing when no view. */
evrec_status evrec_view_put_chunk(const evrec_meta_t *meta, const evrec_sink_t *sink);
/* The payload alone (the tail of the canonical meta-info); nothing when no view. */
evrec_status evrec_view_put_canonical(const evrec_meta_t *meta, const evrec_sink_t *sink);

#endif /* EVREC_VIEW_INTERNAL_H */
