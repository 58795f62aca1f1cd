/* SPDX-License-Identifier: Apache-2.0 */
/* QSPY-style text of QS records and errors (QS.md section 6; the widths of QSPY 7.4's
 * human-readable output, checked against tests/data/qs/sample.qspy.txt). Host code. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_qs_decode.h"

typedef struct line {
    char *buf;
    size_t size;
    size_t n;
} line_t;

__attribute__((format(printf, 2, 3))) static void add(line_t *l, const char *fmt, ...)
{
    if (l->n >= l->size) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->buf + l->n, l->size - l->n, fmt, ap);
    va_end(ap);
    if (k > 0) {
        l->n += (size_t)k < l->size - l->n ? (size_t)k : l->size - l->n - 1;
    }
}

static void add_ptr(line_t *l, uint64_t v, unsigned size)
{
    add(l, "0x%0*" PRIX64, (int)(2 * size), v);
}

/* A SIG, OBJ or FUN element: its dictionary name, else its value. */
static void add_ref(line_t *l, const evrec_qs_dict_t *d, const evrec_qs_elem_t *e)
{
    switch (e->type) {
    case EVREC_QS_T_SIG: {
        const char *s = evrec_qs_dict_sig(d, e->u, e->obj);
        s ? add(l, "%s", s) : add(l, "%" PRIu64, e->u);
        if (e->obj) {
            const char *o = evrec_qs_dict_obj(d, e->obj);
            add(l, ",Obj=");
            o ? add(l, "%s", o) : add_ptr(l, e->obj, d->cfg.obj_ptr_size);
        }
        break;
    }
    case EVREC_QS_T_OBJ: {
        const char *o = evrec_qs_dict_obj(d, e->u);
        o ? add(l, "%s", o) : add_ptr(l, e->u, d->cfg.obj_ptr_size);
        break;
    }
    case EVREC_QS_T_FUN: {
        const char *f = evrec_qs_dict_fun(d, e->u);
        f ? add(l, "%s", f) : add_ptr(l, e->u, d->cfg.fun_ptr_size);
        break;
    }
    default: break;
    }
}

/* One element of a user record, after its separating space (QSPY's formats). */
static void add_elem(line_t *l, const evrec_qs_dict_t *d, const evrec_qs_elem_t *e)
{
    int hex = e->width == EVREC_QS_HEX_WIDTH;
    int w = e->width;
    switch (e->type) {
    case EVREC_QS_T_I8_ENUM:
        if (e->group != EVREC_QS_NO_GROUP) {
            const char *s = d->enums[e->group][e->u & 0xFFu];
            if (s) {
                add(l, "%s", s);
            } else {
                add(l, "%03" PRIu64, e->u); /* QSPY: Dictionary_get() of a 1-byte key */
            }
        } else {
            add(l, "%*" PRId64, w, e->i);
        }
        break;
    case EVREC_QS_T_U8: hex ? add(l, "0x%02" PRIX64, e->u) : add(l, "%*" PRIu64, w, e->u); break;
    case EVREC_QS_T_U16: hex ? add(l, "0x%04" PRIX64, e->u) : add(l, "%*" PRIu64, w, e->u); break;
    case EVREC_QS_T_U32: hex ? add(l, "0x%08" PRIX64, e->u) : add(l, "%*" PRIu64, w, e->u); break;
    case EVREC_QS_T_I16:
    case EVREC_QS_T_I32: add(l, "%*" PRId64, w, e->i); break;
    case EVREC_QS_T_F32:
    case EVREC_QS_T_F64:
        /* QSPY: width 0 -> %7.0e, width k -> %(8+k).ke */
        add(l, "%*.*e", w == 0 ? 7 : 8 + w, w, e->f);
        break;
    case EVREC_QS_T_STR:
        if (e->len) {
            add(l, "%.*s", (int)e->len, (const char *)e->data);
        } else {
            add(l, "''");
        }
        break;
    case EVREC_QS_T_MEM:
        for (size_t k = 0; k < e->len; k++) {
            add(l, " %02X", (unsigned)e->data[k]);
        }
        break;
    case EVREC_QS_T_SIG:
    case EVREC_QS_T_OBJ:
    case EVREC_QS_T_FUN: add_ref(l, d, e); break;
    case EVREC_QS_T_I64: add(l, "%*" PRId64, w == 9 ? 0 : 2 * w + 2, e->i); break;
    case EVREC_QS_T_U64: hex ? add(l, "0x%16" PRIX64, e->u) : add(l, "%*" PRIu64, 2 * w + 2, e->u); break;
    case EVREC_QS_T_U32_HEX: add(l, "0x%0*" PRIX64, w, e->u); break;
    default: break;
    }
}

