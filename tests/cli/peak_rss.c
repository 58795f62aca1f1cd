/* SPDX-License-Identifier: Apache-2.0 */
/* Runs a command and writes its peak resident set size (KiB, getrusage of the child via wait4)
 * to a file, for the bounded-memory tests of crafted inputs (meta_limits.sh).
 * usage: peak_rss KB_FILE CMD [ARG...]
 * Exit status: the command's, 128 + N when signal N ended it, 125 when it could not be run. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: peak_rss KB_FILE CMD [ARG...]\n");
        return 125;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("peak_rss: fork");
        return 125;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("peak_rss: exec");
        _exit(125);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("peak_rss: wait4");
        return 125;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) != 0) {
        fprintf(stderr, "peak_rss: cannot write %s\n", argv[1]);
        return 125;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
