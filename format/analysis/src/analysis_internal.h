/* SPDX-License-Identifier: Apache-2.0 */
/* Private declarations shared by the analysis files (format/analysis/src/analysis_*.c). */
#ifndef EVREC_ANALYSIS_INTERNAL_H
#define EVREC_ANALYSIS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_analysis.h"

/* ---- a u64 -> u32 hash map (open addressing, linear probing); analysis_map.c ---- */

typedef struct an_map {
    uint64_t *keys;
    uint32_t *vals; /* UINT32_MAX = empty slot */
    size_t cap;     /* power of two, or 0 */
    size_t used;
} an_map_t;

/* The value stored for key, or UINT32_MAX. */
uint32_t an_map_get(const an_map_t *m, uint64_t key);
/* Store key -> val (val != UINT32_MAX). 0 on success, -1 when memory runs out. */
int an_map_put(an_map_t *m, uint64_t key, uint32_t val);
/* Remove key (no-op when absent). */
void an_map_del(an_map_t *m, uint64_t key);
void an_map_free(an_map_t *m);

/* Grow *arr (elements of `size` bytes) so that index n fits; 0 ok, -1 out of memory. */
int an_grow(void **arr, uint32_t *cap, uint32_t n, size_t size);

/* ---- the catalogue contract: roles and fields; analysis_catalogue.c ---- */

typedef enum an_role {
    AN_NONE = 0,
    AN_SWITCH_IN,
    AN_SWITCH_OUT,
    AN_ISR_ENTER,
    AN_ISR_EXIT,
    AN_IDLE_SLEEP,
    AN_IDLE_WAKE,
    AN_INT_CONTROL,
    AN_SYNC
} an_role;

/* Where a top-level integer field lies in the packed (big-endian) record. */
typedef struct an_field {
    int present;
    uint32_t offset; /* bytes from the record start */
    uint8_t size;    /* 1, 2 or 4 */
    uint8_t kind;
    uint16_t enum_id; /* enum kinds */
    int is_enum;
} an_field_t;

typedef struct an_event {
    an_role role;
    an_field_t task, isr, vector, type, caller, object;
    /* AN_SYNC: the `type` values named Block, Unblock, Timeout (UINT32_MAX when unnamed). */
    uint32_t block_v, unblock_v, timeout_v;
} an_event_t;

/* The ThreadX logger's interrupt control types (its _tx_thread_interrupt_control; see
 * ports/rtos/README.md). */
enum { AN_INT_DISABLE = 7, AN_INT_RESTORE = 8, AN_INT_DISABLE_NESTED = 39, AN_INT_RESTORE_ENABLE = 40 };

/* Fill roles[] (meta->event_count entries) from the meta-info; append problems to mismatch
 * (a NUL-terminated buffer of mismatch_size bytes). Returns the number of events with a role. */
uint32_t an_catalogue_find(const evrec_meta_t *m, an_event_t *roles, char *mismatch, size_t mismatch_size);

/* The kernel ports' lifecycle events (TaskReady, TaskCreate, TaskDelete of
 * ports/rtos/freertos/freertos.yaml and ports/rtos/threadx/threadx.yaml), recognised by name and
 * layout; *task gets the `task` field. */
typedef enum an_life { AN_LIFE_NONE = 0, AN_LIFE_READY, AN_LIFE_CREATE, AN_LIFE_DELETE } an_life;
an_life an_catalogue_lifecycle(const evrec_meta_t *m, uint32_t id, an_field_t *task);

/* The FreeRTOS port's task notifications (NotifyOp {task: RtosTask, giver: RtosTask, type:
 * RtosNotifyOp, index: uint8} of ports/rtos/freertos/freertos.yaml), recognised by name and
 * layout: 1 and *out filled as a sync operation without object (role AN_SYNC, task, type and its
 * Block/Unblock/Timeout values), else 0. */
int an_catalogue_notify(const evrec_meta_t *m, uint32_t id, an_event_t *out);

/* The ThreadX port's block and byte pool operations (PoolOp {task: RtosTask, object: RtosObject,
 * type: RtosPoolOp} of ports/rtos/threadx/threadx.yaml), recognised by name and layout: 1 and
 * *out filled as a catalogue sync operation (role AN_SYNC, task, object, type and its
 * Block/Unblock/Timeout values), else 0. */
int an_catalogue_pool(const evrec_meta_t *m, uint32_t id, an_event_t *out);

/* The field at `index` of a struct, when it is an integer or enum: 1, else 0. */
int an_field_at(const evrec_meta_t *m, const evrec_struct_desc_t *sd, uint32_t index, an_field_t *out);

