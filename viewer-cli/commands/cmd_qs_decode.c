/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec qs-decode STREAM [--meta FILE.evr] [-o OUT.evr]`: parse a QP/Spy (QS) byte stream (a
 * file, or standard input for a live pipe), resynchronise after damage, count bad checksums and
 * sequence gaps, and print the records (QSPY-style, or like `evrec dump`) or write the events
 * back as an evrec file with the losses counted as drops (format/qs/QS.md "Decoder"). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_event_types.h"
#include "cli_events.h"
#include "cli_qs.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_qs_decode.h"
#include "evrec/evrec_save.h"

static const char help[] =
    "usage: evrec qs-decode [--meta FILE.evr | --schema S.yaml] [-o OUT.evr] [--qspy] [--classes]\n"
    "                       [--enum-as HOW] [--time-freq HZ] [--max-errors N] STREAM\n"
    "\n"
    "Decode a QP/Spy (QS) byte stream: STREAM is a file, or '-' for standard input (a live\n"
    "pipe, e.g. from a serial port set to raw mode). Frames are un-escaped and checksummed;\n"
    "after damage the decoder resynchronises at the next 0x7E flag. Bad checksums, sequence\n"
    "gaps (with the number of frames they lost), over-long frames and records that do not fit\n"
    "the schema are reported on stderr with their stream offset, and counted in a summary line.\n"
    "\n"
    "Without --meta: any QS stream (QP or evrec-made); prints every record as QSPY 7.4 does\n"
    "(dictionaries, 'TIME NAME elements...', '<COMMS> ERROR' lines).\n"
    "With --meta FILE.evr: the stream's records are evrec events of the schema FILE was\n"
    "recorded with (same event types, any recording); they are printed like 'evrec dump'\n"
    "(time since the first event from FILE's timestamp frequency, event, class, fields, marker),\n"
    "or with -o written as an evrec file whose header counts the frames lost, and the records\n"
    "that EVREC_LOST records (id 122) announce, as dropped events. Run-time enum names (e.g.\n"
    "thread names) are FILE's, replaced by those the stream announces (QS_ENUM_DICT records,\n"
    "inline 'name#value' elements): the printed lines and the -o file carry the stream's names.\n"
    "With --schema S.yaml: the same, with the event types of an evrec-gen schema (time_freq\n"
    "from the schema or --time-freq; a schema has no run-time names: only the stream's).\n"
    "\n"
    "options:\n"
    "  --meta FILE       take the event types (and time_freq) from an evrec or CCore file\n"
    "  --schema S.yaml   take the event types from a YAML schema instead\n"
    "  -o, --output OUT  write the decoded events as an evrec container (needs --meta or --schema)\n"
    "  --qspy            print QSPY-style lines even with --meta\n"
    "  --classes         the stream was made with one record id per event class\n"
    "                    ('evrec qs --classes'); automatic with more than 22 event types\n"
    "  --enum-as HOW     the stream was made with 'evrec qs --enum-as HOW' (auto, groups,\n"
    "                    strings, int; the QS enum groups follow it)\n"
    "  --time-freq HZ    timestamp frequency to use instead of FILE's\n"
    "  --max-errors N    error lines to print on stderr (default 20; the counts are complete)\n"
    "  -h, --help        this text\n"
    "\n"
    "Timestamps: 4-byte QS timestamps are the recorded 32-bit time; 2- and 1-byte ones are\n"
    "restored exactly from the stream's time-sync records (id 123, sent by 'evrec qs' and the\n"
    "live transmitter); a record whose time cannot be restored (no time sync since the start\n"
    "or since a damaged frame) is reported and skipped, never given a wrong time.\n"
    "Lost frames are known from 8-bit sequence numbers: a run of 256 or more lost frames is\n"
    "undercounted by a multiple of 256.\n"
    "\n"
    "Exit status: 0 the stream was intact, 1 damage or losses were found (everything intact\n"
    "was still decoded) or a file could not be read or written, 2 bad usage.\n";

typedef struct dec_opts {
    cli_decode_opts_t d; /* STREAM, --meta/--schema, -o, --time-freq, --max-errors */
    int qspy;
    int classes;
    uint8_t enum_as;
} dec_opts_t;

static int parse(int argc, char **argv, dec_opts_t *o)
{
    enum { OPT_QSPY = 256, OPT_CLASSES, OPT_ENUM_AS };
    static const struct option longopts[] = {
        CLI_DECODE_LONGOPTS,
        {"qspy", no_argument, NULL, OPT_QSPY},
        {"classes", no_argument, NULL, OPT_CLASSES},
        {"enum-as", required_argument, NULL, OPT_ENUM_AS},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_decode_begin(&o->d);
    int c, rc;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_QSPY: o->qspy = 1; break;
        case OPT_CLASSES: o->classes = 1; break;
        case OPT_ENUM_AS:
            if (cli_qs_parse_enum_as(optarg, &o->enum_as) != 0) {
                return cli_usage_error(&cli_cmd_qs_decode,
                                       "--enum-as expects auto, groups, strings or int, not '%s'", optarg);
            }
            break;
        default:
            if ((rc = cli_decode_option(&cli_cmd_qs_decode, &o->d, c, argv)) >= 0) {
                return rc;
            }
        }
    }
    return cli_decode_end(&cli_cmd_qs_decode, &o->d, argc, argv);
}

/* ---- run-time names from the stream ----------------------------------------------------------- */

/* The meta-info the events are printed and written with: --meta's tables, but each run-time enum
 * gets its own name table, filled with FILE's run-time names and then with the names the stream
 * announces (QS_ENUM_DICT records and inline `name#value` elements; they win), so that dump
 * lines and the -o file's RUNTIME_ENUMS carry the stream's names. */
