/* SPDX-License-Identifier: Apache-2.0 */
/* Instructions executed by the SyS-T encode path on a Cortex-M (counted under QEMU by
 * `tests/qs/m4/qs-insn-count.sh -b syst`): the 3-field event (u8, u16, u32) of the QS count,
 * sent with evrec_syst_tx_event() into the transmit ring without a lock and with a PRIMASK lock,
 * encoded flat with evrec_syst_encode_event(), and dropped by the global filter. Default
 * options: 32-bit ids, no GUID, no timestamp, no CRC (22-byte messages). Each loop runs
 * QS_INSN_N events between two calls of insn_mark(); an empty loop is the baseline. */
#include <stddef.h>
#include <stdint.h>

#include "../../qs/m4/insn_sensor.h"
#include "evrec/evrec_syst_tx.h"
#include "semihost.h"

static uint64_t ring_plain[4096 / 8];
static uint64_t ring_locked[4096 / 8];
static uint8_t flat[64];
static evrec_syst_tx_t tx, txl;

int main(void)
{
    evrec_syst_options_t o = {{0}, 0, 0, 0, EVREC_SYST_SEV_INFO, 0, 0, 0, NULL};
    if (evrec_syst_tx_init(&tx, &meta, ring_plain, sizeof ring_plain, &o, NULL) != EVREC_OK) {
        sh_exit(2);
    }
    const evrec_qs_lock_t lock = {irq_save, irq_restore, NULL};
    if (evrec_syst_tx_init(&txl, &meta, ring_locked, sizeof ring_locked, &o, &lock) != EVREC_OK) {
        sh_exit(2);
    }
    sensor_event_t e = {0, 1, 3, 0, 0x0102, 0, 0x01020304u};
    size_t n = 0;
    /* 1. baseline */
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        __asm__ volatile("" ::"r"(&e) : "memory");
    }
    insn_mark();
    /* 2. ring, no lock (4096 bytes hold all 64 messages: no overwrite) */
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        evrec_syst_tx_event(&tx, 1, 0x01000000u + i, &e);
    }
    insn_mark();
    /* 3. ring, PRIMASK lock */
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        evrec_syst_tx_event(&txl, 1, 0x01000000u + i, &e);
    }
    insn_mark();
    /* 4. flat buffer */
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        e.time = 0x01000000u + i;
        evrec_syst_encode_event(&tx.map, &e, e.time, flat, sizeof flat, &n);
        __asm__ volatile("" ::"r"(flat) : "memory");
    }
    insn_mark();
    /* 5. filtered out by the global filter */
    evrec_syst_tx_global_filter(&tx, 1, 0);
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        evrec_syst_tx_event(&tx, 1, i, &e);
    }
    insn_mark();
    if (tx.messages != QS_INSN_N || txl.messages != QS_INSN_N || tx.messages_lost || n != 22) {
        sh_exit(1); /* the loops did not do what they claim */
    }
    sh_exit(0);
}
