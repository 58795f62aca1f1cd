/* SPDX-License-Identifier: Apache-2.0 */
/* The byte sources of `evrec record`: standard input, a file, a TCP connection, a serial port
 * (termios, raw). Each gives a descriptor the command polls and reads. */
#define _DEFAULT_SOURCE 1 /* cfmakeraw, CRTSCTS, the high baud rates */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "record_source.h"

static const struct {
    unsigned long rate;
    speed_t speed;
} rates[] = {
    {50, B50},           {75, B75},           {110, B110},         {134, B134},         {150, B150},
    {200, B200},         {300, B300},         {600, B600},         {1200, B1200},       {1800, B1800},
    {2400, B2400},       {4800, B4800},       {9600, B9600},       {19200, B19200},     {38400, B38400},
    {57600, B57600},     {115200, B115200},   {230400, B230400},   {460800, B460800},   {500000, B500000},
    {576000, B576000},   {921600, B921600},   {1000000, B1000000}, {1152000, B1152000}, {1500000, B1500000},
    {2000000, B2000000}, {2500000, B2500000}, {3000000, B3000000}, {3500000, B3500000}, {4000000, B4000000},
};

int record_baud_ok(unsigned long baud)
{
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        if (rates[i].rate == baud) {
            return 1;
        }
    }
    return 0;
}

/* Raw 8N1 at `baud` (0: keep the port's rate). */
static int serial_setup(int fd, const char *path, unsigned long baud)
{
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        cli_error("%s: not a serial port: %s", path, strerror(errno));
        return 0;
    }
    cfmakeraw(&t);
    t.c_cflag |= CLOCAL | CREAD;
    t.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    for (size_t i = 0; baud && i < sizeof rates / sizeof rates[0]; i++) {
        if (rates[i].rate == baud) {
            cfsetispeed(&t, rates[i].speed);
            cfsetospeed(&t, rates[i].speed);
        }
    }
    if (tcsetattr(fd, TCSANOW, &t) != 0) {
        cli_error("%s: cannot set the port up: %s", path, strerror(errno));
        return 0;
    }
    return 1;
}

/* "tcp:HOST:PORT": the last colon separates the port (HOST may be [v6] or a name). */
int record_tcp_connect(const char *source)
{
    const char *spec = source + 4, *colon = strrchr(spec, ':');
    if (!colon || colon == spec || !colon[1]) {
        cli_error("%s: expected %.4sHOST:PORT", source, source);
        return -1;
    }
    char host[256];
    size_t n = (size_t)(colon - spec);
    if (spec[0] == '[' && n >= 2 && spec[n - 1] == ']') {
        spec++;
        n -= 2;
    }
    if (n >= sizeof host) {
        cli_error("%s: host name too long", source);
        return -1;
    }
    memcpy(host, spec, n);
    host[n] = '\0';
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        cli_error("%s: %s", source, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        cli_error("%s: cannot connect: %s", source, strerror(err ? err : errno));
    }
    return fd;
}

int record_source_open(const char *source, unsigned long baud, const char *elf)
{
    if (strcmp(source, "-") == 0) {
        return STDIN_FILENO;
    }
    if (strncmp(source, "tcp:", 4) == 0) {
        return record_tcp_connect(source);
    }
    if (strncmp(source, "gdb:", 4) == 0) {
        return record_gdb_open(source, elf);
    }
    int fd = open(source, O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        cli_error("%s: %s", source, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && isatty(fd) && !serial_setup(fd, source, baud)) {
        close(fd);
        return -1;
    }
    return fd;
}
