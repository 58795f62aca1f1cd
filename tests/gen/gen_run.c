/* SPDX-License-Identifier: Apache-2.0 */
/* Child-process helpers of the generator tests. */
#include "gen_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/test_tmp.h"

int gen_run(const char *cwd, const char *const *args, char **err)
{
    char errpath[TEST_TMP_PATH];
    test_tmp_template(errpath, sizeof errpath, "gen-err");
    int efd = mkstemp(errpath);
    if (efd < 0) {
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        const char *argv[32];
        size_t n = 0;
        argv[n++] = EVREC_GEN_EXE;
        while (args[n - 1] && n < 31) {
            argv[n] = args[n - 1];
            n++;
        }
        argv[n] = NULL;
        if (chdir(cwd) != 0) {
            _exit(126);
        }
        dup2(efd, 2);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        execv(EVREC_GEN_EXE, (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(efd);
    size_t len = 0;
    *err = gen_read_file(errpath, &len);
    unlink(errpath);
    if (!*err) {
        *err = calloc(1, 1);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *gen_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t k;
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            cap *= 2;
            b = realloc(b, cap);
        }
    }
    fclose(f);
    b[n] = '\0';
    if (len) {
        *len = n;
    }
    return b;
}

char *gen_temp_dir(const char *tag)
{
    char *p = malloc(4096);
    snprintf(p, 4096, "%s/tests/gen/tmp", EVREC_BINARY_DIR);
    mkdir(p, 0755);
    snprintf(p, 4096, "%s/tests/gen/tmp/%s_XXXXXX", EVREC_BINARY_DIR, tag);
    if (!mkdtemp(p)) {
        free(p);
        return NULL;
    }
    test_tmp_remove_at_exit(p); /* removed when the test's process ends */
    return p;
}

int gen_dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            n++;
        }
    }
    closedir(d);
    return n;
}
