/* SPDX-License-Identifier: Apache-2.0 */
/* The live transmitter: last-is-best overwrite of whole frames, cut frames, any chunk size,
 * global and local filters, concurrent writers and a reader, RAM + QS together. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "evrec/evrec_qs_decode.h"
#include "evrec/evrec_qs_record.h"
#include "evrec/evrec_qs_tx.h"
#include "qs_test_meta.h"

static uint8_t g_buf[1 << 16] __attribute__((aligned(4)));

typedef struct sink {
    evrec_qs_decoder_t dec;
    uint32_t ch[4096];
    uint32_t time[4096];
    size_t n;
    uint64_t invalid; /* decoded events whose fields do not check */
} sink_t;

static uint32_t check_value(uint8_t ch, uint16_t raw)
{
    uint32_t x = (uint32_t)raw * 2654435761u ^ ((uint32_t)ch << 24) ^ 0x5A5A5A5Au;
    return x ^ (x >> 13);
}

static void sink_event(void *ctx, const evrec_qs_event_t *ev)
{
    sink_t *s = ctx;
    if (ev->id != K_SENSOR) {
        return;
    }
    if (ev->values[2] != check_value((uint8_t)ev->values[0], (uint16_t)ev->values[1])) {
        s->invalid++;
        return;
    }
    if (s->n < 4096) {
        s->ch[s->n] = ev->values[1];
        s->time[s->n] = ev->time;
    }
    s->n++;
}

static sink_t *sink_new(const evrec_qs_map_t *map)
{
    sink_t *s = calloc(1, sizeof *s);
    cr_assert_eq(evrec_qs_decoder_init(&s->dec, map, sink_event, NULL, s), EVREC_OK);
    return s;
}

static void sink_free(sink_t *s)
{
    evrec_qs_decoder_free(&s->dec);
    free(s);
}

static size_t drain(evrec_qs_tx_t *tx, sink_t *s, size_t chunk)
{
    uint8_t buf[256];
    size_t n, total = 0;
    while ((n = evrec_qs_tx_get_block(tx, buf, chunk)) > 0) {
        cr_assert_leq(n, chunk);
        evrec_qs_decoder_feed(&s->dec, buf, n);
        total += n;
    }
    return total;
}

static sensor_event_t ev(uint8_t ch, uint16_t i)
{
    return k_sensor(i * 10u, ch, i, check_value(ch, i));
}

static void init_tx(evrec_qs_tx_t *tx, size_t ring_frames, const evrec_qs_options_t *o)
{
    evrec_qs_map_t m;
    evrec_qs_event_map_t e[K_EVENT_COUNT];
    cr_assert_eq(evrec_qs_map_init(&m, &k_meta, o, e, sizeof e), EVREC_OK);
    size_t size = ((evrec_qs_map_entries_size(&k_meta) + 3u) & ~(size_t)3u) +
                  evrec_qs_tx_ring_size(&m, ring_frames);
    cr_assert_leq(size, sizeof g_buf);
    cr_assert_eq(evrec_qs_tx_init(tx, &k_meta, g_buf, size, o), EVREC_OK);
}

Test(qs_tx, ring_too_small_is_refused)
{
    evrec_qs_tx_t tx;
    cr_assert_eq(evrec_qs_tx_init(&tx, &k_meta, g_buf, 64, NULL), EVREC_E_ARG);
    cr_assert_eq(evrec_qs_tx_init(&tx, &k_meta, g_buf + 1, 4096, NULL), EVREC_E_ARG);
}

Test(qs_tx, overrun_keeps_only_whole_frames)
{
    evrec_qs_tx_t tx;
    init_tx(&tx, 4, NULL); /* room for about 8 Sensor frames */
    sink_t *s = sink_new(&tx.map);
    for (uint16_t i = 0; i < 100; i++) {
        sensor_event_t e = ev(1, i);
        cr_assert_eq(evrec_qs_tx_event(&tx, &e), EVREC_OK);
        cr_assert_leq(evrec_qs_tx_pending(&tx), tx.size);
    }
    cr_assert_gt(tx.frames_lost, 50u);
    drain(&tx, s, 5);
    cr_assert_eq(s->dec.parser.skipped, 0u, "the first byte read is a frame start");
    cr_assert_eq(s->dec.parser.bad_checksums, 0u);
    cr_assert_eq(s->invalid, 0u);
    cr_assert_eq(s->n + tx.frames_lost, 100u);
    for (size_t k = 0; k < s->n; k++) {
        cr_assert_eq(s->ch[k], 100u - s->n + k, "the newest frames survive, in order");
    }
    /* More events after the drain: the host sees the loss as one gap. */
    sensor_event_t e = ev(1, 100);
    evrec_qs_tx_event(&tx, &e);
    drain(&tx, s, 3);
    cr_assert_eq(s->dec.parser.gaps, 0u, "nothing lost between the two drains");
    cr_assert_eq(s->n, 100u - tx.frames_lost + 1u);
    sink_free(s);
}

