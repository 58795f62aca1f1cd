/* SPDX-License-Identifier: Apache-2.0 */
/* Enum names beyond the QS groups, live dictionaries and loss records (format/qs/QS.md "Enums",
 * "Live dictionaries", "Loss records"): QSPY's view of each new record kind (lines printed by
 * QSPY 7.4.0 for the same bytes), run-time names allocated mid-run, and a lossy live run whose
 * recorder also drops. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_qs.h"
#include "evrec/evrec_qs_decode.h"
#include "evrec/evrec_qs_tx.h"

/* ---- schema: a run-time enum, an enum with values above a byte, EventControl --------------- */

typedef struct ev {
    uint32_t time;
    uint16_t id;
    uint8_t thread;
    uint8_t pad;
    uint16_t big;
    uint16_t pad2;
} ev_t;
enum { E_CONTROL, E_EV, E_COUNT };
enum { N_CONTROL, N_THREAD, N_BIG };

static const evrec_enum_value_t control_values[] = {EVREC_CONTROL_ENUM_VALUES};
/* 7 repeats 0's name (sent as a number), "a#1" has a '#' (sent as a number). */
static const evrec_enum_value_t big_values[] = {
    {0, "Zero", 0}, {7, "Zero", 0}, {1000, "Thousand", 0}, {2000, "a#1", 0}};
static const char *thread_names[8];
static evrec_runtime_enum_t thread_rt;
static evrec_enum_desc_t enums[] = {{"EventControlType", EVREC_KIND_ENUM_UINT8, 4, control_values, NULL},
                                    {"Thread", EVREC_KIND_ENUM_UINT8, 0, NULL, &thread_rt},
                                    {"Big", EVREC_KIND_ENUM_UINT16, 4, big_values, NULL}};
static const evrec_field_desc_t control_fields[] = {EVREC_CONTROL_FIELDS(N_CONTROL)};
static const evrec_field_desc_t ev_fields[] = {{"time", EVREC_KIND_UINT32, 0, 0},
                                               {"id", EVREC_KIND_UINT16, 0, 4},
                                               {"thread", EVREC_KIND_ENUM_UINT8, N_THREAD, offsetof(ev_t, thread)},
                                               {"big", EVREC_KIND_ENUM_UINT16, N_BIG, offsetof(ev_t, big)}};
static const evrec_struct_desc_t structs[] = {{"EventControl", 3, control_fields, 8},
                                              {"Ev", 4, ev_fields, sizeof(ev_t)}};
static const evrec_event_desc_t events[] = {{0, 0}, {1, 1}};
static const evrec_meta_t meta = {1000000, 3, enums, 2, structs, E_COUNT, events, 0, NULL, NULL};

static void reset_threads(void)
{
    cr_assert_eq(evrec_runtime_enum_init(&thread_rt, 0, 8, 0, thread_names), EVREC_OK);
}

static uint32_t alloc_thread(const char *name)
{
    uint32_t v = 0;
    cr_assert_eq(evrec_runtime_enum_alloc(&thread_rt, name, &v), EVREC_OK);
    return v;
}

static ev_t ev(uint32_t time, uint8_t thread, uint16_t big)
{
    ev_t e;
    memset(&e, 0, sizeof e);
    e.time = time;
    e.id = E_EV;
    e.thread = thread;
    e.big = big;
    return e;
}

/* ---- a transmitter and a host that prints QSPY lines and decodes events ------------------- */

typedef struct host {
    evrec_qs_decoder_t d;
    char *text; /* QSPY-style lines */
    size_t len, cap;
    ev_t got[256];
    size_t n;
    char names[8][32]; /* Thread names reported by on_name, by value */
    int from_dict[8];  /* how the last one came: 1 dictionary, 0 inline */
    size_t name_calls;
} host_t;

