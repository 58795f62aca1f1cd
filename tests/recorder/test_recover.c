/* SPDX-License-Identifier: Apache-2.0 */
/* A trace buffer that outlives its program: recover on boot (a copy of the buffer as a reset
 * leaves it), a memory image in a file (as a debugger dumps it) through `evrec recover`, and a
 * process SIGKILLed while it records into a file-backed mapping. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evrec/evrec_reader.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec_posix.h"
#include "mem_sink.h"
#include "probe_meta.h"
#include "../common/test_tmp.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

typedef struct got {
    uint64_t records, probes, header_recorded;
    uint32_t first, last, overwritten;
    int gap, damaged, start;
} got_t;

static void check_file(evrec_reader_t *r, got_t *g)
{
    memset(g, 0, sizeof *g);
    const evrec_file_info_t *fi = evrec_reader_info(r);
    g->overwritten = fi->overwritten;
    g->header_recorded = fi->recorded;
    evrec_record_t rec;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
        g->records++;
        if (rec.id == PROBE_EVENT_PROBE) {
            uint32_t seq = be32(rec.data + 8), check = be32(rec.data + 12);
            g->damaged |= check != probe_check(0, seq);
            if (g->probes && seq != g->last + 1) g->gap = 1;
            if (!g->probes) g->first = seq;
            g->last = seq;
            g->probes++;
        } else if (rec.id == PROBE_EVENT_CONTROL) {
            g->start |= rec.data[6] == EVREC_CONTROL_START;
        }
    }
    cr_assert_eq(st, EVREC_E_END, "read: %s", evrec_reader_error(r)->message);
    evrec_reader_close(r);
}

static void check_mem(const mem_sink_t *m, got_t *g)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_memory(&r, m->data, m->len, NULL), EVREC_OK);
    check_file(r, g);
}

static void check_path(const char *path, got_t *g)
{
    evrec_reader_t *r = NULL;
    cr_assert_eq(evrec_reader_open_path(&r, path, NULL), EVREC_OK, "open %s", path);
    check_file(r, g);
}

/* ---- recover on boot: the buffer as a reset leaves it (the host object is gone) ---- */

Test(recover, one_shot_buffer_after_a_reset)
{
    enum { SIZE = 8192 };
    uint64_t *mem = aligned_alloc(64, SIZE), *image = aligned_alloc(64, SIZE);
    evrec_recorder_t rec, back;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, SIZE), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    for (uint32_t i = 0; i < 100; i++)
        cr_assert(probe_record(&host, 0, i));
    /* a record caught half-written: its fields stored, its id not */
    probe_event_t *half = evrec_reserve(&host, sizeof *half);
    cr_assert_not_null(half);
    half->seq = 100;
    memcpy(image, mem, SIZE); /* the reset: only the buffer's bytes remain */
    uint64_t partial = 9;

    memset(&back, 0, sizeof back);
    cr_assert_eq(evrec_recorder_recover(&back, image, SIZE - 8, &probe_meta, &partial), EVREC_E_CORRUPT,
                 "the size the header records is checked");
    evrec_meta_t other = probe_meta;
    other.schema_hash = 1;
    cr_assert_eq(evrec_recorder_recover(&back, image, SIZE, &other, &partial), EVREC_E_META);
    cr_assert_eq(evrec_recorder_recover(&back, image, SIZE, &probe_meta, &partial), EVREC_OK);
    cr_assert_eq(partial, 1);
    evrec_recorder_counts_t c = evrec_recorder_counts(&back);
    cr_assert_eq(c.recorded, 101, "Start and the 100 committed probes");
    cr_assert_eq(c.state, EVREC_BUF_STOPPED);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&back, &sink), EVREC_OK);
    got_t g;
    check_mem(&m, &g);
    cr_assert(g.start);
    cr_assert_eq(g.probes, 100);
    cr_assert_eq(g.last, 99);
    cr_assert_not(g.gap);
    cr_assert_not(g.damaged);
    cr_assert_eq(g.header_recorded, 101);
    free(m.data);
    /* once recovered (or stopped normally) the header says so */
    cr_assert_eq(evrec_recorder_recover(&back, image, SIZE, &probe_meta, NULL), EVREC_E_END);
    /* cold boot: RAM holds anything */
    memset(image, 0xA5, SIZE);
    cr_assert_eq(evrec_recorder_recover(&back, image, SIZE, &probe_meta, NULL), EVREC_E_NOT_RECORDING);
    /* another target's header: byte-swapped magic */
    uint32_t m32 = EVREC_BUF_MAGIC;
    m32 = __builtin_bswap32(m32);
    memcpy(image, &m32, 4);
    cr_assert_eq(evrec_recorder_recover(&back, image, SIZE, &probe_meta, NULL), EVREC_E_UNSUPPORTED);
    evrec_commit(half, PROBE_EVENT_PROBE);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    free(mem);
    free(image);
}

