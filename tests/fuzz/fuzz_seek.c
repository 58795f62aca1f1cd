/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the seek (format/FORMAT.md section 2.2, SYNC chunks, and section 2.5, the INDEX
 * chunk) and the ATTRS chunk (section 2.6), differentially. A container is read once record by
 * record; when that read meets no damage at all, evrec_reader_next_at() by record index and by
 * time, from a fresh reader each, must return exactly the record the linear read found first at
 * or after the target (index, time, event id), whatever the INDEX chunk says: "a record is never
 * lost or returned differently because of an index". evrec_reader_index_check() runs on every
 * input; the attributes the reader keeps must be what section 2.6 allows (keys of 1..32 bytes of
 * A-Z a-z 0-9 _ . -, each once, at most 64). An input runs as it is and with its header and chunk
 * CRCs recomputed (else a mutated INDEX or ATTRS chunk would only fail its CRC). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_reader_seek.h"
#include "fix_crcs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records kept from the linear read (a seek target beyond them is not checked). */
#define MAX_RECS 65536u

typedef struct lin {
    uint64_t index[MAX_RECS], t64[MAX_RECS];
    uint16_t id[MAX_RECS];
    size_t n;
    int clean; /* the read ended with EVREC_E_END and no damage */
} lin_t;

static lin_t lin;

static void check_attrs(const evrec_reader_t *r)
{
    uint32_t n = evrec_reader_attr_count(r);
    if (n > 64u) {
        fprintf(stderr, "%u attributes kept, at most 64 allowed\n", (unsigned)n);
        abort();
    }
    for (uint32_t i = 0; i < n; i++) {
        const char *k, *v;
        if (evrec_reader_attr(r, i, &k, &v) != EVREC_OK) {
            abort();
        }
        size_t kn = strlen(k);
        if (kn == 0 || kn > 32u ||
            strspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != kn ||
            strlen(v) > 255u || evrec_reader_attr_find(r, k) != v) {
            fprintf(stderr, "attribute %u '%s' breaks FORMAT.md section 2.6 (or comes twice)\n", (unsigned)i, k);
            abort();
        }
    }
}

/* Reads every record into `lin`. */
static void read_linear(const uint8_t *data, size_t size)
{
    evrec_reader_t *r = NULL;
    evrec_record_t rec;
    lin.n = 0;
    lin.clean = 0;
    if (evrec_reader_open_memory(&r, data, size, NULL) != EVREC_OK) {
        evrec_reader_close(r);
        return;
    }
    check_attrs(r);
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        if (lin.n < MAX_RECS) {
            lin.index[lin.n] = rec.index;
            lin.t64[lin.n] = rec.t64;
            lin.id[lin.n] = rec.id;
            lin.n++;
        }
    }
    lin.clean = st == EVREC_E_END && evrec_reader_damage_count(r) == 0 &&
                evrec_reader_info(r)->format == EVREC_FILE_CONTAINER;
    evrec_reader_close(r);
}

/* evrec_reader_next_at(min_index, min_t64) from a fresh reader against the linear read. */
static void seek_once(const uint8_t *data, size_t size, uint64_t min_index, uint64_t min_t64)
{
    size_t want = 0;
    while (want < lin.n && (lin.index[want] < min_index || lin.t64[want] < min_t64)) {
        want++;
    }
    if (want == lin.n && lin.n == MAX_RECS) {
        return; /* beyond what was kept */
    }
    evrec_reader_t *r = NULL;
    evrec_record_t rec;
    if (evrec_reader_open_memory(&r, data, size, NULL) != EVREC_OK) {
        abort(); /* it opened for the linear read */
    }
    evrec_status st = evrec_reader_next_at(r, &rec, min_index, min_t64);
    int ok = want == lin.n ? st == EVREC_E_END
                           : st == EVREC_OK && rec.index == lin.index[want] && rec.t64 == lin.t64[want] &&
                                 rec.id == lin.id[want];
    if (!ok) {
        fprintf(
            stderr,
            "seek to index %llu / t64 %llu: status %d, record %llu t64 %llu; the linear read gives %s %llu t64 "
            "%llu\n",
            (unsigned long long)min_index, (unsigned long long)min_t64, (int)st,
            (unsigned long long)(st == EVREC_OK ? rec.index : 0),
            (unsigned long long)(st == EVREC_OK ? rec.t64 : 0), want == lin.n ? "the end, after" : "record",
            (unsigned long long)(want < lin.n ? lin.index[want] : 0),
            (unsigned long long)(want < lin.n ? lin.t64[want] : 0));
        abort();
    }
    evrec_reader_close(r);
}

static void run(const uint8_t *data, size_t size)
{
    evrec_reader_t *r = NULL;
    if (evrec_reader_open_memory(&r, data, size, NULL) == EVREC_OK) {
        evrec_index_info_t info;
        (void)evrec_reader_index_check(r, &info);
        (void)evrec_reader_index_warning(r);
    }
    evrec_reader_close(r);
    read_linear(data, size);
    if (!lin.clean || lin.n == 0) {
        return;
    }
    size_t last = lin.n - 1u, pick[] = {1u, lin.n / 3u, lin.n / 2u, last - last / 8u, last};
    for (size_t i = 0; i < sizeof pick / sizeof pick[0]; i++) {
        size_t k = pick[i] < lin.n ? pick[i] : last;
        seek_once(data, size, lin.index[k], 0);
        seek_once(data, size, 0, lin.t64[k]);
        seek_once(data, size, 0, lin.t64[k] + 1u);
    }
    seek_once(data, size, lin.index[last] + 1u, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    uint8_t *copy = malloc(size ? size : 1);
    if (copy) {
        memcpy(copy, data, size);
        if (fix_crcs(copy, size) && memcmp(copy, data, size) != 0) {
            run(copy, size);
        }
        free(copy);
    }
    return 0;
}