static void on_name(void *ctx, uint32_t enum_id, uint32_t value, const char *name, size_t len, int from_dict)
{
    host_t *h = ctx;
    cr_assert_eq(enum_id, (uint32_t)N_THREAD, "only the run-time enum's values");
    cr_assert_lt(value, 8u);
    cr_assert_lt(len, sizeof h->names[0]);
    memcpy(h->names[value], name, len);
    h->names[value][len] = 0;
    h->from_dict[value] = from_dict;
    h->name_calls++;
}

static void add_line(host_t *h, const char *s, size_t n)
{
    if (h->len + n + 2 > h->cap) {
        h->cap = (h->len + n + 2) * 2;
        h->text = realloc(h->text, h->cap);
        cr_assert_not_null(h->text);
    }
    memcpy(h->text + h->len, s, n);
    h->len += n;
    h->text[h->len++] = '\n';
    h->text[h->len] = 0;
}

static void on_item(void *ctx, const evrec_qs_item_t *it)
{
    host_t *h = ctx;
    char line[1024];
    size_t n = evrec_qs_format_item(&h->d.dict, it, line, sizeof line);
    if (n) {
        add_line(h, line, n);
    }
}

static void on_event(void *ctx, const evrec_qs_event_t *e)
{
    host_t *h = ctx;
    if (h->n < 256 && e->id == E_EV) {
        memcpy(&h->got[h->n++], e->native, sizeof(ev_t));
    }
}

static host_t *host_new(const evrec_qs_map_t *map)
{
    host_t *h = calloc(1, sizeof *h);
    cr_assert_not_null(h);
    cr_assert_eq(evrec_qs_decoder_init(&h->d, map, on_event, on_item, h), EVREC_OK);
    h->d.on_name = on_name;
    return h;
}

static void host_free(host_t *h)
{
    evrec_qs_decoder_free(&h->d);
    free(h->text);
    free(h);
}

typedef struct txbuf {
    evrec_qs_tx_t tx;
    uint8_t mem[8192] __attribute__((aligned(8)));
} txbuf_t;

static txbuf_t *tx_new(size_t ring, uint8_t enum_as)
{
    txbuf_t *t = calloc(1, sizeof *t);
    cr_assert_not_null(t);
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.enum_as = enum_as;
    size_t entries = (evrec_qs_map_entries_size(&meta) + 3u) & ~(size_t)3u;
    cr_assert_eq(evrec_qs_tx_init(&t->tx, &meta, t->mem, entries + ring, &o), EVREC_OK);
    return t;
}

/* Drains up to `max` bytes (all when 0) from the ring into the host (and `dump` if not NULL). */
static size_t drain(txbuf_t *t, host_t *h, size_t max, FILE *dump)
{
    uint8_t chunk[4096];
    size_t total = 0;
    for (;;) {
        size_t want = max ? (max - total < sizeof chunk ? max - total : sizeof chunk) : sizeof chunk;
        if (want == 0) {
            break;
        }
        size_t n = evrec_qs_tx_get_block(&t->tx, chunk, want);
        if (n == 0) {
            break;
        }
        if (dump) {
            fwrite(chunk, 1, n, dump);
        }
        evrec_qs_decoder_feed(&h->d, chunk, n);
        total += n;
    }
    return total;
}

/* ---- QSPY's view of the new record kinds ---------------------------------------------------- */

/* The stream of this test was written to a file (QS_DICT_DUMP=FILE) and post-processed with
 * `qspy -f FILE -k -o` (QSPY 7.4.0): the lines below are QSPY's, without its banner. */
