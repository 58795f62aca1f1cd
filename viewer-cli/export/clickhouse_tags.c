/* SPDX-License-Identifier: Apache-2.0 */
/* The tags of a recording sent to ClickHouse: its attributes (the ATTRS chunk, FORMAT.md section
 * 2.6), then the `--tag KEY=VALUE` options over them; device, fw and boot picked out for the
 * leading columns of every row. */
#include <string.h>

#include "clickhouse.h"

/* Sets `key` to `value` in `t`: replaces a key it has, else appends. `t` holds every key of a
 * recording (CH_TAGS_MAX: 64 attributes and CH_TAGS_GIVEN_MAX --tag options), so none is
 * dropped. */
static void tag_set(ch_tags_t *t, const char *key, const char *value)
{
    uint32_t i = 0;
    while (i < t->count && strcmp(t->keys[i], key) != 0) {
        i++;
    }
    if (i == CH_TAGS_MAX) {
        return; /* not reached: the reader keeps at most 64 attributes, the options 32 */
    }
    t->keys[i] = key;
    t->values[i] = value;
    t->count += i == t->count;
}

void ch_file_tags(ch_tags_t *out, const ch_tags_t *given, const evrec_reader_t *r)
{
    memset(out, 0, sizeof *out);
    /* the file's attributes (FORMAT.md section 2.6), then --tag over them */
    for (uint32_t i = 0, n = r ? evrec_reader_attr_count(r) : 0; i < n; i++) {
        const char *k, *v;
        if (evrec_reader_attr(r, i, &k, &v) == EVREC_OK) {
            tag_set(out, k, v);
        }
    }
    for (uint32_t i = 0; i < given->count; i++) {
        tag_set(out, given->keys[i], given->values[i]);
    }
    out->device = out->fw = out->boot = "";
    for (uint32_t i = 0; i < out->count; i++) {
        const char *k = out->keys[i];
        if (strcmp(k, "device") == 0) {
            out->device = out->values[i];
        } else if (strcmp(k, "fw") == 0 || (strcmp(k, "firmware") == 0 && !*out->fw)) {
            out->fw = out->values[i];
        } else if (strcmp(k, "boot") == 0) {
            out->boot = out->values[i];
        }
    }
}
