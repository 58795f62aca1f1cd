/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec diff A B`: compare two recordings of the same scenario (before and after a change):
 * spans, tasks, interrupt handlers, event types and counters side by side with a significance
 * test, and timing budgets for a CI gate (viewer-cli/diff, docs/DIFF.md). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"

static const char help[] =
    "usage: evrec diff [--span NAME]... [--event NAME]... [--format text|json|markdown]\n"
    "                  [--alpha P] [--budget FILE.yaml] [--max 'RULE']... [--tick-hz HZ]\n"
    "                  [--time-freq HZ] A.evr B.evr\n"
    "\n"
    "Compare recording B with recording A (say, after and before a change). Losses and damage of\n"
    "either side come first: a comparison of a lossy recording says so. Then one row per span\n"
    "(and per track of a span: FrameStage[Encode]), per task and interrupt handler of a kernel\n"
    "trace (the RTOS catalogue), per event type and per counter, with A's and B's count, rate,\n"
    "p50/p90/p99/max (spans and handlers: durations; tasks: the ready-to-running latency after a\n"
    "wake-up), value (tasks: CPU share; counters: time-weighted mean), the change of the headline\n"
    "value (spans, handlers: p50; events: rate; tasks: CPU share; counters: mean), absolute and\n"
    "relative, the p-value and a verdict. Rows are sorted by significance, then by the size of\n"
    "the relative change; what exists on one side only says so.\n"
    "\n"
    "The test: durations are compared with the Mann-Whitney U test (two-sided), because it makes\n"
    "no assumption on their distribution (durations are skewed, with long tails) and an outlier\n"
    "cannot make a difference on its own: it detects that B's durations tend to be longer or\n"
    "shorter than A's (a location shift). It is exact for at most 20 samples a side without tied\n"
    "values, else it uses the normal approximation with the tie correction. Event counts use the\n"
    "test of the ratio of two Poisson rates (normal approximation). Tasks and counters are not\n"
    "tested (the analysis keeps their totals, not samples). A row is significant when p < alpha.\n"
    "The p99's change gets a 95% interval from order statistics (distribution-free; each side's\n"
    "p99 interval at 97.5%, combined), given with about 500 samples a side or more.\n"
    "Percentiles are nearest-rank, as `evrec stats` gives them.\n"
    "\n"
    "Where the time went (kernel traces: the RTOS catalogue): for the first three spans that grew\n"
    "significantly, the interrupt handlers and tasks (without the handlers that preempted them)\n"
    "whose time inside the span's instances grew most, per instance, with their share of the\n"
    "growth of the mean duration (computed as on one core).\n"
    "\n"
    "Budgets: each rule is 'KIND NAME METRIC: LIMIT', KIND span|task|isr|event|counter, METRIC\n"
    "count|rate|p50|p90|p99|max (spans, isrs; tasks: the wake-up latency), cpu (tasks: share),\n"
    "switches (tasks), mean (counters); LIMIT is B's bound: '+5%' (at most 5% over A), '+1pt'\n"
    "(percentage points over A), '+200us' (over A by at most a time: ns, us, ms, s, or a bare\n"
    "number in the metric's unit), '20us' or '0' (at most this value). A rule that names\n"
    "something neither recording defines is an error. Each violation is one line on stdout with\n"
    "the record to look at in B ('evrec dump B.evr --from #N'); with --format json on stderr.\n"
    "\n"
    "options:\n"
    "  --span NAME        show only this span (and its tracks); repeatable\n"
    "  --event NAME       show only this event type; repeatable (with --span: either)\n"
    "  --format F         text (default, an aligned table), markdown (to paste into a review)\n"
    "                     or json (one object: docs/DIFF.md)\n"
    "  --alpha P          significance level, 0 < P < 1 (default 0.01)\n"
    "  --budget FILE      budget rules: a YAML mapping 'KIND NAME METRIC': LIMIT\n"
    "  --max RULE         one budget rule; repeatable\n"
    "  --tick-hz HZ       EventControl Tick was recorded at HZ (both files)\n"
    "  --time-freq HZ     timestamp frequency to use instead of the files' (both files)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 compared (and within every budget), 1 over budget, 2 bad usage, a bad\n"
    "budget, or an input that could not be read (a damaged input that could be read is compared,\n"
    "its damage shown).\n";

typedef struct diff_opts {
    evrec_reader_options_t ropt;
    const char *paths[2];
    diff_filter_t filter;
    int format;
    double alpha;
    diff_budget_t budget;
} diff_opts_t;

static int parse_value(diff_opts_t *o, int c, const char *v)
{
    char *end;
    switch (c) {
    case 's': o->filter.spans[o->filter.span_count++] = v; return -1;
    case 'e': o->filter.events[o->filter.event_count++] = v; return -1;
    case 'f':
        if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "markdown")) {
            return cli_usage_error(&cli_cmd_diff, "--format expects text, json or markdown, not '%s'", v);
        }
        o->format = v[0] == 't' ? DIFF_TEXT : v[0] == 'j' ? DIFF_JSON : DIFF_MARKDOWN;
        return -1;
    case 'a':
        o->alpha = strtod(v, &end);
        if (*end || !(o->alpha > 0 && o->alpha < 1)) {
            return cli_usage_error(&cli_cmd_diff, "--alpha expects a level between 0 and 1, not '%s'", v);
        }
        return -1;
    case 'b': return diff_budget_load(&o->budget, v) == 0 ? -1 : CLI_USAGE;
    case 'm': return diff_budget_add(&o->budget, v, "--max") == 0 ? -1 : CLI_USAGE;
    default: return -2;
    }
}

static int parse(int argc, char **argv, diff_opts_t *o)
{
    static const struct option longopts[] = {
        {"span", required_argument, NULL, 's'},
        {"event", required_argument, NULL, 'e'},
        {"format", required_argument, NULL, 'f'},
        {"alpha", required_argument, NULL, 'a'},
        {"budget", required_argument, NULL, 'b'},
        {"max", required_argument, NULL, 'm'},
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    o->alpha = 0.01;
    o->filter.spans = calloc((size_t)argc, sizeof *o->filter.spans);
    o->filter.events = calloc((size_t)argc, sizeof *o->filter.events);
    if (!o->filter.spans || !o->filter.events) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        rc = parse_value(o, c, optarg);
        if (rc == -2) {
            rc = cli_common_option(&cli_cmd_diff, c, argv, &o->ropt);
        }
        if (rc >= 0) {
            return rc;
        }
    }
    if (argc - optind != 2) {
        return cli_usage_error(&cli_cmd_diff, "expected two recordings A.evr B.evr, got %d argument(s)",
                               argc - optind);
    }
    o->paths[0] = argv[optind];
    o->paths[1] = argv[optind + 1];
    return -1;
}

/* Read both sides: 2 when one could not be read at all (damage that left records is shown). */
static int read_sides(const diff_opts_t *o, diff_side_t side[2])
{
    int rc = 0;
    for (int i = 0; i < 2; i++) {
        int r = diff_side_read(&side[i], o->paths[i], &o->ropt);
        if (r == CLI_USAGE || (r != CLI_OK && side[i].records == 0 && side[i].count == 0)) {
            rc = CLI_USAGE;
        }
    }
    return rc;
}

/* Compare, print, check the budgets: the exit code. */
static int compare(const diff_opts_t *o, const diff_side_t side[2])
{
    diff_t d;
    diff_compare(&d, &side[0], &side[1], o->alpha, &o->filter);
    diff_explain(&d);
    int rc = cli_stdout_done(diff_print(&d, o->format)) ? CLI_OK : CLI_BAD_INPUT;
    if (rc == CLI_OK && o->budget.count) {
        rc = diff_budget_check(&o->budget, &d,
                               o->format == DIFF_JSON ? stderr : stdout); /* JSON stays one object */
        if (!cli_stdout_done(1) && rc == CLI_OK) {
            rc = CLI_BAD_INPUT;
        }
    }
    diff_free(&d);
    return rc;
}

static int run(int argc, char **argv)
{
    diff_opts_t o;
    memset(&o, 0, sizeof o);
    diff_side_t side[2];
    memset(side, 0, sizeof side);
    int rc = parse(argc, argv, &o);
    if (rc < 0) {
        rc = read_sides(&o, side);
        if (rc == CLI_OK) {
            rc = compare(&o, side);
        }
    }
    diff_side_free(&side[0]);
    diff_side_free(&side[1]);
    diff_budget_free(&o.budget);
    free(o.filter.spans);
    free(o.filter.events);
    return rc;
}

const cli_command_t cli_cmd_diff = {
    "diff",
    "compare two recordings: spans, tasks, ISRs, events, counters with a significance test; timing budgets",
    help,
    run,
};
