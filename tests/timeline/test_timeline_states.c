/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline` task-state lanes (kernel traces): the known two-core schedule of
 * `timeline_rtos_trace smp` (tests/timeline/rtos_trace.c, smp_schedule()) rendered by the evrec
 * binary; the lanes, their order, the time each task spends running (and on which cores), ready,
 * blocked and suspended, and the wait labelled with its object, read from the --layout lines
 * (`task`, `wait`, viewer-cli/timeline/TIMELINE.md); the SVG's tooltip of that wait; a file that is
 * not a kernel trace gets none of them. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/test_tmp.h"

static char dir[64];

static void setup(void)
{
    cr_assert_eq(test_tmp_template(dir, sizeof dir, "tls"), 0);
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct task_line {
    unsigned long long t[4]; /* running, ready, blocked, suspended (ns) */
    unsigned cores;
    char label[96];
} task_line_t;

typedef struct states {
    char rows[16][96];
    unsigned nrows;
    task_line_t tasks[16];
    unsigned ntasks;
    double wx0, wx1, xa, xb;
    int wlabelled, nwaits;
    char wlane[256], wobject[256];
    unsigned long long from, to;
} states_t;

static states_t read_states(const char *path)
{
    states_t s;
    memset(&s, 0, sizeof s);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no layout %s", path);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        task_line_t *t = &s.tasks[s.ntasks];
        double y, h;
        unsigned slots;
        char kind[16], rest[256];
        if (sscanf(line, "plot %lf %lf", &s.xa, &s.xb) == 2 ||
            sscanf(line, "window %llu %llu", &s.from, &s.to) == 2) {
            continue;
        }
        if (s.nrows < 16 &&
            sscanf(line, "row %15s %lf %lf %u %95[^\n]", kind, &y, &h, &slots, s.rows[s.nrows]) == 5) {
            s.nrows++;
        } else if (s.ntasks < 16 && sscanf(line, "task %llu %llu %llu %llu %x %95[^\n]", &t->t[0], &t->t[1],
                                           &t->t[2], &t->t[3], &t->cores, t->label) == 6) {
            s.ntasks++;
        } else if (sscanf(line, "wait %lf %lf %d %255[^\n]", &s.wx0, &s.wx1, &s.wlabelled, rest) == 4) {
            s.nwaits++;
            char *tab = strchr(rest, '\t');
            cr_assert_not_null(tab, "wait line without a tab: %s", line);
            *tab = 0;
            snprintf(s.wlane, sizeof s.wlane, "%s", rest);
            snprintf(s.wobject, sizeof s.wobject, "%s", tab + 1);
        }
    }
    fclose(f);
    return s;
}

static const task_line_t *task_of(const states_t *s, const char *label)
{
    for (unsigned i = 0; i < s->ntasks; i++) {
        if (strcmp(s->tasks[i].label, label) == 0) {
            return &s->tasks[i];
        }
    }
    cr_assert_fail("no task line %s", label);
    return NULL;
}

TestSuite(timeline_states, .init = setup, .fini = teardown);

/* The schedule (ticks of 10 ns from Start at 1000; smp_schedule() in rtos_trace.c):
 *   task_a running c0 [1100,1210) [1400,1700), c1 [1810,1900); blocked on sem_rx [1210,1300);
 *          ready (woken) [1300,1400), (yield) [1700,1810); exits at 1900
 *   task_b running c1 [1105,1500) [1610,1800); ready (preempted) [1500,1610); suspended [1800,2000)
 *   task_c running c1 [1500,1600); blocked (delay) [1600,2000)
 *   Idle   running c0 [1220,1400) [1710,2000); ready (preempted) [1400,1710)   Stop 2000 */
Test(timeline_states, two_cores_known_schedule)
{
    char evr[128], png[128], lay[128];
    snprintf(evr, sizeof evr, "%s/smp.evr", dir);
    snprintf(png, sizeof png, "%s/smp.png", dir);
    snprintf(lay, sizeof lay, "%s/smp.layout", dir);
    cr_assert_eq(sh("'%s' smp '%s' >/dev/null", TL_TRACE_PATH, evr), 0);
    cr_assert_eq(sh("'%s' timeline '%s' --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, png), 0);
    states_t s = read_states(lay);
    /* tasks by first appearance (no priority recorded), the idle task last */
    const char *order[] = {"task_a", "task_b", "task_c", "Idle"};
    cr_assert_eq(s.nrows, 4);
    cr_assert_eq(s.ntasks, 4);
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_str_eq(s.rows[i], order[i], "row %u", i);
        cr_assert_str_eq(s.tasks[i].label, order[i], "task line %u", i);
    }
    static const struct {
        const char *task;
        unsigned long long run, ready, blocked, suspended; /* ticks */
        unsigned cores;
    } want[] = {
        {"task_a", 110 + 300 + 90, 100 + 110, 90, 0, 0x3},
        {"task_b", 395 + 190, 110, 0, 200, 0x2},
        {"task_c", 100, 0, 400, 0, 0x2},
        {"Idle", 180 + 290, 310, 0, 0, 0x1},
    };
    for (unsigned i = 0; i < 4; i++) {
        const task_line_t *t = task_of(&s, want[i].task);
        cr_assert_eq(t->t[0], want[i].run * 10, "%s running %llu ns", want[i].task, t->t[0]);
        cr_assert_eq(t->t[1], want[i].ready * 10, "%s ready %llu ns", want[i].task, t->t[1]);
        cr_assert_eq(t->t[2], want[i].blocked * 10, "%s blocked %llu ns", want[i].task, t->t[2]);
        cr_assert_eq(t->t[3], want[i].suspended * 10, "%s suspended %llu ns", want[i].task, t->t[3]);
        cr_assert_eq(t->cores, want[i].cores, "%s cores 0x%x", want[i].task, t->cores);
    }
    /* the one wait on a named object: task_a on sem_rx [1210,1300), wide enough for its name */
    cr_assert_eq(s.nwaits, 1);
    cr_assert_str_eq(s.wlane, "task_a");
    cr_assert_str_eq(s.wobject, "sem_rx");
    cr_assert_eq(s.wlabelled, 1);
    double k = (s.xb - s.xa) / (double)(s.to - s.from);
    cr_assert_float_eq(s.wx0, s.xa + 2100 * k, 1.0);
    cr_assert_float_eq(s.wx1, s.xa + 3000 * k, 1.0);
}

Test(timeline_states, svg_tooltip_of_a_wait)
{
    char evr[128], svg[128];
    snprintf(evr, sizeof evr, "%s/smp.evr", dir);
    snprintf(svg, sizeof svg, "%s/smp.svg", dir);
    cr_assert_eq(sh("'%s' smp '%s' >/dev/null", TL_TRACE_PATH, evr), 0);
    cr_assert_eq(sh("'%s' timeline '%s' -o '%s'", EVREC_CLI_PATH, evr, svg), 0);
    cr_assert_eq(sh("grep -q '<title>task_a blocked on sem_rx (SemOp), 900 ns</title></rect>' '%s'", svg), 0);
    cr_assert_eq(sh("python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' '%s'", svg), 0,
                 "the SVG is not well-formed XML");
}

Test(timeline_states, not_a_kernel_trace_has_no_task_states)
{
    char evr[128], svg[128], lay[128];
    snprintf(evr, sizeof evr, "%s/shend.evr", dir);
    snprintf(svg, sizeof svg, "%s/shend.svg", dir);
    snprintf(lay, sizeof lay, "%s/shend.layout", dir);
    cr_assert_eq(sh("'%s' '%s' >/dev/null", TL_SHARED_END_PATH, evr), 0);
    cr_assert_eq(sh("'%s' timeline '%s' --layout '%s' -o '%s'", EVREC_CLI_PATH, evr, lay, svg), 0);
    states_t s = read_states(lay);
    cr_assert_gt(s.nrows, 0);
    cr_assert_eq(s.ntasks, 0);
    cr_assert_eq(s.nwaits, 0);
    cr_assert_neq(sh("grep -q 'evrec-task-waits' '%s'", svg), 0);
}