static const char *const qspy_lines[] = {
    "           Trg-RST  QP-Ver=740,Build=000000_000000",
    "           Enum-Dic 000,Grp=1->Zero",
    "           Enum-Dic 007,Grp=1->Zero",
    "           Enum-Dic 000,Grp=2->Start",
    "           Enum-Dic 001,Grp=2->Tick",
    "           Enum-Dic 002,Grp=2->Stop",
    "           Enum-Dic 003,Grp=2->End",
    "           Usr-Dict 00000100->EventControl",
    "           Usr-Dict 00000101->Ev",
    "           Usr-Dict 00000122->EVREC_LOST",
    "           Enum-Dic 000,Grp=0->alpha",
    "0000000010 Ev alpha Thousand",
    "0000000011 Ev alpha Zero",
    "0000000012 Ev alpha Zero",
    "0000000013 Ev alpha 2000",
    "0000000014 EventControl Tick",
    "0000000015 EVREC_LOST dropped 7",
    "0000000015 EVREC_LOST overwritten 3",
    "           Enum-Dic 001,Grp=0->beta",
    "0000000016 Ev beta Zero",
};

Test(qs_dict, qspy_view_of_names_live_dictionary_and_losses)
{
    reset_threads();
    txbuf_t *t = tx_new(4096, EVREC_QS_ENUM_AS_AUTO);
    /* Groups: Thread (run-time) first, then Big, EventControlType last. */
    cr_assert_eq(evrec_qs_map_enum_group(&t->tx.map, N_THREAD), 0);
    cr_assert_eq(evrec_qs_map_enum_group(&t->tx.map, N_BIG), 1);
    cr_assert_eq(evrec_qs_map_enum_group(&t->tx.map, N_CONTROL), 2);
    host_t *h = host_new(&t->tx.map);
    const char *dump_path = getenv("QS_DICT_DUMP");
    FILE *dump = dump_path ? fopen(dump_path, "wb") : NULL;
    cr_assert_eq(evrec_qs_tx_session_start(&t->tx), EVREC_OK);
    uint32_t a = alloc_thread("alpha"); /* after the session started */
    cr_assert_eq(evrec_qs_tx_dict_update(&t->tx), 1u);
    cr_assert_eq(evrec_qs_tx_dict_update(&t->tx), 0u, "sent once");
    ev_t e1 = ev(10, (uint8_t)a, 1000), e2 = ev(11, (uint8_t)a, 0), e3 = ev(12, (uint8_t)a, 7),
         e4 = ev(13, (uint8_t)a, 2000);
    evrec_qs_tx_event(&t->tx, &e1);
    evrec_qs_tx_event(&t->tx, &e2);
    evrec_qs_tx_event(&t->tx, &e3);
    evrec_qs_tx_event(&t->tx, &e4);
    evrec_control_event_t c;
    memset(&c, 0, sizeof c);
    c.time = 14;
    c.id = E_CONTROL;
    c.type = EVREC_CONTROL_TICK;
    evrec_qs_tx_event(&t->tx, &c);
    cr_assert_eq(evrec_qs_tx_lost(&t->tx, 15, EVREC_QS_LOST_DROPPED, 7), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_lost(&t->tx, 15, EVREC_QS_LOST_OVERWRITTEN, 3), EVREC_OK);
    uint32_t b = alloc_thread("beta");
    evrec_qs_tx_dict_update(&t->tx);
    ev_t e5 = ev(16, (uint8_t)b, 0);
    evrec_qs_tx_event(&t->tx, &e5);
    drain(t, h, 0, dump);
    if (dump) {
        fclose(dump);
    }
    /* Our QSPY-style printer gives QSPY's lines (the session's static dictionaries are these). */
    char *expect = calloc(1, 4096);
    for (size_t i = 0; i < sizeof qspy_lines / sizeof qspy_lines[0]; i++) {
        strcat(expect, qspy_lines[i]);
        strcat(expect, "\n");
    }
    cr_assert_str_eq(h->text, expect);
    free(expect);
    /* ... and the events come back exactly; the losses are counted. */
    cr_assert_eq(h->d.mismatches, 0u);
    cr_assert_eq(h->n, 5u);
    const ev_t *sent[] = {&e1, &e2, &e3, &e4, &e5};
    for (size_t i = 0; i < 5; i++) {
        cr_assert_eq(memcmp(&h->got[i], sent[i], sizeof(ev_t)), 0, "event %zu", i);
    }
    cr_assert_eq(h->d.lost_reports, 2u);
    cr_assert_eq(h->d.lost_dropped, 7u);
    cr_assert_eq(h->d.lost_overwritten, 3u);
    host_free(h);
    free(t);
}

