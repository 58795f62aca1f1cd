/* SPDX-License-Identifier: Apache-2.0 */
/* Writes small crafted evrec containers (format/FORMAT.md sections 1-3) whose meta-info stresses
 * the reader and the viewer: many run-time enums with wide ranges, tens of thousands of event
 * types, structs defined after their users, duplicate names, non-ascending enum values. The
 * files are made here instead of being committed (some are hundreds of KB).
 *
 * usage: craft_meta MODE N OUT
 *   runtime N     N enum_uint32 enums, each with 64 values 16384 apart inside a run-time range
 *                 [0, 2^20) (RUNTIME_ENUMS chunk): a reader that sizes run-time names by the
 *                 highest value instead of the bytes present needs 8 MB per enum (256 KB touched)
 *   types N       N event types (N - 1 besides EventControl), each with its own struct of one
 *                 u8 field and the class of the previous event, one record of each
 *   shared N      N event types (N - 1 besides EventControl) on one struct of 250 u8 fields, each
 *                 of the class of the previous event, no records (8 bytes per event type)
 *   nested N      N event types (N - 1 besides EventControl), each with its own struct holding
 *                 one struct that expands to 128 u8 leaves (7 levels of two fields): 40-odd
 *                 bytes per event type
 *   nested-rec N  the same with one record of each event type (128 bytes of leaves each): a
 *                 writer that keeps per-leaf tables per event type recorded holds them all
 *   structs N     N - 2 empty reusable structs besides EventControl and one event's struct (each
 *                 one a note of `evrec schema`: evrec-gen refuses empty structs)
 *   deep-late N   a chain of N nested structs, each defined BEFORE the struct it is nested in
 *                 (the deepest first), used by an event
 *   deep-early N  the same chain, each struct defined AFTER the struct it is nested in
 *   dup-struct 0  two reusable structs named Twin
 *   plain-ref 0   a plain uint8 field whose type id is 3 (FORMAT.md: 0 for plain integers)
 *   enum-desc 0   an enum_uint8 Phase whose values come in descending order, with markers;
 *                 one record per value
 *   enum-dup 0    an enum whose value 1 is named twice
 * The header's schema hash is 0 (not computed). Exit status 0, or 2 on bad usage / write error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_container.h"

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
} buf_t;

static void put(buf_t *b, const void *d, size_t n)
{
    if (n == 0) {
        return;
    }
    if (b->cap - b->len < n) {
        size_t c = b->cap ? b->cap : 4096;
        while (c - b->len < n) {
            c *= 2;
        }
        b->p = realloc(b->p, c);
        if (!b->p) {
            fprintf(stderr, "craft_meta: out of memory\n");
            exit(2);
        }
        b->cap = c;
    }
    memcpy(b->p + b->len, d, n);
    b->len += n;
}
static void u8(buf_t *b, uint32_t v)
{
    uint8_t x = (uint8_t)v;
    put(b, &x, 1);
}
static void u16(buf_t *b, uint32_t v)
{
    uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    put(b, x, 2);
}
static void u32(buf_t *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, x, 4);
}
static void str(buf_t *b, const char *s)
{
    u32(b, (uint32_t)strlen(s));
    put(b, s, strlen(s));
}

/* Enum EventControlType (enum 0) and struct EventControl (struct 0). */
static void control_enum(buf_t *b)
{
    static const char *const names[4] = {"Start", "Tick", "Stop", "End"};
    static const uint8_t markers[4] = {8, 13, 14, 0};
    u8(b, 3);
    str(b, "EventControlType");
    u32(b, 4);
    for (uint32_t v = 0; v < 4; v++) {
        u32(b, v);
        str(b, names[v]);
        u8(b, markers[v]);
    }
}
static void control_struct(buf_t *b)
{
    str(b, "EventControl");
    u32(b, 3);
    u8(b, 2), u16(b, 0), str(b, "time");
    u8(b, 1), u16(b, 0), str(b, "id");
    u8(b, 3), u16(b, 0), str(b, "type");
}
static void time_id(buf_t *b)
{
    u8(b, 2), u16(b, 0), str(b, "time");
    u8(b, 1), u16(b, 0), str(b, "id");
}
static void end_record(buf_t *b)
{
    u32(b, 0), u16(b, 0), u8(b, 3);
}

