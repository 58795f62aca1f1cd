/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: `evrec index` in process (viewer-cli/commands/cmd_index.c, index_write.c) and what
 * reads an index or the attributes: index --check, index (the rewrite of the input file, refused
 * when it is damaged), index --check again on the result, dump --from by record index and by time
 * (a seek through the INDEX chunk), sql over the attr table and a time range, info. Each command
 * must return 0, 1 or 2 and leave nothing behind (ASan, UBSan and LSan watch). */
#include "cli_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_cli_input("input.evr", data, size);
    if (!in) {
        return 0;
    }
    fuzz_cli_run("index", "--check", in, NULL);
    fuzz_cli_run("dump", "--from", "#100", "-n", "3", in, NULL);
    fuzz_cli_run("index", in, NULL);
    fuzz_cli_run("index", "--check", in, NULL);
    fuzz_cli_run("dump", "--from", "#100", "-n", "3", in, NULL);
    fuzz_cli_run("dump", "--from", "50ms", "--to", "60ms", in, NULL);
    fuzz_cli_run("sql", "-c", "select * from attr; select count(*), min(idx) from record where ts >= 50000000", in,
                 NULL);
    fuzz_cli_run("info", in, NULL);
    fuzz_cli_clean();
    return 0;
}
