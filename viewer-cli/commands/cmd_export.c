/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export FILE (--csv OUT | --jsonl OUT | --ccore OUT)`: convert a recording for
 * spreadsheets, DuckDB/pandas, or CCore's EventView. The writers implement export.h's interface;
 * this file opens the input and the output, drives the writer record by record, reports the
 * losses, and shows progress. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_export_ctf.h"
#ifdef EVREC_WITH_PERFETTO
#include "cli_export_perfetto.h"
#endif
#include "cli_select.h"
#include "export.h"

static const char help[] =
    "usage: evrec export [selection] [--tick-hz HZ] [--time-freq HZ] [--progress|--quiet]\n"
    "                    (--csv OUT | --jsonl OUT | --ccore OUT | --perfetto OUT | --ctf DIR) FILE\n"
    "\n"
    "Convert a recording, streaming (memory does not grow with the file). OUT '-' is standard\n"
    "output. A regular OUT is written to a temporary file beside it that replaces OUT only when\n"
    "everything was written; on failure OUT is left as it was. A device or FIFO is written directly.\n"
    "\n"
    "  --csv OUT     RFC 4180 CSV, CRLF line ends, UTF-8, a header row. Columns:\n"
    "                index,kind,time_ns,time_s,event,class, then one column per field path over\n"
    "                all event types (nested fields dotted: frame.number; meta-info order; empty\n"
    "                when the record's event lacks it), then loss,loss_count,loss_offset,\n"
    "                loss_message. An enum field holds the value's name (its number when it has\n"
    "                none) and the column <path>.raw next to it the number. Numbers are decimal\n"
    "                (display formats and units are not applied). Fields with a comma, quote, CR\n"
    "                or LF are quoted, quotes doubled.\n"
    "  --jsonl OUT   JSON Lines, one object per record:\n"
    "                {\"i\":0,\"t_ns\":0,\"t_s\":0.000000000,\"event\":\"E\",\"class\":\"E\",\n"
    "                 \"fields\":{\"n\":7,\"state\":{\"name\":\"Running\",\"value\":3}}}\n"
    "                (enum fields as {name (null when unnamed), value}; integers as integers;\n"
    "                \"unverified\":true on records from a truncated chunk).\n"
    "  --ccore OUT   the bare CCore EventRecorder stream CCore's EventView loads: the meta-info,\n"
    "                the records in time order (by time, then file order: its 32-bit stamps\n"
    "                cannot step back, EventView would read that as a wrap), the End record\n"
    "                (the file's time_freq is kept). A record stamped earlier than one more\n"
    "                than the reorder window before it gets its predecessor's stamp (noted).\n"
    "  --perfetto OUT  Perfetto's protobuf trace (open it at ui.perfetto.dev): a track per lane,\n"
    "                slices for spans, counters, every field as an annotation, flows along span\n"
    "                keys, losses on a 'losses' track; time-ordered (viewer-cli/perfetto/README.md)\n"
    "  --ctf DIR     a CTF 1.8 trace for babeltrace2 and Trace Compass, written by babeltrace2's\n"
    "                sink.ctf.fs from evrec's source component (viewer-cli/ctf/README.md): one\n"
    "                event class per event type the records use (at most 4096), enums as CTF\n"
    "                enumerations, records in time order, losses as discarded-events records.\n"
    "                DIR must be new or empty.\n"
    "\n"
    "The class is the name of the event the class id designates (the event's own name when it is\n"
    "its own class); time is since the first record, empty/null when the frequency is unknown.\n"
    "Invalid UTF-8 in names becomes U+FFFD (counted in a note on stderr).\n"
    "\n"
    "Losses are rows (CSV kind 'loss') and objects ({\"kind\":\"loss\",\"i\":N,\"reason\":...,\n"
    "\"count\":...,\"position_known\":...}), i/index being the file index of the record that\n"
    "follows: records a cyclic buffer overwrote before the save ('overwritten', before the first\n"
    "record), damage ('damage', with the byte offset and message): in the middle of a file, where\n"
    "reading resumed (FORMAT.md: SYNC chunks), before the first record after it with the count of\n"
    "records lost and i = the first lost index; where the reader stopped (count unknown); damage\n"
    "that lost no record (a repaired header, a display-only chunk) at the end with count 0; events\n"
    "dropped with the buffer full ('dropped', at the end: the file does not say where). The CCore\n"
    "stream cannot carry them; all are also summarised on stderr.\n"
    "\n"
    CLI_SELECT_HELP
    "(--ctf takes no selection: it converts the whole recording.)\n"
    "\n"
    "options:\n"
    "  --tick-hz HZ     EventControl Tick was recorded at HZ: derive the timestamp frequency\n"
    "                   from the ticks (default when the file's time_freq is 0: 10 Hz)\n"
    "  --time-freq HZ   timestamp frequency to use instead of the file's (168M, 1e9, 32768, 1.5k)\n"
    "  --reorder-window N  records held back to restore time order (--ctf, --ccore: default\n"
    "                   4096, at least 1; --perfetto: default 1024, 0 for file order)\n"
    "  --progress       show a progress bar on stderr (default: when stderr is a terminal and\n"
    "                   the export takes more than a second)\n"
    "  -q, --quiet      no progress bar\n"
    "  -h, --help       this text\n"
    "\n"
    "Exit status: 0 ok, 1 damaged or unreadable input (what could be read is exported, the\n"
    "damage marked) or the output could not be written, 2 bad usage.\n";

/* The writers, by option. */
static const export_writer_t *const writers[] = {
    &export_writer_csv,
    &export_writer_jsonl,
    &export_writer_ccore,
};
#define WRITER_COUNT (sizeof writers / sizeof writers[0])

typedef struct export_opts {
    evrec_reader_options_t ropt;
    const export_writer_t *writer;
    const char *out;
    int progress; /* 0 auto, 1 forced, -1 off */
    const char *path;
    const char *ctf_dir; /* --ctf DIR: handed to cli_export_ctf() */
    const char *perfetto_out; /* --perfetto OUT: handed to cli_export_perfetto() */
    cli_select_spec_t sel;
    int64_t reorder_window; /* --reorder-window N; -1: not given (each format's default) */
} export_opts_t;

static int parse(int argc, char **argv, export_opts_t *o)
{
    enum { OPT_CSV = 256, OPT_JSONL, OPT_CCORE, OPT_PROGRESS, OPT_CTF, OPT_REORDER, OPT_PERFETTO };
    static const struct option longopts[] = {
        {"csv", required_argument, NULL, OPT_CSV},
        {"jsonl", required_argument, NULL, OPT_JSONL},
        {"ccore", required_argument, NULL, OPT_CCORE},
        {"ctf", required_argument, NULL, OPT_CTF},
        {"perfetto", required_argument, NULL, OPT_PERFETTO},
        CLI_SELECT_LONGOPTS,
        {"reorder-window", required_argument, NULL, OPT_REORDER},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"quiet", no_argument, NULL, 'q'},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->reorder_window = -1;
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":n:qh", longopts, NULL)) != -1) {
        if ((rc = cli_select_option(&cli_cmd_export, &o->sel, c, optarg)) != -2) {
            if (rc >= 0) {
                return rc;
            }
            continue;
        }
        switch (c) {
        case OPT_CSV:
        case OPT_JSONL:
        case OPT_CCORE:
            if (o->writer) {
                return cli_usage_error(&cli_cmd_export, "give one output format (%s was given before %s)",
                                       o->writer->option, writers[c - OPT_CSV]->option);
            }
            if (o->ctf_dir || o->perfetto_out) {
                return cli_usage_error(&cli_cmd_export, "give one output format (%s was given before %s)",
                                       o->ctf_dir ? "--ctf" : "--perfetto", writers[c - OPT_CSV]->option);
            }
            o->writer = writers[c - OPT_CSV];
            o->out = optarg;
            break;
        case OPT_CTF:
        case OPT_PERFETTO:
            if (o->writer || o->ctf_dir || o->perfetto_out) {
                return cli_usage_error(&cli_cmd_export, "give one output format (%s was given before %s)",
                                       o->writer ? o->writer->option : o->ctf_dir ? "--ctf" : "--perfetto",
                                       c == OPT_CTF ? "--ctf" : "--perfetto");
            }
            if (c == OPT_CTF) {
                o->ctf_dir = optarg;
            } else {
                o->perfetto_out = optarg;
            }
            break;
        case OPT_REORDER: {
            uint64_t v;
            if (!cli_parse_u64(optarg, 1u << 20, &v)) {
                return cli_usage_error(&cli_cmd_export, "--reorder-window expects a record count, 0..1048576, not '%s'",
                                       optarg);
            }
            o->reorder_window = (int64_t)v;
            break;
        }
        case OPT_PROGRESS: o->progress = 1; break;
        case 'q': o->progress = -1; break;
        default:
            if ((rc = cli_common_option(&cli_cmd_export, c, argv, &o->ropt)) >= 0) {
                return rc;
            }
        }
    }
    if ((rc = cli_one_operand(&cli_cmd_export, argc, argv, "FILE", &o->path)) >= 0) {
        return rc;
    }
    if (o->ctf_dir) {
        if (!*o->ctf_dir) {
            return cli_usage_error(&cli_cmd_export, "--ctf needs a directory name");
        }
        if (cli_select_active(&o->sel)) {
            return cli_usage_error(&cli_cmd_export, "--ctf converts the whole recording: it takes no selection");
        }
        if (o->reorder_window == 0) {
            return cli_usage_error(&cli_cmd_export, "--ctf needs a reorder window of at least 1 record");
        }
        return -1;
    }
    if (o->perfetto_out) {
        if (!*o->perfetto_out) {
            return cli_usage_error(&cli_cmd_export, "--perfetto needs a file name ('-' for standard output)");
        }
        return -1;
    }
    if (!o->writer) {
        return cli_usage_error(&cli_cmd_export,
                               "missing the output: --csv OUT, --jsonl OUT, --ccore OUT, --perfetto OUT "
                               "or --ctf DIR");
    }
    if (!*o->out) {
        return cli_usage_error(&cli_cmd_export, "%s needs a file name ('-' for standard output)", o->writer->option);
    }
    if (o->writer == &export_writer_ccore && o->reorder_window == 0) {
        return cli_usage_error(&cli_cmd_export, "--ccore needs a reorder window of at least 1 record");
    }
    return -1;
}

/* Damage entries the reader keeps (evrec_reader_damage(): the first 1,000). */
#define EXPORT_DAMAGE_KEPT 1000u

static int emit_loss(const export_writer_t *wr, void *w, const export_loss_t *l, const char *input)
{
    if (l->kind != EXPORT_LOSS_DAMAGE) { /* damage: the reader's error is reported at the end */
        cli_error("%s: note: %llu record(s) %s%s", input, (unsigned long long)l->count,
                  l->kind == EXPORT_LOSS_DROPPED ? "dropped with the trace buffer full (position unknown)"
                                                 : "overwritten in the cyclic buffer before the save",
                  wr == &export_writer_ccore ? "; a CCore stream cannot record this" : "");
    }
    return wr->loss(w, l);
}

static int run(int argc, char **argv)
{
    export_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    if (o.ctf_dir) {
        cli_export_ctf_options_t copt = {.clock = o.ropt,
                                         .reorder_window = o.reorder_window > 0 ? (uint32_t)o.reorder_window : 0u,
                                         .quiet = o.progress == -1};
        return cli_export_ctf(o.path, o.ctf_dir, &copt);
    }
    if (o.perfetto_out) {
#ifdef EVREC_WITH_PERFETTO
        cli_perfetto_opts_t popt = {.clock = o.ropt, .select = &o.sel, .quiet = o.progress == -1,
                                    .cmd = &cli_cmd_export,
                                    .reorder = o.reorder_window >= 0 ? (uint32_t)o.reorder_window + 1u : 0u};
        return cli_export_perfetto(o.path, o.perfetto_out, &popt);
#else
        cli_error("export --perfetto: this evrec was built without the Perfetto export (protobuf-c was "
                  "missing: install protobuf-c-compiler and libprotobuf-c-dev and rebuild)");
        return CLI_BAD_INPUT;
#endif
    }
    evrec_reader_t *r = cli_open_reader(o.path, &o.ropt);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    cli_select_t *sel = NULL;
    if ((rc = cli_select_compile(&cli_cmd_export, &o.sel, r, &sel)) >= 0) {
        evrec_reader_close(r);
        return rc;
    }
    export_meta_t meta;
    meta.input = o.path;
    meta.reader = r;
    meta.meta = evrec_reader_meta(r);
    meta.info = evrec_reader_info(r);
    meta.reorder_window = o.reorder_window > 0 ? (uint32_t)o.reorder_window : 0u;
    evrec_time_source src;
    meta.time_freq = evrec_reader_time_freq(r, &src);
    if (!meta.time_freq && o.writer != &export_writer_ccore) {
        cli_error("%s: note: time_freq is 0 and fewer than 2 ticks were recorded: times are left empty",
                  o.path);
    }

    cli_output_t file;
    if (!cli_output_open(&file, o.out)) {
        cli_select_free(sel);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    export_out_t out = {0};
    out.file = &file;
    void *w = o.writer->begin(&out, &meta);
    if (!w) {
        cli_output_abort(&file);
        free(out.p);
        cli_select_free(sel);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }

    cli_progress_t prog;
    cli_progress_begin(&prog, o.progress, "evrec export");
    uint64_t total = meta.info->file_size;
    int result = CLI_OK, failed = 0; /* failed: a writer gave up; OUT is left as it was */
    export_end_t end = {0, 0};
    if ((meta.info->flags & 1u) && meta.info->overwritten) {
        export_loss_t l = {EXPORT_LOSS_OVERWRITTEN, "overwritten", meta.info->overwritten, 0, 1, 0, NULL, EVREC_OK, 1};
        failed |= emit_loss(o.writer, w, &l, o.path) != 0;
    }
    evrec_record_t rec;
    evrec_status st = EVREC_E_END;
    uint8_t done[EXPORT_DAMAGE_KEPT] = {0}; /* damage entries already emitted at a gap */
    uint64_t next = 0;                     /* index after the last record read */
    while (!cli_select_full(sel) && (st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        end.read++;
        if ((end.read & 0x3FFFu) == 0) {
            if (file.err) {
                break; /* the output failed: no use reading on */
            }
            cli_progress_update(&prog, rec.offset, total);
        }
        int v = cli_select_check(sel, &rec);
        if (v == CLI_SEL_STOP) {
            st = EVREC_E_END;
            break;
        }
        if (rec.gap) { /* damage in the middle: the loss goes before the first record after it */
            uint64_t k = 0;
            const evrec_damage_t *d = cli_damage_before(r, rec.index, &k);
            uint64_t lost = cli_damage_lost(r, rec.index, next);
            export_loss_t l = {EXPORT_LOSS_DAMAGE, "damage", lost, rec.index - lost, 1, d ? d->offset : rec.offset,
                               d ? d->message : "records lost to damage", d ? d->status : EVREC_E_CORRUPT, 1};
            if (d && k < EXPORT_DAMAGE_KEPT) {
                done[k] = 1;
            }
            failed |= emit_loss(o.writer, w, &l, o.path) != 0;
        }
        next = rec.index + 1;
        if (v == CLI_SEL_NO) {
            continue;
        }
        if (o.writer->record(w, &rec) != 0) {
            failed = 1;
            break;
        }
        end.records++;
    }
    cli_progress_end(&prog);
    if (st == EVREC_E_END && evrec_reader_damage_count(r)) {
        st = evrec_reader_error(r)->status; /* the selection ended after damage it read past */
    }
    if (st != EVREC_OK && st != EVREC_E_END) {
        /* The damaged ranges not reported at a gap: the one the reader stopped at (count
         * unknown, where it stopped) and those that lost no record (count 0, position unknown). */
        const evrec_damage_t *d;
        uint64_t n = 0;
        for (uint64_t i = 0; (d = evrec_reader_damage(r, i)) != NULL; i++, n++) {
            if (i < EXPORT_DAMAGE_KEPT && done[i]) {
                continue;
            }
            int none = d->records_lost == 0;
            export_loss_t l = {EXPORT_LOSS_DAMAGE, "damage", 0, next, !none, d->offset, d->message, d->status, none};
            failed |= emit_loss(o.writer, w, &l, o.path) != 0;
        }
        if (n == 0) { /* a reader that kept no list: its sticky error */
            const evrec_reader_error_t *e = evrec_reader_error(r);
            export_loss_t l = {EXPORT_LOSS_DAMAGE, "damage", 0, next, 1, e->offset, e->message, e->status, 0};
            failed |= emit_loss(o.writer, w, &l, o.path) != 0;
        }
        result = CLI_BAD_INPUT;
    }
    if (meta.info->format == EVREC_FILE_CONTAINER && meta.info->dropped) {
        export_loss_t l = {EXPORT_LOSS_DROPPED, "dropped", meta.info->dropped, next, 0, 0, NULL, EVREC_OK, 1};
        failed |= emit_loss(o.writer, w, &l, o.path) != 0;
    }
    const export_text_stats_t *ts = o.writer->text_stats ? o.writer->text_stats(w) : NULL;
    if (ts && ts->invalid_utf8) {
        cli_error("%s: note: %llu invalid UTF-8 sequence(s) in names written as U+FFFD", o.path,
                  (unsigned long long)ts->invalid_utf8);
    }
    failed |= o.writer->end(w, file.err || failed ? NULL : &end) != 0;
    if (failed) {
        cli_error("%s: the %s export failed: %s left as it was", o.path, o.writer->name, o.out);
        cli_output_abort(&file);
        result = CLI_BAD_INPUT;
    } else {
        export_out_flush(&out);
        if (!cli_output_commit(&file)) {
            result = CLI_BAD_INPUT;
        }
    }
    free(out.p);
    if (st != EVREC_OK && st != EVREC_E_END) {
        cli_report_reader_error(o.path, r);
    }
    cli_select_free(sel);
    evrec_reader_close(r);
    return result;
}

const cli_command_t cli_cmd_export = {
    "export",
    "convert to Perfetto, CTF (babeltrace2), CSV, JSON Lines or a bare CCore stream",
    help,
    run,
};
