/* SPDX-License-Identifier: Apache-2.0 */
/* What the Zephyr hooks share between evrec_zephyr.c (ids, names, set-up) and
 * evrec_zephyr_hooks.c (the tracing callbacks): the build knobs, the state, the lookups. Not
 * installed, not for applications (evrec_zephyr.h is). */
#ifndef EVREC_ZEPHYR_INTERNAL_H
#define EVREC_ZEPHYR_INTERNAL_H

#include <zephyr/kernel.h>

#include "evrec_zephyr.h"
#include "zephyr_events.h"

#ifndef EVREC_ZEPHYR_MAX_CPUS
#if defined(CONFIG_SMP) && defined(CONFIG_MP_MAX_NUM_CPUS)
#define EVREC_ZEPHYR_MAX_CPUS CONFIG_MP_MAX_NUM_CPUS
#else
#define EVREC_ZEPHYR_MAX_CPUS 1
#endif
#endif
#ifndef EVREC_ZEPHYR_NAME_LEN
#define EVREC_ZEPHYR_NAME_LEN 24
#endif
#ifndef EVREC_ZEPHYR_ISR_IDS
#define EVREC_ZEPHYR_ISR_IDS 256
#endif
#ifndef EVREC_ZEPHYR_ISR_ID
#define EVREC_ZEPHYR_ISR_ID() 0u
#endif
#ifdef CONFIG_SMP
#define CPU() ((unsigned)arch_curr_cpu()->id)
#else
#define CPU() 0u
#endif
#if EVREC_ZEPHYR_MAX_CPUS < 1 || EVREC_ZEPHYR_MAX_CPUS > 32
#error "EVREC_ZEPHYR_MAX_CPUS must be in 1..32"
#endif
#if EVREC_ZEPHYR_NAME_LEN < 4 || EVREC_ZEPHYR_NAME_LEN > 64
#error "EVREC_ZEPHYR_NAME_LEN must be in 4..64"
#endif

/* RtosTask 1..63, RtosObject 1..127 (the catalogue's run-time ranges). */
#define TASK_SLOTS 63u
#define OBJECT_SLOTS 127u
#define MAP_SLOTS 256u /* > (63 + 127) / 0.75: open addressing stays short */
#define MAP_OBJECT 0x8000u
#define NO_TASK ((uint16_t)zephyr_RtosTask_NoTask)
/* The sync enums share Block 2, Unblock 3, Timeout 4 (rtos.yaml); op 0 and 1 are each kind's own. */
#define OP_BLOCK ((uint8_t)zephyr_RtosQueueOp_Block)
#define OP_UNBLOCK ((uint8_t)zephyr_RtosQueueOp_Unblock)
#define OP_TIMEOUT ((uint8_t)zephyr_RtosQueueOp_Timeout)

enum { KIND_QUEUE = 1, KIND_SEM, KIND_MUTEX, KIND_EVENT };

typedef struct {
    struct evrec_host *host;        /* records of this CPU go here (NULL: none) */
    const struct k_thread *running; /* switched in and not out, per the records */
    uint8_t idle;                   /* IdleSleep recorded, IdleWake not yet */
    uint8_t isr_depth;              /* IsrEnter without IsrExit */
    uint8_t after_isr;              /* the last hook was the outermost IsrExit */
    uint8_t yield;                  /* k_yield() seen: the next switch-out is a Yield */
} cpu_state_t;

/* The hooks have no context argument: this is the one place their state can live. */
typedef struct {
    cpu_state_t cpu[EVREC_ZEPHYR_MAX_CPUS];
    const void *map_key[MAP_SLOTS];      /* thread or object address */
    uint16_t map_value[MAP_SLOTS];       /* RtosTask, or MAP_OBJECT | RtosObject */
    uint8_t started[TASK_SLOTS + 1u];    /* the thread has run once (TaskSwitchIn Start) */
    uint8_t preempted[TASK_SLOTS + 1u];  /* switched out by an interrupt (ResumeFromIsr next) */
    uint8_t blocked_on[TASK_SLOTS + 1u]; /* object the thread waits on, 0 = none */
    uint8_t kind[OBJECT_SLOTS + 1u];
    uint16_t kind_count[5];
    char task_name[TASK_SLOTS][EVREC_ZEPHYR_NAME_LEN];
    char object_name[OBJECT_SLOTS][EVREC_ZEPHYR_NAME_LEN];
    uint8_t isr_of_id[EVREC_ZEPHYR_ISR_IDS];
} evrec_zephyr_state_t;

extern evrec_zephyr_state_t evrec_zt;

/* A thread's RtosTask value: Idle for an idle thread, NoTask for NULL (an ISR); a thread not seen
 * before gets its value (and name) now. Any context. */
uint16_t evrec_zephyr_task_of(const struct k_thread *t);

/* An object's RtosObject value, given one (named by its kind and a number) when first seen; 0
 * when none is left. Any context. */
uint16_t evrec_zephyr_object_of(const void *object, int kind);

/* The RtosIsr value named for an interrupt number (UnknownIsr when none). */
static inline uint8_t evrec_zephyr_isr_of(unsigned isr_id)
{
    return isr_id < EVREC_ZEPHYR_ISR_IDS ? evrec_zt.isr_of_id[isr_id] : (uint8_t)zephyr_RtosIsr_UnknownIsr;
}

/* The calling CPU's state, NULL when that CPU records nothing. */
static inline cpu_state_t *evrec_zephyr_cpu(void)
{
    unsigned c = CPU();
    return c < EVREC_ZEPHYR_MAX_CPUS && evrec_zt.cpu[c].host != NULL ? &evrec_zt.cpu[c] : NULL;
}

/* A per-thread byte of `table` (started, preempted, blocked_on), NULL for Idle's or NoTask's. */
static inline uint8_t *evrec_zephyr_slot(uint8_t *table, uint16_t task)
{
    return task >= 1u && task <= TASK_SLOTS ? &table[task] : NULL;
}

#endif /* EVREC_ZEPHYR_INTERNAL_H */
