/* SPDX-License-Identifier: Apache-2.0 */
/* Private to viewer-cli/diff: what the text, Markdown and JSON outputs share. */
#ifndef EVREC_CLI_DIFF_PRINT_H
#define EVREC_CLI_DIFF_PRINT_H

#include "diff.h"

enum { DIFF_COLS = 14, DIFF_CELL = 96 };

/* The cells of one row of the table (the header's are fixed). */
void diff_cells(const diff_t *d, const diff_row_t *r, char cells[DIFF_COLS][DIFF_CELL]);
/* "higher", "lower", "no change", "not tested", "only in A", "only in B". */
const char *diff_verdict(const diff_row_t *r);
/* The side lost records (dropped, overwritten, damaged). */
int diff_lossy(const diff_side_t *s);
/* One JSON object on stdout. Returns 1. */
int diff_print_json(const diff_t *d);
/* "Where the time went" after the table: the rows with an explanation. */
void diff_print_explain(const diff_t *d, int md);

#endif /* EVREC_CLI_DIFF_PRINT_H */
