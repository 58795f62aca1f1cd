/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: `evrec recover` in process (viewer-cli/cli/main.c's cli_main()) on an arbitrary
 * memory image: with the image's own meta-info and with that of a fixed recording, then `info`
 * and `dump` on what it wrote. Each command must return 0, 1 or 2 and leave nothing behind
 * (ASan, UBSan and LSan watch). */
#include "cli_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_cli_input("input.img", data, size);
    if (!in) {
        return 0;
    }
    const char *out = fuzz_cli_out("r.evr");
    if (fuzz_cli_run("recover", "-o", out, in, NULL) == 0) {
        fuzz_cli_run("info", out, NULL);
        fuzz_cli_run("dump", out, NULL);
    }
    fuzz_cli_run("recover", "--meta", fuzz_cli_src("tests/data/ccore/ref.bin"), "-o", fuzz_cli_out("m.evr"), in,
                 NULL);
    fuzz_cli_clean();
    return 0;
}
