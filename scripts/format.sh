#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Formats evrec's hand-written C with clang-format and the repository's .clang-format.
#
#   scripts/format.sh            rewrite the covered files in place
#   scripts/format.sh --check    change nothing: per folder, the lines clang-format would change
#                                (lines of the current files that differ) and in how many files;
#                                exit 1 when some line would change
#   scripts/format.sh --list     print the covered files, one per line
#   CLANG_FORMAT=clang-format-14 scripts/format.sh ...   another clang-format
#
# Covered: the *.c and *.h files git tracks under recorder/ format/ viewer-cli/ schema/ ports/
# tests/ examples/ bench/. Not covered, being generated: tests/gen/pass/*/expected/ (evrec-gen's
# golden output) and tests/**/golden* files. Every covered file is formatted with the root
# .clang-format, also those under schema/ (schema/.clang-format is the style of the code
# evrec-gen generates, SCHEMA.md, not of evrec-gen's own sources).
# Exit status: 0 done (--check: nothing would change), 1 --check found changes or clang-format
# failed, 2 bad usage or no clang-format.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cf=${CLANG_FORMAT:-clang-format}
mode=apply
case ${1:-} in
"") ;;
--check) mode=check ;;
--list) mode=list ;;
-h | --help) sed -n '3,18p' "$0"; exit 0 ;;
*) echo "format: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac

files() {
    git ls-files -- recorder format viewer-cli schema ports tests examples bench |
        grep -E '\.(c|h)$' |
        grep -v -E '^tests/gen/pass/[^/]+/expected/|^tests/(.*/)?golden[^/]*$'
}

if [ $mode = list ]; then
    files
    exit 0
fi
command -v "$cf" > /dev/null 2>&1 || { echo "format: $cf not found (set CLANG_FORMAT)" >&2; exit 2; }

if [ $mode = apply ]; then
    files | xargs "$cf" -i --style="file:$root/.clang-format"
    exit 0
fi

# --check: lines of each file that clang-format would change (the '-' lines of a diff).
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.count"' EXIT
files | while read -r f; do
    "$cf" --style="file:$root/.clang-format" "$f" > "$tmp"
    n=$(diff -U0 "$f" "$tmp" | grep -c '^-[^-]' || true)
    echo "${f%%/*} $n"
done > "$tmp.count"
awk '
    { lines[$1] += $2; total[$1]++; if ($2 > 0) changed[$1]++ }
    END { for (d in lines) printf "%-11s %6d lines in %3d of %3d files\n", d, lines[d], changed[d], total[d] }
' "$tmp.count" | sort
all=$(awk '{ all += $2 } END { print all + 0 }' "$tmp.count")
rm -f "$tmp.count"
echo "total       $all lines would change"
[ "$all" -eq 0 ]
