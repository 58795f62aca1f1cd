/* SPDX-License-Identifier: Apache-2.0 */
/* Save's record conversion (the vector plans, the byte gather loop and the table walk) against an
 * independent reference converter written here from the meta-info alone: every native record
 * size from 8 to EVREC_MAX_EVENT_SIZE bytes, fields of every width and kind, nested structs, and
 * native layouts in schema order, largest alignment first and in random order. The same source
 * is linked against the host recorder (vector path with the host's plan sizes) and against a
 * recorder built with the default configuration (small plans: gather loop and table walk). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"

#define MAX_F 200

typedef struct gen_event {
    evrec_field_desc_t fields[MAX_F];
    uint32_t count;
    uint32_t size;
} gen_event_t;

static uint32_t rnd_state = 12345u;
static uint32_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 17;
    rnd_state ^= rnd_state << 5;
    return rnd_state;
}

/* A nested struct (struct id 1) whose native layout is not its schema order: u8 a, u32 b, u16 c
 * laid out b@0, c@4, a@6; 8 bytes. */
static const evrec_field_desc_t inner_fields[] = {
    {"a", EVREC_KIND_UINT8, 0, 6}, {"b", EVREC_KIND_UINT32, 0, 0}, {"c", EVREC_KIND_UINT16, 0, 4}};
#define INNER_SIZE 8u
#define INNER_ALIGN 4u

static const evrec_enum_desc_t enums[] = {
    {"EventControlType", EVREC_KIND_ENUM_UINT8, 4, evrec_control_enum_values, NULL},
};

static uint32_t width_of(uint8_t kind)
{
    return kind == EVREC_KIND_STRUCT ? INNER_SIZE : evrec_kind_width(kind);
}

static uint32_t align_of(uint8_t kind)
{
    return kind == EVREC_KIND_STRUCT ? INNER_ALIGN : evrec_kind_width(kind);
}

/* Lays out fields 2.. of `e` in the order `ord` (natural alignment after the 6-byte header);
 * returns the end of the last field. */
static uint32_t lay_out(gen_event_t *e, const uint32_t *ord, uint32_t n)
{
    uint32_t off = 6;
    for (uint32_t i = 0; i < n; i++) {
        evrec_field_desc_t *f = &e->fields[2 + ord[i]];
        uint32_t a = align_of(f->kind);
        off = (off + a - 1u) / a * a;
        f->offset = (uint16_t)off;
        off += width_of(f->kind);
    }
    return off;
}

/* An event of native size exactly `size` (a multiple of 4 in 8..256). `order` 0: natural layout
 * in schema order; 1: largest alignment first; 2: a random order. */
static void make_event(gen_event_t *e, uint32_t size, int order)
{
    static const uint8_t kinds[] = {EVREC_KIND_UINT8, EVREC_KIND_UINT16, EVREC_KIND_UINT32, EVREC_KIND_ENUM_UINT8,
                                    EVREC_KIND_STRUCT};
    for (;;) {
        e->fields[0] = (evrec_field_desc_t){"time", EVREC_KIND_UINT32, 0, 0};
        e->fields[1] = (evrec_field_desc_t){"id", EVREC_KIND_UINT16, 0, 4};
        uint32_t n = 0, payload = 0, slack = rnd() % 12u;
        /* Random fields while the payload fits with some slack for padding. */
        while (n < MAX_F - 2) {
            uint8_t k = kinds[rnd() % sizeof kinds];
            uint32_t w = width_of(k);
            if (6u + payload + w + slack > size) {
                break;
            }
            e->fields[2 + n] = (evrec_field_desc_t){"f", k, k == EVREC_KIND_STRUCT ? 1u : 0u, 0};
            n++;
            payload += w;
        }
        uint32_t ord[MAX_F];
        for (uint32_t i = 0; i < n; i++) {
            ord[i] = i;
        }
        if (order == 1) { /* stable sort by alignment, largest first */
            for (uint32_t i = 1; i < n; i++) {
                for (uint32_t j = i;
                     j > 0 && align_of(e->fields[2 + ord[j]].kind) > align_of(e->fields[2 + ord[j - 1]].kind);
                     j--) {
                    uint32_t t = ord[j];
                    ord[j] = ord[j - 1];
                    ord[j - 1] = t;
                }
            }
        } else if (order == 2) {
            for (uint32_t i = n; i > 1; i--) {
                uint32_t j = rnd() % i, t = ord[i - 1];
                ord[i - 1] = ord[j];
                ord[j] = t;
            }
        }
        uint32_t end = lay_out(e, ord, n);
        if (end > size || n + (size - end) > MAX_F - 2) {
            continue; /* padding made it too large: another draw */
        }
        /* u8 fields after the last one up to exactly `size` (no padding before a u8) */
        while (end < size) {
            e->fields[2 + n] = (evrec_field_desc_t){"p", EVREC_KIND_UINT8, 0, (uint16_t)end};
            n++;
            end++;
        }
        e->count = n + 2;
        e->size = size;
        return;
    }
}