static void chunk(buf_t *out, uint32_t type, const buf_t *payload)
{
    uint8_t h[4] = {(uint8_t)type, (uint8_t)(payload->len >> 16), (uint8_t)(payload->len >> 8),
                    (uint8_t)payload->len};
    uint32_t crc = evrec_crc32c(0, h, 4);
    crc = evrec_crc32c(crc, payload->p, payload->len);
    put(out, h, 4);
    u32(out, crc);
    put(out, payload->p, payload->len);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: craft_meta MODE N OUT\n");
        return 2;
    }
    const char *mode = argv[1];
    uint32_t n = (uint32_t)strtoul(argv[2], NULL, 10);
    buf_t s = {0}, rt = {0};
    uint32_t records = 0;
    u32(&s, 0);
    u32(&s, 0); /* time_freq (u64) = 0 */
    if (strcmp(mode, "runtime") == 0) {
        u32(&s, n + 1);
        control_enum(&s);
        u32(&rt, n);
        for (uint32_t i = 1; i <= n; i++) {
            u8(&s, 5);
            str(&s, "R");
            u32(&s, 64);
            for (uint32_t k = 0; k < 64; k++) { /* one name per 16384 values: a page apart */
                u32(&s, k * 16384u);
                str(&s, "v");
                u8(&s, 0);
            }
            u32(&rt, i), u32(&rt, 0), u32(&rt, 1u << 20);
        }
        u32(&s, 1);
        control_struct(&s);
        u32(&s, 1);
        u16(&s, 0), u16(&s, 0), u32(&s, 7);
    } else if (strcmp(mode, "types") == 0 || strcmp(mode, "structs") == 0) {
        int types = mode[0] == 't';
        u32(&s, 1);
        control_enum(&s);
        u32(&s, n);
        control_struct(&s);
        for (uint32_t i = 1; i < n; i++) {
            char name[32];
            snprintf(name, sizeof name, "S%u", (unsigned)i);
            str(&s, name);
            if (types || i == n - 1) {
                u32(&s, 3);
                time_id(&s);
                u8(&s, 0), u16(&s, 0), str(&s, "v");
            } else {
                u32(&s, 0); /* empty: evrec schema notes each one */
            }
        }
        uint32_t events = types ? n : 2;
        u32(&s, events);
        u16(&s, 0), u16(&s, 0), u32(&s, 7);
        for (uint32_t e = 1; e < events; e++) {
            u16(&s, types ? e : n - 1), u16(&s, e > 1 ? e - 1 : e), u32(&s, 7);
        }
        for (uint32_t e = 1; types && e < events; e++) {
            u32(&s, e), u16(&s, e), u8(&s, e);
            records++;
        }
    } else if (strcmp(mode, "shared") == 0) {
        u32(&s, 1);
        control_enum(&s);
        u32(&s, 2);
        control_struct(&s);
        str(&s, "Wide");
        u32(&s, 252);
        time_id(&s);
        for (uint32_t f = 0; f < 250; f++) {
            char name[16];
            snprintf(name, sizeof name, "f%u", (unsigned)f);
            u8(&s, 0), u16(&s, 0), str(&s, name);
        }
        u32(&s, n);
        u16(&s, 0), u16(&s, 0), u32(&s, 7);
        for (uint32_t e = 1; e < n; e++) {
            u16(&s, 1), u16(&s, e > 1 ? e - 1 : e), u32(&s, 256);
        }
    } else if (strcmp(mode, "nested") == 0 || strcmp(mode, "nested-rec") == 0) {
        /* structs: 0 EventControl, 1..7 X1..X7 (X7 = {u8 a, u8 b}, Xk = {X(k+1) a, X(k+1) b}:
         * 128 u8 leaves in 30-odd bytes each), then N - 1 event structs {time, id, X1 x} */
        u32(&s, 1);
        control_enum(&s);
        u32(&s, 8 + n - 1);
        control_struct(&s);
        for (uint32_t k = 1; k <= 7; k++) {
            char name[16];
            snprintf(name, sizeof name, "X%u", (unsigned)k);
            str(&s, name);
            u32(&s, 2);
            u8(&s, k == 7 ? 0 : 6), u16(&s, k == 7 ? 0 : k + 1), str(&s, "a");
            u8(&s, k == 7 ? 0 : 6), u16(&s, k == 7 ? 0 : k + 1), str(&s, "b");
        }
        for (uint32_t e = 1; e < n; e++) {
            char name[16];
            snprintf(name, sizeof name, "E%u", (unsigned)e);
            str(&s, name);
            u32(&s, 3);
            time_id(&s);
            u8(&s, 6), u16(&s, 1), str(&s, "x");
        }
        u32(&s, n);
        u16(&s, 0), u16(&s, 0), u32(&s, 7);
        for (uint32_t e = 1; e < n; e++) {
            u16(&s, 7 + e), u16(&s, e), u32(&s, 6 + 128);
        }
        for (uint32_t e = 1; strcmp(mode, "nested-rec") == 0 && e < n; e++) {
            u32(&s, e), u16(&s, e);
            for (uint32_t k = 0; k < 128; k++) {
                u8(&s, (e + k) & 0xFFu);
            }
            records++;
        }
    } else if (strcmp(mode, "deep-late") == 0 || strcmp(mode, "deep-early") == 0) {
        int late = strcmp(mode, "deep-late") == 0;
        u32(&s, 1);
        control_enum(&s);
        /* struct ids: 0 EventControl, 1..n the chain D1 (in Ev) .. Dn (deepest), n + 1 Ev.
         * early: D_k is struct k; late: D_k is struct n + 1 - k (the deepest first). */
        u32(&s, n + 2);
        control_struct(&s);
        for (uint32_t pos = 1; pos <= n; pos++) {
            uint32_t depth = late ? n + 1 - pos : pos;
            char name[32];
            snprintf(name, sizeof name, "D%u", (unsigned)depth);
            str(&s, name);
            if (depth < n) {
                u32(&s, 2);
                u8(&s, 0), u16(&s, 0), str(&s, "x");
                u8(&s, 6), u16(&s, late ? pos - 1 : pos + 1), str(&s, "in");
            } else {
                u32(&s, 1);
                u8(&s, 0), u16(&s, 0), str(&s, "x");
            }
        }
        str(&s, "Ev");
        u32(&s, 3);
        time_id(&s);
        u8(&s, 6), u16(&s, late ? n : 1), str(&s, "d");
        u32(&s, 2);
        u16(&s, 0), u16(&s, 0), u32(&s, 7);
        u16(&s, n + 1), u16(&s, 1), u32(&s, 6 + n);
        u32(&s, 5), u16(&s, 1);
        for (uint32_t k = 0; k < n; k++) {
            u8(&s, k);
        }
        records++;
    } else if (strcmp(mode, "dup-struct") == 0 || strcmp(mode, "plain-ref") == 0) {
        int dup = mode[0] == 'd';
        u32(&s, 1);
        control_enum(&s);
        u32(&s, 4);
        control_struct(&s);
        str(&s, "Twin");
        u32(&s, 1);
        u8(&s, 0), u16(&s, 0), str(&s, "a");
        str(&s, dup ? "Twin" : "Other");
        u32(&s, 1);
        u8(&s, 1), u16(&s, 0), str(&s, "b");
        str(&s, "Ev");
        u32(&s, 5);
        time_id(&s);
        u8(&s, 0), u16(&s, dup ? 0 : 3), str(&s, "v");
        u8(&s, 6), u16(&s, 1), str(&s, "t1");
        u8(&s, 6), u16(&s, 2), str(&s, "t2");
        u32(&s, 2);
        u16(&s, 0), u16(&s, 0), u32(&s, 7);
        u16(&s, 3), u16(&s, 1), u32(&s, 10);
        u32(&s, 5), u16(&s, 1), u8(&s, 7), u8(&s, 1), u16(&s, 2);
        records++;
    } else if (strcmp(mode, "enum-desc") == 0 || strcmp(mode, "enum-dup") == 0) {
        int dup = strcmp(mode, "enum-dup") == 0;
        u32(&s, 2);
        control_enum(&s);
        u8(&s, 3);
        str(&s, "Phase");
        u32(&s, 3);
        u32(&s, 2), str(&s, "Late"), u8(&s, 2);
        u32(&s, 1), str(&s, "Mid"), u8(&s, 9);
        u32(&s, dup ? 1 : 0), str(&s, "Early"), u8(&s, 1);
        u32(&s, 2);
        control_struct(&s);
        str(&s, "Ev");
        u32(&s, 3);
        time_id(&s);
        u8(&s, 3), u16(&s, 1), str(&s, "phase");
        u32(&s, 2);
        u16(&s, 0), u16(&s, 0), u32(&s, 7);
        u16(&s, 1), u16(&s, 1), u32(&s, 7);
        for (uint32_t v = 0; v < 3; v++) {
            u32(&s, 10 * (v + 1)), u16(&s, 1), u8(&s, v);
            records++;
        }
    } else {
        fprintf(stderr, "craft_meta: unknown mode '%s'\n", mode);
        return 2;
    }
    end_record(&s);

    buf_t f = {0};
    uint8_t h[48] = {0x45, 0x56, 0x52, 0x43, 0x0D, 0x0A, 0x1A, 0x0A, 0, 1, 0, 0};
    uint64_t rec = records;
    for (int i = 0; i < 8; i++) {
        h[24 + i] = (uint8_t)(rec >> (56 - 8 * i));
    }
    uint32_t crc = evrec_crc32c(0, h, 44);
    h[44] = (uint8_t)(crc >> 24), h[45] = (uint8_t)(crc >> 16), h[46] = (uint8_t)(crc >> 8), h[47] = (uint8_t)crc;
    put(&f, h, 48);
    if (rt.len) {
        chunk(&f, EVREC_CHUNK_RUNTIME_ENUMS, &rt);
    }
    /* STREAM chunks of at most 16 KiB, as the host recorder writes them */
    for (size_t off = 0; off < s.len; off += 16384) {
        buf_t part = {s.p + off, s.len - off > 16384 ? 16384 : s.len - off, 0};
        chunk(&f, EVREC_CHUNK_STREAM, &part);
    }
    buf_t empty = {0};
    chunk(&f, EVREC_CHUNK_END, &empty);
    FILE *o = fopen(argv[3], "wb");
    if (!o || fwrite(f.p, 1, f.len, o) != f.len || fclose(o) != 0) {
        fprintf(stderr, "craft_meta: cannot write %s\n", argv[3]);
        return 2;
    }
    free(s.p);
    free(rt.p);
    free(f.p);
    return 0;
}
