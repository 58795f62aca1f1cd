/* SPDX-License-Identifier: Apache-2.0 */
/* evrec-demo: a multi-threaded camera pipeline (as in the ThreadX logger write-up, stages.h) that
 * records its frames, queues and locks with evrec, then saves the trace (the CCore EventRecorder
 * stream in the evrec container, format/FORMAT.md).
 *
 *   evrec-demo [-o FILE] [--frames N] [--buffer BYTES] [--tick-hz HZ] [--stages N] [--fps N]
 *              [--qs FILE [--qs-ring BYTES] [--qs-baud N]] [--slow-stage STAGE:USEC]
 *              [--device ID] [--firmware VER] [--boot ID]
 *
 * Exit status: 0 done, 1 run-time failure (a bad frame, a write error), 2 bad usage. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demo_events.h"
#include "demo_qs.h"
#include "evrec/evrec_attrs.h"
#include "evrec/evrec_hash.h"
#include "evrec/evrec_save.h"
#include "evrec_posix.h"
#include "evrec_save_file.h"
#include "stages.h"

#define DEFAULT_FRAMES 300u
#define DEFAULT_FPS 200u
#define DEFAULT_BUFFER (4u << 20)

typedef struct options {
    const char *path;
    demo_config_t cfg;
    size_t buffer;
    unsigned tick_hz;
    const char *qs_path; /* --qs: live QS stream file, or NULL */
    size_t qs_ring;      /* --qs-ring: transmit ring bytes */
    uint64_t qs_baud;    /* --qs-baud: drain rate, 0 = unlimited */
    evrec_attrs_t attrs; /* --device, --firmware, --boot: the recording's attributes */
} options_t;

static void usage(FILE *to)
{
    fprintf(to,
            "usage: evrec-demo [-o FILE] [--frames N] [--buffer BYTES] [--tick-hz HZ]\n"
            "                  [--stages N] [--fps N] [--slow-stage STAGE:USEC]\n"
            "Runs a camera pipeline (capture -> process -> encode -> sink) on threads, records\n"
            "it with evrec and saves the trace.\n"
            "  -o, --output FILE   trace file to write (default demo.evr)\n"
            "  -n, --frames N      frames to capture, 1..10000000 (default %u)\n"
            "  -b, --buffer BYTES  trace buffer size, 256..2G; K and M suffixes (default 4M);\n"
            "                      a small buffer shows dropped events\n"
            "  -t, --tick-hz HZ    EventControl Tick rate, 1..100000 (default 10)\n"
            "  -s, --stages N      pipeline stages, 2..4 (default 4)\n"
            "  -f, --fps N         capture rate, 0..100000 (default %u); 0 = a free-running\n"
            "                      sensor, which loses frames whenever no buffer is free\n"
            "  --qs FILE           also send the events live as a QP/Spy (QS) stream to FILE\n"
            "                      (decode it with 'evrec qs-decode --meta <trace file> FILE')\n"
            "  --qs-ring BYTES     QS transmit ring, K and M suffixes (default 64K); when it\n"
            "                      overflows the oldest frames are lost (last-is-best)\n"
            "  --qs-baud N         drain the ring at N baud, 8N1 (default 0 = unlimited)\n"
            "  --slow-stage STAGE:USEC\n"
            "                      make STAGE (capture, process, encode, sink) spend USEC us more\n"
            "                      on each frame, busy (1..1000000): a regression to find with\n"
            "                      'evrec diff' (examples/ci)\n"
            "  --device ID         the recording's attribute `device` (FORMAT.md section 2.6;\n"
            "                      `evrec info` shows it), at most %u bytes; none by default\n"
            "  --firmware VER      the attribute `firmware`, at most %u bytes; none by default\n"
            "  --boot ID           the attribute `boot`, at most %u bytes; none by default\n"
            "  -h, --help          this text\n",
            DEFAULT_FRAMES, DEFAULT_FPS, (unsigned)EVREC_ATTRS_VALUE_MAX, (unsigned)EVREC_ATTRS_VALUE_MAX,
            (unsigned)EVREC_ATTRS_VALUE_MAX);
}