Test(qs_tx, gap_seen_after_overwrite_between_reads)
{
    evrec_qs_tx_t tx;
    init_tx(&tx, 4, NULL);
    sink_t *s = sink_new(&tx.map);
    sensor_event_t e0 = ev(1, 0);
    evrec_qs_tx_event(&tx, &e0);
    drain(&tx, s, 64);
    for (uint16_t i = 1; i < 50; i++) {
        sensor_event_t e = ev(1, i);
        evrec_qs_tx_event(&tx, &e);
    }
    drain(&tx, s, 64);
    cr_assert_eq(s->dec.parser.gaps, 1u);
    cr_assert_eq(s->dec.parser.frames_lost, tx.frames_lost);
    cr_assert_lt(tx.frames_lost, 256u);
    cr_assert_eq(s->dec.parser.bad_checksums, 0u);
    sink_free(s);
}

Test(qs_tx, frame_cut_while_read_is_closed_by_a_flag)
{
    evrec_qs_tx_t tx;
    init_tx(&tx, 4, NULL);
    sink_t *s = sink_new(&tx.map);
    sensor_event_t e0 = ev(1, 0);
    evrec_qs_tx_event(&tx, &e0);
    drain(&tx, s, 64);
    for (uint16_t i = 1; i < 5; i++) {
        sensor_event_t e = ev(1, i);
        evrec_qs_tx_event(&tx, &e);
    }
    uint8_t part[3];
    cr_assert_eq(evrec_qs_tx_get_block(&tx, part, 3), 3u); /* start of frame 1 is on the wire */
    evrec_qs_decoder_feed(&s->dec, part, 3);
    for (uint16_t i = 5; i < 40; i++) {
        sensor_event_t e = ev(1, i);
        evrec_qs_tx_event(&tx, &e);
    }
    cr_assert_eq(tx.frames_cut, 1u);
    uint8_t first[2];
    cr_assert_eq(evrec_qs_tx_get_block(&tx, &first[0], 1), 1u);
    cr_assert(first[0] == 0x00 || first[0] == 0x01, "the cut frame gets a filler byte first (%02X)", first[0]);
    cr_assert_eq(evrec_qs_tx_get_block(&tx, &first[1], 1), 1u);
    cr_assert_eq(first[1], 0x7E, "then it is closed");
    evrec_qs_decoder_feed(&s->dec, first, 2);
    drain(&tx, s, 7);
    cr_assert_eq(s->dec.parser.bad_checksums, 1u, "only the cut frame is bad");
    cr_assert_eq(s->dec.parser.gaps, 1u);
    cr_assert_eq(s->dec.parser.frames_lost, tx.frames_lost + tx.frames_cut);
    cr_assert_eq(s->invalid, 0u);
    cr_assert_eq(s->n + tx.frames_lost + tx.frames_cut, 40u);
    sink_free(s);
}

Test(qs_tx, session_then_events_decode_with_dictionaries)
{
    evrec_qs_tx_t tx;
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = 2;
    o.field_display = k_display;
    init_tx(&tx, 64, &o);
    cr_assert_eq(evrec_qs_tx_session_start(&tx), EVREC_OK);
    sensor_event_t e = ev(2, 0x1234);
    e.time = 0x00ABCDEFu;
    evrec_qs_tx_event(&tx, &e);
    sink_t *s = sink_new(&tx.map);
    drain(&tx, s, 1);
    cr_assert_eq(s->n, 1u);
    cr_assert_eq(s->time[0], 0x00ABCDEFu, "2-byte timestamps: the full time from the time sync");
    cr_assert_eq(tx.time_syncs, 1u);
    cr_assert_eq(s->dec.time_syncs, 1u);
    cr_assert_eq(s->dec.dict.cfg.time_size, 2);
    cr_assert_str_eq(s->dec.dict.usr[101], "Sensor");
    cr_assert_str_eq(s->dec.dict.usr[EVREC_QS_REC_TIME_SYNC], EVREC_QS_TIME_SYNC_NAME);
    cr_assert_eq(s->dec.parser.gaps + s->dec.parser.bad_checksums, 0u);
    sink_free(s);
}

