/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --perfetto OUT FILE`: open, select, stream through the
 * Perfetto writer (export_perfetto.c) into a temporary file, rename it onto the output. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_export_perfetto.h"
#include "evrec/evrec_reader_order.h"
#include "export_perfetto.h"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

int cli_export_perfetto(const char *in_path, const char *out_path, const cli_perfetto_opts_t *opt)
{
    static const cli_perfetto_opts_t defaults;
    if (!opt) {
        opt = &defaults;
    }
    const cli_command_t *cmd = opt->cmd ? opt->cmd : &cli_cmd_export;
    if (!in_path || !out_path || !*out_path) {
        return cli_usage_error(cmd, "missing input or output");
    }
    int to_stdout = strcmp(out_path, "-") == 0;
    if (to_stdout && isatty(STDOUT_FILENO)) {
        return cli_usage_error(cmd, "refusing to write a binary trace to a terminal (give a file name)");
    }
    struct stat so, si;
    if (!to_stdout && stat(out_path, &so) == 0) {
        if (S_ISDIR(so.st_mode)) {
            return cli_usage_error(cmd, "%s: is a directory", out_path);
        }
        if (strcmp(in_path, "-") != 0 && stat(in_path, &si) == 0 && si.st_dev == so.st_dev &&
            si.st_ino == so.st_ino) {
            return cli_usage_error(cmd, "%s: the output is the input file", out_path);
        }
    }
    evrec_reader_t *r = cli_open_reader(in_path, &opt->clock);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    static const cli_select_spec_t no_selection;
    cli_select_t *sel = NULL;
    int rc = cli_select_compile(cmd, opt->select ? opt->select : &no_selection, r, &sel);
    if (rc >= 0) {
        evrec_reader_close(r);
        return rc;
    }
    if (evrec_reader_time_freq(r, NULL) == 0) {
        cli_error("%s: note: time_freq is 0 and fewer than 2 ticks were recorded: timestamps are "
                  "ticks, not ns", in_path);
    }
    /* A temporary file renamed over OUT at the end; a device or FIFO written in place. */
    cli_output_t out;
    FILE *f = NULL;
    if (cli_output_open(&out, out_path) && !(f = cli_output_stream(&out))) {
        cli_output_abort(&out);
    }
    if (!f) {
        cli_select_free(sel);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    static char obuf[1 << 20];
    setvbuf(f, obuf, _IOFBF, sizeof obuf);
    evrec_pf_writer_t *w = NULL;
    const char *tname = strcmp(in_path, "-") == 0 ? "stdin" : base_name(in_path);
    evrec_status ws = evrec_pf_open(&w, r, f, tname);
    /* The selected records, in file order, go through the reader's ordered iteration. */
    cli_select_source_t src = {sel, r};
    evrec_order_t *order = NULL;
    if (ws == EVREC_OK) {
        /* --reorder-window N holds N records besides the one written: a window of N + 1
         * (the largest N, 2^20, gets the largest window, 2^20). */
        uint32_t window = opt->reorder ? opt->reorder : EVREC_PF_DEFAULT_REORDER + 1u;
        if (window > EVREC_ORDER_MAX_WINDOW) {
            window = EVREC_ORDER_MAX_WINDOW;
        }
        ws = evrec_order_create_source(&order, window, cli_select_source_next, &src);
    }
    evrec_status st = EVREC_OK;
    evrec_record_t rec;
    if (ws == EVREC_OK) {
        while ((st = evrec_order_next(order, &rec, NULL)) == EVREC_OK) {
            if ((ws = evrec_pf_record(w, &rec)) != EVREC_OK) {
                break;
            }
        }
        if (st == EVREC_E_NOMEM || st == EVREC_E_ARG) {
            ws = st;
        }
    }
    evrec_order_close(order);
    int damaged = ws == EVREC_OK && st != EVREC_OK && st != EVREC_E_END;
    if (ws == EVREC_OK) {
        ws = evrec_pf_finish(w, damaged ? evrec_reader_error(r) : NULL);
    }
    int result = CLI_OK;
    if (ws != EVREC_OK) {
        cli_error("%s: %s", to_stdout ? "standard output" : out_path,
                  ws == EVREC_E_NOMEM ? "out of memory" : ws == EVREC_E_IO ? "writing the trace failed"
                                                                          : "cannot write the trace");
        result = CLI_BAD_INPUT;
    }
    if (!cli_output_stream_close(&out, f) && result == CLI_OK) {
        result = CLI_BAD_INPUT;
    }
    if (result == CLI_OK) {
        if (!cli_output_commit(&out)) {
            result = CLI_BAD_INPUT;
        }
    } else {
        cli_output_abort(&out);
    }
    if (damaged) {
        cli_report_reader_error(in_path, r);
        if (result == CLI_OK) {
            result = CLI_BAD_INPUT;
        }
    }
    if (result == CLI_OK || damaged) {
        const evrec_pf_stats_t *s = w ? evrec_pf_stats(w) : NULL;
        if (s && !opt->quiet && (ws == EVREC_OK)) {
            fprintf(stderr,
                    "evrec: %s: %llu records -> %llu instants, %llu slice begins, %llu slice ends "
                    "(%llu open at the end), %llu counter values; %u lanes, %u tracks, %llu losses; "
                    "%llu packets, %llu bytes\n",
                    to_stdout ? "standard output" : out_path, (unsigned long long)s->records,
                    (unsigned long long)s->instants, (unsigned long long)s->begins,
                    (unsigned long long)s->ends, (unsigned long long)s->open_at_end,
                    (unsigned long long)s->counters, (unsigned)s->lanes, (unsigned)s->tracks,
                    (unsigned long long)s->losses, (unsigned long long)s->packets,
                    (unsigned long long)s->bytes);
            if (s->cut_by_damage) {
                fprintf(stderr,
                        "evrec: %s: %llu spans open where records were lost to damage end there "
                        "(annotation cut_by_damage): none is drawn across a gap\n",
                        to_stdout ? "standard output" : out_path, (unsigned long long)s->cut_by_damage);
            }
            if (s->reordered) {
                fprintf(stderr,
                        "evrec: %s: %llu records stamped before their predecessor in the file "
                        "(concurrent writers) were written in time order\n",
                        to_stdout ? "standard output" : out_path, (unsigned long long)s->reordered);
            }
            if (s->clamped) {
                fprintf(stderr,
                        "evrec: %s: %llu records stamped before a record already written (beyond the "
                        "reorder window) were moved up to its time, by at most %llu ns (argument "
                        "ts_clamped_ns)\n",
                        to_stdout ? "standard output" : out_path, (unsigned long long)s->clamped,
                        (unsigned long long)s->max_clamp_ns);
            }
            if (s->unmatched_ends || s->refused_begins) {
                fprintf(stderr, "evrec: %s: %llu span ends without a begin, %llu span begins over the "
                        "limits: written as instants\n", to_stdout ? "standard output" : out_path,
                        (unsigned long long)s->unmatched_ends, (unsigned long long)s->refused_begins);
            }
        }
    }
    evrec_pf_close(w);
    cli_select_free(sel);
    evrec_reader_close(r);
    return result;
}
