/* SPDX-License-Identifier: Apache-2.0 */
/* Instructions executed by the QS encode path on a Cortex-M (counted under QEMU by
 * tests/qs/m4/qs-insn-count.sh): a 3-field event (u8, u16, u32) sent with
 * evrec_qs_tx_event_ex() into the transmit ring without a lock and with a PRIMASK lock, encoded
 * flat with evrec_qs_encode_event(), and dropped by the global filter. Each loop runs QS_INSN_N
 * events between two calls of insn_mark(); an empty loop is the baseline. */
#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_qs_tx.h"
#include "insn_sensor.h"
#include "semihost.h"

static uint8_t ring_plain[4096] __attribute__((aligned(8)));
static uint8_t ring_locked[4096] __attribute__((aligned(8)));
static uint8_t flat[64];
static evrec_qs_tx_t tx, txl;

int main(void)
{
    evrec_qs_options_t o = {0};
    o.time_size = 4;
    if (evrec_qs_tx_init(&tx, &meta, ring_plain, sizeof ring_plain, &o) != EVREC_OK) {
        sh_exit(2);
    }
    o.lock = (evrec_qs_lock_t){irq_save, irq_restore, NULL};
    if (evrec_qs_tx_init(&txl, &meta, ring_locked, sizeof ring_locked, &o) != EVREC_OK) {
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
    /* 2. ring, no lock (values chosen so that no byte needs escaping: 18-byte frames) */
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        evrec_qs_tx_event_ex(&tx, 1, 0x01000000u + i, &e);
    }
    insn_mark();
    /* 3. ring, PRIMASK lock */
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        evrec_qs_tx_event_ex(&txl, 1, 0x01000000u + i, &e);
    }
    insn_mark();
    /* 4. flat buffer */
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        e.time = 0x01000000u + i;
        evrec_qs_encode_event(&tx.map, (uint8_t)i, &e, flat, sizeof flat, &n);
        __asm__ volatile("" ::"r"(flat) : "memory");
    }
    insn_mark();
    /* 5. filtered out by the global filter */
    evrec_qs_tx_global_filter(&tx, 1, 0);
    insn_mark();
    for (uint32_t i = 0; i < QS_INSN_N; i++) {
        e.value = i;
        evrec_qs_tx_event_ex(&tx, 1, i, &e);
    }
    insn_mark();
    if (tx.frames != QS_INSN_N || txl.frames != QS_INSN_N || tx.frames_lost || n != 18) {
        sh_exit(1); /* the loops did not do what they claim */
    }
    sh_exit(0);
}