Test(recover, cyclic_buffer_after_a_reset)
{
    enum { BLOCK = 512, BLOCKS = 8 };
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK);
    uint64_t *mem = aligned_alloc(64, size), *image = aligned_alloc(64, size);
    evrec_recorder_t rec, back;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, BLOCK), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    const uint32_t k = 20 * BLOCKS * (BLOCK - EVREC_BLOCK_HEADER) / sizeof(probe_event_t) + 5;
    for (uint32_t i = 0; i < k; i++)
        cr_assert(probe_record(&host, 0, i));
    memcpy(image, mem, size);
    uint64_t partial = 0;
    cr_assert_eq(evrec_recorder_recover(&back, image, size, &probe_meta, &partial), EVREC_OK);
    cr_assert_eq(partial, 0);
    evrec_recorder_counts_t c = evrec_recorder_counts(&back);
    cr_assert_eq(c.recorded + c.overwritten, (uint64_t)k + 1, "%llu kept + %llu overwritten != %u + Start",
                 (unsigned long long)c.recorded, (unsigned long long)c.overwritten, k);
    mem_sink_t m = {0};
    evrec_sink_t sink = mem_sink_of(&m);
    cr_assert_eq(evrec_save(&back, &sink), EVREC_OK);
    got_t g;
    check_mem(&m, &g);
    cr_assert_eq(g.last, k - 1, "the newest record is kept");
    cr_assert_not(g.gap);
    cr_assert_not(g.damaged);
    cr_assert_eq(g.records, c.recorded);
    cr_assert_eq(g.overwritten, c.overwritten);
    free(m.data);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    free(mem);
    free(image);
}

/* ---- `evrec recover` on files ---- */

/* This test's scratch folder, removed when the test's process ends (test_tmp.h). */
static char *temp_dir(void)
{
    static char *dir;
    if (!dir) {
        dir = test_tmp_dir("recover");
        cr_assert_not_null(dir);
    }
    return dir;
}

static int run_recover(const char *image, const char *out)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' recover -o '%s' '%s' 2>/dev/null", EVREC_CLI, out, image);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A memory image in a file, as `dump binary memory` writes it from a debugger. */
Test(recover, memory_image_file)
{
    enum { SIZE = 16384 };
    uint64_t *mem = aligned_alloc(64, SIZE);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, SIZE), EVREC_OK);
    cr_assert_eq(evrec_recorder_keep_meta(&rec), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    for (uint32_t i = 0; i < 200; i++)
        cr_assert(probe_record(&host, 0, i));
    char image[600], out[600];
    snprintf(image, sizeof image, "%s/dump.bin", temp_dir());
    snprintf(out, sizeof out, "%s/dump.evr", temp_dir());
    FILE *f = fopen(image, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(mem, 1, SIZE, f), SIZE);
    fclose(f);
    cr_assert_eq(run_recover(image, out), 0);
    got_t g;
    check_path(out, &g);
    cr_assert_eq(g.probes, 200);
    cr_assert_eq(g.last, 199);
    cr_assert_not(g.gap);
    cr_assert_not(g.damaged);
    /* not a buffer: a clear error, and the output is not created */
    char junk[600], none[600];
    snprintf(junk, sizeof junk, "%s/junk.bin", temp_dir());
    snprintf(none, sizeof none, "%s/none.evr", temp_dir());
    f = fopen(junk, "wb");
    fputs("not a trace buffer at all, not even close to 128 bytes", f);
    fclose(f);
    cr_assert_eq(run_recover(junk, none), 1);
    cr_assert_eq(access(none, F_OK), -1);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    free(mem);
}

