/* SPDX-License-Identifier: Apache-2.0 */
/* Child-process and file helpers of the CLI tests (see cli_run.h). */
#include "cli_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/test_tmp.h"

static char *slurp(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *p = malloc(cap + 1);
    lseek(fd, 0, SEEK_SET);
    ssize_t k;
    while (p && (k = read(fd, p + n, cap - n)) > 0) {
        n += (size_t)k;
        if (n == cap) {
            cap *= 2;
            p = realloc(p, cap + 1);
        }
    }
    if (p) {
        p[n] = 0;
    }
    *len = n;
    return p;
}

cli_run_t cli_run_io(const char *cwd, const char *in, const char *const *argv)
{
    cli_run_t r;
    memset(&r, 0, sizeof r);
    char out_path[TEST_TMP_PATH], err_path[TEST_TMP_PATH]; /* unlinked below, kept open */
    test_tmp_template(out_path, sizeof out_path, "cli-out");
    test_tmp_template(err_path, sizeof err_path, "cli-err");
    int out = mkstemp(out_path), err = mkstemp(err_path);
    if (out < 0 || err < 0) {
        r.status = -2;
        return r;
    }
    unlink(out_path);
    unlink(err_path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(in ? in : "/dev/null", O_RDONLY);
        dup2(fd, 0);
        dup2(out, 1);
        dup2(err, 2);
        if (cwd && chdir(cwd) != 0) {
            _exit(126);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(out, &r.out_len);
    r.err = slurp(err, &r.err_len);
    close(out);
    close(err);
    return r;
}

cli_run_t cli_run_argv(const char *cwd, const char *const *argv)
{
    return cli_run_io(cwd, NULL, argv);
}

/* Collects the variadic arguments after `prog` (NULL-terminated) into argv. */
static void collect(const char **argv, const char *prog, va_list ap)
{
    int argc = 0;
    argv[argc++] = prog;
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && argc < 63) {
        argv[argc++] = a;
    }
    argv[argc] = NULL;
}

cli_run_t cli_run_in(const char *in, const char *prog, ...)
{
    const char *argv[64];
    va_list ap;
    va_start(ap, prog);
    collect(argv, prog, ap);
    va_end(ap);
    return cli_run_io(NULL, in, argv);
}

cli_run_t cli_run(const char *prog, ...)
{
    const char *argv[64];
    va_list ap;
    va_start(ap, prog);
    collect(argv, prog, ap);
    va_end(ap);
    return cli_run_io(NULL, NULL, argv);
}

void cli_run_free(cli_run_t *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    size_t cap = 4096, n = 0, k;
    char *b = malloc(cap);
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            cap *= 2;
            b = realloc(b, cap);
        }
    }
    fclose(f);
    b[n] = 0;
    if (len) {
        *len = n;
    }
    return b;
}

int cli_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        return -1;
    }
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

char *cli_temp_dir(const char *tag)
{
    static unsigned seq;
    char *p = malloc(4096);
    snprintf(p, 4096, "%s/tests/cli/tmp", EVREC_BINARY_DIR);
    mkdir(p, 0777);
    snprintf(p, 4096, "%s/tests/cli/tmp/%s-%ld-%u", EVREC_BINARY_DIR, tag, (long)getpid(), seq++);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", p);
    if (system(cmd) != 0 || mkdir(p, 0777) != 0) {
        free(p);
        return NULL;
    }
    test_tmp_remove_at_exit(p); /* removed when the test's process ends */
    return p;
}
