/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec export --ctf DIR FILE` (a driver: babeltrace2 reads the recording itself, so CTF is no
 * pipeline sink): a CTF 1.8 trace of a recording, written by babeltrace2's
 * sink.ctf.fs from the evrec source component, in one in-process babeltrace2 graph. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "cli_export_ctf.h"

#ifdef EVREC_HAVE_CTF
#include <babeltrace2/babeltrace.h>

#include "evrec_bt_source.h"
#endif

#ifndef EVREC_HAVE_CTF

int cli_export_ctf(const char *in_path, const char *out_dir, const cli_export_ctf_options_t *opt)
{
    (void)in_path;
    (void)out_dir;
    (void)opt;
    cli_error("export --ctf: this evrec was built without CTF support (libbabeltrace2 was missing, "
              "Debian: libbabeltrace2-dev, or CMake option EVREC_WITH_CTF was OFF)");
    return CLI_BAD_INPUT;
}

#else

/* DIR must be absent (then created: *created = 1) or an empty directory. */
static int prepare_dir(const char *dir, int *created)
{
    struct stat sb;
    *created = 0;
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode)) {
            cli_error("%s: exists and is not a directory; give a new or empty directory", dir);
            return -1;
        }
        DIR *d = opendir(dir);
        if (!d) {
            cli_error("%s: cannot read the directory: %s", dir, strerror(errno));
            return -1;
        }
        struct dirent *e;
        int empty = 1;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                empty = 0;
                break;
            }
        }
        closedir(d);
        if (!empty) {
            cli_error("%s: the directory is not empty; give a new or empty directory (nothing was written)", dir);
            return -1;
        }
        if (access(dir, W_OK) != 0) {
            cli_error("%s: cannot write into the directory: %s", dir, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (errno != ENOENT) {
        cli_error("%s: %s", dir, strerror(errno));
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        cli_error("%s: cannot create the directory: %s", dir, strerror(errno));
        return -1;
    }
    *created = 1;
    return 0;
}

/* sink.ctf.fs writes a single trace only into a directory that it creates itself: it writes into
 * DIR/TMP_NAME, whose files then move up into DIR. */
#define TMP_NAME ".evrec-ctf-partial"

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) {
        cli_error("out of memory");
        exit(CLI_BAD_INPUT);
    }
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Move the files of `tmp` into `dir` (never over an existing file: link, then unlink), then
 * remove `tmp`. 0 on success. */
static int move_up(const char *tmp, const char *dir)
{
    DIR *d = opendir(tmp);
    if (!d) {
        cli_error("%s: %s", tmp, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        char *from = join(tmp, e->d_name), *to = join(dir, e->d_name);
        if (link(from, to) != 0 || unlink(from) != 0) {
            cli_error("%s: cannot move it to %s: %s", from, to, strerror(errno));
            rc = -1;
        }
        free(from);
        free(to);
    }
    closedir(d);
    if (rc == 0 && rmdir(tmp) != 0) {
        cli_error("%s: cannot remove: %s", tmp, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* After a failure: remove what this run wrote (the files in `tmp`, `tmp`, and `dir` when this
 * run created it). Returns 1 when nothing is left. */
static int clean_up(const char *tmp, const char *dir, int created)
{
    DIR *d = opendir(tmp);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                char *p = join(tmp, e->d_name);
                unlink(p);
                free(p);
            }
        }
        closedir(d);
        if (rmdir(tmp) != 0) {
            return 0;
        }
    }
    if (created && rmdir(dir) != 0) {
        return 0;
    }
    return 1;
}

/* Logging level of the graph's components: none, unless EVREC_CTF_LOG_LEVEL names one (T, D, I,
 * W, E, F, N, as babeltrace2's --log-level): babeltrace2's own log lines then go to stderr. */
static bt_logging_level log_level(void)
{
    const char *s = getenv("EVREC_CTF_LOG_LEVEL");
    switch (s ? s[0] : 'N') {
    case 'T':
    case 't': return BT_LOGGING_LEVEL_TRACE;
    case 'D':
    case 'd': return BT_LOGGING_LEVEL_DEBUG;
    case 'I':
    case 'i': return BT_LOGGING_LEVEL_INFO;
    case 'W':
    case 'w': return BT_LOGGING_LEVEL_WARNING;
    case 'E':
    case 'e': return BT_LOGGING_LEVEL_ERROR;
    case 'F':
    case 'f': return BT_LOGGING_LEVEL_FATAL;
    default: return BT_LOGGING_LEVEL_NONE;
    }
}

/* babeltrace2's error of this thread, cause by cause (deepest first), then released. */
static void report_bt_error(const char *what)
{
    const bt_error *err = bt_current_thread_take_error();
    if (!err) {
        cli_error("export --ctf: %s", what);
        return;
    }
    uint64_t n = bt_error_get_cause_count(err);
    cli_error("export --ctf: %s:", what);
    for (uint64_t i = n; i-- > 0;) {
        const bt_error_cause *cause = bt_error_borrow_cause_by_index(err, i);
        const char *msg = bt_error_cause_get_message(cause);
        const char *mod = bt_error_cause_get_module_name(cause);
        /* One stderr line per line of the message, each with the "evrec: " prefix. */
        for (const char *p = msg; p && *p;) {
            const char *nl = strchr(p, '\n');
            int len = nl ? (int)(nl - p) : (int)strlen(p);
            cli_error("  %s: %.*s", mod ? mod : "babeltrace2", len, p);
            p = nl ? nl + 1 : NULL;
        }
    }
    bt_error_release(err);
}

static void summary(const char *dir, const char *file, const evrec_bt_stats_t *s, uint32_t window)
{
    printf("%s: CTF 1.8 trace of %s: %llu events, clock %llu Hz (%s)\n", dir, file, (unsigned long long)s->events,
           (unsigned long long)s->clock_freq,
           s->clock_ns ? "ns since the first record" : "ticks since the first record");
    if (s->dropped || s->overwritten || s->damage_lost || s->gaps ||
        (s->damage.status != EVREC_OK && !s->display_only && !s->resumed)) {
        printf("discarded events:");
        const char *sep = " ";
        if (s->dropped) {
            printf("%s%llu dropped (buffer full)", sep, (unsigned long long)s->dropped);
            sep = ", ";
        }
        if (s->overwritten) {
            printf("%s%llu overwritten (cyclic buffer)", sep, (unsigned long long)s->overwritten);
            sep = ", ";
        }
        if (s->gaps) {
            printf("%s%llu lost to damage in %llu gap%s (where reading resumed)", sep,
                   (unsigned long long)s->gap_lost, (unsigned long long)s->gaps, s->gaps == 1 ? "" : "s");
            sep = ", ";
        }
        if (s->damage.status != EVREC_OK && !s->display_only && !s->resumed) {
            if (s->damage_lost_known) {
                printf("%s%llu lost to damage", sep, (unsigned long long)s->damage_lost);
            } else {
                printf("%san unknown number lost to damage", sep);
            }
        }
        putchar('\n');
    }
    if (s->out_of_order) {
        printf("time order: %llu records stamped earlier than a record before them were put in order",
               (unsigned long long)s->out_of_order);
        if (s->clamped) {
            printf("; %llu beyond the reorder window (%u records) got the time of the record before them",
                   (unsigned long long)s->clamped, window);
        }
        putchar('\n');
    }
}

int cli_export_ctf(const char *in_path, const char *out_dir, const cli_export_ctf_options_t *opt)
{
    cli_export_ctf_options_t defaults;
    if (!opt) {
        memset(&defaults, 0, sizeof defaults);
        opt = &defaults;
    }
    /* The input first: a bad file is reported as every command reports it, before DIR exists. */
    evrec_reader_t *probe = cli_open_reader(in_path, &opt->clock);
    if (!probe) {
        return CLI_BAD_INPUT;
    }
    evrec_reader_close(probe);

    const bt_plugin *ctf = NULL;
    if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &ctf) != BT_PLUGIN_FIND_STATUS_OK) {
        bt_current_thread_clear_error();
        cli_error("export --ctf: babeltrace2's `ctf` plugin (sink.ctf.fs) was not found: install babeltrace2 "
                  "(Debian: libbabeltrace2-0), or name its directory in BABELTRACE_PLUGIN_PATH");
        return CLI_BAD_INPUT;
    }
    const bt_component_class_sink *sink_cls = bt_plugin_borrow_sink_component_class_by_name_const(ctf, "fs");
    if (!sink_cls) {
        bt_plugin_put_ref(ctf);
        cli_error("export --ctf: babeltrace2's `ctf` plugin has no sink.ctf.fs");
        return CLI_BAD_INPUT;
    }

    int created;
    if (prepare_dir(out_dir, &created)) {
        bt_plugin_put_ref(ctf);
        return CLI_BAD_INPUT;
    }

    int result = CLI_BAD_INPUT;
    char *tmp = join(out_dir, TMP_NAME);
    evrec_bt_stats_t stats;
    memset(&stats, 0, sizeof stats);
    evrec_bt_init_data_t init = {EVREC_BT_INIT_MAGIC, 1, &stats};
    bt_graph *g = bt_graph_create(0);
    bt_component_class_source *src_cls = evrec_bt_source_class_create();
    bt_value *sp = bt_value_map_create();
    bt_value *kp = bt_value_map_create();
    bt_value *inputs = NULL;
    const bt_component_source *src = NULL;
    const bt_component_sink *sink = NULL;
    const char *step = "out of memory";
    if (!g || !src_cls || !sp || !kp) {
        goto end;
    }
    if (bt_value_map_insert_empty_array_entry(sp, "inputs", &inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_value_array_append_string_element(inputs, in_path) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK ||
        (opt->clock.tick_hz && bt_value_map_insert_unsigned_integer_entry(sp, "tick-hz", opt->clock.tick_hz) !=
                                   BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) ||
        (opt->clock.time_freq &&
         bt_value_map_insert_unsigned_integer_entry(sp, "time-freq", opt->clock.time_freq) !=
             BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) ||
        (opt->reorder_window &&
         bt_value_map_insert_unsigned_integer_entry(sp, "reorder-window", opt->reorder_window) !=
             BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) ||
        bt_value_map_insert_string_entry(kp, "path", tmp) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_value_map_insert_bool_entry(kp, "assume-single-trace", BT_TRUE) !=
            BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_value_map_insert_bool_entry(kp, "quiet", BT_TRUE) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
        goto end;
    }
    /* Component logging off by default: every failure comes back as the thread's error, reported
     * below with the "evrec: " prefix. */
    bt_logging_level level = log_level();
    step = "cannot create the evrec source";
    if (bt_graph_add_source_component_with_initialize_method_data(g, src_cls, "evrec", sp, &init, level, &src) !=
        BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
        goto end;
    }
    step = "cannot create sink.ctf.fs";
    if (bt_graph_add_sink_component(g, sink_cls, "ctf", kp, level, &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
        goto end;
    }
    step = "cannot connect the evrec source to sink.ctf.fs";
    const bt_port_output *out = bt_component_source_borrow_output_port_by_index_const(src, 0);
    const bt_port_input *in = bt_component_sink_borrow_input_port_by_name_const(sink, "in");
    if (!out || !in || bt_graph_connect_ports(g, out, in, NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
        goto end;
    }
    step = "the conversion failed";
    bt_graph_run_status rs;
    do {
        rs = bt_graph_run(g);
    } while (rs == BT_GRAPH_RUN_STATUS_AGAIN);
    if (rs != BT_GRAPH_RUN_STATUS_OK) {
        /* babeltrace2's sink.ctf.fs (2.0.x) crashes in its finalization after a write failed (a
         * full disk): the failed graph is let go without finalizing it (this process ends soon
         * after); clean_up() below still removes the partial trace. */
        g = NULL;
        goto end;
    }
    /* Close the trace's files (the sink finishes them when the graph goes) before moving them. */
    bt_graph_put_ref(g);
    g = NULL;
    if (move_up(tmp, out_dir)) {
        cli_error("%s: the trace is in %s", out_dir, tmp);
        step = NULL;
        goto end;
    }
    step = NULL;
    result = CLI_OK;
    if (!opt->quiet) {
        summary(out_dir, in_path, &stats, opt->reorder_window ? opt->reorder_window : EVREC_BT_REORDER_WINDOW);
        if (!cli_stdout_done(1)) {
            result = CLI_BAD_INPUT;
        }
    }
    if (stats.damage.status != EVREC_OK) {
        const evrec_reader_error_t *e = &stats.damage;
        if (e->status == EVREC_E_IO && e->offset == 0) {
            cli_error("%s: %s", in_path, e->message);
        } else {
            cli_error("%s: offset %llu: %s", in_path, (unsigned long long)e->offset, e->message);
        }
        result = CLI_BAD_INPUT;
    }
end:
    if (step) {
        report_bt_error(step);
    }
    bt_value_put_ref(sp);
    bt_value_put_ref(kp);
    bt_graph_put_ref(g);
    bt_component_class_source_put_ref(src_cls);
    bt_plugin_put_ref(ctf);
    if (step) {
        /* Remove only what this run made: the partial trace, and DIR when this call created it. */
        if (clean_up(tmp, out_dir, created)) {
            cli_error("%s: nothing was written", out_dir);
        } else {
            cli_error("%s: an incomplete trace is left in %s", out_dir, tmp);
        }
    }
    free(tmp);
    return result;
}

#endif /* EVREC_HAVE_CTF */
