/* SPDX-License-Identifier: Apache-2.0 */
/* The address of a symbol in a firmware's ELF file (libelf), for `evrec record gdb: --elf`. */
#ifndef EVREC_CLI_RECORD_ELF_H
#define EVREC_CLI_RECORD_ELF_H

#include <stddef.h>
#include <stdint.h>

/* What the host needs to know of the target to read its memory. */
typedef struct record_elf_symbol {
    uint64_t addr;     /* the symbol's value (its address) */
    uint64_t size;     /* its st_size, bytes */
    unsigned ptr_size; /* 4 (ELFCLASS32) or 8 (ELFCLASS64), bytes */
    int big_endian;    /* ELFDATA2MSB */
} record_elf_symbol_t;

/* Looks up `name` in the symbol tables (.symtab, else .dynsym) of the ELF file `path`. Returns 1
 * when found, else 0 after reporting why ("evrec: PATH: ..."). */
int record_elf_symbol(const char *path, const char *name, record_elf_symbol_t *out);

#endif