/* The value of a field of a packed record (0 when absent or outside the record). */
uint32_t an_field_value(const an_field_t *f, const evrec_record_t *rec);

/* ---- address fields (analysis_address.c) ---- */

typedef struct an_addr {
    an_field_t field;
    uint64_t *counts; /* per distinct value, indexed through `map` */
    uint32_t *values;
    uint32_t cap;
    an_map_t map;
} an_addr_t;

/* ---- durations of spans: exact values or a log-bucket sketch (analysis_durations.c) ---- */

/* DDSketch (relative accuracy EVREC_STATS_SKETCH_ERROR): bucket i holds the values in
 * (gamma^(i-1), gamma^i], gamma = (1 + a) / (1 - a); a dense array over the indexes seen. */
typedef struct an_sketch {
    uint64_t *b;
    int32_t lo; /* index of b[0] */
    uint32_t n; /* buckets in b */
    uint64_t zeros;
} an_sketch_t;

/* The durations kept for exact percentiles, all groups of one analysis together. */
typedef struct an_budget {
    uint64_t used, max;
    int sketch; /* 1: past max (or max 0): every group sketches */
} an_budget_t;

typedef struct an_dur {
    evrec_stats_durations_t d; /* count, total, min, max, worst: always; percentiles at finish */
    int store;                 /* keeps its values (exact mode) */
    uint64_t *vals;
    size_t n, cap;
    an_sketch_t sk;
} an_dur_t;

/* Account one duration. 0 ok; 1: the budget is used up (the value was counted but not kept:
 * call an_dur_to_sketch() on every group, which sketches it too); -1 out of memory. */
int an_dur_add(an_dur_t *g, an_budget_t *b, uint64_t v, const evrec_span_t *sp);
/* Put the group's kept values (and those of `more`, n_more groups, when given) into its sketch. */
int an_dur_sketch_from(an_dur_t *g, an_dur_t *const *more, uint32_t n_more);
/* Free the kept values of a group. */
void an_dur_drop_values(an_dur_t *g, an_budget_t *b);
/* Percentiles into g->d: from the kept values (sorted in place), or `extra` values appended by
 * the caller, or the sketch. 0 ok, -1 out of memory. */
void an_dur_percentiles(an_dur_t *g, uint64_t *vals, size_t n, int exact);
void an_dur_free(an_dur_t *g);
/* The sketch alone (tests use it through the stats API). */
int an_sketch_add(an_sketch_t *s, uint64_t v, uint64_t count);
uint64_t an_sketch_rank(const an_sketch_t *s, uint64_t rank); /* rank-th smallest, 1-based */

/* ---- tracks: spans and counters in the stats object (analysis_tracks.c) ---- */

typedef struct an_series {
    evrec_stats_series_t pub;
    uint32_t last;
    double sum, integral;
} an_series_t;

typedef struct an_counter {
    evrec_stats_counter_t pub;
    uint32_t off;
    uint8_t width;
    uint32_t series_off;
    uint8_t series_width; /* 0: no series field (one series) */
    uint16_t series_enum;
    int series_is_enum;
    an_series_t all;
    an_series_t *series;
    uint32_t series_count, series_cap;
    an_map_t series_map;
    uint32_t hot_value, hot_index; /* the last series looked up (hot_index UINT32_MAX: none) */
    evrec_stats_series_t *pub_series;
    char path[256], series_path[256];
} an_counter_t;

typedef struct an_span_stats {
    evrec_stats_span_t pub;
    an_dur_t all;
    an_dur_t *groups;
    uint32_t *group_value;
    uint32_t group_count, group_cap, value_cap;
    an_map_t group_map;            /* track value -> group */
    uint32_t hot_value, hot_index; /* the last group looked up (hot_index UINT32_MAX: none) */
    uint16_t track_enum;
    int track_is_enum;
    evrec_stats_span_track_t *pub_tracks;
    char track_path[256];
} an_span_stats_t;

typedef struct an_tracks {
    evrec_spans_t *pair;
    an_span_stats_t *spans;
    uint32_t span_count;
    evrec_stats_span_t *pub_spans;
    an_counter_t *ctr;
    uint32_t ctr_count;
    uint32_t *ctr_first; /* event_count + 1 */
    evrec_stats_counter_t *pub_ctr;
    uint8_t *active; /* per event: spans or counters to look at */
    an_budget_t budget;
    int nomem;
} an_tracks_t;