typedef struct live_enum {
    evrec_runtime_enum_t rt;
    const char **names; /* names[v - base], cap entries */
    uint8_t *src;       /* per value: 0 none, 1 FILE, 2 inline (maybe cut), 3 dictionary */
    char **own;         /* strings this table allocated, per value */
    size_t cap;
} live_enum_t;

typedef struct live_meta {
    evrec_meta_t meta;
    evrec_enum_desc_t *enums;
    live_enum_t *le;      /* per enum; rt used only where the meta-info has a run-time range */
    uint64_t span, named; /* the reader's budget: spans <= EVREC_READER_MAX_RUNTIME_SPAN + 4 per name */
    uint64_t refused;     /* names not kept (over that budget, or out of memory) */
    uint64_t changed;     /* stream names that replaced a different FILE name */
} live_meta_t;

static int live_set(live_meta_t *l, uint32_t eid, uint32_t v, const char *name, size_t len, uint8_t src)
{
    live_enum_t *e = &l->le[eid];
    uint32_t k = v - e->rt.base;
    if (k < e->cap && e->src[k] > src) {
        return 1; /* a better source named it already (a dictionary name beats a cut inline one) */
    }
    if (k < e->cap && e->names[k] && strlen(e->names[k]) == len && memcmp(e->names[k], name, len) == 0) {
        e->src[k] = src > e->src[k] ? src : e->src[k];
        return 1;
    }
    size_t top = e->rt.next - e->rt.base;
    if (k >= top) {
        uint64_t grow = (uint64_t)k + 1u - top + (top == 0);
        if (l->span + grow > EVREC_READER_MAX_RUNTIME_SPAN + 4u * (l->named + 1u)) {
            l->refused++;
            return 0;
        }
    }
    if (k >= e->cap) {
        size_t cap = e->cap ? e->cap : 16;
        while (cap <= k) {
            cap *= 2;
        }
        const char **n = realloc(e->names, cap * sizeof *n);
        if (n) {
            e->names = n;
            e->rt.names = n; /* the old array is gone */
        }
        uint8_t *sr = n ? realloc(e->src, cap) : NULL;
        if (sr) {
            e->src = sr;
        }
        char **ow = sr ? realloc(e->own, cap * sizeof *ow) : NULL;
        if (!ow) {
            l->refused++;
            return 0;
        }
        e->own = ow;
        memset(e->names + e->cap, 0, (cap - e->cap) * sizeof *e->names);
        memset(e->src + e->cap, 0, cap - e->cap);
        memset(e->own + e->cap, 0, (cap - e->cap) * sizeof *e->own);
        e->cap = cap;
        e->rt.names = e->names;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        l->refused++;
        return 0;
    }
    memcpy(copy, name, len);
    copy[len] = 0;
    if (e->src[k] == 1 && src > 1) {
        l->changed++;
    }
    l->named += e->names[k] == NULL;
    free(e->own[k]);
    e->own[k] = copy;
    e->names[k] = copy;
    e->src[k] = src;
    if (k >= top) {
        l->span += (uint64_t)k + 1u - top + (top == 0);
        e->rt.next = (size_t)e->rt.base + k + 1u;
    }
    return 1;
}

