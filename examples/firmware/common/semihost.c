/* SPDX-License-Identifier: Apache-2.0 */
/* Semihosting calls: operation number in r0/a0, pointer to a parameter block in r1/a1. */
#include "semihost.h"

#define SYS_OPEN 0x01
#define SYS_CLOSE 0x02
#define SYS_WRITE0 0x04
#define SYS_WRITE 0x05
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
#define MODE_WB 5 /* the fopen mode "wb" in the SYS_OPEN mode table */

static long semihost_call(long op, const void *arg)
{
#if defined(__arm__)
    register long r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
#elif defined(__riscv)
    register long a0 __asm__("a0") = op;
    register const void *a1 __asm__("a1") = arg;
    /* The semihosting trap: this exact uncompressed sequence, in one page. */
    __asm__ volatile(".balign 16\n\t"
                     ".option push\n\t"
                     ".option norvc\n\t"
                     "slli x0, x0, 0x1f\n\t"
                     "ebreak\n\t"
                     "srai x0, x0, 7\n\t"
                     ".option pop"
                     : "+r"(a0)
                     : "r"(a1)
                     : "memory");
    return a0;
#else
#error "semihosting: unknown architecture"
#endif
}

static size_t length_of(const char *s)
{
    size_t n = 0;
    while (s[n]) {
        n++;
    }
    return n;
}

long sh_open_write(const char *path)
{
    uintptr_t args[3] = {(uintptr_t)path, MODE_WB, length_of(path)};
    return semihost_call(SYS_OPEN, args);
}

int sh_write(long handle, const void *data, size_t len)
{
    uintptr_t args[3] = {(uintptr_t)handle, (uintptr_t)data, len};
    return semihost_call(SYS_WRITE, args) != 0; /* returns the bytes NOT written */
}

int sh_close(long handle)
{
    uintptr_t args[1] = {(uintptr_t)handle};
    return semihost_call(SYS_CLOSE, args) != 0;
}

void sh_puts(const char *s)
{
    (void)semihost_call(SYS_WRITE0, s);
}

void sh_put_u32(uint32_t v)
{
    char buf[11];
    char *p = buf + sizeof buf - 1;
    *p = 0;
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    sh_puts(p);
}

void sh_exit(int code)
{
    uintptr_t args[2] = {ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)code};
    (void)semihost_call(SYS_EXIT_EXTENDED, args);
    for (;;) {
    }
}
