/* SPDX-License-Identifier: Apache-2.0 */
/* A trace buffer in a file-backed shared mapping: it survives the process (evrec_posix.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evrec_posix.h"

evrec_status evrec_posix_map_buffer(const char *path, size_t size, int keep, void **out)
{
    if (!path || !out || size == 0) {
        return EVREC_E_ARG;
    }
    *out = NULL;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return EVREC_E_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (!keep && ftruncate(fd, 0) != 0) ||
        ftruncate(fd, (off_t)size) != 0) {
        int e = errno ? errno : EINVAL;
        close(fd);
        errno = e;
        return EVREC_E_IO;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int e = errno;
    close(fd); /* the mapping keeps the file */
    if (p == MAP_FAILED) {
        errno = e;
        return EVREC_E_IO;
    }
    *out = p;
    return EVREC_OK;
}

void evrec_posix_unmap_buffer(void *buf, size_t size)
{
    if (buf) {
        munmap(buf, size);
    }
}