Test(qs_tx, session_larger_than_ring_is_reported)
{
    evrec_qs_tx_t tx;
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    static evrec_qs_name_t objs[40];
    for (uint32_t i = 0; i < 40; i++)
        objs[i] = (evrec_qs_name_t){0x20000000u + i * 16u, "some_object_name"};
    o.objects = objs;
    o.object_count = 40;
    init_tx(&tx, 2, &o);
    cr_assert_eq(evrec_qs_tx_session_start(&tx), EVREC_E_DROPPED);
    cr_assert_gt(tx.frames_lost, 0u);
}

Test(qs_tx, global_filter)
{
    evrec_qs_tx_t tx;
    init_tx(&tx, 16, NULL);
    sensor_event_t e = ev(1, 1);
    cr_assert_eq(evrec_qs_tx_global_filter(&tx, K_SENSOR, 0), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_event(&tx, &e), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_pending(&tx), 0u);
    cr_assert_eq(tx.seq, 0, "a filtered event takes no sequence number");
    evrec_control_event_t c = {1, K_CONTROL, EVREC_CONTROL_TICK};
    cr_assert_eq(evrec_qs_tx_event(&tx, &c), EVREC_OK);
    cr_assert_gt(evrec_qs_tx_pending(&tx), 0u, "other event types still pass");
    size_t before = evrec_qs_tx_pending(&tx);
    cr_assert_eq(evrec_qs_tx_global_filter(&tx, K_SENSOR, 1), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_event(&tx, &e), EVREC_OK);
    cr_assert_gt(evrec_qs_tx_pending(&tx), before);
    evrec_qs_tx_global_filter_all(&tx, 0);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &e), 0);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &c), 0);
    evrec_qs_tx_global_filter_all(&tx, 1);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &c), 1);
    cr_assert_eq(evrec_qs_tx_global_filter(&tx, K_EVENT_COUNT, 0), EVREC_E_BAD_ID);
    sensor_event_t bad = e;
    bad.id = 77;
    cr_assert_eq(evrec_qs_tx_event(&tx, &bad), EVREC_E_BAD_ID);
}

Test(qs_tx, local_filter_by_class_and_by_object_id)
{
    evrec_qs_tx_t tx;
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.local_id_field = "task";
    init_tx(&tx, 16, &o);
    sensor_event_t s = ev(1, 1); /* no `task` field: local id = class id 1 */
    mixed_event_t m7, m8;
    memset(&m7, 0, sizeof m7);
    m7.id = K_MIXED;
    m7.task = 7;
    m8 = m7;
    m8.task = 8;
    cr_assert_eq(evrec_qs_tx_local_filter(&tx, 7, 0), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &m7), 0);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &m8), 1);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &s), 1);
    cr_assert_eq(evrec_qs_tx_local_filter(&tx, 1, 0), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &s), 0, "class 1 off");
    cr_assert_eq(evrec_qs_tx_event(&tx, &s), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_event(&tx, &m7), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_pending(&tx), 0u);
    cr_assert_eq(evrec_qs_tx_event(&tx, &m8), EVREC_OK);
    cr_assert_gt(evrec_qs_tx_pending(&tx), 0u);
    cr_assert_eq(evrec_qs_tx_local_filter(&tx, 7, 1), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_passes(&tx, &m7), 1, "changed at run time");
    m7.task = 0;
    cr_assert_eq(evrec_qs_tx_passes(&tx, &m7), 1, "id 0 is always enabled");
    cr_assert_eq(evrec_qs_tx_local_filter(&tx, 0, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_qs_tx_local_filter(&tx, 256, 0), EVREC_E_ARG);
}

/* ---- concurrency ---------------------------------------------------------------------------- */

#define WRITERS 3
#define PER_WRITER 20000

