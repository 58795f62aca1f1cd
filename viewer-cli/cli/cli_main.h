/* SPDX-License-Identifier: Apache-2.0 */
/* The `evrec` program as a function (main.c), for callers that run it in process. */
#ifndef EVREC_CLI_MAIN_H
#define EVREC_CLI_MAIN_H

/* Runs `evrec argv[1] ...` as the program would and returns its exit status (0 ok, 1 bad input,
 * 2 bad usage). Writes to stdout, stderr and the files the arguments name. Never exits; every
 * resource a run takes is released before it returns (a memory shortage in a command may still
 * end the process with status 1). Context: one thread; not reentrant (getopt's state). */
int cli_main(int argc, char **argv);

#endif /* EVREC_CLI_MAIN_H */
