/* SPDX-License-Identifier: Apache-2.0 */
/* The parsed form of a `--where` expression, shared by its parser (cli_where.c) and the
 * selection that compiles it against a meta-info (cli_select.c). Not installed. */
#ifndef EVREC_CLI_WHERE_INTERNAL_H
#define EVREC_CLI_WHERE_INTERNAL_H

#include <stdint.h>

#include "cli_select.h"

enum { W_CMP, W_AND, W_OR, W_NOT };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

#define WHERE_MAX_NODES 256u
#define WHERE_MAX_DEPTH 64u

/* A comparison: path op value. */
typedef struct w_leaf {
    char *path;        /* dotted, as typed */
    unsigned path_col; /* 1-based */
    uint8_t op;
    int is_name;     /* value is an enum value name */
    char *name;      /* when is_name */
    uint64_t number; /* else */
    unsigned value_col;
} w_leaf_t;

/* Postfix program: W_CMP pushes leaf `leaf`'s result; W_AND/W_OR pop two; W_NOT pops one. */
typedef struct w_instr {
    uint8_t op;
    uint16_t leaf;
} w_instr_t;

struct cli_where {
    w_instr_t code[WHERE_MAX_NODES];
    unsigned ncode;
    w_leaf_t leaves[WHERE_MAX_NODES];
    unsigned nleaves;
};

/* Characters of a field path or name: C identifiers. */
static inline int is_ident_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
static inline int is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

#endif /* EVREC_CLI_WHERE_INTERNAL_H */
