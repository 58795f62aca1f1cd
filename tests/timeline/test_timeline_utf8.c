/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec timeline` on an event name that is not valid UTF-8 (names come from the file, any
 * bytes). cairo's toy text API puts its context into an error state on invalid UTF-8: the
 * picture stopped at the first such label (the rest of the legend, the lanes and their glyphs
 * were never drawn, exit status 0 all the same), and each glyph then leaked a pattern
 * (cairo_get_source() on a context in error). Each invalid byte must be drawn as U+FFFD: the
 * picture equals, pixel for pixel, that of the same recording with the name spelt with U+FFFD. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/test_tmp.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *p = malloc(1 << 20);
    *len = fread(p, 1, 1 << 20, f);
    fclose(f);
    return p;
}

/* ref.bin (CCore's own reference stream) with its event name NestEvent spelt `name`
 * (u32 big-endian length before it), written to dir/in.bin. */
static void write_renamed(const char *dir, const char *name)
{
    size_t len;
    char *ref = slurp(EVREC_TEST_DATA "/ccore/ref.bin", &len);
    static const char old[] = "\0\0\0\x09NestEvent";
    char *at = memmem(ref, len, old, sizeof old - 1);
    cr_assert_not_null(at, "ref.bin lacks NestEvent");
    size_t n = strlen(name), head = (size_t)(at - ref), tail = len - head - (sizeof old - 1);
    char path[256];
    snprintf(path, sizeof path, "%s/in.bin", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    unsigned char be[4] = {0, 0, 0, (unsigned char)n};
    fwrite(ref, 1, head, f);
    fwrite(be, 1, 4, f);
    fwrite(name, 1, n, f);
    fwrite(at + sizeof old - 1, 1, tail, f);
    fclose(f);
    free(ref);
}

/* The PNG `evrec timeline` draws of dir/in.bin, run in dir (the title shows the path as given). */
static char *draw(const char *dir, size_t *len)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' timeline -o out.png in.bin", dir, EVREC_CLI_PATH);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: status %d", cmd, st);
    char path[256];
    snprintf(path, sizeof path, "%s/out.png", dir);
    return slurp(path, len);
}

Test(timeline_utf8, invalid_bytes_in_a_name_are_drawn_as_replacement_characters)
{
    char *a = test_tmp_dir("tl-utf8-a"), *b = test_tmp_dir("tl-utf8-b"); /* removed at exit */
    cr_assert(a && b);
    write_renamed(a, "NestEve\x99\x8b");
    write_renamed(b, "NestEve\xEF\xBF\xBD\xEF\xBF\xBD");
    size_t la, lb;
    char *pa = draw(a, &la), *pb = draw(b, &lb);
    cr_expect(la == lb && memcmp(pa, pb, la) == 0,
              "the picture of the name with invalid bytes (%zu bytes) differs from that with U+FFFD (%zu)", la,
              lb);
    free(pa);
    free(pb);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", a, b);
    cr_assert_eq(system(cmd), 0);
    free(a);
    free(b);
}
