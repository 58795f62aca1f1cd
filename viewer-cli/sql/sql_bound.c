/* SPDX-License-Identifier: Apache-2.0 */
/* Turn a pushed-down constraint (`idx >= 5`, `ts < 1.5e9`, `ts = '100'`) into an inclusive range
 * of unsigned integers, with SQLite's comparison rules: NULL matches nothing, an integer column
 * is less than any text or blob, numbers compare by value. */
#include <math.h>

#include "sql_bound.h"

/* The range [lo, hi] of `col op x` for an integer x (any sign); returns 1 when it is empty. */
static int bound_int(char op, int64_t x, uint64_t *lo, uint64_t *hi)
{
    switch (op) {
    case '=':
        if (x < 0) {
            return 1;
        }
        *lo = *lo > (uint64_t)x ? *lo : (uint64_t)x;
        *hi = *hi < (uint64_t)x ? *hi : (uint64_t)x;
        break;
    case '>':
        if (x == INT64_MAX) {
            return 1;
        }
        x++;
        /* fall through */
    case 'G':
        if (x > 0 && (uint64_t)x > *lo) {
            *lo = (uint64_t)x;
        }
        break;
    case '<':
        if (x <= 0) {
            return 1;
        }
        x--;
        /* fall through */
    case 'L':
        if (x < 0) {
            return 1;
        }
        *hi = *hi < (uint64_t)x ? *hi : (uint64_t)x;
        break;
    default: break;
    }
    return *lo > *hi;
}

int sql_bound(sqlite3_value *v, char op, uint64_t *lo, uint64_t *hi)
{
    int t = sqlite3_value_numeric_type(v);
    if (t == SQLITE_NULL) {
        return 1;
    }
    if (t == SQLITE_TEXT || t == SQLITE_BLOB) {
        return op == '<' || op == 'L' ? 0 : 1;
    }
    if (t == SQLITE_INTEGER) {
        return bound_int(op, sqlite3_value_int64(v), lo, hi);
    }
    double d = sqlite3_value_double(v);
    if (isnan(d)) {
        return 1;
    }
    if (d >= 9.2e18) {
        return op == '<' || op == 'L' ? 0 : 1;
    }
    if (d <= -9.2e18) {
        return op == '<' || op == 'L' ? 1 : 0;
    }
    if (op == '=') {
        return d != floor(d) ? 1 : bound_int('=', (int64_t)d, lo, hi);
    }
    if (op == '>' || op == 'G') { /* x > 1.5 and x >= 1.5 both mean x >= 2 */
        int64_t x = (int64_t)ceil(d);
        return bound_int(op == '>' && d == floor(d) ? '>' : 'G', x, lo, hi);
    }
    int64_t x = (int64_t)floor(d);
    return bound_int(op == '<' && d == floor(d) ? '<' : 'L', x, lo, hi);
}
