/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export FILE (--csv OUT | --jsonl OUT | --ccore OUT | --perfetto OUT | --ctf DIR)`:
 * convert a recording for spreadsheets, DuckDB/pandas, CCore's EventView, ui.perfetto.dev or
 * babeltrace2. Every format is a line of the table below: a sink of the record pipeline
 * (pipeline/sink.h; the pipeline opens, selects, orders, reports the losses, shows progress and
 * writes the output), or for CTF a driver (babeltrace2's graph reads the recording itself). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_export_ctf.h"
#include "clickhouse.h"
#include "export.h"
#include "pipeline.h"
#ifdef EVREC_WITH_PERFETTO
#include "sink_perfetto.h"
#endif

static const char help[] =
    "usage: evrec export [selection] [--tick-hz HZ] [--time-freq HZ] [--progress|--quiet]\n"
    "                    (--csv OUT | --jsonl OUT | --ccore OUT | --perfetto OUT | --ctf DIR) FILE\n"
    "       evrec export --clickhouse URL [--database DB] [--cluster NAME] [--tag K=V]... FILE...\n"
    "                    (`evrec export --clickhouse URL --help`; docs/FLEET.md)\n"
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
    "                keys, losses on a 'losses' track; for a kernel trace (ports/rtos) also\n"
    "                Perfetto's scheduling view: sched_switch and sched_waking per core, task\n"
    "                states; time-ordered (viewer-cli/perfetto/README.md)\n"
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
    "\n" CLI_SELECT_HELP "(--ctf takes no selection: it converts the whole recording.)\n"
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

typedef struct export_opts export_opts_t;

/* One output format of `evrec export`. */
typedef struct export_format {
    const char *option;     /* "--csv" */
    const cli_sink_t *sink; /* the pipeline's sink, or NULL: `driver` converts */
    int (*driver)(const export_opts_t *o);
    const char *needs;       /* what OUT must be, for "OPTION needs ..." */
    unsigned min_window;     /* --reorder-window below this is refused (0 or 1) */
    int whole;               /* 1: takes no selection (converts the whole recording) */
    uint32_t default_window; /* time-ordered sinks: the ordering window without --reorder-window */
} export_format_t;

struct export_opts {
    evrec_reader_options_t ropt;
    const export_format_t *format;
    const char *out;
    int progress; /* 0 auto, 1 forced, -1 off */
    const char *path;
    cli_select_spec_t sel;
    int64_t reorder_window; /* --reorder-window N; -1: not given (each format's default) */
};

static int export_ctf(const export_opts_t *o)
{
    cli_export_ctf_options_t copt = {.clock = o->ropt,
                                     .reorder_window = o->reorder_window > 0 ? (uint32_t)o->reorder_window : 0u,
                                     .quiet = o->progress == -1};
    return cli_export_ctf(o->path, o->out, &copt);
}

#ifndef EVREC_WITH_PERFETTO
static int perfetto_missing(const export_opts_t *o)
{
    (void)o;
    cli_error("export --perfetto: this evrec was built without the Perfetto export (protobuf-c was "
              "missing: install protobuf-c-compiler and libprotobuf-c-dev and rebuild)");
    return CLI_BAD_INPUT;
}
#endif

#define NEEDS_FILE "a file name ('-' for standard output)"

/* The formats, in the order of their getopt codes (OPT_FORMAT + index). */
static const export_format_t formats[] = {
    {"--csv", &cli_sink_csv, NULL, NEEDS_FILE, 0, 0, 0},
    {"--jsonl", &cli_sink_jsonl, NULL, NEEDS_FILE, 0, 0, 0},
    {"--ccore", &cli_sink_ccore, NULL, NEEDS_FILE, 1, 0, 0},
    {"--ctf", NULL, export_ctf, "a directory name", 1, 1, 0},
#ifdef EVREC_WITH_PERFETTO
    {"--perfetto", &cli_sink_perfetto, NULL, NEEDS_FILE, 0, 0, EVREC_PF_DEFAULT_REORDER + 1u},
#else
    {"--perfetto", NULL, perfetto_missing, NEEDS_FILE, 0, 0, 0},
#endif
};
#define FORMAT_COUNT (sizeof formats / sizeof formats[0])

enum { OPT_FORMAT = 256, OPT_PROGRESS = OPT_FORMAT + (int)FORMAT_COUNT, OPT_REORDER };

/* An option that is not a format or a selection option. -1 when taken, else the exit code. */
static int other_option(export_opts_t *o, int c, char **argv)
{
    uint64_t v;
    switch (c) {
    case OPT_REORDER:
        if (!cli_parse_u64(optarg, 1u << 20, &v)) {
            return cli_usage_error(&cli_cmd_export,
                                   "--reorder-window expects a record count, 0..1048576, not '%s'", optarg);
        }
        o->reorder_window = (int64_t)v;
        return -1;
    case OPT_PROGRESS: o->progress = 1; return -1;
    case 'q': o->progress = -1; return -1;
    default: return cli_common_option(&cli_cmd_export, c, argv, &o->ropt);
    }
}

/* The format's own rules, once every option is known. -1 when they hold, else the exit code. */
static int check_format(const export_opts_t *o)
{
    const export_format_t *f = o->format;
    if (!f) {
        return cli_usage_error(&cli_cmd_export,
                               "missing the output: --csv OUT, --jsonl OUT, --ccore OUT, --perfetto OUT "
                               "or --ctf DIR");
    }
    if (!*o->out) {
        return cli_usage_error(&cli_cmd_export, "%s needs %s", f->option, f->needs);
    }
    if (f->whole && cli_select_active(&o->sel)) {
        return cli_usage_error(&cli_cmd_export, "%s converts the whole recording: it takes no selection",
                               f->option);
    }
    if (f->min_window && o->reorder_window == 0) {
        return cli_usage_error(&cli_cmd_export, "%s needs a reorder window of at least 1 record", f->option);
    }
    return -1;
}

static int parse(int argc, char **argv, export_opts_t *o)
{
    static const struct option longopts[] = {
        {"csv", required_argument, NULL, OPT_FORMAT + 0},
        {"jsonl", required_argument, NULL, OPT_FORMAT + 1},
        {"ccore", required_argument, NULL, OPT_FORMAT + 2},
        {"ctf", required_argument, NULL, OPT_FORMAT + 3},
        {"perfetto", required_argument, NULL, OPT_FORMAT + 4},
        CLI_SELECT_LONGOPTS,
        {"reorder-window", required_argument, NULL, OPT_REORDER},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"quiet", no_argument, NULL, 'q'},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    _Static_assert(FORMAT_COUNT == 5, "one long option per format");
    memset(o, 0, sizeof *o);
    o->reorder_window = -1;
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":n:qh", longopts, NULL)) != -1) {
        if ((rc = cli_select_option(&cli_cmd_export, &o->sel, c, optarg)) != -2) {
            if (rc >= 0) {
                return rc;
            }
        } else if (c >= OPT_FORMAT && c < OPT_FORMAT + (int)FORMAT_COUNT) {
            if (o->format) {
                return cli_usage_error(&cli_cmd_export, "give one output format (%s was given before %s)",
                                       o->format->option, formats[c - OPT_FORMAT].option);
            }
            o->format = &formats[c - OPT_FORMAT];
            o->out = optarg;
        } else if ((rc = other_option(o, c, argv)) >= 0) {
            return rc;
        }
    }
    if ((rc = cli_one_operand(&cli_cmd_export, argc, argv, "FILE", &o->path)) >= 0) {
        return rc;
    }
    return check_format(o);
}

static int run(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--clickhouse") == 0 || strncmp(argv[i], "--clickhouse=", 13) == 0) {
            return cli_export_clickhouse(argc, argv); /* many files, options of its own */
        }
    }
    export_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    const export_format_t *f = o.format;
    if (!f->sink) {
        return f->driver(&o);
    }
    void *user = NULL;
#ifdef EVREC_WITH_PERFETTO
    cli_perfetto_run_t pf = {.out_path = o.out, .quiet = o.progress == -1};
    if (f->sink == &cli_sink_perfetto) {
        if ((rc = cli_perfetto_check_output(&cli_cmd_export, o.path, o.out)) >= 0) {
            return rc;
        }
        user = &pf;
    }
#endif
    /* --reorder-window N holds N records besides the one written: a window of N + 1. */
    cli_pipeline_opts_t po = {.cmd = &cli_cmd_export,
                              .input = o.path,
                              .clock = o.ropt,
                              .select = &o.sel,
                              .order_window = o.reorder_window >= 0 ? (uint32_t)o.reorder_window + 1u
                                                                    : f->default_window,
                              .reorder_window = o.reorder_window > 0 ? (uint32_t)o.reorder_window : 0u,
                              .progress = o.progress,
                              .progress_what = "evrec export",
                              .output = o.out};
    return cli_pipeline_run(&po, f->sink, user);
}

const cli_command_t cli_cmd_export = {
    "export",
    "convert to Perfetto, CTF (babeltrace2), CSV, JSON Lines or a bare CCore stream",
    help,
    run,
};