/* Parse an unsigned decimal with an optional K or M suffix (binary) into [lo, hi]. */
static int parse_num(const char *opt, const char *s, int suffix, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (suffix && (*end == 'K' || *end == 'k')) {
        v = v > UINT64_MAX / 1024u ? UINT64_MAX : v * 1024u;
        end++;
    } else if (suffix && (*end == 'M' || *end == 'm')) {
        v = v > UINT64_MAX / 1048576u ? UINT64_MAX : v * 1048576u;
        end++;
    }
    if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "evrec-demo: %s: '%s' is not a number in %" PRIu64 "..%" PRIu64 "%s\n", opt, s, lo, hi,
                suffix ? " (K and M suffixes allowed)" : "");
        return -1;
    }
    *out = v;
    return 0;
}

/* --slow-stage NAME:USEC (a stage's name as demo_stage_name() gives it). Returns 0, or -1 after
 * a message. */
static int parse_slow(const char *arg, demo_config_t *cfg)
{
    const char *colon = strchr(arg, ':');
    uint64_t v;
    for (unsigned s = 0; colon && s < DEMO_STAGE_COUNT; s++) {
        const char *name = demo_stage_name((demo_Stage_t)s);
        if (strlen(name) == (size_t)(colon - arg) && strncmp(arg, name, strlen(name)) == 0) {
            if (parse_num("--slow-stage", colon + 1, 0, 1, 1000000u, &v)) return -1;
            cfg->slow_stage = (demo_Stage_t)s;
            cfg->slow_us = (uint32_t)v;
            return 0;
        }
    }
    fprintf(stderr,
            "evrec-demo: --slow-stage expects STAGE:USEC, STAGE one of capture, process, encode, sink "
            "(got '%s')\n",
            arg);
    return -1;
}

/* --device, --firmware, --boot: the attribute `key` set to `value`. */
static int parse_attr(options_t *o, const char *key, const char *value)
{
    if (evrec_attrs_set(&o->attrs, key, value) != EVREC_OK) {
        fprintf(stderr, "evrec-demo: --%s: '%s' is longer than %u bytes\n", key, value,
                (unsigned)EVREC_ATTRS_VALUE_MAX);
        return -1;
    }
    return 0;
}

/* Returns 0 to run, 1 when --help was given, -1 on bad usage (message printed). */
static int parse_args(int argc, char **argv, options_t *o)
{
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'},
        {"frames", required_argument, NULL, 'n'},
        {"buffer", required_argument, NULL, 'b'},
        {"tick-hz", required_argument, NULL, 't'},
        {"stages", required_argument, NULL, 's'},
        {"fps", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {"qs", required_argument, NULL, 'Q'},
        {"qs-ring", required_argument, NULL, 'R'},
        {"qs-baud", required_argument, NULL, 'B'},
        {"slow-stage", required_argument, NULL, 'S'},
        {"device", required_argument, NULL, 'D'},
        {"firmware", required_argument, NULL, 'F'},
        {"boot", required_argument, NULL, 'I'},
        {NULL, 0, NULL, 0},
    };
    o->path = "demo.evr";
    o->cfg.frames = DEFAULT_FRAMES;
    o->cfg.stages = DEMO_STAGE_COUNT;
    o->cfg.fps = DEFAULT_FPS;
    o->cfg.slow_us = 0;
    o->buffer = DEFAULT_BUFFER;
    o->tick_hz = 10;
    o->qs_path = NULL;
    o->qs_ring = 64u * 1024u;
    o->qs_baud = 0;
    (void)evrec_attrs_init(&o->attrs);
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, "o:n:b:t:s:f:h", longs, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (!*optarg) {
                fprintf(stderr, "evrec-demo: --output: empty file name\n");
                return -1;
            }
            o->path = optarg;
            break;
        case 'n':
            if (parse_num("--frames", optarg, 0, 1, 10000000u, &v)) return -1;
            o->cfg.frames = (uint32_t)v;
            break;
        case 'b':
            if (parse_num("--buffer", optarg, 1, EVREC_MIN_BUFFER, 1u << 31, &v)) return -1;
            o->buffer = (size_t)v;
            break;
        case 't':
            if (parse_num("--tick-hz", optarg, 0, 1, 100000u, &v)) return -1;
            o->tick_hz = (unsigned)v;
            break;
        case 's':
            if (parse_num("--stages", optarg, 0, 2, DEMO_STAGE_COUNT, &v)) return -1;
            o->cfg.stages = (unsigned)v;
            break;
        case 'f':
            if (parse_num("--fps", optarg, 0, 0, 100000u, &v)) return -1;
            o->cfg.fps = (unsigned)v;
            break;
        case 'Q':
            if (!*optarg) {
                fprintf(stderr, "evrec-demo: --qs: empty file name\n");
                return -1;
            }
            o->qs_path = optarg;
            break;
        case 'R':
            if (parse_num("--qs-ring", optarg, 1, 256, 1u << 30, &v)) return -1;
            o->qs_ring = (size_t)v;
            break;
        case 'B':
            if (parse_num("--qs-baud", optarg, 0, 0, 100000000u, &v)) return -1;
            o->qs_baud = v;
            break;
        case 'S':
            if (parse_slow(optarg, &o->cfg)) return -1;
            break;
        case 'D':
            if (parse_attr(o, "device", optarg)) return -1;
            break;
        case 'F':
            if (parse_attr(o, "firmware", optarg)) return -1;
            break;
        case 'I':
            if (parse_attr(o, "boot", optarg)) return -1;
            break;
        case 'h': usage(stdout); return 1;
        default: fprintf(stderr, "Try 'evrec-demo --help'.\n"); return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "evrec-demo: unexpected argument '%s'; try 'evrec-demo --help'.\n", argv[optind]);
        return -1;
    }
    return 0;
}

