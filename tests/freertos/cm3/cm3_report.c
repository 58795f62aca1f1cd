/* SPDX-License-Identifier: Apache-2.0 */
/*
 * End of the FreeRTOS Cortex-M3 run, in the reporter task (the highest priority): read the
 * kernel's run-time statistics and stop the trace at once (both cover the same run), print the
 * figures on the semihosting console and save the trace to a host file. Console lines (read by
 * tests/freertos/qemu_cm3_test.sh):
 *   kernel: total <ticks>            the run-time counter when read (TIMER1 ticks, 25 MHz)
 *   kernel: task <name> <ticks>      each task's ulRunTimeCounter
 *   fw: trace <on|off> recorded <n> dropped <n> saved <path>
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#include "cm3.h"
#include "semihost.h"

#if CM3_TRACE
#include "evrec/evrec_save.h"
#endif

#define MAX_TASKS 16u

static TaskStatus_t status[MAX_TASKS];

static UBaseType_t status_count;
static configRUN_TIME_COUNTER_TYPE status_total;

static void read_kernel(void)
{
    status_count = uxTaskGetSystemState(status, MAX_TASKS, &status_total);
}

static void print_kernel(void)
{
    sh_puts("kernel: total ");
    sh_put_u32((uint32_t)status_total);
    sh_puts("\n");
    for (UBaseType_t i = 0; i < status_count; i++) {
        sh_puts("kernel: task ");
        sh_puts(status[i].pcTaskName);
        sh_puts(" ");
        sh_put_u32((uint32_t)status[i].ulRunTimeCounter);
        sh_puts("\n");
    }
}

#if CM3_TRACE
static int sink_write(void *ctx, const void *data, size_t len)
{
    return sh_write(*(const long *)ctx, data, len);
}

static void save(evrec_recorder_t *rec, const char *path)
{
    long fd = sh_open_write(path);
    evrec_sink_t sink = {sink_write, &fd};
    if (fd < 0 || evrec_save(rec, &sink) != EVREC_OK || sh_close(fd) != 0) {
        sh_puts("fw: cannot save the trace\n");
        sh_exit(2);
    }
    evrec_recorder_counts_t c = evrec_recorder_counts(rec);
    sh_puts("fw: trace on recorded ");
    sh_put_u32((uint32_t)c.recorded);
    sh_puts(" dropped ");
    sh_put_u32((uint32_t)c.dropped);
    sh_puts(" saved ");
    sh_puts(path);
    sh_puts("\n");
}
#endif

void cm3_report(const char *path)
{
#if CM3_TRACE
    evrec_recorder_t *rec = NULL;
    /* Interrupts masked: no hook runs between the kernel's figures and the trace's end. The
     * figures first: the running task's includes the time since its switch-in, and
     * evrec_host_stop() takes time (it waits for every record to be committed). */
    taskENTER_CRITICAL();
    read_kernel();
    (void)evrec_host_stop(&cm3_host, &rec);
    taskEXIT_CRITICAL();
    print_kernel();
    if (rec == NULL) {
        sh_puts("fw: the trace was not running\n");
        sh_exit(2);
    }
    save(rec, path);
#else
    (void)path;
    read_kernel();
    print_kernel();
    sh_puts("fw: trace off\n");
#endif
    sh_exit(0);
}
