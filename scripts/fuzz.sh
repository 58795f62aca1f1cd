#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Build the libFuzzer targets of tests/fuzz (clang, ASan + UBSan, EVREC_FUZZ=ON) into
# ${BUILD_DIR:-build-fuzz} and fuzz each for a fixed time.
#   scripts/fuzz.sh [-t SECONDS] [-j JOBS] [target...]
# -t: seconds per target (default 60). Targets: every tests/fuzz/fuzz_<name>.c (default all).
# Each run starts from the committed seed corpus (tests/fuzz/corpus/<name>) and the crashers
# (tests/fuzz/crashers/<name>); new inputs go to <build>/fuzz/<name>/corpus, findings to
# <build>/fuzz/<name>/ (crash-*, leak-*, timeout-*, oom-*). Limits: 5 s per input
# (-timeout), 2 GB of memory (-rss_limit_mb). Exit status 1 when any target found something,
# 2 on bad usage. The log of each run with its final statistics: <build>/fuzz/<name>/log.
set -eu
cd "$(dirname "$0")/.."
T=60
J=1
while getopts t:j:h opt; do
    case $opt in
    t) T=$OPTARG ;;
    j) J=$OPTARG ;;
    h) sed -n '3,12p' "$0"; exit 0 ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $T in ''|*[!0-9]*) echo "fuzz.sh: -t wants whole seconds, not '$T'" >&2; exit 2 ;; esac
case $J in ''|0|*[!0-9]*) echo "fuzz.sh: -j wants a number of jobs >= 1, not '$J'" >&2; exit 2 ;; esac

ALL=$(for f in tests/fuzz/fuzz_*.c; do n=${f#tests/fuzz/fuzz_}; n=${n%.c}; [ "$n" = main ] || echo "$n"; done)
TARGETS=${*:-$ALL}
for t in $TARGETS; do
    [ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz.sh: no target '$t' (have: $(echo "$ALL" | tr '\n' ' '))" >&2; exit 2; }
done

B=${BUILD_DIR:-build-fuzz}
CC_FUZZ=${CC_FUZZ:-clang}
cmake -S . -B "$B" -DCMAKE_C_COMPILER="$CC_FUZZ" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVREC_FUZZ=ON \
    -DEVREC_BUILD_TESTS=ON -DEVREC_BUILD_EXAMPLES=OFF -DEVREC_BUILD_BENCH=OFF >/dev/null
BINS=""
for t in $TARGETS; do BINS="$BINS fuzz_${t}_libfuzzer"; done
# shellcheck disable=SC2086 # one argument per target
cmake --build "$B" -j"${FUZZ_BUILD_JOBS:-2}" --target $BINS >/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}"

# fuzz_one <target>: fuzz it for T seconds; exit status 1 on a finding.
fuzz_one() {
    t=$1
    W="$B/fuzz/$t"
    mkdir -p "$W/corpus"
    seeds="tests/fuzz/corpus/$t"
    [ -d "tests/fuzz/crashers/$t" ] && seeds="$seeds tests/fuzz/crashers/$t"
    # The first corpus directory receives the new inputs; the committed ones are only read.
    # shellcheck disable=SC2086
    "$B/tests/fuzz/fuzz_${t}_libfuzzer" -max_total_time="$T" -timeout=5 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$W/" "$W/corpus" $seeds <"/dev/null" >"$W/log" 2>&1
}

# report <target> <status>: the final statistics, or what was found.
report() {
    W="$B/fuzz/$1"
    if [ "$2" -eq 0 ]; then
        echo "== $1 (${T}s): $(grep -E '^#[0-9]+.*DONE' "$W/log" | tail -1)"
    else
        echo "fuzz.sh: $1 FOUND A PROBLEM (log: $W/log):" >&2
        grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$W/log" >&2 || tail -20 "$W/log" >&2
    fi
}

status=0
# shellcheck disable=SC2086 # one argument per target
set -- $TARGETS
while [ $# -gt 0 ]; do
    jobs_now=""
    i=0
    while [ $# -gt 0 ] && [ $i -lt "$J" ]; do
        fuzz_one "$1" &
        jobs_now="$jobs_now $1:$!"
        shift
        i=$((i + 1))
    done
    for job in $jobs_now; do
        st=0
        wait "${job#*:}" || st=$?
        [ "$st" -eq 0 ] || status=1
        report "${job%%:*}" "$st"
    done
done
exit $status
