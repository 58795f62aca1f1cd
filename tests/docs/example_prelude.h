/* SPDX-License-Identifier: Apache-2.0 */
/* The prelude of the header examples (tests/docs/check_examples.sh): what an `@code` example of
 * a public header may use without declaring it. Keep it small: an example should show the calls,
 * and these are the application's own names it needs around them.
 *
 *   my_event_t, MY_EVENT_ID   an application event type (`a`, `b` fields) and its id, as
 *                             evrec-gen generates them
 *   app_meta, my_meta         the application's meta-info (evrec-gen: NAME_meta)
 *   host, rec                 the application's evrec_host_t and evrec_recorder_t
 *   my_uart_write, uart       an evrec_sink_t write callback and its context
 *   r                         an open evrec_reader_t * (host headers)
 *   qs                        an evrec_qs_tx_t (host headers)
 *   my_irq_save, my_irq_restore, uart_send   the target's interrupt mask and UART output
 *   SystemCoreClock           CMSIS's core clock variable (Cortex-M port)
 *   MTIME, MTIMECMP           the machine timer registers (RISC-V port)
 *
 * An example that defines one of these objects itself at file scope (`static evrec_host_t host;`)
 * gets EVREC_EXAMPLE_DEFINES_<name> from the checker, and the prelude leaves it out. */
#ifndef EVREC_EXAMPLE_PRELUDE_H
#define EVREC_EXAMPLE_PRELUDE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_meta.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_status.h"

typedef struct my_event {
    uint32_t time;
    uint16_t id;
    uint8_t a;
    uint8_t b;
} my_event_t;
enum { MY_EVENT_ID = 1 };

extern const evrec_meta_t app_meta;
extern const evrec_meta_t my_meta;
#ifndef EVREC_EXAMPLE_DEFINES_host
extern evrec_host_t host;
#endif
#ifndef EVREC_EXAMPLE_DEFINES_rec
extern evrec_recorder_t rec;
#endif
int my_uart_write(void *ctx, const void *data, size_t len);
extern struct my_uart {
    int port;
} uart;
uint32_t my_irq_save(void *ctx);
void my_irq_restore(void *ctx, uint32_t state);
void uart_send(const uint8_t *data, size_t len);

#if defined(EVREC_EXAMPLE_ENV_HOST)
#include "evrec/evrec_analysis.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_qs.h"
#include "evrec/evrec_qs_decode.h"
#include "evrec/evrec_qs_record.h"
#include "evrec/evrec_qs_tx.h"
#include "evrec/evrec_reader.h"
#include "evrec/evrec_schema.h"
#include "evrec/evrec_gen.h"
#include "evrec/evrec_symbols.h"
#include "evrec/evrec_syst.h"
#include "evrec/evrec_syst_decode.h"
#include "evrec/evrec_syst_host.h"
#include "evrec/evrec_syst_record.h"
#include "evrec/evrec_syst_tx.h"
#include "evrec_posix.h"
#include "evrec_save_file.h"
#ifndef EVREC_EXAMPLE_DEFINES_r
extern evrec_reader_t *r;
#endif
#ifndef EVREC_EXAMPLE_DEFINES_qs
extern evrec_qs_tx_t qs;
#endif
#elif defined(EVREC_EXAMPLE_ENV_NULL_PORT)
#include "evrec_port.h"
#elif defined(EVREC_EXAMPLE_ENV_CORTEX_M)
#include "evrec_cortex_m.h"
extern uint32_t SystemCoreClock;
#elif defined(EVREC_EXAMPLE_ENV_RISCV)
#include "evrec_riscv.h"
#define MTIME ((const volatile uint64_t *)0x0200BFF8u)
#define MTIMECMP ((volatile uint64_t *)0x02004000u)
#endif

#endif /* EVREC_EXAMPLE_PRELUDE_H */
