/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_symbols.h
 * @brief Target addresses to `function+offset`, from the symbol table of the firmware's ELF file
 * (read with libelf; as in the ThreadX context-switch logger, "Debugging Threading issues in
 * ThreadX circa 2011", "Viewing results": its addresses were resolved with the output of `nm` on
 * the firmware).
 *
 * Symbols used: function and object symbols (STT_FUNC, STT_OBJECT) of `.symtab`, or of `.dynsym`
 * when the file has no `.symtab`, that are defined in a section (not undefined, not absolute).
 * On ARM (EM_ARM) bit 0 of a function symbol's value is the Thumb bit, not an address bit: it is
 * cleared, and an odd address (a return address with the Thumb bit, as `LR` holds it) resolves
 * to the function at the even address below it.
 *
 * API overview: evrec_symbols_load(), evrec_symbols_count(), evrec_symbols_lookup(),
 * evrec_symbols_format() (`function+offset` text), evrec_symbols_free().
 *
 * **Context:** host only (malloc, libelf). A table is read-only after evrec_symbols_load(): any
 * number of threads may look up in it.
 */
#ifndef EVREC_SYMBOLS_H
#define EVREC_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief An opaque symbol table. */
typedef struct evrec_symbols evrec_symbols_t;

/**
 * @brief Read the symbol table of an ELF file (32- or 64-bit, either byte order).
 * @param[out] out the table (NULL on failure).
 * @param[in] path the ELF file.
 * @param[out] err optional buffer for an English message on failure ("FILE: not an ELF file").
 * @param[in] err_size its size in bytes.
 * @retval EVREC_OK loaded (possibly with no symbols: evrec_symbols_count() says).
 * @retval EVREC_E_IO the file cannot be opened.
 * @retval EVREC_E_CORRUPT not an ELF file, or a damaged symbol table.
 * @retval EVREC_E_NOMEM allocation failed.
 * @retval EVREC_E_UNSUPPORTED libelf does not support this ELF version (elf_version() failed).
 * @retval EVREC_E_ARG NULL.
 * **Context:** thread.
 * @code
 * evrec_symbols_t *syms;
 * char err[256], where[160];
 * if (evrec_symbols_load(&syms, "firmware.elf", err, sizeof err) == EVREC_OK) {
 *     evrec_symbols_format(syms, 0x08000412u, where, sizeof where);   // "uart_isr+0x12"
 * }
 * evrec_symbols_free(syms);
 * @endcode
 */
evrec_status evrec_symbols_load(evrec_symbols_t **out, const char *path, char *err, size_t err_size);

/**
 * @brief Number of symbols kept.
 * @param[in] t a loaded table, or NULL.
 * @return the count; 0 for NULL.
 * **Context:** any thread; reads only.
 */
size_t evrec_symbols_count(const evrec_symbols_t *t);

/**
 * @brief Find the symbol that contains `addr`: the one with the highest start at or below it
 * whose size covers it (a symbol of size 0 covers only its own address).
 * @param[in] t a loaded table, or NULL.
 * @param[in] addr a target address.
 * @param[out] name the symbol's name (table-owned), set when found.
 * @param[out] offset `addr` minus the symbol's start, set when found.
 * @return 1 found, 0 not (or t is NULL).
 * **Context:** any thread; reads only.
 */
int evrec_symbols_lookup(const evrec_symbols_t *t, uint64_t addr, const char **name, uint64_t *offset);

/**
 * @brief Write `name+0xOFF` (or `name` at offset 0) for a found address, else `0x%08x` (more
 * digits above 32 bits). Always NUL-terminates when size > 0; truncates to fit.
 * @param[in] t a loaded table; may be NULL (then the hexadecimal form).
 * @param[in] addr a target address.
 * @param[out] buf text.
 * @param[in] size bytes at buf.
 * @return the length the full text has.
 * **Context:** any thread; reads only.
 */
size_t evrec_symbols_format(const evrec_symbols_t *t, uint64_t addr, char *buf, size_t size);

/**
 * @brief Free a table. NULL is ignored.
 * @param[in] t the table, or NULL.
 * **Context:** the thread that owns it, once no thread looks up in it.
 */
void evrec_symbols_free(evrec_symbols_t *t);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SYMBOLS_H */
