/* SPDX-License-Identifier: Apache-2.0 */
/* Error reporting, argument parsing and file opening shared by the subcommands. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "evrec/evrec_reader_seek.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("evrec: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(const cli_command_t *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "evrec: %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'evrec %s --help')\n", cmd->name);
    va_end(ap);
    return CLI_USAGE;
}

const evrec_damage_t *cli_damage_before(const evrec_reader_t *r, uint64_t index, uint64_t *k)
{
    const evrec_damage_t *d;
    for (uint64_t i = 0; (d = evrec_reader_damage(r, i)) != NULL; i++) {
        if (d->index_after == index) {
            if (k) {
                *k = i;
            }
            return d;
        }
    }
    return NULL;
}

uint64_t cli_damage_lost(const evrec_reader_t *r, uint64_t index, uint64_t next)
{
    const evrec_damage_t *d = cli_damage_before(r, index, NULL);
    if (d && d->records_lost != UINT64_MAX && d->records_lost > 0) {
        return d->records_lost;
    }
    return index > next ? index - next : 0;
}

int cli_damage_stopped(const evrec_reader_t *r)
{
    uint64_t n = evrec_reader_damage_count(r);
    if (n == 0) {
        return evrec_reader_error(r)->status != EVREC_OK;
    }
    const evrec_damage_t *d = evrec_reader_damage(r, n - 1);
    if (!d) {
        return 1; /* beyond the ranges the reader keeps: assume the worst */
    }
    return d->index_after == UINT64_MAX && d->records_lost != 0;
}

/* Damaged ranges listed one per line; more are summed up in one line. */
#define CLI_MAX_DAMAGE_LINES 20u

int cli_report_index_warning(const char *path, const evrec_reader_t *r)
{
    const evrec_reader_error_t *w = evrec_reader_index_warning(r);
    if (w) {
        cli_error("%s: warning: offset %llu: %s", path, (unsigned long long)w->offset, w->message);
    }
    return w != NULL;
}

void cli_report_reader_error(const char *path, const evrec_reader_t *r)
{
    const evrec_reader_error_t *e = evrec_reader_error(r);
    if (!r) {
        cli_error("%s: out of memory", path);
        return;
    }
    if (e->status == EVREC_E_IO && e->offset == 0) {
        cli_error("%s: %s", path, e->message);
        return;
    }
    uint64_t n = evrec_reader_damage_count(r);
    const evrec_damage_t *d0 = evrec_reader_damage(r, 0);
    if (n == 0 || !d0) {
        cli_error("%s: offset %llu: %s", path, (unsigned long long)e->offset, e->message);
        return;
    }
    for (uint64_t i = 0; i < n && i < CLI_MAX_DAMAGE_LINES; i++) {
        const evrec_damage_t *d = evrec_reader_damage(r, i);
        if (!d) {
            break;
        }
        const char *msg = i == 0 ? e->message : d->message; /* the sticky error may say more */
        if (d->records_lost != UINT64_MAX && d->records_lost > 0) {
            cli_error("%s: offset %llu: %s (%llu record%s lost)", path, (unsigned long long)d->offset, msg,
                      (unsigned long long)d->records_lost, d->records_lost == 1 ? "" : "s");
        } else {
            cli_error("%s: offset %llu: %s", path, (unsigned long long)d->offset, msg);
        }
    }
    if (n > CLI_MAX_DAMAGE_LINES) {
        cli_error("%s: %llu more damaged ranges", path, (unsigned long long)(n - CLI_MAX_DAMAGE_LINES));
    }
}

evrec_status cli_read_to_end(evrec_reader_t *r)
{
    evrec_record_t rec;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
    }
    return st;
}

int cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s) {
        return 0;
    }
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return 0;
        }
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10u) {
            return 0;
        }
        v = v * 10u + d;
    }
    *out = v;
    return 1;
}

/* A decimal number being read: value = mant * 10^scale. */
typedef struct freq_num {
    uint64_t mant;
    int digits, sig, scale;
} freq_num_t;

/* The mantissa at p: digits (leading zeros skipped, at most 19 significant), then a fraction.
 * Returns the end, or NULL with *why set for too many fraction digits. */
static const char *freq_mantissa(const char *p, freq_num_t *n, const char **why)
{
    for (; *p >= '0' && *p <= '9'; p++, n->digits++) {
        if (n->mant == 0 && *p == '0') {
            continue;
        }
        if (n->sig < 19) {
            n->mant = n->mant * 10u + (uint64_t)(*p - '0');
            n->sig++;
        } else {
            n->scale++; /* digits beyond 19: the number is far too large anyway */
        }
    }
    if (*p != '.') {
        return p;
    }
    for (p++; *p >= '0' && *p <= '9'; p++, n->digits++) {
        if (n->sig < 19 && !(n->mant == 0 && *p == '0')) {
            n->mant = n->mant * 10u + (uint64_t)(*p - '0');
            n->sig++;
            n->scale--;
        } else if (n->mant == 0) {
            n->scale--;
        } else if (*p != '0') {
            *why = "too many digits";
            return NULL;
        }
    }
    return p;
}

