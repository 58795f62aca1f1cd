/* SPDX-License-Identifier: Apache-2.0 */
/* `--where`: the tokenizer, the recursive-descent parser into a postfix program, and its error
 * report (cli_select.h: cli_where_parse(), cli_where_free(), cli_where_report()). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_where_internal.h"

static const char *const op_text[] = {"==", "!=", "<", "<=", ">", ">="};

/* ---------------------------------------------------------------------------------------------
 * --where: tokens and tree
 * ------------------------------------------------------------------------------------------- */

enum { T_END, T_IDENT, T_NUMBER, T_STRING, T_OP, T_LPAR, T_RPAR, T_AND, T_OR, T_NOT, T_BAD };

typedef struct w_parser {
    const char *src;
    size_t pos; /* next byte */
    int tok;    /* current token */
    size_t tstart, tlen;
    uint8_t op;      /* T_OP */
    uint64_t number; /* T_NUMBER */
    int number_bad;  /* number too large or malformed */
    cli_where_t *w;
    cli_where_error_t *err;
    unsigned depth;
    int failed;
} w_parser_t;

static int fail_at(w_parser_t *p, size_t pos, const char *fmt, const char *arg)
{
    if (!p->failed) {
        p->failed = 1;
        p->err->column = (unsigned)pos + 1u;
        snprintf(p->err->message, sizeof p->err->message, fmt, arg ? arg : "");
    }
    return 0;
}

/* The current token's text, shortened for messages. */
static const char *tok_text(const w_parser_t *p, char *buf, size_t size)
{
    if (p->tok == T_END) {
        snprintf(buf, size, "the end");
        return buf;
    }
    size_t n = p->tlen < size - 3 ? p->tlen : size - 3;
    snprintf(buf, size, "'%.*s'", (int)n, p->src + p->tstart);
    return buf;
}

/* A name (dotted path) or a keyword at i. */
static void lex_ident(w_parser_t *p, size_t i)
{
    const char *s = p->src;
    size_t j = i;
    for (;;) {
        while (is_ident_char(s[j])) {
            j++;
        }
        if (s[j] == '.' && is_ident_start(s[j + 1])) {
            j++;
            continue;
        }
        break;
    }
    p->tlen = j - i;
    p->pos = j;
    if (p->tlen == 3 && !strncmp(s + i, "and", 3)) {
        p->tok = T_AND;
    } else if (p->tlen == 2 && !strncmp(s + i, "or", 2)) {
        p->tok = T_OR;
    } else if (p->tlen == 3 && !strncmp(s + i, "not", 3)) {
        p->tok = T_NOT;
    } else {
        p->tok = T_IDENT;
    }
}

/* The hex digits at *j (after 0x): their value; *bad when none or over 64 bits. */
static uint64_t lex_hex(const char *s, size_t *j, int *bad)
{
    uint64_t v = 0;
    size_t d0 = *j;
    for (;; (*j)++) {
        char h = s[*j];
        unsigned d;
        if (h >= '0' && h <= '9') {
            d = (unsigned)(h - '0');
        } else if (h >= 'a' && h <= 'f') {
            d = (unsigned)(h - 'a' + 10);
        } else if (h >= 'A' && h <= 'F') {
            d = (unsigned)(h - 'A' + 10);
        } else {
            break;
        }
        if (v >> 60) {
            *bad = 1;
        }
        v = v * 16u + d;
    }
    *bad |= *j == d0;
    return v;
}

/* A number at i: decimal or 0x hex; a number followed by letters or a dot is bad. */
static void lex_number(w_parser_t *p, size_t i)
{
    const char *s = p->src;
    size_t j = i;
    uint64_t v = 0;
    int bad = 0;
    if (s[i] == '0' && (s[j + 1] == 'x' || s[j + 1] == 'X')) {
        j += 2;
        v = lex_hex(s, &j, &bad);
    } else {
        for (; s[j] >= '0' && s[j] <= '9'; j++) {
            unsigned d = (unsigned)(s[j] - '0');
            if (v > (UINT64_MAX - d) / 10u) {
                bad = 1;
            }
            v = v * 10u + d;
        }
    }
    while (is_ident_char(s[j]) || s[j] == '.') { /* 12abc, 1.5: not a number */
        bad = 1;
        j++;
    }
    p->tok = T_NUMBER;
    p->number = v;
    p->number_bad = bad;
    p->tlen = j - i;
    p->pos = j;
}

