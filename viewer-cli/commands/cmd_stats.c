/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats FILE`: per event type counts, rates and intervals; with the RTOS catalogue
 * (ports/rtos), CPU time per task and ISR, idle and load, interrupt-disabled spans with their
 * location (symbolised with --elf), waits on synchronisation objects. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "evrec/evrec_symbols.h"
#include "pipeline.h"
#include "sink_stats.h"

static const char help[] =
    "usage: evrec stats [selection] [--elf FIRMWARE.elf] [--top N] [--format text|json]\n"
    "                   [--tick-hz HZ] [--time-freq HZ] FILE\n"
    "\n"
    "Statistics of a recording, or of the records a selection keeps (then the durations, rates\n"
    "and intervals are those of the selected records). FILE '-' reads standard input.\n"
    "For every file: the duration, records and drops, and per event type the count, the rate\n"
    "(events/s over the duration), the first and last time, and the min/mean/max interval between\n"
    "consecutive records of the type.\n"
    "When the RTOS catalogue (ports/rtos/rtos.yaml: all of its events with its layout, not just\n"
    "its event names) is in the file:\n"
    "  - CPU time per task and per interrupt handler (exclusive: nested ISRs are charged to\n"
    "    themselves), idle, kernel and unknown time, and the load (100% - idle);\n"
    "  - interrupt-disabled spans (IntControl): count, total, the longest with the code location\n"
    "    that disabled interrupts, and the longest per location;\n"
    "  - waits on mutexes, semaphores, queues and event flags (Block to Unblock/Timeout);\n"
    "  - from the task-state model (evrec_sched.h: RUNNING on a core, READY, BLOCKED, SUSPENDED,\n"
    "    DEAD), correct on several cores (a file with one lane per core): per task the CPU time\n"
    "    without interrupt handlers, its share, the switch-ins, the ready-to-running latency after\n"
    "    a wake-up (TaskReady, Unblock: the scheduling latency) and after a preemption or yield\n"
    "    (count, p50, p99, max, exact nearest-rank percentiles as for spans below, and the record\n"
    "    index of the worst's first record), the time blocked per object and delayed; per core\n"
    "    the time in tasks, interrupt handlers, idle, kernel and unknown, the load, the switches\n"
    "    and the tasks that ran there.\n"
    "Contexts open at an edge of the trace are stated: a context that ends without a beginning\n"
    "was running since the trace began and is charged from the first record; one still running\n"
    "at the last record is charged up to it. Spans cut by an edge are lower bounds, not ranked.\n"
    "When the file has spans (schema `spans:`, shown by `evrec info`): per span and per track (the\n"
    "span's lane: per thread, hence per stage, in the demo; per task for RTOS TaskRunning) the\n"
    "complete pairs' count, min/mean/p50/p90/p99/max duration and the record index of the longest's\n"
    "begin (see it with `evrec dump --from '#N'`), and the unmatched begins and ends. An end closes\n"
    "the innermost open begin of the same key (and the same track when both ends have it and share\n"
    "the key field): a begin again for an open key nests in it, as Perfetto's slices do (the pairing\n"
    "of `evrec timeline` and `evrec export --perfetto` too); an end that\n"
    "closes nothing is an unmatched end; spans still open at the last record are unmatched begins\n"
    "(their ends were dropped when the recorder's buffer filled, if it did). In a damaged file\n"
    "(the reader resumes after a damaged chunk, FORMAT.md: SYNC chunks) the 'damage:' line gives\n"
    "the damaged ranges and the records they lost; spans open where records were lost are cut\n"
    "there (unmatched begins, 'cut by damage'), never paired with an end after the gap, and no\n"
    "interval between records of an event is measured across it. Percentiles are\n"
    "nearest-rank, exact while at most 16 Mi durations are kept (128 MiB), else from a log-bucket\n"
    "sketch (DDSketch) within 1% of the exact value.\n"
    "Counter fields (schema `counter: true`): per event and per track, the samples' min/mean/max\n"
    "and the time-weighted mean (each value held until the next sample, the last until the last\n"
    "record).\n"
    "Address fields (schema `format: address`, and IntControl.caller) are listed by their most\n"
    "frequent values. Times are in ticks of the recording's clock, and in seconds when its\n"
    "frequency is known.\n"
    "\n"
    "options:\n"
    "  --elf FILE       resolve addresses to function+offset with the symbols of this ELF file\n"
    "  --top N          locations and address values to list (default 5, at most 8 per field)\n"
    "  --format json    one JSON object instead of the tables: file, lossy and stream_losses\n"
    "                   (recordings made from a stream only: final, exact, lanes[] {lane, dropped,\n"
    "                   drop_places, lost_transport, transport_gaps}, damaged_bytes, damaged_ranges,\n"
    "                   ranges[] {offset, length}), attrs {key: value} (recordings with\n"
    "                   attributes only: device, firmware, boot...), clock_hz, duration_ticks/_ns,\n"
    "                   records, dropped, selection, events[], spans[] (name, track_field, count,\n"
    "                   unmatched_begins, begun_again, open_at_end, cut_by_damage, unmatched_ends,\n"
    "                   percentiles\n"
    "                   \"exact\"|\"sketch\", relative_error, min/p50/p90/p99/max/total _ticks and _ns,\n"
    "                   mean_ticks/_ns, longest {begin_index, end_index}, tracks[] alike), counters[]\n"
    "                   (event, field, unit, samples, min, mean, max, time_weighted_mean, tracks[]),\n"
    "                   rtos (null without the catalogue), sched (kernel traces only: span,\n"
    "                   percentiles, anomalies, tasks[] {task, name, cpu_ticks/_ns, share,\n"
    "                   switches, deleted, ready_after_wakeup and ready_after_preemption {count,\n"
    "                   p50/p90/p99/max/total _ticks/_ns, worst_begin_index, worst_end_index}},\n"
    "                   blocked[] {task, name, on: object|delay|suspended|unknown, event, object,\n"
    "                   object_name, count, total, max, longest_begin_index}, cores[] {core,\n"
    "                   task/isr/idle/kernel/unknown _ticks/_ns, load, switches, tasks[]}),\n"
    "                   addresses[], damage {ranges,\n"
    "                   records_lost, stopped, list[] {offset, length, records_lost (null:\n"
    "                   unknown), index_after (null: none), message}}, error (null when intact)\n"
    "  --tick-hz HZ     EventControl Tick was recorded at HZ: derive the timestamp frequency\n"
    "                   from the ticks (default when the file's time_freq is 0: 10 Hz)\n"
    "  --time-freq HZ   timestamp frequency to use instead of the file's (168M, 1e9, 32768, 1.5k)\n"
    "  -h, --help       this text\n"
    "\n" CLI_SELECT_HELP "\n"
    "Exit status: 0 intact, 1 damaged or unreadable (the statistics of the records that could be\n"
    "read are printed, then each damaged range with its offset on stderr), 2 bad usage (also an unknown\n"
    "event, class, field or enum value name, and a --where syntax error, shown at its column).\n";

typedef struct stats_opts {
    evrec_reader_options_t ropt;
    cli_select_spec_t sel;
    const char *path;
    const char *elf;
    uint32_t top;
    int json; /* --format json */
} stats_opts_t;

static int parse_format(stats_opts_t *o, const char *v)
{
    if (strcmp(v, "json") == 0 || strcmp(v, "text") == 0) {
        o->json = v[0] == 'j';
        return 0;
    }
    return -1;
}

static int parse(int argc, char **argv, stats_opts_t *o)
{
    enum { OPT_ELF = 256, OPT_TOP, OPT_FORMAT };
    static const struct option longopts[] = {
        CLI_SELECT_LONGOPTS,
        {"elf", required_argument, NULL, OPT_ELF},
        {"top", required_argument, NULL, OPT_TOP},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->top = 5;
    cli_getopt_begin();
    int c, rc;
    uint64_t v;
    while ((c = getopt_long(argc, argv, ":n:h", longopts, NULL)) != -1) {
        if ((rc = cli_select_option(&cli_cmd_stats, &o->sel, c, optarg)) != -2) {
            if (rc >= 0) {
                return rc;
            }
            continue;
        }
        switch (c) {
        case OPT_ELF: o->elf = optarg; break;
        case OPT_TOP:
            if (!cli_parse_u64(optarg, 1000000u, &v)) {
                return cli_usage_error(&cli_cmd_stats, "--top expects a count, not '%s'", optarg);
            }
            o->top = (uint32_t)v;
            break;
        case OPT_FORMAT:
            if (parse_format(o, optarg) != 0) {
                return cli_usage_error(&cli_cmd_stats, "--format expects text or json, not '%s'", optarg);
            }
            break;
        default:
            if ((rc = cli_common_option(&cli_cmd_stats, c, argv, &o->ropt)) >= 0) {
                return rc;
            }
        }
    }
    return cli_one_operand(&cli_cmd_stats, argc, argv, "FILE", &o->path);
}

static int run(int argc, char **argv)
{
    stats_opts_t opt;
    int rc = parse(argc, argv, &opt);
    if (rc >= 0) {
        return rc;
    }
    evrec_symbols_t *syms = NULL;
    if (opt.elf) {
        char err[512];
        if (evrec_symbols_load(&syms, opt.elf, err, sizeof err) != EVREC_OK) {
            cli_error("%s", err);
            return CLI_BAD_INPUT;
        }
        if (evrec_symbols_count(syms) == 0) {
            cli_error("%s: no function or object symbols (stripped?): addresses stay numbers", opt.elf);
        }
    }
    cli_stats_display_t display = {opt.path, cli_select_active(&opt.sel), opt.json, opt.top, syms};
    cli_pipeline_opts_t po = {
        .cmd = &cli_cmd_stats, .input = opt.path, .clock = opt.ropt, .select = &opt.sel, .progress = -1};
    rc = cli_pipeline_run(&po, &cli_sink_stats, &display);
    evrec_symbols_free(syms);
    return rc;
}

const cli_command_t cli_cmd_stats = {
    "stats",
    "statistics: per-event counts and rates; span durations (p50/p90/p99), counters; RTOS CPU load, ISR time",
    help,
    run,
};
