/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the `evrec` viewing commands in process (viewer-cli/cli/main.c's cli_main()) on
 * one input file, container or bare CCore stream: info; dump plain, with every display option,
 * in time order, and with selections (event, class, --where on EventControl's field, a record
 * and a time window, a limit); stats as text and JSON; timeline to PNG and SVG; schema; check
 * against a fixed schema. Each command must return 0, 1 or 2 and leave nothing behind (ASan,
 * UBSan and LSan watch). */
#include "cli_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_cli_input("input.evr", data, size);
    if (!in) {
        return 0;
    }
    fuzz_cli_run("info", in, NULL);
    fuzz_cli_run("info", "--tick-hz", "1k", in, NULL);
    fuzz_cli_run("dump", in, NULL);
    fuzz_cli_run("dump", "--hex", "--offsets", "--index", "--time-freq", "1e6", in, NULL);
    fuzz_cli_run("dump", "--raw", "--time-order", in, NULL);
    fuzz_cli_run("dump", "--event", "EventControl", "--where", "type == Tick or not (type != Start)", "--from",
                 "#2", "--to", "50ms", "-n", "40", in, NULL);
    fuzz_cli_run("dump", "--class", "EventControl", "--from", "1us", "--time-order", in, NULL);
    fuzz_cli_run("stats", in, NULL);
    fuzz_cli_run("stats", "--format", "json", "--top", "3", in, NULL);
    fuzz_cli_run("timeline", "--width", "400", "--height", "300", "-o", fuzz_cli_out("t.png"), in, NULL);
    fuzz_cli_run("timeline", "--dark", "--from", "#1", "-o", fuzz_cli_out("t.svg"), in, NULL);
    fuzz_cli_run("schema", "-o", fuzz_cli_out("s.yaml"), in, NULL);
    fuzz_cli_run("check", "--schema", fuzz_cli_src("examples/demo/demo.yaml"), in, NULL);
    fuzz_cli_clean();
    return 0;
}
