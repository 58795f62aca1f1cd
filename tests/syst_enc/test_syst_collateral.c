/* SPDX-License-Identifier: Apache-2.0 */
/* The SyS-T collateral: printf formats per event type (widths, hex and address display, units,
 * nested members) and the catalog XML, validated with libxml2 against the collateral structure
 * (tests/data/syst/evrec-collateral.xsd) and read back: one Format per event type, ids in hex
 * equal to the map's. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "../qs/qs_test_meta.h"
#include "evrec/evrec_syst_host.h"

static const evrec_field_info_t k_info_entries[] = {
    {K_STRUCT_SENSOR, 3, EVREC_DISPLAY_HEX, NULL, NULL},
    {K_STRUCT_SENSOR, 4, EVREC_DISPLAY_DEFAULT, "%RH", NULL},
    {K_STRUCT_MIXED, 7, EVREC_DISPLAY_ADDRESS, NULL, NULL},
    {K_STRUCT_POINT, 0, EVREC_DISPLAY_HEX, "px", NULL},
};
static const evrec_field_info_table_t k_info = {0, 4, k_info_entries};

static evrec_meta_t meta_with_info(void)
{
    evrec_meta_t m = k_meta;
    m.field_info = &k_info;
    return m;
}

Test(syst_collateral, format_strings)
{
    evrec_meta_t m = meta_with_info();
    char buf[512];
    size_t n = evrec_syst_format_string(&m, K_SENSOR, buf, sizeof buf);
    cr_assert_str_eq(buf, "Sensor ch=%u raw=0x%04X value=%u %%RH");
    cr_assert_eq(n, strlen(buf));
    evrec_syst_format_string(&m, K_MIXED, buf, sizeof buf);
    cr_assert_str_eq(buf, "Mixed u8=%u color=%u state=%u task=%u mode=%u obj=0x%08x fn=%u u32=%u "
                          "box.a.x=0x%04X px box.a.y=%u box.color=%u box.b.x=0x%04X px box.b.y=%u");
    evrec_syst_format_string(&m, K_CONTROL, buf, sizeof buf);
    cr_assert_str_eq(buf, "EventControl type=%u");
    cr_assert_eq(evrec_syst_format_string(&m, 3, buf, sizeof buf), 0u);
    /* cut like snprintf */
    cr_assert_eq(evrec_syst_format_string(&m, K_CONTROL, buf, 6), 20u);
    cr_assert_str_eq(buf, "Event");
}

static int validate(const char *xml, size_t len)
{
    xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt(EVREC_TEST_DATA "/syst/evrec-collateral.xsd");
    cr_assert_not_null(pc);
    xmlSchemaPtr schema = xmlSchemaParse(pc);
    cr_assert_not_null(schema, "the XSD does not parse");
    xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
    xmlDocPtr doc = xmlReadMemory(xml, (int)len, "collateral.xml", NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc, "not well-formed XML");
    int rc = xmlSchemaValidateDoc(vc, doc);
    xmlFreeDoc(doc);
    xmlSchemaFreeValidCtxt(vc);
    xmlSchemaFree(schema);
    xmlSchemaFreeParserCtxt(pc);
    return rc;
}

/* The Format elements of the document: their count, and each ID and text checked. */
static void check_formats(const char *xml, size_t len, const evrec_syst_map_t *map, const char *catalog,
                          const char *guid)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int)len, "collateral.xml", NULL, XML_PARSE_NONET);
    xmlXPathContextPtr x = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.mipi.org/1.0/sys-t");
    char path[128];
    snprintf(path, sizeof path, "/s:Collateral/s:Client/s:%s/s:Format", catalog);
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST path, x);
    cr_assert_not_null(r);
    cr_assert_not_null(r->nodesetval);
    cr_assert_eq(r->nodesetval->nodeNr, (int)map->meta->event_count);
    for (int i = 0; i < r->nodesetval->nodeNr; i++) {
        xmlNodePtr node = r->nodesetval->nodeTab[i];
        xmlChar *id = xmlGetProp(node, BAD_CAST "ID");
        xmlChar *text = xmlNodeGetContent(node);
        cr_assert_eq(strncmp((const char *)id, "0x", 2), 0);
        uint64_t v = strtoull((const char *)id, NULL, 16);
        cr_assert_eq(evrec_syst_map_event(map, v), i, "Format %d ID %s", i, id);
        char want[512];
        evrec_syst_format_string(map->meta, (uint32_t)i, want, sizeof want);
        cr_assert_str_eq((const char *)text, want);
        xmlFree(id);
        xmlFree(text);
    }
    xmlXPathFreeObject(r);
    r = xmlXPathEvalExpression(BAD_CAST "string(/s:Collateral/s:Client/s:Guids/s:Guid/@ID)", x);
    cr_assert_str_eq((const char *)r->stringval, guid);
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
}

