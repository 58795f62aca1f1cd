/* SPDX-License-Identifier: Apache-2.0 */
/* memcpy and memset for a firmware linked without a C library: the compiler emits calls to them
 * for struct copies and for the recorder's __builtin_memcpy/__builtin_memset. Compiled with
 * -fno-tree-loop-distribute-patterns so that GCC does not turn these loops into calls to
 * themselves. Word-at-a-time when both pointers are aligned. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4) {
            *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
        }
    }
    while (n--) {
        *d++ = *s++;
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = (uint8_t *)dst;
    if (((uintptr_t)d & 3u) == 0) {
        uint32_t w = (uint8_t)c * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4) {
            *(uint32_t *)(void *)d = w;
        }
    }
    while (n--) {
        *d++ = (uint8_t)c;
    }
    return dst;
}
