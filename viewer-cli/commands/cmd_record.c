/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec record SOURCE -o FILE.evr`: receive a target's stream (format/FORMAT.md section 8) from
 * a pipe, a file, a TCP connection or a serial port and write a normal evrec file as it comes
 * (section 8.3), new records pushed to the file within 50 ms, so that the file reads at any
 * moment (a kill -9 loses at most what came in the last 50 ms). Stops at the stream's end, the
 * source's end, Ctrl-C, --duration or --max-size. With --show it prints the records as `evrec dump` does while they
 * come (it follows the file it writes, dump_follow.h); with --split-size / --split-time it writes
 * a series of files (record_out.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dump_follow.h"
#include "evrec/evrec_stream_rx.h"
#include "record_out.h"
#include "record_prev.h"
#include "record_source.h"

static const char help[] =
    "usage: evrec record [--baud N] [--elf FW.elf] [--duration SEC] [--max-size BYTES] [--show]\n"
    "                    [--split-size BYTES] [--split-time SEC] [--keep N] [--tag KEY=VALUE]...\n"
    "                    -o OUT.evr SOURCE\n"
    "\n"
    "Record a target's event stream (evrec_stream_drain() frames: FORMAT.md section 8) into a\n"
    "normal evrec file, written as the stream comes, new records pushed to the file within\n"
    "50 ms: the file reads at any moment, also after the recorder is killed. Every loss is\n"
    "counted: records the target dropped (its buffer full), records lost in transport (the\n"
    "sequence numbers of the frames say how many), damaged bytes (skipped: reading resumes at the\n"
    "next intact frame). A host that joins late starts at the next complete meta-info.\n"
    "\n"
    "SOURCE is '-' (standard input: a pipe), a file (a capture), tcp:HOST:PORT (connects to it),\n"
    "a serial device (set to raw 8N1; --baud sets its rate), or gdb:HOST:PORT with --elf FW.elf:\n"
    "the RTT up buffer of the firmware (evrec_rtt.h; its control block is the ELF symbol\n"
    "_SEGGER_RTT) read through a GDB server (QEMU, OpenOCD, pyOCD, J-Link GDB Server). A GDB\n"
    "server reads memory only while the target is stopped: every poll (10 ms apart, at once\n"
    "while the buffer is over half full) stops the target, reads, and lets it continue; the\n"
    "target stands still for the round trips of 4 to 5 packets (QEMU on the same machine:\n"
    "0.6 ms per poll, 165 polls/s, 9% of the time) and a line at the end says how long it was\n"
    "stopped. To read without stopping the target, use the probe's own RTT server with\n"
    "tcp:HOST:PORT (OpenOCD's `rtt server start`, J-Link's RTT telnet port).\n"
    "RTT.md (in share/doc/evrec) has the details.\n"
    "\n"
    "A target that sends its previous boot's recording at boot (S_PREV_BOOT frames: a crash kept\n"
    "in a .noinit buffer) gets it saved to OUT.prev-boot.evr next to OUT.evr (created; an existing\n"
    "path is not replaced); evrec record says where it went and whether it came whole.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT     the file to write (required). It must not exist: evrec record creates\n"
    "                       it and never replaces or truncates a file it did not create; a FIFO or\n"
    "                       a device (or '-') is written in place\n"
    "  --baud N             serial port rate (50 .. 4000000)\n"
    "  --elf FW.elf         gdb: source: the firmware, for the RTT control block's address\n"
    "  --duration SEC       stop after SEC seconds\n"
    "  --max-size BYTES     stop once BYTES bytes were written (all files together)\n"
    "  --show               print the records as `evrec dump` prints them, as they come (read\n"
    "                       back from OUT, which must then be a file; at most 50 ms after they\n"
    "                       arrive); on a terminal the status line stays below them\n"
    "  --split-size BYTES   write a series of files OUT-0001.evr, OUT-0002.evr ... (OUT without\n"
    "                       its .evr), the next one begun before a file would pass BYTES; each\n"
    "                       is a complete file with its own meta-info and counts (its times\n"
    "                       count from its own first record, as dump prints any file)\n"
    "  --split-time SEC     ... and/or the next one begun every SEC seconds\n"
    "  --keep N             with a series: keep the last N files, removing older ones this run\n"
    "                       made (never a file it did not make)\n"
    "  --tag KEY=VALUE      set an attribute of the recording (FORMAT.md section 2.6; `evrec info`\n"
    "                       shows them): device, firmware, boot or a key of your own (1..32\n"
    "                       bytes of A-Z a-z 0-9 _ . -), the value at most 255 bytes of UTF-8;\n"
    "                       replaces the target's value of that key. Repeatable (64 in all)\n"
    "  -q, --quiet          no live status line (it is shown only on a terminal anyway: on\n"
    "                       stderr, and with --show only when standard output is one too)\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 the file was written (losses, if any, are in its header and the summary),\n"
    "1 nothing could be recorded (no meta-info received), a read or write failed, or the previous\n"
    "boot's recording could not be saved (its path exists, or the output is '-'), 2 bad usage.\n";

typedef struct record_opts {
    const char *source, *out, *elf;
    uint64_t baud, duration, max_size, split_size, split_time, keep;
    int quiet, show;
    const char *tags[64]; /* --tag KEY=VALUE */
    size_t ntags;
} record_opts_t;

enum {
    OPT_BAUD = 256,
    OPT_DURATION,
    OPT_MAX_SIZE,
    OPT_SHOW,
    OPT_SPLIT_SIZE,
    OPT_SPLIT_TIME,
    OPT_KEEP,
    OPT_ELF,
    OPT_TAG
};

/* The series and --show options: -1 taken, -2 not one of them, else the exit code. */
static int parse_more(record_opts_t *o, int c)
{
    switch (c) {
    case OPT_SHOW: o->show = 1; return -1;
    case OPT_ELF: o->elf = optarg; return -1;
    case OPT_TAG: {
        const char *why = evrec_srx_tag_error(optarg);
        if (why || o->ntags == sizeof o->tags / sizeof o->tags[0]) {
            return cli_usage_error(&cli_cmd_record, "--tag: expected %s (at most 64 tags): %s",
                                   why ? why : "key=value", optarg);
        }
        o->tags[o->ntags++] = optarg;
        return -1;
    }
    case OPT_SPLIT_SIZE:
        if (!cli_parse_u64(optarg, UINT64_MAX / 2, &o->split_size) || o->split_size < 4096) {
            return cli_usage_error(&cli_cmd_record, "--split-size: expected bytes >= 4096: %s", optarg);
        }
        return -1;
    case OPT_SPLIT_TIME:
        if (!cli_parse_u64(optarg, UINT32_MAX, &o->split_time) || o->split_time == 0) {
            return cli_usage_error(&cli_cmd_record, "--split-time: expected seconds > 0: %s", optarg);
        }
        return -1;
    case OPT_KEEP:
        if (!cli_parse_u64(optarg, 1000000, &o->keep) || o->keep == 0) {
            return cli_usage_error(&cli_cmd_record, "--keep: expected a number of files > 0: %s", optarg);
        }
        return -1;
    default: return -2;
    }
}

static int parse(int argc, char **argv, record_opts_t *o)
{
    static const struct option longopts[] = {
        {"baud", required_argument, NULL, OPT_BAUD},
        {"duration", required_argument, NULL, OPT_DURATION},
        {"max-size", required_argument, NULL, OPT_MAX_SIZE},
        {"elf", required_argument, NULL, OPT_ELF},
        {"show", no_argument, NULL, OPT_SHOW},
        {"split-size", required_argument, NULL, OPT_SPLIT_SIZE},
        {"split-time", required_argument, NULL, OPT_SPLIT_TIME},
        {"keep", required_argument, NULL, OPT_KEEP},
        {"tag", required_argument, NULL, OPT_TAG},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_BAUD:
            if (!cli_parse_u64(optarg, 4000000, &o->baud) || !record_baud_ok((unsigned long)o->baud)) {
                return cli_usage_error(&cli_cmd_record, "--baud: not a serial rate: %s", optarg);
            }
            break;
        case OPT_DURATION:
            if (!cli_parse_u64(optarg, UINT32_MAX, &o->duration) || o->duration == 0) {
                return cli_usage_error(&cli_cmd_record, "--duration: expected seconds > 0: %s", optarg);
            }
            break;
        case OPT_MAX_SIZE:
            if (!cli_parse_u64(optarg, UINT64_MAX / 2, &o->max_size) || o->max_size == 0) {
                return cli_usage_error(&cli_cmd_record, "--max-size: expected bytes > 0: %s", optarg);
            }
            break;
        case 'o': o->out = optarg; break;
        case 'q': o->quiet = 1; break;
        default:
            if ((rc = parse_more(o, c)) == -2) {
                rc = cli_common_option(&cli_cmd_record, c, argv, NULL);
            }
            if (rc >= 0) {
                return rc;
            }
        }
    }
    if (o->keep && !o->split_size && !o->split_time) {
        return cli_usage_error(&cli_cmd_record, "--keep: only with --split-size or --split-time");
    }
    if ((rc = cli_one_operand(&cli_cmd_record, argc, argv, "SOURCE", &o->source)) >= 0) {
        return rc;
    }
    if (strncmp(o->source, "gdb:", 4) == 0 && !o->elf) {
        return cli_usage_error(&cli_cmd_record, "%s: needs --elf FW.elf (the RTT control block's address)",
                               o->source);
    }
    return o->out ? -1 : cli_usage_error(&cli_cmd_record, "missing -o OUT.evr");
}

/* ---- the loop ---- */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Records written are pushed to the file (and shown) this long after they came, at most. */
#define PUSH_EVERY_S 0.05

typedef struct live {
    const record_opts_t *o;
    record_out_t *out;
    evrec_srx_t *rx;
    cli_follow_t *show; /* --show: follows the file written, or NULL */
    int status;         /* a status line is shown (a terminal) */
    int drawn;          /* ... and is on the screen now */
    int failed;         /* --show stopped: standard output failed (said); the recording goes on */
    char line[768];     /* the status line last drawn */
    double start, last_second, last_push;
    uint64_t last_records, last_bytes, pushed;
} live_t;

/* The status line: records and bytes per second, drops per lane, losses, damage, elapsed. */
static void status_text(live_t *l, double rate_r, double rate_b, int final)
{
    const evrec_srx_stats_t *s = evrec_srx_stats(l->rx);
    uint64_t dropped, lost = record_lost_total(s, &dropped);
    size_t n = 0, cap = sizeof l->line;
    n += (size_t)snprintf(l->line + n, cap - n, "%s%llu records (%.0f/s), %.1f KiB/s, dropped %llu",
                          final ? "" : "recording: ", (unsigned long long)record_out_count(l->out), rate_r,
                          rate_b / 1024.0, (unsigned long long)dropped);
    int lanes = 0;
    for (unsigned k = 1; k < EVREC_SRX_LANES; k++) {
        lanes |= s->lane[k].dropped != 0 || s->lane[k].received != 0;
    }
    for (unsigned k = 0; lanes && k < EVREC_SRX_LANES && n < cap - 40; k++) {
        if (s->lane[k].dropped) {
            n += (size_t)snprintf(l->line + n, cap - n, " (lane %u: %llu)", k,
                                  (unsigned long long)s->lane[k].dropped);
        }
    }
    if (n < cap - 1) {
        n += (size_t)snprintf(l->line + n, cap - n, ", lost in transport %llu, damaged %llu bytes, %.0f s",
                              (unsigned long long)lost, (unsigned long long)s->damaged_bytes, now_s() - l->start);
    }
    if (l->out->number > 1 && n < cap - 1) {
        snprintf(l->line + n, cap - n, ", file %u", l->out->number);
    }
}

static void status_draw(live_t *l, int final)
{
    fprintf(stderr, "\r%s\033[K%s", l->line, final ? "\n" : "");
    fflush(stderr);
    l->drawn = !final;
}

/* --show: prints what the file has that was not shown yet, under the status line kept below. */
static void show_step(live_t *l)
{
    if (!l->show || l->failed || !l->out->name) {
        return;
    }
    if (l->drawn) {
        fputs("\r\033[K", stderr); /* the records go where the status line was */
        fflush(stderr);
    }
    if (strcmp(cli_follow_path(l->show), l->out->name) != 0) {
        cli_follow_switch(l->show, l->out->name); /* the next file of the series */
    }
    if (cli_follow_step(l->show) >= 0) {
        cli_error("--show stopped (standard output closed?); still recording into %s", l->out->name);
        l->failed = 1;
    }
    if (l->drawn) {
        status_draw(l, 0);
    }
}

/* A file of the series was closed: show its last records before the next one is begun. */
static void on_closed(void *ctx, const char *name)
{
    (void)name;
    show_step(ctx);
}

/* Pushes new records to the file (and shows them) once PUSH_EVERY_S passed; once a second the
 * status. Returns 1 to stop (--max-size). */
static int tick(live_t *l)
{
    double t = now_s();
    uint64_t recs = record_out_count(l->out);
    if (recs != l->pushed && t - l->last_push >= PUSH_EVERY_S) {
        record_out_flush(l->out);
        show_step(l);
        l->pushed = recs;
        l->last_push = t;
    }
    if (t - l->last_second >= 1.0) {
        const evrec_srx_stats_t *s = evrec_srx_stats(l->rx);
        record_out_flush(l->out);
        if (l->status) {
            double dt = t - l->last_second;
            status_text(l, (double)(recs - l->last_records) / dt, (double)(s->bytes - l->last_bytes) / dt, 0);
            status_draw(l, 0);
        }
        l->last_second = t;
        l->last_records = recs;
        l->last_bytes = s->bytes;
    }
    return l->o->max_size && record_out_bytes(l->out) >= l->o->max_size;
}

/* How long the loop may wait for input: until new records are due to be pushed, else 200 ms. */
static int wait_ms(const live_t *l)
{
    if (record_out_count(l->out) == l->pushed) {
        return 200;
    }
    double left = PUSH_EVERY_S - (now_s() - l->last_push);
    return left <= 0 ? 0 : (int)(left * 1000.0) + 1;
}

/* Reads SOURCE until its end, the stream's end, a signal, --duration or --max-size. */
static int pump(live_t *l, int fd)
{
    static uint8_t buf[1u << 16];
    const record_opts_t *o = l->o;
    while (!stop_signal && !l->out->failed && !evrec_srx_stats(l->rx)->ended) {
        if (o->duration && now_s() - l->start >= (double)o->duration) {
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, wait_ms(l));
        if (r < 0 && errno != EINTR) {
            cli_error("%s: %s", o->source, strerror(errno));
            return 0;
        }
        if (r > 0) {
            ssize_t n = read(fd, buf, sizeof buf);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                if (n < 0) {
                    cli_error("%s: %s", o->source, strerror(errno));
                }
                break; /* the source ended */
            }
            if (n > 0 && evrec_srx_feed(l->rx, buf, (size_t)n) != EVREC_OK) {
                break;
            }
        }
        if (tick(l)) {
            break;
        }
    }
    return 1;
}

/* The end: the last records shown, the summary line, the file(s) closed. 1 when all went well. */
static int finish(live_t *l, int pumped)
{
    record_out_t *out = l->out;
    if (!out->failed) {
        (void)evrec_srx_finish(l->rx);
    }
    record_out_flush(out);
    show_step(l);
    if (l->status) {
        double el = now_s() - l->start;
        const evrec_srx_stats_t *s = evrec_srx_stats(l->rx);
        status_text(l, el > 0 ? (double)record_out_count(out) / el : 0, el > 0 ? (double)s->bytes / el : 0, 1);
        status_draw(l, 1);
    }
    if (evrec_srx_stats(l->rx)->other_stream) {
        cli_error("%s: %llu frames of another stream (the target started again) left out: record it "
                  "into another file",
                  l->o->source, (unsigned long long)evrec_srx_stats(l->rx)->other_stream);
    }
    int made = out->f != NULL || out->made_count > 0;
    int ok = record_out_close(out);
    if (ok && !made) {
        cli_error("%s: no complete meta-info received: nothing recorded", l->o->source);
    }
    return pumped && ok && made;
}

/* Runs the recording with `fd` open; returns the exit code. */
static int record(const record_opts_t *o, int fd, record_out_t *out)
{
    static const cli_dump_display_t plain;
    static const cli_select_spec_t everything;
    evrec_srx_sink_t sink = {record_out_meta, record_out_records, NULL, out};
    live_t l;
    memset(&l, 0, sizeof l);
    l.o = o;
    l.out = out;
    l.start = l.last_second = l.last_push = now_s();
    l.status = !o->quiet && isatty(STDERR_FILENO) && (!o->show || isatty(STDOUT_FILENO));
    cli_follow_opts_t fo = {o->out, {0}, &everything, &plain, 0, 1};
    if (evrec_srx_new(&l.rx, &sink) != EVREC_OK || (o->show && !(l.show = cli_follow_new(&fo)))) {
        cli_error("out of memory");
        evrec_srx_free(l.rx);
        return CLI_BAD_INPUT;
    }
    record_prev_t prev; /* the previous boot's recording, if the target sends one */
    record_prev_init(&prev, o->out, l.rx);
    evrec_srx_set_prev_boot(l.rx, record_prev_piece, &prev);
    out->rx = l.rx;
    out->closed = on_closed;
    out->closed_ctx = &l;
    struct sigaction sa, old_int, old_term, old_hup, old_pipe;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    sa.sa_handler = SIG_IGN; /* --show into a pipe closed early: a write error, not the end */
    sigaction(SIGPIPE, &sa, &old_pipe);
    int ok = finish(&l, pump(&l, fd));
    ok &= !record_prev_finish(&prev);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    cli_follow_free(l.show);
    evrec_srx_free(l.rx);
    return ok ? CLI_OK : CLI_BAD_INPUT;
}

/* --show reads the file back: it must be one (not standard output, a FIFO or a device). */
static int show_possible(const record_opts_t *o)
{
    struct stat st;
    if (o->show && (strcmp(o->out, "-") == 0 || (stat(o->out, &st) == 0 && !S_ISREG(st.st_mode)))) {
        return cli_usage_error(&cli_cmd_record, "--show reads the file written back: -o must name a file");
    }
    return -1;
}

static int run(int argc, char **argv)
{
    record_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0 || (rc = show_possible(&o)) >= 0) {
        return rc;
    }
    record_out_t out;
    memset(&out, 0, sizeof out);
    out.path = o.out;
    out.split_size = o.split_size;
    out.split_time = o.split_time;
    out.keep = o.keep;
    out.tags = o.tags;
    out.ntags = o.ntags;
    if (!record_out_check(&out)) {
        return CLI_BAD_INPUT;
    }
    int fd = record_source_open(o.source, (unsigned long)o.baud, o.elf);
    if (fd < 0) {
        return CLI_BAD_INPUT;
    }
    rc = record(&o, fd, &out);
    if (fd != STDIN_FILENO) {
        close(fd);
    }
    return rc;
}

const cli_command_t cli_cmd_record = {"record", "record a target's live event stream into an evrec file", help,
                                      run};
