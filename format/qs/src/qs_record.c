/* SPDX-License-Identifier: Apache-2.0 */
/* QS record payloads: target info and application-specific records with format-tagged elements
 * (QS.md sections 2 and 4; QP/C "Observability Viewpoint", "Data Elements"). */
#include <string.h>

#include "evrec/evrec_qs_decode.h"

void evrec_qs_target_info_default(evrec_qs_target_info_t *t)
{
    memset(t, 0, sizeof *t);
    t->version = EVREC_QS_QP_VERSION;
    t->sig_size = 2;
    t->evt_size = 2;
    t->queue_ctr_size = 1;
    t->te_ctr_size = 4;
    t->pool_blk_size = 2;
    t->pool_ctr_size = 2;
    t->obj_ptr_size = 4;
    t->fun_ptr_size = 4;
    t->time_size = 4;
}

static int size_ok(uint8_t s, int pointer)
{
    return s == 1 || s == 2 || s == 4 || (pointer && s == 8);
}

evrec_status evrec_qs_parse_target_info(const uint8_t *p, size_t len, evrec_qs_target_info_t *t)
{
    if (!p || !t) {
        return EVREC_E_ARG;
    }
    if (len < 16) {
        return EVREC_E_TRUNCATED;
    }
    evrec_qs_target_info_t x;
    memset(&x, 0, sizeof x);
    x.reset = p[0] == 0xFF;
    uint16_t v = (uint16_t)(p[1] | (p[2] << 8));
    x.version = (uint16_t)(v & 0x7FFFu);
    x.big_endian = (uint8_t)(v >> 15);
    x.sig_size = p[3] & 0x0F;
    x.evt_size = (uint8_t)(p[3] >> 4);
    x.queue_ctr_size = p[4] & 0x0F;
    x.te_ctr_size = (uint8_t)(p[4] >> 4);
    x.pool_blk_size = p[5] & 0x0F;
    x.pool_ctr_size = (uint8_t)(p[5] >> 4);
    x.obj_ptr_size = p[6] & 0x0F;
    x.fun_ptr_size = (uint8_t)(p[6] >> 4);
    x.time_size = p[7];
    x.max_active = p[8];
    x.max_pools = p[9] & 0x0F;
    x.max_tick_rates = (uint8_t)(p[9] >> 4);
    memcpy(x.build, p + 10, 6);
    if (x.big_endian || !size_ok(x.sig_size, 0) || !size_ok(x.obj_ptr_size, 1) || !size_ok(x.fun_ptr_size, 1) ||
        !size_ok(x.time_size, 0)) {
        return EVREC_E_UNSUPPORTED;
    }
    *t = x;
    return EVREC_OK;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i > 0; i--) {
        v = (v << 8) | p[i - 1];
    }
    return v;
}

static int64_t sign_extend(uint64_t v, unsigned bytes)
{
    if (bytes >= 8) {
        return (int64_t)v;
    }
    uint64_t m = 1ull << (8u * bytes - 1u);
    return (int64_t)((v ^ m) - m);
}

/* Data bytes of an element of fixed size (*need; *ssize: its signed size, 0 when unsigned; the
 * enum group). Returns 1 for a fixed-size type, 2 for STR and MEM, 0 for an unknown type. */
static int elem_size(evrec_qs_elem_t *e, const evrec_qs_target_info_t *cfg, size_t *need, unsigned *ssize)
{
    *need = 0;
    *ssize = 0;
    switch (e->type) {
    case EVREC_QS_T_I8_ENUM:
        *need = 1;
        if (e->width & 0x8u) {
            e->group = e->width & 0x7u;
        } else {
            *ssize = 1;
        }
        return 1;
    case EVREC_QS_T_U8: *need = 1; return 1;
    case EVREC_QS_T_I16:
        *need = 2;
        *ssize = 2;
        return 1;
    case EVREC_QS_T_U16: *need = 2; return 1;
    case EVREC_QS_T_I32:
        *need = 4;
        *ssize = 4;
        return 1;
    case EVREC_QS_T_U32:
    case EVREC_QS_T_U32_HEX:
    case EVREC_QS_T_F32: *need = 4; return 1;
    case EVREC_QS_T_F64:
    case EVREC_QS_T_U64: *need = 8; return 1;
    case EVREC_QS_T_I64:
        *need = 8;
        *ssize = 8;
        return 1;
    case EVREC_QS_T_OBJ: *need = cfg->obj_ptr_size; return 1;
    case EVREC_QS_T_FUN: *need = cfg->fun_ptr_size; return 1;
    case EVREC_QS_T_SIG: *need = (size_t)cfg->sig_size + cfg->obj_ptr_size; return 1;
    case EVREC_QS_T_STR:
    case EVREC_QS_T_MEM: return 2;
    default: return 0;
    }
}