typedef struct shared {
    evrec_qs_tx_t tx;
    evrec_qs_spinlock_t lock;
    _Atomic int writers_left;
    uint8_t *out;
    size_t out_len;
} shared_t;

typedef struct wctx {
    shared_t *sh;
    uint8_t ch;
} wctx_t;

static void *writer(void *arg)
{
    wctx_t *w = arg;
    for (uint32_t i = 0; i < PER_WRITER; i++) {
        sensor_event_t e = ev(w->ch, (uint16_t)i);
        evrec_qs_tx_event(&w->sh->tx, &e);
        for (volatile int k = 0; k < (int)(i % 512u); k++) {
        } /* bursts and pauses: some overruns, some frames read */
    }
    atomic_fetch_sub(&w->sh->writers_left, 1);
    return NULL;
}

static void *reader(void *arg)
{
    shared_t *sh = arg;
    size_t chunk = 1;
    for (;;) {
        int last = atomic_load(&sh->writers_left) == 0;
        size_t n = evrec_qs_tx_get_block(&sh->tx, sh->out + sh->out_len, chunk);
        sh->out_len += n;
        chunk = chunk % 37u + 1u;
        if (last && n == 0 && evrec_qs_tx_pending(&sh->tx) == 0) {
            break;
        }
    }
    return NULL;
}

Test(qs_tx, threads_whole_frames_or_counted_losses, .timeout = 120)
{
    shared_t *sh = calloc(1, sizeof *sh);
    evrec_qs_spin_init(&sh->lock);
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.lock = (evrec_qs_lock_t){evrec_qs_spin_enter, evrec_qs_spin_exit, &sh->lock};
    evrec_qs_map_t m;
    evrec_qs_event_map_t e[K_EVENT_COUNT];
    cr_assert_eq(evrec_qs_map_init(&m, &k_meta, &o, e, sizeof e), EVREC_OK);
    cr_assert_eq(evrec_qs_tx_init(&sh->tx, &k_meta, g_buf, 16 + evrec_qs_tx_ring_size(&m, 16), &o), EVREC_OK);
    sh->out = malloc((size_t)WRITERS * PER_WRITER * 64u);
    atomic_store(&sh->writers_left, WRITERS);
    /* One event read before the threads start: the host has seen seq 1, so every later loss
     * shows as a gap (losses before the first frame received are invisible to any host). */
    sensor_event_t first = ev(9, 0);
    evrec_qs_tx_event(&sh->tx, &first);
    sh->out_len = evrec_qs_tx_get_block(&sh->tx, sh->out, 4096);
    pthread_t r, w[WRITERS];
    wctx_t wc[WRITERS];
    pthread_create(&r, NULL, reader, sh);
    for (int i = 0; i < WRITERS; i++) {
        wc[i] = (wctx_t){sh, (uint8_t)(i + 1)};
        pthread_create(&w[i], NULL, writer, &wc[i]);
    }
    for (int i = 0; i < WRITERS; i++)
        pthread_join(w[i], NULL);
    pthread_join(r, NULL);
    /* A last event reveals the losses after the last frame the reader got. */
    sensor_event_t last = ev(9, 1);
    evrec_qs_tx_event(&sh->tx, &last);
    sh->out_len += evrec_qs_tx_get_block(&sh->tx, sh->out + sh->out_len, 4096);

    sink_t *s = sink_new(&sh->tx.map);
    evrec_qs_decoder_feed(&s->dec, sh->out, sh->out_len);
    const evrec_qs_tx_t *tx = &sh->tx;
    cr_log_info("frames %lu, lost %lu, cut %lu, received %zu, bytes %zu", (unsigned long)tx->frames,
                (unsigned long)tx->frames_lost, (unsigned long)tx->frames_cut, s->n, sh->out_len);
    const uint64_t total = (uint64_t)WRITERS * PER_WRITER + 2u;
    const evrec_qs_parser_t *p = &s->dec.parser;
    cr_assert_eq(tx->frames, total);
    cr_assert_eq(s->n + tx->frames_lost + tx->frames_cut, total, "every event is received or counted as lost");
    /* A cut frame (prefix + 0x7E) is a bad checksum, or, 1 time in 256, a short or bogus record
     * whose elements do not fit the schema: each cut frame is exactly one of these. */
    uint64_t bogus = s->dec.mismatches + s->invalid;
    cr_log_info(
        "host: bad checksums %lu, too short %lu, mismatches %lu, invalid %lu, gaps %lu, lost %lu, skipped %lu",
        (unsigned long)p->bad_checksums, (unsigned long)p->too_short, (unsigned long)s->dec.mismatches,
        (unsigned long)s->invalid, (unsigned long)p->gaps, (unsigned long)p->frames_lost,
        (unsigned long)p->skipped);
    cr_assert_eq(p->bad_checksums + p->too_short + bogus, tx->frames_cut);
    /* Sequence numbers are 8 bits: a host sees each run of losses modulo 256. */
    cr_assert_eq((p->frames_lost + bogus) % 256u, (tx->frames_lost + tx->frames_cut) % 256u);
    sink_free(s);
    free(sh->out);
    free(sh);
}