/* An exponent (e3, E-2) and an SI suffix (k, M, G) at p, then an optional "Hz". Returns the
 * end, or NULL when an exponent has no digits. */
static const char *freq_suffix(const char *p, freq_num_t *n)
{
    if (*p == 'e' || *p == 'E') {
        p++;
        int neg = *p == '-';
        if (*p == '+' || *p == '-') {
            p++;
        }
        if (*p < '0' || *p > '9') {
            return NULL;
        }
        int e = 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            e = e < 1000 ? e * 10 + (*p - '0') : e;
        }
        n->scale += neg ? -e : e;
    }
    switch (*p) {
    case 'k':
    case 'K':
        n->scale += 3;
        p++;
        break;
    case 'M':
        n->scale += 6;
        p++;
        break;
    case 'G':
        n->scale += 9;
        p++;
        break;
    default: break;
    }
    if (strcmp(p, "Hz") == 0 || strcmp(p, "hz") == 0) {
        p += 2;
    }
    return p;
}

/* mant * 10^scale as a whole number in 1..max. */
static int freq_value(freq_num_t *n, uint64_t max, uint64_t *out, const char **why)
{
    if (n->mant == 0) {
        *why = "the frequency must be above 0 Hz";
        return 0;
    }
    for (; n->scale < 0; n->scale++) {
        if (n->mant % 10u) {
            *why = "not a whole number of Hz";
            return 0;
        }
        n->mant /= 10u;
    }
    for (; n->scale > 0; n->scale--) {
        if (n->mant > max / 10u) {
            *why = "too large";
            return 0;
        }
        n->mant *= 10u;
    }
    if (n->mant > max) {
        *why = "too large";
        return 0;
    }
    *out = n->mant;
    return 1;
}

int cli_parse_freq(const char *s, uint64_t max, uint64_t *out, const char **why)
{
    *why = "expected a frequency in Hz such as 32768, 168M, 1.5k or 1e9";
    if (!s || !*s) {
        return 0;
    }
    freq_num_t n = {0, 0, 0, 0};
    const char *p = freq_mantissa(s, &n, why);
    if (!p || n.digits == 0) {
        return 0;
    }
    p = freq_suffix(p, &n);
    if (!p || *p) {
        return 0;
    }
    return freq_value(&n, max, out, why);
}

void cli_getopt_begin(void)
{
    opterr = 0;
    optind = 1;
}

int cli_common_option(const cli_command_t *cmd, int c, char **argv, evrec_reader_options_t *clock)
{
    uint64_t v;
    const char *why;
    if (c == CLI_OPT_TICK_HZ && clock) {
        if (!cli_parse_freq(optarg, 1000000000u, &v, &why)) {
            return cli_usage_error(
                cmd, "--tick-hz expects a rate in Hz, 1..1000000000 (such as 1000 or 1k), not '%s': %s", optarg,
                why);
        }
        clock->tick_hz = (uint32_t)v;
        return -1;
    }
    if (c == CLI_OPT_TIME_FREQ && clock) {
        if (!cli_parse_freq(optarg, UINT64_MAX, &v, &why)) {
            return cli_usage_error(
                cmd, "--time-freq expects a frequency in Hz (such as 32768, 168M, 1.5k or 1e9), not '%s': %s",
                optarg, why);
        }
        clock->time_freq = v;
        return -1;
    }
    if (c == 'h') {
        fputs(cmd->help, stdout);
        return CLI_OK;
    }
    if (c == ':') {
        return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    }
    return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int cli_one_operand(const cli_command_t *cmd, int argc, char **argv, const char *what, const char **out)
{
    if (argc == optind) {
        return cli_usage_error(cmd, "missing %s", what);
    }
    if (argc - optind != 1) {
        return cli_usage_error(cmd, "expected one %s, got %d arguments", what, argc - optind);
    }
    *out = argv[optind];
    return -1;
}

evrec_reader_t *cli_open_reader(const char *path, const evrec_reader_options_t *ropt)
{
    evrec_reader_t *r = NULL;
    evrec_status st = strcmp(path, "-") == 0 ? evrec_reader_open_file(&r, stdin, ropt)
                                             : evrec_reader_open_path(&r, path, ropt);
    if (st != EVREC_OK) {
        cli_report_reader_error(path, r);
        evrec_reader_close(r);
        return NULL;
    }
    return r;
}

int cli_stdout_done(int ok)
{
    if (fflush(stdout) != 0 || ferror(stdout) || !ok) {
        cli_error("writing the output failed");
        return 0;
    }
    return 1;
}

/* ---- output files ---- */

/* The temporary file being written, removed when a signal ends the command (one at a time). */
static char *volatile pending_tmp;

static void remove_pending(int sig)
{
    char *t = pending_tmp;
    if (t) {
        unlink(t);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch_tmp(char *tmp)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    pending_tmp = tmp;
    for (size_t i = 0; tmp && i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_pending;
        sigemptyset(&sa.sa_mask);
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
            sigaction(sigs[i], &sa, NULL);
        }
    }
}

static int output_open(cli_output_t *o, const char *path, unsigned flags)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (evrec_out_file_open(&o->file, path, flags) != EVREC_OK) {
        o->err = o->file.err;
        cli_error("%s", evrec_out_file_message(&o->file));
        return 0;
    }
    watch_tmp(o->file.tmp);
    return 1;
}