Test(syst_collateral, xml_validates_32_and_64)
{
    evrec_meta_t m = meta_with_info();
    for (int id64 = 0; id64 < 2; id64++) {
        evrec_syst_options_t o;
        memset(&o, 0, sizeof o);
        o.severity = EVREC_SYST_SEV_INFO;
        o.id64 = (uint8_t)id64;
        o.module = 0x12;
        evrec_syst_map_t map;
        cr_assert_eq(evrec_syst_map_alloc(&map, &m, &o, NULL), EVREC_OK);
        char *xml = NULL;
        size_t len = 0;
        cr_assert_eq(evrec_syst_collateral(&map, "unit-test", &xml, &len), EVREC_OK);
        cr_assert_eq(len, strlen(xml));
        cr_assert_eq(validate(xml, len), 0, "does not validate:\n%s", xml);
        cr_assert_not_null(strstr(xml, "<syst:Client Name=\"unit-test\">"));
        cr_assert_not_null(strstr(xml, "enum Color: 0=Red 1=Green 2=Blue"));
        check_formats(xml, len, &map, id64 ? "Catalog64" : "Catalog32", "{00000000-0000-0012-0000-000000000000}");
        free(xml);
        evrec_syst_map_release(&map);
    }
    /* with a GUID: that GUID */
    evrec_syst_options_t o;
    memset(&o, 0, sizeof o);
    o.severity = EVREC_SYST_SEV_INFO;
    o.use_guid = 1;
    cr_assert_eq(evrec_syst_parse_guid("{8f6a3c2e-1b4d-4e5f-9a0b-112233445566}", o.guid), EVREC_OK);
    evrec_syst_map_t map;
    cr_assert_eq(evrec_syst_map_alloc(&map, &m, &o, NULL), EVREC_OK);
    char *xml = NULL;
    size_t len = 0;
    cr_assert_eq(evrec_syst_collateral(&map, NULL, &xml, &len), EVREC_OK);
    cr_assert_eq(validate(xml, len), 0);
    check_formats(xml, len, &map, "Catalog32", "{8F6A3C2E-1B4D-4E5F-9A0B-112233445566}");
    cr_assert_not_null(strstr(xml, "<syst:Client Name=\"evrec\">"));
    free(xml);
    evrec_syst_map_release(&map);
}

/* The XSD is not a rubber stamp: a single-digit decimal id and a missing GUID are refused. */
Test(syst_collateral, xsd_refuses_bad_documents)
{
    const char *bad_id =
        "<?xml version=\"1.0\"?><syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">"
        "<syst:Client Name=\"x\"><syst:Guids><syst:Guid ID=\"{00000000-0000-0000-0000-000000000000}\"/>"
        "</syst:Guids><syst:Catalog32><syst:Format ID=\"7\">x</syst:Format></syst:Catalog32>"
        "</syst:Client></syst:Collateral>";
    cr_assert_neq(validate(bad_id, strlen(bad_id)), 0);
    const char *no_guid = "<?xml version=\"1.0\"?><syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">"
                          "<syst:Client Name=\"x\"><syst:Catalog32><syst:Format ID=\"0x7\">x</syst:Format>"
                          "</syst:Catalog32></syst:Client></syst:Collateral>";
    cr_assert_neq(validate(no_guid, strlen(no_guid)), 0);
}
