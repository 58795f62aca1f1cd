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
while getopts t:h opt; do
    case $opt in
    t) T=$OPTARG ;;
    h) sed -n '3,11p' "$0"; exit 0 ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $T in ''|*[!0-9]*) echo "fuzz.sh: -t wants whole seconds, not '$T'" >&2; exit 2 ;; esac

ALL=$(for f in tests/fuzz/fuzz_*.c; do n=${f#tests/fuzz/fuzz_}; n=${n%.c}; [ "$n" = main ] || echo "$n"; done)
TARGETS=${*:-$ALL}
for t in $TARGETS; do
    [ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz.sh: no target '$t' (have: $(echo $ALL))" >&2; exit 2; }
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
status=0
for t in $TARGETS; do
    W="$B/fuzz/$t"
    mkdir -p "$W/corpus"
    seeds="tests/fuzz/corpus/$t"
    [ -d "tests/fuzz/crashers/$t" ] && seeds="$seeds tests/fuzz/crashers/$t"
    echo "== fuzz $t for ${T}s =="
    # The first corpus directory receives the new inputs; the committed ones are only read.
    # shellcheck disable=SC2086
    if "$B/tests/fuzz/fuzz_${t}_libfuzzer" -max_total_time="$T" -timeout=5 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$W/" "$W/corpus" $seeds >"$W/log" 2>&1; then
        grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+.*DONE' "$W/log" || true
    else
        status=1
        echo "fuzz.sh: $t FOUND A PROBLEM (log: $W/log):" >&2
        grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$W/log" >&2 || tail -20 "$W/log" >&2
    fi
done
exit $status