/* A STR (NUL-terminated) or MEM (length byte, bytes) element's data at p[*at]. */
static evrec_status variable_elem(const uint8_t *p, size_t len, size_t *at, evrec_qs_elem_t *e)
{
    if (e->type == EVREC_QS_T_STR) {
        const uint8_t *z = memchr(p + *at, 0, len - *at);
        if (!z) {
            return EVREC_E_TRUNCATED;
        }
        e->data = p + *at;
        e->len = (size_t)(z - (p + *at));
        *at += e->len + 1;
        return EVREC_OK;
    }
    if (*at >= len || p[*at] > len - *at - 1) {
        return EVREC_E_TRUNCATED;
    }
    e->len = p[*at];
    e->data = p + *at + 1;
    *at += 1 + e->len;
    return EVREC_OK;
}

/* A fixed-size element's value at p[*at] (`need` bytes, signed size `ssize`). */
static evrec_status fixed_elem(const uint8_t *p, size_t len, size_t *at, evrec_qs_elem_t *e,
                               const evrec_qs_target_info_t *cfg, size_t need, unsigned ssize)
{
    if (len - *at < need) {
        return EVREC_E_TRUNCATED;
    }
    if (e->type == EVREC_QS_T_SIG) {
        e->u = le(p + *at, cfg->sig_size);
        e->obj = le(p + *at + cfg->sig_size, cfg->obj_ptr_size);
    } else {
        e->u = le(p + *at, (unsigned)need);
    }
    if (ssize) {
        e->i = sign_extend(e->u, ssize);
    }
    if (e->type == EVREC_QS_T_F32) {
        float f;
        uint32_t bits = (uint32_t)e->u;
        memcpy(&f, &bits, sizeof f);
        e->f = f;
    } else if (e->type == EVREC_QS_T_F64) {
        memcpy(&e->f, &e->u, sizeof e->f);
    }
    *at += need;
    return EVREC_OK;
}

/* The element at p[*at] (its format byte, then its data) into *e; *at moves past it. */
static evrec_status parse_elem(const uint8_t *p, size_t len, size_t *at, evrec_qs_elem_t *e,
                               const evrec_qs_target_info_t *cfg)
{
    memset(e, 0, sizeof *e);
    e->offset = *at;
    e->fmt = p[(*at)++];
    e->type = e->fmt & 0x0F;
    e->width = (uint8_t)(e->fmt >> 4);
    e->group = EVREC_QS_NO_GROUP;
    size_t need;
    unsigned ssize;
    switch (elem_size(e, cfg, &need, &ssize)) {
    case 1: return fixed_elem(p, len, at, e, cfg, need, ssize);
    case 2: return variable_elem(p, len, at, e);
    default: return EVREC_E_CORRUPT;
    }
}

evrec_status evrec_qs_parse_user(const uint8_t *p, size_t len, const evrec_qs_target_info_t *cfg, uint32_t *time,
                                 evrec_qs_elem_t *elems, size_t max, size_t *count, size_t *bad_offset)
{
    if (!p || !cfg || !time || !count || (max && !elems)) {
        return EVREC_E_ARG;
    }
    size_t at = 0, n = 0;
    *count = 0;
    if (bad_offset) {
        *bad_offset = 0;
    }
    if (len < cfg->time_size) {
        return EVREC_E_TRUNCATED;
    }
    *time = (uint32_t)le(p, cfg->time_size);
    at = cfg->time_size;
    while (at < len) {
        if (n == max) {
            if (bad_offset) *bad_offset = at;
            return EVREC_E_NOMEM;
        }
        evrec_status st = parse_elem(p, len, &at, &elems[n], cfg);
        if (st != EVREC_OK) {
            if (bad_offset) *bad_offset = elems[n].offset;
            return st;
        }
        n++;
    }
    *count = n;
    return EVREC_OK;
}
