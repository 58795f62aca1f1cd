/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the `evrec` exports in process (viewer-cli/cli/main.c's cli_main()) on one input
 * file, container or bare CCore stream: export in every format (CSV, JSON Lines, CCore, Perfetto,
 * CTF; those built in) into a private temporary directory, with and without a selection; the
 * live encodings qs (every enum mode) and syst (binary, text, with collateral). Each command
 * must return 0, 1 or 2 and leave nothing behind (ASan, UBSan and LSan watch). */
#include "cli_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_cli_input("input.evr", data, size);
    if (!in) {
        return 0;
    }
    fuzz_cli_run("export", "--quiet", "--csv", fuzz_cli_out("o.csv"), in, NULL);
    fuzz_cli_run("export", "--quiet", "--jsonl", fuzz_cli_out("o.jsonl"), in, NULL);
    fuzz_cli_run("export", "--quiet", "--ccore", fuzz_cli_out("o.bin"), in, NULL);
    fuzz_cli_run("export", "--quiet", "--perfetto", fuzz_cli_out("o.pftrace"), in, NULL);
    fuzz_cli_run("export", "--quiet", "--ctf", fuzz_cli_out("ctf"), in, NULL);
    fuzz_cli_run("export", "--quiet", "--from", "#1", "--to", "#300", "--csv", fuzz_cli_out("s.csv"), in, NULL);
    fuzz_cli_run("export", "--quiet", "--event", "EventControl", "--ccore", fuzz_cli_out("s.bin"), in, NULL);
    fuzz_cli_run("qs", "-o", fuzz_cli_out("o.qs"), in, NULL);
    fuzz_cli_run("qs", "--time-size", "2", "--classes", "--enum-as", "strings", "-o", fuzz_cli_out("p.qs"), in,
                 NULL);
    fuzz_cli_run("qs", "--enum-as", "groups", "-o", fuzz_cli_out("q.qs"), in, NULL);
    fuzz_cli_run("syst", "-o", fuzz_cli_out("o.syst"), in, NULL);
    fuzz_cli_run("syst", "--text", "--crc", "--timestamp", "--collateral", fuzz_cli_out("c.xml"), "-o",
                 fuzz_cli_out("t.syst"), in, NULL);
    fuzz_cli_clean();
    return 0;
}
