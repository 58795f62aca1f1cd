/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec info`: the tracks, spans and counters of a file (format/FORMAT.md section 2, TRACKS). */
#include <stdio.h>

#include "cli_tracks.h"

static void path(const evrec_reader_t *r, uint16_t ev, uint16_t leaf, char *out, size_t n)
{
    evrec_leaf_info_t li;
    if (evrec_reader_leaf(r, ev, leaf, &li, out, n) != EVREC_OK) {
        snprintf(out, n, "leaf %u", (unsigned)leaf);
    }
}

static void print_end(const evrec_reader_t *r, const evrec_span_end_t *e)
{
    const char *name = evrec_reader_event_name(r, e->event_id);
    printf("%s", name ? name : "?");
    if (e->match_leaf != EVREC_TRACKS_NONE) {
        char p[512];
        evrec_leaf_info_t li;
        path(r, e->event_id, e->match_leaf, p, sizeof p);
        const char *vn = NULL;
        if (evrec_reader_leaf(r, e->event_id, e->match_leaf, &li, NULL, 0) == EVREC_OK &&
            li.kind >= EVREC_KIND_ENUM_UINT8 && li.kind <= EVREC_KIND_ENUM_UINT32) {
            vn = evrec_reader_enum_value(r, li.ref, e->match_value, NULL);
        }
        if (vn) {
            printf(" %s=%s", p, vn);
        } else {
            printf(" %s=%lu", p, (unsigned long)e->match_value);
        }
    }
    if (e->key_leaf != EVREC_TRACKS_NONE) {
        char k[512];
        path(r, e->event_id, e->key_leaf, k, sizeof k);
        printf(" [key %s]", k);
    }
}

void cli_print_tracks(const evrec_reader_t *r)
{
    const evrec_reader_error_t *err = evrec_reader_tracks_error(r);
    const evrec_tracks_t *v = evrec_reader_tracks(r);
    if (!v) {
        if (err->status != EVREC_OK) {
            printf("tracks:      dropped (%s)\n", err->message);
        }
        return;
    }
    const evrec_meta_t *m = evrec_reader_meta(r);
    char p[512];
    printf("tracks:      %u\n", (unsigned)v->track_count);
    for (uint32_t i = 0; i < v->track_count; i++) {
        const char *name = evrec_reader_event_name(r, v->tracks[i].event_id);
        path(r, v->tracks[i].event_id, v->tracks[i].leaf, p, sizeof p);
        printf("  %s: %s\n", name ? name : "?", p);
    }
    printf("spans:       %u\n", (unsigned)v->span_count);
    for (uint32_t i = 0; i < v->span_count; i++) {
        const evrec_span_desc_t *s = &v->spans[i];
        printf("  %s: ", s->name);
        print_end(r, &s->begin);
        printf(" -> ");
        print_end(r, &s->end);
        if (s->track_leaf != EVREC_TRACKS_NONE) {
            path(r, s->begin.event_id, s->track_leaf, p, sizeof p);
            printf(", track %s", p);
        }
        printf("\n");
    }
    printf("counters:    %u\n", (unsigned)v->counter_count);
    for (uint32_t i = 0; i < v->counter_count; i++) {
        const evrec_struct_desc_t *st = &m->structs[v->counters[i].struct_id];
        printf("  %s.%s\n", st->name, st->fields[v->counters[i].field_index].name);
    }
}
