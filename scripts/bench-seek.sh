#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# bench-seek.sh: time to the first record of `evrec dump --from '#K' --limit 1` near the end of
# a large recording, with its INDEX chunk (format/FORMAT.md section 2.5) and without it (the same
# file with the chunk cut out: the reader then bisects over the file for SYNC chunks, section 2.2).
#
# usage: scripts/bench-seek.sh [-n RECORDS] [-b BUILD_DIR] [-d WORK_DIR] [-r RUNS]
#   -n RECORDS   events recorded into the file (default 100000000: about 2 GB; 20 bytes each)
#   -b BUILD_DIR the CMake build directory (default: build beside this script's parent)
#   -d WORK_DIR  where the two files go (default: a new directory under ${TMPDIR:-/tmp});
#                removed at the end
#   -r RUNS      runs per case (default 5); the median and the minimum are printed
#
# The file comes from BUILD_DIR/tests/reader/make_large_trace (the real recorder and
# evrec_save(); it holds the whole buffer in RAM, about the file's size). The page cache is warm
# (the files were just written, and dropping caches needs root on the host): the figures are
# warm-cache times, wall clock from `date +%s%N` around each command. With strace installed, the
# read calls of one run of each case are counted too. Prints a Markdown table on stdout.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
n=100000000
build="$here/build"
work=""
runs=5
while getopts "n:b:d:r:h" opt; do
    case $opt in
    n) n=$OPTARG ;;
    b) build=$OPTARG ;;
    d) work=$OPTARG ;;
    r) runs=$OPTARG ;;
    h) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "usage: $0 [-n RECORDS] [-b BUILD_DIR] [-d WORK_DIR] [-r RUNS]" >&2; exit 2 ;;
    esac
done
evrec="$build/viewer-cli/evrec"
make="$build/tests/reader/make_large_trace"
for x in "$evrec" "$make"; do
    [ -x "$x" ] || { echo "bench-seek: $x not built (cmake --build $build --target evrec make_large_trace)" >&2; exit 2; }
done
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/evrec-bench-seek.XXXXXX")
else
    mkdir -p "$work"
fi
trap 'rm -rf "$work"' EXIT
with="$work/indexed.evr"
without="$work/no-index.evr"

echo "bench-seek: recording $n events into $with" >&2
"$make" "$with" "$n" >&2
"$evrec" index --check "$with" >&2
# The INDEX chunk's offset and size from --check: 8 + 8 + 32 entries + 4 bytes.
line=$("$evrec" index --check "$with")
off=$(echo "$line" | sed -n 's/.*INDEX chunk at offset \([0-9]*\): \([0-9]*\) entries.*/\1/p')
entries=$(echo "$line" | sed -n 's/.*INDEX chunk at offset \([0-9]*\): \([0-9]*\) entries.*/\2/p')
size=$((8 + 8 + 32 * entries + 4))
echo "bench-seek: cutting the INDEX chunk ($size bytes at offset $off) out into $without" >&2
{ head -c "$off" "$with"; tail -c +"$((off + size + 1))" "$with"; } > "$without"
if "$evrec" index --check "$without" 2>/dev/null; then
    echo "bench-seek: the copy still has an index" >&2
    exit 1
fi
records=$("$evrec" info "$with" | sed -n 's/^records: *\([0-9]*\).*/\1/p')
target=$((records - 10))

# Median and minimum of RUNS wall times in ms of: evrec dump FILE --from '#K' --limit 1.
time_case() {
    local f=$1 k=$2 i t0 t1 all=()
    for ((i = 0; i < runs; i++)); do
        t0=$(date +%s%N)
        "$evrec" dump "$f" --from "#$k" --limit 1 > "$work/out"
        t1=$(date +%s%N)
        all+=($(((t1 - t0) / 1000)))
    done
    printf '%s\n' "${all[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f | %.1f", v[int((NR + 1) / 2)] / 1000, v[1] / 1000 }'
}
# Read calls on the recording itself (strace -P: that path only), and the bytes they returned.
reads() {
    if command -v strace > /dev/null; then
        strace -P "$1" -e trace=read,pread64 "$evrec" dump "$1" --from "#$2" --limit 1 2>&1 > /dev/null |
            awk -F'= ' '/^(read|pread64)\(/ { n++; b += $NF } END { printf "%d | %.1f", n, b / 1048576 }'
    else
        echo "- | -"
    fi
}
first_with=$("$evrec" dump "$with" --from "#$target" --limit 1)
first_without=$("$evrec" dump "$without" --from "#$target" --limit 1)
[ "$first_with" = "$first_without" ] || { echo "bench-seek: the two files disagree" >&2; exit 1; }

bytes=$(stat -c %s "$with")
echo "| file ($bytes bytes, $records records) | \`dump --from '#K' --limit 1\` | median ms | min ms | reads of the file | MiB read |"
echo "|---|---|---|---|---|---|"
echo "| with INDEX ($entries entries) | K = $target | $(time_case "$with" "$target") | $(reads "$with" "$target") |"
echo "| without (bisection, section 2.2) | K = $target | $(time_case "$without" "$target") | $(reads "$without" "$target") |"
echo "| with INDEX: the first record (no seek; the program's start) | K = 0 | $(time_case "$with" 0) | $(reads "$with" 0) |"
