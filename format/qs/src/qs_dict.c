/* SPDX-License-Identifier: Apache-2.0 */
/* QS dictionaries learnt from the stream: target info, OBJ/FUN/SIG/ENUM/USR dictionary records
 * (QP/C "Observability Viewpoint", "dictionary trace records"; QS.md section 2). Host code. */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_qs_decode.h"

struct evrec_qs_dict_entry {
    uint64_t key;
    uint64_t obj;
    char *name;
};

void evrec_qs_dict_init(evrec_qs_dict_t *d)
{
    memset(d, 0, sizeof *d);
    evrec_qs_target_info_default(&d->cfg);
}

static void free_entries(struct evrec_qs_dict_entry *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(a[i].name);
    }
    free(a);
}

void evrec_qs_dict_free(evrec_qs_dict_t *d)
{
    for (unsigned i = 0; i < 256; i++) {
        free(d->usr[i]);
        for (unsigned g = 0; g < EVREC_QS_ENUM_GROUPS; g++) {
            free(d->enums[g][i]);
        }
    }
    free_entries(d->obj, d->obj_n);
    free_entries(d->fun, d->fun_n);
    free_entries(d->sig, d->sig_n);
    evrec_qs_target_info_t cfg = d->cfg;
    int have = d->have_cfg;
    evrec_qs_dict_init(d);
    d->cfg = cfg;
    d->have_cfg = have;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i > 0; i--) {
        v = (v << 8) | p[i - 1];
    }
    return v;
}

/* The NUL-terminated name at p[at..len), copied; NULL (and *st set) if missing or no memory. */
static char *take_name(const uint8_t *p, size_t at, size_t len, evrec_status *st)
{
    if (at > len) {
        *st = EVREC_E_TRUNCATED;
        return NULL;
    }
    const uint8_t *z = memchr(p + at, 0, len - at);
    if (!z) {
        *st = EVREC_E_TRUNCATED;
        return NULL;
    }
    size_t n = (size_t)(z - (p + at));
    char *s = malloc(n + 1);
    if (!s) {
        *st = EVREC_E_NOMEM;
        return NULL;
    }
    memcpy(s, p + at, n + 1);
    return s;
}

static evrec_status put_entry(struct evrec_qs_dict_entry **a, size_t *n, size_t *cap, uint64_t key, uint64_t obj,
                              char *name)
{
    for (size_t i = 0; i < *n; i++) {
        if ((*a)[i].key == key && (*a)[i].obj == obj) {
            free((*a)[i].name);
            (*a)[i].name = name;
            return EVREC_OK;
        }
    }
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        struct evrec_qs_dict_entry *b = realloc(*a, c * sizeof *b);
        if (!b) {
            free(name);
            return EVREC_E_NOMEM;
        }
        *a = b;
        *cap = c;
    }
    (*a)[(*n)++] = (struct evrec_qs_dict_entry){key, obj, name};
    return EVREC_OK;
}

evrec_status evrec_qs_dict_apply(evrec_qs_dict_t *d, uint8_t rec_id, const uint8_t *p, size_t len)
{
    evrec_status st = EVREC_OK;
    char *name;
    switch (rec_id) {
    case EVREC_QS_REC_TARGET_INFO: {
        evrec_qs_target_info_t t;
        st = evrec_qs_parse_target_info(p, len, &t);
        if (st != EVREC_OK) {
            return st;
        }
        if (t.reset) {
            evrec_qs_dict_free(d); /* QSPY clears its dictionaries on a target reset */
        }
        d->cfg = t;
        d->have_cfg = 1;
        return EVREC_OK;
    }
    case EVREC_QS_REC_OBJ_DICT:
    case EVREC_QS_REC_FUN_DICT: {
        unsigned ps = rec_id == EVREC_QS_REC_OBJ_DICT ? d->cfg.obj_ptr_size : d->cfg.fun_ptr_size;
        if (len < ps) {
            return EVREC_E_TRUNCATED;
        }
        if (!(name = take_name(p, ps, len, &st))) {
            return st;
        }
        return rec_id == EVREC_QS_REC_OBJ_DICT ? put_entry(&d->obj, &d->obj_n, &d->obj_cap, le(p, ps), 0, name)
                                               : put_entry(&d->fun, &d->fun_n, &d->fun_cap, le(p, ps), 0, name);
    }
    case EVREC_QS_REC_SIG_DICT: {
        size_t need = (size_t)d->cfg.sig_size + d->cfg.obj_ptr_size;
        if (len < need) {
            return EVREC_E_TRUNCATED;
        }
        if (!(name = take_name(p, need, len, &st))) {
            return st;
        }
        return put_entry(&d->sig, &d->sig_n, &d->sig_cap, le(p, d->cfg.sig_size),
                         le(p + d->cfg.sig_size, d->cfg.obj_ptr_size), name);
    }
    case EVREC_QS_REC_ENUM_DICT:
        if (len < 2) {
            return EVREC_E_TRUNCATED;
        }
        if (!(name = take_name(p, 2, len, &st))) {
            return st;
        }
        free(d->enums[p[1] & 7u][p[0]]);
        d->enums[p[1] & 7u][p[0]] = name;
        return EVREC_OK;
    case EVREC_QS_REC_USR_DICT:
        if (len < 1) {
            return EVREC_E_TRUNCATED;
        }
        if (!(name = take_name(p, 1, len, &st))) {
            return st;
        }
        free(d->usr[p[0]]);
        d->usr[p[0]] = name;
        return EVREC_OK;
    default: return EVREC_OK;
    }
}

static const char *find(const struct evrec_qs_dict_entry *a, size_t n, uint64_t key)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].key == key) {
            return a[i].name;
        }
    }
    return NULL;
}

const char *evrec_qs_dict_obj(const evrec_qs_dict_t *d, uint64_t addr)
{
    return find(d->obj, d->obj_n, addr);
}

const char *evrec_qs_dict_fun(const evrec_qs_dict_t *d, uint64_t addr)
{
    return find(d->fun, d->fun_n, addr);
}

const char *evrec_qs_dict_sig(const evrec_qs_dict_t *d, uint64_t sig, uint64_t obj)
{
    const char *any = NULL;
    for (size_t i = 0; i < d->sig_n; i++) {
        if (d->sig[i].key == sig) {
            if (d->sig[i].obj == obj) {
                return d->sig[i].name;
            }
            if (d->sig[i].obj == 0 || !any) {
                any = d->sig[i].name;
            }
        }
    }
    return any;
}