/* ---- RAM buffer and QS together --------------------------------------------------------------- */

Test(qs_tx, record_into_ram_and_qs_with_one_timestamp)
{
    static uint8_t ram[4096] __attribute__((aligned(8)));
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, ram, sizeof ram), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &k_meta, 0), EVREC_OK);
    evrec_qs_tx_t tx;
    init_tx(&tx, 16, NULL);
    sensor_event_t e = ev(3, 42);
    cr_assert_eq(evrec_qs_record(&host, &tx, K_SENSOR, &e), EVREC_OK);
    cr_assert_eq(evrec_qs_record(&host, NULL, K_SENSOR, &e), EVREC_OK);
    cr_assert_eq(evrec_qs_record(NULL, &tx, K_SENSOR, &e), EVREC_OK);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_qs_record(&host, NULL, K_SENSOR, &e), EVREC_E_NOT_RECORDING);
    cr_assert_eq(evrec_qs_record(&host, &tx, K_SENSOR, &e), EVREC_OK, "QS alone still works");
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, 4u); /* Start, 2 x Sensor, Stop */
    const sensor_event_t *r1 = (const sensor_event_t *)(const void *)(evrec_recorder_records(&rec) + 8);
    cr_assert_eq(r1->id, K_SENSOR);
    cr_assert_eq(r1->value, e.value);
    sink_t *s = sink_new(&tx.map);
    drain(&tx, s, 11);
    cr_assert_eq(s->n, 3u);
    cr_assert_eq(s->time[0], r1->time, "same timestamp in RAM and on the wire");
    sink_free(s);
}

/* ---- a cut after every byte of a frame ------------------------------------------------------ */

/* The framing layer of QSPY 7.4's QSPY_parse() (qtools qspy/source/qspy.c), as it is: the byte
 * after a 7D is XOR-ed with 0x20 whatever it is (a 7E included), a 7E ends a frame, a frame is
 * good when its un-escaped bytes (checksum included) sum to 0xFF and it has at least 3 bytes. */
typedef struct qspy_model {
    uint8_t rec[1024];
    size_t len;
    uint8_t sum, esc;
    unsigned good, bad;
    uint8_t good_seq[256];
} qspy_model_t;

static void qspy_feed(qspy_model_t *q, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = b[i];
        if (q->esc) {
            q->esc = 0;
            c ^= EVREC_QS_ESC_XOR;
            q->sum = (uint8_t)(q->sum + c);
            if (q->len < sizeof q->rec) q->rec[q->len++] = c;
        } else if (c == EVREC_QS_ESC) {
            q->esc = 1;
        } else if (c == EVREC_QS_FLAG) {
            if (q->sum != EVREC_QS_GOOD_SUM || q->len < 3) {
                q->bad++;
            } else if (q->good < 256) {
                q->good_seq[q->good++] = q->rec[0];
            }
            q->sum = 0;
            q->len = 0;
            q->esc = 0;
        } else {
            q->sum = (uint8_t)(q->sum + c);
            if (q->len < sizeof q->rec) q->rec[q->len++] = c;
        }
    }
}

/* Frame A is full of 7D/7E bytes (seq 0x7D, timestamp and values made of them). The reader takes
 * its first k bytes, writers then overwrite the rest (a cut), and the reader drains the ring.
 * For every k: QSPY (the model above) and our decoder see exactly one bad frame, the cut one, and
 * every later frame good, in order: the next intact frame is never merged into the cut one. */
