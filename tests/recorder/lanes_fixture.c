/* SPDX-License-Identifier: Apache-2.0 */
/* The lanes tests' shared setup (lanes_fixture.h). */
#include "lanes_fixture.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_save.h"
#include "mem_sink.h"
#include "probe_meta.h"

void *lanes_fx_buffer(size_t size)
{
    void *p = NULL;
    cr_assert_eq(posix_memalign(&p, 64, size), 0);
    memset(p, 0x5A, size);
    return p;
}

void lanes_fx_start(lanes_fx_t *f, size_t size, size_t block_size, uint32_t nlanes, uint32_t now, uint32_t step,
                    uint64_t time_freq)
{
    cr_assert(nlanes <= LANES_FX_MAX);
    f->mem = lanes_fx_buffer(size);
    evrec_status st = block_size ? evrec_recorder_init_cyclic(&f->rec, f->mem, size, block_size)
                                 : evrec_recorder_init(&f->rec, f->mem, size);
    cr_assert_eq(st, EVREC_OK);
    cr_assert_eq(evrec_lanes_init(&f->lanes, f->lane, nlanes), EVREC_OK);
    evrec_test_clock_now = now;
    evrec_test_clock_step = step;
    cr_assert_eq(evrec_lanes_start(&f->lanes, &f->rec, &probe_meta, time_freq), EVREC_OK);
}

void lanes_fx_free(lanes_fx_t *f)
{
    free(f->mem);
    f->mem = NULL;
}

uint64_t lanes_fx_records_in_file(const evrec_recorder_t *rec)
{
    mem_sink_t out;
    memset(&out, 0, sizeof out);
    evrec_sink_t sink = mem_sink_of(&out);
    cr_assert_eq(evrec_save(rec, &sink), EVREC_OK);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, out.data, out.len, NULL), EVREC_OK);
    evrec_record_t x;
    uint64_t n = 0;
    evrec_status st;
    while ((st = evrec_reader_next(r, &x)) == EVREC_OK) {
        n++;
    }
    cr_assert_eq(st, EVREC_E_END, "the file reads to its end: %s", evrec_reader_error(r)->message);
    cr_assert_eq(evrec_reader_info(r)->recorded, n, "the file's header counts its records");
    evrec_reader_close(r);
    free(out.data);
    return n;
}
