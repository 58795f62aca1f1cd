/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the `evrec` stream decoders in process (viewer-cli/cli/main.c's cli_main()): the
 * input as a QS stream (qs-decode, QSPY text and an evrec file out) and as a SyS-T stream
 * (syst-decode, binary and text framing, an evrec file out), against the meta-info of a fixed
 * recording and of a fixed schema. Each command must return 0, 1 or 2 and leave nothing behind
 * (ASan, UBSan and LSan watch). */
#include "cli_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_cli_input("input.stream", data, size);
    if (!in) {
        return 0;
    }
    const char *meta = fuzz_cli_src("tests/fuzz/corpus/cli_tracks/demo-2-frames.evr");
    const char *schema = fuzz_cli_src("examples/demo/demo.yaml");
    fuzz_cli_run("qs-decode", "--meta", meta, "--max-errors", "50", "-o", fuzz_cli_out("q.evr"), in, NULL);
    fuzz_cli_run("qs-decode", "--schema", schema, "--qspy", "--classes", "--enum-as", "strings", in, NULL);
    fuzz_cli_run("syst-decode", "--meta", meta, "-o", fuzz_cli_out("s.evr"), in, NULL);
    fuzz_cli_run("syst-decode", "--schema", schema, "--text", "--time-freq", "1M", in, NULL);
    fuzz_cli_run("syst-decode", "--schema", schema, "--binary", "--max-errors", "3", in, NULL);
    fuzz_cli_clean();
    return 0;
}
