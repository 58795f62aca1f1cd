/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec syst FILE -o OUT.syst`: convert a recording to MIPI SyS-T messages: a CLOCK message,
 * then one CATALOG message per selected record (format/syst/SYST.md), as a binary stream or as
 * the `SYS-T RAW DATA: <HEX>` lines that the reference decoder `systprint` reads; and the
 * catalog XML (collateral) that names the messages. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "pipeline.h"
#include "sink_syst.h"
#include "evrec/evrec_syst.h"
#include "evrec/evrec_syst_host.h"

static const char help[] =
    "usage: evrec syst [selection] [-o OUT] [--text] [--crc] [--timestamp] [--id64]\n"
    "                  [--guid {GUID} [--unit N] | --module N [--unit N]] [--severity LEVEL]\n"
    "                  [--collateral OUT.xml [--client NAME]] FILE\n"
    "\n"
    "Write a recording as MIPI SyS-T messages: first a CLOCK message (type 8, TRANSPORT_SYNC:\n"
    "clock value 0 = the first record, and the file's timestamp frequency in Hz), then one\n"
    "CATALOG message per selected record (EventControl Start, Tick and Stop included), in file\n"
    "order. Every message has its 16-bit length (LEN), so that the stream splits without a\n"
    "transport. The catalog id of an event type is derived from its name and field layout, every\n"
    "field is packed as a 32-bit argument (format/syst/SYST.md). --collateral writes the catalog\n"
    "XML that lets a SyS-T decoder (Intel's systprint: 'systprint -c OUT.xml OUT.txt') print the\n"
    "messages: one printf format per event type, 'Event field=%u ...'; enums print as numbers.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT    the messages ('-' = standard output, the default with --text; a binary\n"
    "                      stream is not written to a terminal). With --collateral and neither -o\n"
    "                      nor --text, only the collateral is written\n"
    "  --text              one line 'SYS-T RAW DATA: <HEX>' per message (uppercase hex of the whole\n"
    "                      message): systprint's input\n"
    "  --crc               end every message with its CRC-32C (CHK bit)\n"
    "  --timestamp         give every message the 64-bit timestamp (TS bit): the record's restored\n"
    "                      time in the file's clock ticks since the first record\n"
    "  --id64              64-bit catalog ids (subtype ID64_P32; default 32-bit, ID32_P32)\n"
    "  --guid {GUID}       the origin is this GUID (sent in every message; default: none)\n"
    "  --module N          without --guid: the 7-bit module id of the origin (0..127, default 0)\n"
    "  --unit N            the unit: 0..15 (0..2047 with --guid), default 0\n"
    "  --severity LEVEL    severity of every message: fatal, error, warning, info (default),\n"
    "                      user1, user2, debug, max, or 0..7\n"
    "  --collateral X.xml  also write the catalog XML (Catalog32 or Catalog64 by --id64)\n"
    "  --client NAME       the collateral's client name (default: 'evrec')\n"
    "  -h, --help          this text\n"
    "\n" CLI_SELECT_HELP "\n"
    "Exit status: 0 ok, 1 damaged or unreadable input (the records before the damage are\n"
    "converted), or a write error, 2 bad usage.\n";

typedef struct syst_opts {
    const char *path;
    const char *out;
    const char *collateral;
    const char *client;
    int text;
    evrec_syst_options_t so;
    int module_set;
    cli_select_spec_t sel;
} syst_opts_t;

static const char *const severity_names[8] = {"max",  "fatal", "error", "warning",
                                              "info", "user1", "user2", "debug"};

static int parse_severity(const char *s, uint8_t *out)
{
    for (unsigned i = 0; i < 8u; i++) {
        if (strcasecmp(s, severity_names[i]) == 0) {
            *out = (uint8_t)i;
            return 1;
        }
    }
    uint64_t v;
    if (cli_parse_u64(s, 7, &v)) {
        *out = (uint8_t)v;
        return 1;
    }
    return 0;
}

static int parse(int argc, char **argv, syst_opts_t *o)
{
    enum {
        OPT_TEXT = 256,
        OPT_CRC,
        OPT_TS,
        OPT_ID64,
        OPT_GUID,
        OPT_MODULE,
        OPT_UNIT,
        OPT_SEV,
        OPT_COLL,
        OPT_CLIENT
    };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"text", no_argument, NULL, OPT_TEXT},
        {"crc", no_argument, NULL, OPT_CRC},
        {"timestamp", no_argument, NULL, OPT_TS},
        {"id64", no_argument, NULL, OPT_ID64},
        {"guid", required_argument, NULL, OPT_GUID},
        {"module", required_argument, NULL, OPT_MODULE},
        {"unit", required_argument, NULL, OPT_UNIT},
        {"severity", required_argument, NULL, OPT_SEV},
        {"collateral", required_argument, NULL, OPT_COLL},
        {"client", required_argument, NULL, OPT_CLIENT},
        {"help", no_argument, NULL, 'h'},
        CLI_SELECT_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->so.severity = EVREC_SYST_SEV_INFO;
    uint64_t unit = 0;
    cli_getopt_begin();
    int c, rc;
    uint64_t v;
    while ((c = getopt_long(argc, argv, ":o:n:h", longopts, NULL)) != -1) {
        if ((rc = cli_select_option(&cli_cmd_syst, &o->sel, c, optarg)) != -2) {
            if (rc >= 0) {
                return rc;
            }
            continue;
        }
        switch (c) {
        case 'o': o->out = optarg; break;
        case OPT_TEXT: o->text = 1; break;
        case OPT_CRC: o->so.crc = 1; break;
        case OPT_TS: o->so.timestamp = 1; break;
        case OPT_ID64: o->so.id64 = 1; break;
        case OPT_GUID:
            if (evrec_syst_parse_guid(optarg, o->so.guid) != EVREC_OK) {
                return cli_usage_error(&cli_cmd_syst,
                                       "--guid expects {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}, not '%s'", optarg);
            }
            o->so.use_guid = 1;
            break;
        case OPT_MODULE:
            if (!cli_parse_u64(optarg, 127, &v)) {
                return cli_usage_error(&cli_cmd_syst, "--module expects 0..127, not '%s'", optarg);
            }
            o->so.module = (uint8_t)v;
            o->module_set = 1;
            break;
        case OPT_UNIT:
            if (!cli_parse_u64(optarg, 2047, &unit)) {
                return cli_usage_error(&cli_cmd_syst, "--unit expects 0..15 (0..2047 with --guid), not '%s'",
                                       optarg);
            }
            break;
        case OPT_SEV:
            if (!parse_severity(optarg, &o->so.severity)) {
                return cli_usage_error(&cli_cmd_syst,
                                       "--severity expects fatal, error, warning, info, user1, user2, debug, max "
                                       "or 0..7, not '%s'",
                                       optarg);
            }
            break;
        case OPT_COLL: o->collateral = optarg; break;
        case OPT_CLIENT: o->client = optarg; break;
        default: return cli_common_option(&cli_cmd_syst, c, argv, NULL);
        }
    }
    if (o->so.use_guid && o->module_set) {
        return cli_usage_error(&cli_cmd_syst,
                               "--module is the origin without a GUID: give --guid or --module, not both");
    }
    if (!o->so.use_guid && unit > 15u) {
        return cli_usage_error(&cli_cmd_syst,
                               "--unit above 15 needs --guid (the origin without a GUID has a 4-bit unit)");
    }
    o->so.unit = (uint16_t)unit;
    rc = cli_one_operand(&cli_cmd_syst, argc, argv, "FILE", &o->path);
    if (rc >= 0) {
        return rc;
    }
    if (o->out && !*o->out) {
        return cli_usage_error(&cli_cmd_syst, "-o needs a path ('-' for standard output)");
    }
    if (!o->out && (o->text || !o->collateral)) {
        o->out = "-";
    }
    if (o->out && strcmp(o->out, "-") == 0 && !o->text && isatty(STDOUT_FILENO)) {
        return cli_usage_error(&cli_cmd_syst,
                               "the binary stream is not written to a terminal: give -o OUT.syst, or --text");
    }
    if (o->collateral && o->out && strcmp(o->collateral, o->out) == 0 && strcmp(o->out, "-") != 0) {
        return cli_usage_error(&cli_cmd_syst, "--collateral and -o name the same file");
    }
    return -1;
}

static int write_collateral(const syst_opts_t *o, const evrec_syst_map_t *map)
{
    char *xml = NULL;
    size_t len = 0;
    if (evrec_syst_collateral(map, o->client, &xml, &len) != EVREC_OK) {
        cli_error("%s: out of memory", o->collateral);
        return CLI_BAD_INPUT;
    }
    cli_output_t out;
    if (!cli_output_open(&out, o->collateral)) {
        free(xml);
        return CLI_BAD_INPUT;
    }
    cli_output_write(&out, xml, len);
    free(xml);
    return cli_output_commit(&out) ? CLI_OK : CLI_BAD_INPUT;
}

static int collateral(void *ctx, const evrec_syst_map_t *map)
{
    return write_collateral(ctx, map);
}

/* --collateral without -o: the catalog only, no record is read. */
static int collateral_only(const syst_opts_t *o)
{
    evrec_reader_t *r = cli_open_reader(o->path, NULL);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    evrec_syst_map_t map;
    int result = CLI_BAD_INPUT;
    if (cli_syst_map_build(&map, evrec_reader_meta(r), &o->so, o->path) == EVREC_OK) {
        result = o->collateral ? write_collateral(o, &map) : CLI_OK;
        evrec_syst_map_release(&map);
    }
    evrec_reader_close(r);
    return result;
}

static int run(int argc, char **argv)
{
    syst_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    if (!o.out) {
        return collateral_only(&o);
    }
    /* The selection is compiled before anything is written: a usage error writes nothing. */
    cli_syst_run_t sr = {.out = o.out,
                         .text = o.text,
                         .options = &o.so,
                         .on_map = o.collateral ? collateral : NULL,
                         .on_map_ctx = &o};
    cli_pipeline_opts_t po = {
        .cmd = &cli_cmd_syst, .input = o.path, .select = &o.sel, .progress = -1, .output = o.out};
    return cli_pipeline_run(&po, &cli_sink_syst, &sr);
}

const cli_command_t cli_cmd_syst = {
    "syst",
    "convert a recording to MIPI SyS-T messages (and their catalog XML) for SyS-T decoders",
    help,
    run,
};
