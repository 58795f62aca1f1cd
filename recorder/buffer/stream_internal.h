/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the streaming mode's ring (stream_ring.c) and its drain (stream_drain.c); not
 * installed. */
#ifndef EVREC_STREAM_INTERNAL_H
#define EVREC_STREAM_INTERNAL_H

#include <stddef.h>

/** Tag of a slot's `ready` word once its block is opened (stream_ring.c): the top bit. */
#define EVREC_STREAM_OPENED (((size_t)-1) / 2u + 1u)
/** The drop count kept beside the tag. */
#define EVREC_STREAM_DROP_MASK (EVREC_STREAM_OPENED - 1u)

#endif /* EVREC_STREAM_INTERNAL_H */