/* Reference: the packed big-endian bytes of struct fields `f[0..n)` of a native struct at `s`. */
static size_t ref_struct(uint8_t *d, const evrec_field_desc_t *f, uint32_t n, const uint8_t *s)
{
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = s + f[i].offset;
        if (f[i].kind == EVREC_KIND_STRUCT) {
            k += ref_struct(d + k, inner_fields, 3, p);
            continue;
        }
        uint32_t w = evrec_kind_width(f[i].kind), v;
        if (w == 1) {
            v = p[0];
        } else if (w == 2) {
            uint16_t x;
            memcpy(&x, p, 2);
            v = x;
        } else {
            memcpy(&v, p, 4);
        }
        for (uint32_t b = 0; b < w; b++) {
            d[k++] = (uint8_t)(v >> (8u * (w - 1u - b)));
        }
    }
    return k;
}

/* One meta with EventControl and three events of native size `size` (schema order, largest
 * alignment first, random order) plus an 8-byte one; random records of all of them (bursts and
 * alternation), saved bare, compared with the reference byte for byte. `run`: 0 for short
 * bursts with random times (a quarter of them steps back); else bursts of about `run` records
 * of one type (1: another type every record) with forward times across 32-bit wraps and a small step back now and then, as a
 * busy interrupt gives them (save's run loop: its ends at a step back, at another type, at a
 * full output chunk and at the end of the buffer). */
