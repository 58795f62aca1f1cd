/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec`: inspect evrec and CCore EventRecorder files. Dispatches to the subcommands of the
 * command table; each lives in its own cmd_<name>.c. cli_main() is the whole program and may be
 * called more than once in one process (the in-process fuzz target tests/fuzz/fuzz_cli.c does):
 * it never exits and leaves no state behind; main() is left out with EVREC_CLI_NO_MAIN. */
#include <string.h>

#include "evrec/evrec_container.h"
#include "cli.h"
#include "cli_qs.h"
#include "cli_export_ctf.h"
#include "cli_main.h"

#ifndef EVREC_VERSION
#define EVREC_VERSION "0.0.0"
#endif

/* The command table: add a subcommand here (and its cmd_<name>.c to CMakeLists.txt). */
static const cli_command_t *const commands[] = {
    &cli_cmd_info,        &cli_cmd_dump,    &cli_cmd_stats,  &cli_cmd_qs,    &cli_cmd_qs_decode, &cli_cmd_syst,
    &cli_cmd_syst_decode, &cli_cmd_recover, &cli_cmd_schema, &cli_cmd_check, &cli_cmd_export,    &cli_cmd_timeline,
    &cli_cmd_record,      &cli_cmd_sql,     &cli_cmd_index,  &cli_cmd_diff,
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static const cli_command_t *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(commands[i]->name, name) == 0) {
            return commands[i];
        }
    }
    return NULL;
}

static void usage(FILE *out)
{
    fputs("usage: evrec <command> [options] FILE\n"
          "       evrec help [<command>]\n"
          "       evrec --version\n"
          "\n"
          "Inspect event recordings: evrec containers (.evr) and bare CCore EventRecorder files.\n"
          "\n"
          "commands:\n",
          out);
    int width = 0; /* the longest name: the summaries start in one column */
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        int n = (int)strlen(commands[i]->name);
        width = n > width ? n : width;
    }
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        fprintf(out, "  %-*s  %s\n", width, commands[i]->name, commands[i]->summary);
    }
    fputs("\n"
          "Run 'evrec <command> --help' for the options of a command.\n"
          "Exit status: 0 ok, 1 damaged or unreadable input (what could be read is still shown),\n"
          "2 bad usage.\n",
          out);
}

int cli_main(int argc, char **argv)
{
    cli_text_init();
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("evrec %s (file format %u.%u, reads CCore EventRecorder streams)\n", EVREC_VERSION,
               EVREC_FORMAT_MAJOR, EVREC_FORMAT_MINOR_LANES);
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc == 2) {
            usage(stdout);
            return CLI_OK;
        }
        const cli_command_t *c = find_command(argv[2]);
        if (!c || argc > 3) {
            cli_error("help: %s '%s' (see 'evrec --help')", c ? "too many arguments after" : "unknown command",
                      argv[2]);
            return CLI_USAGE;
        }
        fputs(c->help, stdout);
        return CLI_OK;
    }
    const cli_command_t *c = find_command(cmd);
    if (!c) {
        cli_error("unknown command '%s' (see 'evrec --help')", cmd);
        return CLI_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}

#ifndef EVREC_CLI_NO_MAIN
int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
#endif
