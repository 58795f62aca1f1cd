/* SPDX-License-Identifier: Apache-2.0 */
/* Ranges of pushed-down constraints (sql_bound.c). */
#ifndef EVREC_SQL_BOUND_H
#define EVREC_SQL_BOUND_H

#include <stdint.h>

#include <sqlite3.h>

/* Narrow the inclusive range [*lo, *hi] of an unsigned integer column by `column op v`, `op`
 * one of '=' '>' 'G' (>=) '<' 'L' (<=), with SQLite's comparison rules. Returns 1 when no
 * value can match any more (the scan returns no row), else 0. */
int sql_bound(sqlite3_value *v, char op, uint64_t *lo, uint64_t *hi);

#endif /* EVREC_SQL_BOUND_H */