static void check_size_runs(uint32_t size, uint32_t nrec, uint32_t run)
{
    static gen_event_t ev[4];
    evrec_struct_desc_t structs[6];
    evrec_event_desc_t events[5];
    structs[0] = (evrec_struct_desc_t){"EventControl", 3, evrec_control_fields_enum0, 8};
    structs[1] = (evrec_struct_desc_t){"Inner", 3, inner_fields, INNER_SIZE};
    events[0] = (evrec_event_desc_t){0, 0};
    for (int i = 0; i < 4; i++) {
        make_event(&ev[i], i < 3 ? size : 8u, i < 3 ? i : 0);
        structs[2 + i] = (evrec_struct_desc_t){"E", (uint16_t)ev[i].count, ev[i].fields, (uint16_t)ev[i].size};
        events[1 + i] = (evrec_event_desc_t){(uint16_t)(2 + i), 0};
    }
    evrec_meta_t meta = {.enum_count = 1,
                         .enums = enums,
                         .struct_count = 6,
                         .structs = structs,
                         .event_count = 5,
                         .events = events};
    const char *what = NULL;
    cr_assert_eq(evrec_meta_validate(&meta, NULL, &what), EVREC_OK, "size %u: %s", size, what ? what : "");

    uint8_t *buf = malloc((size_t)nrec * size);
    uint8_t *ref = malloc((size_t)nrec * size);
    size_t used = 0, rlen = 0;
    uint32_t e = 1, time = 0xFFFF0000u;
    for (uint32_t r = 0; r < nrec; r++) {
        if (run == 1u) {
            e = e % 4u + 1u; /* another type every record */
        } else if (rnd() % (run ? run : 4u) == 0) {
            e = 1u + rnd() % 4u; /* bursts of one type, then a switch */
        }
        uint32_t n = ev[e - 1].size;
        uint8_t *s = buf + used;
        for (uint32_t i = 0; i < n; i++) {
            s[i] = (uint8_t)rnd();
        }
        if (run) {
            time += rnd() % 0x4000000u;                         /* wraps every ~128 records */
            uint32_t t = rnd() % 97u == 0 ? time - 300u : time; /* a step back */
            memcpy(s, &t, 4);
        }
        uint16_t id = (uint16_t)e;
        memcpy(s + 4, &id, 2);
        rlen += ref_struct(ref + rlen, ev[e - 1].fields, ev[e - 1].count, s);
        used += n;
    }

    /* The stream is meta-info, records, End: the meta-info and End come from a save of no
     * records. */
    mem_sink_t empty = {0}, full = {0};
    evrec_sink_t se = mem_sink_of(&empty), sf = mem_sink_of(&full);
    cr_assert_eq(evrec_save_ccore(&meta, 1000, buf, 0, &se), EVREC_OK);
    cr_assert_eq(evrec_save_ccore(&meta, 1000, buf, used, &sf), EVREC_OK);
    cr_assert_geq(empty.len, 7u);
    size_t head = empty.len - 7u;
    cr_assert_eq(full.len, empty.len + rlen, "size %u: %zu bytes, expected %zu", size, full.len, empty.len + rlen);
    cr_assert_eq(memcmp(full.data, empty.data, head), 0, "size %u: meta-info differs", size);
    for (size_t i = 0; i < rlen; i++) {
        if (full.data[head + i] != ref[i]) {
            cr_assert_fail("size %u: record byte %zu is 0x%02x, reference 0x%02x", size, i, full.data[head + i],
                           ref[i]);
        }
    }
    cr_assert_eq(memcmp(full.data + head + rlen, empty.data + head, 7), 0, "size %u: End", size);
    free(empty.data);
    free(full.data);
    free(buf);
    free(ref);
}

static void check_size(uint32_t size, uint32_t nrec)
{
    check_size_runs(size, nrec, 0);
}

Test(save_sizes, every_record_size_matches_the_reference)
{
    for (uint32_t seed = 1; seed <= 4; seed++) {
        rnd_state = 0x9E3779B9u * seed;
        for (uint32_t size = 8; size <= EVREC_MAX_EVENT_SIZE; size += 4) {
            check_size(size, 300);
        }
    }
}

Test(save_sizes, a_lone_short_record_at_the_end_of_the_buffer)
{
    /* Buffers of one record each: the vector load of a short record would pass the end, so the
     * converter must take the gather loop (ASan builds see an over-read). */
    for (uint32_t size = 8; size <= 32; size += 4) {
        rnd_state = 77u + size;
        check_size(size, 1);
    }
}

Test(save_sizes, long_runs_of_one_type_match_the_reference)
{
    /* Sizes whose plan is one, two and more vector ops (save's run loop has a case for each),
     * in runs of about 300 records: many output chunks are cut mid-run. */
    for (uint32_t seed = 1; seed <= 3; seed++) {
        rnd_state = 0x85EBCA6Bu * seed;
        for (uint32_t size = 8; size <= 80; size += 4) {
            check_size_runs(size, 6000, 300);
        }
    }
}

Test(save_sizes, types_switching_every_record_match_the_reference)
{
    /* save's loop for streams that switch event type (plans of one or two ops: up to 32 packed
     * bytes) and the general loop for larger ones, across many output chunks */
    for (uint32_t seed = 1; seed <= 3; seed++) {
        rnd_state = 0xC2B2AE35u * seed;
        for (uint32_t size = 8; size <= 64; size += 4) {
            check_size_runs(size, 6000, 1);
        }
    }
}
