/* SPDX-License-Identifier: Apache-2.0 */
/* Tracks, spans and counters through the CLI: `evrec info` lists them, `evrec schema` gives them
 * back so that the schema loads with the file's hash, and `evrec check` names each difference.
 * The recording is made with the tables of a base schema (evrec_schema library, real recorder). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "cli_schema_file.h"
#include "evrec/evrec_recorder.h"
#include "evrec/evrec_save.h"
#include "evrec/evrec_schema.h"

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))

static const char base_yaml[] = "# SPDX-License-Identifier: Apache-2.0\n"
                                "schema: lanes\n"
                                "version: 1.0\n"
                                "enums:\n"
                                "  - name: Task\n"
                                "    type: uint8\n"
                                "    values: [Idle, Main]\n"
                                "  - name: Op\n"
                                "    type: uint8\n"
                                "    values: [Begin, End]\n"
                                "structs:\n"
                                "  - name: Job\n"
                                "    fields:\n"
                                "      - {name: number, type: uint32}\n"
                                "      - {name: depth, type: uint16, counter: true}\n"
                                "events:\n"
                                "  - name: Work\n"
                                "    track: task\n"
                                "    fields:\n"
                                "      - {name: task, type: Task}\n"
                                "      - {name: op, type: Op}\n"
                                "      - {name: job, type: Job}\n"
                                "  - name: Note\n"
                                "    class: Work\n"
                                "    fields:\n"
                                "      - {name: task, type: Task}\n"
                                "      - {name: level, type: uint8}\n"
                                "spans:\n"
                                "  - name: Busy\n"
                                "    begin: {event: Work, field: op, value: Begin}\n"
                                "    end: {event: Work, field: op, value: End}\n"
                                "    key: job.number\n"
                                "    track: task\n"
                                "  - name: Noted\n"
                                "    begin: Note\n"
                                "    end: Work\n"
                                "    key: task\n";

static char *dir;
static char *evr;
static uint64_t file_hash;

static void setup(void)
{
    dir = cli_temp_dir("view");
    cr_assert_not_null(dir);
    evr = cli_schema_recording(dir, "lanes", base_yaml, &file_hash);
}

static void teardown(void)
{
    free(dir);
    free(evr);
}

TestSuite(cli_tracks, .init = setup, .fini = teardown);

Test(cli_tracks, info_lists_them)
{
    cli_run_t r = cli_run(EVREC_CLI_PATH, "info", evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    assert_has(r.out, "\ntracks:      2\n  Work: task\n  Note: task\n");
    assert_has(r.out, "\nspans:       2\n  Busy: Work op=Begin [key job.number] -> Work op=End [key job.number], "
                      "track task\n  Noted: Note [key task] -> Work [key task]\n");
    assert_has(r.out, "\ncounters:    1\n  Job.depth\n");
    cli_run_free(&r);
}

Test(cli_tracks, schema_round_trip_keeps_the_hash)
{
    char out[4096];
    snprintf(out, sizeof out, "%s/back.yaml", dir);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "schema", "--name", "lanes", "-o", out, evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(r.err_len, 0, "no note expected:\n%s", r.err);
    cli_run_free(&r);
    char *text = cli_read_file(out, NULL);
    cr_assert_not_null(text);
    assert_has(text, "  - name: Note\n    class: Work\n    track: task\n");
    assert_has(text, "{name: depth, type: uint16, counter: true}");
    assert_has(text, "spans:\n  - name: Busy\n    begin: {event: Work, field: op, value: Begin}\n"
                     "    end: {event: Work, field: op, value: End}\n    key: job.number\n    track: task\n");
    evrec_schema_t *s = NULL;
    cr_assert_eq(evrec_schema_load(&s, out, stderr), EVREC_OK);
    cr_assert_eq(evrec_schema_meta(s)->schema_hash, file_hash);
    evrec_schema_free(s);
    free(text);
    r = cli_run(EVREC_CLI_PATH, "check", evr, "--schema", out, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cli_run_free(&r);
}

/* The base schema with `from` replaced by `to` (once), checked: exit 1 and these lines. */
static void expect(const char *tag, const char *from, const char *to, int n, const char *const *lines)
{
    const char *at = strstr(base_yaml, from);
    cr_assert_not_null(at, "%s: <%s> not in the base schema", tag, from);
    cr_assert_null(strstr(at + 1, from), "%s: <%s> occurs twice", tag, from);
    size_t len = sizeof base_yaml + strlen(to);
    char *text = malloc(len);
    snprintf(text, len, "%.*s%s%s", (int)(at - base_yaml), base_yaml, to, at + strlen(from));
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, tag);
    cr_assert_eq(cli_write_file(path, text), 0);
    free(text);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "check", evr, "--schema", path, (const char *)NULL);
    cr_assert_eq(r.status, 1, "%s: exit %d\n%s%s", tag, r.status, r.out, r.err);
    char count[64];
    snprintf(count, sizeof count, "; %d difference%s:\n", n, n == 1 ? "" : "s");
    cr_assert(strstr(r.out, count), "%s: expected %d differences:\n%s", tag, n, r.out);
    for (const char *const *l = lines; *l; l++) {
        char want[1024];
        snprintf(want, sizeof want, "\n  %s\n", *l);
        cr_assert(strstr(r.out, want), "%s: missing line <%s> in:\n%s", tag, *l, r.out);
    }
    cli_run_free(&r);
}

