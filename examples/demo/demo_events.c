/* Meta-info tables of the demo's event types (see demo_events.h), written by hand in the shape
 * `evrec-gen` emits: enums, structs with offsetof-based fields, events with class ids. */
#include "demo_events.h"

/* ---- enums ---- */

static const evrec_enum_value_t stage_values[] = {
    {DEMO_STAGE_CAPTURE, "Capture", EVREC_MARKER_NONE},
    {DEMO_STAGE_PROCESS, "Process", EVREC_MARKER_NONE},
    {DEMO_STAGE_ENCODE, "Encode", EVREC_MARKER_NONE},
    {DEMO_STAGE_SINK, "Sink", EVREC_MARKER_NONE},
};

static const evrec_enum_value_t frame_type_values[] = {
    {DEMO_FRAME_START, "Start", EVREC_MARKER_UP},
    {DEMO_FRAME_DONE, "Done", EVREC_MARKER_DOWN},
};

static const evrec_enum_value_t drop_reason_values[] = {
    {DEMO_DROP_NO_BUFFER, "NoFreeBuffer", EVREC_MARKER_ERROR},
    {DEMO_DROP_BAD_CHECK, "BadCheck", EVREC_MARKER_ERROR},
};

static const evrec_enum_value_t queue_values[] = {
    {DEMO_QUEUE_FREE_POOL, "FreePool", EVREC_MARKER_NONE},
    {DEMO_QUEUE_TO_PROCESS, "ToProcess", EVREC_MARKER_NONE},
    {DEMO_QUEUE_TO_ENCODE, "ToEncode", EVREC_MARKER_NONE},
    {DEMO_QUEUE_TO_SINK, "ToSink", EVREC_MARKER_NONE},
};

static const evrec_enum_value_t queue_op_values[] = {
    {DEMO_QUEUE_PUT, "Put", EVREC_MARKER_UP},
    {DEMO_QUEUE_GET, "Get", EVREC_MARKER_DOWN},
    {DEMO_QUEUE_WAKE, "Wake", EVREC_MARKER_PUSH},
};

static const evrec_enum_value_t wait_type_values[] = {
    {DEMO_WAIT_NOT_EMPTY, "WaitNotEmpty", EVREC_MARKER_WAIT},
    {DEMO_WAIT_NOT_FULL, "WaitNotFull", EVREC_MARKER_WAIT},
    {DEMO_WAIT_WOKEN, "Woken", EVREC_MARKER_PASS},
};

static const evrec_enum_value_t lock_type_values[] = {
    {DEMO_LOCK_FREE, "Free", EVREC_MARKER_NONE},
    {DEMO_LOCK_BLOCKED, "Blocked", EVREC_MARKER_DOWN_BLOCK},
};

static const evrec_enum_value_t frame_number_values[] = {
    {DEMO_FRAME_NONE, "none", EVREC_MARKER_NONE},
};

static const char *thread_names[DEMO_THREAD_LIM - DEMO_THREAD_BASE];
evrec_runtime_enum_t demo_thread_enum;

#define VALUES(a) (uint32_t)(sizeof(a) / sizeof((a)[0])), (a)

static const evrec_enum_desc_t enums[DEMO_ENUM_COUNT] = {
    [DEMO_ENUM_EVENT_CONTROL_TYPE] = {"EventControlType", EVREC_KIND_ENUM_UINT8, 4,
                                      evrec_control_enum_values, NULL},
    [DEMO_ENUM_THREAD] = {"DemoThread", EVREC_KIND_ENUM_UINT8, 0, NULL, &demo_thread_enum},
    [DEMO_ENUM_STAGE] = {"DemoStage", EVREC_KIND_ENUM_UINT8, VALUES(stage_values), NULL},
    [DEMO_ENUM_FRAME_TYPE] = {"DemoFrameType", EVREC_KIND_ENUM_UINT8, VALUES(frame_type_values), NULL},
    [DEMO_ENUM_DROP_REASON] = {"DemoDropReason", EVREC_KIND_ENUM_UINT8, VALUES(drop_reason_values),
                               NULL},
    [DEMO_ENUM_QUEUE] = {"DemoQueue", EVREC_KIND_ENUM_UINT8, VALUES(queue_values), NULL},
    [DEMO_ENUM_QUEUE_OP] = {"DemoQueueOp", EVREC_KIND_ENUM_UINT8, VALUES(queue_op_values), NULL},
    [DEMO_ENUM_WAIT_TYPE] = {"DemoWaitType", EVREC_KIND_ENUM_UINT8, VALUES(wait_type_values), NULL},
    [DEMO_ENUM_LOCK_TYPE] = {"DemoLockType", EVREC_KIND_ENUM_UINT8, VALUES(lock_type_values), NULL},
    [DEMO_ENUM_FRAME_NUMBER] = {"DemoFrameNumber", EVREC_KIND_ENUM_UINT32, VALUES(frame_number_values),
                                NULL},
};

/* ---- structs ---- */

#define F(T, name, kind, ref) {#name, (kind), (ref), (uint16_t)offsetof(T, name)}
#define HEADER(T) F(T, time, EVREC_KIND_UINT32, 0), F(T, id, EVREC_KIND_UINT16, 0)
#define E8(T, name, enum_id) F(T, name, EVREC_KIND_ENUM_UINT8, (enum_id))

static const evrec_field_desc_t control_fields[] = {EVREC_CONTROL_FIELDS(DEMO_ENUM_EVENT_CONTROL_TYPE)};

