/* SPDX-License-Identifier: Apache-2.0 */
/* ELF symbolisation (libelf) against a firmware built by this test's CMake, whose symbol
 * addresses and sizes come from binutils' nm at build time (fw_symbols.h); the Thumb bit of an
 * ARM firmware when arm-none-eabi-gcc is present; and `evrec stats --elf` end to end on a trace
 * whose interrupt-disabled spans were recorded at known offsets into the firmware's functions. */
#include <stdio.h>
#include <unistd.h>

#include "evrec/evrec_symbols.h"
#include "fw_symbols.h"
#include "stats_trace.h"
#include "../common/test_tmp.h"

static char *fmt(const evrec_symbols_t *t, uint64_t addr)
{
    static char buf[4][160];
    static int k;
    char *b = buf[k++ & 3];
    evrec_symbols_format(t, addr, b, sizeof buf[0]);
    return b;
}

static evrec_symbols_t *load(const char *path)
{
    evrec_symbols_t *t = NULL;
    char err[256] = "";
    cr_assert_eq(evrec_symbols_load(&t, path, err, sizeof err), EVREC_OK, "%s", err);
    cr_assert_gt(evrec_symbols_count(t), 3);
    return t;
}

Test(stats_elf, host_firmware_function_plus_offset)
{
    evrec_symbols_t *t = load(STATS_FW_HOST);
    cr_assert_gt(FW_HOST_fw_uart_isr_SIZE, 0x12, "the function is too small for the test");
    cr_assert_str_eq(fmt(t, FW_HOST_fw_uart_isr + 0x12), "fw_uart_isr+0x12");
    cr_assert_str_eq(fmt(t, FW_HOST_fw_uart_isr), "fw_uart_isr");
    cr_assert_str_eq(fmt(t, FW_HOST_fw_timer_isr + FW_HOST_fw_timer_isr_SIZE - 1),
                     fmt(t, FW_HOST_fw_timer_isr + FW_HOST_fw_timer_isr_SIZE - 1));
    char expect[64];
    snprintf(expect, sizeof expect, "fw_timer_isr+0x%x", (unsigned)(FW_HOST_fw_timer_isr_SIZE - 1));
    cr_assert_str_eq(fmt(t, FW_HOST_fw_timer_isr + FW_HOST_fw_timer_isr_SIZE - 1), expect);
    cr_assert_str_eq(fmt(t, FW_HOST_fw_main + 4), "fw_main+0x4");
    cr_assert_str_eq(fmt(t, FW_HOST_fw_buffer + 5), "fw_buffer+0x5");
    cr_assert_str_eq(fmt(t, FW_HOST_fw_counter), "fw_counter");
    /* One past the end of the function is not in it. */
    const char *name = NULL;
    uint64_t off = 0;
    if (evrec_symbols_lookup(t, FW_HOST_fw_uart_isr + FW_HOST_fw_uart_isr_SIZE, &name, &off)) {
        cr_assert_str_neq(name, "fw_uart_isr");
    }
    /* Nowhere: the hexadecimal form. */
    cr_assert_str_eq(fmt(t, 0xFFFFFFF0u), "0xfffffff0");
    cr_assert_str_eq(fmt(NULL, 0x1234), "0x00001234");
    char small[8];
    cr_assert_eq(evrec_symbols_format(t, FW_HOST_fw_uart_isr + 0x12, small, sizeof small),
                 strlen("fw_uart_isr+0x12"));
    cr_assert_str_eq(small, "fw_uart");
    evrec_symbols_free(t);
}

