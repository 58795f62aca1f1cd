/* SPDX-License-Identifier: Apache-2.0 */
/* Time-ordered iteration: a window of record copies in a binary min-heap by (t64, index). */
#include <stdlib.h>
#include <string.h>

#include "evrec/evrec_reader_order.h"

typedef struct order_slot {
    evrec_record_t rec;
    uint8_t data[EVREC_ORDER_MAX_RECORD];
} order_slot_t;

/* A heap entry: the key beside the slot number, so that sifting does not touch the records. */
typedef struct order_key {
    uint64_t t64;
    uint64_t index;
    uint32_t slot;
} order_key_t;

struct evrec_order {
    evrec_order_source_fn fn;
    void *ctx;
    uint32_t window;
    order_slot_t *slots;  /* [cap] */
    order_key_t *heap;    /* [cap] a min-heap by (t64, index) */
    uint32_t *free_slots; /* [cap] */
    uint32_t cap, heap_n, free_n;
    uint32_t out_slot; /* slot handed out by the last call (freed by the next); UINT32_MAX none */
    int source_done;
    evrec_status end_status;
    int read_any, sent_any;
    uint64_t max_read_t64;
    uint64_t max_sent_t64, max_sent_ns;
    evrec_order_stats_t st;
};

static evrec_status reader_source(void *ctx, evrec_record_t *rec)
{
    return evrec_reader_next((evrec_reader_t *)ctx, rec);
}

evrec_status evrec_order_create_source(evrec_order_t **out, uint32_t window, evrec_order_source_fn fn, void *ctx)
{
    if (!out) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    if (!fn || window < 1u || window > EVREC_ORDER_MAX_WINDOW) {
        return EVREC_E_ARG;
    }
    evrec_order_t *o = calloc(1, sizeof *o);
    if (!o) {
        return EVREC_E_NOMEM;
    }
    o->fn = fn;
    o->ctx = ctx;
    o->window = window;
    o->out_slot = UINT32_MAX;
    o->end_status = EVREC_OK;
    o->st.window = window;
    *out = o;
    return EVREC_OK;
}

evrec_status evrec_order_create(evrec_order_t **out, evrec_reader_t *r, uint32_t window)
{
    if (!r) {
        if (out) {
            *out = NULL;
        }
        return EVREC_E_ARG;
    }
    return evrec_order_create_source(out, window, reader_source, r);
}

static int less(const order_key_t *x, const order_key_t *y)
{
    return x->t64 < y->t64 || (x->t64 == y->t64 && x->index < y->index);
}

static void heap_push(evrec_order_t *o, order_key_t k)
{
    uint32_t i = o->heap_n++;
    while (i > 0) {
        uint32_t p = (i - 1u) / 2u;
        if (!less(&k, &o->heap[p])) {
            break;
        }
        o->heap[i] = o->heap[p];
        i = p;
    }
    o->heap[i] = k;
}

/* Remove the earliest entry; returns its slot. */
static uint32_t heap_pop(evrec_order_t *o)
{
    uint32_t top = o->heap[0].slot;
    order_key_t last = o->heap[--o->heap_n];
    uint32_t n = o->heap_n, i = 0;
    if (n == 0) {
        return top;
    }
    for (;;) {
        uint32_t l = 2u * i + 1u, m = i;
        const order_key_t *best = &last;
        if (l < n && less(&o->heap[l], best)) {
            m = l;
            best = &o->heap[l];
        }
        if (l + 1u < n && less(&o->heap[l + 1u], best)) {
            m = l + 1u;
        }
        if (m == i) {
            break;
        }
        o->heap[i] = o->heap[m];
        i = m;
    }
    o->heap[i] = last;
    return top;
}

/* Room for one more record: grows the arrays (doubling, up to the window). 0 ok, -1 no memory. */
static int grow(evrec_order_t *o)
{
    uint32_t cap = o->cap ? o->cap * 2u : 64u;
    if (cap > o->window || cap < o->cap) {
        cap = o->window;
    }
    order_slot_t *s = realloc(o->slots, (size_t)cap * sizeof *s);
    if (!s) {
        return -1;
    }
    o->slots = s;
    order_key_t *h = realloc(o->heap, (size_t)cap * sizeof *h);
    if (!h) {
        return -1;
    }
    o->heap = h;
    uint32_t *f = realloc(o->free_slots, (size_t)cap * sizeof *f);
    if (!f) {
        return -1;
    }
    o->free_slots = f;
    for (uint32_t i = cap; i-- > o->cap;) {
        o->free_slots[o->free_n++] = i;
    }
    o->cap = cap;
    return 0;
}

evrec_status evrec_order_next(evrec_order_t *o, evrec_record_t *rec, uint64_t *late)
{
    if (!o || !rec) {
        return EVREC_E_ARG;
    }
    if (o->out_slot != UINT32_MAX) {
        o->free_slots[o->free_n++] = o->out_slot;
        o->out_slot = UINT32_MAX;
    }
    while (!o->source_done && o->heap_n < o->window) {
        if (o->free_n == 0 && grow(o) != 0) {
            return EVREC_E_NOMEM;
        }
        evrec_record_t in;
        evrec_status st = o->fn(o->ctx, &in);
        if (st == EVREC_OK && (in.size > EVREC_ORDER_MAX_RECORD || (in.size && !in.data))) {
            st = EVREC_E_ARG;
        }
        if (st != EVREC_OK) {
            o->source_done = 1;
            o->end_status = st;
            break;
        }
        uint32_t s = o->free_slots[--o->free_n];
        order_slot_t *slot = &o->slots[s];
        slot->rec = in;
        if (in.size) {
            memcpy(slot->data, in.data, in.size);
        }
        slot->rec.data = NULL; /* set on delivery: the slots move when the window grows */
        if (o->read_any && in.t64 < o->max_read_t64) {
            o->st.reordered++;
        } else {
            o->max_read_t64 = in.t64;
        }
        o->read_any = 1;
        heap_push(o, (order_key_t){in.t64, in.index, s});
    }
    if (o->heap_n == 0) {
        return o->end_status;
    }
    uint32_t s = heap_pop(o);
    o->out_slot = s;
    *rec = o->slots[s].rec;
    rec->data = o->slots[s].data;
    uint64_t back = 0;
    if (o->sent_any && rec->t64 < o->max_sent_t64) {
        back = o->max_sent_t64 - rec->t64;
        o->st.late++;
        if (back > o->st.max_late_ticks) {
            o->st.max_late_ticks = back;
        }
        uint64_t back_ns = rec->ns < o->max_sent_ns ? o->max_sent_ns - rec->ns : 0;
        if (back_ns > o->st.max_late_ns) {
            o->st.max_late_ns = back_ns;
        }
    } else {
        o->max_sent_t64 = rec->t64;
        o->max_sent_ns = rec->ns;
    }
    o->sent_any = 1;
    o->st.records++;
    if (late) {
        *late = back;
    }
    return EVREC_OK;
}

const evrec_order_stats_t *evrec_order_stats(const evrec_order_t *o)
{
    return o ? &o->st : NULL;
}

void evrec_order_close(evrec_order_t *o)
{
    if (!o) {
        return;
    }
    free(o->slots);
    free(o->heap);
    free(o->free_slots);
    free(o);
}
