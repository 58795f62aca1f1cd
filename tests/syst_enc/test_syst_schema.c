/* SPDX-License-Identifier: Apache-2.0 */
/* The schema's syst: block, as evrec-gen emits it: origin constants, default severity and the
 * per-event severity table (an event's own entry over its class's), usable as
 * evrec_syst_options_t; the syst: block leaves the schema hash alone. */
#include <criterion/criterion.h>
#include <string.h>

#include "demo_events.h"
#include "evrec/evrec_syst.h"
#include "systdemo_events.h"

Test(syst_schema, constants_and_table)
{
    cr_assert_eq(systdemo_SYST_USE_GUID, 1);
    static const uint8_t guid[16] = systdemo_SYST_GUID;
    uint8_t want[16];
    cr_assert_eq(evrec_syst_parse_guid("{8F6A3C2E-1B4D-4E5F-9A0B-112233445566}", want), EVREC_OK);
    cr_assert_eq(memcmp(guid, want, 16), 0);
    cr_assert_eq(systdemo_SYST_UNIT, 5u);
    cr_assert_eq(systdemo_SYST_SEVERITY, EVREC_SYST_SEV_WARNING);
    cr_assert_eq(systdemo_syst_severity[systdemo_ID_EventControl], EVREC_SYST_SEV_DEFAULT);
    cr_assert_eq(systdemo_syst_severity[systdemo_ID_FrameEvent], EVREC_SYST_SEV_DEFAULT);
    cr_assert_eq(systdemo_syst_severity[systdemo_ID_FrameDrop], EVREC_SYST_SEV_ERROR);
    cr_assert_eq(systdemo_syst_severity[systdemo_ID_QueueEvent], EVREC_SYST_SEV_DEBUG);
    cr_assert_eq(systdemo_syst_severity[systdemo_ID_QueueWait], EVREC_SYST_SEV_USER1,
                 "own entry over the class's");

    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.use_guid = systdemo_SYST_USE_GUID;
    memcpy(o.guid, guid, 16);
    o.unit = systdemo_SYST_UNIT;
    o.severity = systdemo_SYST_SEVERITY;
    o.event_severity = systdemo_syst_severity;
    uint64_t entries[32];
    evrec_syst_map_t map;
    cr_assert_eq(evrec_syst_map_init(&map, &systdemo_meta, &o, entries, sizeof entries, NULL), EVREC_OK);
    cr_assert_eq(map.events[systdemo_ID_LockEvent].severity, EVREC_SYST_SEV_WARNING);
    cr_assert_eq(map.events[systdemo_ID_FrameDrop].severity, EVREC_SYST_SEV_ERROR);
}

Test(syst_schema, not_in_the_hash)
{
    /* the same event types as the demo's schema, a syst: block more: the same hash */
    cr_assert_eq(systdemo_SCHEMA_HASH, demo_SCHEMA_HASH);
    cr_assert_eq(systdemo_meta.schema_hash, demo_meta.schema_hash);
}
