/* SPDX-License-Identifier: Apache-2.0 */
/* Private to the SyS-T decoder (syst_parse.c, syst_format.c, syst_decode.c): header bits and message types (MIPI SyS-T "Message Header"),
 * little-endian loads. Never installed. */
#ifndef EVREC_SYST_DECODE_INTERNAL_H
#define EVREC_SYST_DECODE_INTERNAL_H

#include <stdint.h>

#define SYST_TYPE_MASK 0x0000000Fu
#define SYST_TYPE_BUILD 0u
#define SYST_TYPE_SHORT32 1u
#define SYST_TYPE_STRING 2u
#define SYST_TYPE_CATALOG 3u
#define SYST_TYPE_RAW 6u
#define SYST_TYPE_SHORT64 7u
#define SYST_TYPE_CLOCK 8u

#define SYST_HDR_LOC 0x00000100u
#define SYST_HDR_LEN 0x00000200u
#define SYST_HDR_CHK 0x00000400u
#define SYST_HDR_TS 0x00000800u
#define SYST_HDR_GUID 0x00800000u
#define SYST_HDR_RESERVED 0xC0000080u /* bits 7, 30, 31 */

uint32_t evrec_syst_le32(const uint8_t *p);
uint64_t evrec_syst_le64(const uint8_t *p);

#endif
