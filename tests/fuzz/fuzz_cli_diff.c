/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: `evrec diff` in process (viewer-cli/diff). The first byte of the input chooses:
 * even, the rest is a budget file (--budget FILE.yaml: a YAML mapping of 'KIND NAME METRIC:
 * LIMIT' rules) applied to a fixed demo recording against itself, as text and as JSON; odd, the
 * rest is recording B, compared with the fixed recording A both ways and with itself, in every
 * output format and with a --max rule. Each command must return 0, 1 or 2 (ASan, UBSan and LSan
 * watch). */
#include "cli_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    const char *a = fuzz_cli_src("tests/fuzz/corpus/seek/demo-index-attrs.bin");
    if (data[0] % 2u == 0) {
        const char *budget = fuzz_cli_input("budget.yaml", data + 1, size - 1u);
        if (budget) {
            fuzz_cli_run("diff", "--budget", budget, a, a, NULL);
            fuzz_cli_run("diff", "--format", "json", "--budget", budget, a, a, NULL);
        }
    } else {
        const char *b = fuzz_cli_input("b.evr", data + 1, size - 1u);
        if (b) {
            fuzz_cli_run("diff", a, b, NULL);
            fuzz_cli_run("diff", "--format", "json", b, a, NULL);
            fuzz_cli_run("diff", "--format", "markdown", "--max", "span FrameStage p99: +5%", b, b, NULL);
            fuzz_cli_run("diff", "--span", "FrameStage", "--event", "FrameEvent", "--tick-hz", "10", a, b, NULL);
        }
    }
    fuzz_cli_clean();
    return 0;
}
