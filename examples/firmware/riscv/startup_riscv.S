/* SPDX-License-Identifier: Apache-2.0 */
/* Start-up code of the example firmware for RISC-V in machine mode (RV32 and RV64): global and
 * stack pointers, trap vector, .bss cleared, main(). The image runs from RAM (QEMU `virt` loads
 * it there), so .data needs no copy. The trap entry saves the caller-saved registers and calls
 * fw_trap(mcause, mepc) in C. */
#if __riscv_xlen == 64
#define STORE sd
#define LOAD ld
#define REGBYTES 8
#else
#define STORE sw
#define LOAD lw
#define REGBYTES 4
#endif

    .section .text.init, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top
    la t0, trap_entry
    csrw mtvec, t0
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    STORE zero, 0(t0)
    addi t0, t0, REGBYTES
    j 1b
2:  call main
3:  j 3b

/* Images without interrupts (evrec-insn.elf) have no fw_trap of their own: stop on any trap. */
    .weak fw_trap
fw_trap:
    j fw_trap

    .balign 4
trap_entry:
    addi sp, sp, -16 * REGBYTES
    STORE ra, 0 * REGBYTES(sp)
    STORE t0, 1 * REGBYTES(sp)
    STORE t1, 2 * REGBYTES(sp)
    STORE t2, 3 * REGBYTES(sp)
    STORE a0, 4 * REGBYTES(sp)
    STORE a1, 5 * REGBYTES(sp)
    STORE a2, 6 * REGBYTES(sp)
    STORE a3, 7 * REGBYTES(sp)
    STORE a4, 8 * REGBYTES(sp)
    STORE a5, 9 * REGBYTES(sp)
    STORE a6, 10 * REGBYTES(sp)
    STORE a7, 11 * REGBYTES(sp)
    STORE t3, 12 * REGBYTES(sp)
    STORE t4, 13 * REGBYTES(sp)
    STORE t5, 14 * REGBYTES(sp)
    STORE t6, 15 * REGBYTES(sp)
    csrr a0, mcause
    csrr a1, mepc
    call fw_trap
    LOAD ra, 0 * REGBYTES(sp)
    LOAD t0, 1 * REGBYTES(sp)
    LOAD t1, 2 * REGBYTES(sp)
    LOAD t2, 3 * REGBYTES(sp)
    LOAD a0, 4 * REGBYTES(sp)
    LOAD a1, 5 * REGBYTES(sp)
    LOAD a2, 6 * REGBYTES(sp)
    LOAD a3, 7 * REGBYTES(sp)
    LOAD a4, 8 * REGBYTES(sp)
    LOAD a5, 9 * REGBYTES(sp)
    LOAD a6, 10 * REGBYTES(sp)
    LOAD a7, 11 * REGBYTES(sp)
    LOAD t3, 12 * REGBYTES(sp)
    LOAD t4, 13 * REGBYTES(sp)
    LOAD t5, 14 * REGBYTES(sp)
    LOAD t6, 15 * REGBYTES(sp)
    addi sp, sp, 16 * REGBYTES
    mret