/* The image a 32-bit little-endian MCU would leave, made from this host's buffer: the header's
 * size_t words and each block's `ready` narrowed to 32 bits, block numbers taken modulo the
 * 32-bit numbering (2^(33 - 2 log2(block_size))). `evrec recover` widens it back. */
static void narrow_image(uint8_t *img, unsigned block_shift)
{
    uint64_t w[6];
    memcpy(w, img + 80, sizeof w);
    memset(img + 80, 0, EVREC_BUF_HEADER_SIZE - 80);
    for (int k = 0; k < 6; k++) {
        uint32_t v = k == 1 && w[k] == EVREC_POS_CLOSED ? 0x80000000u : k == 5 ? 0x20001000u : (uint32_t)w[k];
        memcpy(img + 80 + 4 * k, &v, 4);
    }
    uint32_t magic = 0x45565234u; /* 'EVR4' */
    memcpy(img, &magic, 4);
    const evrec_buf_header_t *h = (const evrec_buf_header_t *)(const void *)img;
    uint32_t mod = 1u << (33u - 2u * block_shift);
    uint8_t *ring = img + h->records_offset;
    for (uint32_t i = 0; i < h->block_count; i++) {
        uint8_t *b = ring + (size_t)i * h->block_size;
        uint32_t seq;
        uint64_t ready;
        memcpy(&seq, b, 4);
        memcpy(&ready, b + 8, 8);
        if (seq != 0xFFFFFFFFu) seq = (seq & 0xFF000000u) | ((seq & 0xFFFFFFu) & (mod - 1u));
        uint32_t r32 = ready == UINT64_MAX ? 0xFFFFFFFFu : (uint32_t)ready & (mod - 1u), pad = 0xFFFFFFFFu;
        memcpy(b, &seq, 4);
        memcpy(b + 8, &r32, 4);
        memcpy(b + 12, &pad, 4);
    }
}

Test(recover, image_of_a_32_bit_target)
{
    enum { BLOCK = 512, BLOCKS = 8 };
    size_t size = EVREC_CYCLIC_BUFFER_SIZE(BLOCKS, BLOCK) + 1024; /* room for the meta-info blob */
    uint8_t *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init_cyclic(&rec, mem, size, BLOCK), EVREC_OK);
    cr_assert_eq(evrec_recorder_keep_meta(&rec), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    /* more blocks than the 32-bit numbering of 512-byte blocks has (2^15): it wraps there */
    const uint32_t k = 40000u * ((BLOCK - EVREC_BLOCK_HEADER) / sizeof(probe_event_t)) + 3;
    for (uint32_t i = 0; i < k; i++)
        cr_assert(probe_record(&host, 0, i));
    uint64_t overwritten = evrec_recorder_counts(&rec).overwritten;
    narrow_image(mem, 9);
    char image[600], out[600];
    snprintf(image, sizeof image, "%s/mcu32.bin", temp_dir());
    snprintf(out, sizeof out, "%s/mcu32.evr", temp_dir());
    FILE *f = fopen(image, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(mem, 1, size, f), size);
    fclose(f);
    cr_assert_eq(run_recover(image, out), 0);
    got_t g;
    check_path(out, &g);
    cr_assert_not(g.damaged);
    cr_assert_not(g.gap);
    cr_assert_eq(g.last, k - 1, "the newest record is last");
    cr_assert_eq(g.overwritten, overwritten);
    cr_assert_eq(g.records + g.overwritten, (uint64_t)k + 1);
    free(mem); /* the host is never stopped: the buffer was "dumped" mid-recording */
}

