/* SPDX-License-Identifier: Apache-2.0 */
/* The live SyS-T transmitter: messages come out whole and in order in any chunk size, equal to
 * the flat encoder's; last-is-best overwrite counts lost messages; a message the reader has
 * partly taken is never overwritten (the new one is dropped and counted); global and local
 * filters; 64-bit time extension across a 32-bit wrap; two threads with a spinlock. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "../qs/qs_test_meta.h"
#include "evrec/evrec_syst_record.h"
#include "evrec/evrec_syst_tx.h"

static uint64_t buf[1024];

/* k_meta without Mixed: the largest message is Sensor's, 22 bytes by default */
static const evrec_meta_t small_meta = {1000000, 4, k_enums, 5, k_structs, 2, k_events, 0, NULL, NULL};

static void init_meta(evrec_syst_tx_t *tx, const evrec_meta_t *meta, size_t ring, const evrec_syst_options_t *o,
                      const evrec_qs_lock_t *lock)
{
    size_t size = evrec_syst_tx_overhead(meta, o) + ring;
    cr_assert_leq(size, sizeof buf);
    cr_assert_eq(evrec_syst_tx_init(tx, meta, buf, size, o, lock), EVREC_OK);
    cr_assert_eq(tx->size, ring);
}

static void init(evrec_syst_tx_t *tx, size_t ring, const evrec_syst_options_t *o, const evrec_qs_lock_t *lock)
{
    size_t size = evrec_syst_tx_overhead(&k_meta, o) + ring;
    cr_assert_leq(size, sizeof buf);
    cr_assert_eq(evrec_syst_tx_init(tx, &k_meta, buf, size, o, lock), EVREC_OK);
    cr_assert_eq(tx->size, ring);
}

/* Split a byte stream into messages by their LEN field; returns how many; checks each. */
static size_t split(const uint8_t *p, size_t n, uint32_t fixed, uint32_t len_at, size_t *lens, size_t max)
{
    size_t count = 0, off = 0;
    while (off < n) {
        cr_assert_leq(off + len_at + 2, n);
        size_t len = fixed + (p[off + len_at] | (size_t)p[off + len_at + 1] << 8);
        cr_assert_leq(off + len, n, "message %zu runs past the end", count);
        cr_assert_lt(count, max);
        lens[count++] = len;
        off += len;
    }
    return count;
}

Test(syst_tx, messages_whole_in_any_chunk_size)
{
    evrec_syst_tx_t tx;
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.crc = 1;
    o.timestamp = 1;
    init(&tx, 4096, &o, NULL);
    /* flat reference */
    uint8_t want[4096];
    size_t wn = 0, n;
    cr_assert_eq(evrec_syst_encode_clock(&tx.map, 0, 1000000, want, sizeof want, &n), EVREC_OK);
    wn += n;
    cr_assert_eq(evrec_syst_tx_clock(&tx, 0, 1000000), EVREC_OK);
    for (uint32_t i = 0; i < 40; i++) {
        sensor_event_t e = k_sensor(100 + i, (uint8_t)i, (uint16_t)(i * 3), i * 1000u);
        cr_assert_eq(evrec_syst_encode_event(&tx.map, &e, 100 + i, want + wn, sizeof want - wn, &n), EVREC_OK);
        wn += n;
        e.id = 0xBEEF; /* tx_event takes the id apart: the record's own is not read */
        cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, 100 + i, &e), EVREC_OK);
    }
    cr_assert_eq(evrec_syst_tx_pending(&tx), wn);
    uint8_t got[4096];
    size_t gn = 0;
    for (size_t chunk = 1; gn < wn; chunk = chunk % 13 + 1) {
        size_t k = evrec_syst_tx_get_block(&tx, got + gn, chunk);
        cr_assert_gt(k, 0u);
        gn += k;
    }
    cr_assert_eq(gn, wn);
    cr_assert_eq(memcmp(got, want, wn), 0);
    cr_assert_eq(evrec_syst_tx_get_block(&tx, got, sizeof got), 0u);
    cr_assert_eq(tx.messages, 41u);
    cr_assert_eq(tx.messages_lost, 0u);
    cr_assert_eq(tx.messages_dropped, 0u);
}