/* Save the stopped recorder to `path` (replaced atomically: a failed save leaves no file and
 * never truncates an existing one). Returns 0, or -1 with a message. */
static int save_file(const evrec_recorder_t *rec, const char *path, uint64_t hash, uint64_t *bytes)
{
    evrec_save_options_t opts = {.schema_hash = hash, .bare_ccore = 0};
    evrec_status st = evrec_save_path_ex(rec, path, &opts, bytes);
    if (st != EVREC_OK) {
        int werr = st == EVREC_E_IO ? errno : 0;
        fprintf(stderr, "evrec-demo: saving %s failed: %s%s%s\n", path, evrec_strerror(st), werr ? ": " : "",
                werr ? strerror(werr) : "");
        return -1;
    }
    return 0;
}

static int fail(const char *what, evrec_status st)
{
    fprintf(stderr, "evrec-demo: %s: %s\n", what, evrec_strerror(st));
    return 1;
}

static void summary(const options_t *o, const demo_pipeline_t *p, const evrec_recorder_t *rec, double seconds,
                    uint64_t file_bytes, uint64_t hash)
{
    const demo_stage_stats_t *cap = &p->stats[0];
    const demo_stage_stats_t *sink = &p->stats[p->n_stages - 1];
    printf("frames:  %" PRIu32 " captured, %" PRIu32 " delivered, %" PRIu32 " lost for lack of a buffer, %" PRIu32
           " failed the check (%u stages, %.2f s)\n",
           cap->frames, sink->frames, cap->dropped, sink->dropped, p->n_stages, seconds);
    printf("records: %" PRIu64 " recorded, %" PRIu64 " dropped (buffer full), %zu of %zu "
           "buffer bytes used\n",
           evrec_recorder_counts(rec).recorded, evrec_recorder_counts(rec).dropped,
           evrec_recorder_counts(rec).used, evrec_recorder_counts(rec).size);
    printf("file:    %s, %" PRIu64 " bytes, schema hash %016" PRIx64 "\n", o->path, file_bytes, hash);
}

