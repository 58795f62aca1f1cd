/* SPDX-License-Identifier: Apache-2.0 */
/* Target addresses to function+offset from an ELF symbol table, read with libelf. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evrec/evrec_symbols.h"

typedef struct sym {
    uint64_t start;
    uint64_t size;
    size_t name;  /* offset in the string pool */
    uint8_t func; /* STT_FUNC */
    uint8_t rank; /* binding preference among equal starts: 0 global, 1 weak, 2 local */
} sym_t;

struct evrec_symbols {
    sym_t *syms;
    size_t count;
    char *pool;
    int arm; /* EM_ARM: the Thumb bit */
};

static void set_err(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t size, const char *fmt, ...)
{
    if (err && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
}

static int cmp_sym(const void *a, const void *b)
{
    const sym_t *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->func != y->func) return x->func ? -1 : 1; /* functions first */
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->size != y->size) return x->size > y->size ? -1 : 1; /* the largest extent */
    return (x->name > y->name) - (x->name < y->name);
}

/* Read one symbol table section into t. */
static evrec_status read_symtab(evrec_symbols_t *t, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const char *path,
                                char *err, size_t err_size)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || sh->sh_entsize == 0) {
        set_err(err, err_size, "%s: unreadable symbol table: %s", path, elf_errmsg(-1));
        return EVREC_E_CORRUPT;
    }
    size_t n = sh->sh_size / sh->sh_entsize;
    t->syms = calloc(n ? n : 1, sizeof *t->syms);
    size_t pool_cap = 4096, pool_len = 0;
    t->pool = malloc(pool_cap);
    if (!t->syms || !t->pool) {
        return EVREC_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(data, (int)i, &s)) {
            set_err(err, err_size, "%s: symbol %zu unreadable: %s", path, i, elf_errmsg(-1));
            return EVREC_E_CORRUPT;
        }
        int type = GELF_ST_TYPE(s.st_info);
        if ((type != STT_FUNC && type != STT_OBJECT) || s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS) {
            continue;
        }
        const char *name = elf_strptr(e, sh->sh_link, s.st_name);
        if (!name || !name[0]) {
            continue;
        }
        size_t len = strlen(name) + 1;
        if (pool_len + len > pool_cap) {
            while (pool_len + len > pool_cap)
                pool_cap *= 2;
            char *p = realloc(t->pool, pool_cap);
            if (!p) {
                return EVREC_E_NOMEM;
            }
            t->pool = p;
        }
        memcpy(t->pool + pool_len, name, len);
        int bind = GELF_ST_BIND(s.st_info);
        sym_t *d = &t->syms[t->count++];
        d->start = s.st_value;
        if (t->arm && type == STT_FUNC) {
            d->start &= ~(uint64_t)1; /* the Thumb bit */
        }
        d->size = s.st_size;
        d->name = pool_len;
        d->func = type == STT_FUNC;
        d->rank = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
        pool_len += len;
    }
    qsort(t->syms, t->count, sizeof *t->syms, cmp_sym);
    return EVREC_OK;
}

evrec_status evrec_symbols_load(evrec_symbols_t **out, const char *path, char *err, size_t err_size)
{
    if (out) {
        *out = NULL;
    }
    if (!out || !path) {
        return EVREC_E_ARG;
    }
    if (elf_version(EV_CURRENT) == EV_NONE) {
        set_err(err, err_size, "libelf: %s", elf_errmsg(-1));
        return EVREC_E_UNSUPPORTED;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        set_err(err, err_size, "%s: %s", path, strerror(errno));
        return EVREC_E_IO;
    }
    evrec_status st = EVREC_OK;
    evrec_symbols_t *t = calloc(1, sizeof *t);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    GElf_Ehdr eh;
    if (!t) {
        st = EVREC_E_NOMEM;
    } else if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
        set_err(err, err_size, "%s: not an ELF file", path);
        st = EVREC_E_CORRUPT;
    } else {
        t->arm = eh.e_machine == EM_ARM;
        Elf_Scn *symtab = NULL, *dynsym = NULL, *scn = NULL;
        GElf_Shdr sh_sym, sh_dyn, sh;
        while ((scn = elf_nextscn(e, scn)) != NULL) {
            if (!gelf_getshdr(scn, &sh)) {
                continue;
            }
            if (sh.sh_type == SHT_SYMTAB && !symtab) {
                symtab = scn;
                sh_sym = sh;
            } else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
                dynsym = scn;
                sh_dyn = sh;
            }
        }
        if (symtab) {
            st = read_symtab(t, e, symtab, &sh_sym, path, err, err_size);
        } else if (dynsym) {
            st = read_symtab(t, e, dynsym, &sh_dyn, path, err, err_size);
        }
    }
    if (st == EVREC_E_NOMEM) {
        set_err(err, err_size, "%s: out of memory", path);
    }
    if (e) {
        elf_end(e);
    }
    close(fd);
    if (st != EVREC_OK) {
        evrec_symbols_free(t);
        return st;
    }
    *out = t;
    return EVREC_OK;
}

size_t evrec_symbols_count(const evrec_symbols_t *t)
{
    return t ? t->count : 0;
}

static int covers(const sym_t *s, uint64_t addr)
{
    return addr == s->start || addr - s->start < s->size;
}

int evrec_symbols_lookup(const evrec_symbols_t *t, uint64_t addr, const char **name, uint64_t *offset)
{
    if (!t || t->count == 0) {
        return 0;
    }
    /* The last symbol starting at or below addr. */
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->syms[mid].start <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    /* Walk down: a label of size 0 or a small object can sit inside a larger function. */
    for (size_t k = 0; lo > 0 && k < 64; k++, lo--) {
        size_t i = lo - 1;
        while (i > 0 && t->syms[i - 1].start == t->syms[i].start) {
            i--; /* the preferred one of symbols with the same start */
        }
        for (size_t j = i; j < lo; j++) {
            const sym_t *s = &t->syms[j];
            if (covers(s, addr)) {
                uint64_t a = t->arm && s->func ? addr & ~(uint64_t)1 : addr;
                if (name) *name = t->pool + s->name;
                if (offset) *offset = a >= s->start ? a - s->start : 0;
                return 1;
            }
        }
        lo = i + 1;
    }
    return 0;
}

size_t evrec_symbols_format(const evrec_symbols_t *t, uint64_t addr, char *buf, size_t size)
{
    const char *name;
    uint64_t off;
    int n;
    if (evrec_symbols_lookup(t, addr, &name, &off)) {
        n = off ? snprintf(buf, size, "%s+0x%llx", name, (unsigned long long)off)
                : snprintf(buf, size, "%s", name);
    } else {
        n = snprintf(buf, size, addr > 0xFFFFFFFFu ? "0x%016llx" : "0x%08llx", (unsigned long long)addr);
    }
    return n < 0 ? 0 : (size_t)n;
}

void evrec_symbols_free(evrec_symbols_t *t)
{
    if (t) {
        free(t->syms);
        free(t->pool);
        free(t);
    }
}
