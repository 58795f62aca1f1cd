/* SPDX-License-Identifier: Apache-2.0 */
/* SyS-T messages as text: type and severity names, payload text (strings, PRINTF_32/_64 with
 * their inline arguments, raw hex, build, clock, short values, catalog id and argument bytes)
 * and one CSV line per message in the column order of the reference printer of the public
 * mipi-sys-t sources (`printer/`), without its collateral. Host code. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "evrec/evrec_syst_decode.h"
#include "syst_decode_internal.h"

/* A bounded text buffer that counts what would have been written (snprintf's rule). */
typedef struct out {
    char *p;
    size_t size, len;
    int csv; /* inside a CSV cell: quotes doubled, control bytes as \xNN */
} out_t;

static void put1(out_t *o, char c)
{
    if (o->len + 1 < o->size) {
        o->p[o->len] = c;
        o->p[o->len + 1] = 0;
    }
    o->len++;
}

static void put(out_t *o, const char *s, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o->csv && c == '"') {
            put1(o, '"');
            put1(o, '"');
        } else if (o->csv && (c < 0x20 || c == 0x7F)) {
            put1(o, '\\');
            put1(o, 'x');
            put1(o, digits[c >> 4]);
            put1(o, digits[c & 15]);
        } else {
            put1(o, (char)c);
        }
    }
}

static void puts_(out_t *o, const char *s)
{
    put(o, s, strlen(s));
}

static void printf_(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void printf_(out_t *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) {
        put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    }
}

static void hex(out_t *o, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        char b[2] = {digits[p[i] >> 4], digits[p[i] & 15]};
        put(o, b, 2);
    }
}

const char *evrec_syst_severity_name(unsigned severity)
{
    static const char *const names[] = {"MAX", "FATAL", "ERROR", "WARNING", "INFO", "USER1", "USER2", "DEBUG"};
    return severity < 8 ? names[severity] : "?";
}

static const char *subtype_name(unsigned type, unsigned sub)
{
    switch (type) {
    case SYST_TYPE_BUILD: return sub == 0 ? "COMPACT32" : sub == 1 ? "COMPACT64" : sub == 2 ? "LONG" : NULL;
    case SYST_TYPE_STRING:
        switch (sub) {
        case 1: return "GENERIC";
        case 2: return "FUNCTIONENTER";
        case 3: return "FUNCTIONEXIT";
        case 5: return "INVALIDPARAM";
        case 7: return "ASSERT";
        case 11: return "PRINTF32";
        case 12: return "PRINTF64";
        default: return NULL;
        }
    case SYST_TYPE_CATALOG:
        switch (sub) {
        case 1: return "ID32P32";
        case 2: return "ID64P32";
        case 5: return "ID32P64";
        case 6: return "ID64P64";
        default: return NULL;
        }
    case SYST_TYPE_CLOCK: return sub == 1 ? "SYNC" : NULL;
    default: return NULL;
    }
}

void evrec_syst_type_name(const evrec_syst_msg_t *m, char *buf, size_t size)
{
    static const char *const types[16] = {"BUILD", "SHORT32", "STRING",  "CATALOG", NULL,
                                          NULL,    "RAW",     "SHORT64", "CLOCK"};
    out_t o = {buf, size, 0, 0};
    if (size) {
        buf[0] = 0;
    }
    const char *t = types[m->type & 15u];
    if (m->is_short) {
        puts_(&o, t);
        return;
    }
    if (!t) {
        printf_(&o, "TYPE%u:%u", m->type, m->subtype);
        return;
    }
    const char *s = subtype_name(m->type, m->subtype);
    if (s) {
        printf_(&o, "%s:%s", t, s);
    } else {
        printf_(&o, "%s:%u", t, m->subtype);
    }
}

/* ---- PRINTF_32 / PRINTF_64: the format string, then its arguments packed inline ------------- */

/* One conversion of a printf format: where it starts, its letter, its length modifiers, and the
 * spec rebuilt without them (so that ours can be added). */
typedef struct conv {
    size_t start; /* index of its '%' */
    char letter;
    int longs, shorts, wide;
    char spec[40];
    size_t sl;
} conv_t;

