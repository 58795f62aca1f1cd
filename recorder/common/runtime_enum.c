/* SPDX-License-Identifier: Apache-2.0 */
/* Run-time enum value names (CCore EventEnumValue, EventRecorder.h): lock-free allocation. */
#include "evrec/evrec_meta.h"

evrec_status evrec_runtime_enum_init(evrec_runtime_enum_t *e, uint32_t base, uint32_t lim, uint8_t marker,
                                     const char **names)
{
    if (!e || !names || lim <= base) {
        return EVREC_E_ARG;
    }
    e->base = base;
    e->lim = lim;
    e->marker = marker;
    e->names = names;
    for (uint32_t i = 0; i < lim - base; i++) {
        names[i] = 0;
    }
    evrec_atomic_store(&e->next, base);
    return EVREC_OK;
}

evrec_status evrec_runtime_enum_alloc(evrec_runtime_enum_t *e, const char *name, uint32_t *value)
{
    if (!e || !name || !value) {
        return EVREC_E_ARG;
    }
    /* Load first so that an exhausted enum is never advanced (no wrap of `next`). */
    size_t v = evrec_atomic_load(&e->next);
    do {
        if (v >= e->lim) {
            *value = e->lim;
            return EVREC_E_EXHAUSTED;
        }
    } while (!evrec_atomic_cas(&e->next, &v, v + 1u));
    __atomic_store_n(&e->names[v - e->base], name, __ATOMIC_RELEASE);
    *value = (uint32_t)v;
    return EVREC_OK;
}
