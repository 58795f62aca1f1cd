/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file evrec_attrs.h
 * @brief Recording attributes: key/value strings that say which device, firmware and boot a
 * recording comes from (FORMAT.md section 2.6, the ATTRS chunk).
 *
 * The application fills an ::evrec_attrs_t (it owns the object; nothing is allocated) at any
 * time, before or after the recorder is initialised, and attaches it to the recorder with
 * evrec_recorder_set_attrs() after evrec_recorder_init() (or _init_cyclic(), _recover(),
 * _wrap(), evrec_stream_init(): they clear the recorder). evrec_save() then writes the ATTRS
 * chunk; a stream (evrec/evrec_stream.h) sends it in its meta document, so that `evrec record`
 * files carry it too.
 *
 * **Copied, not pointed to.** evrec_attrs_set() copies the key and the value into the object's
 * fixed area (::EVREC_ATTRS_MAX entries of ::EVREC_ATTRS_KEY_MAX + ::EVREC_ATTRS_VALUE_MAX + 2
 * bytes): a value is often formatted at run time into a stack buffer (a boot counter, a serial
 * number read from OTP), and the strings must survive until the save, which may run much later
 * (a crash handler, a recovered buffer). Pointers would make the caller keep every string alive
 * for that long; the copy costs 268 bytes of RAM with the defaults (evrec_config.h).
 *
 * API overview: ::evrec_attrs_t, evrec_attrs_init(), evrec_attrs_set(); attached to a recorder
 * with evrec_recorder_set_attrs() (evrec/evrec_recorder.h); written as a chunk by
 * evrec_attrs_put_chunk() (the save and the stream call it). Room: EVREC_ATTRS_MAX,
 * EVREC_ATTRS_KEY_MAX, EVREC_ATTRS_VALUE_MAX (evrec/evrec_config.h).
 *
 * Well-known keys (FORMAT.md section 2.6): `device` (a unique id of the unit), `firmware` (its
 * firmware version), `boot` (an id of this boot: a counter or a random number). Other keys are
 * allowed.
 * @code
 * static evrec_attrs_t attrs; // then, after evrec_recorder_init(&rec, ...):
 * evrec_attrs_init(&attrs);   // evrec_recorder_set_attrs(&rec, &attrs);
 * evrec_attrs_set(&attrs, "device", "sn-00412");
 * evrec_attrs_set(&attrs, "firmware", "1.4.2");
 * @endcode
 * Freestanding: usable on the target.
 * FORMAT.md, cited here by name and section, is installed with evrec in share/doc/evrec/.
 */
#ifndef EVREC_ATTRS_H
#define EVREC_ATTRS_H

#include <stddef.h>
#include <stdint.h>

#include "evrec/evrec_config.h"
#include "evrec/evrec_container.h"
#include "evrec/evrec_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest key the format allows, bytes (FORMAT.md section 2.6). */
#define EVREC_ATTR_KEY_LIMIT 32u
/** Longest value the format allows, bytes (FORMAT.md section 2.6). */
#define EVREC_ATTR_VALUE_LIMIT 255u
/** Most attributes in one ATTRS chunk (FORMAT.md section 2.6). */
#define EVREC_ATTR_COUNT_LIMIT 64u

#if EVREC_ATTRS_MAX < 1 || EVREC_ATTRS_MAX > 64
#error "EVREC_ATTRS_MAX must be in 1..64"
#endif
#if EVREC_ATTRS_KEY_MAX < 1 || EVREC_ATTRS_KEY_MAX > 32
#error "EVREC_ATTRS_KEY_MAX must be in 1..32"
#endif
#if EVREC_ATTRS_VALUE_MAX < 0 || EVREC_ATTRS_VALUE_MAX > 255
#error "EVREC_ATTRS_VALUE_MAX must be in 0..255"
#endif

/** @brief One attribute: NUL-terminated copies of its key and value. */
typedef struct evrec_attr {
    char key[EVREC_ATTRS_KEY_MAX + 1];
    char value[EVREC_ATTRS_VALUE_MAX + 1];
} evrec_attr_t;

/** @brief The attributes of a recording. The user owns it; initialise with evrec_attrs_init(). */
typedef struct evrec_attrs {
    uint32_t count;                      /**< entries in use, in the order first set */
    evrec_attr_t entry[EVREC_ATTRS_MAX]; /**< the attributes */
} evrec_attrs_t;

/**
 * @brief Empty the attributes.
 * @param[out] attrs the object (caller-owned).
 * @retval EVREC_OK done.
 * @retval EVREC_E_ARG `attrs` is NULL.
 * **Context:** thread; not concurrent with a save or a stream's meta document that reads it.
 */
evrec_status evrec_attrs_init(evrec_attrs_t *attrs);

/**
 * @brief Set (add, or replace the value of) one attribute; both strings are copied.
 * @param[in,out] attrs an initialised object.
 * @param[in] key 1..EVREC_ATTRS_KEY_MAX bytes of `A-Z a-z 0-9 _ . -`, NUL-terminated; not kept.
 * @param[in] value 0..EVREC_ATTRS_VALUE_MAX bytes of UTF-8, NUL-terminated; not kept. Its
 *     encoding is not checked here: a reader drops an ATTRS chunk that is not valid UTF-8.
 * @retval EVREC_OK set.
 * @retval EVREC_E_ARG a NULL pointer, an empty or too long key, a key byte outside the set
 *     above, or a value longer than EVREC_ATTRS_VALUE_MAX bytes; nothing changed.
 * @retval EVREC_E_NO_SPACE a new key, and EVREC_ATTRS_MAX attributes are set already.
 * **Context:** thread; not concurrent with a save or a stream's meta document that reads it.
 */
evrec_status evrec_attrs_set(evrec_attrs_t *attrs, const char *key, const char *value);

/**
 * @brief The ATTRS chunk (FORMAT.md section 2.6) of `attrs`, whole (header, CRC, payload), to
 * `sink`; nothing when `attrs` is NULL or empty. Used by the save and the stream.
 * @param[in] attrs the attributes, or NULL.
 * @param[in] sink where the bytes go.
 * @retval EVREC_OK written (or nothing to write).
 * @retval EVREC_E_ARG `sink` is NULL.
 * @retval EVREC_E_IO the sink failed.
 * **Context:** thread. Stack: about 40 bytes.
 */
evrec_status evrec_attrs_put_chunk(const evrec_attrs_t *attrs, const evrec_sink_t *sink);

#ifdef __cplusplus
}
#endif

#endif /* EVREC_ATTRS_H */
