/* SPDX-License-Identifier: Apache-2.0 */
/* Schema hash = XXH64(canonical meta-info), FORMAT.md section 4. */
#include <xxhash.h>

#include "evrec/evrec_hash.h"
#include "evrec/evrec_container.h"

static int hash_write(void *ctx, const void *data, size_t len)
{
    return XXH64_update((XXH64_state_t *)ctx, data, len) == XXH_OK ? 0 : 1;
}

uint64_t evrec_meta_schema_hash(const evrec_meta_t *meta)
{
    if (!meta) {
        return 0;
    }
    XXH64_state_t *st = XXH64_createState();
    if (!st) {
        return 0;
    }
    XXH64_reset(st, 0);
    evrec_sink_t sink = {hash_write, st};
    uint64_t h = evrec_meta_write_canonical(meta, &sink) == EVREC_OK ? XXH64_digest(st) : 0;
    XXH64_freeState(st);
    return h;
}
