/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec dump -f FILE` (dump_follow.h): looks at the file every interval; when it has grown, opens
 * it again and reads on from the first record not printed yet (evrec_reader_next_at(): a container
 * is bisected over its SYNC chunks, FORMAT.md section 2.2, so a look costs the new records plus
 * about 30 reads, whatever the file's size; a raw capture is converted again, section 8.3). A
 * record whose chunk is not whole yet (the reader returns it `unverified`) ends the look: it is
 * printed at a later one, once its chunk is complete. Records are printed by the dump sink. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "dump_follow.h"
#include "evrec/evrec_reader_seek.h"
#include "evrec/evrec_stream_rx.h"

struct cli_follow {
    const cli_follow_opts_t *o;
    const char *path; /* the file followed (o->path, or the one given to cli_follow_switch()) */
    uint64_t next;    /* index of the first record not printed yet */
    int have;         /* the file was seen at the last look */
    dev_t dev;        /* ... and which file it was */
    ino_t ino;
    off_t size;         /* its bytes at the last look */
    int waiting_noted;  /* "waiting for it" was said */
    int ended_noted;    /* "the recording is complete" was said (for this file) */
    int clock_noted;    /* the note on an unknown clock was said */
    int capture;        /* the file is a raw capture (it always converts to a complete file) */
    uint64_t damage_at; /* offset + 1 of the last damage reported, 0: none */
    int index_noted;    /* a seek found the INDEX chunk wrong and it was said (for this file) */
    int ifd, wd;        /* inotify (Linux): wakes the wait when the file is written; -1: none */
};
typedef struct cli_follow follow_t;

static volatile sig_atomic_t follow_stop;

static void on_signal(int sig)
{
    follow_stop = sig;
}

/* Starts the file over (another file, or cut shorter). */
static void restart(follow_t *f)
{
    f->next = 0;
    f->ended_noted = 0;
    f->damage_at = 0;
    f->index_noted = 0;
}

/* The file is missing: say so once; a file that comes back is read from its start. */
static int missing(follow_t *f)
{
    if (f->have) {
        cli_error("%s: removed: waiting for it to appear again", f->path);
        restart(f);
    } else if (!f->waiting_noted && !f->o->quiet) {
        cli_error("%s: does not exist yet: waiting for it", f->path);
    }
    f->have = 0;
    f->waiting_noted = 1;
    return 0;
}

/* Linux: wake the wait when the file followed is written, so that a record is printed as soon as
 * its chunk is pushed, not at the next interval. Elsewhere (or without inotify) the interval. */
static void watch(follow_t *f)
{
#ifdef __linux__
    if (f->ifd >= 0 && f->wd >= 0) {
        inotify_rm_watch(f->ifd, f->wd);
    }
    f->wd = f->ifd >= 0 ? inotify_add_watch(f->ifd, f->path, IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
                        : -1;
#else
    (void)f;
#endif
}

/* Waits `ms`, or less: until the file is written (inotify) or a signal comes. */
static void wait_change(follow_t *f, unsigned ms)
{
#ifdef __linux__
    if (f->ifd >= 0 && f->wd >= 0) {
        struct pollfd p = {f->ifd, POLLIN, 0};
        if (poll(&p, 1, (int)ms) > 0) {
            char events[4096];
            struct timespec settle = {0, 20000000L}; /* 20 ms: a burst of writes is one look */
            (void)nanosleep(&settle, NULL);
            while (read(f->ifd, events, sizeof events) > 0) {
                /* what happened is read from the file */
            }
        }
        return;
    }
#endif
    struct timespec ts = {(time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L};
    (void)nanosleep(&ts, NULL); /* a signal ends it early */
}

/* Looks at the file: 1 when it changed since the last look (bytes added, another file, cut
 * shorter: the last two said and followed from their start), 0 when not (or missing), -1 when it
 * is not a regular file. */
static int look(follow_t *f)
{
    struct stat st;
    if (stat(f->path, &st) != 0) {
        return missing(f);
    }
    if (!S_ISREG(st.st_mode)) {
        cli_error("%s: not a regular file: dump -f follows a file as it grows (a pipe: evrec dump -)", f->path);
        return -1;
    }
    if (f->have && (st.st_dev != f->dev || st.st_ino != f->ino)) {
        cli_error("%s: replaced by another file: following the new one from its start", f->path);
        restart(f);
    } else if (f->have && st.st_size < f->size) {
        cli_error("%s: truncated (%lld bytes, was %lld): following it from its start", f->path,
                  (long long)st.st_size, (long long)f->size);
        restart(f);
    } else if (f->have && st.st_size == f->size) {
        return 0;
    }
    if (!f->have || st.st_ino != f->ino || st.st_dev != f->dev) {
        watch(f);
    }
    f->have = 1;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->size = st.st_size;
    return 1;
}

/* After a look's records: the stream's state as notes, each said once. */
static void notes(follow_t *f, evrec_reader_t *r, evrec_status st)
{
    const char *path = f->path;
    if (!f->clock_noted && evrec_reader_time_freq(r, NULL) == 0) {
        cli_error("%s: note: time_freq is 0 and fewer than 2 ticks were recorded: times are in ticks", path);
        f->clock_noted = 1;
    }
    if (st == EVREC_E_END && !f->ended_noted && !f->capture && !f->o->quiet) {
        cli_error("%s: note: the recording is complete (its End record); still following: Ctrl-C stops", path);
        f->ended_noted = 1;
    }
    const evrec_reader_error_t *e = evrec_reader_error(r);
    if (st != EVREC_OK && st != EVREC_E_END && st != EVREC_E_TRUNCATED && e->offset + 1 != f->damage_at) {
        cli_report_reader_error(path, r); /* damage (the records after it are printed) */
        f->damage_at = e->offset + 1;
    }
}

/* Prints the records from f->next up to the first one whose chunk is not whole yet. */
static int print_new(follow_t *f, evrec_reader_t *r, cli_select_t *sel)
{
    cli_sink_info_t info = {
        f->path, r, evrec_reader_meta(r), evrec_reader_info(r), evrec_reader_time_freq(r, NULL), 0};
    void *state = cli_sink_dump.begin((void *)f->o->display, NULL, &info);
    if (!state) {
        return CLI_BAD_INPUT;
    }
    cli_sink_end_t end;
    memset(&end, 0, sizeof end);
    evrec_record_t rec;
    evrec_status st = evrec_reader_next_at(r, &rec, f->next, 0);
    for (; st == EVREC_OK && !rec.unverified; st = evrec_reader_next(r, &rec)) {
        if (rec.index >= f->next && cli_select_check(sel, &rec) == CLI_SEL_YES) {
            cli_sink_dump.record(state, &rec, 0);
            end.records++;
        }
        f->next = rec.index >= f->next ? rec.index + 1 : f->next;
    }
    if (!f->index_noted) { /* each look opens the file again: said once, as `dump --from` says it */
        f->index_noted = cli_report_index_warning(f->path, r);
    }
    end.status = st;
    cli_sink_dump.end(state, &end);
    if (!cli_stdout_done(1)) {
        return CLI_BAD_INPUT;
    }
    notes(f, r, st);
    return -1;
}

/* 1 when the file starts with a frame's sync magic (a raw capture, FORMAT.md section 8.3). */
static int is_capture(const char *path)
{
    uint8_t head[4];
    FILE *in = fopen(path, "rb");
    size_t n = in ? fread(head, 1, sizeof head, in) : 0;
    if (in) {
        fclose(in);
    }
    return evrec_srx_is_capture(head, n);
}

/* One look's reading: -1 to go on, else the exit code. */
static int read_new(follow_t *f)
{
    static const cli_select_spec_t everything;
    evrec_reader_t *r = NULL;
    evrec_status st = evrec_reader_open_path(&r, f->path, &f->o->clock);
    struct stat gone;
    f->capture = is_capture(f->path);
    if (st == EVREC_E_TRUNCATED || (st != EVREC_OK && (f->capture || stat(f->path, &gone) != 0))) {
        /* no complete meta-info yet (a capture: no complete meta document), or gone again */
        evrec_reader_close(r);
        return -1;
    }
    if (st != EVREC_OK) {
        cli_report_reader_error(f->path, r);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    cli_select_t *sel = NULL;
    int rc = cli_select_compile(&cli_cmd_dump, f->o->select ? f->o->select : &everything, r, &sel);
    if (rc < 0) {
        rc = print_new(f, r, sel);
    }
    cli_select_free(sel);
    evrec_reader_close(r);
    return rc;
}

cli_follow_t *cli_follow_new(const cli_follow_opts_t *o)
{
    follow_t *f = calloc(1, sizeof *f);
    if (f) {
        f->o = o;
        f->path = o->path;
        f->wd = -1;
#ifdef __linux__
        f->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#else
        f->ifd = -1;
#endif
    }
    return f;
}

int cli_follow_step(cli_follow_t *f)
{
    int changed = look(f);
    return changed < 0 ? CLI_BAD_INPUT : changed ? read_new(f) : -1;
}

void cli_follow_switch(cli_follow_t *f, const char *path)
{
    f->path = path;
    f->have = 0;
    f->waiting_noted = 1;
    f->size = 0;
    restart(f);
}

const char *cli_follow_path(const cli_follow_t *f)
{
    return f->path;
}

void cli_follow_free(cli_follow_t *f)
{
    if (f && f->ifd >= 0) {
        close(f->ifd);
    }
    free(f);
}

int cli_dump_follow(const cli_follow_opts_t *o)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    follow_t *f = cli_follow_new(o);
    if (!f) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    struct sigaction sa, old[3];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the pause ends at once */
    follow_stop = 0;
    for (int i = 0; i < 3; i++) {
        sigaction(sigs[i], &sa, &old[i]);
    }
    int rc = -1;
    while (!follow_stop && rc < 0) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        rc = cli_follow_step(f);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        /* a look that took over 50 ms (a large raw capture is converted again at each look) is
         * followed by a rest 4 times as long: dump -f takes at most a fifth of a core */
        long busy_ms = (long)(t1.tv_sec - t0.tv_sec) * 1000L + (t1.tv_nsec - t0.tv_nsec) / 1000000L;
        if (rc < 0 && !follow_stop && busy_ms > 50) {
            struct timespec rest = {(time_t)(busy_ms * 4 / 1000), (busy_ms * 4 % 1000) * 1000000L};
            (void)nanosleep(&rest, NULL);
        }
        if (rc < 0 && !follow_stop) {
            wait_change(f, o->interval_ms ? o->interval_ms : 100u);
        }
    }
    for (int i = 0; i < 3; i++) {
        sigaction(sigs[i], &old[i], NULL);
    }
    cli_follow_free(f);
    return rc < 0 ? CLI_OK : rc;
}
