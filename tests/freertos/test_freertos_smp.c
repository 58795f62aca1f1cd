/* SPDX-License-Identifier: Apache-2.0 */
/* The FreeRTOS trace hooks on SMP (configNUMBER_OF_CORES 2), without the kernel: the core id
 * from portGET_CORE_ID(), one evrec lane per core (evrec_lanes), each core's switches in its own
 * lane with its own running task. The mock is of the kernel internals the macros read. */
#include <criterion/criterion.h>
#include <string.h>

#include "evrec/evrec_lanes.h"

#define configUSE_TRACE_FACILITY 1
#define configNUMBER_OF_CORES 2
#define configIDLE_TASK_NAME "IDLE"
/* A kernel before V11 (no traceENTER_* macros): the idle tasks are known by their names. */
#define tskKERNEL_VERSION_MAJOR 10
static unsigned mock_core;
#define portGET_CORE_ID() mock_core
#include "evrec_freertos.h"
#include "freertos_events.h"

typedef struct {
    void *pvContainer;
} ListItem_t;
typedef struct {
    int items;
} List_t;
#define listLIST_ITEM_CONTAINER(item) ((item)->pvContainer)
typedef struct {
    ListItem_t xStateListItem, xEventListItem;
    unsigned uxPriority, uxTaskNumber;
    unsigned uxTCBNumber; /* the kernel's: 1, 2, ... in creation order */
    char pcTaskName[16];
} TCB_t;
static List_t ready_list, xDelayedTaskList1, xDelayedTaskList2;
static TCB_t *current_tcb[2];
#define pxCurrentTCB current_tcb[mock_core] /* the SMP kernel: xTaskGetCurrentTaskHandle() */

_Static_assert(EVREC_FREERTOS_CORES == 2, "configNUMBER_OF_CORES read");

static evrec_recorder_t rec;
static evrec_lane_t lane_mem[2];
static evrec_lanes_t lanes;
static uint64_t buf[4096];

static void create(unsigned core, TCB_t *t, const char *name)
{
    static unsigned tcb_number;
    memset(t, 0, sizeof *t);
    t->uxTCBNumber = ++tcb_number;
    memcpy(t->pcTaskName, name, strlen(name));
    t->xStateListItem.pvContainer = &ready_list;
    mock_core = core;
    traceTASK_CREATE(t);
}

static void switch_on(unsigned core, TCB_t *t)
{
    mock_core = core;
    if (pxCurrentTCB != NULL) {
        traceTASK_SWITCHED_OUT();
    }
    pxCurrentTCB = t;
    traceTASK_SWITCHED_IN();
}

Test(freertos_smp, each_core_records_into_its_lane)
{
    static TCB_t idle0, idle1, a, b;
    cr_assert_eq(evrec_recorder_init(&rec, buf, sizeof buf), EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&lanes, lane_mem, 2), EVREC_OK);
    evrec_host_t *hosts[2] = {evrec_lane_host_at(&lanes, 0), evrec_lane_host_at(&lanes, 1)};
    cr_assert_eq(evrec_freertos_init(hosts, 2), EVREC_OK);
    cr_assert_eq(evrec_lanes_start(&lanes, &rec, &freertos_meta, 1000u), EVREC_OK);
    create(0, &idle0, "IDLE0"); /* lane 0: TaskCreate */
    create(0, &idle1, "IDLE1"); /* lane 0: TaskCreate */
    create(1, &a, "a");         /* lane 1: TaskCreate */
    create(1, &b, "b");         /* lane 1: TaskCreate */
    cr_assert_eq(idle0.uxTaskNumber, freertos_RtosTask_Idle);
    cr_assert_eq(idle1.uxTaskNumber, freertos_RtosTask_Idle);
    switch_on(0, &idle0); /* lane 0: In */
    switch_on(1, &a);     /* lane 1: In */
    switch_on(0, &idle0); /* core 0 keeps its task: nothing */
    switch_on(1, &b);     /* lane 1: Out a, In b (a was core 1's) */
    switch_on(0, &a);     /* lane 0: Out idle, In a */
    cr_assert_eq(evrec_lanes_stop(&lanes, NULL), EVREC_OK);
    /* Each lane's count includes its Start and Stop. */
    cr_assert_eq(evrec_recorder_lane_counts(&rec, 0).recorded, 2u + 2u + 1u + 2u);
    cr_assert_eq(evrec_recorder_lane_counts(&rec, 1).recorded, 2u + 2u + 1u + 2u);
    cr_assert_eq(evrec_recorder_lane_counts(&rec, 0).dropped, 0u);
}

Test(freertos_smp, init_takes_one_host_per_core)
{
    evrec_host_t h;
    evrec_host_t *hosts[3] = {&h, &h, &h};
    cr_assert_eq(evrec_freertos_init(hosts, 3), EVREC_E_ARG); /* built for two cores */
    cr_assert_eq(evrec_freertos_init(hosts, 2), EVREC_OK);
}
