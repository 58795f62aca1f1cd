/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the host SyS-T decoder (format/syst/src: syst_parse.c, syst_format.c,
 * syst_decode.c) on one byte stream. The stream goes through
 *  1. the binary parser (messages split by LEN, resynchronisation after a message without LEN),
 *     fed whole and in odd-sized chunks: the two must report the same items (problem, offset,
 *     size, index) -- the message layer must not depend on the chunking;
 *  2. the same for the text form (`SYS-T RAW DATA: <hex>` lines);
 *  3. every item printed as its CSV line into a roomy buffer and a tiny one (the text must be
 *     cut, never overrun), with the message's pointers checked to lie inside its bytes;
 *  4. the whole input as one message (evrec_syst_msg_parse, exact and not);
 *  5. the event decoder against a fixed schema with every field kind (tests/qs/qs_test_meta.h)
 *     with 32- and 64-bit catalog maps.
 * Only what the API promises is asserted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_syst_decode.h"
#include "qs_test_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_syst: %s\n", what);
    abort();
}

typedef struct trace {
    uint64_t hash; /* of (problem, offset, size, index, line) of every item */
    uint64_t items;
    int print; /* format every item */
    uint64_t acc;
} trace_t;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0x100000001B3ull;
}

static void check_msg(const evrec_syst_msg_t *m, int stream)
{
    /* the parsers never deliver more than one message's bytes (a whole input given to
     * evrec_syst_msg_parse() as one message may be longer: a LENGTH problem) */
    if (stream && m->size > EVREC_SYST_DEC_MAX_MESSAGE) {
        fail("a message larger than the largest SyS-T message");
    }
    /* a payload is always inside the message's bytes */
    if (m->payload && (m->payload < m->bytes || m->payload + m->payload_len > m->bytes + m->size)) {
        fail("payload outside the message");
    }
}

static void on_item(void *ctx, const evrec_syst_item_t *it)
{
    trace_t *t = ctx;
    t->items++;
    t->hash = mix(t->hash, (uint64_t)it->problem);
    t->hash = mix(t->hash, it->offset);
    t->hash = mix(t->hash, it->size);
    t->hash = mix(t->hash, it->index);
    t->hash = mix(t->hash, it->line);
    if (it->msg) {
        check_msg(it->msg, 1);
        t->hash = mix(t->hash, it->msg->header);
        t->hash = mix(t->hash, it->msg->payload_len);
    }
    if (!t->print) {
        return;
    }
    static char line[4 * EVREC_SYST_DEC_MAX_MESSAGE + 1024];
    char tiny[9];
    size_t n = evrec_syst_format_item(it, line, sizeof line);
    if (n >= sizeof line) {
        fail("a CSV line longer than 4 bytes per message byte");
    }
    if (strlen(line) != n) {
        fail("evrec_syst_format_item: length and text disagree");
    }
    size_t m = evrec_syst_format_item(it, tiny, sizeof tiny);
    if (m != n || strnlen(tiny, sizeof tiny) == sizeof tiny || memcmp(tiny, line, strlen(tiny)) != 0) {
        fail("evrec_syst_format_item: a cut line is not the start of the whole one");
    }
    if (memchr(line, '\n', n)) {
        fail("a newline inside one message's line");
    }
    t->acc += n;
}

static void parse(const uint8_t *data, size_t size, evrec_syst_input input, evrec_syst_parser_t *p,
                  size_t first_step, trace_t *t)
{
    evrec_syst_parser_init(p, input);
    if (first_step == 0) {
        evrec_syst_parser_feed(p, data, size, on_item, t);
    } else {
        size_t off = 0, step = first_step;
        while (off < size) {
            size_t n = size - off < step ? size - off : step;
            evrec_syst_parser_feed(p, data + off, n, on_item, t);
            off += n;
            step = step % 17 + 1;
        }
    }
    if (p->offset != size) {
        fprintf(stderr, "parser consumed %llu of %zu bytes\n", (unsigned long long)p->offset, size);
        abort();
    }
    evrec_syst_parser_finish(p, on_item, t);
}

typedef struct dec_ctx {
    uint64_t acc;
} dec_ctx_t;

static void on_event(void *ctx, const evrec_syst_event_t *ev)
{
    dec_ctx_t *c = ctx;
    if (ev->id >= k_meta.event_count) {
        fail("an event id outside the meta-info");
    }
    c->acc += ev->id + ev->timestamp + ev->field_count + ev->native[ev->field_count % EVREC_MAX_EVENT_SIZE];
}

static void on_dec_item(void *ctx, const evrec_syst_item_t *it)
{
    dec_ctx_t *c = ctx;
    c->acc += it->problem + it->size + (it->what ? strlen(it->what) : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evrec_syst_parser_t *p = malloc(sizeof *p);
    if (!p) {
        return 0;
    }
    uint64_t acc = 0;
    for (int input = 0; input < 2; input++) {
        trace_t whole = {0, 0, 1, 0}, chunked = {0, 0, 0, 0};
        parse(data, size, (evrec_syst_input)input, p, 0, &whole);
        uint64_t good = p->good, messages = p->messages;
        parse(data, size, (evrec_syst_input)input, p, 1 + size % 7, &chunked);
        if (whole.items != chunked.items || whole.hash != chunked.hash || good != p->good ||
            messages != p->messages) {
            fprintf(stderr, "%s form: %llu items whole, %llu in chunks\n", input ? "text" : "binary",
                    (unsigned long long)whole.items, (unsigned long long)chunked.items);
            abort();
        }
        acc += whole.acc + whole.items;
    }
    free(p);

    /* The input as one message. */
    evrec_syst_msg_t m;
    char text[256];
    for (int exact = 0; exact < 2; exact++) {
        const char *what = NULL;
        evrec_syst_problem pr = evrec_syst_msg_parse(data, size, exact, &m, &what);
        if ((unsigned)pr >= EVREC_SYST_P_COUNT_ || (pr != EVREC_SYST_OK && !what)) {
            fail("evrec_syst_msg_parse: a problem without its explanation");
        }
        if (size >= 4) {
            check_msg(&m, 0);
            acc += evrec_syst_payload_text(&m, text, sizeof text);
            evrec_syst_type_name(&m, text, sizeof text);
            acc += strlen(text);
        }
        size_t need = 0;
        acc += (uint64_t)evrec_syst_msg_size(data, size, &need) + need;
    }

    /* The event decoder with the every-kind schema. */
    static uint64_t e32[64], e64[64];
    evrec_syst_map_t m32, m64;
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    if (evrec_syst_map_init(&m32, &k_meta, &o, e32, sizeof e32, NULL) != EVREC_OK) {
        abort();
    }
    o.id64 = 1;
    if (evrec_syst_map_init(&m64, &k_meta, &o, e64, sizeof e64, NULL) != EVREC_OK) {
        abort();
    }
    evrec_syst_decoder_t *d = malloc(sizeof *d);
    dec_ctx_t c = {0};
    if (d && evrec_syst_decoder_init(d, &m32, &m64, EVREC_SYST_BINARY, on_event, on_dec_item, &c) == EVREC_OK) {
        evrec_syst_decoder_feed(d, data, size);
        evrec_syst_decoder_finish(d);
        acc += c.acc + d->events + d->unknown_ids + d->bad_args;
    }
    free(d);
    sink = acc;
    return 0;
}
