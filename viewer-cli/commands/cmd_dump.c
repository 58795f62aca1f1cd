/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump FILE`: one aligned line per record: time, event, class, fields, marker. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dump_follow.h"
#include "pipeline.h"
#include "sink_dump.h"

static const char help[] =
    "usage: evrec dump [selection] [--tick-hz HZ] [--time-freq HZ] [--hex] [--raw] [--offsets]\n"
    "                  [--index] [--time-order] FILE\n"
    "       evrec dump -f [--event ..] [--class ..] [--where ..] [display options] FILE\n"
    "\n"
    "Print the records, one line each, in file order (the order of the slots in the trace buffer,\n"
    "which is the order in which they were allocated; with several threads or interrupts a\n"
    "record's time can be a little earlier than its predecessor's; --time-order sorts them):\n"
    "  TIME  EVENT  [CLASS]  field=value ...  [Marker]\n"
    "TIME is seconds since the first record (ns precision), restored to 64 bits across 32-bit\n"
    "wraps; CLASS is shown when an event belongs to another event's class; nested struct fields\n"
    "are dotted (inner.a=1); enum values are shown by name (number when unnamed); the marker is\n"
    "the one CCore EventView draws. EventControl records (Start, Tick, Stop) are included.\n"
    "A recording split into lanes (evrec_lanes_start(): one per core or thread) starts each line\n"
    "with the lane that recorded it (L0, L1 ...; L? when the chunk carrying it was damaged).\n"
    "Records from a truncated chunk, whose checksum could not be verified, end in '(unverified)'.\n"
    "In a damaged file, reading resumes after each damaged chunk (FORMAT.md: SYNC chunks); the\n"
    "first record after a damaged range ends in '(after damage: N records lost)', and each damaged\n"
    "range is reported on standard error with its offset (exit status 1).\n"
    "Fields follow the display attributes the schema gave them (format, unit; the file's\n"
    "FIELD_INFO): `format: hex` shows 0x and the field's width in digits (len=0x002A), `format:\n"
    "address` a 32-bit target address (buf=0x20000100), a unit follows the number after a space\n"
    "(wait_ns=1200 ns).\n"
    "FILE '-' reads the recording from standard input.\n"
    "\n"
    "options:\n"
    "  --tick-hz HZ     EventControl Tick was recorded at HZ: derive the timestamp frequency\n"
    "                   from the ticks (default when the file's time_freq is 0: 10 Hz)\n"
    "  --time-freq HZ   timestamp frequency to use instead of the file's (168M, 1e9, 32768, 1.5k)\n"
    "  -x, --hex        integers without a format of their own in hexadecimal\n"
    "  -r, --raw        ignore the display attributes: numbers in decimal (or --hex), no units\n"
    "  --offsets        start each line with the record's byte offset in the file\n"
    "  --index          start each line with the record's index (#N of --from/--to)\n"
    "  --time-order     print the selected records in time order (by time, then file order),\n"
    "                   holding up to 4096 of them; a record stamped earlier than one already\n"
    "                   printed (from further back than that) is printed at its place in the\n"
    "                   file with its own time and '(late by T)', and counted on stderr\n"
    "  -f, --follow     follow FILE as it grows (as `tail -f`), until Ctrl-C: print the records\n"
    "                   already there, then each record appended (by `evrec record`, or to a\n"
    "                   raw capture of the stream), once and in order, as soon as the chunk or\n"
    "                   frame that carries it is whole (woken when FILE is written, or every\n"
    "                   100 ms where the system cannot tell). A file replaced by another or\n"
    "                   cut shorter is said on stderr and followed again from its start;\n"
    "                   damage is said once. Not with --from, --to, -n or --time-order\n"
    "  -h, --help       this text\n"
    "\n" CLI_SELECT_HELP "\n"
    "Examples:\n"
    "  evrec dump demo.evr --from 10ms --to 10.5ms\n"
    "  evrec dump demo.evr --event QueueEvent --where 'queue == ToEncode and depth >= 2' -n 20\n"
    "  evrec dump demo.evr --index --from '#5000' --to '#5040'\n"
    "\n"
    "Exit status: 0 ok, 1 damaged or unreadable (the records before the damage are printed,\n"
    "then the error with its offset on stderr), 2 bad usage (also an unknown event, class,\n"
    "field or enum value name, and a --where syntax error, shown at its column).\n";

typedef struct dump_opts {
    evrec_reader_options_t ropt;
    cli_select_spec_t sel;
    cli_dump_display_t display;
    int time_order;
    int follow;
    const char *path;
} dump_opts_t;

static int parse(int argc, char **argv, dump_opts_t *o)
{
    enum { OPT_OFFSETS = 256, OPT_INDEX, OPT_TIME_ORDER };
    static const struct option longopts[] = {
        CLI_SELECT_LONGOPTS,
        {"index", no_argument, NULL, OPT_INDEX},
        {"time-order", no_argument, NULL, OPT_TIME_ORDER},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"hex", no_argument, NULL, 'x'},
        {"raw", no_argument, NULL, 'r'},
        {"offsets", no_argument, NULL, OPT_OFFSETS},
        {"follow", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":n:xrfh", longopts, NULL)) != -1) {
        if ((rc = cli_select_option(&cli_cmd_dump, &o->sel, c, optarg)) != -2) {
            if (rc >= 0) {
                return rc;
            }
            continue;
        }
        switch (c) {
        case 'x': o->display.hex = 1; break;
        case 'r': o->display.raw = 1; break;
        case OPT_OFFSETS: o->display.offsets = 1; break;
        case OPT_INDEX: o->display.index = 1; break;
        case OPT_TIME_ORDER: o->time_order = 1; break;
        case 'f': o->follow = 1; break;
        default:
            if ((rc = cli_common_option(&cli_cmd_dump, c, argv, &o->ropt)) >= 0) {
                return rc;
            }
        }
    }
    return cli_one_operand(&cli_cmd_dump, argc, argv, "FILE", &o->path);
}

/* -f: what it cannot do is a usage error; then follow. */
static int run_follow(const dump_opts_t *o)
{
    if (strcmp(o->path, "-") == 0) {
        return cli_usage_error(&cli_cmd_dump, "-f follows a file: not standard input");
    }
    if (o->time_order || o->sel.from.set || o->sel.to.set || o->sel.has_limit) {
        return cli_usage_error(&cli_cmd_dump, "-f: not with --from, --to, -n or --time-order");
    }
    cli_follow_opts_t fo = {o->path, o->ropt, &o->sel, &o->display, 100, 0};
    return cli_dump_follow(&fo);
}

static int run(int argc, char **argv)
{
    dump_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    if (o.follow) {
        return run_follow(&o);
    }
    cli_pipeline_opts_t po = {.cmd = &cli_cmd_dump,
                              .input = o.path,
                              .clock = o.ropt,
                              .select = &o.sel,
                              .time_order = o.time_order,
                              .progress = -1,
                              .clock_note_first = 1};
    return cli_pipeline_run(&po, &cli_sink_dump, &o.display);
}

const cli_command_t cli_cmd_dump = {
    "dump",
    "one line per record: time, event, class, fields, marker",
    help,
    run,
};