#define LINES(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(cli_tracks, track_changed_removed_added)
{
    /* Note has no field `op`: it no longer gets its class's track. */
    expect("track-changed", "    track: task\n    fields:\n      - {name: task, type: Task}\n      - {name: op",
           "    track: op\n    fields:\n      - {name: task, type: Task}\n      - {name: op", 2,
           LINES("event Work: track op in the schema, task in the file (track changed)",
                 "event Note: track task in the file, none in the schema (track added)"));
    expect("track-removed", "  - name: Work\n    track: task\n", "  - name: Work\n", 2,
           LINES("event Work: track task in the file, none in the schema (track added)",
                 "event Note: track task in the file, none in the schema (track added)"));
}

Test(cli_tracks, span_changed_added_removed_reordered)
{
    expect("span-value", "    end: {event: Work, field: op, value: End}\n",
           "    end: {event: Work, field: op, value: Begin}\n", 1,
           LINES("span Busy: Work op=Begin [key job.number] -> Work op=Begin [key job.number], track task in "
                 "the schema, Work op=Begin [key job.number] -> Work op=End [key job.number], track task in "
                 "the file (span changed)"));
    expect("span-renamed", "  - name: Noted\n", "  - name: Remarked\n", 2,
           LINES("span Remarked: Note [key task] -> Work [key task] in the schema, not in the file (span removed)",
                 "span Noted: Note [key task] -> Work [key task] in the file, not in the schema (span added)"));
    expect("span-order",
           "  - name: Busy\n    begin: {event: Work, field: op, value: Begin}\n    end: {event: Work, field: op, "
           "value: End}\n    key: job.number\n    track: task\n  - name: Noted\n    begin: Note\n    end: Work\n"
           "    key: task\n",
           "  - name: Noted\n    begin: Note\n    end: Work\n    key: task\n  - name: Busy\n    begin: {event: "
           "Work, field: op, value: Begin}\n    end: {event: Work, field: op, value: End}\n    key: job.number\n"
           "    track: task\n",
           2, LINES("span Noted is span 0 in the schema, 1 in the file (order changed)"));
}

Test(cli_tracks, counter_added_removed)
{
    expect("counter-removed", "{name: depth, type: uint16, counter: true}", "{name: depth, type: uint16}", 1,
           LINES("counter Job.depth: in the file, not in the schema (counter added)"));
    expect("counter-added", "{name: level, type: uint8}", "{name: level, type: uint8, counter: true}", 1,
           LINES("counter Note.level: in the schema, not in the file (counter removed)"));
}

/* Tables the language cannot say: an event without a track whose class's track path it has
 * (evrec-gen would give it that track). evrec_schema_to_yaml() notes it. */
Test(cli_tracks, yaml_notes_a_track_the_class_would_give)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/lanes.yaml", dir);
    evrec_schema_t *s = NULL;
    cr_assert_eq(evrec_schema_load(&s, path, stderr), EVREC_OK);
    evrec_meta_t meta = *evrec_schema_meta(s);
    evrec_tracks_t view = *meta.tracks;
    cr_assert_eq(view.track_count, 2);
    view.track_count = 1; /* Work's only: Note (class Work, has `task`) loses its track */
    meta.tracks = &view;
    evrec_yaml_options_t opt = {"lanes", NULL, NULL, NULL, 0};
    evrec_yaml_t y;
    cr_assert_eq(evrec_schema_to_yaml(&meta, &opt, &y), EVREC_OK);
    cr_assert_eq(y.note_count, 1);
    assert_has(y.notes[0], "event Note has no track, but its class's track task names a field of it too");
    evrec_yaml_free(&y);
    meta.tracks = evrec_schema_meta(s)->tracks;
    cr_assert_eq(evrec_schema_to_yaml(&meta, &opt, &y), EVREC_OK);
    cr_assert_eq(y.note_count, 0);
    evrec_yaml_free(&y);
    evrec_schema_free(s);
}
