/* SPDX-License-Identifier: Apache-2.0 */
/* The SyS-T collateral (catalog XML, MIPI SyS-T collateral schema sys-t_1-0.xsd) of an evrec
 * meta-info: one printf format per event type (SYST.md "The collateral"). Host code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "evrec/evrec_syst_host.h"

evrec_status evrec_syst_map_alloc(evrec_syst_map_t *map, const evrec_meta_t *meta,
                                  const evrec_syst_options_t *opts, uint32_t *bad_event)
{
    if (!map || !meta) {
        return EVREC_E_ARG;
    }
    memset(map, 0, sizeof *map);
    size_t n = evrec_syst_map_entries_size(meta);
    void *entries = malloc(n ? n : 1u); /* malloc: aligned for uint64_t */
    if (!entries) {
        return EVREC_E_NOMEM;
    }
    evrec_status st = evrec_syst_map_init(map, meta, opts, entries, n, bad_event);
    if (st != EVREC_OK) {
        free(entries);
        memset(map, 0, sizeof *map);
    }
    return st;
}

void evrec_syst_map_release(evrec_syst_map_t *map)
{
    if (map) {
        free(map->events);
        memset(map, 0, sizeof *map);
    }
}

typedef struct text {
    char *out;
    size_t size;
    size_t len;
} text_t;

static void put_s(text_t *t, const char *s)
{
    for (; *s; s++) {
        if (t->out && t->len + 1u < t->size) {
            t->out[t->len] = *s;
        }
        t->len++;
    }
}

static const evrec_field_info_t *field_info(const evrec_meta_t *m, uint32_t sid, uint32_t f)
{
    const evrec_field_info_table_t *t = m->field_info;
    for (uint32_t i = 0; t && t->entries && i < t->count; i++) {
        if (t->entries[i].struct_id == sid && t->entries[i].field_index == f) {
            return &t->entries[i];
        }
    }
    return NULL;
}

/* " path=%u" for every leaf of struct sid from field `first`; prefix is the dotted path so far. */
static void format_fields(const evrec_meta_t *m, text_t *t, uint32_t sid, uint32_t first, char *prefix,
                          size_t plen, unsigned depth)
{
    const evrec_struct_desc_t *s = &m->structs[sid];
    for (uint32_t f = first; f < s->field_count; f++) {
        const evrec_field_desc_t *fd = &s->fields[f];
        size_t n = strlen(fd->name);
        if (plen + n + 2u > 512u) {
            continue; /* cannot happen with evrec-gen's names; keep the buffer safe */
        }
        memcpy(prefix + plen, fd->name, n + 1u);
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (depth < EVREC_MAX_NESTING && fd->ref < m->struct_count) {
                prefix[plen + n] = '.';
                prefix[plen + n + 1u] = '\0';
                format_fields(m, t, fd->ref, 0, prefix, plen + n + 1u, depth + 1u);
            }
            continue;
        }
        put_s(t, " ");
        put_s(t, prefix);
        const evrec_field_info_t *fi = fd->kind <= EVREC_KIND_UINT32 ? field_info(m, sid, f) : NULL;
        uint8_t disp = fi ? fi->display : EVREC_DISPLAY_DEFAULT;
        if (disp == EVREC_DISPLAY_HEX) {
            put_s(t, fd->kind == EVREC_KIND_UINT8    ? "=0x%02X"
                     : fd->kind == EVREC_KIND_UINT16 ? "=0x%04X"
                                                     : "=0x%08X");
        } else if (disp == EVREC_DISPLAY_ADDRESS) {
            put_s(t, "=0x%08x");
        } else {
            put_s(t, "=%u");
        }
        if (fi && fi->unit) {
            put_s(t, " ");
            for (const char *u = fi->unit; *u; u++) {
                char c[2] = {*u, '\0'};
                put_s(t, *u == '%' ? "%%" : c);
            }
        }
    }
}

size_t evrec_syst_format_string(const evrec_meta_t *meta, uint32_t event_id, char *out, size_t out_size)
{
    if (!meta || (!out && out_size) || event_id >= meta->event_count ||
        meta->events[event_id].struct_id >= meta->struct_count) {
        return 0;
    }
    text_t t = {out, out_size, 0};
    uint32_t sid = meta->events[event_id].struct_id;
    put_s(&t, meta->structs[sid].name);
    char prefix[512];
    prefix[0] = '\0';
    format_fields(meta, &t, sid, 2u, prefix, 0, 0);
    if (out && out_size) {
        out[t.len < out_size ? t.len : out_size - 1u] = '\0';
    }
    return t.len;
}

