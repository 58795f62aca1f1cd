/* SPDX-License-Identifier: Apache-2.0 */
/* The YAML helpers of schema_load.c, for the other parts of the loader (schema_tracks.c). Not
 * installed. */
#ifndef EVREC_GEN_LOAD_INTERNAL_H
#define EVREC_GEN_LOAD_INTERNAL_H

#include "gen_internal.h"

/* One file being read. */
typedef struct gen_ctx {
    gen_schema_t *s;
    unsigned file;
    yaml_document_t *doc;
    int is_main;
} gen_ctx_t;

/* A key of a mapping: filled by gen_read_map(). */
typedef struct gen_key {
    const char *name;
    yaml_node_t *value;
    yaml_node_t *key;
} gen_key_t;

gen_pos_t gen_ld_pos(const gen_ctx_t *c, const yaml_node_t *n);
yaml_node_t *gen_ld_node(const gen_ctx_t *c, int index);
/* Scalar text or NULL (error reported). */
const char *gen_ld_scalar(gen_ctx_t *c, const yaml_node_t *n, const char *what);
/* Known keys of a mapping (unknown and duplicate keys reported); 0 when not a mapping. */
int gen_ld_map(gen_ctx_t *c, const yaml_node_t *n, const char *what, gen_key_t *keys, size_t nkeys);
/* The value of a required key, or NULL (error reported). */
yaml_node_t *gen_ld_need(gen_ctx_t *c, const yaml_node_t *map, const gen_key_t *k, const char *what);
/* 1 when n is a sequence, else 0 (error reported). */
int gen_ld_list(gen_ctx_t *c, const yaml_node_t *n, const char *what);
/* A name (C identifier, not a keyword or reserved); NULL when not a usable scalar. */
const char *gen_ld_name(gen_ctx_t *c, const yaml_node_t *n, const char *what, int *valid);

/* `syst:` of the top-level file (schema_syst.c). */
void gen_syst_parse(gen_ctx_t *c, const yaml_node_t *n);

/* `spans:` of a file (schema_tracks.c). */
void gen_tracks_parse_spans(gen_ctx_t *c, const yaml_node_t *n);

#endif /* EVREC_GEN_LOAD_INTERNAL_H */