Test(qs_tx, cut_after_every_byte_never_merges_the_next_frame)
{
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = 4;
    size_t alen = 0;
    for (size_t k = 1;; k++) {
        evrec_qs_tx_t tx;
        evrec_qs_map_t m0;
        evrec_qs_event_map_t e0[K_EVENT_COUNT];
        cr_assert_eq(evrec_qs_map_init(&m0, &k_meta, &o, e0, sizeof e0), EVREC_OK);
        size_t size = ((evrec_qs_map_entries_size(&k_meta) + 3u) & ~(size_t)3u) + evrec_qs_tx_ring_size(&m0, 2);
        cr_assert_eq(evrec_qs_tx_init(&tx, &k_meta, g_buf, size, &o), EVREC_OK);
        tx.seq = 0x7B; /* Z gets seq 0x7C, frame A 0x7D */
        uint8_t stream[8192];
        sensor_event_t z = k_sensor(0x00100000u, 9, 0x0909, 0x09090909u);
        cr_assert_eq(evrec_qs_tx_event(&tx, &z), EVREC_OK);
        size_t zlen = evrec_qs_tx_get_block(&tx, stream, sizeof stream); /* a good frame first */
        sensor_event_t a = k_sensor(0x7E7D7E7Du, 0x7E, 0x7D7E, 0x7D7D7E7Eu);
        cr_assert_eq(evrec_qs_tx_event(&tx, &a), EVREC_OK);
        if (k == 1) {
            alen = evrec_qs_tx_pending(&tx);
            cr_assert_geq(alen, 30u, "frame A should be mostly escapes (%zu bytes)", alen);
        }
        if (k >= alen) {
            break;
        }
        size_t got = zlen + evrec_qs_tx_get_block(&tx, stream + zlen, k);
        cr_assert_eq(got, zlen + k);
        /* Writers overwrite the rest of A (and maybe more): plain frames without escapes. */
        for (uint32_t i = 0; tx.frames_cut == 0 && tx.need_flag == 0; i++) {
            sensor_event_t b = k_sensor(0x01000000u + i, 1, 0x0102, 0x03040506u);
            cr_assert_eq(evrec_qs_tx_event(&tx, &b), EVREC_OK);
            cr_assert_lt(i, 100u);
        }
        sensor_event_t c = k_sensor(0x02000000u, 2, 0x0203, 0x04050607u);
        cr_assert_eq(evrec_qs_tx_event(&tx, &c), EVREC_OK);
        size_t n;
        while ((n = evrec_qs_tx_get_block(&tx, stream + got, 7)) > 0) { /* odd chunks */
            got += n;
            cr_assert_lt(got, sizeof stream - 8);
        }
        int cut = k < alen - 1; /* k = alen - 1: only the flag was left, A arrives whole */
        cr_assert_eq(tx.frames_cut, (uint64_t)cut, "k=%zu", k);
        /* Frames expected good after A: every whole frame left in the ring. */
        size_t flags = 0;
        for (size_t i = zlen + k; i < got; i++) {
            flags += stream[i] == EVREC_QS_FLAG;
        }
        unsigned later = (unsigned)(flags - 1u); /* the first flag ends A */
        qspy_model_t q;
        memset(&q, 0, sizeof q);
        qspy_feed(&q, stream, got);
        cr_assert_eq(q.bad, (unsigned)cut, "k=%zu: QSPY sees %u bad frames", k, q.bad);
        cr_assert_eq(q.good, 1u + later + (unsigned)!cut, "k=%zu: QSPY sees %u good frames, %u expected", k,
                     q.good, 1u + later + (unsigned)!cut);
        for (unsigned i = 2u + (unsigned)!cut; i < q.good; i++) { /* after Z, A if whole, a gap */
            cr_assert_eq((uint8_t)(q.good_seq[i] - q.good_seq[i - 1]), 1u, "k=%zu: seq order", k);
        }
        cr_assert_eq(q.good_seq[q.good - 1], tx.seq, "k=%zu: the last frame arrives", k);
        /* Our decoder: the same counts. */
        sink_t *s = sink_new(&tx.map);
        evrec_qs_decoder_feed(&s->dec, stream, got);
        cr_assert_eq(s->dec.parser.bad_checksums + s->dec.parser.too_short, (uint64_t)cut, "k=%zu", k);
        cr_assert_eq(s->dec.events, 1u + later + (uint64_t)!cut, "k=%zu", k);
        sink_free(s);
    }
}