static void add_user(line_t *l, const evrec_qs_dict_t *d, const evrec_qs_item_t *it)
{
    uint32_t t;
    evrec_qs_elem_t el[EVREC_QS_MAX_PAYLOAD];
    size_t count = 0, bad = 0;
    evrec_status st = evrec_qs_parse_user(it->payload, it->len, &d->cfg, &t, el, EVREC_QS_MAX_PAYLOAD, &count,
                                          &bad);
    if (st == EVREC_E_TRUNCATED && count == 0 && it->len < d->cfg.time_size) {
        add(l, "   <COMMS> ERROR    Record too short for a timestamp, Seq=%u", (unsigned)it->seq);
        return;
    }
    if (d->usr[it->rec_id]) {
        add(l, "%010" PRIu32 " %s", t, d->usr[it->rec_id]);
    } else {
        add(l, "%010" PRIu32 " USER+%03u", t, (unsigned)(it->rec_id - EVREC_QS_REC_USER));
    }
    for (size_t i = 0; i < count; i++) {
        add(l, " ");
        add_elem(l, d, &el[i]);
    }
    if (st != EVREC_OK) {
        add(l, " <error at payload offset %zu: %s>", bad,
            st == EVREC_E_CORRUPT ? "unknown format" : "element runs past the end");
    }
}

static void add_rec_name(line_t *l, uint8_t rec)
{
    if (rec >= EVREC_QS_REC_USER) {
        add(l, "Rec=USER+%u(?)", (unsigned)(rec - EVREC_QS_REC_USER));
    } else {
        add(l, "Rec=%u(?)", (unsigned)rec);
    }
}

/* An OBJ_DICT or FUN_DICT record: address, name. */
static void add_addr_dict(line_t *l, const evrec_qs_dict_t *d, const evrec_qs_item_t *it)
{
    const uint8_t *p = it->payload;
    size_t n = it->len;
    int obj = it->rec_id == EVREC_QS_REC_OBJ_DICT;
    unsigned ps = obj ? d->cfg.obj_ptr_size : d->cfg.fun_ptr_size;
    if (n <= ps) {
        return;
    }
    uint64_t a = 0;
    for (unsigned i = ps; i > 0; i--) {
        a = (a << 8) | p[i - 1];
    }
    add(l, "           %s ", obj ? "Obj-Dict" : "Fun-Dict");
    add_ptr(l, a, ps);
    add(l, "->%.*s", (int)strnlen((const char *)p + ps, n - ps), (const char *)p + ps);
}

/* A SIG_DICT record: signal, object, name. */
static void add_sig_dict(line_t *l, const evrec_qs_dict_t *d, const evrec_qs_item_t *it)
{
    const uint8_t *p = it->payload;
    size_t n = it->len;
    const evrec_qs_target_info_t *c = &d->cfg;
    size_t need = (size_t)c->sig_size + c->obj_ptr_size;
    if (n <= need) {
        return;
    }
    uint64_t s = 0, o = 0;
    for (unsigned i = c->sig_size; i > 0; i--) {
        s = (s << 8) | p[i - 1];
    }
    for (unsigned i = c->obj_ptr_size; i > 0; i--) {
        o = (o << 8) | p[c->sig_size + i - 1];
    }
    add(l, "           Sig-Dict %08" PRIu64 ",Obj=", s);
    add_ptr(l, o, c->obj_ptr_size);
    add(l, "->%.*s", (int)strnlen((const char *)p + need, n - need), (const char *)p + need);
}

