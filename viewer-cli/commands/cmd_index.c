/* SPDX-License-Identifier: Apache-2.0 */
/* `evrec index [--check] FILE`: add a seek index (an INDEX chunk, format/FORMAT.md section 2.5)
 * to a file written before evrec had one, or rebuild it; --check verifies the one it has. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "evrec/evrec_reader_seek.h"
#include "index_write.h"

static const char help[] =
    "usage: evrec index [--check] FILE\n"
    "\n"
    "Add a seek index to an evrec container (an INDEX chunk: where the SYNC chunks are, with their\n"
    "record index and time; FORMAT.md section 2.5), or rebuild the one it has. With it,\n"
    "'dump --from', 'timeline --from/--to' and 'sql ... WHERE ts >= ...' reach a point near the end\n"
    "of a multi-GB file in a few reads. Files saved by evrec_save() and written by 'evrec record'\n"
    "have one already; this is for older files.\n"
    "\n"
    "The file is rewritten atomically: a temporary file is created beside it (FILE.index-XXXXXX,\n"
    "exclusively), gets FILE's permissions, is synced to disk and renamed over FILE (a symbolic\n"
    "link is followed: the file it names is rewritten, the link stays). A read-only FILE and\n"
    "anything but a regular file are refused; a failed write (a full disk) leaves FILE as it was\n"
    "and removes the temporary file. Every record is read first: a file with any damage (a chunk\n"
    "failing its CRC, a truncation, records out of place) is refused and left as it is, since the\n"
    "copy would lose what the reader skips; only a damaged old index is replaced. A bare CCore\n"
    "stream or a stream capture is refused: only a container holds an index ('evrec record\n"
    "CAPTURE -o FILE.evr' makes one).\n"
    "\n"
    "options:\n"
    "  --check     do not write: check that FILE has an index and that every entry names the SYNC\n"
    "              chunk at its offset, with the same index and time\n"
    "  -h, --help  this text\n"
    "\n"
    "Exit status: 0 indexed (or, with --check, the index is right), 1 the file is damaged, not a\n"
    "container, could not be rewritten, or (--check) has no index or a wrong one, 2 bad usage.\n";

static int parse(int argc, char **argv, int *check, const char **path)
{
    enum { OPT_CHECK = 256 };
    static const struct option longopts[] = {
        {"check", no_argument, NULL, OPT_CHECK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *check = 0;
    cli_getopt_begin();
    int c, rc;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == OPT_CHECK) {
            *check = 1;
        } else if ((rc = cli_common_option(&cli_cmd_index, c, argv, NULL)) >= 0) {
            return rc;
        }
    }
    return cli_one_operand(&cli_cmd_index, argc, argv, "FILE", path);
}

static int check(const char *path, evrec_reader_t *r)
{
    evrec_index_info_t info;
    evrec_status st = evrec_reader_index_check(r, &info);
    if (st == EVREC_OK) {
        printf("%s: INDEX chunk at offset %llu: %u entries (stride %u SYNC chunks), each one matches its SYNC "
               "chunk\n",
               path, (unsigned long long)info.offset, (unsigned)info.entries, (unsigned)info.stride);
        return CLI_OK;
    }
    if (st == EVREC_E_END) {
        cli_error("%s: no INDEX chunk (add one with 'evrec index %s')", path, path);
        return CLI_BAD_INPUT;
    }
    const evrec_reader_error_t *w = evrec_reader_index_warning(r);
    cli_error("%s: offset %llu: %s", path, (unsigned long long)(w ? w->offset : info.offset),
              w ? w->message : evrec_strerror(st));
    return CLI_BAD_INPUT;
}

/* Reads every record (the damage list then says whether a copy would lose any). */
static int read_all(evrec_reader_t *r)
{
    evrec_record_t rec;
    evrec_status st;
    while ((st = evrec_reader_next(r, &rec)) == EVREC_OK) {
    }
    return st;
}

/* 1 when `path` names a regular file (a link to one included), else 0 reported. Checked before
 * any open: opening a FIFO for reading would wait for a writer. */
static int regular_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        cli_error("%s: %s", path, strerror(errno));
        return 0;
    }
    if (!S_ISREG(st.st_mode)) {
        cli_error("%s: not a regular file: only a file can hold an index", path);
        return 0;
    }
    return 1;
}

static int run(int argc, char **argv)
{
    int chk;
    const char *path = NULL;
    int rc = parse(argc, argv, &chk, &path);
    if (rc >= 0) {
        return rc;
    }
    if (strcmp(path, "-") == 0) {
        return cli_usage_error(&cli_cmd_index, "FILE must be a file, not standard input");
    }
    if (!regular_file(path)) {
        return CLI_BAD_INPUT;
    }
    evrec_reader_t *r = cli_open_reader(path, NULL);
    if (!r) {
        return CLI_BAD_INPUT;
    }
    if (chk) {
        rc = check(path, r);
    } else if (evrec_reader_info(r)->format != EVREC_FILE_CONTAINER) {
        cli_error("%s: not an evrec container: only a container holds an index", path);
        rc = CLI_BAD_INPUT;
    } else {
        evrec_status st = read_all(r);
        index_result_t res;
        rc = CLI_BAD_INPUT;
        if ((st == EVREC_E_END || evrec_reader_damage_count(r) > 0) && index_rewrite(path, r, &res)) {
            printf("%s: %u index entries for %llu SYNC chunks (stride %u)%s; %llu bytes\n", path,
                   (unsigned)res.entries, (unsigned long long)res.sync_chunks, (unsigned)res.stride,
                   res.old_index ? ", the old index replaced" : "", (unsigned long long)res.size);
            rc = CLI_OK;
        } else if (st != EVREC_E_END && evrec_reader_damage_count(r) == 0) {
            cli_report_reader_error(path, r);
        }
    }
    evrec_reader_close(r);
    return rc;
}

const cli_command_t cli_cmd_index = {
    "index",
    "add (or rebuild, or --check) the seek index of an evrec file, atomically",
    help,
    run,
};