int main(int argc, char **argv)
{
    options_t o;
    int pr = parse_args(argc, argv, &o);
    if (pr != 0) {
        return pr > 0 ? 0 : 2;
    }

    /* The tables generated from demo.yaml; checked before anything records with them. */
    evrec_status st = demo_runtime_init();
    if (st != EVREC_OK) {
        return fail("thread-name enum", st);
    }
    uint32_t bad = 0;
    const char *what = "";
    st = evrec_meta_validate(&demo_meta, &bad, &what);
    if (st != EVREC_OK) {
        fprintf(stderr, "evrec-demo: the event tables are invalid: %s (item %" PRIu32 ")\n", what, bad);
        return 1;
    }
    uint64_t hash = evrec_meta_schema_hash(&demo_meta);
    if (hash == 0) {
        fprintf(stderr, "evrec-demo: cannot compute the schema hash\n");
        return 1;
    }

    size_t size = (o.buffer + 63u) & ~(size_t)63u;
    void *buf = aligned_alloc(64, size);
    if (!buf) {
        fprintf(stderr, "evrec-demo: cannot allocate a %zu-byte trace buffer\n", size);
        return 1;
    }
    evrec_recorder_t rec;
    st = evrec_recorder_init(&rec, buf, o.buffer);
    if (st != EVREC_OK) {
        free(buf);
        return fail("trace buffer", st);
    }
    (void)evrec_recorder_set_attrs(&rec, &o.attrs); /* saved with the trace (none when empty) */
    static demo_pipeline_t pipe; /* about 400 bytes of pointers plus the queues: keep off the stack */
    static evrec_host_t host;
    evrec_host_init(&host);
    if (demo_pipeline_init(&pipe, &host, &o.cfg) != 0) {
        fprintf(stderr, "evrec-demo: cannot set up the pipeline (out of memory?)\n");
        free(buf);
        return 1;
    }

    uint64_t freq = evrec_posix_time_freq(0);
    st = evrec_host_start(&host, &rec, &demo_meta, freq);
    if (st != EVREC_OK) {
        demo_pipeline_free(&pipe);
        free(buf);
        return fail("start recording", st);
    }
    static demo_qs_t qs;
    if (o.qs_path && demo_qs_start(&qs, &rec, &demo_meta, o.qs_path, o.qs_ring, o.qs_baud) != 0) {
        evrec_host_stop(&host, NULL);
        demo_pipeline_free(&pipe);
        free(buf);
        return 1;
    }
    evrec_posix_tick_t tick;
    st = evrec_posix_tick_start(&tick, &host, o.tick_hz);
    if (st != EVREC_OK) {
        evrec_host_stop(&host, NULL);
        if (o.qs_path) {
            demo_qs_finish(&qs);
            demo_qs_free(&qs);
        }
        demo_pipeline_free(&pipe);
        free(buf);
        return fail("tick thread", st);
    }
    uint64_t t0 = demo_now_ns();
    int run = demo_pipeline_run(&pipe);
    double seconds = (double)(demo_now_ns() - t0) / 1e9;
    evrec_posix_tick_stop(&tick);
    st = evrec_host_stop(&host, NULL);
    int qs_rc = o.qs_path ? demo_qs_finish(&qs) : 0;

    int rc = 0;
    if (run != 0) {
        fprintf(stderr, "evrec-demo: cannot start the stage threads\n");
        rc = 1;
    } else if (st != EVREC_OK) {
        rc = fail("stop recording", st);
    }
    uint64_t file_bytes = 0;
    if (rc == 0 && save_file(&rec, o.path, hash, &file_bytes) != 0) {
        rc = 1;
    }
    if (rc == 0) {
        summary(&o, &pipe, &rec, seconds, file_bytes, hash);
        if (o.qs_path) {
            printf("qs:      %s, %" PRIu64 " bytes, %" PRIu64 " frames (%" PRIu64 " session, %" PRIu64
                   " events), %" PRIu64 " frames lost and %" PRIu64
                   " cut in the %zu-byte ring (%s); dictionary frames later: %" PRIu64
                   ", recorder drops announced: %" PRIu64 "\n",
                   o.qs_path, qs.bytes, qs.tx.frames, qs.session_frames, qs.events, qs.tx.frames_lost,
                   qs.tx.frames_cut, o.qs_ring, o.qs_baud ? "drained at --qs-baud" : "drained unthrottled",
                   qs.dict_frames, qs.lost_dropped + qs.lost_overwritten);
        }
        if (pipe.stats[pipe.n_stages - 1].dropped) {
            fprintf(stderr, "evrec-demo: %" PRIu32 " frames failed the sink's check\n",
                    pipe.stats[pipe.n_stages - 1].dropped);
            rc = 1;
        }
    }
    if (qs_rc != 0) {
        rc = 1; /* the RAM trace is still saved */
    }
    if (o.qs_path) {
        demo_qs_free(&qs);
    }
    demo_pipeline_free(&pipe);
    free(buf);
    return rc;
}
