/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec stats` analysis on synthetic traces recorded with the generated RTOS catalogue code
 * and the fake-clock recorder: per-task and per-ISR CPU time, idle, kernel and unknown time
 * must match to the tick (the clock is pinned before every record), with nesting, trace edges,
 * interrupt-disabled spans, waits, per-event counts; and a random schedule whose ground truth is
 * kept by the generator itself. */
#include "stats_trace.h"

static rtos_RtosTask_t task_a, task_b, task_c;
static rtos_RtosIsr_t isr_uart, isr_timer, isr_dma;
static rtos_RtosObject_t sem_rx, mtx_log;

static void name_things(void)
{
    cr_assert_eq(rtos_RtosTask_alloc("task_a", &task_a), EVREC_OK);
    cr_assert_eq(rtos_RtosTask_alloc("task_b", &task_b), EVREC_OK);
    cr_assert_eq(rtos_RtosTask_alloc("task_c", &task_c), EVREC_OK);
    cr_assert_eq(rtos_RtosIsr_alloc("uart", &isr_uart), EVREC_OK);
    cr_assert_eq(rtos_RtosIsr_alloc("timer", &isr_timer), EVREC_OK);
    cr_assert_eq(rtos_RtosIsr_alloc("dma", &isr_dma), EVREC_OK);
    cr_assert_eq(rtos_RtosObject_alloc("sem_rx", &sem_rx), EVREC_OK);
    cr_assert_eq(rtos_RtosObject_alloc("mtx_log", &mtx_log), EVREC_OK);
}

/* The scenario of the README, times in ticks (the comments give what each interval is). */
static void record_scenario(trace_t *tr)
{
    trace_start(tr, 4096, 1000); /* Start */
    name_things();
    evrec_host_t *h = &tr->host;
    at(1100);
    rtos_record_TaskSwitchIn(h, task_a, rtos_RtosResume_Start); /* [1000,1100) unknown */
    at(1300);
    rtos_record_IsrEnter(h, isr_uart, 37); /* [1100,1300) a */
    at(1350);
    rtos_record_IsrEnter(h, isr_timer, 15); /* [1300,1350) uart */
    at(1400);
    rtos_record_IsrExit(h, isr_timer, 15); /* [1350,1400) timer */
    at(1450);
    rtos_record_IsrExit(h, isr_uart, 37); /* [1400,1450) uart */
    at(1590);
    rtos_record_SemOp(h, task_a, sem_rx, rtos_RtosSemOp_Block); /* [1450,1600) a */
    at(1600);
    rtos_record_TaskSwitchOut(h, task_a, rtos_RtosSuspend_Blocked);
    at(1620);
    rtos_record_TaskSwitchIn(h, task_b, rtos_RtosResume_Resume); /* [1600,1620) kernel */
    at(1700);
    rtos_record_IntControl(h, rtos_RtosIntControl_Disable, 0x1000); /* b from here to 2200 */
    at(1750);
    rtos_record_IntControl(h, rtos_RtosIntControl_DisableNested, 0x1010);
    at(1760);
    rtos_record_IntControl(h, rtos_RtosIntControl_DisableNested, 0x1014);
    at(1800);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, 0x1040); /* span 100 */
    at(1810);
    rtos_record_IntControl(h, rtos_RtosIntControl_Restore, 0x1050);
    at(1900);
    rtos_record_IntControl(h, rtos_RtosIntControl_Disable, 0x2000);
    at(2100);
    rtos_record_SemOp(h, task_a, sem_rx, rtos_RtosSemOp_Unblock); /* wait 510 */
    at(2150);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, 0x2040); /* span 250 */
    at(2160);
    rtos_record_MutexOp(h, task_b, mtx_log, rtos_RtosMutexOp_Lock);
    at(2170);
    rtos_record_MutexOp(h, task_b, mtx_log, rtos_RtosMutexOp_Unlock);
    at(2200);
    rtos_record_TaskSwitchOut(h, task_b, rtos_RtosSuspend_Yield); /* [1620,2200) b */
    at(2210);
    rtos_record_IdleSleep(h); /* [2200,2210) kernel */
    at(2500);
    rtos_record_IsrEnter(h, isr_uart, 37); /* [2210,2500) idle */
    at(2560);
    rtos_record_IsrExit(h, isr_uart, 37); /* [2500,2560) uart */
    at(2600);
    rtos_record_IdleWake(h); /* [2560,2600) idle */
    at(2650);
    rtos_record_TaskSwitchIn(h, task_a, rtos_RtosResume_ResumeFromIsr); /* [2600,2650) kernel */
    trace_stop(tr, 3000);                                               /* [2650,3000) a */
}

Test(stats_cpu, known_scenario_to_the_tick)
{
    trace_t tr;
    record_scenario(&tr);
    analysed_t a = analyse(&tr.file);
    const evrec_stats_rtos_t *rt = a.rt;
    cr_assert(rt->has_cpu && rt->has_int && rt->has_sync);
    cr_assert_null(rt->mismatch);
    cr_assert_eq(rt->span_ticks, 2000);
    cr_assert_eq(rt->task_count, 2);
    cr_assert_eq(rt->isr_count, 2);
    const evrec_stats_context_t *ta = TASK(a, task_a), *tb = TASK(a, task_b);
    cr_assert_eq(ta->ticks, 200 + 150 + 350);
    cr_assert_eq(tb->ticks, 580);
    cr_assert_str_eq(ta->name, "task_a");
    cr_assert_str_eq(tb->name, "task_b");
    cr_assert_eq(ta->activations, 2);
    cr_assert_eq(tb->activations, 1);
    cr_assert_eq(ta->max_ticks, 350, "the first run of a (the second is open at the end)");
    cr_assert_eq(tb->max_ticks, 580);
    cr_assert(!ta->open_at_start && ta->open_at_end);
    cr_assert(!tb->open_at_start && !tb->open_at_end);
    const evrec_stats_context_t *iu = ISR(a, isr_uart), *it = ISR(a, isr_timer);
    cr_assert_eq(iu->ticks, 50 + 50 + 60);
    cr_assert_eq(it->ticks, 50);
    cr_assert_eq(iu->activations, 2);
    cr_assert_eq(iu->max_ticks, 100, "exclusive time of the nested activation");
    cr_assert_eq(iu->max_inclusive, 150);
    cr_assert_eq(iu->vector, 37);
    cr_assert_eq(it->vector, 15);
    cr_assert_str_eq(iu->name, "uart");
    cr_assert_eq(rt->max_isr_depth, 2);
    cr_assert_eq(rt->idle_ticks, 290 + 40);
    cr_assert_eq(rt->kernel_ticks, 20 + 10 + 50);
    cr_assert_eq(rt->unknown_ticks, 100);
    cr_assert_eq(rt->task_ticks + rt->isr_ticks + rt->idle_ticks + rt->kernel_ticks + rt->unknown_ticks,
                 rt->span_ticks);
    cr_assert_eq(rt->anomalies, 0, "%s", rt->first_anomaly ? rt->first_anomaly : "");
    /* Sorted by descending CPU time. */
    cr_assert_eq(rt->tasks[0].value, task_a);
    cr_assert_eq(rt->isrs[0].value, isr_uart);

    cr_assert_eq(rt->int_spans, 2);
    cr_assert_eq(rt->int_ticks, 350);
    cr_assert_eq(rt->longest.ticks, 250);
    cr_assert_eq(rt->longest.start_t64, 900);
    cr_assert_eq(rt->longest.disable_caller, 0x2000);
    cr_assert_eq(rt->longest.restore_caller, 0x2040);
    cr_assert(!rt->int_open_at_start && !rt->int_open_at_end);
    cr_assert_eq(rt->int_site_count, 2);
    cr_assert_eq(rt->int_sites[0].caller, 0x2000);
    cr_assert_eq(rt->int_sites[1].caller, 0x1000);
    cr_assert_eq(rt->int_sites[1].max_ticks, 100);

    cr_assert_eq(rt->sync_count, 2);
    const evrec_stats_sync_t *m = &rt->sync[0], *s = &rt->sync[1];
    cr_assert_str_eq(evrec_reader_event_name(a.r, m->event_id), "MutexOp");
    cr_assert_str_eq(m->name, "mtx_log");
    cr_assert_eq(m->ops, 2);
    cr_assert_eq(m->by_type[rtos_RtosMutexOp_Lock], 1);
    cr_assert_eq(m->blocks, 0);
    cr_assert_str_eq(evrec_reader_event_name(a.r, s->event_id), "SemOp");
    cr_assert_eq(s->blocks, 1);
    cr_assert_eq(s->waits, 1);
    cr_assert_eq(s->wait_max, 510);
    cr_assert_eq(s->wait_max_task, task_a);
    cr_assert_str_eq(s->wait_max_task_name, "task_a");
    cr_assert_eq(rt->still_blocked, 0);

    /* Generic part: counts and intervals per event type. */
    uint32_t n;
    const evrec_stats_event_t *ev = evrec_stats_events(a.s, &n);
    cr_assert_eq(n, rtos_EVENT_COUNT);
    cr_assert_eq(ev[rtos_ID_EventControl].count, 2); /* Start, Stop */
    cr_assert_eq(ev[rtos_ID_IsrEnter].count, 3);
    cr_assert_eq(ev[rtos_ID_IsrEnter].first_t64, 300);
    cr_assert_eq(ev[rtos_ID_IsrEnter].last_t64, 1500);
    cr_assert_eq(ev[rtos_ID_IsrEnter].min_gap, 50);
    cr_assert_eq(ev[rtos_ID_IsrEnter].max_gap, 1150);
    cr_assert_eq(ev[rtos_ID_IntControl].count, 7);
    cr_assert_eq(ev[rtos_ID_QueueOp].count, 0);
    cr_assert_eq(evrec_stats_summary(a.s)->records, 26); /* Start, 24 events, Stop */

    /* IntControl.caller is an address field by contract, with or without FIELD_INFO. */
    uint32_t na;
    const evrec_stats_address_t *ad = evrec_stats_addresses(a.s, &na);
    cr_assert_geq(na, 1);
    const evrec_stats_address_t *caller = NULL;
    for (uint32_t i = 0; i < na; i++) {
        if (ad[i].event_id == rtos_ID_IntControl) {
            caller = &ad[i];
        }
    }
    cr_assert_not_null(caller);
    cr_assert_str_eq(caller->field, "caller");
    cr_assert_eq(caller->records, 7);
    cr_assert_eq(caller->distinct, 7);
    cr_assert_eq(caller->top[0].value, 0x1000, "ties by ascending value");
    analysed_free(&a);
    trace_free(&tr);
}

/* A trace that begins inside an ISR with interrupts disabled and a task running, and ends inside
 * another ISR with interrupts disabled: the edge rules of evrec_analysis.h. */
Test(stats_cpu, trace_edges)
{
    trace_t tr;
    trace_start(&tr, 4096, 0);
    name_things();
    evrec_host_t *h = &tr.host;
    at(50);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, 0x3000); /* open at start: 50 */
    at(100);
    rtos_record_IsrExit(h, isr_uart, 37); /* uart since before the trace: [0,100) */
    at(250);
    rtos_record_IsrEnter(h, isr_timer, 15); /* [100,250) unknown base ... */
    at(270);
    rtos_record_IsrExit(h, isr_timer, 15); /* [250,270) timer */
    at(300);
    rtos_record_TaskSwitchOut(h, task_a, rtos_RtosSuspend_Preempted); /* ... claimed by a: 150 + 30 */
    at(400);
    rtos_record_TaskSwitchIn(h, task_b, rtos_RtosResume_Resume); /* [300,400) kernel */
    at(450);
    rtos_record_QueueOp(h, task_b, sem_rx, rtos_RtosQueueOp_Block); /* never unblocked */
    at(900);
    rtos_record_IsrEnter(h, isr_dma, 3); /* [400,900) b */
    at(950);
    rtos_record_IntControl(h, rtos_RtosIntControl_Disable, 0x4000); /* open at end: 50 */
    trace_stop(&tr, 1000);                                          /* [900,1000) dma, open at end */
    analysed_t a = analyse(&tr.file);
    const evrec_stats_rtos_t *rt = a.rt;
    cr_assert_eq(rt->span_ticks, 1000);
    const evrec_stats_context_t *iu = ISR(a, isr_uart), *id = ISR(a, isr_dma), *it = ISR(a, isr_timer);
    cr_assert_eq(iu->ticks, 100);
    cr_assert(iu->open_at_start && !iu->open_at_end);
    cr_assert_eq(iu->max_ticks, 0, "a cut activation is not ranked");
    cr_assert_eq(it->ticks, 20);
    cr_assert_eq(it->max_ticks, 20);
    cr_assert_eq(id->ticks, 100);
    cr_assert(!id->open_at_start && id->open_at_end);
    const evrec_stats_context_t *ta = TASK(a, task_a), *tb = TASK(a, task_b);
    cr_assert_eq(ta->ticks, 180);
    cr_assert(ta->open_at_start);
    cr_assert_eq(tb->ticks, 500);
    cr_assert(tb->open_at_end, "b's run was cut by the end (an ISR had preempted it)");
    cr_assert_eq(tb->max_ticks, 0);
    cr_assert_eq(rt->kernel_ticks, 100);
    cr_assert_eq(rt->unknown_ticks, 0, "every unknown tick was claimed by an edge rule");
    cr_assert_eq(rt->task_ticks + rt->isr_ticks + rt->idle_ticks + rt->kernel_ticks + rt->unknown_ticks, 1000);
    cr_assert_eq(rt->anomalies, 0, "%s", rt->first_anomaly ? rt->first_anomaly : "");
    cr_assert_eq(rt->int_spans, 0);
    cr_assert(rt->int_open_at_start);
    cr_assert_eq(rt->int_open_start_ticks, 50);
    cr_assert(rt->int_open_at_end);
    cr_assert_eq(rt->int_open_end_ticks, 50);
    cr_assert_eq(rt->int_open_end_caller, 0x4000);
    cr_assert_eq(rt->still_blocked, 1);
    analysed_free(&a);
    trace_free(&tr);
}

/* Records that contradict the state are counted, not trusted. */
Test(stats_cpu, anomalies_are_counted)
{
    trace_t tr;
    trace_start(&tr, 4096, 0);
    name_things();
    evrec_host_t *h = &tr.host;
    at(10);
    rtos_record_TaskSwitchIn(h, task_a, rtos_RtosResume_Start);
    at(20);
    rtos_record_IsrExit(h, isr_uart, 37); /* not running */
    at(30);
    rtos_record_TaskSwitchOut(h, task_b, rtos_RtosSuspend_Preempted); /* b is not running */
    at(40);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, 0x10); /* unknown: open at start */
    at(50);
    rtos_record_IntControl(h, rtos_RtosIntControl_RestoreEnable, 0x20); /* already enabled */
    trace_stop(&tr, 100);
    analysed_t a = analyse(&tr.file);
    cr_assert_eq(a.rt->anomalies, 3);
    cr_assert_not_null(a.rt->first_anomaly);
    cr_assert(strstr(a.rt->first_anomaly, "IsrExit of uart"), "%s", a.rt->first_anomaly);
    cr_assert_eq(a.rt->first_anomaly_t64, 20);
    cr_assert_eq(a.rt->task_ticks + a.rt->isr_ticks + a.rt->idle_ticks + a.rt->kernel_ticks + a.rt->unknown_ticks,
                 100);
    analysed_free(&a);
    trace_free(&tr);
}

/* ---- random schedules: the generator knows what runs at every tick ---- */

typedef struct truth {
    uint64_t task[4], isr[4], idle, kernel, unknown;
} truth_t;

static uint32_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

Test(stats_cpu, random_schedules_match_the_generator)
{
    /* 40 random schedules: run n starts the generator at n. */
    for (uint32_t run = 1; run <= 40; run++) {
        rng_state = run;
        trace_t tr;
        uint32_t t = 1000 + rnd(1000);
        trace_start(&tr, 1 << 16, t);
        name_things();
        rtos_RtosTask_t tasks[4] = {0, task_a, task_b, task_c}; /* index 0 = idle task */
        rtos_RtosIsr_t isrs[3] = {isr_uart, isr_timer, isr_dma};
        truth_t tru;
        memset(&tru, 0, sizeof tru);
        int base = -1; /* -1 unknown, -2 kernel, -3 idle sleep, 0 idle task, 1..3 tasks */
        int stack[3], depth = 0;
        for (int step = 0; step < 400; step++) {
            uint32_t dt = rnd(50);
            /* Ground truth: the interval before this record belongs to what runs now. */
            if (depth) {
                tru.isr[stack[depth - 1]] += dt;
            } else if (base == -1) {
                tru.unknown += dt;
            } else if (base == -2) {
                tru.kernel += dt;
            } else if (base == -3 || base == 0) {
                tru.idle += dt;
            } else {
                tru.task[base] += dt;
            }
            t += dt;
            at(t);
            uint32_t action = rnd(6);
            if (action == 0 && depth < 3) {
                int i = (int)rnd(3);
                stack[depth++] = i;
                rtos_record_IsrEnter(&tr.host, isrs[i], (uint16_t)(16 + i));
            } else if (action == 1 && depth > 0) {
                depth--;
                rtos_record_IsrExit(&tr.host, isrs[stack[depth]], (uint16_t)(16 + stack[depth]));
            } else if (action == 2 && base >= 0 && base != -1) {
                rtos_record_TaskSwitchOut(&tr.host, tasks[base], rtos_RtosSuspend_Preempted);
                base = -2;
            } else if (action == 3) {
                int next = (int)rnd(4);
                rtos_record_TaskSwitchIn(&tr.host, tasks[next], rtos_RtosResume_Resume);
                base = next;
            } else if (action == 4 && (base == -2 || base > 0)) {
                rtos_record_IdleSleep(&tr.host);
                base = -3;
            } else if (action == 5 && base == -3) {
                rtos_record_IdleWake(&tr.host);
                base = -2;
            } else {
                rtos_record_SemOp(&tr.host, 0xFFFF, sem_rx, rtos_RtosSemOp_Give); /* no context change */
            }
        }
        uint32_t dt = rnd(50);
        if (depth) {
            tru.isr[stack[depth - 1]] += dt;
        } else if (base == -1) {
            tru.unknown += dt;
        } else if (base == -2) {
            tru.kernel += dt;
        } else if (base == -3 || base == 0) {
            tru.idle += dt;
        } else {
            tru.task[base] += dt;
        }
        trace_stop(&tr, t + dt);
        analysed_t a = analyse(&tr.file);
        const evrec_stats_rtos_t *rt = a.rt;
        cr_assert_eq(rt->anomalies, 0, "schedule %u: %s", run, rt->first_anomaly ? rt->first_anomaly : "");
        for (int i = 1; i < 4; i++) {
            uint64_t got = 0;
            for (uint32_t k = 0; k < rt->task_count; k++) {
                if (rt->tasks[k].value == tasks[i]) {
                    got = rt->tasks[k].ticks;
                }
            }
            cr_assert_eq(got, tru.task[i], "schedule %u task %d: %llu, expected %llu", run, i,
                         (unsigned long long)got, (unsigned long long)tru.task[i]);
        }
        for (int i = 0; i < 3; i++) {
            uint64_t got = 0;
            for (uint32_t k = 0; k < rt->isr_count; k++) {
                if (rt->isrs[k].value == isrs[i]) {
                    got = rt->isrs[k].ticks;
                }
            }
            cr_assert_eq(got, tru.isr[i], "schedule %u isr %d", run, i);
        }
        cr_assert_eq(rt->idle_ticks, tru.idle, "schedule %u idle", run);
        cr_assert_eq(rt->kernel_ticks, tru.kernel, "schedule %u kernel", run);
        cr_assert_eq(rt->unknown_ticks, tru.unknown, "schedule %u unknown", run);
        analysed_free(&a);
        trace_free(&tr);
    }
}