/* A record (EVREC_QS_ITEM_RECORD). */
static void add_record(line_t *l, const evrec_qs_dict_t *d, const evrec_qs_item_t *it)
{
    const uint8_t *p = it->payload;
    size_t n = it->len;
    const evrec_qs_target_info_t *c = &d->cfg;
    switch (it->rec_id) {
    case EVREC_QS_REC_EMPTY: break;
    case EVREC_QS_REC_TARGET_INFO:
        add(l, "           %s  QP-Ver=%u,Build=%02u%02u%02u_%02u%02u%02u", c->reset ? "Trg-RST" : "Trg-Info",
            (unsigned)c->version, c->build[5], c->build[4], c->build[3], c->build[2], c->build[1], c->build[0]);
        break;
    case EVREC_QS_REC_OBJ_DICT:
    case EVREC_QS_REC_FUN_DICT: add_addr_dict(l, d, it); break;
    case EVREC_QS_REC_SIG_DICT: add_sig_dict(l, d, it); break;
    case EVREC_QS_REC_ENUM_DICT:
        if (n >= 3) {
            add(l, "           Enum-Dic %03u,Grp=%u->%.*s", p[0], (unsigned)(p[1] & 7u),
                (int)strnlen((const char *)p + 2, n - 2), (const char *)p + 2);
        }
        break;
    case EVREC_QS_REC_USR_DICT:
        if (n >= 2) {
            add(l, "           Usr-Dict %08u->%.*s", p[0], (int)strnlen((const char *)p + 1, n - 1),
                (const char *)p + 1);
        }
        break;
    default:
        if (it->rec_id >= EVREC_QS_REC_USER) {
            add_user(l, d, it);
        } else {
            add(l, "           Rec=%u (predefined QP record, %zu bytes, not decoded)", (unsigned)it->rec_id, n);
        }
        break;
    }
}

size_t evrec_qs_format_item(const evrec_qs_dict_t *d, const evrec_qs_item_t *it, char *buf, size_t size)
{
    if (!d || !it || !buf || size == 0) {
        return 0;
    }
    line_t l = {buf, size, 0};
    buf[0] = 0;
    switch (it->kind) {
    case EVREC_QS_ITEM_BAD_CHECKSUM:
        add(&l, "   <COMMS> ERROR    Bad checksum in ");
        add_rec_name(&l, it->rec_id);
        add(&l, ",Seq=%u", (unsigned)it->seq);
        break;
    case EVREC_QS_ITEM_TOO_SHORT:
        add(&l, "   <COMMS> ERROR    Record too short at Seq=%u(?),", (unsigned)it->seq);
        add_rec_name(&l, it->rec_id);
        break;
    case EVREC_QS_ITEM_TOO_LONG:
        add(&l, "   <COMMS> ERROR    Record too long at Seq=%u(?),", (unsigned)it->seq);
        add_rec_name(&l, it->rec_id);
        break;
    case EVREC_QS_ITEM_GAP:
        add(&l, "   <COMMS> ERROR    Discontinuity Seq=%u->%u", (unsigned)it->seq, (unsigned)it->seq_to);
        break;
    case EVREC_QS_ITEM_MISMATCH:
        add(&l, "   <EVREC> ERROR    Seq=%u,Rec=%u at stream offset %" PRIu64 ": %s", (unsigned)it->seq,
            (unsigned)it->rec_id, it->offset, it->what ? it->what : "schema mismatch");
        break;
    case EVREC_QS_ITEM_SKIPPED: break;
    case EVREC_QS_ITEM_RECORD: add_record(&l, d, it); break;
    }
    return l.n;
}
