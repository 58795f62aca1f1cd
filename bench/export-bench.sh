#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# export-bench.sh: wall time, records/s and peak RSS of the viewer's exporters on a large
# recording, and the time to the first record of a dump that starts near the end of the file.
#
# usage: bench/export-bench.sh [-n RECORDS] [-b BUILD_DIR] [-d WORK_DIR] [-k]
#   -n RECORDS   events recorded into the test file (default 5000000; 50000000 gives ~1 GB)
#   -b BUILD_DIR the CMake build directory (default: build beside this script's parent)
#   -d WORK_DIR  where the trace and the CTF output go (default: a new directory under
#                ${TMPDIR:-/tmp}, removed at the end unless -k)
#   -k           keep the work directory
#
# The file comes from BUILD_DIR/tests/reader/make_large_trace (the real recorder: half EvAll,
# 30 bytes saved, half EvSimple, 10 bytes; a Tick every 1000). Steps: evrec export --csv,
# --jsonl, --perfetto to /dev/null, --ctf into WORK_DIR/ctf, evrec dump to /dev/null,
# babeltrace2 reading the CTF output to text (/dev/null), and evrec dump --from '#K' --limit 1
# with K ten records before the end. Wall times come from `date +%s%N` around each step, peak
# RSS from GNU time (/usr/bin/time -f %M) when it exists (else not shown). Prints a Markdown
# table on stdout (progress on stderr).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
n=5000000
build="$here/build"
work=""
keep=0
while getopts "n:b:d:kh" opt; do
    case $opt in
    n) n=$OPTARG ;;
    b) build=$OPTARG ;;
    d) work=$OPTARG ;;
    k) keep=1 ;;
    h) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "usage: $0 [-n RECORDS] [-b BUILD_DIR] [-d WORK_DIR] [-k]" >&2; exit 2 ;;
    esac
done
case $n in
'' | *[!0-9]*) echo "export-bench: -n expects a record count, not '$n'" >&2; exit 2 ;;
esac

evrec="$build/viewer-cli/evrec"
mlt="$build/tests/reader/make_large_trace"
for p in "$evrec" "$mlt"; do
    if [ ! -x "$p" ]; then
        echo "export-bench: $p not found: build first (cmake --build $build)" >&2
        exit 1
    fi
done

created=0
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/evrec-export-bench.XXXXXX")
    created=1
elif [ ! -d "$work" ]; then
    mkdir -p "$work"
    created=1
fi
trace="$work/bench.evr"
ctf="$work/ctf"
for p in "$trace" "$ctf"; do
    if [ -e "$p" ]; then
        echo "export-bench: $p already exists: give an empty -d WORK_DIR" >&2
        exit 1
    fi
done
cleanup() {
    if [ "$keep" = 0 ]; then
        rm -rf "$ctf" "$trace" "$work/time.out"
        if [ "$created" = 1 ]; then
            rmdir "$work" 2>/dev/null || true
        fi
    fi
}
trap cleanup EXIT

gnu_time=""
if [ -x /usr/bin/time ] && /usr/bin/time -f "%e" true 2>/dev/null; then
    gnu_time=/usr/bin/time
fi

# measure CMD...: runs it with stdout to /dev/null; sets m_wall (s, from date +%s%N around it) and
# m_rss (peak RSS, KiB, from GNU time; "" without it).
measure() {
    local rc=0 t0 t1
    t0=$(date +%s%N)
    if [ -n "$gnu_time" ]; then
        "$gnu_time" -f "%M" -o "$work/time.out" "$@" >/dev/null 2>"$work/stderr.out" || rc=$?
        t1=$(date +%s%N)
        read -r m_rss <"$work/time.out"
    else
        "$@" >/dev/null 2>"$work/stderr.out" || rc=$?
        t1=$(date +%s%N)
        m_rss=""
    fi
    m_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    if [ "$rc" != 0 ]; then
        echo "export-bench: '$*' failed (exit $rc):" >&2
        cat "$work/stderr.out" >&2
    fi
    rm -f "$work/stderr.out"
    return 0
}

echo "export-bench: recording $n events into $trace ..." >&2
made=$("$mlt" "$trace" "$n")
records=${made%% records*}
size=$(stat -c %s "$trace")

rows=()
row() { # name records
    local rate="-" rss="-"
    if [ "$2" != "-" ] && awk -v w="$m_wall" 'BEGIN { exit !(w > 0) }'; then
        rate=$(awk -v r="$2" -v w="$m_wall" 'BEGIN { printf "%.2f M", r / w / 1e6 }')
    fi
    if [ -n "$m_rss" ]; then
        rss=$(awk -v k="$m_rss" 'BEGIN { printf "%.1f", k / 1024 }')
    fi
    rows+=("| $1 | $m_wall | $rate | $rss |")
}

for fmt in csv jsonl perfetto; do
    echo "export-bench: evrec export --$fmt ..." >&2
    measure "$evrec" export --quiet "--$fmt" /dev/null "$trace"
    row "\`evrec export --$fmt\` to /dev/null" "$records"
done
echo "export-bench: evrec export --ctf ..." >&2
measure "$evrec" export --quiet --ctf "$ctf" "$trace"
row "\`evrec export --ctf DIR\`" "$records"
echo "export-bench: evrec dump ..." >&2
measure "$evrec" dump "$trace"
row "\`evrec dump\` to /dev/null" "$records"
echo "export-bench: evrec dump --time-order ..." >&2
measure "$evrec" dump --time-order "$trace"
row "\`evrec dump --time-order\` to /dev/null" "$records"
if command -v babeltrace2 >/dev/null 2>&1 && [ -d "$ctf" ]; then
    echo "export-bench: babeltrace2 (CTF to text) ..." >&2
    measure babeltrace2 "$ctf"
    row "\`babeltrace2 DIR\` (CTF to text) to /dev/null" "$records"
else
    rows+=("| \`babeltrace2 DIR\` | not run (babeltrace2 or the CTF output missing) | - | - |")
fi
from=$((records > 10 ? records - 10 : 0))
echo "export-bench: evrec dump --from '#$from' --limit 1 ..." >&2
measure "$evrec" dump --from "#$from" --limit 1 "$trace"
row "time to first record: \`evrec dump --from '#$from' --limit 1\`" "-"

size_mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')
echo "Input: $records records, $size_mb MiB ($(basename "$mlt") $n); wall clock: date +%s%N; RSS: ${gnu_time:-not measured (no GNU time)}; $(nproc) CPUs."
echo
echo "| step | wall s | records/s | peak RSS MiB |"
echo "|---|---:|---:|---:|"
for r in "${rows[@]}"; do
    echo "$r"
done