/* ---- a process killed while it records into a file-backed mapping ---- */

typedef struct progress {
    _Atomic uint32_t committed; /* probes the child has committed (its id stored) */
    _Atomic int ready;
} progress_t;

static void child(const char *path, size_t size, int cyclic, progress_t *pr)
{
    void *buf;
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    if (evrec_posix_map_buffer(path, size, 0, &buf) != EVREC_OK ||
        (cyclic ? evrec_recorder_init_cyclic(&rec, buf, size, 1024) : evrec_recorder_init(&rec, buf, size)) !=
            EVREC_OK ||
        evrec_recorder_keep_meta(&rec) != EVREC_OK ||
        evrec_host_start(&host, &rec, &probe_meta, 1000) != EVREC_OK) {
        _exit(3);
    }
    atomic_store(&pr->ready, 1);
    for (uint32_t i = 0;; i++) {
        if (probe_record(&host, 0, i)) {
            atomic_store_explicit(&pr->committed, i + 1, memory_order_release);
        } else {
            i--; /* full (one-shot): keep trying until killed */
        }
        if (i % 512 == 0) usleep(50); /* let the parent catch it mid-run */
    }
}

static void killed_case(int cyclic)
{
    size_t size = cyclic ? EVREC_CYCLIC_BUFFER_SIZE(64, 1024) : (size_t)4 << 20;
    progress_t *pr = mmap(NULL, sizeof *pr, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(pr, MAP_FAILED);
    atomic_store(&pr->committed, 0);
    atomic_store(&pr->ready, 0);
    char path[600], out[600];
    snprintf(path, sizeof path, "%s/map-%d.buf", temp_dir(), cyclic);
    snprintf(out, sizeof out, "%s/map-%d.evr", temp_dir(), cyclic);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        child(path, size, cyclic, pr);
    }
    /* kill it once it has lapped the ring several times (cyclic) or recorded a while */
    uint32_t want = cyclic ? 64u * 1008u / 16u * 5u : 20000u;
    for (int t = 0; t < 20000 && atomic_load(&pr->committed) < want; t++)
        usleep(500);
    cr_assert_geq(atomic_load(&pr->committed), want, "the child did not get going");
    kill(pid, SIGKILL);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    uint32_t committed = atomic_load(&pr->committed);
    cr_assert_eq(run_recover(path, out), 0, "evrec recover of the mapped file");
    got_t g;
    check_path(out, &g);
    cr_assert_not(g.damaged, "a recovered record is torn");
    cr_assert_not(g.gap, "the recovered probes are not contiguous");
    /* The child publishes its count after each commit: the kill may fall between a commit and
     * the count, so the last probe recovered is the last counted one or the next. */
    uint32_t n = g.last + 1;
    cr_assert(n == committed || n == committed + 1, "recovered up to %u, the child had committed %u", n,
              committed);
    if (!cyclic) {
        cr_assert_eq(g.first, 0);
        cr_assert_eq(g.probes, n);
        cr_assert_eq(g.header_recorded, (uint64_t)n + 1, "Start and the probes");
    } else {
        /* every probe is saved or counted as overwritten (Start counted too) */
        cr_assert_eq(g.records + g.overwritten, (uint64_t)n + 1, "%llu saved + %u overwritten != %u + Start",
                     (unsigned long long)g.records, g.overwritten, n);
    }
    munmap(pr, sizeof *pr);
}

Test(recover, one_shot_process_killed_mid_recording, .timeout = 60)
{
    killed_case(0);
}

Test(recover, cyclic_process_killed_mid_recording, .timeout = 60)
{
    killed_case(1);
}

/* ---- `evrec recover` on crafted images: refused with the field and its offset, no output ---- */