/* Copies m's tables; every run-time enum starts with m's run-time names (source FILE). */
static int live_init(live_meta_t *l, const evrec_meta_t *m)
{
    memset(l, 0, sizeof *l);
    l->meta = *m;
    uint32_t n = m->enum_count ? m->enum_count : 1;
    l->enums = malloc(n * sizeof *l->enums);
    l->le = calloc(n, sizeof *l->le);
    if (!l->enums || !l->le) {
        return 0;
    }
    memcpy(l->enums, m->enums, m->enum_count * sizeof *l->enums);
    l->meta.enums = l->enums;
    for (uint32_t i = 0; i < m->enum_count; i++) {
        const evrec_runtime_enum_t *rt = m->enums[i].runtime;
        if (!rt) {
            continue;
        }
        live_enum_t *e = &l->le[i];
        e->rt.base = rt->base;
        e->rt.lim = rt->lim;
        e->rt.marker = rt->marker;
        e->rt.names = NULL;
        e->rt.next = rt->base;
        l->enums[i].runtime = &e->rt;
        size_t next = evrec_atomic_load(&rt->next);
        size_t top = next < rt->lim ? next : rt->lim;
        for (size_t v = rt->base; rt->names && v < top; v++) {
            const char *name = rt->names[v - rt->base];
            if (name) {
                live_set(l, i, (uint32_t)v, name, strlen(name), 1);
            }
        }
    }
    return 1;
}

static void live_free(live_meta_t *l)
{
    for (uint32_t i = 0; l->le && i < l->meta.enum_count; i++) {
        live_enum_t *e = &l->le[i];
        for (size_t k = 0; e->own && k < e->cap; k++) {
            free(e->own[k]);
        }
        free(e->own);
        free(e->names);
        free(e->src);
    }
    free(l->le);
    free(l->enums);
    memset(l, 0, sizeof *l);
}

/* ---- the state of one run ------------------------------------------------------------------ */

typedef struct dec {
    const dec_opts_t *o;
    const evrec_meta_t *meta; /* NULL without --meta; else &live.meta */
    live_meta_t live;         /* --meta's tables with the stream's run-time names */
    evrec_qs_decoder_t *d;    /* with --meta */
    evrec_qs_parser_t *p;     /* the parser in use (d->parser or a bare one) */
    evrec_qs_dict_t dict;     /* without --meta */
    uint64_t errors_shown;
    uint64_t mismatches;
    int print_events; /* dump-like lines */
    int print_qspy;   /* QSPY lines */
    cli_buf_t line;
    cli_enum_index_t enums; /* enum names of the dump-like lines (this run) */
    /* time: 32-bit restoration of short timestamps, then 64-bit restoration */
    int have_time;
    uint32_t last_raw, last32;
    uint64_t t64;
    uint64_t freq;
    /* dump-like columns */
    size_t wname, wclass;
    /* decoded records for -o: native records at the meta's offsets, 4-byte slots */
    cli_evr_records_t out;
} dec_t;

/* One problem of the stream on stderr, up to --max-errors (cli_decode_error()). */
#define error_line(s, ...) cli_decode_error(&(s)->o->d, &(s)->errors_shown, __VA_ARGS__)

/* ---- callbacks ----------------------------------------------------------------------------- */