Test(syst_tx, last_is_best_counts_losses)
{
    evrec_syst_tx_t tx;
    init_meta(&tx, &small_meta, 200, NULL, NULL); /* 22-byte Sensor messages: 9 fit */
    for (uint32_t i = 0; i < 30; i++) {
        sensor_event_t e = k_sensor(i, (uint8_t)i, 0, i);
        cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, i, &e), EVREC_OK);
    }
    cr_assert_eq(tx.messages, 30u);
    cr_assert_eq(tx.messages_lost, 21u);
    cr_assert_eq(evrec_syst_tx_pending(&tx), 9u * 22u);
    uint8_t got[256];
    size_t n = evrec_syst_tx_get_block(&tx, got, sizeof got);
    size_t lens[16];
    cr_assert_eq(split(got, n, tx.fixed, tx.len_at, lens, 16), 9u);
    /* the newest 9: values 21..29 in order (first argument = ch) */
    for (uint32_t i = 0; i < 9; i++) {
        cr_assert_eq(got[22 * i + 10], 21 + i);
    }
}

Test(syst_tx, partly_read_message_is_never_cut)
{
    evrec_syst_tx_t tx;
    init_meta(&tx, &small_meta, 66, NULL, NULL); /* exactly 3 Sensor messages */
    for (uint32_t i = 0; i < 3; i++) {
        sensor_event_t e = k_sensor(i, (uint8_t)i, 0, i);
        cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, i, &e), EVREC_OK);
    }
    uint8_t got[128];
    size_t gn = evrec_syst_tx_get_block(&tx, got, 5); /* the reader is inside message 0 */
    cr_assert_eq(gn, 5u);
    sensor_event_t e = k_sensor(9, 9, 0, 9);
    cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, 9, &e), EVREC_E_DROPPED);
    cr_assert_eq(tx.messages_dropped, 1u);
    cr_assert_eq(tx.messages_lost, 0u);
    gn += evrec_syst_tx_get_block(&tx, got + gn, 17); /* the rest of message 0: a boundary */
    cr_assert_eq(gn, 22u);
    cr_assert_eq(tx.tail_rem, 0u);
    /* now the oldest whole message (1) makes room */
    cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, 10, &e), EVREC_OK);
    cr_assert_eq(tx.messages_lost, 0u); /* 22 bytes were free */
    cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, 11, &e), EVREC_OK);
    cr_assert_eq(tx.messages_lost, 1u);
    gn += evrec_syst_tx_get_block(&tx, got + gn, sizeof got - gn);
    size_t lens[8];
    cr_assert_eq(split(got, gn, tx.fixed, tx.len_at, lens, 8), 4u); /* 0, 2, 9, 9 */
    cr_assert_eq(got[10], 0);
    cr_assert_eq(got[22 + 10], 2);
    cr_assert_eq(got[44 + 10], 9);
    cr_assert_eq(got[66 + 10], 9);
}