/* A "quoted" name at i. */
static void lex_string(w_parser_t *p, size_t i)
{
    const char *s = p->src;
    size_t j = i + 1;
    while (s[j] && s[j] != '"') {
        j++;
    }
    if (!s[j]) {
        p->tok = T_BAD;
        p->tlen = j - i;
        p->pos = j;
        fail_at(p, i, "unterminated \"quoted\" name%s", NULL);
        return;
    }
    p->tok = T_STRING;
    p->tlen = j + 1 - i;
    p->pos = j + 1;
}

/* One of ( ) == != ! < <= > >= && || at i; 0 when the character starts none. */
static int lex_punct(w_parser_t *p, size_t i)
{
    const char *s = p->src;
    char c = s[i], d = s[i + 1];
    p->tlen = 1;
    p->pos = i + 1;
    int two = d == '=' && (c == '=' || c == '!' || c == '<' || c == '>');
    two |= (c == '&' || c == '|') && d == c;
    if (two) {
        p->tlen = 2;
        p->pos++;
    }
    switch (c) {
    case '(': p->tok = T_LPAR; return 1;
    case ')': p->tok = T_RPAR; return 1;
    case '=':
        if (two) {
            p->tok = T_OP, p->op = OP_EQ;
            return 1;
        }
        p->tok = T_BAD;
        fail_at(p, i, "'=' is not an operator: write '==' to compare%s", NULL);
        return 1;
    case '!':
        p->tok = two ? T_OP : T_NOT;
        p->op = OP_NE;
        return 1;
    case '<': p->tok = T_OP, p->op = two ? OP_LE : OP_LT; return 1;
    case '>': p->tok = T_OP, p->op = two ? OP_GE : OP_GT; return 1;
    case '&':
    case '|':
        if (two) {
            p->tok = c == '&' ? T_AND : T_OR;
            return 1;
        }
        p->tlen = 1; /* a single & or |: not an operator */
        p->pos = i + 1;
        return 0;
    default: return 0;
    }
}