static void on_event(void *ctx, const evrec_qs_event_t *ev)
{
    dec_t *s = ctx;
    /* 32-bit time from the wire timestamp (exact with 4 bytes), then 64-bit time since the first */
    unsigned ts = s->d->dict.cfg.time_size;
    uint32_t mask = ts >= 4 ? 0xFFFFFFFFu : (1u << (8u * ts)) - 1u;
    uint32_t t32;
    if (!s->have_time) {
        t32 = ev->time;
        s->t64 = 0;
        s->have_time = 1;
    } else {
        /* A full 32-bit time (4-byte stamps, or restored from a time sync) follows the reader's
         * rule (a small step back between concurrent contexts), so times equal 'evrec dump'; a
         * bare 1- or 2-byte stamp only moves forward. */
        int full = ts >= 4 || ev->time_exact;
        t32 = full ? ev->time : s->last32 + ((ev->time - s->last_raw) & mask);
        s->t64 = full ? evrec_time_extend(s->t64, s->last32, t32) : s->t64 + (uint32_t)(t32 - s->last32);
    }
    s->last_raw = ev->time;
    s->last32 = t32;
    const evrec_meta_t *m = s->meta;
    const evrec_struct_desc_t *st = &m->structs[m->events[ev->id].struct_id];
    int is_end = ev->id == EVREC_CONTROL_EVENT_ID && st->field_count > 2 &&
                 ev->native[st->fields[2].offset] == EVREC_CONTROL_END;
    if (s->o->d.out && !is_end) {
        uint8_t native[EVREC_MAX_EVENT_SIZE];
        memcpy(native, ev->native, sizeof native);
        memcpy(native, &t32, 4);
        cli_evr_keep(&s->out, native, ev->id);
    }
    if (s->print_events) {
        s->line.len = 0;
        cli_event_line(&s->line, &s->enums, m, ev->native, ev->id, s->t64, s->freq, s->wname, s->wclass);
        fwrite(s->line.p, 1, s->line.len, stdout);
    }
}

static void on_name(void *ctx, uint32_t enum_id, uint32_t value, const char *name, size_t len, int from_dict)
{
    dec_t *s = ctx;
    (void)live_set(&s->live, enum_id, value, name, len, from_dict ? 3 : 2);
}

static void on_item(void *ctx, const evrec_qs_item_t *it)
{
    dec_t *s = ctx;
    const evrec_qs_dict_t *dict = s->d ? &s->d->dict : &s->dict;
    if (!s->d && it->kind == EVREC_QS_ITEM_RECORD) {
        if (evrec_qs_dict_apply(&s->dict, it->rec_id, it->payload, it->len) != EVREC_OK) {
            error_line(s,
                       "offset %llu: record %u (seq %u): a dictionary or target-info record that does not parse",
                       (unsigned long long)it->offset, it->rec_id, it->seq);
            s->mismatches++;
        }
    }
    if (s->print_qspy) {
        char line[2048];
        size_t n = evrec_qs_format_item(dict, it, line, sizeof line);
        if (n) {
            fwrite(line, 1, n < sizeof line ? n : sizeof line - 1, stdout);
            fputc('\n', stdout);
        }
        if (it->kind != EVREC_QS_ITEM_SKIPPED) {
            return; /* QSPY's text already has the error lines */
        }
    }
    switch (it->kind) {
    case EVREC_QS_ITEM_BAD_CHECKSUM:
        error_line(s, "offset %llu: bad checksum (record %u after seq %u): frame dropped",
                   (unsigned long long)it->offset, it->rec_id, it->seq);
        break;
    case EVREC_QS_ITEM_TOO_SHORT:
        error_line(s, "offset %llu: a frame of fewer than 3 bytes (seq, record id, checksum): dropped",
                   (unsigned long long)it->offset);
        break;
    case EVREC_QS_ITEM_TOO_LONG:
        error_line(s, "offset %llu: a frame of %zu bytes, more than the 512 QSPY accepts: dropped",
                   (unsigned long long)it->offset, it->len);
        break;
    case EVREC_QS_ITEM_GAP:
        error_line(s, "offset %llu: sequence gap %u -> %u: %u frame%s lost", (unsigned long long)it->offset,
                   it->seq, it->seq_to, (unsigned)(uint8_t)(it->seq_to - it->seq - 1u),
                   (uint8_t)(it->seq_to - it->seq - 1u) == 1 ? "" : "s");
        break;
    case EVREC_QS_ITEM_MISMATCH:
        error_line(s, "offset %llu: record %u (seq %u) does not fit the event types of %s: %s",
                   (unsigned long long)it->offset, it->rec_id, it->seq, s->o->d.meta_path, it->what);
        break;
    case EVREC_QS_ITEM_SKIPPED:
        cli_error("%s: note: %zu bytes before the first good frame skipped (the stream starts mid-frame)",
                  s->o->d.stream, it->len);
        break;
    case EVREC_QS_ITEM_RECORD: break;
    }
}