/* Strings mode: no groups; run-time names as `name#value` (a '#' in the name too). */
Test(qs_dict, strings_mode_round_trip_with_runtime_names)
{
    reset_threads();
    txbuf_t *t = tx_new(4096, EVREC_QS_ENUM_AS_STRINGS);
    cr_assert_eq(evrec_qs_map_enum_group(&t->tx.map, N_THREAD), EVREC_QS_NO_GROUP);
    host_t *h = host_new(&t->tx.map);
    cr_assert_eq(evrec_qs_tx_session_start(&t->tx), EVREC_OK);
    uint32_t a = alloc_thread("x#y");
    uint32_t b = alloc_thread("alpha");
    ev_t e[4] = {ev(1, (uint8_t)a, 1000), ev(2, (uint8_t)b, 7), ev(3, 5, 0), ev(4, (uint8_t)b, 3)};
    for (int i = 0; i < 4; i++) {
        evrec_qs_tx_event(&t->tx, &e[i]);
    }
    drain(t, h, 0, NULL);
    cr_assert_not_null(strstr(h->text, " Ev x#y#0 Thousand\n"), "%s", h->text);
    cr_assert_not_null(strstr(h->text, " Ev alpha#1 7\n"), "%s", h->text);
    cr_assert_not_null(strstr(h->text, " Ev 5 Zero\n"), "unallocated value as a number:\n%s", h->text);
    cr_assert_eq(h->d.mismatches, 0u);
    cr_assert_eq(h->n, 4u);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(memcmp(&h->got[i], &e[i], sizeof(ev_t)), 0, "event %d", i);
    }
    host_free(h);
    free(t);
}

/* Names allocated mid-run reach the host right after their allocation, before their first use. */
Test(qs_dict, live_names_allocated_mid_run_are_named_after_allocation)
{
    reset_threads();
    txbuf_t *t = tx_new(4096, EVREC_QS_ENUM_AS_AUTO);
    host_t *h = host_new(&t->tx.map);
    cr_assert_eq(evrec_qs_tx_session_start(&t->tx), EVREC_OK);
    static const char *const names[5] = {"t0", "t1", "t2", "t3", "t4"};
    uint32_t time = 100;
    for (unsigned k = 0; k < 5; k++) {
        ev_t before = ev(time++, (uint8_t)k, 0); /* the value before its name exists */
        evrec_qs_tx_event(&t->tx, &before);
        drain(t, h, 0, NULL);
        cr_assert_null(h->d.dict.enums[0][k]);
        cr_assert_eq(alloc_thread(names[k]), k);
        evrec_qs_tx_dict_update(&t->tx);
        ev_t after = ev(time++, (uint8_t)k, 0);
        evrec_qs_tx_event(&t->tx, &after);
        drain(t, h, 0, NULL);
        cr_assert_str_eq(h->d.dict.enums[0][k], names[k]);
        cr_assert_str_eq(h->names[k], names[k], "the decoder reports the run-time name");
        cr_assert_eq(h->from_dict[k], 1);
        char want[64];
        snprintf(want, sizeof want, "%010u Ev %03u Zero\n%s", (unsigned)before.time, k, "");
        cr_assert_not_null(strstr(h->text, want), "before: %s in\n%s", want, h->text);
        snprintf(want, sizeof want, "%010u Ev %s Zero\n", (unsigned)after.time, names[k]);
        cr_assert_not_null(strstr(h->text, want), "after: %s in\n%s", want, h->text);
    }
    cr_assert_eq(h->n, 10u);
    host_free(h);
    free(t);
}

