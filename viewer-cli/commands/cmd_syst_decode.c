/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec syst-decode STREAM [-o OUT.evr] [--meta FILE.evr | --schema S.yaml] [--text]`: parse a
 * MIPI SyS-T stream (binary, split by the LEN field, or the reference printer's text form),
 * report every problem with its byte offset, print one CSV line per message in the printer's
 * columns, or turn evrec's CATALOG messages back into events (printed like `evrec dump`, or
 * written as an evrec file with the losses counted as drops). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_event_types.h"
#include "cli_bytes.h"
#include "cli_events.h"
#include "evrec/evrec_syst_decode.h"

static uint64_t catalog_id(const evrec_syst_msg_t *m, int id64)
{
    return cli_le_n(m->payload, id64 ? 8u : 4u);
}

static const char help[] =
    "usage: evrec syst-decode [--meta FILE.evr | --schema S.yaml] [-o OUT.evr] [--text | --binary]\n"
    "                         [--time-freq HZ] [--max-errors N] STREAM\n"
    "\n"
    "Decode a MIPI SyS-T stream: STREAM is a file, or '-' for standard input. Two forms, told apart\n"
    "by the first bytes (or forced with --text / --binary):\n"
    "  binary  messages back to back, as the SyS-T data protocol lays them out. Without a\n"
    "          transport, a message's end is known only from its LEN field, so every message\n"
    "          but SHORT32/SHORT64 must have LEN (evrec's encoder always sets it). After a\n"
    "          message without LEN, the decoder looks for the next header with LEN set and\n"
    "          reports the bytes it skipped.\n"
    "  text    the reference printer's input: 'SYS-T RAW DATA: <hex>' lines, one message per\n"
    "          line; other lines are ignored.\n"
    "Every problem is reported on stderr with its byte offset (and line): CRC-32C mismatches,\n"
    "a stream cut inside a message, reserved header bits set, unknown types, length mismatches,\n"
    "messages without LEN, bytes skipped, and (with --meta) unknown catalog ids and catalog\n"
    "arguments that do not match the event's fields exactly. A summary line counts them all.\n"
    "\n"
    "Without --meta: one CSV line per message, in the columns of the SyS-T reference printer\n"
    "(without its collateral): Decode Status, Payload, Type, Severity, Origin (GUID, or\n"
    "module-0xNN), Unit, Message TimeStamp, Context TimeStamp (the message number), Location,\n"
    "Raw Length, Checksum. Strings (PRINTF with their arguments), raw bytes (hex), build, clock\n"
    "and short values are decoded; catalog messages show their id and argument bytes.\n"
    "With --meta FILE.evr (or --schema S.yaml): the CATALOG messages of 'evrec syst' are events\n"
    "of that file's event types; they are printed like 'evrec dump' (time since the first\n"
    "event), or with -o written as an evrec file whose header counts the lost messages as\n"
    "dropped events. Times come from the messages' timestamps (TS); the frequency from\n"
    "--time-freq, else the stream's CLOCK message, else FILE's.\n"
    "\n"
    "options:\n"
    "  --meta FILE       take the event types (and time_freq) from an evrec or CCore file\n"
    "  --schema S.yaml   take the event types from a YAML schema instead\n"
    "  -o, --output OUT  write the decoded events as an evrec container (needs --meta or --schema)\n"
    "  --text            STREAM is the printer's text form\n"
    "  --binary          STREAM is a binary stream\n"
    "  --time-freq HZ    timestamp frequency to use\n"
    "  --max-errors N    error lines to print on stderr (default 20; the counts are complete)\n"
    "  -h, --help        this text\n"
    "\n"
    "Lost (counted as dropped with -o): damaged messages (CRC, cut, length, no LEN, reserved\n"
    "bits, bad payload or line) and CATALOG messages that are no event of the schema (unknown\n"
    "id, wrong arguments). Bytes skipped while resynchronising are counted apart.\n"
    "\n"
    "Exit status: 0 the stream was intact, 1 problems were found (everything intact was still\n"
    "decoded) or a file could not be read or written, 2 bad usage.\n";

typedef struct dec_opts {
    cli_decode_opts_t d; /* STREAM, --meta/--schema, -o, --time-freq, --max-errors */
    int form;            /* -1 auto, else evrec_syst_input */
} dec_opts_t;

static int parse(int argc, char **argv, dec_opts_t *o)
{
    enum { OPT_TEXT = 256, OPT_BINARY };
    static const struct option longopts[] = {
        CLI_DECODE_LONGOPTS,
        {"text", no_argument, NULL, OPT_TEXT},
        {"binary", no_argument, NULL, OPT_BINARY},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_decode_begin(&o->d);
    o->form = -1;
    int c, rc;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_TEXT:
        case OPT_BINARY: {
            int f = c == OPT_TEXT ? EVREC_SYST_TEXT : EVREC_SYST_BINARY;
            if (o->form >= 0 && o->form != f) {
                return cli_usage_error(&cli_cmd_syst_decode, "--text and --binary exclude each other");
            }
            o->form = f;
            break;
        }
        default:
            if ((rc = cli_decode_option(&cli_cmd_syst_decode, &o->d, c, argv)) >= 0) {
                return rc;
            }
        }
    }
    return cli_decode_end(&cli_cmd_syst_decode, &o->d, argc, argv);
}

/* ---- the state of one run ------------------------------------------------------------------ */

typedef struct dec {
    const dec_opts_t *o;
    const evrec_meta_t *meta; /* NULL without --meta */
    evrec_syst_decoder_t *d;  /* with --meta */
    evrec_syst_parser_t *p;   /* the parser in use (d->parser or a bare one) */
    uint64_t errors_shown;
    int print_csv, print_events;
    cli_buf_t line;
    cli_enum_index_t enums; /* enum names of the dump-like lines (this run) */
    char *text;             /* CSV line buffer */
    size_t text_size;
    /* time */
    int have_time, warned_no_ts;
    uint64_t first_ts;
    uint64_t freq; /* for printing */
    size_t wname, wclass;
    cli_evr_records_t out;
} dec_t;

/* One problem of the stream on stderr, up to --max-errors (cli_decode_error()). */
#define error_line(s, ...) cli_decode_error(&(s)->o->d, &(s)->errors_shown, __VA_ARGS__)

static void on_item(void *ctx, const evrec_syst_item_t *it)
{
    dec_t *s = ctx;
    if (it->problem != EVREC_SYST_OK) {
        char where[64];
        if (it->line) {
            snprintf(where, sizeof where, "offset %llu (line %llu)", (unsigned long long)it->offset,
                     (unsigned long long)it->line);
        } else {
            snprintf(where, sizeof where, "offset %llu", (unsigned long long)it->offset);
        }
        const char *what = it->what ? it->what : "";
        switch (it->problem) {
        case EVREC_SYST_P_SKIPPED:
            error_line(s, "%s: %zu bytes skipped to find the next message header", where, it->size);
            break;
        case EVREC_SYST_P_UNKNOWN_ID: {
            const evrec_syst_msg_t *m = it->msg;
            int id64 = m->subtype == 2 || m->subtype == 6;
            unsigned long long id = (unsigned long long)catalog_id(m, id64);
            error_line(s, "%s: message %llu: UNKNOWN_ID: catalog id 0x%0*llx is no event type of %s", where,
                       (unsigned long long)it->index, id64 ? 16 : 8, id, s->o->d.meta_path);
            break;
        }
        case EVREC_SYST_P_CHECKSUM:
            error_line(s, "%s: message %llu: CHECKSUM_ERROR: CRC-32C 0x%08X sent, 0x%08X computed: dropped", where,
                       (unsigned long long)it->index, it->msg->crc, it->msg->crc_calc);
            break;
        default:
            error_line(s, "%s: message %llu: %s: %s", where, (unsigned long long)it->index,
                       evrec_syst_problem_name(it->problem), what);
            break;
        }
    }
    if (s->print_csv) {
        size_t n = evrec_syst_format_item(it, s->text, s->text_size);
        if (n >= s->text_size) {
            n = s->text_size - 1;
        }
        fwrite(s->text, 1, n, stdout);
        fputc('\n', stdout);
    }
}

static void on_event(void *ctx, const evrec_syst_event_t *ev)
{
    dec_t *s = ctx;
    if (!ev->has_ts && !s->warned_no_ts) {
        s->warned_no_ts = 1;
        cli_error("%s: note: message %llu (offset %llu) has no timestamp (TS): its time is taken as 0",
                  s->o->d.stream, (unsigned long long)ev->index, (unsigned long long)ev->offset);
    }
    uint64_t ts = ev->has_ts ? ev->timestamp : 0;
    if (!s->have_time) {
        s->first_ts = ts;
        s->have_time = 1;
    }
    const evrec_meta_t *m = s->meta;
    const evrec_struct_desc_t *st = &m->structs[m->events[ev->id].struct_id];
    int is_end = ev->id == EVREC_CONTROL_EVENT_ID && st->field_count > 2 &&
                 ev->native[st->fields[2].offset] == EVREC_CONTROL_END;
    if (s->o->d.out && !is_end) {
        cli_evr_keep(&s->out, ev->native, ev->id);
    }
    if (s->print_events) {
        uint64_t freq = s->o->d.clock.time_freq ? s->o->d.clock.time_freq
                        : s->d->clock_freq      ? s->d->clock_freq
                                                : s->freq;
        s->line.len = 0;
        cli_event_line(&s->line, &s->enums, m, ev->native, ev->id, ts - s->first_ts, freq, s->wname, s->wclass);
        fwrite(s->line.p, 1, s->line.len, stdout);
    }
}

/* ---- the maps of the meta-info (32- and 64-bit catalog ids) -------------------------------- */

typedef struct maps {
    evrec_syst_map_t m32, m64;
    void *e32, *e64;
} maps_t;

static int build_maps(maps_t *mp, const evrec_meta_t *meta, const char *path)
{
    memset(mp, 0, sizeof *mp);
    size_t n = evrec_syst_map_entries_size(meta);
    mp->e32 = malloc(n ? n : 8);
    mp->e64 = malloc(n ? n : 8);
    if (!mp->e32 || !mp->e64) {
        cli_error("out of memory");
        return -1;
    }
    evrec_syst_options_t opts;
    memset(&opts, 0, sizeof opts);
    opts.severity = EVREC_SYST_SEV_INFO;
    uint32_t bad = 0;
    evrec_status st = evrec_syst_map_init(&mp->m32, meta, &opts, mp->e32, n, &bad);
    if (st == EVREC_OK) {
        opts.id64 = 1;
        st = evrec_syst_map_init(&mp->m64, meta, &opts, mp->e64, n, &bad);
    }
    if (st != EVREC_OK) {
        if (st == EVREC_E_META && bad < meta->event_count) {
            cli_error("%s: its event types cannot be SyS-T catalog messages: event %u (%s) has the catalog id of "
                      "another event type",
                      path, bad, meta->structs[meta->events[bad].struct_id].name);
        } else {
            cli_error("%s: its event types cannot be SyS-T catalog messages: %s", path, evrec_strerror(st));
        }
        return -1;
    }
    return 0;
}

static void free_maps(maps_t *mp)
{
    free(mp->e32);
    free(mp->e64);
}

/* ---- run ------------------------------------------------------------------------------------- */

static void feed(dec_t *s, const uint8_t *data, size_t n)
{
    if (s->d) {
        evrec_syst_decoder_feed(s->d, data, n);
    } else {
        evrec_syst_parser_feed(s->p, data, n, on_item, s);
    }
}

/* Reading the stream: a file or standard input (a live pipe too). */
typedef struct input {
    int fd;
    int failed, eof;
    uint8_t chunk[1 << 16];
} input_t;

/* The first bytes (up to 4 KiB): they tell the form, unless given. Returns how many were read. */
static size_t read_head(input_t *in)
{
    size_t have = 0;
    while (have < 4096) {
        ssize_t n = read(in->fd, in->chunk + have, 4096 - have);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            in->failed = 1;
            break;
        }
        if (n == 0) {
            in->eof = 1;
            break;
        }
        have += (size_t)n;
    }
    return have;
}

/* The rest of the stream, fed as it arrives. */
static void read_rest(dec_t *s, input_t *in)
{
    while (!in->failed && !in->eof) {
        ssize_t n = read(in->fd, in->chunk, sizeof in->chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            in->failed = 1;
            break;
        }
        if (n == 0) {
            break;
        }
        feed(s, in->chunk, (size_t)n);
        fflush(stdout); /* a live pipe: show what arrived */
    }
}

/* The decoder (with event types) or the bare parser (CSV lines) for the stream's form. */
static void start(dec_t *s, maps_t *maps, const evrec_reader_t *r, evrec_syst_input form)
{
    if (s->meta) {
        evrec_syst_decoder_init(s->d, &maps->m32, &maps->m64, form, on_event, on_item, s);
        s->p = &s->d->parser;
        s->freq = r ? evrec_reader_info(r)->time_freq : s->meta->time_freq;
        s->print_events = !s->o->d.out;
        s->out.meta = s->meta;
        cli_event_columns(s->meta, &s->wname, &s->wclass);
    } else {
        evrec_syst_parser_init(s->p, form);
        s->print_csv = 1;
        fputs("Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,Location,"
              "Raw Length,Checksum\n",
              stdout);
    }
}

/* The summary line on stderr. */
static void print_counts(const dec_t *s, const char *stream, evrec_syst_input form, uint64_t unknown_ids,
                         uint64_t bad_args)
{
    const evrec_syst_parser_t *p = s->p;
    fprintf(stderr,
            "evrec: %s: %llu bytes (%s), %llu messages (%llu good); %llu checksum errors, %llu cut, %llu length "
            "mismatches, %llu without LEN, %llu with reserved bits, %llu of unknown type, %llu bad payloads, "
            "%llu bad lines, %llu bytes skipped",
            stream, (unsigned long long)p->offset, form == EVREC_SYST_TEXT ? "text" : "binary",
            (unsigned long long)p->messages, (unsigned long long)p->good, (unsigned long long)p->checksum,
            (unsigned long long)p->truncated, (unsigned long long)p->length, (unsigned long long)p->no_length,
            (unsigned long long)p->reserved, (unsigned long long)p->unknown_type,
            (unsigned long long)p->bad_payload, (unsigned long long)p->bad_lines, (unsigned long long)p->skipped);
    if (s->d) {
        fprintf(stderr,
                "; %llu events, %llu unknown catalog ids, %llu with wrong arguments, %llu clock, %llu other",
                (unsigned long long)s->d->events, (unsigned long long)unknown_ids, (unsigned long long)bad_args,
                (unsigned long long)s->d->clocks, (unsigned long long)s->d->other);
    }
    fputc('\n', stderr);
}

/* After the stream: the file written with -o, the counts; returns the exit code. */
static int finish(dec_t *s, const dec_opts_t *o, evrec_syst_input form, int result)
{
    if (!cli_stdout_done(1)) {
        result = CLI_BAD_INPUT;
    }
    const evrec_syst_parser_t *p = s->p;
    uint64_t unknown_ids = s->d ? s->d->unknown_ids : 0, bad_args = s->d ? s->d->bad_args : 0;
    uint64_t lost = p->checksum + p->truncated + p->length + p->no_length + p->reserved + p->bad_payload +
                    p->bad_lines + unknown_ids + bad_args;
    uint64_t problems = lost + p->unknown_type + (p->skipped ? 1u : 0u);
    uint64_t freq = o->d.clock.time_freq       ? o->d.clock.time_freq
                    : s->d && s->d->clock_freq ? s->d->clock_freq
                                               : s->freq;
    if (s->d && s->d->clock_freq_changes) {
        cli_error("%s: note: %llu CLOCK messages changed the frequency; the first, %llu Hz, is used", o->d.stream,
                  (unsigned long long)s->d->clock_freq_changes, (unsigned long long)s->d->clock_freq);
    }
    if (o->d.out && result == CLI_OK && cli_evr_write(&s->out, o->d.out, freq, lost) != 0) {
        result = CLI_BAD_INPUT;
    }
    print_counts(s, o->d.stream, form, unknown_ids, bad_args);
    if (o->d.out && result == CLI_OK) {
        fprintf(stderr, "evrec: %s: %llu records written, %llu counted as dropped, time_freq %llu Hz\n", o->d.out,
                (unsigned long long)s->out.count, (unsigned long long)lost, (unsigned long long)freq);
    }
    return problems && result == CLI_OK ? CLI_BAD_INPUT : result;
}

/* Decode the stream of `o` with what `s` was set up with; returns the exit code. */
static int decode(dec_t *s, const dec_opts_t *o, maps_t *maps, const evrec_reader_t *r)
{
    static input_t in;
    in.failed = in.eof = 0;
    in.fd = strcmp(o->d.stream, "-") == 0 ? STDIN_FILENO : open(o->d.stream, O_RDONLY);
    if (in.fd < 0) {
        cli_error("%s: %s", o->d.stream, strerror(errno));
        return CLI_BAD_INPUT;
    }
    size_t have = read_head(&in);
    evrec_syst_input form = o->form >= 0                             ? (evrec_syst_input)o->form
                            : evrec_syst_detect_text(in.chunk, have) ? EVREC_SYST_TEXT
                                                                     : EVREC_SYST_BINARY;
    start(s, maps, r, form);
    feed(s, in.chunk, have);
    read_rest(s, &in);
    int result = CLI_OK;
    if (in.failed) {
        cli_error("%s: offset %llu: read failed: %s", o->d.stream, (unsigned long long)s->p->offset,
                  strerror(errno));
        result = CLI_BAD_INPUT;
    }
    if (in.fd != STDIN_FILENO) {
        close(in.fd);
    }
    if (s->d) {
        evrec_syst_decoder_finish(s->d);
    } else {
        evrec_syst_parser_finish(s->p, on_item, s);
    }
    return finish(s, o, form, result);
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
    cli_event_types_t types = {0};
    maps_t maps;
    memset(&maps, 0, sizeof maps);
    if (o.d.meta_path && cli_event_types_load(&types, o.d.meta_path, o.d.meta_is_schema) != 0) {
        cli_event_types_free(&types);
        return CLI_BAD_INPUT;
    }
    s.meta = types.meta;
    s.text_size = 4u * EVREC_SYST_DEC_MAX_MESSAGE + 1024u;
    s.text = malloc(s.text_size);
    if (s.meta) {
        s.d = malloc(sizeof *s.d);
    } else {
        s.p = malloc(sizeof *s.p);
    }
    int result = CLI_BAD_INPUT;
    if (!s.text || (s.meta ? !s.d : !s.p)) {
        cli_error("out of memory");
    } else if (!s.meta || build_maps(&maps, s.meta, o.d.meta_path) == 0) {
        result = decode(&s, &o, &maps, types.r);
    }
    if (s.d) {
        free(s.d);
    } else {
        free(s.p);
    }
    free(s.text);
    free_maps(&maps);
    cli_evr_free(&s.out);
    cli_buf_free(&s.line);
    cli_enum_index_free(&s.enums);
    cli_event_types_free(&types);
    return result;
}

const cli_command_t cli_cmd_syst_decode = {
    "syst-decode",
    "decode a MIPI SyS-T stream (binary or printer text): problems with offsets, messages, events, or an evrec file",
    help,
    run,
};
