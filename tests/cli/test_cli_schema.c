/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec schema FILE`: the recording of tests/gen/pass/full (a schema with an include, run-time
 * enums, classes, a reused struct, formats, units, descriptions) comes back as YAML that
 * evrec-gen accepts and whose tables have the file's schema hash; `evrec check` agrees. Also the
 * bare CCore stream of the same recording, and CCore's own ref.bin, as far as they allow. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "demo_events.h"
#include "evrec/evrec_save.h"

#define FULL_YAML GEN_TEST_DIR "/pass/full/full.yaml"
#define REF_PATH EVREC_TEST_DATA "/ccore/ref.bin"

#define assert_has(hay, needle) cr_assert(strstr((hay), (needle)) != NULL, "missing <%s> in:\n%s", (needle), (hay))

#include "../common/mem_sink.h"

/* Every event type of the full schema, with run-time names, saved to dir/name. */
static char *record_full(const char *dir, const char *name, int bare)
{
    static _Alignas(8) unsigned char trace[4096];
    evrec_host_t host;
    evrec_recorder_t rec;
    cr_assert_eq(demo_runtime_init(), EVREC_OK);
    cr_assert_eq(evrec_recorder_init(&rec, trace, sizeof trace), EVREC_OK);
    evrec_host_init(&host);
    cr_assert_eq(evrec_host_start(&host, &rec, &demo_meta, demo_meta.time_freq), EVREC_OK);
    demo_TaskId_t t1, t2;
    demo_Channel_t usb;
    cr_assert_eq(demo_TaskId_alloc("main", &t1), EVREC_OK);
    cr_assert_eq(demo_TaskId_alloc("worker", &t2), EVREC_OK);
    cr_assert_eq(demo_Channel_alloc("usb", &usb), EVREC_OK);
    demo_record_TaskSwitch(&host, t1, t2, demo_TaskState_Blocked);
    demo_record_IsrEnter(&host, 7);
    demo_record_IsrExit(&host, 7, 1234);
    demo_record_PhaseChange(&host, demo_Phase_Busy);
    demo_record_Sent(&host, (demo_Packet_t){usb, 12, {3, 4}, 0xBEEF}, 0x20000100u);
    demo_record_Fault(&host, demo_ErrorCode_Timeout, 0x08000F00u, 3, 0x5A);
    demo_record_Heartbeat(&host);
    cr_assert_eq(evrec_host_stop(&host, NULL), EVREC_OK);
    mem_t m = {0};
    evrec_sink_t sink = {mem_write, &m};
    evrec_save_options_t opt = {0, bare};
    cr_assert_eq(evrec_save_ex(&rec, &sink, &opt), EVREC_OK);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(m.data, 1, m.len, f), m.len);
    fclose(f);
    free(m.data);
    return path;
}

/* Run evrec-gen on dir/yaml into dir/gen; returns NAME_SCHEMA_HASH of the generated header. */
static uint64_t generate(const char *dir, const char *yaml, const char *name)
{
    char gen[4096], hdr[8192];
    snprintf(gen, sizeof gen, "%s/gen", dir);
    const char *argv[] = {EVREC_GEN_EXE, yaml, "-o", gen, NULL};
    cli_run_t mk = cli_run("/bin/mkdir", "-p", gen, (const char *)NULL);
    cli_run_free(&mk);
    cli_run_t r = cli_run_argv(dir, argv);
    cr_assert_eq(r.status, 0, "evrec-gen refuses %s/%s:\n%s", dir, yaml, r.err);
    cli_run_free(&r);
    snprintf(hdr, sizeof hdr, "%s/%s_events.h", gen, name);
    char *h = cli_read_file(hdr, NULL);
    cr_assert_not_null(h, "%s", hdr);
    char key[256];
    snprintf(key, sizeof key, "#define %s_SCHEMA_HASH UINT64_C(0x", name);
    char *p = strstr(h, key);
    cr_assert_not_null(p);
    uint64_t hash = strtoull(p + strlen(key), NULL, 16);
    free(h);
    return hash;
}

Test(cli_schema, full_schema_round_trip_keeps_the_hash)
{
    char *dir = cli_temp_dir("schema-full");
    char *evr = record_full(dir, "full.evr", 0);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "schema", "-o", "/nonexistent-dir/full.yaml", evr, (const char *)NULL);
    cr_assert_eq(r.status, 1, "an output that cannot be written");
    assert_has(r.err, "evrec: /nonexistent-dir/full.yaml: cannot write");
    cli_run_free(&r);
    char out[4096];
    snprintf(out, sizeof out, "%s/rt.yaml", dir);
    r = cli_run(EVREC_CLI_PATH, "schema", "--name", "demo", "--version", "1.0", "-o", out, evr,
                (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(r.err_len, 0, "no note expected:\n%s", r.err);
    cli_run_free(&r);
    /* rtos.yaml's events come before full.yaml's reusable structs: two files. */
    char *top = cli_read_file(out, NULL);
    char part[4096];
    snprintf(part, sizeof part, "%s/rt.part1.yaml", dir);
    char *p1 = cli_read_file(part, NULL);
    cr_assert_not_null(top);
    cr_assert_not_null(p1, "no part file");
    assert_has(top, "schema: demo\nversion: 1.0\ntime_freq: 1000000\ninclude:\n  - rt.part1.yaml\n");
    assert_has(p1, "  - name: TaskId\n    type: uint16\n    values:\n      - {name: Idle, value: 0}\n"
                   "    runtime: {base: 1, lim: 64, marker: None}\n");
    /* IsrExit takes its class's track (class default), written explicitly. */
    assert_has(
        p1,
        "  - name: IsrExit\n    class: IsrEnter\n    track: irq\n    fields:\n      - {name: irq, type: uint8}\n"
        "      - {name: cycles, type: uint32, unit: \"cycles\", description: \"Time spent in the "
        "handler.\"}\n");
    assert_has(p1, "{name: Timeout, value: 2147483647, marker: Error}");
    assert_has(p1, "runtime: {base: 100, lim: 110, marker: Inc}");
    assert_has(top, "structs:\n  - name: Point\n    fields:\n      - {name: x, type: uint16, unit: \"px\"}\n");
    assert_has(top, "      - {name: origin, type: Point}\n      - {name: crc, type: uint32, format: hex}\n");
    assert_has(top, "  - name: Sent\n    class: PhaseChange\n");
    assert_has(top, "{name: buffer, type: uint32, format: address, description: \"Where the bytes were.\"}");
    assert_has(top, "{name: count, type: uint16, format: decimal, counter: true}");
    assert_has(top, "  - name: Heartbeat\n");
    /* Tracks, spans and counters come back (spans in the top-level file: they name any event). */
    assert_has(top, "  - name: Sent\n    class: PhaseChange\n    track: packet.channel\n");
    assert_has(top, "{name: length, type: uint8, unit: \"bytes\", counter: true, series: channel}");
    assert_has(top, "spans:\n  - name: TaskRunning\n    begin: {event: TaskSwitch, key: to}\n"
                    "    end: {event: TaskSwitch, key: from}\n");
    assert_has(top, "  - name: IsrActive\n    begin: IsrEnter\n    end: IsrExit\n    key: irq\n");
    assert_has(top, "  - name: Transfer\n    begin: {event: Sent, field: packet.length, value: 64}\n"
                    "    end: {event: Fault, field: level, value: 3}\n    track: packet.origin.x\n");
    /* evrec-gen accepts it and computes the file's hash. */
    cr_assert_eq(generate(dir, "rt.yaml", "demo"), demo_SCHEMA_HASH);
    /* evrec check agrees, against the original schema and against the recovered one. */
    r = cli_run(EVREC_CLI_PATH, "check", evr, "--schema", FULL_YAML, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    assert_has(r.out, "matches schema demo");
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "check", "--schema", out, evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cli_run_free(&r);
    /* Without -o, two files cannot be written: a usage error naming -o. */
    r = cli_run(EVREC_CLI_PATH, "schema", evr, (const char *)NULL);
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "takes 2 files");
    cli_run_free(&r);
    free(top);
    free(p1);
    free(evr);
    free(dir);
}

/* The second round: the recovered schema's own code gives back the same YAML, byte for byte, is
 * tested by tests/gen/test_gen_property.c; here the bare CCore stream, which loses the run-time
 * ranges and the display attributes. */
Test(cli_schema, bare_ccore_stream_says_what_is_lost)
{
    char *dir = cli_temp_dir("schema-bare");
    char *evr = record_full(dir, "bare.bin", 1);
    char out[4096];
    snprintf(out, sizeof out, "%s/bare.yaml", dir);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "schema", "--name", "demo", "-o", out, evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_run_free(&r);
    char *top = cli_read_file(out, NULL);
    assert_has(top, "# A bare CCore stream carries no run-time enum ranges");
    assert_has(top, "version: 0\n");
    /* The names given while recording are ordinary values now. */
    char part[4096];
    snprintf(part, sizeof part, "%s/bare.part1.yaml", dir);
    char *p1 = cli_read_file(part, NULL);
    cr_assert_not_null(p1);
    assert_has(p1, "{name: main, value: 1}");
    assert_has(p1, "{name: usb, value: 100, marker: Inc}");
    cr_assert_null(strstr(p1, "runtime:"));
    cr_assert_null(strstr(top, "format:"));
    /* evrec-gen accepts it; its hash is the one of the bare file's tables, not the schema's. */
    uint64_t h = generate(dir, "bare.yaml", "demo");
    cr_assert_neq(h, demo_SCHEMA_HASH);
    /* `evrec check` of the bare stream against the real schema: the run-time names fold back. */
    r = cli_run(EVREC_CLI_PATH, "check", "--schema", FULL_YAML, evr, (const char *)NULL);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    assert_has(r.out, "a bare CCore stream has no hash");
    cli_run_free(&r);
    free(top);
    free(p1);
    free(evr);
    free(dir);
}

/* CCore's own file: EventControlType is enum 1 there, which a schema cannot say; everything else
 * comes back, and `evrec check` names exactly that difference. */
Test(cli_schema, ccore_ref_bin_as_far_as_possible)
{
    char *dir = cli_temp_dir("schema-ref");
    char out[4096];
    snprintf(out, sizeof out, "%s/ref.yaml", dir);
    cli_run_t r = cli_run(EVREC_CLI_PATH, "schema", REF_PATH, "-o", out, (const char *)NULL);
    /* The YAML is written, but the note changes the hash: exit 1. */
    cr_assert_eq(r.status, 1, "%s", r.err);
    assert_has(r.err, "note: EventControlType is enum 1 in the tables; evrec-gen makes it enum 0");
    assert_has(r.err, "evrec-gen would refuse this schema or make tables with another schema hash than "
                      "0xc7bbf3bdf6b59a03 (1 note above)");
    cli_run_free(&r);
    char *y = cli_read_file(out, NULL);
    assert_has(y, "schema: ref\n");
    assert_has(y, "time_freq: 1000000\n");
    assert_has(y, "# NOTE: EventControlType is enum 1 in the tables");
    assert_has(y, "  - name: ObjNumber\n    type: uint16\n");
    assert_has(y, "{name: ObjA, value: 10, marker: Push}");
    assert_has(y, "structs:\n  - name: Inner\n    fields:\n      - {name: a, type: uint8}\n"
                  "      - {name: b, type: uint32}\n");
    assert_has(y, "  - name: NestEvent\n    class: ObjEvent\n    fields:\n      - {name: obj, type: ObjNumber}\n"
                  "      - {name: inner, type: Inner}\n");
    generate(dir, "ref.yaml", "ref");
    r = cli_run(EVREC_CLI_PATH, "check", "--schema", out, REF_PATH, (const char *)NULL);
    cr_assert_eq(r.status, 1);
    assert_has(r.out, "2 differences:\n"
                      "  enum EventControlType is id 0 in the schema, id 1 in the file (order changed)\n"
                      "  enum ObjNumber is id 1 in the schema, id 0 in the file (order changed)\n");
    cli_run_free(&r);
    /* To stdout when one file suffices. */
    r = cli_run(EVREC_CLI_PATH, "schema", "--name", "ccore_ref", REF_PATH, (const char *)NULL);
    cr_assert_eq(r.status, 1); /* the note, as above */
    assert_has(r.out, "schema: ccore_ref\n");
    cli_run_free(&r);
    free(y);
    free(dir);
}

Test(cli_schema, usage_and_unreadable_input)
{
    cli_run_t r = cli_run(EVREC_CLI_PATH, "schema", (const char *)NULL);
    cr_assert_eq(r.status, 2);
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "schema", "--name", "1abc", REF_PATH, (const char *)NULL);
    cr_assert_eq(r.status, 2);
    assert_has(r.err, "--name expects a C identifier");
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "schema", "--version", "v1", REF_PATH, (const char *)NULL);
    cr_assert_eq(r.status, 2);
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "schema", "/nonexistent.evr", (const char *)NULL);
    cr_assert_eq(r.status, 1);
    assert_has(r.err, "evrec: /nonexistent.evr: cannot open");
    cli_run_free(&r);
    r = cli_run(EVREC_CLI_PATH, "schema", "--help", (const char *)NULL);
    cr_assert_eq(r.status, 0);
    assert_has(r.out, "usage: evrec schema");
    cli_run_free(&r);
}
