/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec info FILE`: what the file is, its clock, schema hash, event types with their counts,
 * duration, and whether it is intact. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_tracks.h"
#include "stream_losses.h"

static const char help[] =
    "usage: evrec info [--tick-hz HZ] [--time-freq HZ] FILE\n"
    "\n"
    "Summarise a recording: format, timestamp frequency, schema hash, event types (id, name,\n"
    "class, saved length, count), the tracks, spans and counters the file declares (one line\n"
    "each), records and drops (and, for a cyclic buffer, the records overwritten before the\n"
    "save), duration, and damage ('intact' when every checksum and count agrees). A recording\n"
    "made from a stream (evrec record) that lost records says so on the first line (LOSSY:),\n"
    "and its 'losses:' lines tell apart per lane the records the target dropped, those lost in\n"
    "transport, and the damaged input ranges. The recording's attributes (device, firmware,\n"
    "boot and others: FORMAT.md section 2.6), when it has any, follow the schema hash, one per\n"
    "line ('attributes:  device = sn-00412').\n"
    "\n"
    "options:\n"
    "  --tick-hz HZ     EventControl Tick was recorded at HZ: derive the timestamp frequency\n"
    "                   from the ticks (default when the file's time_freq is 0: 10 Hz)\n"
    "  --time-freq HZ   timestamp frequency to use instead of the file's (168M, 1e9, 32768, 1.5k)\n"
    "  -h, --help       this text\n"
    "\n"
    "Exit status: 0 intact, 1 damaged or unreadable (the summary of what was read is still\n"
    "printed), 2 bad usage.\n";

typedef struct info_opts {
    evrec_reader_options_t ropt;
    const char *path;
} info_opts_t;

static int parse(int argc, char **argv, info_opts_t *o)
{
    static const struct option longopts[] = {
        {"tick-hz", required_argument, NULL, CLI_OPT_TICK_HZ},
        {"time-freq", required_argument, NULL, CLI_OPT_TIME_FREQ},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if ((rc = cli_common_option(&cli_cmd_info, c, argv, &o->ropt)) >= 0) {
            return rc;
        }
    }
    return cli_one_operand(&cli_cmd_info, argc, argv, "FILE", &o->path);
}

static const char *time_source_text(evrec_time_source s)
{
    switch (s) {
    case EVREC_TIME_FILE: return "from the file";
    case EVREC_TIME_OPTION: return "from --time-freq";
    case EVREC_TIME_TICKS: return "derived from the ticks";
    default: return "unknown";
    }
}

static void print_line(cli_buf_t *b)
{
    fwrite(b->p, 1, b->len, stdout);
    b->len = 0;
}

static void print_events(const evrec_reader_t *r, const evrec_reader_summary_t *s)
{
    const evrec_meta_t *m = evrec_reader_meta(r);
    size_t wname = 4, wclass = 5;
    for (uint32_t i = 0; i < m->event_count; i++) {
        size_t w = cli_name_width(evrec_reader_event_name(r, (uint16_t)i));
        wname = w > wname ? w : wname;
        cli_buf_t t = {0};
        cli_buf_class(&t, r, m->events[i].class_id);
        wclass = t.len > wclass ? t.len : wclass;
        cli_buf_free(&t);
    }
    printf("event types: %u\n", (unsigned)m->event_count);
    /* Columns: id (7) | name | class | save_len (8) | count (14), two blanks apart. */
    size_t col_class = 9 + wname + 2, col_len = col_class + wclass + 2;
    cli_buf_t b = {0};
    cli_buf_puts(&b, "     id  name");
    cli_buf_pad(&b, col_class);
    cli_buf_puts(&b, "class");
    cli_buf_pad(&b, col_len);
    cli_buf_puts(&b, "save_len           count\n");
    print_line(&b);
    for (uint32_t i = 0; i < m->event_count; i++) {
        char num[48];
        snprintf(num, sizeof num, "%7u  ", (unsigned)i);
        cli_buf_puts(&b, num);
        cli_buf_name(&b, evrec_reader_event_name(r, (uint16_t)i));
        cli_buf_pad(&b, col_class);
        if (m->events[i].class_id == i) {
            cli_buf_putc(&b, '-');
        } else {
            cli_buf_class(&b, r, m->events[i].class_id);
        }
        cli_buf_pad(&b, col_len);
        snprintf(num, sizeof num, "%8u  %14llu\n", (unsigned)evrec_reader_event_size(r, (uint16_t)i),
                 (unsigned long long)(s->event_counts ? s->event_counts[i] : 0));
        cli_buf_puts(&b, num);
        print_line(&b);
    }
    cli_buf_free(&b);
}

/* The lines about the file: path, format, size, clock, schema hash. */
static void print_file(const char *path, const evrec_file_info_t *fi, const evrec_reader_summary_t *s)
{
    printf("file:        %s\n", path);
    if (fi->format == EVREC_FILE_CONTAINER) {
        printf("format:      evrec container v%u.%u (CRC-32C chunks)%s\n", (unsigned)fi->version_major,
               (unsigned)fi->version_minor, (fi->flags & 1u) ? ", cyclic buffer" : "");
    } else {
        printf("format:      ccore (bare CCore EventRecorder stream, no checksums)\n");
    }
    if (fi->file_size) {
        printf("size:        %llu bytes\n", (unsigned long long)fi->file_size);
    }
    if (fi->time_freq) {
        printf("time_freq:   %llu Hz", (unsigned long long)fi->time_freq);
    } else {
        printf("time_freq:   0 (unknown)");
    }
    if (s->time_source != EVREC_TIME_FILE) {
        if (s->time_freq) {
            printf("; using %llu Hz %s", (unsigned long long)s->time_freq, time_source_text(s->time_source));
        } else {
            printf("; fewer than 2 ticks: times are shown in ticks");
        }
    }
    printf("\n");
    if (fi->format == EVREC_FILE_CONTAINER && fi->schema_hash_stored) {
        if (fi->schema_hash_stored == fi->schema_hash_computed) {
            printf("schema hash: 0x%016llx (matches the meta-info)\n", (unsigned long long)fi->schema_hash_stored);
        } else {
            printf("schema hash: 0x%016llx stored; the meta-info gives 0x%016llx (DIFFERS)\n",
                   (unsigned long long)fi->schema_hash_stored, (unsigned long long)fi->schema_hash_computed);
        }
    } else {
        printf("schema hash: none stored; the meta-info gives 0x%016llx\n",
               (unsigned long long)fi->schema_hash_computed);
    }
}

/* The recording's attributes (ATTRS chunk, FORMAT.md section 2.6), one per line; nothing when
 * it has none. Values are printed as cli_buf_name() prints names (control bytes escaped). */
static void print_attrs(const evrec_reader_t *r)
{
    cli_buf_t b = {0};
    for (uint32_t i = 0, n = evrec_reader_attr_count(r); i < n; i++) {
        const char *k, *v;
        if (evrec_reader_attr(r, i, &k, &v) != EVREC_OK) {
            continue;
        }
        cli_buf_puts(&b, i == 0 ? "attributes:  " : "             ");
        cli_buf_puts(&b, k);
        cli_buf_puts(&b, " = ");
        cli_buf_name(&b, v);
        cli_buf_putc(&b, '\n');
        print_line(&b);
    }
    cli_buf_free(&b);
}

/* The record counts: records, drops, overwritten, lanes. */
static void print_counts(const evrec_reader_t *r, const evrec_file_info_t *fi, const evrec_reader_summary_t *s)
{
    printf("records:     %llu", (unsigned long long)s->records);
    if (s->unverified) {
        printf(" (%llu unverified: in a truncated chunk)", (unsigned long long)s->unverified);
    }
    if (fi->format == EVREC_FILE_CONTAINER) {
        printf("; header: %llu recorded\n", (unsigned long long)fi->recorded);
        printf("dropped:     %llu%s\n", (unsigned long long)fi->dropped,
               fi->dropped ? " (trace buffer full)" : "");
        if (fi->flags & 1u) {
            printf("overwritten: %llu%s\n", (unsigned long long)fi->overwritten,
                   fi->overwritten == UINT32_MAX ? " or more (the header's count saturated)"
                   : fi->overwritten ? " (oldest records overwritten by newer ones in the cyclic buffer)"
                                     : "");
        }
        if (fi->lanes > 1) {
            /* a recording split into lanes (FORMAT.md section 2.3): one line per lane */
            printf("lanes:       %u (merged by time into one stream)\n", (unsigned)fi->lanes);
            for (uint32_t k = 0; k < fi->lanes; k++) {
                evrec_lane_info_t li;
                if (evrec_reader_lane(r, k, &li) == EVREC_OK) {
                    printf("  lane %-4u  %llu records, %llu dropped", (unsigned)k, (unsigned long long)li.records,
                           (unsigned long long)li.dropped);
                    if (fi->flags & 1u) {
                        printf(", %llu overwritten", (unsigned long long)li.overwritten);
                    }
                    printf("\n");
                }
            }
        }
    } else {
        printf("\ndropped:     unknown (CCore files do not count drops)\n");
    }
}

/* Duration and the first and last raw stamps. */
static void print_times(const evrec_reader_summary_t *s)
{
    cli_buf_t b = {0};
    if (s->records) {
        if (s->time_freq) {
            cli_buf_puts(&b, "duration:    ");
            cli_buf_seconds(&b, s->last_ns, 0);
            cli_buf_puts(&b, " s (");
            cli_buf_u64(&b, s->last_t64);
            cli_buf_puts(&b, " ticks)\n");
        } else {
            cli_buf_puts(&b, "duration:    ");
            cli_buf_u64(&b, s->last_t64);
            cli_buf_puts(&b, " ticks\n");
        }
        cli_buf_puts(&b, "first time:  ");
        cli_buf_hex(&b, s->first_time32, 8);
        cli_buf_puts(&b, " (raw 32-bit) = 0 s\nlast time:   ");
        cli_buf_hex(&b, s->last_time32, 8);
        cli_buf_puts(&b, " (raw 32-bit) = ");
        if (s->time_freq) {
            cli_buf_seconds(&b, s->last_ns, 0);
            cli_buf_puts(&b, " s\n");
        } else {
            cli_buf_u64(&b, s->last_t64);
            cli_buf_puts(&b, " ticks\n");
        }
        print_line(&b);
    }
    cli_buf_free(&b);
}

/* "damage:" lines: intact, or the reader's damaged ranges (20 at most). */
static void print_damage(const evrec_reader_t *r, const evrec_reader_summary_t *s)
{
    if (s->damage.status == EVREC_OK) {
        printf("damage:      intact\n");
    } else if (evrec_reader_damage_count(r) == 0) {
        printf("damage:      offset %llu: %s\n", (unsigned long long)s->damage.offset, s->damage.message);
    } else {
        const evrec_damage_t *d;
        for (uint64_t i = 0; (d = evrec_reader_damage(r, i)) != NULL && i < 20u; i++) {
            printf("%s offset %llu: %s", i ? "            " : "damage:     ", (unsigned long long)d->offset,
                   d->message);
            if (d->records_lost != UINT64_MAX && d->records_lost > 0) {
                printf(" (%llu record%s lost)", (unsigned long long)d->records_lost,
                       d->records_lost == 1 ? "" : "s");
            }
            putchar('\n');
        }
        if (evrec_reader_damage_count(r) > 20u) {
            printf("             %llu more damaged ranges\n",
                   (unsigned long long)(evrec_reader_damage_count(r) - 20u));
        }
    }
}

static int run(int argc, char **argv)
{
    info_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) {
        return rc;
    }
    evrec_reader_t *r = cli_open_reader(o.path, &o.ropt);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    evrec_reader_summary_t s;
    if (evrec_reader_summarize(r, &s) != EVREC_OK) {
        cli_error("%s: out of memory", o.path);
        evrec_reader_close(r);
        return CLI_BAD_INPUT;
    }
    const evrec_file_info_t *fi = evrec_reader_info(r);
    cli_losses_headline(r); /* a lossy recording says so first */
    print_file(o.path, fi, &s);
    print_attrs(r);
    print_events(r, &s);
    cli_print_tracks(r);
    print_counts(r, fi, &s);
    cli_losses_detail(r);
    printf("ticks:       %llu\n", (unsigned long long)s.ticks);
    print_times(&s);
    print_damage(r, &s);
    int result = CLI_OK;
    if (!cli_stdout_done(1)) {
        result = CLI_BAD_INPUT;
    }
    if (s.damage.status != EVREC_OK) {
        cli_report_reader_error(o.path, r);
        result = CLI_BAD_INPUT;
    }
    evrec_reader_close(r);
    return result;
}

const cli_command_t cli_cmd_info = {
    "info",
    "summary: format, clock, schema hash, event types and counts, duration, damage",
    help,
    run,
};
