/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec record SOURCE -o FILE.evr`: receive a target's stream (format/FORMAT.md section 8) from
 * a pipe, a file, a TCP connection or a serial port and write a normal evrec file as it comes
 * (section 8.3), pushed to the file at least once a second, so that the file reads at any moment
 * (a kill -9 loses at most the last second). Stops at the stream's end, the source's end, Ctrl-C,
 * --duration or --max-size. */
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
#include "evrec/evrec_stream_rx.h"
#include "record_prev.h"
#include "record_source.h"

static const char help[] =
    "usage: evrec record [--baud N] [--elf FW.elf] [--duration SEC] [--max-size BYTES] -o OUT.evr SOURCE\n"
    "\n"
    "Record a target's event stream (evrec_stream_drain() frames: FORMAT.md section 8) into a\n"
    "normal evrec file, written as the stream comes and pushed to the file at least once a\n"
    "second: the file reads at any moment, also after the recorder is killed. Every loss is\n"
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
    "  --max-size BYTES     stop once the file has BYTES bytes\n"
    "  -q, --quiet          no live status line (it is shown only on a terminal anyway)\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 the file was written (losses, if any, are in its header and the summary),\n"
    "1 nothing could be recorded (no meta-info received), a read or write failed, or the previous\n"
    "boot's recording could not be saved (its path exists, or the output is '-'), 2 bad usage.\n";

typedef struct record_opts {
    const char *source, *out, *elf;
    uint64_t baud, duration, max_size;
    int quiet;
} record_opts_t;

static int parse(int argc, char **argv, record_opts_t *o)
{
    enum { OPT_BAUD = 256, OPT_DURATION, OPT_MAX_SIZE, OPT_ELF };
    static const struct option longopts[] = {
        {"baud", required_argument, NULL, OPT_BAUD},
        {"duration", required_argument, NULL, OPT_DURATION},
        {"max-size", required_argument, NULL, OPT_MAX_SIZE},
        {"elf", required_argument, NULL, OPT_ELF},
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
        case OPT_ELF: o->elf = optarg; break;
        case 'o': o->out = optarg; break;
        case 'q': o->quiet = 1; break;
        default:
            if ((rc = cli_common_option(&cli_cmd_record, c, argv, NULL)) >= 0) {
                return rc;
            }
        }
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

/* ---- the output: created here, or a FIFO / device / stdout written in place ---- */

typedef struct record_out {
    const char *path;
    FILE *f;
    evrec_sfile_t *w;
    int failed;
} record_out_t;

/* 1 when OUT may be written: it does not exist (created later, O_EXCL), or it is "-", a FIFO or
 * a character device. An existing file (or a link) is never replaced. */
static int out_allowed(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || lstat(path, &st) != 0) {
        return strcmp(path, "-") == 0 || errno == ENOENT ? 1 : (cli_error("%s: %s", path, strerror(errno)), 0);
    }
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
        return 1;
    }
    cli_error("%s: exists; evrec record writes a new file and never replaces one (choose another name)", path);
    return 0;
}

static FILE *out_open(const char *path)
{
    if (strcmp(path, "-") == 0) {
        return stdout;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) {
        fd = open(path, O_WRONLY | O_CLOEXEC); /* a FIFO or device checked by out_allowed() */
        struct stat st;
        if (fd >= 0 && (fstat(fd, &st) != 0 || S_ISREG(st.st_mode))) {
            close(fd); /* it became a regular file meanwhile: not ours */
            errno = EEXIST;
            fd = -1;
        }
    }
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
    }
    return f;
}

static int on_meta(void *ctx, const uint8_t *doc, size_t size)
{
    record_out_t *o = (record_out_t *)ctx;
    o->f = out_open(o->path);
    if (!o->f || evrec_sfile_open(&o->w, o->f, doc, size) != EVREC_OK) {
        o->failed = 1;
        return 1;
    }
    return 0;
}

static int on_records(void *ctx, unsigned lane, const uint8_t *data, size_t size, uint64_t count,
                      const uint8_t state[36])
{
    record_out_t *o = (record_out_t *)ctx;
    (void)lane;
    if (evrec_sfile_records(o->w, data, size, count, state) != EVREC_OK) {
        o->failed = 1;
        return 1;
    }
    return 0;
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

static uint64_t lost_total(const evrec_srx_stats_t *s, uint64_t *dropped)
{
    uint64_t lost = 0, d = 0;
    for (unsigned k = 0; k < EVREC_SRX_LANES; k++) {
        d += s->lane[k].dropped;
        lost += s->lane[k].lost_transport;
    }
    *dropped = d;
    return lost;
}

/* One line: records and bytes per second over the last interval, drops per lane, losses. */
static void status_line(const evrec_srx_stats_t *s, uint64_t recs, double rate_r, double rate_b, double elapsed,
                        int final)
{
    uint64_t dropped, lost = lost_total(s, &dropped);
    fprintf(stderr, "\r%s%llu records (%.0f/s), %.1f KiB/s, dropped %llu",
            final ? "" : "recording: ", (unsigned long long)recs, rate_r, rate_b / 1024.0,
            (unsigned long long)dropped);
    for (unsigned k = 1; k < EVREC_SRX_LANES; k++) {
        if (s->lane[k].dropped) {
            fprintf(stderr, " (lane %u: %llu)", k, (unsigned long long)s->lane[k].dropped);
        }
    }
    fprintf(stderr, ", lost in transport %llu, damaged %llu bytes, %.0f s%s", (unsigned long long)lost,
            (unsigned long long)s->damaged_bytes, elapsed, final ? "\n" : "\033[K");
    fflush(stderr);
}

typedef struct loop_state {
    double start, last_flush;
    uint64_t last_records, last_bytes;
} loop_state_t;

/* Once a second: push the file, show the status. Returns 1 to stop (--max-size). */
static int each_second(const record_opts_t *o, record_out_t *out, evrec_srx_t *rx, loop_state_t *ls, int tty)
{
    double t = now_s();
    if (t - ls->last_flush < 1.0) {
        return 0;
    }
    const evrec_srx_stats_t *s = evrec_srx_stats(rx);
    uint64_t recs = out->w ? evrec_sfile_records_written(out->w) : 0;
    if (out->w && evrec_sfile_flush(out->w) != EVREC_OK) {
        out->failed = 1;
    }
    if (tty) {
        double dt = t - ls->last_flush;
        status_line(s, recs, (double)(recs - ls->last_records) / dt, (double)(s->bytes - ls->last_bytes) / dt,
                    t - ls->start, 0);
    }
    ls->last_flush = t;
    ls->last_records = recs;
    ls->last_bytes = s->bytes;
    return o->max_size && out->f && out->f != stdout && ftello(out->f) >= (off_t)o->max_size;
}

/* Reads SOURCE until its end, the stream's end, a signal, --duration or --max-size. */
static int pump(const record_opts_t *o, int fd, evrec_srx_t *rx, record_out_t *out, int tty)
{
    static uint8_t buf[1u << 16];
    loop_state_t ls = {now_s(), now_s(), 0, 0};
    while (!stop_signal && !out->failed && !evrec_srx_stats(rx)->ended) {
        if (o->duration && now_s() - ls.start >= (double)o->duration) {
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 200);
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
            if (n > 0 && evrec_srx_feed(rx, buf, (size_t)n) != EVREC_OK) {
                break;
            }
        }
        if (each_second(o, out, rx, &ls, tty)) {
            break;
        }
    }
    if (tty) {
        const evrec_srx_stats_t *s = evrec_srx_stats(rx);
        double el = now_s() - ls.start;
        uint64_t recs = out->w ? evrec_sfile_records_written(out->w) : 0;
        status_line(s, recs, el > 0 ? (double)recs / el : 0, el > 0 ? (double)s->bytes / el : 0, el, 1);
    }
    return 1;
}

static int run(int argc, char **argv)
{
    record_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    if (!out_allowed(o.out)) {
        return CLI_BAD_INPUT;
    }
    int fd = record_source_open(o.source, (unsigned long)o.baud, o.elf);
    if (fd < 0) {
        return CLI_BAD_INPUT;
    }
    record_out_t out = {o.out, NULL, NULL, 0};
    evrec_srx_sink_t sink = {on_meta, on_records, NULL, &out};
    evrec_srx_t *rx = NULL;
    if (evrec_srx_new(&rx, &sink) != EVREC_OK) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    record_prev_t prev; /* the previous boot's recording, if the target sends one */
    record_prev_init(&prev, o.out, rx);
    evrec_srx_set_prev_boot(rx, record_prev_piece, &prev);
    struct sigaction sa, old_int, old_term, old_hup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    int ok = pump(&o, fd, rx, &out, !o.quiet && isatty(STDERR_FILENO));
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    if (!out.failed) {
        (void)evrec_srx_finish(rx);
    }
    if (evrec_srx_stats(rx)->other_stream) {
        cli_error("%s: %llu frames of another stream (the target started again) left out: record it "
                  "into another file",
                  o.source, (unsigned long long)evrec_srx_stats(rx)->other_stream);
    }
    int prev_failed = record_prev_finish(&prev);
    if (out.w && evrec_sfile_close_rx(out.w, rx) != EVREC_OK) {
        out.failed = 1;
    }
    if (out.f && out.f != stdout && fclose(out.f) != 0) {
        out.failed = 1;
    } else if (out.f == stdout && fflush(stdout) != 0) {
        out.failed = 1;
    }
    if (out.failed) {
        cli_error("%s: cannot write: %s", o.out, strerror(errno));
    } else if (!out.f) {
        cli_error("%s: no complete meta-info received: nothing recorded", o.source);
    }
    if (fd != STDIN_FILENO) {
        close(fd);
    }
    evrec_srx_free(rx);
    return ok && out.f && !out.failed && !prev_failed ? CLI_OK : CLI_BAD_INPUT;
}

const cli_command_t cli_cmd_record = {"record", "record a target's live event stream into an evrec file", help,
                                      run};
