/* SPDX-License-Identifier: Apache-2.0 */
/* The table of contenders of evrec-bench-peers. One more contender: a file with its
 * peer_contender_t (see peers.h) and one line here (and its source in CMakeLists.txt). */
#include "peers.h"

extern const peer_contender_t peer_floor, peer_evrec_oneshot, peer_evrec_cyclic, peer_evrec_lanes, peer_evrec_qs,
    peer_snprintf;
#ifdef PEERS_HAVE_BARECTF
extern const peer_contender_t peer_barectf;
#endif
#ifdef PEERS_HAVE_LTTNG
extern const peer_contender_t peer_lttng;
#endif

const peer_contender_t *const peers_contenders[] = {
    &peer_floor, /* first: every ratio is to it */
    &peer_evrec_oneshot, &peer_evrec_cyclic,
    &peer_evrec_lanes,   &peer_evrec_qs,
#ifdef PEERS_HAVE_BARECTF
    &peer_barectf,
#endif
#ifdef PEERS_HAVE_LTTNG
    &peer_lttng,
#endif
    &peer_snprintf,      NULL,
};
