/* SPDX-License-Identifier: Apache-2.0 */
/* Start-up code of the example firmware for every Cortex-M: vector table, Reset_Handler that
 * copies .data, zeroes .bss and calls main(), and a default handler that reports a fault
 * through semihosting (so that a crash under QEMU ends the run instead of hanging it). */
#include <stdint.h>

#include "semihost.h"

extern uint32_t __data_load__[], __data_start__[], __data_end__[];
extern uint32_t __bss_start__[], __bss_end__[];
extern uint32_t __stack_top__[];

int main(void);
void Reset_Handler(void);
void Default_Handler(void);

void Reset_Handler(void)
{
    /* Plain loops: compiled with -fno-tree-loop-distribute-patterns (no memcpy call here). */
    for (uint32_t *s = __data_load__, *d = __data_start__; d < __data_end__;) {
        *d++ = *s++;
    }
    for (uint32_t *d = __bss_start__; d < __bss_end__;) {
        *d++ = 0;
    }
    (void)main();
    sh_exit(1);
}

void Default_Handler(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    sh_puts("fw: unexpected exception ");
    sh_put_u32(ipsr & 0x1FFu);
    sh_puts("\n");
    sh_exit(3);
}

#define WEAK_DEFAULT __attribute__((weak, alias("Default_Handler")))
void NMI_Handler(void) WEAK_DEFAULT;
void HardFault_Handler(void) WEAK_DEFAULT;
void MemManage_Handler(void) WEAK_DEFAULT;
void BusFault_Handler(void) WEAK_DEFAULT;
void UsageFault_Handler(void) WEAK_DEFAULT;
void SVC_Handler(void) WEAK_DEFAULT;
void PendSV_Handler(void) WEAK_DEFAULT;
void SysTick_Handler(void) WEAK_DEFAULT;
void Irq8_Handler(void) WEAK_DEFAULT;
void Irq9_Handler(void) WEAK_DEFAULT;

typedef void (*vector_t)(void);
/* 16 system exceptions, then external interrupts 0..31 (8 and 9: CMSDK TIMER0/1 on MPS2). */
__attribute__((section(".vectors"), used)) const vector_t fw_vectors[48] = {
    (vector_t)(uintptr_t)__stack_top__,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    0,
    0,
    0,
    0,
    SVC_Handler,
    0,
    0,
    PendSV_Handler,
    SysTick_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler, /* IRQ 0..3 */
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler, /* IRQ 4..7 */
    Irq8_Handler,
    Irq9_Handler,
    Default_Handler,
    Default_Handler, /* IRQ 8..11 */
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
};
