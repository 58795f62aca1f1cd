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
#include "cli_qs.h"
#include "cli_select.h"
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
    "\n" CLI_SELECT_HELP
    "\n"
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

static const char *const severity_names[8] = {"max", "fatal", "error", "warning", "info", "user1", "user2", "debug"};

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
    enum { OPT_TEXT = 256, OPT_CRC, OPT_TS, OPT_ID64, OPT_GUID, OPT_MODULE, OPT_UNIT, OPT_SEV, OPT_COLL, OPT_CLIENT };
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
                return cli_usage_error(&cli_cmd_syst, "--guid expects {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}, not '%s'",
                                       optarg);
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
                return cli_usage_error(&cli_cmd_syst, "--unit expects 0..15 (0..2047 with --guid), not '%s'", optarg);
            }
            break;
        case OPT_SEV:
            if (!parse_severity(optarg, &o->so.severity)) {
                return cli_usage_error(&cli_cmd_syst,
                                       "--severity expects fatal, error, warning, info, user1, user2, debug, max "
                                       "or 0..7, not '%s'", optarg);
            }
            break;
        case OPT_COLL: o->collateral = optarg; break;
        case OPT_CLIENT: o->client = optarg; break;
        default: return cli_common_option(&cli_cmd_syst, c, argv, NULL);
        }
    }
    if (o->so.use_guid && o->module_set) {
        return cli_usage_error(&cli_cmd_syst, "--module is the origin without a GUID: give --guid or --module, not both");
    }
    if (!o->so.use_guid && unit > 15u) {
        return cli_usage_error(&cli_cmd_syst, "--unit above 15 needs --guid (the origin without a GUID has a 4-bit unit)");
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
        return cli_usage_error(&cli_cmd_syst, "the binary stream is not written to a terminal: give -o OUT.syst, or --text");
    }
    if (o->collateral && o->out && strcmp(o->collateral, o->out) == 0 && strcmp(o->out, "-") != 0) {
        return cli_usage_error(&cli_cmd_syst, "--collateral and -o name the same file");
    }
    return -1;
}

static const char hexdig[] = "0123456789ABCDEF";

/* One message: raw bytes, or a text line. */
static int put_message(FILE *f, int text, const uint8_t *p, size_t n, uint64_t *bytes)
{
    if (!text) {
        *bytes += n;
        return fwrite(p, 1, n, f) == n ? 0 : -1;
    }
    char line[16 + 2 * EVREC_SYST_MAX_MESSAGE + 2];
    memcpy(line, "SYS-T RAW DATA: ", 16);
    size_t k = 16;
    for (size_t i = 0; i < n; i++) {
        line[k++] = hexdig[p[i] >> 4];
        line[k++] = hexdig[p[i] & 15u];
    }
    line[k++] = '\n';
    *bytes += k;
    return fwrite(line, 1, k, f) == k ? 0 : -1;
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

static int run(int argc, char **argv)
{
    syst_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    evrec_reader_t *r = cli_open_reader(o.path, NULL);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    const evrec_meta_t *meta = evrec_reader_meta(r);
    evrec_syst_map_t map;
    uint32_t bad = 0;
    evrec_status st = evrec_syst_map_alloc(&map, meta, &o.so, &bad);
    if (st != EVREC_OK) {
        if (st == EVREC_E_META) {
            cli_error("%s: event type %u has the catalog id of an earlier event type (same name and layout, or a "
                      "hash collision): it cannot be sent as SyS-T", o.path, bad);
        } else {
            cli_error("%s: %s", o.path, evrec_strerror(st));
        }
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    /* The selection first: a usage error writes nothing. */
    cli_select_t *sel = NULL;
    if (o.out && (rc = cli_select_compile(&cli_cmd_syst, &o.sel, r, &sel)) >= 0) {
        evrec_syst_map_release(&map);
        evrec_reader_close(r);
        return rc;
    }
    int result = CLI_OK;
    if (o.collateral) {
        result = write_collateral(&o, &map);
    }
    if (result != CLI_OK || !o.out) {
        cli_select_free(sel);
        evrec_syst_map_release(&map);
        evrec_reader_close(r);
        return result;
    }
    int to_stdout = strcmp(o.out, "-") == 0;
    /* Written to a temporary file renamed over OUT at the end (a device or FIFO in place). */
    cli_output_t out;
    FILE *f = NULL;
    if (cli_output_open(&out, o.out) && !(f = cli_output_stream(&out))) {
        cli_output_abort(&out);
    }
    if (!f) {
        cli_select_free(sel);
        evrec_syst_map_release(&map);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    static uint8_t msg[EVREC_SYST_MAX_MESSAGE];
    size_t n = 0;
    uint64_t messages = 0, events = 0, bytes = 0;
    evrec_time_source src;
    uint64_t freq = evrec_reader_time_freq(r, &src);
    int werr = 0;
    if (evrec_syst_encode_clock(&map, 0, freq, msg, sizeof msg, &n) == EVREC_OK) {
        werr = put_message(f, o.text, msg, n, &bytes);
        messages++;
    }
    evrec_record_t rec;
    uint8_t native[EVREC_MAX_EVENT_SIZE];
    st = EVREC_OK;
    while (!werr && !cli_select_full(sel) && (st = cli_select_next(sel, r, &rec)) == EVREC_OK) {
        int v = cli_select_check(sel, &rec);
        if (v == CLI_SEL_STOP) {
            break;
        }
        if (v != CLI_SEL_YES) {
            continue;
        }
        cli_qs_native_from_record(r, &rec, native);
        evrec_status es = evrec_syst_encode_event(&map, native, rec.t64, msg, sizeof msg, &n);
        if (es != EVREC_OK) {
            cli_error("%s: offset %llu: event %u cannot be encoded: %s", o.path, (unsigned long long)rec.offset,
                      rec.id, evrec_strerror(es));
            werr = 2;
            break;
        }
        werr = put_message(f, o.text, msg, n, &bytes);
        messages++;
        events++;
    }
    result = werr ? CLI_BAD_INPUT : CLI_OK;
    if (werr == -1 && !out.err) {
        out.err = errno ? errno : EIO;
    }
    cli_output_stream_close(&out, f);
    int io_fail = !cli_output_commit(&out); /* says "cannot write" and removes the temporary file */
    if (io_fail) {
        result = CLI_BAD_INPUT;
    }
    if (st != EVREC_OK && st != EVREC_E_END) {
        cli_report_reader_error(o.path, r);
        result = CLI_BAD_INPUT;
    }
    if (!io_fail) {
        fprintf(to_stdout ? stderr : stdout, "%s%s: %llu events in %llu SyS-T messages (%s), %llu bytes\n",
                to_stdout ? "evrec: " : "", o.out, (unsigned long long)events, (unsigned long long)messages,
                o.text ? "text lines" : "binary", (unsigned long long)bytes);
    }
    cli_select_free(sel);
    evrec_syst_map_release(&map);
    evrec_reader_close(r);
    return result;
}

const cli_command_t cli_cmd_syst = {
    "syst",
    "convert a recording to MIPI SyS-T messages (and their catalog XML) for SyS-T decoders",
    help,
    run,
};