/* One XML comment per enum that some event uses: "enum Name: 0=A 1=B ...". */
static int enum_comments(xmlTextWriterPtr w, const evrec_meta_t *m)
{
    for (uint32_t i = 0; i < m->enum_count; i++) {
        const evrec_enum_desc_t *e = &m->enums[i];
        size_t cap = 64u + strlen(e->name), len = 0;
        for (uint32_t v = 0; v < e->value_count; v++) {
            cap += 16u + strlen(e->values[v].name);
        }
        char *c = malloc(cap);
        if (!c) {
            return -1;
        }
        len += (size_t)snprintf(c, cap, " enum %s:", e->name);
        for (uint32_t v = 0; v < e->value_count; v++) {
            len += (size_t)snprintf(c + len, cap - len, " %lu=%s", (unsigned long)e->values[v].value,
                                    e->values[v].name);
        }
        if (e->runtime) {
            len += (size_t)snprintf(c + len, cap - len, " (%lu..%lu named at run time)",
                                    (unsigned long)e->runtime->base, (unsigned long)e->runtime->lim - 1ul);
        }
        snprintf(c + len, cap - len, " ");
        /* "--" is not allowed in a comment; names are C identifiers, so only a value list could
         * make one: there is none, but guard anyway. */
        for (char *p = strstr(c, "--"); p; p = strstr(p, "--")) {
            p[1] = '_';
        }
        int rc = xmlTextWriterWriteComment(w, BAD_CAST c);
        free(c);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

/* The document's start: the root element, the client and its GUID (from the map's options). */
static int write_client(xmlTextWriterPtr w, const evrec_syst_map_t *map, const char *client)
{
    int rc = 0;
    char guid[39];
    uint8_t g[EVREC_SYST_GUID_SIZE] = {0};
    if (map->opts.use_guid) {
        memcpy(g, map->opts.guid, sizeof g);
    } else {
        g[7] = map->opts.module; /* the decoder's pseudo GUID of a GUID-less origin */
    }
    evrec_syst_format_guid(g, guid);
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
    rc |= xmlTextWriterStartDocument(w, NULL, "utf-8", NULL);
    rc |= xmlTextWriterStartElement(w, BAD_CAST "syst:Collateral");
    rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns:syst", BAD_CAST "http://www.mipi.org/1.0/sys-t");
    rc |= xmlTextWriterWriteComment(w, BAD_CAST " evrec catalog: one CATALOG message per event type; "
                                                "ids and packing in evrec's format/syst/SYST.md ");
    rc |= xmlTextWriterStartElement(w, BAD_CAST "syst:Client");
    rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "Name", BAD_CAST(client ? client : "evrec"));
    rc |= xmlTextWriterStartElement(w, BAD_CAST "syst:Guids");
    rc |= xmlTextWriterStartElement(w, BAD_CAST "syst:Guid");
    rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "ID", BAD_CAST guid);
    rc |= xmlTextWriterWriteCDATA(w, BAD_CAST(client ? client : "evrec"));
    rc |= xmlTextWriterEndElement(w);
    rc |= xmlTextWriterEndElement(w);
    return rc;
}

/* The syst:Format element of event e: its catalog id and format string. */
static int write_format(xmlTextWriterPtr w, const evrec_syst_map_t *map, uint32_t e)
{
    const evrec_meta_t *m = map->meta;
    size_t n = evrec_syst_format_string(m, e, NULL, 0);
    char *fmt = malloc(n + 1u);
    if (!fmt) {
        return -1;
    }
    evrec_syst_format_string(m, e, fmt, n + 1u);
    char id[24];
    if (map->opts.id64) {
        snprintf(id, sizeof id, "0x%016llx", (unsigned long long)map->events[e].id);
    } else {
        snprintf(id, sizeof id, "0x%08lx", (unsigned long)map->events[e].id);
    }
    int rc = xmlTextWriterStartElement(w, BAD_CAST "syst:Format");
    rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "ID", BAD_CAST id);
    if (strstr(fmt, "]]>")) {
        rc |= xmlTextWriterWriteString(w, BAD_CAST fmt);
    } else {
        rc |= xmlTextWriterWriteCDATA(w, BAD_CAST fmt);
    }
    rc |= xmlTextWriterEndElement(w);
    free(fmt);
    return rc;
}

/* The whole document into w; negative on a failure. */
static int write_collateral(xmlTextWriterPtr w, const evrec_syst_map_t *map, const char *client)
{
    const evrec_meta_t *m = map->meta;
    int rc = write_client(w, map, client);
    if (rc >= 0 && enum_comments(w, m) != 0) {
        rc = -1;
    }
    rc |= xmlTextWriterStartElement(w, BAD_CAST(map->opts.id64 ? "syst:Catalog64" : "syst:Catalog32"));
    for (uint32_t e = 0; e < m->event_count && rc >= 0; e++) {
        int f = write_format(w, map, e);
        if (f == -1) {
            rc = -1;
            break;
        }
        rc |= f;
    }
    if (rc >= 0) {
        rc |= xmlTextWriterEndDocument(w); /* closes every open element */
    }
    return rc;
}

evrec_status evrec_syst_collateral(const evrec_syst_map_t *map, const char *client, char **xml, size_t *len)
{
    if (!map || !map->meta || !xml) {
        return EVREC_E_ARG;
    }
    *xml = NULL;
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        if (buf) {
            xmlBufferFree(buf);
        }
        return EVREC_E_NOMEM;
    }
    int rc = write_collateral(w, map, client);
    xmlFreeTextWriter(w);
    evrec_status st = EVREC_E_NOMEM;
    if (rc >= 0) {
        size_t n = (size_t)xmlBufferLength(buf);
        *xml = malloc(n + 1u);
        if (*xml) {
            memcpy(*xml, xmlBufferContent(buf), n);
            (*xml)[n] = '\0';
            if (len) {
                *len = n;
            }
            st = EVREC_OK;
        }
    }
    xmlBufferFree(buf);
    return st;
}
