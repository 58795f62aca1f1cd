/* SPDX-License-Identifier: Apache-2.0 */
/* Compile-only test of EVREC_ENABLE 0: this file calls every generated record function and
 * allocator and is linked WITHOUT any recorder library (see CMakeLists.txt). If a record
 * function still referenced the record path (evrec_reserve_failed, ...) the link would fail.
 * Built with -O0, so "nothing" does not depend on the optimiser. */
#include "demo_events.h"

#if EVREC_ENABLE
#error "this test must be built with EVREC_ENABLE=0"
#endif

int main(void)
{
    static evrec_host_t host; /* the type stays complete: user code compiles unchanged */
    demo_TaskId_t task = 0;
    demo_Channel_t chan = 0;
    if (demo_runtime_init() != EVREC_OK || demo_TaskId_alloc("main", &task) != EVREC_OK ||
        demo_Channel_alloc("usb", &chan) != EVREC_OK) {
        return 1;
    }
    demo_Packet_t packet = {chan, 1, {2, 3}, 4};
    demo_record_TaskSwitch(&host, task, task, demo_TaskState_Ready);
    demo_record_IsrEnter(&host, 1);
    demo_record_IsrExit(&host, 1, 2);
    demo_record_PhaseChange(&host, demo_Phase_Done);
    demo_record_Sent(&host, packet, 5);
    demo_record_Fault(&host, demo_ErrorCode_Ok, 1, 2, 3);
    demo_record_Heartbeat(&host);
    /* The tables are still there (a host tool may want them), untouched. */
    return demo_meta.event_count == demo_EVENT_COUNT && task == 1 && chan == 100 ? 0 : 1;
}
