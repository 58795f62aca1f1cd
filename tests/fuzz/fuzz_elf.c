/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the ELF symbol lookup of `evrec record gdb: --elf` (viewer-cli/commands/
 * record_elf.c, through libelf) on a hostile ELF file: the input is written to a file and the RTT
 * control block's symbol, another symbol and a missing one are looked up. A lookup returns 1 or
 * 0; when it finds the symbol, the pointer size is 4 or 8 bytes. The messages go to /dev/null
 * unless EVREC_FUZZ_VERBOSE is set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "record_elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[512]; /* $TMPDIR/evrec-fuzz-elf-XXXXXX */
static int fd = -1;
static FILE *devnull; /* the lookup's messages go here (sanitizers write to descriptor 2) */

static void remove_file(void)
{
    unlink(path);
}

static int setup(void)
{
    if (fd >= 0) {
        return 1;
    }
    const char *t = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/evrec-fuzz-elf-XXXXXX", t && *t ? t : "/tmp");
    fd = mkstemp(path);
    if (fd < 0) {
        perror("fuzz_elf: mkstemp");
        return 0;
    }
    atexit(remove_file);
    if (!getenv("EVREC_FUZZ_VERBOSE")) {
        devnull = fopen("/dev/null", "w");
    }
    return 1;
}

static void lookup(const char *name)
{
    record_elf_symbol_t sym;
    FILE *err = stderr;
    if (devnull) {
        stderr = devnull;
    }
    int found = record_elf_symbol(path, name, &sym);
    stderr = err;
    if (found != 0 && found != 1) {
        abort();
    }
    if (found && sym.ptr_size != 4u && sym.ptr_size != 8u) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!setup() || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) {
        return 0;
    }
    lookup("_SEGGER_RTT");
    lookup("main");
    lookup("no_such_symbol");
    return 0;
}