static void next_token(w_parser_t *p)
{
    const char *s = p->src;
    while (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\n' || s[p->pos] == '\r') {
        p->pos++;
    }
    size_t i = p->pos;
    p->tstart = i;
    char c = s[i];
    if (!c) {
        p->tok = T_END;
        p->tlen = 0;
    } else if (is_ident_start(c)) {
        lex_ident(p, i);
    } else if (c >= '0' && c <= '9') {
        lex_number(p, i);
    } else if (c == '"') {
        lex_string(p, i);
    } else if (!lex_punct(p, i)) {
        p->tok = T_BAD;
        char ch[8];
        snprintf(ch, sizeof ch, "%c", (c >= 0x20 && c < 0x7F) ? c : '?');
        fail_at(p, i, "unexpected character '%s'", ch);
    }
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static int emit(w_parser_t *p, uint8_t op, uint16_t leaf)
{
    if (p->w->ncode >= WHERE_MAX_NODES) {
        return fail_at(p, p->tstart, "expression too long (more than 256 terms)%s", NULL);
    }
    p->w->code[p->w->ncode].op = op;
    p->w->code[p->w->ncode].leaf = leaf;
    p->w->ncode++;
    return 1;
}

static int parse_or(w_parser_t *p);

static int parse_cmp(w_parser_t *p)
{
    char t[80];
    if (p->tok == T_BAD) {
        return 0;
    }
    if (p->tok != T_IDENT) {
        return fail_at(p, p->tstart, "expected a field name, '(' or 'not', found %s", tok_text(p, t, sizeof t));
    }
    if (p->w->nleaves >= WHERE_MAX_NODES) {
        return fail_at(p, p->tstart, "expression too long (more than 256 comparisons)%s", NULL);
    }
    w_leaf_t *l = &p->w->leaves[p->w->nleaves];
    memset(l, 0, sizeof *l);
    l->path = dup_range(p->src + p->tstart, p->tlen);
    l->path_col = (unsigned)p->tstart + 1u;
    if (!l->path) {
        return fail_at(p, 0, "out of memory%s", NULL);
    }
    p->w->nleaves++;
    size_t after_field = p->pos;
    next_token(p);
    if (p->tok == T_BAD) {
        return 0;
    }
    if (p->tok != T_OP) {
        char f[80];
        snprintf(f, sizeof f, "%s", l->path);
        if (p->tok == T_END) {
            return fail_at(p, after_field, "expected an operator (== != < <= > >=) after '%s'", f);
        }
        return fail_at(p, p->tstart, "expected an operator (== != < <= > >=) after '%s'", f);
    }
    l->op = p->op;
    size_t after_op = p->pos;
    next_token(p);
    l->value_col = (unsigned)p->tstart + 1u;
    switch (p->tok) {
    case T_NUMBER:
        if (p->number_bad) {
            return fail_at(p, p->tstart, "%s is not a number (decimal or 0x hex, at most 64 bits)",
                           tok_text(p, t, sizeof t));
        }
        l->number = p->number;
        break;
    case T_IDENT:
        if (memchr(p->src + p->tstart, '.', p->tlen)) {
            return fail_at(p, p->tstart, "expected a number or an enum value name, found the path %s",
                           tok_text(p, t, sizeof t));
        }
        l->is_name = 1;
        l->name = dup_range(p->src + p->tstart, p->tlen);
        break;
    case T_STRING:
        l->is_name = 1;
        l->name = dup_range(p->src + p->tstart + 1, p->tlen - 2);
        break;
    case T_BAD: return 0;
    case T_END: return fail_at(p, after_op, "expected a number or an enum value name after '%s'", op_text[l->op]);
    default:
        return fail_at(p, p->tstart, "expected a number or an enum value name, found %s",
                       tok_text(p, t, sizeof t));
    }
    if (l->is_name && !l->name) {
        return fail_at(p, 0, "out of memory%s", NULL);
    }
    next_token(p);
    return emit(p, W_CMP, (uint16_t)(p->w->nleaves - 1));
}

static int parse_not(w_parser_t *p)
{
    if (++p->depth > WHERE_MAX_DEPTH) {
        return fail_at(p, p->tstart, "expression nested too deeply (more than 64 levels)%s", NULL);
    }
    int ok;
    if (p->tok == T_NOT) {
        next_token(p);
        ok = parse_not(p) && emit(p, W_NOT, 0);
    } else if (p->tok == T_LPAR) {
        size_t open = p->tstart;
        next_token(p);
        ok = parse_or(p);
        if (ok && p->tok != T_RPAR) {
            char t[80];
            if (p->tok == T_END) {
                ok = fail_at(p, open, "this '(' is not closed%s", NULL);
            } else if (p->tok != T_BAD) {
                ok = fail_at(p, p->tstart, "expected ')', 'and' or 'or', found %s", tok_text(p, t, sizeof t));
            } else {
                ok = 0;
            }
        }
        if (ok) {
            next_token(p);
        }
    } else {
        ok = parse_cmp(p);
    }
    p->depth--;
    return ok;
}

static int parse_and(w_parser_t *p)
{
    if (!parse_not(p)) {
        return 0;
    }
    while (p->tok == T_AND) {
        next_token(p);
        if (!parse_not(p) || !emit(p, W_AND, 0)) {
            return 0;
        }
    }
    return 1;
}

static int parse_or(w_parser_t *p)
{
    if (!parse_and(p)) {
        return 0;
    }
    while (p->tok == T_OR) {
        next_token(p);
        if (!parse_and(p) || !emit(p, W_OR, 0)) {
            return 0;
        }
    }
    return 1;
}

void cli_where_free(cli_where_t *w)
{
    if (!w) {
        return;
    }
    for (unsigned i = 0; i < w->nleaves; i++) {
        free(w->leaves[i].path);
        free(w->leaves[i].name);
    }
    free(w);
}

int cli_where_parse(const char *expr, cli_where_t **out, cli_where_error_t *err)
{
    *out = NULL;
    memset(err, 0, sizeof *err);
    cli_where_t *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return 0;
    }
    w_parser_t p;
    memset(&p, 0, sizeof p);
    p.src = expr;
    p.w = w;
    p.err = err;
    next_token(&p);
    int ok = 0;
    if (p.tok == T_END) {
        fail_at(&p, 0, "empty expression: expected a comparison such as 'field == 1'%s", NULL);
    } else if (parse_or(&p)) {
        if (p.tok == T_END) {
            ok = 1;
        } else if (p.tok != T_BAD) {
            char t[80];
            fail_at(&p, p.tstart,
                    p.tok == T_RPAR ? "%s without a matching '('" : "expected 'and', 'or' or the end, found %s",
                    tok_text(&p, t, sizeof t));
        }
    }
    if (!ok) {
        cli_where_free(w);
        return 0;
    }
    *out = w;
    return 1;
}

void cli_where_report(const cli_command_t *cmd, const char *expr, const cli_where_error_t *err)
{
    if (!err->column) {
        fprintf(stderr, "evrec: %s: --where: %s\n", cmd->name, err->message);
        return;
    }
    fprintf(stderr, "evrec: %s: --where: column %u: %s\n", cmd->name, err->column, err->message);
    fputs("evrec:   ", stderr);
    for (const char *c = expr; *c; c++) {
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, stderr);
    }
    fputs("\nevrec:   ", stderr);
    for (unsigned i = 0; i + 1 < err->column && expr[i]; i++) {
        fputc(expr[i] == '\t' ? '\t' : ' ', stderr);
    }
    fputs("^\n", stderr);
}
