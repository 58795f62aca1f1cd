/* SPDX-License-Identifier: Apache-2.0 */
/* The names of evrec 0.2 for the tracks, spans and counters (evrec_view_t, evrec_view_validate(),
 * evrec_reader_view(), EVREC_VIEW_NONE, EVREC_CHUNK_VIEW) still build for one minor version and do
 * what the new ones do (this file is compiled with -Wno-deprecated-declarations). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "evrec/evrec_container.h"
#include "evrec/evrec_meta.h"
#include "evrec/evrec_reader.h"
#include "reader_fixtures.h"

Test(deprecated_names, aliases_are_the_new_names)
{
    cr_assert_eq(sizeof(evrec_view_t), sizeof(evrec_tracks_t));
    cr_assert_eq(EVREC_VIEW_NONE, EVREC_TRACKS_NONE);
    cr_assert_eq((int)EVREC_CHUNK_VIEW, (int)EVREC_CHUNK_TRACKS);
    cr_assert_eq(evrec_view_validate(NULL, NULL, NULL), evrec_tracks_validate(NULL, NULL, NULL));
    cr_assert_null(evrec_reader_view(NULL));
    cr_assert_eq(evrec_reader_view_error(NULL), evrec_reader_tracks_error(NULL));
}

Test(deprecated_names, reader_view_is_reader_tracks)
{
    fx_buf_t f = {0};
    fx_record(100, 0, &f);
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, f.p, f.len, NULL), EVREC_OK);
    cr_assert_eq(evrec_reader_view(r), evrec_reader_tracks(r));
    cr_assert_eq(evrec_reader_view_error(r), evrec_reader_tracks_error(r));
    evrec_reader_close(r);
    fx_buf_free(&f);
}