/* Leaf helpers (analysis_spans.c). */
uint16_t an_leaf_by_path(const evrec_reader_t *r, uint16_t ev, const char *path);
uint16_t an_span_track_leaf(const evrec_reader_t *r, const evrec_span_desc_t *d);

/* ---- the analysis object ---- */

typedef enum an_base { AN_BASE_UNKNOWN = 0, AN_BASE_TASK, AN_BASE_IDLE, AN_BASE_KERNEL } an_base;
typedef enum an_int_state { AN_INT_UNKNOWN = 0, AN_INT_ENABLED, AN_INT_DISABLED } an_int_state;

typedef struct an_frame {
    uint32_t isr;     /* index in isrs */
    uint64_t enter_t; /* t64 of the IsrEnter */
    uint64_t self;    /* exclusive ticks of this activation so far */
} an_frame_t;

typedef struct an_wait {
    uint32_t task;  /* the waiting task's value */
    uint32_t sync;  /* index in sync */
    uint64_t start; /* t64 of the Block */
} an_wait_t;

struct evrec_stats {
    const evrec_reader_t *r;
    const evrec_meta_t *m;
    uint32_t event_count;
    evrec_stats_event_t *ev;
    uint32_t *ev_gap; /* per event: gap_seq at its last record (no interval across a gap) */
    uint32_t gap_seq; /* records with evrec_record_t::gap seen */
    an_event_t *roles;
    uint32_t role_count;
    evrec_stats_summary_t sum;
    int finished;
    char mismatch[512];
    char anomaly[256];
    evrec_stats_rtos_t rt;

    /* address fields, sorted by event id; addr_first[id] = first index of the event's */
    evrec_stats_address_t *addr;
    an_addr_t *addr_acc;
    uint32_t addr_count;
    uint32_t *addr_first; /* event_count + 1 entries */

    /* CPU accounting */
    evrec_stats_context_t *tasks, *isrs;
    uint32_t tasks_cap, isrs_cap;
    an_map_t task_map, isr_map;
    an_base base;
    uint32_t base_task; /* index in tasks when base == AN_BASE_TASK */
    uint64_t base_run;  /* exclusive ticks of the current task run */
    uint64_t pending;   /* unknown-base ticks not yet claimed by an edge rule */
    an_frame_t *frames;
    uint32_t depth, frames_cap;
    uint64_t last_t; /* time up to which everything is charged */

    /* interrupt-disabled spans */
    an_int_state int_state;
    uint64_t span_start;
    uint32_t span_caller;
    int span_open_start; /* the current span began before the trace (or is uncertain) */
    evrec_stats_int_site_t *sites;
    uint32_t sites_cap;
    an_map_t site_map;

    /* synchronisation objects */
    evrec_stats_sync_t *sync;
    uint32_t sync_cap;
    an_map_t sync_map;
    an_wait_t *waits;
    uint32_t waits_count, waits_cap;
    an_map_t wait_map; /* task value -> index in waits (active waits only) */

    an_tracks_t tracks; /* spans and counters */
};

/* analysis_cpu.c: charge ticks up to t, then apply one context record. */
void an_cpu_charge(evrec_stats_t *s, uint64_t t);
evrec_status an_cpu_record(evrec_stats_t *s, const an_event_t *e, const evrec_record_t *rec, uint64_t t);
void an_cpu_finish(evrec_stats_t *s);
/* analysis_sync.c: IntControl and the sync objects. */
evrec_status an_int_record(evrec_stats_t *s, const an_event_t *e, const evrec_record_t *rec, uint64_t t);
void an_int_finish(evrec_stats_t *s);
evrec_status an_sync_record(evrec_stats_t *s, const an_event_t *e, const evrec_record_t *rec, uint64_t t);
void an_sync_finish(evrec_stats_t *s);

/* analysis_tracks.c */
evrec_status an_tracks_create(evrec_stats_t *s);
evrec_status an_tracks_record(evrec_stats_t *s, const evrec_record_t *rec);
evrec_status an_tracks_finish(evrec_stats_t *s);
void an_tracks_free(evrec_stats_t *s);

/* analysis_address.c */
evrec_status an_addr_create(evrec_stats_t *s);
evrec_status an_addr_record(evrec_stats_t *s, const evrec_record_t *rec);
void an_addr_finish(evrec_stats_t *s);
void an_addr_free(evrec_stats_t *s);

/* Count a record that contradicts the state; the first one's text is kept. */
void an_anomaly(evrec_stats_t *s, uint64_t t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* EVREC_ANALYSIS_INTERNAL_H */