Test(stats_elf, arm_thumb_bit)
{
#ifdef STATS_FW_ARM
    evrec_symbols_t *t = load(STATS_FW_ARM);
    uint32_t start = FW_ARM_fw_uart_isr & ~1u;
    cr_assert_gt(FW_ARM_fw_uart_isr_SIZE, 0x12);
    /* A return address as LR holds it: the Thumb bit set. */
    cr_assert_str_eq(fmt(t, start + 0x12 + 1), "fw_uart_isr+0x12");
    cr_assert_str_eq(fmt(t, start + 0x12), "fw_uart_isr+0x12");
    cr_assert_str_eq(fmt(t, start | 1u), "fw_uart_isr", "a function pointer (Thumb bit set)");
    cr_assert_str_eq(fmt(t, (FW_ARM_fw_timer_isr & ~1u) + 8), "fw_timer_isr+0x8");
    cr_assert_str_eq(fmt(t, FW_ARM_fw_buffer + 3), "fw_buffer+0x3", "data addresses keep bit 0");
    evrec_symbols_free(t);
#else
    cr_skip_test("arm-none-eabi-gcc not found at configure time");
#endif
}

Test(stats_elf, bad_files)
{
    evrec_symbols_t *t = (evrec_symbols_t *)1;
    char err[256] = "";
    cr_assert_eq(evrec_symbols_load(&t, "/nonexistent/fw.elf", err, sizeof err), EVREC_E_IO);
    cr_assert_null(t);
    cr_assert(strstr(err, "/nonexistent/fw.elf"), "%s", err);
    cr_assert_eq(evrec_symbols_load(&t, EVREC_TEST_DATA "/ccore/ref.bin", err, sizeof err), EVREC_E_CORRUPT);
    cr_assert(strstr(err, "not an ELF file"), "%s", err);
    cr_assert_eq(evrec_symbols_load(NULL, STATS_FW_HOST, NULL, 0), EVREC_E_ARG);
}

/* ---- evrec stats end to end ---- */

static char *run(const char *args, int *status)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", EVREC_CLI_PATH, args);
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    size_t k;
    while ((k = fread(out + n, 1, cap - 1 - n, p)) > 0) {
        n += k;
        if (n + 1 == cap) {
            cap *= 2;
            out = realloc(out, cap);
        }
    }
    out[n] = 0;
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

static void write_file(const char *path, const mem_t *m)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(m->data, 1, m->len, f), m->len);
    fclose(f);
}