/* Runs `evrec recover` on `size` bytes at `img`; returns its exit status, its stderr in `msg`. */
static int recover_crafted(const void *img, size_t size, const char *name, char *msg, size_t msg_size)
{
    char image[600], out[600], err[600], cmd[2400];
    snprintf(image, sizeof image, "%s/%s.bin", temp_dir(), name);
    snprintf(out, sizeof out, "%s/%s.evr", temp_dir(), name);
    snprintf(err, sizeof err, "%s/%s.err", temp_dir(), name);
    FILE *f = fopen(image, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(img, 1, size, f), size);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' recover -o '%s' '%s' 2>'%s'", EVREC_CLI, out, image, err);
    int st = system(cmd);
    f = fopen(err, "r");
    cr_assert_not_null(f);
    size_t n = fread(msg, 1, msg_size - 1, f);
    msg[n] = 0;
    fclose(f);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (rc != 0) {
        cr_assert_eq(access(out, F_OK), -1, "%s: no output after a refusal", name);
    }
    return rc;
}

/* A one-shot buffer with the meta-info kept, cut short while recording. */
static uint8_t *crafted_base(size_t size)
{
    uint8_t *mem = aligned_alloc(64, size);
    evrec_recorder_t rec;
    evrec_host_t host;
    evrec_host_init(&host);
    cr_assert_eq(evrec_recorder_init(&rec, mem, size), EVREC_OK);
    cr_assert_eq(evrec_recorder_keep_meta(&rec), EVREC_OK);
    cr_assert_eq(evrec_host_start(&host, &rec, &probe_meta, 1000), EVREC_OK);
    for (uint32_t i = 0; i < 50; i++)
        cr_assert(probe_record(&host, 0, i));
    return mem;
}

Test(recover, crafted_headers_are_refused_naming_the_field)
{
    enum { SIZE = 16384 };
    static const struct {
        size_t offset;
        uint32_t value;
        const char *expect;
    } lies[] = {
        {12, 0x42, "offset 12: flags"},
        {48, 0, "offset 48: records_offset"},
        {52, SIZE, "offset 52: records_size"},
        {52, 0xFFFFFFF0u, "offset 52: records_size"},
    };
    char msg[4096];
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        uint8_t *img = crafted_base(SIZE);
        uint32_t v = lies[i].value;
        if (lies[i].offset == 48) {
            memcpy(&v, img + 48, 4);
            v += 4; /* odd: not a multiple of 8 */
        }
        memcpy(img + lies[i].offset, &v, 4);
        cr_assert_eq(recover_crafted(img, SIZE, "hdr", msg, sizeof msg), 1, "lie %zu: %s", i, msg);
        cr_assert_not_null(strstr(msg, lies[i].expect), "lie %zu: '%s' lacks '%s'", i, msg, lies[i].expect);
        free(img);
    }
}

Test(recover, crafted_native_layout_is_refused)
{
    enum { SIZE = 16384 };
    char msg[4096];
    for (int lie = 0; lie < 3; lie++) {
        uint8_t *img = crafted_base(SIZE);
        const evrec_buf_header_t *h = (const evrec_buf_header_t *)(const void *)img;
        /* the blob: "EVRM", u32 L, the L bytes of the meta-info stream, then the native layout:
         * u32 struct count, per struct u16 native size, u16 field count, u16 offsets */
        uint8_t *layout = img + h->meta_offset + 8 + be32(img + h->meta_offset + 4);
        uint8_t *probe = layout + 4 + 4 + 2 * 3; /* struct 1 (Probe), after EventControl's 3 fields */
        cr_assert_eq(probe[0] << 8 | probe[1], sizeof(probe_event_t));
        if (lie == 0) {
            probe[0] = 0x10; /* native size 4096 + 16 */
        } else if (lie == 1) {
            probe[4 + 2 * 4 + 1] = 250; /* field `check` at offset 250 of 16 bytes */
        } else {
            probe[1] = 18; /* a record size that is not a multiple of 4 */
        }
        cr_assert_eq(recover_crafted(img, SIZE, "layout", msg, sizeof msg), 1, "lie %d: %s", lie, msg);
        cr_assert_not_null(strstr(msg, "native layout"), "lie %d: %s", lie, msg);
        free(img);
    }
}
