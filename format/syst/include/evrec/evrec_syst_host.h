/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_syst_host.h
 * @brief Host side of the SyS-T bridge: maps in malloc'd memory, the printf format of each event
 * type and the catalog XML ("collateral", MIPI SyS-T collateral schema `sys-t_1-0.xsd`, namespace
 * `http://www.mipi.org/1.0/sys-t`) that lets a SyS-T decoder such as the reference `systprint`
 * print evrec's CATALOG messages (SYST.md "The collateral").
 *
 * API overview: evrec_syst_map_alloc(), evrec_syst_map_release() (a map in heap memory),
 * evrec_syst_format_string() (an event type's printf format), evrec_syst_collateral() (the
 * catalog XML).
 *
 * **Context:** host only (malloc, libxml2). No global state; any thread.
 *
 * SYST.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_SYST_HOST_H
#define EVREC_SYST_HOST_H

#include <stddef.h>

#include "evrec/evrec_syst.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Build a map in malloc'd memory (host tools): evrec_syst_map_init() with entries that
 * evrec_syst_map_release() frees.
 * @param[out] map the map.
 * @param[in] meta validated meta-info (kept alive by the caller).
 * @param[in] opts options, or NULL (defaults, severity INFO).
 * @param[out] bad_event optional: the event id at fault on EVREC_E_META.
 * @retval EVREC_OK built.
 * @retval EVREC_E_NOMEM out of memory.
 * @retval EVREC_E_ARG NULL map or meta, or a bad option (as evrec_syst_map_init()).
 * @retval EVREC_E_META two event types share a catalog id, or a table reference is out of range
 *     (as evrec_syst_map_init(); nothing is left allocated).
 * **Context:** any thread; one map per thread while it is built.
 */
evrec_status evrec_syst_map_alloc(evrec_syst_map_t *map, const evrec_meta_t *meta,
                                  const evrec_syst_options_t *opts, uint32_t *bad_event);

/**
 * @brief Free the entries of a map made by evrec_syst_map_alloc().
 * @param[in,out] map the map; NULL or a zeroed map: nothing is done.
 * **Context:** the thread that owns the map; no encoder may use it afterwards.
 */
void evrec_syst_map_release(evrec_syst_map_t *map);

/**
 * @brief The printf format of an event type's CATALOG message: the event name, then for every
 * leaf field (walk order, nested structs as `outer.inner`) ` path=%u`; a field with the `hex`
 * display is `0x%02X`/`0x%04X`/`0x%08X` by its width, `address` is `0x%08x`, a unit follows the
 * value after a blank (`%` doubled). Enum fields print their number.
 * @param[in] meta validated meta-info (its field_info gives display and units; may be NULL).
 * @param[in] event_id index in meta->events.
 * @param[out] out text buffer.
 * @param[in] out_size its size.
 * @return the text length without the NUL (cut when it does not fit, as snprintf), or 0 when
 *     event_id is out of range or an argument is NULL.
 * **Context:** any thread; pure.
 */
size_t evrec_syst_format_string(const evrec_meta_t *meta, uint32_t event_id, char *out, size_t out_size);

/**
 * @brief The collateral of a map as XML text: one `syst:Client` named `client`, its GUID (the
 * map's GUID, or the pseudo GUID `{00000000-0000-00MM-0000-000000000000}` of the module when
 * the map sends none), and a `syst:Catalog32` (or `Catalog64` for 64-bit ids) with one
 * `syst:Format ID="0x..."` per event type, its printf format in CDATA. Enum value names are
 * listed in XML comments (the decoder prints numbers).
 * @param[in] map a built map.
 * @param[in] client client name (NULL: "evrec").
 * @param[out] xml malloc'd NUL-terminated text; the caller frees it with free().
 * @param[out] len its length in bytes (may be NULL).
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG NULL map or xml.
 * @retval EVREC_E_NOMEM out of memory or libxml2 failed.
 * **Context:** any thread (libxml2 initialised by the caller when threads share it).
 */
evrec_status evrec_syst_collateral(const evrec_syst_map_t *map, const char *client, char **xml, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_SYST_HOST_H */