/* Parse the conversion whose '%' is f[i]; returns the index of its letter (flen: incomplete). */
static size_t parse_conv(const char *f, size_t i, size_t flen, conv_t *c)
{
    c->start = i++;
    c->longs = c->shorts = c->wide = 0;
    while (i < flen && strchr("-+ #0", f[i])) {
        i++;
    }
    while (i < flen && ((f[i] >= '0' && f[i] <= '9') || f[i] == '.')) {
        i++;
    }
    while (i < flen && strchr("hlLqjzt", f[i])) {
        if (f[i] == 'l') {
            c->longs++;
        } else if (f[i] == 'h') {
            c->shorts++;
        } else {
            c->wide = f[i] == 'j' || f[i] == 'q' || f[i] == 'L' ? 2 : 1; /* z, t: pointer-sized */
        }
        i++;
    }
    if (i >= flen) {
        return flen;
    }
    c->letter = f[i];
    c->sl = 0;
    for (size_t k = c->start; k < i && c->sl + 4 < sizeof c->spec; k++) {
        if (!strchr("hlLqjzt", f[k])) {
            c->spec[c->sl++] = f[k];
        }
    }
    return i;
}

/* Bytes of the argument of conversion c; 0 for a conversion this printer does not know. */
static unsigned arg_size(const conv_t *c, unsigned ptr_size)
{
    if (strchr("fFeEgGaA", c->letter)) {
        return 8;
    }
    if (c->letter == 'p') {
        return ptr_size;
    }
    if (strchr("diuxXoc", c->letter)) {
        return c->longs >= 2 || c->wide == 2 ? 8u : c->longs == 1 || c->wide == 1 ? ptr_size : 4u;
    }
    return 0;
}

/* A %s argument: the NUL-terminated string at p[*at]. 0 when the bytes end first. */
static int put_string_arg(out_t *o, const uint8_t *p, size_t n, size_t *at, conv_t *c)
{
    const uint8_t *e = *at < n ? memchr(p + *at, 0, n - *at) : NULL;
    if (!e) {
        puts_(o, " - insufficient argument bytes");
        return 0;
    }
    c->spec[c->sl++] = 's';
    c->spec[c->sl] = 0;
    char txt[256];
    size_t tl = (size_t)(e - (p + *at));
    if (tl >= sizeof txt) {
        put(o, (const char *)p + *at, tl); /* long strings: no width handling */
    } else {
        memcpy(txt, p + *at, tl);
        txt[tl] = 0;
        printf_(o, c->spec, txt);
    }
    *at += tl + 1;
    return 1;
}

/* An integer argument v of `size` bytes, as conversion c (d, i, u, x, X, o). */
static void put_integer(out_t *o, conv_t *c, uint64_t v, unsigned size)
{
    c->spec[c->sl++] = 'l';
    c->spec[c->sl++] = 'l';
    c->spec[c->sl++] = c->letter;
    c->spec[c->sl] = 0;
    if (c->letter == 'd' || c->letter == 'i') {
        int64_t sv = size == 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
        if (c->shorts == 1) {
            sv = (int16_t)sv;
        } else if (c->shorts >= 2) {
            sv = (int8_t)sv;
        }
        printf_(o, c->spec, (long long)sv);
        return;
    }
    if (c->shorts == 1) {
        v = (uint16_t)v;
    } else if (c->shorts >= 2) {
        v = (uint8_t)v;
    }
    printf_(o, c->spec, (unsigned long long)v);
}

/* A numeric argument v of `size` bytes, as conversion c. */
static void put_value(out_t *o, conv_t *c, uint64_t v, unsigned size)
{
    if (strchr("fFeEgGaA", c->letter)) {
        double d;
        memcpy(&d, &v, 8);
        c->spec[c->sl++] = c->letter;
        c->spec[c->sl] = 0;
        printf_(o, c->spec, d);
    } else if (c->letter == 'p') {
        printf_(o, "0x%llx", (unsigned long long)v);
    } else if (c->letter == 'c') {
        char ch = (char)v;
        put(o, &ch, 1);
    } else {
        put_integer(o, c, v, size);
    }
}

static void format_printf(out_t *o, const uint8_t *p, size_t n, unsigned ptr_size)
{
    const uint8_t *nul = memchr(p, 0, n);
    if (!nul) {
        put(o, (const char *)p, n);
        return;
    }
    const char *f = (const char *)p;
    size_t flen = (size_t)(nul - p);
    size_t at = flen + 1; /* next argument byte */
    for (size_t i = 0; i < flen; i++) {
        if (f[i] != '%') {
            put(o, f + i, 1);
            continue;
        }
        conv_t c;
        i = parse_conv(f, i, flen, &c);
        if (i >= flen) {
            put(o, f + c.start, flen - c.start);
            return;
        }
        if (c.letter == '%') {
            put(o, "%", 1);
            continue;
        }
        if (c.letter == 's') {
            if (!put_string_arg(o, p, n, &at, &c)) {
                return;
            }
            continue;
        }
        unsigned size = arg_size(&c, ptr_size);
        if (size == 0) {
            put(o, f + c.start, i - c.start + 1); /* unknown conversion: as written */
            continue;
        }
        if (at + size > n) {
            puts_(o, " - insufficient argument bytes");
            return;
        }
        uint64_t v = size == 8 ? evrec_syst_le64(p + at) : evrec_syst_le32(p + at);
        at += size;
        put_value(o, &c, v, size);
    }
}

