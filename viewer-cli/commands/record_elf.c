/* SPDX-License-Identifier: Apache-2.0 */
/* A symbol's address in an ELF file, through libelf (elfutils): the RTT control block that
 * `evrec record gdb:` polls is found by its name, so that no address has to be typed. */
#include "record_elf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Searches one symbol table section; 1 when found. */
static int find_in(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const char *name, record_elf_symbol_t *out)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
    for (size_t i = 0; d && i < count; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF) {
            continue;
        }
        const char *n = elf_strptr(e, sh->sh_link, sym.st_name);
        if (n && strcmp(n, name) == 0) {
            out->addr = sym.st_value;
            out->size = sym.st_size;
            return 1;
        }
    }
    return 0;
}

static int find_symbol(Elf *e, const char *name, record_elf_symbol_t *out)
{
    static const unsigned types[] = {SHT_SYMTAB, SHT_DYNSYM};
    for (unsigned t = 0; t < 2; t++) {
        for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
            GElf_Shdr sh;
            if (gelf_getshdr(scn, &sh) && sh.sh_type == types[t] && find_in(e, scn, &sh, name, out)) {
                return 1;
            }
        }
    }
    return 0;
}

int record_elf_symbol(const char *path, const char *name, record_elf_symbol_t *out)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        cli_error("%s: %s", path, strerror(errno));
        return 0;
    }
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    int ok = 0;
    if (!e || elf_kind(e) != ELF_K_ELF) {
        cli_error("%s: not an ELF file%s%s", path, e ? "" : ": ", e ? "" : elf_errmsg(-1));
    } else {
        const char *ident = elf_getident(e, NULL);
        out->ptr_size = ident && ident[EI_CLASS] == ELFCLASS64 ? 8u : 4u;
        out->big_endian = ident && ident[EI_DATA] == ELFDATA2MSB;
        ok = find_symbol(e, name, out);
        if (!ok) {
            cli_error("%s: no symbol %s (the RTT control block: define evrec_rtt_t %s in the firmware, "
                      "and keep the symbols: do not strip the ELF file)",
                      path, name, name);
        }
    }
    if (e) {
        elf_end(e);
    }
    close(fd);
    return ok;
}