/* Once the ring has lost frames, a dictionary frame waits while the ring is more than a quarter
 * full (queued into an overflowing ring it would mostly be lost again, pushing events out): the
 * value is named inline meanwhile, and the frame goes once the link has caught up. */
Test(qs_dict, a_full_lossy_ring_defers_dictionary_frames_and_names_inline)
{
    reset_threads();
    txbuf_t *t = tx_new(512, EVREC_QS_ENUM_AS_AUTO);
    host_t *h = host_new(&t->tx.map);
    cr_assert_eq(evrec_qs_tx_session_start(&t->tx), EVREC_OK);
    drain(t, h, 0, NULL);
    cr_assert_eq(alloc_thread("t0"), 0u);
    cr_assert_eq(evrec_qs_tx_dict_update(&t->tx), 1u, "no loss yet: sent at once");
    cr_assert_eq(evrec_qs_tx_dict_pending(&t->tx), 0);
    drain(t, h, 0, NULL);
    cr_assert_str_eq(h->d.dict.enums[0][0], "t0");
    uint32_t time = 100;
    for (unsigned i = 0; i < 200 && t->tx.frames_lost == 0; i++) { /* nobody drains: the ring overflows */
        ev_t e = ev(time++, 0, 0);
        evrec_qs_tx_event(&t->tx, &e);
    }
    cr_assert_gt(t->tx.frames_lost, 0u);
    cr_assert_gt(t->tx.used, t->tx.size / 4u);
    cr_assert_eq(alloc_thread("late"), 1u);
    cr_assert_eq(evrec_qs_tx_dict_pending(&t->tx), 1, "a name not announced yet");
    cr_assert_eq(evrec_qs_tx_dict_update(&t->tx), 0u, "the ring is full: the frame waits");
    cr_assert_eq(evrec_qs_tx_dict_pending(&t->tx), 1, "still to send");
    ev_t e = ev(time++, 1, 0);
    evrec_qs_tx_event(&t->tx, &e);
    drain(t, h, 0, NULL);
    cr_assert_null(h->d.dict.enums[0][1]);
    cr_assert_str_eq(h->names[1], "late", "the inline name reported");
    cr_assert_eq(h->from_dict[1], 0);
    char want[64];
    snprintf(want, sizeof want, "%010u Ev late#1 Zero\n", (unsigned)e.time);
    cr_assert_not_null(strstr(h->text, want), "named inline: %s in\n%s", want, h->text);
    /* the link caught up (the ring is empty): the frame goes, and the value is an ENUM again */
    cr_assert_eq(evrec_qs_tx_dict_update(&t->tx), 1u);
    cr_assert_eq(evrec_qs_tx_dict_pending(&t->tx), 0);
    drain(t, h, 0, NULL);
    cr_assert_str_eq(h->d.dict.enums[0][1], "late");
    cr_assert_eq(h->from_dict[1], 1);
    cr_assert_eq(h->d.names, h->name_calls);
    e = ev(time++, 1, 0);
    evrec_qs_tx_event(&t->tx, &e);
    drain(t, h, 0, NULL);
    snprintf(want, sizeof want, "%010u Ev late Zero\n", (unsigned)e.time);
    cr_assert_not_null(strstr(h->text, want), "by the dictionary: %s in\n%s", want, h->text);
    cr_assert_eq(h->d.mismatches, 0u);
    host_free(h);
    free(t);
}

/* A ring that overflows (frames lost whole and cut while read) and a recorder that drops: the
 * host sees both losses, and every run-time name arrives in the end although dictionary frames
 * were lost on the way (they are sent again). */
