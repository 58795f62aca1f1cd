/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M port: the SysTick tick hook (period count for the SysTick clock, EventControl Tick). */
#include "evrec_cortex_m.h"

void evrec_cm_tick_init(evrec_cm_tick_t *t, evrec_host_t *host, uint32_t divider)
{
    t->host = host;
    t->divider = divider ? divider : 1u;
    t->count = 0;
}

void evrec_cm_systick_isr(evrec_cm_tick_t *t)
{
    /* First: from here on the pending bit is clear, so readers must see the new count. Only this
     * handler writes the count, and it is not reentrant: a plain increment is enough. */
    evrec_cm_systick_periods = evrec_cm_systick_periods + 1u;
    if (t && ++t->count >= t->divider) {
        t->count = 0;
        (void)evrec_tick(t->host);
    }
}
