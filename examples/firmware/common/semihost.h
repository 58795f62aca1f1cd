/* SPDX-License-Identifier: Apache-2.0 */
/* Semihosting (Arm "Semihosting for AArch32 and AArch64", also used by RISC-V): the few calls
 * the firmware needs to write a host file and its console, and to end the emulator. Works on
 * QEMU with `-semihosting-config enable=on,target=native` and under a debugger (OpenOCD,
 * pyOCD, J-Link). Without a debugger attached, a semihosting call stops a real MCU: call these
 * only in firmware made for that. */
#ifndef FW_SEMIHOST_H
#define FW_SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

/** Open a host file for writing in binary ("wb"). @return a handle >= 0, or -1. */
long sh_open_write(const char *path);
/** Write `len` bytes. @return 0 when all were written, else non-zero. */
int sh_write(long handle, const void *data, size_t len);
/** Close a handle. @return 0 on success. */
int sh_close(long handle);
/** Print a NUL-terminated string on the host console. */
void sh_puts(const char *s);
/** Print an unsigned number in decimal. */
void sh_put_u32(uint32_t v);
/** End the program: the emulator exits with `code` (0..255). Does not return. */
void sh_exit(int code) __attribute__((noreturn));

#endif /* FW_SEMIHOST_H */
