/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M port: enabling the timestamp counters (DWT CYCCNT, SysTick). */
#include "evrec_cortex_m.h"

/* DEMCR.TRCENA enables the DWT and ITM; DWT_CTRL.CYCCNTENA starts CYCCNT; NOCYCCNT says the
 * DWT was built without it. The lock access register takes this key (CoreSight). */
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CTRL_NOCYCCNT (1u << 25)
#define DWT_LAR_KEY 0xC5ACCE55u
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2)

volatile uint32_t evrec_cm_systick_periods;

evrec_status evrec_cm_dwt_enable(void)
{
#if EVREC_CM_HAS_CYCCNT
    EVREC_CM_DEMCR |= DEMCR_TRCENA;
    EVREC_CM_DWT_LAR = DWT_LAR_KEY; /* needed on Cortex-M7, ignored elsewhere */
    if (EVREC_CM_DWT_CTRL & DWT_CTRL_NOCYCCNT) {
        return EVREC_E_UNSUPPORTED;
    }
    EVREC_CM_DWT_CTRL |= DWT_CTRL_CYCCNTENA;
    uint32_t a = EVREC_CM_DWT_CYCCNT;
    for (volatile int i = 0; i < 4; i++) {
    }
    return EVREC_CM_DWT_CYCCNT != a ? EVREC_OK : EVREC_E_UNSUPPORTED;
#else
    return EVREC_E_UNSUPPORTED;
#endif
}

evrec_status evrec_cm_systick_start(uint32_t reload_ticks)
{
    if (reload_ticks < 2u || reload_ticks > (1u << 24)) {
        return EVREC_E_ARG;
    }
    EVREC_CM_SYST_CSR = 0;
    EVREC_CM_SYST_RVR = reload_ticks - 1u;
    EVREC_CM_SYST_CVR = 0;         /* any write clears the counter and COUNTFLAG */
    EVREC_CM_SHPR3 &= 0x00FFFFFFu; /* SysTick priority (bits 31:24) = 0, the highest */
    evrec_cm_systick_periods = 0;
    EVREC_CM_SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
    return EVREC_OK;
}