int cli_output_open(cli_output_t *o, const char *path)
{
    return output_open(o, path, 0);
}

int cli_output_open_named(cli_output_t *o, const char *path)
{
    return output_open(o, path, EVREC_OUT_FILE_NAMED);
}

const char *cli_output_name(const cli_output_t *o)
{
    return evrec_out_file_temp_path(&o->file);
}

int cli_output_write(cli_output_t *o, const void *p, size_t n)
{
    if (!o->err && evrec_out_file_write(&o->file, p, n) != EVREC_OK) {
        o->err = o->file.err;
    }
    o->bytes = o->file.bytes;
    return !o->err;
}

int cli_output_commit(cli_output_t *o)
{
    pending_tmp = NULL; /* from here on the output removes it itself */
    if (o->err && !o->file.err) {
        evrec_out_file_fail(&o->file, o->err); /* a failure the caller saw */
    }
    if (evrec_out_file_commit(&o->file) != EVREC_OK) {
        o->err = o->file.err;
        cli_error("%s", evrec_out_file_message(&o->file));
    }
    return !o->err;
}

void cli_output_abort(cli_output_t *o)
{
    pending_tmp = NULL;
    evrec_out_file_abort(&o->file);
}

FILE *cli_output_stream(cli_output_t *o)
{
    if (strcmp(o->path, "-") == 0) {
        return stdout;
    }
    FILE *f = fdopen(o->file.fd, "wb");
    if (!f) {
        cli_error("%s: %s", o->path, strerror(errno));
        return NULL;
    }
    return f;
}

int cli_output_stream_close(cli_output_t *o, FILE *f)
{
    int failed = f == stdout ? fflush(f) != 0 || ferror(f) : ferror(f) | (fclose(f) != 0);
    if (failed && !o->err) {
        o->err = errno ? errno : EIO;
    }
    if (f != stdout) {
        o->file.fd = -1; /* closed by fclose(); the output syncs its file by name */
    }
    return !o->err;
}

/* ---- progress ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_begin(cli_progress_t *p, int mode, const char *what)
{
    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->tty = isatty(STDERR_FILENO);
    p->start = now_s();
    p->next = p->start + (mode > 0 ? 0.0 : 1.0);
    p->what = what;
}

void cli_progress_update(cli_progress_t *p, uint64_t done, uint64_t total)
{
    if (p->mode < 0 || (p->mode == 0 && !p->tty)) {
        return;
    }
    double t = now_s();
    if (t < p->next) {
        return;
    }
    p->next = t + (p->tty ? 0.1 : 1.0);
    p->shown = 1;
    char line[160];
    int n;
    if (total) {
        unsigned pct = (unsigned)(done >= total ? 100u : done * 100u / total);
        char bar[31];
        unsigned fill = pct * 30u / 100u;
        for (unsigned i = 0; i < 30u; i++) {
            bar[i] = i < fill ? '#' : '.';
        }
        bar[30] = 0;
        n = snprintf(line, sizeof line, "%s [%s] %3u%% %.1f s", p->what, bar, pct, t - p->start);
    } else {
        n = snprintf(line, sizeof line, "%s %llu %.1f s", p->what, (unsigned long long)done, t - p->start);
    }
    /* A terminal gets one line redrawn in place; anything else (forced) a line per update. */
    fprintf(stderr, p->tty ? "\r%s\033[K" : "%s\n", line);
    (void)n;
    fflush(stderr);
}

void cli_progress_end(cli_progress_t *p)
{
    if (p->shown && p->tty) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = 0;
}