Test(syst_tx, filters)
{
    evrec_syst_tx_t tx;
    init(&tx, 1024, NULL, NULL);
    sensor_event_t e = k_sensor(1, 1, 1, 1);
    mixed_event_t m;
    memset(&m, 0, sizeof m);
    cr_assert_eq(evrec_syst_tx_global_filter(&tx, K_SENSOR, 0), EVREC_OK);
    cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, 1, &e), EVREC_OK);
    cr_assert_eq(tx.messages, 0u);
    cr_assert_eq(evrec_syst_tx_event(&tx, K_MIXED, 1, &m), EVREC_OK);
    cr_assert_eq(tx.messages, 1u);
    cr_assert_eq(evrec_syst_tx_global_filter(&tx, K_SENSOR, 1), EVREC_OK);
    cr_assert_eq(evrec_syst_tx_local_filter(&tx, 2, 0), EVREC_OK); /* class of Mixed */
    cr_assert_eq(evrec_syst_tx_event(&tx, K_MIXED, 1, &m), EVREC_OK);
    cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, 1, &e), EVREC_OK);
    cr_assert_eq(tx.messages, 2u);
    cr_assert_eq(evrec_syst_tx_local_filter(&tx, 2, 1), EVREC_OK);
    cr_assert_eq(evrec_syst_tx_event(&tx, K_MIXED, 1, &m), EVREC_OK);
    cr_assert_eq(tx.messages, 3u);
    cr_assert_eq(evrec_syst_tx_local_filter(&tx, 256, 0), EVREC_E_ARG);
    cr_assert_eq(evrec_syst_tx_global_filter(&tx, 3, 0), EVREC_E_BAD_ID);
    cr_assert_eq(evrec_syst_tx_event(&tx, 3, 1, &e), EVREC_E_BAD_ID);
}

Test(syst_tx, time_extends_to_64_bits)
{
    evrec_syst_tx_t tx;
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.timestamp = 1;
    init(&tx, 1024, &o, NULL);
    const uint32_t t[] = {0xFFFFFF00u, 0x00000010u, 0xFFFFFFF0u /* late, before the wrap */, 0x00000020u};
    const uint64_t want[] = {0xFFFFFF00ull, 0x100000010ull, 0xFFFFFFF0ull, 0x100000020ull};
    for (int i = 0; i < 4; i++) {
        sensor_event_t e = k_sensor(0, 0, 0, 0);
        cr_assert_eq(evrec_syst_tx_event(&tx, K_SENSOR, t[i], &e), EVREC_OK);
    }
    uint8_t got[256];
    size_t n = evrec_syst_tx_get_block(&tx, got, sizeof got);
    cr_assert_eq(n, 4u * 30u);
    for (int i = 0; i < 4; i++) {
        uint64_t ts = 0;
        for (int b = 7; b >= 0; b--) {
            ts = ts << 8 | got[30 * i + 6 + b];
        }
        cr_assert_eq(ts, want[i], "message %d: %#llx", i, (unsigned long long)ts);
    }
}

Test(syst_tx, init_rejects)
{
    evrec_syst_tx_t tx;
    size_t over = evrec_syst_tx_overhead(&k_meta, NULL);
    cr_assert_eq(evrec_syst_tx_init(&tx, &k_meta, buf, over + 10, NULL, NULL), EVREC_E_ARG); /* ring too small */
    cr_assert_eq(evrec_syst_tx_init(&tx, &k_meta, (uint8_t *)buf + 4, 4000, NULL, NULL), EVREC_E_ARG);
    evrec_qs_lock_t half = {evrec_qs_spin_enter, NULL, NULL};
    cr_assert_eq(evrec_syst_tx_init(&tx, &k_meta, buf, 4000, NULL, &half), EVREC_E_ARG);
}

/* Two writers and a reader under a spinlock: every message read is whole and well-formed, and
 * queued = read + lost. */
static evrec_syst_tx_t shared_tx;
static void *writer(void *arg)
{
    uint8_t ch = (uint8_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < 20000; i++) {
        sensor_event_t e = k_sensor(i, ch, (uint16_t)i, i);
        evrec_syst_tx_event(&shared_tx, K_SENSOR, i, &e);
    }
    return NULL;
}

