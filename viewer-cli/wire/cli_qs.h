/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by `evrec qs` and `evrec qs-decode`: the QS id map of a meta-info (with its
 * entry memory) and the host-order record of a packed file record. */
#ifndef EVREC_CLI_QS_H
#define EVREC_CLI_QS_H

#include "cli.h"
#include "evrec/evrec_qs.h"
#include "evrec/evrec_reader.h"

extern const cli_command_t cli_cmd_qs;
extern const cli_command_t cli_cmd_qs_decode;

typedef struct cli_qs_map {
    evrec_qs_map_t map;
    void *entries;     /* evrec_qs_map_entries_size() bytes, owned */
    uint8_t **display; /* per struct: NULL or one evrec_qs_display byte per field; owned */
    uint32_t structs;  /* entries in display */
} cli_qs_map_t;

/* Build the map of `meta` with `opts` (copied). Field display comes from meta->field_info
 * (hex and address fields are sent as hex elements) unless opts->field_display is set.
 * Returns EVREC_OK, EVREC_E_NOMEM, or what evrec_qs_map_init() returns. */
evrec_status cli_qs_map_build(cli_qs_map_t *m, const evrec_meta_t *meta, const evrec_qs_options_t *opts);
void cli_qs_map_free(cli_qs_map_t *m);

/* --enum-as auto|groups|strings|int -> an evrec_qs_enum_as. Returns 0, or -1 for another word. */
int cli_qs_parse_enum_as(const char *s, uint8_t *out);

/* The record as the QS encoder reads it: u32 time at 0, u16 id at 4, every field in host order
 * at its offset in the reader's tables (the packed offset). `native` holds EVREC_MAX_EVENT_SIZE. */
void cli_qs_native_from_record(const evrec_reader_t *r, const evrec_record_t *rec, uint8_t *native);

#endif /* EVREC_CLI_QS_H */