/* ---- run ------------------------------------------------------------------------------------- */

/* With --meta or --schema: the QS id map of the event types and the decoder over it. -1 when
 * ready, else the exit code (reported; what was set up is freed by release()). */
static int setup_events(dec_t *s, const dec_opts_t *o, const cli_event_types_t *types, cli_qs_map_t *qm)
{
    evrec_qs_options_t qo;
    memset(&qo, 0, sizeof qo);
    qo.force_classes = (uint8_t)o->classes;
    qo.enum_as = o->enum_as;
    evrec_status st = cli_qs_map_build(qm, s->meta, &qo);
    if (st != EVREC_OK) {
        cli_error("%s: its event types cannot be QS records: %s", o->d.meta_path,
                  st == EVREC_E_NOMEM ? "out of memory" : "an event needs more than 509 bytes of QS payload");
        return CLI_BAD_INPUT;
    }
    if (!(s->d = malloc(sizeof *s->d)) || !live_init(&s->live, s->meta)) {
        cli_error("out of memory");
        free(s->d);
        s->d = NULL;
        return CLI_BAD_INPUT;
    }
    evrec_qs_decoder_init(s->d, &qm->map, on_event, on_item, s);
    s->d->on_name = on_name;
    s->meta = &s->live.meta;
    s->p = &s->d->parser;
    const evrec_reader_t *r = types->r;
    s->freq = o->d.clock.time_freq ? o->d.clock.time_freq
              : r                  ? evrec_reader_info(r)->time_freq
                                   : s->meta->time_freq;
    s->print_qspy = o->qspy;
    s->print_events = !o->qspy && !o->d.out;
    cli_event_columns(s->meta, &s->wname, &s->wclass);
    s->out.meta = s->meta;
    return -1;
}

/* Without them: the frames and dictionaries only, printed as QSPY does. */
static int setup_frames(dec_t *s)
{
    if (!(s->p = malloc(sizeof *s->p))) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    evrec_qs_parser_init(s->p);
    evrec_qs_dict_init(&s->dict);
    s->print_qspy = 1;
    return -1;
}

/* Feed the whole stream (a file or standard input, a live pipe too) to the parser or decoder. */
static int read_stream(dec_t *s, const char *stream)
{
    int fd = strcmp(stream, "-") == 0 ? STDIN_FILENO : open(stream, O_RDONLY);
    if (fd < 0) {
        cli_error("%s: %s", stream, strerror(errno));
        return CLI_BAD_INPUT;
    }
    int result = CLI_OK;
    static uint8_t chunk[1 << 16];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            cli_error("%s: offset %llu: read failed: %s", stream, (unsigned long long)s->p->offset,
                      strerror(errno));
            result = CLI_BAD_INPUT;
            break;
        }
        if (n == 0) {
            break;
        }
        if (s->d) {
            evrec_qs_decoder_feed(s->d, chunk, (size_t)n);
        } else {
            evrec_qs_parser_feed(s->p, chunk, (size_t)n, on_item, s);
        }
        fflush(stdout); /* live pipe: show what arrived */
    }
    if (fd != STDIN_FILENO) {
        close(fd);
    }
    return result;
}