Test(syst_tx, threads)
{
    static evrec_qs_spinlock_t spin;
    evrec_qs_spin_init(&spin);
    evrec_qs_lock_t lock = {evrec_qs_spin_enter, evrec_qs_spin_exit, &spin};
    init(&shared_tx, 512, NULL, &lock);
    pthread_t a, b;
    pthread_create(&a, NULL, writer, (void *)1);
    pthread_create(&b, NULL, writer, (void *)2);
    static uint8_t stream[1 << 16];
    size_t have = 0, whole = 0;
    int done = 0;
    uint8_t chunk[37];
    for (;;) {
        size_t k = evrec_syst_tx_get_block(&shared_tx, chunk, sizeof chunk);
        if (have + k > sizeof stream) {
            /* keep only the partial tail message */
            size_t off = 0;
            while (off + 22 <= have) {
                cr_assert_eq(stream[off], 0x43);
                cr_assert_eq(stream[off + 4], 16);
                cr_assert(stream[off + 10] == 1 || stream[off + 10] == 2);
                off += 22;
                whole++;
            }
            memmove(stream, stream + off, have - off);
            have -= off;
        }
        memcpy(stream + have, chunk, k);
        have += k;
        if (done && k == 0) {
            break;
        }
        if (!done && k == 0 &&
            __atomic_load_n(&shared_tx.messages, __ATOMIC_RELAXED) +
                    __atomic_load_n(&shared_tx.messages_dropped, __ATOMIC_RELAXED) ==
                40000u) {
            pthread_join(a, NULL);
            pthread_join(b, NULL);
            done = 1;
        }
    }
    for (size_t off = 0; off < have; off += 22) {
        cr_assert_leq(off + 22, have);
        cr_assert_eq(stream[off], 0x43);
        cr_assert(stream[off + 10] == 1 || stream[off + 10] == 2);
        whole++;
    }
    cr_assert_eq(shared_tx.messages + shared_tx.messages_dropped, 40000u);
    cr_assert_eq(whole + shared_tx.messages_lost, shared_tx.messages);
}

/* RAM and SyS-T together (evrec_syst_record): one timestamp in both. */
Test(syst_tx, record_into_ram_and_syst_with_one_timestamp)
{
    static uint8_t ram[4096] __attribute__((aligned(8)));
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, ram, sizeof ram), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &k_meta, 0), EVREC_OK);
    evrec_syst_tx_t tx;
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.timestamp = 1;
    init(&tx, 1024, &o, NULL);
    sensor_event_t e = k_sensor(0, 3, 4, 42);
    cr_assert_eq(evrec_syst_record(&host, &tx, K_SENSOR, &e), EVREC_OK);
    cr_assert_eq(evrec_syst_record(&host, NULL, K_SENSOR, &e), EVREC_OK);
    cr_assert_eq(evrec_syst_record(NULL, &tx, K_SENSOR, &e), EVREC_OK);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_syst_record(&host, NULL, K_SENSOR, &e), EVREC_E_NOT_RECORDING);
    cr_assert_eq(evrec_syst_record(&host, &tx, K_SENSOR, &e), EVREC_OK, "SyS-T alone still works");
    cr_assert_eq(evrec_syst_record(NULL, NULL, K_SENSOR, &e), EVREC_E_ARG);
    cr_assert_eq(evrec_syst_record(NULL, &tx, 7, &e), EVREC_E_BAD_ID);
    cr_assert_eq(evrec_recorder_counts(&rec).recorded, 4u); /* Start, 2 x Sensor, Stop */
    const sensor_event_t *r1 = (const sensor_event_t *)(const void *)(evrec_recorder_records(&rec) + 8);
    cr_assert_eq(r1->id, K_SENSOR);
    cr_assert_eq(r1->value, 42u);
    uint8_t got[256];
    size_t n = evrec_syst_tx_get_block(&tx, got, sizeof got);
    cr_assert_eq(n, 3u * 30u);
    uint32_t t = (uint32_t)got[6] | (uint32_t)got[7] << 8 | (uint32_t)got[8] << 16 | (uint32_t)got[9] << 24;
    cr_assert_eq(t, r1->time, "same timestamp in RAM and on the wire");
}
