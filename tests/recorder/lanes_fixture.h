/* SPDX-License-Identifier: Apache-2.0 */
/* The setup the lanes tests share (test_lanes.c, test_lanes_count.c): a recorder over a fresh
 * 64-byte aligned buffer split into lanes and started with the probe meta-info, the fake clock
 * pinned; a saved file's records counted. */
#ifndef EVREC_TEST_LANES_FIXTURE_H
#define EVREC_TEST_LANES_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_lanes.h"

extern uint32_t evrec_test_clock_now;
extern uint32_t evrec_test_clock_step;

/* `size` bytes aligned to 64, filled with 0x5A (no zero a test could rely on); the caller frees. */
void *lanes_fx_buffer(size_t size);

/* Most lanes a fixture holds. */
#define LANES_FX_MAX 8u

/* Started lanes: their recorder, lane array and buffer (do not move it: the lanes point into it). */
typedef struct lanes_fx {
    void *mem;
    evrec_recorder_t rec;
    evrec_lane_t lane[LANES_FX_MAX];
    evrec_lanes_t lanes;
} lanes_fx_t;

/* `nlanes` (1 .. LANES_FX_MAX) lanes over a fresh buffer of `size` bytes, one-shot when `block_size` is 0, else cyclic
 * with blocks of that size; the fake clock at `now` stepping by `step`; started with the probe
 * meta-info at `time_freq` Hz. Fails the running test on any error. */
void lanes_fx_start(lanes_fx_t *f, size_t size, size_t block_size, uint32_t nlanes, uint32_t now, uint32_t step,
                    uint64_t time_freq);

/* Frees the buffer. */
void lanes_fx_free(lanes_fx_t *f);

/* Saves the stopped recorder; the records its file holds, read back one by one (the file reads
 * to its end and its header counts them). */
uint64_t lanes_fx_records_in_file(const evrec_recorder_t *rec);

#endif /* EVREC_TEST_LANES_FIXTURE_H */
