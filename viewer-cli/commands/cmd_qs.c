/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec qs FILE -o OUT.qs`: convert a recording to a QP/Spy (QS) byte stream that QSPY 7.4
 * reads: the session records (QS_EMPTY, target info with reset, dictionaries), then one
 * application-specific record per recorded event (format/qs/QS.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_qs.h"
#include "pipeline.h"
#include "sink_qs.h"

static const char help[] =
    "usage: evrec qs [--time-size 1|2|4] [--classes] [--enum-as auto|groups|strings|int]\n"
    "                -o OUT.qs FILE\n"
    "\n"
    "Write the QP/Spy (QS) stream of a recording, so that Quantum Leaps' QSPY (7.4 target-info\n"
    "layout, QS_USER = 100) shows it: QS_EMPTY, the target info (reset), the enum and user-record\n"
    "dictionaries, then one application-specific record per record of FILE (EventControl Start,\n"
    "Tick and Stop included) with its 32-bit timestamp and one data element per field, in file\n"
    "order and with sequence numbers 1, 2, ... Records the file's header counts as dropped or\n"
    "overwritten are announced by EVREC_LOST records (id 122): 'overwritten' before the first\n"
    "event, 'dropped' before EventControl Stop. The mapping of events to record ids 100..121 is\n"
    "described in format/qs/QS.md; 'evrec qs-decode --meta FILE' turns the stream back into\n"
    "the same records.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT   the QS stream to write ('-' = standard output)\n"
    "  --time-size N      timestamp bytes on the wire: 4 (default), 2 or 1 (the low bytes,\n"
    "                     with a time-sync record (id 123, 'EvrecTimeSync': the full 32-bit\n"
    "                     time) before the first record and whenever the time moved 2^15\n"
    "                     (2^7) ticks or more from the last one: qs-decode restores every\n"
    "                     time exactly)\n"
    "  --classes          one record id per event class, the event type as first element\n"
    "                     (automatic when the file has more than 22 event types)\n"
    "  --enum-as HOW      how QSPY names enum values: auto (default: QS enum groups for up to\n"
    "                     8 enums, run-time ones first, then the most used; a STR element with\n"
    "                     the name for every other named value), groups (groups only, other\n"
    "                     enums as numbers), strings (every named value as a STR element), int\n"
    "                     (numbers only)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 ok, 1 damaged or unreadable input (the records before the damage are\n"
    "converted), or a write error, 2 bad usage.\n";

typedef struct qs_opts {
    const char *path;
    const char *out;
    unsigned time_size;
    int classes;
    uint8_t enum_as;
} qs_opts_t;

static int parse(int argc, char **argv, qs_opts_t *o)
{
    enum { OPT_TIME_SIZE = 256, OPT_CLASSES, OPT_ENUM_AS };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"time-size", required_argument, NULL, OPT_TIME_SIZE},
        {"classes", no_argument, NULL, OPT_CLASSES},
        {"enum-as", required_argument, NULL, OPT_ENUM_AS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->time_size = 4;
    cli_getopt_begin();
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->out = optarg; break;
        case OPT_TIME_SIZE:
            if (!cli_parse_u64(optarg, 4, &v) || (v != 1 && v != 2 && v != 4)) {
                return cli_usage_error(&cli_cmd_qs, "--time-size expects 1, 2 or 4, not '%s'", optarg);
            }
            o->time_size = (unsigned)v;
            break;
        case OPT_CLASSES: o->classes = 1; break;
        case OPT_ENUM_AS:
            if (cli_qs_parse_enum_as(optarg, &o->enum_as) != 0) {
                return cli_usage_error(&cli_cmd_qs, "--enum-as expects auto, groups, strings or int, not '%s'",
                                       optarg);
            }
            break;
        default: return cli_common_option(&cli_cmd_qs, c, argv, NULL);
        }
    }
    int rc = cli_one_operand(&cli_cmd_qs, argc, argv, "FILE", &o->path);
    if (rc < 0 && (!o->out || !*o->out)) {
        return cli_usage_error(&cli_cmd_qs, "missing -o OUT.qs");
    }
    return rc;
}

static int run(int argc, char **argv)
{
    qs_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    cli_qs_run_t q = {.out = o.out};
    q.options.time_size = (uint8_t)o.time_size;
    q.options.force_classes = (uint8_t)o.classes;
    q.options.enum_as = o.enum_as;
    cli_pipeline_opts_t po = {.cmd = &cli_cmd_qs, .input = o.path, .progress = -1, .output = o.out};
    return cli_pipeline_run(&po, &cli_sink_qs, &q);
}

const cli_command_t cli_cmd_qs = {
    "qs",
    "convert a recording to a QP/Spy (QS) stream for QSPY",
    help,
    run,
};