Test(stats_elf, evrec_stats_with_elf)
{
    trace_t tr;
    trace_start(&tr, 4096, 0);
    rtos_RtosTask_t ta, tb;
    rtos_RtosIsr_t iu;
    cr_assert_eq(rtos_RtosTask_alloc("task_a", &ta), EVREC_OK);
    cr_assert_eq(rtos_RtosTask_alloc("task_b", &tb), EVREC_OK);
    cr_assert_eq(rtos_RtosIsr_alloc("uart", &iu), EVREC_OK);
    rtos_RtosObject_t rx;
    cr_assert_eq(rtos_RtosObject_alloc("rx_sem", &rx), EVREC_OK);
    evrec_host_t *h = &tr.host;
    uint32_t uart = FW_HOST_fw_uart_isr, tmr = FW_HOST_fw_timer_isr;
    at(100);
    rtos_record_TaskSwitchIn(h, ta, rtos_RtosResume_Start);
    at(150);
    rtos_record_SemOp(h, ta, rx, rtos_RtosSemOp_Block);
    at(200);
    rtos_record_IsrEnter(h, iu, 37);
    at(210);
    rtos_record_IntControl(h, rtos_RtosIntControl_Disable, uart + 0x10);
    at(460);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, uart + 0x20); /* 250 */
    at(500);
    rtos_record_IsrExit(h, iu, 37);
    at(600);
    rtos_record_IntControl(h, rtos_RtosIntControl_Disable, tmr + 0x8);
    at(700);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, tmr + 0xC); /* 100 */
    at(800);
    rtos_record_TaskSwitchIn(h, tb, rtos_RtosResume_Resume);
    at(850);
    rtos_record_SemOp(h, ta, rx, rtos_RtosSemOp_Unblock); /* waited 700 */
    at(900);
    rtos_record_IdleSleep(h);
    trace_stop(&tr, 1100);
    char path[256];
    int fd = test_tmp_file(path, sizeof path, "stats"); /* removed at exit, also on failure */
    cr_assert_geq(fd, 0);
    close(fd);
    write_file(path, &tr.file);
    char args[1024];
    int st;

    snprintf(args, sizeof args, "stats --elf '%s' '%s'", STATS_FW_HOST, path);
    char *out = run(args, &st);
    cr_assert_eq(st, 0, "%s", out);
    cr_assert(strstr(out, "clock:       100000000 Hz (from the file)"), "%s", out);
    cr_assert(strstr(out, "longest interrupt-disabled span: 250 ticks (2.5 us) at fw_uart_isr+0x10, restored at "
                          "fw_uart_isr+0x20"),
              "%s", out);
    cr_assert(strstr(out, "interrupts disabled (IntControl): 2 span(s), 350 ticks in all (31.82% of the trace)"),
              "%s", out);
    cr_assert(strstr(out, "         1             100        1.0 us             100  fw_timer_isr+0x8\n"), "%s",
              out);
    /* task_a ran [100,200) and [500,800): 400 ticks of 1100, its longest run 400 (the ISR excluded). */
    cr_assert(strstr(out,
                     "\n  task task_a                                         400      4.0 us   36.36%       1"
                     "           400      4.0 us\n"),
              "%s", out);
    cr_assert(
        strstr(out, "\n  isr  uart (vector 37)                               300      3.0 us   27.27%       1"),
        "%s", out);
    cr_assert(strstr(out, "\n  idle                                                200      2.0 us   18.18%\n"),
              "%s", out);
    cr_assert(strstr(out, "  load: 81.82% busy (900 ticks), idle 18.18%"), "%s", out);
    cr_assert(strstr(out, "unknown (before the first task event)"), "%s", out);
    cr_assert(strstr(out, "IntControl.caller: 4 record(s), 4 distinct value(s)"), "%s", out);
    cr_assert(strstr(out, "synchronisation objects: 1\n"), "%s", out);
    cr_assert(strstr(out, "  SemOp     rx_sem"), "%s", out);
    cr_assert(strstr(out, "         2         1         0         1        7.0 us        7.0 us  (task_a)\n"),
              "%s", out);
    free(out);

    /* Without --elf the addresses stay numbers. */
    snprintf(args, sizeof args, "stats '%s'", path);
    out = run(args, &st);
    cr_assert_eq(st, 0);
    char hex[64];
    snprintf(hex, sizeof hex, "at 0x%08x, restored at 0x%08x", uart + 0x10, uart + 0x20);
    cr_assert(strstr(out, hex), "%s\n%s", hex, out);
    cr_assert(strstr(out, "(give --elf to name them)"), "%s", out);
    free(out);

    /* A file that is not ELF for --elf: exit 1, the reason on stderr. */
    snprintf(args, sizeof args, "stats --elf '%s' '%s'", path, path);
    out = run(args, &st);
    cr_assert_eq(st, 1);
    cr_assert(strstr(out, "not an ELF file"), "%s", out);
    free(out);
    unlink(path);
    trace_free(&tr);
}

Test(stats_elf, evrec_stats_generic_file)
{
    int st;
    char *out = run("stats '" EVREC_TEST_DATA "/ccore/ref.bin'", &st);
    cr_assert_eq(st, 0, "%s", out);
    cr_assert(strstr(out, "duration:    0.005000000 s (5000 ticks)"), "%s", out);
    cr_assert(strstr(out, "dropped: unknown (CCore files do not count drops)"), "%s", out);
    cr_assert(strstr(out, "      2  ObjEvent"), "%s", out);
    cr_assert(strstr(out, "           2       400.000     0.001000000 s     0.004000000 s      3.000 ms"), "%s",
              out);
    cr_assert(strstr(out, "RTOS catalogue: not in this file"), "%s", out);
    free(out);
    out = run("stats", &st);
    cr_assert_eq(st, 2);
    cr_assert(strstr(out, "missing FILE"), "%s", out);
    free(out);
}