/* The counts on stderr (and the file written with -o); returns the exit code. */
static int finish(dec_t *s, const dec_opts_t *o, int result)
{
    /* A stream that ends without a flag leaves a partial frame: report it as cut off. */
    const evrec_qs_parser_t *p = s->p;
    uint64_t pending = p->offset - p->frame_start;
    uint64_t mism = s->d ? s->d->mismatches : s->mismatches;
    uint64_t damage = p->bad_checksums + p->gaps + p->too_short + p->too_long + mism + (pending != 0);
    if (pending) {
        error_line(s, "offset %llu: the stream ends inside a frame (%llu bytes without the closing 0x7E flag)",
                   (unsigned long long)p->frame_start, (unsigned long long)pending);
    }
    if (!cli_stdout_done(1)) {
        result = CLI_BAD_INPUT;
    }
    uint64_t rec_lost = s->d ? s->d->lost_dropped + s->d->lost_overwritten : 0;
    uint64_t lost = p->frames_lost + mism + rec_lost;
    if (o->d.out && result == CLI_OK && cli_evr_write(&s->out, o->d.out, s->freq, lost) != 0) {
        result = CLI_BAD_INPUT;
    }
    fprintf(stderr,
            "evrec: %s: %llu bytes, %llu frames, %llu events%s; %llu bad checksums, %llu sequence gaps "
            "(%llu frames lost), %llu too short, %llu too long, %llu not fitting the schema%s\n",
            o->d.stream, (unsigned long long)p->offset, (unsigned long long)p->records,
            (unsigned long long)(s->d ? s->d->events : 0), s->d ? "" : " (no --meta: not decoded as events)",
            (unsigned long long)p->bad_checksums, (unsigned long long)p->gaps, (unsigned long long)p->frames_lost,
            (unsigned long long)p->too_short, (unsigned long long)p->too_long, (unsigned long long)mism,
            pending ? ", cut off at the end" : "");
    if (s->d && (s->live.refused || s->live.changed)) {
        fprintf(stderr,
                "evrec: %s: run-time names: %llu named differently than in %s (the stream's kept), %llu not kept "
                "(values too far apart, or out of memory)\n",
                o->d.stream, (unsigned long long)s->live.changed, o->d.meta_path,
                (unsigned long long)s->live.refused);
    }
    if (s->d && s->d->lost_reports) {
        fprintf(stderr,
                "evrec: %s: %llu EVREC_LOST records: %llu records dropped and %llu overwritten by the recorder\n",
                o->d.stream, (unsigned long long)s->d->lost_reports, (unsigned long long)s->d->lost_dropped,
                (unsigned long long)s->d->lost_overwritten);
    }
    if (o->d.out && result == CLI_OK) {
        fprintf(stderr, "evrec: %s: %llu records written, %llu counted as dropped\n", o->d.out,
                (unsigned long long)s->out.count, (unsigned long long)lost);
    }
    return damage && result == CLI_OK ? CLI_BAD_INPUT : result;
}

static void release(dec_t *s, cli_qs_map_t *qm, cli_event_types_t *types)
{
    if (s->d) {
        evrec_qs_decoder_free(s->d);
        free(s->d);
    } else {
        evrec_qs_dict_free(&s->dict);
        free(s->p);
    }
    cli_evr_free(&s->out);
    cli_buf_free(&s->line);
    cli_enum_index_free(&s->enums);
    cli_qs_map_free(qm);
    live_free(&s->live);
    cli_event_types_free(types);
}

static int run(int argc, char **argv)
{
    dec_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    dec_t s;
    memset(&s, 0, sizeof s);
    s.o = &o;
    cli_qs_map_t qm;
    memset(&qm, 0, sizeof qm);
    cli_event_types_t types = {0};
    if (o.d.meta_path && cli_event_types_load(&types, o.d.meta_path, o.d.meta_is_schema) != 0) {
        cli_event_types_free(&types);
        return CLI_BAD_INPUT;
    }
    s.meta = types.meta;
    rc = o.d.meta_path ? setup_events(&s, &o, &types, &qm) : setup_frames(&s);
    if (rc < 0) {
        rc = finish(&s, &o, read_stream(&s, o.d.stream));
    }
    release(&s, &qm, &types);
    return rc;
}

const cli_command_t cli_cmd_qs_decode = {
    "qs-decode",
    "decode a QS stream (file or live pipe): errors, losses, events, or an evrec file",
    help,
    run,
};
