/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec diff` on kernel traces made through the FreeRTOS port's schema (the RTOS catalogue plus
 * TaskReady): every millisecond task a is woken and runs 100 us of its own, interrupted once by
 * handler uart0 (a's slice lasts 100 us + the handler's), and task b runs 90 us; on B uart0 takes
 * 10 us longer. The task and ISR rows, the test of the handler's durations, "where the time
 * went" (a's slice grew by the handler's time), and budgets on tasks and handlers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli_run.h"
#include "../common/fake_clock.h"
#include "../common/mem_sink.h"
#include "evrec/evrec_save.h"
#include "freertos_events.h"

#define CYCLES 300u
#define ISR_SHIFT 10u /* us (time_freq 1 MHz) */

static void cycle(evrec_host_t *h, uint32_t t, uint32_t isr_us, const freertos_RtosTask_t task[2],
                  freertos_RtosIsr_t uart0)
{
    at(t), freertos_record_TaskReady(h, task[0]);
    at(t + 5), freertos_record_TaskSwitchIn(h, task[0], freertos_RtosResume_Resume);
    at(t + 20), freertos_record_IsrEnter(h, uart0, 37);
    at(t + 20 + isr_us), freertos_record_IsrExit(h, uart0, 37);
    at(t + 105 + isr_us), freertos_record_TaskSwitchOut(h, task[0], freertos_RtosSuspend_Delay);
    at(t + 500), freertos_record_TaskReady(h, task[1]);
    at(t + 510), freertos_record_TaskSwitchIn(h, task[1], freertos_RtosResume_Resume);
    at(t + 600), freertos_record_TaskSwitchOut(h, task[1], freertos_RtosSuspend_Delay);
}

static void record_side(const char *path, uint64_t seed, uint32_t isr_shift)
{
    static uint32_t buf[1u << 16];
    evrec_recorder_t rec;
    evrec_host_t host;
    cr_assert_eq(evrec_recorder_init(&rec, buf, sizeof buf), EVREC_OK);
    cr_assert_eq(freertos_runtime_init(), EVREC_OK);
    evrec_host_init(&host);
    at(0);
    cr_assert_eq(evrec_host_start(&host, &rec, &freertos_meta, 1000000u), EVREC_OK);
    freertos_RtosTask_t task[2];
    freertos_RtosIsr_t uart0;
    cr_assert_eq(freertos_RtosTask_alloc("a", &task[0]), EVREC_OK);
    cr_assert_eq(freertos_RtosTask_alloc("b", &task[1]), EVREC_OK);
    cr_assert_eq(freertos_RtosIsr_alloc("uart0", &uart0), EVREC_OK);
    uint64_t s = seed;
    for (uint32_t i = 0; i < CYCLES; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull; /* an LCG: 5..9 us */
        cycle(&host, 100 + i * 1000, 5 + (uint32_t)(s >> 33) % 5 + isr_shift, task, uart0);
    }
    at(100 + CYCLES * 1000);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    cr_assert_eq(evrec_recorder_counts(&rec).dropped, 0);
    mem_t m = {NULL, 0, 0};
    evrec_sink_t sink = {mem_write, &m};
    cr_assert_eq(evrec_save(&rec, &sink), EVREC_OK);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(m.data, 1, m.len, f), m.len);
    cr_assert_eq(fclose(f), 0);
    free(m.data);
}

/* The JSON row of (kind, name): its line in a static buffer. */
static const char *json_row(const char *out, const char *kind, const char *name)
{
    static char line[4096];
    char key[128];
    snprintf(key, sizeof key, "{\"kind\":\"%s\",\"name\":\"%s\",", kind, name);
    const char *p = strstr(out, key);
    cr_assert_not_null(p, "no row %s %s in\n%s", kind, name, out);
    size_t n = strcspn(p, "\n");
    cr_assert_lt(n, sizeof line);
    memcpy(line, p, n);
    line[n] = 0;
    return line;
}

static double json_num(const char *row, const char *member)
{
    const char *p = strstr(row, member);
    cr_assert_not_null(p, "no %s in %s", member, row);
    return strtod(p + strlen(member), NULL);
}

/* The text table has a line "KIND  NAME ..." (blanks between the columns). */
static int has_row(const char *out, const char *kind, const char *name)
{
    for (const char *p = out; (p = strstr(p, kind)) != NULL; p++) {
        if (p != out && p[-1] != '\n') {
            continue;
        }
        const char *q = p + strlen(kind);
        q += strspn(q, " ");
        if (strncmp(q, name, strlen(name)) == 0 && q[strlen(name)] == ' ') {
            return 1;
        }
    }
    return 0;
}

Test(diff_kernel, task_and_isr_rows_and_budgets)
{
    char *dir = cli_temp_dir("diffk");
    char a[600], b[600];
    snprintf(a, sizeof a, "%s/a.evr", dir);
    snprintf(b, sizeof b, "%s/b.evr", dir);
    record_side(a, 1, 0);
    record_side(b, 2, ISR_SHIFT);

    cli_run_t r = cli_run(EVREC_CLI_PATH, "diff", "--format", "json", a, b, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "\"kernel\":true"), "%s", r.out);
    const char *isr = json_row(r.out, "isr", "uart0");
    cr_assert_not_null(strstr(isr, "\"significant\":true"), "%s", isr);
    double change = json_num(isr, "\"change\":");
    cr_assert(change > (ISR_SHIFT - 3) * 1000.0 && change < (ISR_SHIFT + 3) * 1000.0, "%s", isr);
    const char *ta = json_row(r.out, "task", "a");
    /* a's CPU share excludes the handler: 100 us of 1000 on both */
    double share_a = json_num(strstr(ta, "\"a\":{"), "\"value\":");
    double share_b = json_num(strstr(ta, "\"b\":{"), "\"value\":");
    cr_assert(share_a > 9.9 && share_a < 10.1 && share_b > 9.9 && share_b < 10.1, "%s", ta);
    const char *run = json_row(r.out, "span", "TaskRunning[a]");
    const char *why = strstr(run, "\"explain\":\"isr uart0 +");
    cr_assert_not_null(why, "the handler first: %s", run);
    double share = strtod(strstr(why, "per span (") + strlen("per span ("), NULL);
    cr_assert(share > 95 && share < 105 && !strstr(why, "task a"), "%s", run);
    json_row(r.out, "task", "b");
    cli_run_free(&r);

    r = cli_run(EVREC_CLI_PATH, "diff", a, b, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_log_info("%s", r.out);
    cr_assert(has_row(r.out, "isr", "uart0") && has_row(r.out, "task", "a") && has_row(r.out, "task", "b"), "%s",
              r.out);
    cli_run_free(&r);

    r = cli_run(EVREC_CLI_PATH, "diff", "--max", "isr uart0 max: 12us", "--max", "task a cpu: +1pt", "--max",
                "task b switches: +0", a, b, NULL);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    char want[700];
    snprintf(want, sizeof want, "over budget: isr uart0 max: 12us: ");
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    snprintf(want, sizeof want, "; worst: evrec dump %s --from '#", b);
    cr_assert_not_null(strstr(r.out, want), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "budget: 3 rule(s), 1 over budget"), "%s", r.out);
    cli_run_free(&r);

    r = cli_run(EVREC_CLI_PATH, "diff", "--max", "isr uart1 max: 12us", a, b, NULL);
    cr_assert_eq(r.status, 2, "%s%s", r.out, r.err);
    cli_run_free(&r);
    free(dir);
}
