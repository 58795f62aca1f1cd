/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --jsonl`: JSON Lines, one object per line (LF), for DuckDB (read_json), pandas
 * (read_json(lines=True)) and jq.
 *
 * A record:
 *   {"i":12,"t_ns":1500,"t_s":0.000001500,"event":"TaskSwitch","class":"TaskSwitch",
 *    "fields":{"task":{"name":"Running","value":3},"frame.number":7}}
 * i is the record's index in the file; t_ns and t_s the time since the first record (null when
 * the frequency is unknown); class the name of the event its class id designates; fields every
 * leaf field but time and id, by dotted path in declaration order: integers as JSON integers, enum
 * fields as {"name": the value's name or null, "value": the number}. A record from a truncated
 * chunk, whose checksum could not be verified, has "unverified":true after "fields".
 * A loss (see export.h for where they go):
 *   {"kind":"loss","i":N,"reason":"dropped","count":5,"position_known":false}
 *   {"kind":"loss","i":N,"reason":"damage","count":7,"position_known":true,"offset":4096,
 *    "message":"..."}
 * Damage in the middle of a file (the reader resumed after it) comes before the first record
 * after it, i = the first lost index, count = the records lost; damage the reader stopped at has
 * "count":null (unknown); damage that lost no record "count":0,"position_known":false (at the end).
 * i is the file index of the record that follows the loss (the record count at the end).
 * Strings: ", \ and control characters escaped (\", \\, \u00XX), UTF-8 as is, invalid UTF-8
 * bytes as \ufffd. Memory does not grow with the file. */
#include <stdlib.h>

#include "export.h"

typedef struct jsonl {
    export_out_t *o;
    evrec_reader_t *r;
    int ns_known;
    export_layout_t layout;
    char **event_text; /* per event: ,"event":"..","class":"..","fields":{ */
    size_t *event_len;
    export_names_t paths; /* distinct leaf paths; a leaf's `column` is its number here */
    char **keys;          /* per path number: "path": */
    uint32_t *key_len;
    uint32_t key_cap;
    export_text_stats_t text;
    export_out_t scratch; /* an enum value being rendered */
} jsonl_t;

static void jsonl_free(jsonl_t *j)
{
    for (uint32_t e = 0; e < j->layout.event_count; e++) {
        if (j->event_text) {
            free(j->event_text[e]);
        }
    }
    for (uint32_t i = 0; i < j->key_cap; i++) {
        free(j->keys[i]);
    }
    export_names_free(&j->paths);
    free(j->event_text);
    free(j->event_len);
    free(j->scratch.p);
    free(j->keys);
    free(j->key_len);
    export_layout_free(&j->layout);
    free(j);
}

static void *jsonl_begin(void *user, export_out_t *o, const cli_sink_info_t *meta)
{
    (void)user;
    jsonl_t *j = calloc(1, sizeof *j);
    if (!j) {
        cli_error("out of memory");
        return NULL;
    }
    j->o = o;
    j->r = meta->reader;
    j->ns_known = meta->time_freq != 0;
    const evrec_meta_t *m = meta->meta;
    if (export_layout_build(&j->layout, m) != 0) {
        free(j);
        return NULL;
    }
    uint32_t n = m->event_count ? m->event_count : 1;
    j->event_text = calloc(n, sizeof *j->event_text);
    j->event_len = calloc(n, sizeof *j->event_len);
    int oom = !j->event_text || !j->event_len;
    for (uint32_t e = 0; e < m->event_count && !oom; e++) {
        export_out_t t = {0};
        export_puts(&t, ",\"event\":");
        const char *name = evrec_reader_event_name(j->r, (uint16_t)e);
        export_json_string(&t, name, strlen(name), &j->text);
        export_puts(&t, ",\"class\":");
        const char *cls = evrec_reader_event_name(j->r, m->events[e].class_id);
        if (cls) {
            export_json_string(&t, cls, strlen(cls), &j->text);
        } else {
            char num[32];
            snprintf(num, sizeof num, "\"class#%u\"", (unsigned)m->events[e].class_id);
            export_puts(&t, num);
        }
        export_puts(&t, ",\"fields\":{");
        j->event_len[e] = t.len;
        j->event_text[e] = export_out_take(&t);
    }
    if (oom) {
        cli_error("out of memory");
        jsonl_free(j);
        return NULL;
    }
    return j;
}

/* The keys of owner event `ow`'s leaves (built on its first record): each distinct path's key
 * is rendered once, a leaf keeps its number in `column`. 0, or -1 out of memory. */
static int build_keys(jsonl_t *j, uint32_t ow)
{
    uint32_t nl = j->layout.leaf_count[ow];
    export_leaf_t *lv = j->layout.leaves[ow];
    for (uint32_t i = 2; i < nl; i++) {
        int oom = 0;
        char *path = lv[i].path;
        lv[i].path = NULL; /* the set takes it or frees it */
        uint32_t k = export_names_get(&j->paths, path, &oom);
        if (oom) {
            return -1;
        }
        lv[i].column = k;
        if (k < j->key_cap && j->keys[k]) {
            continue;
        }
        if (k >= j->key_cap) {
            uint32_t cap = j->key_cap ? j->key_cap * 2 : 64;
            while (cap <= k) {
                cap *= 2;
            }
            char **p = realloc(j->keys, cap * sizeof *p);
            if (!p) {
                return -1;
            }
            j->keys = p;
            uint32_t *q = realloc(j->key_len, cap * sizeof *q);
            if (!q) {
                return -1;
            }
            j->key_len = q;
            memset(j->keys + j->key_cap, 0, (cap - j->key_cap) * sizeof *p);
            j->key_cap = cap;
        }
        const char *name = j->paths.names[k];
        export_out_t t = {0};
        export_json_string(&t, name, strlen(name), &j->text);
        export_putc(&t, ':');
        j->key_len[k] = (uint32_t)t.len;
        j->keys[k] = export_out_take(&t);
    }
    return 0;
}

/* {"name":..,"value":N} of an enum value, cached per leaf for the next record (values repeat). */
static void put_enum(jsonl_t *j, export_leaf_t *l, uint32_t v)
{
    size_t clen;
    const char *ctext = export_leaf_cached(l, v, &clen);
    if (ctext) {
        export_put(j->o, ctext, clen);
        return;
    }
    export_out_t *t = &j->scratch;
    t->len = 0;
    export_puts(t, "{\"name\":");
    const char *name = evrec_reader_enum_value(j->r, l->enum_id, v, NULL);
    if (name) {
        export_json_string(t, name, strlen(name), &j->text);
    } else {
        export_puts(t, "null");
    }
    export_puts(t, ",\"value\":");
    export_u64(t, v);
    export_putc(t, '}');
    export_put(j->o, t->p, t->len);
    export_leaf_cache(l, v, t->p, t->len);
}

static int jsonl_record(void *w, const evrec_record_t *rec, uint64_t late)
{
    (void)late;
    jsonl_t *j = w;
    export_out_t *o = j->o;
    export_puts(o, "{\"i\":");
    export_u64(o, rec->index);
    if (j->ns_known) {
        export_puts(o, ",\"t_ns\":");
        export_u64(o, rec->ns);
        export_puts(o, ",\"t_s\":");
        export_seconds(o, rec->ns);
    } else {
        export_puts(o, ",\"t_ns\":null,\"t_s\":null");
    }
    uint16_t id = rec->id;
    int built = export_layout_event(&j->layout, id);
    if (built < 0) {
        return -1;
    }
    uint32_t ow = j->layout.owner[id];
    if (built && build_keys(j, ow) != 0) {
        cli_error("out of memory");
        return -1;
    }
    export_put(o, j->event_text[id], j->event_len[id]);
    export_leaf_t *leaves = j->layout.leaves[id];
    uint32_t n = j->layout.leaf_count[id];
    char *const *keys = j->keys;
    const uint32_t *key_len = j->key_len;
    for (uint32_t i = 2; i < n; i++) {
        export_leaf_t *l = &leaves[i];
        if (l->offset + l->width > rec->size) {
            break; /* cannot happen: the reader checks each record's size */
        }
        if (i > 2) {
            export_putc(o, ',');
        }
        export_put(o, keys[l->column], key_len[l->column]);
        uint32_t v = export_leaf_value(l, rec->data);
        if (export_kind_is_enum(l->kind)) {
            put_enum(j, l, v);
        } else {
            export_u64(o, v);
        }
    }
    if (rec->unverified) {
        export_puts(o, "},\"unverified\":true}\n");
    } else {
        export_put(o, "}}\n", 3);
    }
    return 0;
}

static int jsonl_loss(void *w, const cli_loss_t *l)
{
    jsonl_t *j = w;
    export_out_t *o = j->o;
    export_puts(o, "{\"kind\":\"loss\",\"i\":");
    export_u64(o, l->before);
    export_puts(o, ",\"reason\":\"");
    export_puts(o, l->reason);
    export_puts(o, "\",\"count\":");
    if (cli_loss_count_known(l)) {
        export_u64(o, l->count);
    } else {
        export_puts(o, "null");
    }
    export_puts(o, l->position_known ? ",\"position_known\":true" : ",\"position_known\":false");
    if (l->kind == CLI_LOSS_DAMAGE) {
        export_puts(o, ",\"offset\":");
        export_u64(o, l->offset);
    }
    if (l->message) {
        export_puts(o, ",\"message\":");
        export_json_string(o, l->message, strlen(l->message), &j->text);
    }
    export_puts(o, "}\n");
    return 0;
}

static int jsonl_end(void *w, const cli_sink_end_t *end)
{
    (void)end;
    jsonl_free(w);
    return 0;
}

static uint64_t jsonl_invalid_utf8(void *w)
{
    return ((jsonl_t *)w)->text.invalid_utf8;
}

const cli_sink_t cli_sink_jsonl = {
    .name = "jsonl",
    .option = "--jsonl",
    .flags = CLI_SINK_WRITES_LOSSES,
    .no_clock_note = "times are left empty",
    .begin = jsonl_begin,
    .record = jsonl_record,
    .loss = jsonl_loss,
    .end = jsonl_end,
    .invalid_utf8 = jsonl_invalid_utf8,
};