Test(qs_dict, lossy_live_run_with_recorder_drops_shows_both_losses)
{
    reset_threads();
    evrec_qs_map_t map;
    evrec_qs_event_map_t map_entries[E_COUNT];
    cr_assert_eq(evrec_qs_map_init(&map, &meta, NULL, map_entries, sizeof map_entries), EVREC_OK);
    txbuf_t *t = tx_new(evrec_qs_tx_ring_size(&map, 2) + 40, EVREC_QS_ENUM_AS_AUTO); /* two frames and a bit */
    host_t *h = host_new(&t->tx.map);
    /* the session in full (a real target drains it before the first event) */
    evrec_qs_tx_session_start(&t->tx);
    drain(t, h, 0, NULL);
    uint64_t announced = 0;
    uint32_t time = 1;
    for (unsigned i = 0; i < 400; i++) {
        if (i % 50 == 0) {
            alloc_thread(i % 100 == 0 ? "even" : "odd");
        }
        evrec_qs_tx_dict_update(&t->tx);
        if (i % 37 == 36) { /* the recorder dropped some */
            evrec_qs_tx_lost(&t->tx, time, EVREC_QS_LOST_DROPPED, i);
            announced += i;
        }
        uint32_t handed = (uint32_t)evrec_atomic_load_acquire(&thread_rt.next);
        ev_t e = ev(time++, (uint8_t)(handed ? i % handed : 0), (uint16_t)(i % 3 == 0 ? 1000 : 0));
        evrec_qs_tx_event(&t->tx, &e);
        drain(t, h, 5 + i % 7, NULL); /* a slow link: a few bytes per event */
    }
    for (int k = 0; k < 4; k++) { /* idle: what was lost is sent again */
        evrec_qs_tx_dict_update(&t->tx);
        drain(t, h, 0, NULL);
    }
    cr_assert_gt(t->tx.frames_lost, 0u);
    cr_assert_gt(t->tx.frames_cut, 0u);
    cr_assert_gt(t->tx.dict_sent, 8u, "lost dictionary frames were sent again");
    cr_assert_gt(h->d.parser.gaps, 0u, "the ring's losses: sequence gaps");
    cr_assert_gt(h->d.lost_reports, 0u, "the recorder's losses: EVREC_LOST records");
    cr_assert_leq(h->d.lost_dropped, announced);
    /* EVREC_LOST records the ring overwrote are sent again, whole or cut while being read (the
     * transmitter keeps the count of the last four it wrote): only a frame cut after its first
     * byte (its record id not yet known to the reader) or a fifth one in flight is lost (96% of
     * the drops arrive here; 60% without the kept counts). */
    cr_assert_gt(t->tx.lost_resent, 0u);
    cr_assert_geq(h->d.lost_dropped * 10u, announced * 9u, "%llu of %llu announced drops arrived",
                  (unsigned long long)h->d.lost_dropped, (unsigned long long)announced);
    cr_assert_not_null(strstr(h->text, " EVREC_LOST dropped "), "%s", h->text);
    /* QSPY's tracks: every thread value by name, from the dictionary or inline (`name#value`
     * while its dictionary frame may not have arrived). */
    size_t lines = 0, inline_named = 0;
    for (const char *l = h->text; (l = strstr(l, " Ev ")) != NULL; l += 4) {
        lines++;
        cr_assert(!(l[4] >= '0' && l[4] <= '9'), "a thread shown as a number: %.40s", l);
        const char *end = strchr(l + 4, ' ');
        inline_named += end && memchr(l + 4, '#', (size_t)(end - (l + 4))) != NULL;
    }
    cr_assert_gt(lines, 0u);
    cr_assert_gt(inline_named, 0u, "some names were sent inline while their dictionary was lost");
    cr_assert_eq(h->d.mismatches, 0u, "inline names decode exactly");
    for (unsigned v = 0; v < 8; v++) {
        cr_assert_not_null(h->d.dict.enums[0][v], "run-time name %u arrived", v);
        cr_assert_str_eq(h->d.dict.enums[0][v], v % 2 == 0 ? "even" : "odd");
    }
    host_free(h);
    free(t);
}
