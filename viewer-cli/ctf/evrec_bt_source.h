/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_bt_source.h
 * @brief The babeltrace2 source component class `source.evrec.file`: evrec recordings (`.evr`
 * containers and bare CCore EventRecorder streams, read with evrec_reader.h) as babeltrace2
 * traces. viewer-cli/ctf/README.md describes the mapping (event types, fields, enums, clock,
 * losses).
 *
 * The same implementation is used twice: the plugin module `babeltrace-plugin-evrec.so`
 * (evrec_bt_plugin.c: plugin `evrec`, component class `file`) that the `babeltrace2` CLI loads
 * with `--plugin-path`, and `evrec export --ctf`, which builds the component class in-process with
 * evrec_bt_source_class_create() and runs it into babeltrace2's `sink.ctf.fs`.
 *
 * **Parameters** (a map, as babeltrace2 gives them):
 * - `inputs` (array of strings, mandatory, at least one): the recordings. Each is one trace with
 *   one stream, on its own output port named after the path.
 * - `tick-hz` (integer >= 1, optional): EventControl Tick was recorded at this rate; derive the
 *   timestamp frequency from the ticks (as `evrec dump --tick-hz`).
 * - `time-freq` (integer >= 1, optional): timestamp frequency in Hz to use instead of the file's
 *   (as `evrec dump --time-freq`).
 * - `reorder-window` (integer 1..1048576, optional, default ::EVREC_BT_REORDER_WINDOW): records
 *   held to put concurrently written records back in time order (the reader's ordered iteration,
 *   evrec/evrec_reader_order.h). A record stamped earlier than one already sent (it came from
 *   further back than the window) gets the time of the record before it and is counted as clamped.
 *
 * **Context:** babeltrace2 calls the methods from the thread that runs the graph; one component
 * and its message iterators are used by one thread at a time (babeltrace2's rule). Host only.
 */
#ifndef EVREC_BT_SOURCE_H
#define EVREC_BT_SOURCE_H

#include <stdint.h>

#include <babeltrace2/babeltrace.h>

#include "evrec/evrec_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default `reorder-window`: records held back to restore time order. */
#define EVREC_BT_REORDER_WINDOW 4096u
/** Largest `reorder-window` accepted. */
#define EVREC_BT_REORDER_WINDOW_MAX (1u << 20)
/** Most event types one input's records may use. The event class of a type is made on its
 * first record, and libbabeltrace2 checks a new class's id against every class of the stream
 * class, so making n classes takes time in n^2 (4,096: about 1.5 s; 65,536 took over 10
 * minutes). A recording whose records use more types (counted in a first pass when its
 * meta-info has more) is refused at initialisation with an error naming the limit. */
#define EVREC_BT_MAX_EVENT_CLASSES 4096u

/**
 * @brief What one message iterator did with one input: filled while the graph runs, final when
 * the iterator has sent its stream end message (or failed). Used by `evrec export --ctf`.
 */
typedef struct evrec_bt_stats {
    uint64_t events;             /**< event messages sent (= records the reader returned) */
    uint64_t dropped;            /**< header `dropped` sent as a discarded-events message */
    uint64_t overwritten;        /**< header `overwritten` sent as a discarded-events message */
    uint64_t damage_lost;        /**< records lost to the damage the reader stopped at (header
                                    `recorded` - records read - gap_lost) */
    int damage_lost_known;       /**< 1: damage_lost is a count; 0: no count (header lacks it) */
    uint64_t out_of_order;       /**< records stamped earlier than a record read before them */
    uint64_t clamped;            /**< of those, records beyond the reorder window: time raised */
    uint64_t clock_freq;         /**< the clock class's frequency, Hz */
    int clock_ns;                /**< 1: clock values are ns (t64 converted); 0: t64 ticks */
    evrec_reader_error_t damage; /**< the reader's sticky error; status EVREC_OK when intact */
    int display_only;            /**< 1: `damage` is a bad FIELD_INFO chunk (no record lost) */
    int finished;                /**< 1: the stream end message was sent */
    uint64_t gaps;               /**< damaged ranges in the middle of the file the reader resumed
                                    after: a discarded-events message each, at the gap */
    uint64_t gap_lost;           /**< records lost in them (the reader's counts) */
    int resumed;                 /**< 1: `damage` set, but the reader read on to the end: no loss
                                    at the end (the losses are at the gaps, or none) */
} evrec_bt_stats_t;

/**
 * @brief Initialisation data an in-process user may give to
 * bt_graph_add_source_component_with_initialize_method_data(): per-input statistics.
 */
typedef struct evrec_bt_init_data {
    uint32_t magic;          /**< ::EVREC_BT_INIT_MAGIC, else the data is ignored */
    uint32_t stats_count;    /**< entries in `stats` (inputs beyond it are not reported) */
    evrec_bt_stats_t *stats; /**< caller-owned, zeroed by the component's initialisation */
} evrec_bt_init_data_t;

/** Value of evrec_bt_init_data_t::magic. */
#define EVREC_BT_INIT_MAGIC 0x45564254u

/* Methods of the component class; evrec_bt_plugin.c names them in the plugin's descriptors.
 * Their contracts are babeltrace2's (babeltrace2/graph/component-class-dev.h and
 * message-iterator-class.h). */

/** @brief Component initialisation: checks the parameters, opens every input, builds the trace
 * classes and the clock class, adds one output port per input. Errors are appended to the
 * thread's babeltrace2 error with the file, offset and cause.
 * @retval BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK ready.
 * @retval BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR bad parameters or unreadable input.
 * @retval BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR out of memory.
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
bt_component_class_initialize_method_status evrec_bt_init(bt_self_component_source *self,
                                                          bt_self_component_source_configuration *config,
                                                          const bt_value *params, void *init_data);
/** @brief Frees the component's classes and tables.
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
void evrec_bt_finalize(bt_self_component_source *self);
/** @brief Query method: answers `babeltrace.support-info` (weight 1 for a file the reader opens
 * whose name ends in .evr or that starts with the evrec magic, 0.5 for another file it opens,
 * 0 otherwise), so that `babeltrace2 FILE.evr` finds this component by itself.
 * @retval BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_OK answered.
 * @retval BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_UNKNOWN_OBJECT another object name.
 * @retval BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_ERROR bad parameters.
 * @retval BT_COMPONENT_CLASS_QUERY_METHOD_STATUS_MEMORY_ERROR out of memory.
 * The result (a real value) is a new reference that babeltrace2 takes.
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
bt_component_class_query_method_status evrec_bt_query(bt_self_component_class_source *cls,
                                                      bt_private_query_executor *exec, const char *object,
                                                      const bt_value *params, void *method_data,
                                                      const bt_value **result);
/** @brief Message iterator initialisation: opens the port's input again for reading.
 * @retval BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK ready.
 * @retval BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR the file cannot be read now.
 * @retval BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR out of memory.
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
bt_message_iterator_class_initialize_method_status
evrec_bt_iter_init(bt_self_message_iterator *self, bt_self_message_iterator_configuration *config,
                   bt_self_component_port_output *port);
/** @brief Frees the iterator (reader, reorder buffer, queued messages).
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
void evrec_bt_iter_finalize(bt_self_message_iterator *self);
/** @brief Next messages: stream beginning, packets, events in time order, discarded events,
 * stream end (README "Messages").
 * @retval BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK `*count` messages (at least 1).
 * @retval BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END no more messages.
 * @retval BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR a message could not be made (out of
 * memory) or a record does not match its event type.
 * The messages are new references that babeltrace2 takes.
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
bt_message_iterator_class_next_method_status evrec_bt_iter_next(bt_self_message_iterator *self,
                                                                bt_message_array_const msgs, uint64_t capacity,
                                                                uint64_t *count);
/** @brief Rewind: reopens the input; the stream starts again with a stream beginning message.
 * @retval BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_OK rewound.
 * @retval BT_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHOD_STATUS_ERROR the file cannot be read now.
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
bt_message_iterator_class_seek_beginning_method_status
evrec_bt_iter_seek_beginning(bt_self_message_iterator *self);
/** @brief Always answers yes (a file can be read again).
 * @retval BT_MESSAGE_ITERATOR_CLASS_CAN_SEEK_BEGINNING_METHOD_STATUS_OK answered.
 * **Context:** called by babeltrace2 in the thread that runs the graph. */
bt_message_iterator_class_can_seek_beginning_method_status
evrec_bt_iter_can_seek_beginning(bt_self_message_iterator *self, bt_bool *can_seek);

/** @brief One-line description of the component class. */
extern const char evrec_bt_source_description[];
/** @brief Help text of the component class (its parameters). */
extern const char evrec_bt_source_help[];

/**
 * @brief Build the component class in-process (for a graph that does not load the plugin
 * module): name `file`, with every method above.
 * @return a new reference (release with bt_component_class_source_put_ref()), or NULL when
 * memory ran out. **Context:** thread.
 */
bt_component_class_source *evrec_bt_source_class_create(void);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_BT_SOURCE_H */
