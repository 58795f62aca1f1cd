/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec recover IMAGE -o OUT.evr [--meta FILE.evr]`: write a normal evrec file from a trace
 * buffer that outlived its program: a file-backed mapping after a crash (evrec_posix.h), or a
 * memory image a debugger dumped. The buffer's header (format/FORMAT.md, "RAM buffer header and
 * recovery") gives its geometry; every complete record is kept, records caught half-written are
 * skipped and counted; the file is written by the recorder's own save (evrec_save_ex()). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_bytes.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_lanes.h"
#include "evrec/evrec_save.h"

static const char help[] =
    "usage: evrec recover [--meta FILE.evr] -o OUT.evr IMAGE\n"
    "\n"
    "Rebuild an evrec file from a trace buffer that outlived its program: IMAGE is the file a\n"
    "buffer was mapped from (evrec_posix_map_buffer(), e.g. after the process was killed) or a\n"
    "raw memory image of the buffer dumped by a debugger (gdb 'dump binary memory', OpenOCD\n"
    "'dump_image'), starting at the buffer's header. Every complete record is written, oldest\n"
    "first; a record caught half-written (its fields stored, its id not yet) is skipped and\n"
    "counted. The file header counts the drops and, for a cyclic buffer, the records overwritten\n"
    "before the crash.\n"
    "\n"
    "The event types come from the meta-info the buffer keeps after its header\n"
    "(evrec_recorder_keep_meta()); for a buffer without it, --meta FILE.evr gives them (a file\n"
    "saved by the same program: its schema hash must match the buffer's; the records are then\n"
    "assumed in natural C layout, fields aligned to their size, as evrec-gen's structs are).\n"
    "The image must come from a target of this host's byte order; a 32-bit little-endian\n"
    "target's image (a Cortex-M or RV32 MCU) is widened for a 64-bit little-endian host (the\n"
    "header's magic says which: 'EVR4'/'EVR8' for 4/8-byte size_t, bytes reversed on a\n"
    "little-endian target).\n"
    "\n"
    "options:\n"
    "  -o, --output OUT  the file to write (required)\n"
    "  --meta FILE       take the event types from an evrec or CCore file\n"
    "  -h, --help        this text\n"
    "\n"
    "Exit status: 0 recovered, 1 the image or FILE could not be read or is not a trace buffer\n"
    "of this kind, or the output could not be written, 2 bad usage.\n";

typedef struct rec_opts {
    const char *image, *out, *meta_path;
} rec_opts_t;

static int parse(int argc, char **argv, rec_opts_t *o)
{
    enum { OPT_META = 256 };
    static const struct option longopts[] = {
        {"meta", required_argument, NULL, OPT_META},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_META: o->meta_path = optarg; break;
        case 'o': o->out = optarg; break;
        default:
            if ((rc = cli_common_option(&cli_cmd_recover, c, argv, NULL)) >= 0) {
                return rc;
            }
        }
    }
    if ((rc = cli_one_operand(&cli_cmd_recover, argc, argv, "IMAGE", &o->image)) >= 0) {
        return rc;
    }
    if (!o->out) {
        return cli_usage_error(&cli_cmd_recover, "missing -o OUT.evr");
    }
    return -1;
}

/* The whole file, in memory aligned for the header's words. NULL on failure (reported). */
static uint8_t *read_image(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1u << 16, n = 0;
    uint8_t *buf = aligned_alloc(64, cap);
    while (buf) {
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (n < cap) {
            break;
        }
        uint8_t *b = aligned_alloc(64, cap * 2);
        if (b) {
            memcpy(b, buf, n);
        }
        free(buf);
        buf = b;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        cli_error("%s: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

/* The meta-info of the recording with native offsets: the reader's tables (packed offsets)
 * copied, then the native layout from the buffer's blob (`layout`, NULL: natural alignment). */
typedef struct native_meta {
    evrec_meta_t meta;
    evrec_struct_desc_t *structs;
    evrec_field_desc_t **fields;
    uint32_t count;
} native_meta_t;

static void native_free(native_meta_t *nm)
{
    for (uint32_t i = 0; nm->fields && i < nm->count; i++) {
        free(nm->fields[i]);
    }
    free(nm->fields);
    free(nm->structs);
    memset(nm, 0, sizeof *nm);
}

/* Natural C layout of struct s (fields aligned to their width): its size and alignment. */
static int natural(native_meta_t *nm, uint32_t s, unsigned depth, uint32_t *size, uint32_t *align)
{
    if (s >= nm->count || depth > EVREC_MAX_NESTING) {
        return 0;
    }
    uint32_t off = 0, al = 1;
    for (uint32_t f = 0; f < nm->structs[s].field_count; f++) {
        evrec_field_desc_t *fd = &nm->fields[s][f];
        uint32_t w, a;
        if (fd->kind == EVREC_KIND_STRUCT) {
            if (!natural(nm, fd->ref, depth + 1, &w, &a)) {
                return 0;
            }
        } else {
            w = a = evrec_kind_width(fd->kind);
        }
        off = (off + a - 1u) / a * a;
        fd->offset = (uint16_t)off;
        off += w;
        al = a > al ? a : al;
    }
    *size = (off + al - 1u) / al * al;
    *align = al;
    return off <= 0xFFFFu;
}

static int native_build(native_meta_t *nm, const evrec_meta_t *m, const uint8_t *layout, size_t layout_len)
{
    memset(nm, 0, sizeof *nm);
    nm->meta = *m;
    nm->meta.tracks = NULL;
    nm->meta.field_info = NULL;
    nm->count = m->struct_count;
    nm->structs = calloc(m->struct_count ? m->struct_count : 1, sizeof *nm->structs);
    nm->fields = calloc(m->struct_count ? m->struct_count : 1, sizeof *nm->fields);
    if (!nm->structs || !nm->fields) {
        return 0;
    }
    for (uint32_t s = 0; s < m->struct_count; s++) {
        nm->structs[s] = m->structs[s];
        uint32_t fc = m->structs[s].field_count;
        nm->fields[s] = calloc(fc ? fc : 1, sizeof **nm->fields);
        if (!nm->fields[s]) {
            return 0;
        }
        memcpy(nm->fields[s], m->structs[s].fields, fc * sizeof **nm->fields);
        nm->structs[s].fields = nm->fields[s];
    }
    nm->meta.structs = nm->structs;
    if (layout) {
        size_t q = 4;
        if (layout_len < 4 || cli_be32(layout) != m->struct_count) {
            return 0;
        }
        for (uint32_t s = 0; s < m->struct_count; s++) {
            if (q + 4 > layout_len || cli_be16(layout + q + 2) != nm->structs[s].field_count) {
                return 0;
            }
            nm->structs[s].native_size = (uint16_t)cli_be16(layout + q);
            q += 4;
            for (uint32_t f = 0; f < nm->structs[s].field_count; f++, q += 2) {
                if (q + 2 > layout_len) {
                    return 0;
                }
                nm->fields[s][f].offset = (uint16_t)cli_be16(layout + q);
            }
        }
        return 1;
    }
    for (uint32_t s = 0; s < m->struct_count; s++) {
        uint32_t size, align;
        if (!natural(nm, s, 0, &size, &align)) {
            return 0;
        }
        nm->structs[s].native_size = (uint16_t)((size + EVREC_RECORD_ALIGN - 1u) / EVREC_RECORD_ALIGN *
                                                EVREC_RECORD_ALIGN);
    }
    return 1;
}

typedef struct file_sink {
    FILE *f;
} file_sink_t;

static int file_write(void *ctx, const void *p, size_t n)
{
    return fwrite(p, 1, n, ((file_sink_t *)ctx)->f) == n ? 0 : -1;
}

static int write_out(const char *path, const evrec_recorder_t *rec, uint64_t schema_hash)
{
    cli_output_t out;
    if (!cli_output_open(&out, path)) {
        return -1;
    }
    file_sink_t fs = {cli_output_stream(&out)};
    if (!fs.f) {
        cli_output_abort(&out);
        return -1;
    }
    evrec_sink_t sink = {file_write, &fs};
    evrec_save_options_t so = {0, 0};
    so.schema_hash = schema_hash;
    evrec_status st = evrec_save_ex(rec, &sink, &so);
    cli_output_stream_close(&out, fs.f);
    if (st != EVREC_OK && st != EVREC_E_IO) {
        cli_error("%s: writing failed: %s", path, evrec_strerror(st));
        cli_output_abort(&out);
        return -1;
    }
    if (st == EVREC_E_IO && !out.err) {
        out.err = EIO;
    }
    return cli_output_commit(&out) ? 0 : -1;
}

/* Checks the magic; 1 when the image is of this host's kind, else reports and returns 0. */
static int check_magic(const char *path, const uint8_t *img, size_t size)
{
    if (size < EVREC_BUF_HEADER_SIZE) {
        cli_error("%s: %zu bytes: too short for a trace buffer header (%u bytes)", path, size,
                  (unsigned)EVREC_BUF_HEADER_SIZE);
        return 0;
    }
    int big = memcmp(img, "EVR", 3) == 0 && (img[3] == '4' || img[3] == '8');
    int little = memcmp(img + 1, "RVE", 3) == 0 && (img[0] == '4' || img[0] == '8');
    if (!big && !little) {
        cli_error("%s: offset 0: no trace buffer header (magic 'EVR4'/'EVR8' in either byte order)", path);
        return 0;
    }
    unsigned width = (unsigned)((big ? img[3] : img[0]) - '0');
    int host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
    if (!big && !host_big && width == 4 && sizeof(size_t) == 8) {
        return 2; /* a 32-bit little-endian target's image: widened by widen_image() */
    }
    if (big != host_big || width != sizeof(size_t)) {
        cli_error("%s: a buffer of a %s-endian target with %u-byte size_t; this evrec reads only "
                  "%s-endian %u-byte images",
                  path, big ? "big" : "little", width, host_big ? "big" : "little", (unsigned)sizeof(size_t));
        return 0;
    }
    return 1;
}

/* A 32-bit little-endian target's buffer, rewritten in place as this 64-bit little-endian host's
 * recorder lays it out (same size: the header is 128 bytes and a block header 16 bytes on both):
 * the header's six size_t words widened, each block's `ready` widened (its pad dropped), and
 * block numbers moved from the 32-bit numbering (modulo 2^min(24, 33 - 2 log2(block_size))) to
 * this host's (2^24), keeping their order. Returns 0 when the geometry is not usable. */
static int widen_image(uint8_t *img, size_t size)
{
    uint32_t w[6];
    for (int k = 0; k < 6; k++) {
        w[k] = cli_le32(img + 80 + 4 * k);
    }
    evrec_buf_header_t *h = (evrec_buf_header_t *)(void *)img;
    h->magic = EVREC_BUF_MAGIC;
    size_t dropped = w[0], fail = w[1] == 0x80000000u ? EVREC_POS_CLOSED : w[1];
    size_t overwritten = w[2], end_pos = w[3], used = w[4];
    memset(img + 80, 0, EVREC_BUF_HEADER_SIZE - 80);
    h->dropped = dropped;
    h->fail_pos = fail;
    h->overwritten = overwritten;
    h->used = used;
    h->end_pos = end_pos;
    if (!(h->flags & EVREC_BUF_CYCLIC)) {
        return 1;
    }
    uint32_t bs = h->block_size, n = h->block_count;
    if (bs < 256u || (bs & (bs - 1u)) != 0 || (uint64_t)h->records_offset + (uint64_t)bs * n > size) {
        return 0;
    }
    unsigned shift = 0;
    while ((1u << shift) < bs) {
        shift++;
    }
    unsigned nb = 33u - 2u * shift;
    uint32_t mod = nb >= 24u ? 1u << 24 : 1u << nb;
    uint8_t *ring = img + h->records_offset;
    /* the newest stamped block, in the 32-bit numbering */
    uint32_t newest = 0;
    int found = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *b = ring + (size_t)i * bs;
        uint32_t seq = cli_le32(b), ready = cli_le32(b + 8);
        if (ready >= mod || seq == 0xFFFFFFFFu || (seq & 0xFFFFFFu) != ready) {
            continue;
        }
        uint32_t d = (ready - newest) & (mod - 1u);
        if (!found || (d != 0 && d < mod / 2u)) {
            newest = ready;
            found = 1;
        }
    }
    uint32_t base = newest + mod; /* the newest's new number; older ones below it */
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *b = ring + (size_t)i * bs;
        uint32_t seq = cli_le32(b), ready = cli_le32(b + 8);
        uint64_t r64 = ready == 0xFFFFFFFFu ? UINT64_MAX : base - ((newest - ready) & (mod - 1u));
        if (seq != 0xFFFFFFFFu) {
            uint32_t num = base - ((newest - (seq & 0xFFFFFFu)) & (mod - 1u));
            seq = (seq & 0xFF000000u) | (num & 0xFFFFFFu);
            memcpy(b, &seq, 4);
        }
        memcpy(b + 8, &r64, 8);
    }
    if (h->state == EVREC_BUF_STOPPED && end_pos) {
        uint32_t eb = (uint32_t)((end_pos - 1u) >> shift), off = (uint32_t)(end_pos - ((size_t)eb << shift));
        h->end_pos = ((size_t)(base - ((newest - eb) & (mod - 1u))) << shift) + off;
    }
    return 1;
}

/* The meta-info blob after the header: its CCore stream opened as a reader (with an End record
 * appended), its layout table. 0 when absent or damaged (reported when damaged). */
static evrec_reader_t *blob_reader(const char *path, const evrec_buf_header_t *h, const uint8_t *img,
                                   uint8_t **stream_out, const uint8_t **layout, size_t *layout_len)
{
    const uint8_t *b = img + h->meta_offset;
    size_t n = h->meta_size;
    if (n < 8 || memcmp(b, "EVRM", 4) != 0 || cli_be32(b + 4) > n - 8) {
        cli_error("%s: offset %u: the meta-info kept in the buffer is damaged", path, (unsigned)h->meta_offset);
        return NULL;
    }
    size_t len = cli_be32(b + 4);
    static const uint8_t end[7] = {0, 0, 0, 0, 0, EVREC_CONTROL_EVENT_ID, EVREC_CONTROL_END};
    uint8_t *stream = malloc(len + sizeof end);
    if (!stream) {
        cli_error("%s: out of memory", path);
        return NULL;
    }
    memcpy(stream, b + 8, len);
    memcpy(stream + len, end, sizeof end);
    evrec_reader_t *r = NULL;
    if (evrec_reader_open_memory(&r, stream, len + sizeof end, NULL) != EVREC_OK) {
        cli_error("%s: offset %u: the meta-info kept in the buffer does not parse", path,
                  (unsigned)h->meta_offset + 8u);
        evrec_reader_close(r);
        free(stream);
        return NULL;
    }
    *stream_out = stream;
    *layout = b + 8 + len;
    *layout_len = n - 8 - len;
    return r;
}

/* One line with the offsets of the skipped slots (the first EVREC_RECOVER_OFFSETS). */
static void report_skipped(const char *path, const evrec_recover_report_t *rep)
{
    if (rep->skipped == 0) {
        return;
    }
    fprintf(stderr, "evrec: %s: uncommitted slots at offset", path);
    for (uint32_t i = 0; i < rep->offsets_kept; i++) {
        fprintf(stderr, "%s %llu", i ? "," : "", (unsigned long long)rep->offset[i]);
    }
    fprintf(stderr, "%s\n", rep->skipped > rep->offsets_kept ? ", ..." : "");
}

/* The counts of the file written: its records, drops and overwritten records (per lane too when
 * the buffer was split into lanes: the file's LANES chunk has the same), then the skipped slots. */
static void report_counts(const char *path, const evrec_recorder_t *rec, evrec_status st,
                          const evrec_recover_report_t *rep)
{
    evrec_recorder_counts_t c = evrec_recorder_counts(rec);
    uint32_t lanes = evrec_recorder_lane_count(rec);
    if (lanes > 1) {
        fprintf(stderr,
                "evrec: %s: %u lanes, merged by time into one stream (one Start, one Stop and each "
                "lanes Tick written once)\n",
                path, (unsigned)lanes);
    }
    fprintf(stderr,
            "evrec: %s: %s buffer, %s: %llu records written, %llu dropped, %llu overwritten, "
            "%llu uncommitted slot%s skipped (counted as dropped)\n",
            path, c.block_count ? "cyclic" : "one-shot",
            st == EVREC_E_END ? "stopped normally" : "recording was cut", (unsigned long long)c.recorded,
            (unsigned long long)c.dropped, (unsigned long long)c.overwritten, (unsigned long long)rep->skipped,
            rep->skipped == 1 ? "" : "s");
    for (uint32_t k = 0; lanes > 1 && k < lanes; k++) {
        evrec_recorder_counts_t l = evrec_recorder_lane_counts(rec, k);
        fprintf(stderr, "evrec: %s: lane %u: %llu dropped, %llu overwritten\n", path, (unsigned)k,
                (unsigned long long)l.dropped, (unsigned long long)l.overwritten);
    }
    report_skipped(path, rep);
}

/* The header fields recovery relies on, checked against the image with a message naming the
 * field and its offset (the library refuses them too, with one status for all). */
static int header_fits(const char *path, const evrec_buf_header_t *h, size_t size)
{
    const uint32_t known = EVREC_BUF_CYCLIC | EVREC_BUF_META | EVREC_BUF_WANT_META | EVREC_BUF_LANES;
    if (h->buf_size != size) {
        cli_error("%s: offset 40: buf_size %llu, expected the image's size %zu", path,
                  (unsigned long long)h->buf_size, size);
    } else if (h->flags & ~known) {
        cli_error("%s: offset 12: flags 0x%x has unknown bits (known: 0x%x)", path, (unsigned)h->flags,
                  (unsigned)known);
    } else if (h->records_offset < EVREC_BUF_HEADER_SIZE || h->records_offset % 8u != 0) {
        cli_error("%s: offset 48: records_offset %u, expected a multiple of 8 from %u on", path,
                  (unsigned)h->records_offset, (unsigned)EVREC_BUF_HEADER_SIZE);
    } else if ((uint64_t)h->records_offset + h->records_size > size) {
        cli_error("%s: offset 52: records_size %u from offset %u ends past the image (%zu bytes)", path,
                  (unsigned)h->records_size, (unsigned)h->records_offset, size);
    } else if ((h->flags & (EVREC_BUF_CYCLIC | EVREC_BUF_LANES)) == EVREC_BUF_CYCLIC &&
               (uint64_t)h->block_size * h->block_count != h->records_size) {
        cli_error("%s: offset 56: block_size %u x block_count %u does not make records_size %u", path,
                  (unsigned)h->block_size, (unsigned)h->block_count, (unsigned)h->records_size);
    } else {
        return 1;
    }
    return 0;
}

static int run(int argc, char **argv)
{
    rec_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    size_t size = 0;
    uint8_t *img = read_image(o.image, &size);
    if (!img) {
        return CLI_BAD_INPUT;
    }
    rc = CLI_BAD_INPUT;
    evrec_reader_t *r = NULL;
    uint8_t *stream = NULL;
    native_meta_t nm;
    memset(&nm, 0, sizeof nm);
    int kind = check_magic(o.image, img, size);
    if (!kind) {
        goto done;
    }
    if (kind == 2 && (img[4] | img[5] << 8) != EVREC_BUF_VERSION) {
        cli_error("%s: a 32-bit target's buffer of layout version %u (split into lanes by "
                  "evrec_lanes_start()): this evrec widens only version-%u (single-lane) images; recover it "
                  "on the target with evrec_recorder_recover() and evrec_save()",
                  o.image, (unsigned)(img[4] | img[5] << 8), (unsigned)EVREC_BUF_VERSION);
        goto done;
    }
    if (kind == 2 && !widen_image(img, size)) {
        cli_error("%s: a 32-bit target's buffer whose geometry does not fit the image", o.image);
        goto done;
    }
    const evrec_buf_header_t *h = (const evrec_buf_header_t *)(const void *)img;
    uint64_t hash = h->schema_hash;
    const uint8_t *layout = NULL;
    size_t layout_len = 0;
    if (o.meta_path) {
        r = cli_open_reader(o.meta_path, NULL);
    } else if ((h->flags & EVREC_BUF_META) && h->meta_offset >= EVREC_BUF_HEADER_SIZE &&
               (uint64_t)h->meta_offset + h->meta_size <= size) {
        r = blob_reader(o.image, h, img, &stream, &layout, &layout_len);
    } else {
        cli_error("%s: the buffer keeps no meta-info (evrec_recorder_keep_meta()); give --meta FILE.evr", o.image);
        goto done;
    }
    if (!r) {
        goto done;
    }
    if (!native_build(&nm, evrec_reader_meta(r), layout, layout_len)) {
        cli_error("%s: the meta-info's native layout is damaged or does not fit", o.image);
        goto done;
    }
    if (o.meta_path && hash && evrec_reader_meta(r)->schema_hash && evrec_reader_meta(r)->schema_hash != hash) {
        cli_error("%s: schema hash %016llx; the buffer's is %016llx: another program's event types", o.meta_path,
                  (unsigned long long)evrec_reader_meta(r)->schema_hash, (unsigned long long)hash);
        goto done;
    }
    nm.meta.schema_hash = hash;
    nm.meta.time_freq = h->time_freq;
    uint32_t bad = 0;
    const char *what = NULL;
    if (evrec_meta_validate(&nm.meta, &bad, &what) != EVREC_OK) {
        cli_error("%s: the meta-info's native layout is not usable (item %u: %s)", o.image, (unsigned)bad,
                  what ? what : "invalid");
        goto done;
    }
    if (!header_fits(o.image, h, size)) {
        goto done;
    }
    evrec_recorder_t rec;
    evrec_recover_report_t rep;
    evrec_status st = evrec_recorder_recover_ex(&rec, img, size, &nm.meta, &rep);
    if (st != EVREC_OK && st != EVREC_E_END) {
        cli_error("%s: not a recoverable trace buffer: %s", o.image,
                  st == EVREC_E_CORRUPT ? "its header's geometry does not fit the image" : evrec_strerror(st));
        goto done;
    }
    if (write_out(o.out, &rec, hash) != 0) {
        goto done;
    }
    report_counts(o.image, &rec, st, &rep);
    rc = CLI_OK;
done:
    native_free(&nm);
    evrec_reader_close(r);
    free(stream);
    free(img);
    return rc;
}

const cli_command_t cli_cmd_recover = {
    "recover",
    "rebuild an evrec file from a trace buffer that outlived its program (mapped file, memory dump)",
    help,
    run,
};