static const evrec_field_desc_t frame_event_fields[] = {
    HEADER(demo_frame_event_t),
    E8(demo_frame_event_t, thread, DEMO_ENUM_THREAD),
    E8(demo_frame_event_t, stage, DEMO_ENUM_STAGE),
    E8(demo_frame_event_t, type, DEMO_ENUM_FRAME_TYPE),
    F(demo_frame_event_t, frame, EVREC_KIND_UINT32, 0),
    F(demo_frame_event_t, bytes, EVREC_KIND_UINT32, 0),
};

static const evrec_field_desc_t frame_drop_fields[] = {
    HEADER(demo_frame_drop_t),
    E8(demo_frame_drop_t, thread, DEMO_ENUM_THREAD),
    E8(demo_frame_drop_t, stage, DEMO_ENUM_STAGE),
    E8(demo_frame_drop_t, type, DEMO_ENUM_DROP_REASON),
    F(demo_frame_drop_t, frame, EVREC_KIND_UINT32, 0),
};

static const evrec_field_desc_t queue_event_fields[] = {
    HEADER(demo_queue_event_t),
    E8(demo_queue_event_t, thread, DEMO_ENUM_THREAD),
    E8(demo_queue_event_t, queue, DEMO_ENUM_QUEUE),
    E8(demo_queue_event_t, type, DEMO_ENUM_QUEUE_OP),
    F(demo_queue_event_t, depth, EVREC_KIND_UINT16, 0),
    F(demo_queue_event_t, capacity, EVREC_KIND_UINT16, 0),
    F(demo_queue_event_t, frame, EVREC_KIND_ENUM_UINT32, DEMO_ENUM_FRAME_NUMBER),
};

static const evrec_field_desc_t queue_wait_fields[] = {
    HEADER(demo_queue_wait_t),
    E8(demo_queue_wait_t, thread, DEMO_ENUM_THREAD),
    E8(demo_queue_wait_t, queue, DEMO_ENUM_QUEUE),
    E8(demo_queue_wait_t, type, DEMO_ENUM_WAIT_TYPE),
    F(demo_queue_wait_t, depth, EVREC_KIND_UINT16, 0),
    F(demo_queue_wait_t, wait_ns, EVREC_KIND_UINT32, 0),
};

static const evrec_field_desc_t lock_event_fields[] = {
    HEADER(demo_lock_event_t),
    E8(demo_lock_event_t, thread, DEMO_ENUM_THREAD),
    E8(demo_lock_event_t, lock, DEMO_ENUM_QUEUE),
    E8(demo_lock_event_t, type, DEMO_ENUM_LOCK_TYPE),
    F(demo_lock_event_t, wait_ns, EVREC_KIND_UINT32, 0),
};

#define FIELDS(a) (uint32_t)(sizeof(a) / sizeof((a)[0])), (a)

static const evrec_struct_desc_t structs[DEMO_STRUCT_COUNT] = {
    [DEMO_STRUCT_EVENT_CONTROL] = {"EventControl", FIELDS(control_fields),
                                   (uint16_t)sizeof(evrec_control_event_t)},
    [DEMO_STRUCT_FRAME_EVENT] = {"FrameEvent", FIELDS(frame_event_fields),
                                 (uint16_t)sizeof(demo_frame_event_t)},
    [DEMO_STRUCT_FRAME_DROP] = {"FrameDrop", FIELDS(frame_drop_fields),
                                (uint16_t)sizeof(demo_frame_drop_t)},
    [DEMO_STRUCT_QUEUE_EVENT] = {"QueueEvent", FIELDS(queue_event_fields),
                                 (uint16_t)sizeof(demo_queue_event_t)},
    [DEMO_STRUCT_QUEUE_WAIT] = {"QueueWait", FIELDS(queue_wait_fields),
                                (uint16_t)sizeof(demo_queue_wait_t)},
    [DEMO_STRUCT_LOCK_EVENT] = {"LockEvent", FIELDS(lock_event_fields),
                                (uint16_t)sizeof(demo_lock_event_t)},
};

/* ---- events ---- */

static const evrec_event_desc_t events[DEMO_EVENT_COUNT] = {
    [DEMO_EVENT_CONTROL] = {DEMO_STRUCT_EVENT_CONTROL, DEMO_CLASS_CONTROL},
    [DEMO_EVENT_FRAME] = {DEMO_STRUCT_FRAME_EVENT, DEMO_CLASS_FRAME},
    [DEMO_EVENT_FRAME_DROP] = {DEMO_STRUCT_FRAME_DROP, DEMO_CLASS_FRAME},
    [DEMO_EVENT_QUEUE] = {DEMO_STRUCT_QUEUE_EVENT, DEMO_CLASS_QUEUE},
    [DEMO_EVENT_QUEUE_WAIT] = {DEMO_STRUCT_QUEUE_WAIT, DEMO_CLASS_QUEUE},
    [DEMO_EVENT_LOCK] = {DEMO_STRUCT_LOCK_EVENT, DEMO_CLASS_LOCK},
};

const evrec_meta_t demo_meta = {
    .time_freq = 0, /* the recording's frequency is given to evrec_host_start() */
    .enum_count = DEMO_ENUM_COUNT,
    .enums = enums,
    .struct_count = DEMO_STRUCT_COUNT,
    .structs = structs,
    .event_count = DEMO_EVENT_COUNT,
    .events = events,
    .schema_hash = 0,
};

evrec_status demo_events_init(void)
{
    return evrec_runtime_enum_init(&demo_thread_enum, DEMO_THREAD_BASE, DEMO_THREAD_LIM,
                                   EVREC_MARKER_NONE, thread_names);
}

uint8_t demo_thread_name(const char *name)
{
    uint32_t v = DEMO_THREAD_LIM;
    (void)evrec_runtime_enum_alloc(&demo_thread_enum, name, &v);
    return (uint8_t)v;
}