static void payload_out(out_t *o, const evrec_syst_msg_t *m)
{
    if (m->type == SYST_TYPE_SHORT32) {
        printf_(o, "0x%07llx", (unsigned long long)m->short_value);
        return;
    }
    if (m->type == SYST_TYPE_SHORT64) {
        printf_(o, "0x%015llx", (unsigned long long)m->short_value);
        return;
    }
    const uint8_t *p = m->payload;
    size_t n = m->payload_len;
    if (!p) {
        return;
    }
    switch (m->type) {
    case SYST_TYPE_STRING:
        if (m->subtype == 11 || m->subtype == 12) {
            format_printf(o, p, n, m->subtype == 11 ? 4u : 8u);
        } else {
            const uint8_t *e = memchr(p, 0, n);
            put(o, (const char *)p, e ? (size_t)(e - p) : n);
        }
        break;
    case SYST_TYPE_CATALOG:
        if (n >= 8 && (m->subtype == 2 || m->subtype == 6)) {
            printf_(o, "catalog 0x%016llx args ", (unsigned long long)evrec_syst_le64(p));
            hex(o, p + 8, n - 8);
        } else if (n >= 4) {
            printf_(o, "catalog 0x%08x args ", (unsigned)evrec_syst_le32(p));
            hex(o, p + 4, n - 4);
        } else {
            hex(o, p, n);
        }
        break;
    case SYST_TYPE_BUILD:
        if (m->subtype == 2 && n >= 8) {
            const uint8_t *e = memchr(p + 8, 0, n - 8);
            printf_(o, "0x%016llX ", (unsigned long long)evrec_syst_le64(p));
            put(o, (const char *)p + 8, e ? (size_t)(e - (p + 8)) : n - 8);
        } else {
            hex(o, p, n);
        }
        break;
    case SYST_TYPE_CLOCK:
        if (n == 16) {
            printf_(o, "clock=%llu freq=%llu", (unsigned long long)evrec_syst_le64(p),
                    (unsigned long long)evrec_syst_le64(p + 8));
        } else {
            hex(o, p, n);
        }
        break;
    default: hex(o, p, n); break;
    }
}

size_t evrec_syst_payload_text(const evrec_syst_msg_t *m, char *buf, size_t size)
{
    out_t o = {buf, size, 0, 0};
    if (size) {
        buf[0] = 0;
    }
    payload_out(&o, m);
    return o.len;
}

size_t evrec_syst_format_item(const evrec_syst_item_t *it, char *buf, size_t size)
{
    out_t o = {buf, size, 0, 0};
    if (size) {
        buf[0] = 0;
    }
    puts_(&o, evrec_syst_problem_name(it->problem));
    put(&o, ",", 1);
    const evrec_syst_msg_t *m = it->msg;
    if (!m) {
        put1(&o, '"');
        o.csv = 1;
        puts_(&o, it->what ? it->what : "");
        o.csv = 0;
        put1(&o, '"');
        printf_(&o, ",,,,,,0x%016llX,,%zu,", (unsigned long long)it->index, it->size);
        return o.len;
    }
    put1(&o, '"');
    o.csv = 1;
    payload_out(&o, m);
    o.csv = 0;
    put1(&o, '"');
    char type[48];
    evrec_syst_type_name(m, type, sizeof type);
    printf_(&o, ",%s,%s,", type, m->is_short ? "MAX" : evrec_syst_severity_name(m->severity));
    if (m->is_short) {
        /* no origin */
    } else if (m->has_guid) {
        const uint8_t *g = m->guid;
        printf_(&o, "{%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x}", g[0], g[1], g[2],
                g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
    } else {
        printf_(&o, "module-0x%x", m->module);
    }
    printf_(&o, ",%u,", m->unit);
    if (m->has_ts) {
        printf_(&o, "0x%016llX", (unsigned long long)m->timestamp);
    }
    printf_(&o, ",0x%016llX,", (unsigned long long)it->index);
    if (m->has_loc) {
        if (m->loc_format <= 1) {
            printf_(&o, "file-0x%x:%u", m->loc_file, m->loc_line);
        } else if (m->loc_format == 2) {
            printf_(&o, "0x%08llX", (unsigned long long)m->loc_addr);
        } else {
            printf_(&o, "0x%016llX", (unsigned long long)m->loc_addr);
        }
    }
    printf_(&o, ",%zu,", m->size ? m->size : it->size);
    if (m->has_chk && m->size >= 8) {
        printf_(&o, "0x%08X", m->crc);
    }
    return o.len;
}
