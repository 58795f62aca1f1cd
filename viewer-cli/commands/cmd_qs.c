/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec qs FILE -o OUT.qs`: convert a recording to a QP/Spy (QS) byte stream that QSPY 7.4
 * reads: the session records (QS_EMPTY, target info with reset, dictionaries), then one
 * application-specific record per recorded event (format/qs/QS.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_qs.h"
#include "evrec/evrec_qs.h"

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
                return cli_usage_error(&cli_cmd_qs, "--enum-as expects auto, groups, strings or int, not '%s'", optarg);
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

static int put(FILE *f, const uint8_t *p, size_t n)
{
    return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static int run(int argc, char **argv)
{
    qs_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    evrec_reader_t *r = cli_open_reader(o.path, NULL);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    const evrec_meta_t *meta = evrec_reader_meta(r);
    cli_qs_map_t qm;
    evrec_qs_options_t qo;
    memset(&qo, 0, sizeof qo);
    qo.time_size = (uint8_t)o.time_size;
    qo.force_classes = (uint8_t)o.classes;
    qo.enum_as = o.enum_as;
    evrec_status st = cli_qs_map_build(&qm, meta, &qo);
    if (st != EVREC_OK) {
        cli_error("%s: the event types cannot be sent as QS records: %s", o.path,
                  st == EVREC_E_NOMEM ? "out of memory" : "an event needs more than 509 bytes of QS payload");
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    int to_stdout = strcmp(o.out, "-") == 0;
    /* A temporary file renamed over OUT at the end (a device or FIFO is written in place): an
     * existing OUT is replaced only by a complete stream. */
    cli_output_t out;
    FILE *f = NULL;
    if (cli_output_open(&out, o.out) && !(f = cli_output_stream(&out))) {
        cli_output_abort(&out);
    }
    if (!f) {
        cli_qs_map_free(&qm);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    int werr = 0;
    uint8_t seq = 1;
    uint64_t frames = 0, bytes = 0, events = 0, syncs = 0;
    evrec_qs_time_sync_t sync = {0, 0};
    /* Session: one frame per record, streamed (the dictionaries of a large schema are long). */
    static uint8_t payload[EVREC_QS_MAX_PAYLOAD];
    static uint8_t frame[2 * (EVREC_QS_MAX_PAYLOAD + 3) + 1];
    evrec_qs_session_cursor_t cur = {0, 0, 0};
    uint8_t rec_id;
    size_t len;
    while (!werr && evrec_qs_session_next(&qm.map, &cur, &rec_id, payload, &len) == EVREC_OK) {
        size_t n = evrec_qs_frame(seq++, rec_id, payload, len, frame, sizeof frame);
        werr = put(f, frame, n);
        frames++;
        bytes += n;
    }
    /* Events: the packed big-endian record back to a host-order record at the packed offsets
     * (the reader's tables describe that layout), then one QS record each. The header's losses
     * as EVREC_LOST records: cyclic overwrites before the first event, drops (the buffer was
     * full: the records after the last one kept) before EventControl Stop, or at the end. */
    const evrec_file_info_t *fi = evrec_reader_info(r);
    uint64_t lost_over = fi->overwritten, lost_drop = fi->dropped;
    uint32_t last_time = 0;
    evrec_record_t rec;
    uint8_t native[EVREC_MAX_EVENT_SIZE];
    while (!werr && (st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        cli_qs_native_from_record(r, &rec, native);
        const evrec_struct_desc_t *cs = &meta->structs[meta->events[0].struct_id];
        int is_stop = rec.id == EVREC_CONTROL_EVENT_ID && cs->field_count > 2 &&
                      native[cs->fields[2].offset] == EVREC_CONTROL_STOP;
        if (lost_over || (lost_drop && is_stop)) {
            uint64_t *c = lost_over ? &lost_over : &lost_drop;
            uint8_t kind = lost_over ? EVREC_QS_LOST_OVERWRITTEN : EVREC_QS_LOST_DROPPED;
            while (*c && !werr) {
                uint32_t k = *c > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)*c;
                size_t n = 0;
                evrec_qs_encode_lost(&qm.map, seq++, rec.time32, kind, k, frame, sizeof frame, &n);
                werr = put(f, frame, n);
                frames++;
                bytes += n;
                *c -= k;
            }
        }
        last_time = rec.time32;
        size_t n = 0;
        uint32_t t;
        memcpy(&t, native, 4);
        if (evrec_qs_time_sync_due(&qm.map, &sync, t)) {
            /* 1- and 2-byte timestamps: the full time first when the low bytes alone would
             * not give it (format/qs/QS.md 4.1) */
            (void)evrec_qs_encode_time_sync(&qm.map, seq++, t, frame, sizeof frame, &n);
            werr = put(f, frame, n);
            frames++;
            syncs++;
            bytes += n;
            sync.time = t;
            sync.valid = 1;
            if (werr) {
                break;
            }
        }
        evrec_status es = evrec_qs_encode_event(&qm.map, seq++, native, frame, sizeof frame, &n);
        if (es != EVREC_OK) {
            cli_error("%s: offset %llu: event %u cannot be encoded: %s", o.path, (unsigned long long)rec.offset,
                      rec.id, evrec_strerror(es));
            werr = 2;
            break;
        }
        werr = put(f, frame, n);
        frames++;
        events++;
        bytes += n;
    }
    while (!werr && lost_drop) { /* no Stop record: at the end */
        uint32_t k = lost_drop > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)lost_drop;
        size_t n = 0;
        evrec_qs_encode_lost(&qm.map, seq++, last_time, EVREC_QS_LOST_DROPPED, k, frame, sizeof frame, &n);
        werr = put(f, frame, n);
        frames++;
        bytes += n;
        lost_drop -= k;
    }
    int result = werr ? CLI_BAD_INPUT : CLI_OK;
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
        char syncs_text[64] = "";
        if (qm.map.opts.time_size < 4) {
            snprintf(syncs_text, sizeof syncs_text, " + %llu time syncs", (unsigned long long)syncs);
        }
        fprintf(to_stdout ? stderr : stdout,
                "%s%s: %llu events in %llu QS frames (%u-byte timestamps%s, %s), %llu bytes\n",
                to_stdout ? "evrec: " : "", o.out, (unsigned long long)events, (unsigned long long)frames,
                qm.map.opts.time_size, syncs_text,
                qm.map.classes ? "one record id per event class" : "one record id per event type",
                (unsigned long long)bytes);
    }
    cli_qs_map_free(&qm);
    evrec_reader_close(r);
    return result;
}

const cli_command_t cli_cmd_qs = {
    "qs",
    "convert a recording to a QP/Spy (QS) stream for QSPY",
    help,
    run,
};
