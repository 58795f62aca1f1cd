/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the host QS decoder (format/qs/src: qs_parse.c, qs_dict.c, qs_format.c,
 * qs_decode.c) on one byte stream. The stream goes through
 *  1. the frame parser, every item into the dictionaries (target info, OBJ/FUN/SIG/ENUM/USR
 *     dictionaries) and the QSPY-style printer, into a roomy buffer and a tiny one (the text must
 *     be cut, never overrun), and every application record through the element parser;
 *  2. the event decoder against a fixed schema with every field kind (tests/qs/qs_test_meta.h),
 *     fed in odd-sized chunks (the frame layer must not depend on the chunking).
 * The stream runs twice: as it is, and with the checksum of every frame recomputed (each frame
 * un-escaped, its sequence number, record id and payload framed again with evrec_qs_frame()), so
 * that mutations get past the frame checksum into the record parsers.
 * Only what the API promises is asserted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_qs_decode.h"
#include "qs_test_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

typedef struct print_ctx {
    evrec_qs_dict_t dict;
    uint64_t acc;
    uint64_t items;
} print_ctx_t;

static void on_item(void *ctx, const evrec_qs_item_t *it)
{
    print_ctx_t *p = ctx;
    p->items++;
    if (it->kind == EVREC_QS_ITEM_RECORD) {
        (void)evrec_qs_dict_apply(&p->dict, it->rec_id, it->payload, it->len);
    }
    char line[1024], tiny[9];
    size_t n = evrec_qs_format_item(&p->dict, it, line, sizeof line);
    p->acc += n + strnlen(line, sizeof line);
    n = evrec_qs_format_item(&p->dict, it, tiny, sizeof tiny);
    if (n && strnlen(tiny, sizeof tiny) == sizeof tiny) {
        fprintf(stderr, "evrec_qs_format_item: text not terminated in a %zu-byte buffer\n", sizeof tiny);
        abort();
    }
    if (it->kind == EVREC_QS_ITEM_RECORD && it->rec_id >= 70) {
        evrec_qs_elem_t elems[32];
        size_t count = 0, bad = 0;
        uint32_t t = 0;
        if (evrec_qs_parse_user(it->payload, it->len, &p->dict.cfg, &t, elems, 32, &count, &bad) == EVREC_OK) {
            for (size_t i = 0; i < count; i++) {
                p->acc += elems[i].u + elems[i].len + elems[i].type;
                if (elems[i].data && elems[i].len) {
                    p->acc += elems[i].data[elems[i].len - 1];
                }
            }
        }
        p->acc += t + bad;
    }
    /* Lookups the printer makes, also for addresses it did not learn. */
    const char *s = evrec_qs_dict_obj(&p->dict, it->len);
    p->acc += s ? strlen(s) : 0;
    s = evrec_qs_dict_sig(&p->dict, it->rec_id, 0);
    p->acc += s ? strlen(s) : 0;
}

typedef struct dec_ctx {
    uint64_t acc;
} dec_ctx_t;

static void on_event(void *ctx, const evrec_qs_event_t *ev)
{
    dec_ctx_t *c = ctx;
    c->acc += ev->id + ev->time + ev->field_count;
    for (uint32_t i = 0; i < ev->field_count && i < EVREC_QS_MAX_FIELDS; i++) {
        c->acc += ev->values[i];
    }
}

static void on_dec_item(void *ctx, const evrec_qs_item_t *it)
{
    dec_ctx_t *c = ctx;
    c->acc += it->kind + it->len + (it->what ? strlen(it->what) : 0);
}

static void run(const uint8_t *data, size_t size);

/* The stream with every frame's checksum recomputed, into `out` (room for 4 * size + 16). */
static size_t reframe(const uint8_t *data, size_t size, uint8_t *out)
{
    uint8_t body[EVREC_QS_MAX_FRAME + 8];
    size_t n = 0, o = 0;
    int esc = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == 0x7E) {
            if (n >= 3) { /* seq, record id, payload, checksum */
                o += evrec_qs_frame(body[0], body[1], body + 2, n - 3, out + o, 2 * (n + 3) + 1);
            }
            n = 0;
            esc = 0;
            continue;
        }
        uint8_t b = data[i];
        if (b == 0x7D && !esc) {
            esc = 1;
            continue;
        }
        if (esc) {
            b ^= 0x20;
            esc = 0;
        }
        if (n < EVREC_QS_MAX_FRAME) {
            body[n++] = b;
        }
    }
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    uint8_t *framed = malloc(4 * size + 16);
    if (framed) {
        size_t n = reframe(data, size, framed);
        if (n != size || memcmp(framed, data, size) != 0) {
            run(framed, n);
        }
        free(framed);
    }
    return 0;
}

static void run(const uint8_t *data, size_t size)
{
    /* 1. Parser, dictionaries, printer. */
    print_ctx_t *p = calloc(1, sizeof *p);
    evrec_qs_parser_t *parser = malloc(sizeof *parser);
    if (!p || !parser) {
        free(p);
        free(parser);
        return;
    }
    evrec_qs_dict_init(&p->dict);
    evrec_qs_parser_init(parser);
    evrec_qs_parser_feed(parser, data, size, on_item, p);
    if (parser->offset != size) {
        fprintf(stderr, "parser consumed %llu of %zu bytes\n", (unsigned long long)parser->offset, size);
        abort();
    }
    uint64_t acc = p->acc + parser->records + parser->gaps;
    evrec_qs_dict_free(&p->dict);
    free(p);
    free(parser);

    /* 2. The event decoder with the every-kind schema, in chunks of 1, 2, 3 ... bytes. */
    static uint32_t entries[1024]; /* the map entries and the fast encoder's programs */
    evrec_qs_map_t map;
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.field_display = k_display;
    o.objects = k_objects;
    o.object_count = 2;
    o.functions = k_functions;
    o.function_count = 1;
    o.local_id_field = "task";
    if (evrec_qs_map_entries_size(&k_meta) > sizeof entries ||
        evrec_qs_map_init(&map, &k_meta, &o, entries, sizeof entries) != EVREC_OK) {
        abort();
    }
    evrec_qs_decoder_t *d = malloc(sizeof *d);
    dec_ctx_t c = {0};
    if (d && evrec_qs_decoder_init(d, &map, on_event, on_dec_item, &c) == EVREC_OK) {
        size_t off = 0, step = 1;
        while (off < size) {
            size_t n = size - off < step ? size - off : step;
            evrec_qs_decoder_feed(d, data + off, n);
            off += n;
            step = step % 13 + 1;
        }
        acc += c.acc + d->events + d->mismatches + d->foreign;
        evrec_qs_decoder_free(d);
    }
    free(d);
    sink = acc;
}
