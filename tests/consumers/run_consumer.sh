#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds and runs one consumer project of evrec, the ways a user takes evrec in:
#   run_consumer.sh install    SRC BUILD WORK   cmake --install BUILD into WORK/prefix
#   run_consumer.sh installed  SRC BUILD WORK   find_package(evrec) from WORK/prefix (a)
#   run_consumer.sh pkgconfig  SRC BUILD WORK   plain Makefile + pkg-config from WORK/prefix (b)
#   run_consumer.sh subdir     SRC BUILD WORK   add_subdirectory, -fsanitize=thread, -Werror (c)
#   run_consumer.sh fetch      SRC BUILD WORK   FetchContent from a source archive (d)
#   run_consumer.sh firmware   SRC BUILD WORK   arm-none-eabi firmware, the MCU recipe (e)
# The host consumers record from two threads, save, and the file is checked with `evrec check`
# against the consumer's schema and read back by a reader-only program.
# Exit 0 pass, 1 fail, 77 skipped (a tool is missing).
set -eu
mode=$1 src=$(cd "$2" && pwd) build=$(cd "$3" && pwd) work=$4
here=$(cd "$(dirname "$0")" && pwd)
prefix=$work/prefix
out=$work/$mode
log=$work/$mode.log
mkdir -p "$work"
rm -rf "$out"
mkdir -p "$out"

run() { # run CMD...: output to the log; on failure show it
    if ! "$@" >>"$log" 2>&1; then
        echo "FAIL: $*" >&2
        tail -40 "$log" >&2
        exit 1
    fi
}

# check_app DIR EVREC: the app's file matches its schema and reads back whole.
check_app() {
    run "$1/consumer_app" "$out/app.evr"
    "$2" check --schema "$here/app/consumer.yaml" "$out/app.evr" >"$out/check.txt" 2>&1 || {
        cat "$out/check.txt" >&2; echo "FAIL: evrec check" >&2; exit 1; }
    grep -q "matches schema consumer" "$out/check.txt" || { cat "$out/check.txt" >&2; exit 1; }
    "$1/consumer_reader" "$out/app.evr" >"$out/reader.txt"
    grep -q "^consumer_reader: 2000 Work records$" "$out/reader.txt" || {
        cat "$out/reader.txt" >&2; echo "FAIL: reader" >&2; exit 1; }
    echo "$mode: $(cat "$out/check.txt"); $(cat "$out/reader.txt")"
}

: >"$log"
case $mode in
install)
    rm -rf "$prefix"
    run cmake --install "$build" --prefix "$prefix"
    for f in bin/evrec bin/evrec-gen include/evrec/evrec_reader.h include/evrec/ports/posix/evrec_port.h \
             share/evrec/rtos.yaml share/evrec/cmake/EvrecGenerate.cmake lib/cmake/evrec/evrecConfig.cmake \
             lib/cmake/evrec/evrecConfigVersion.cmake lib/pkgconfig/evrec-reader.pc \
             lib/pkgconfig/evrec-recorder-posix.pc lib/libevrec-reader.a lib/libevrec-recorder-posix.a; do
        [ -e "$prefix/$f" ] || { echo "FAIL: not installed: $f" >&2; exit 1; }
    done
    "$prefix/bin/evrec" --version | grep -q "^evrec [0-9]" || exit 1
    "$prefix/bin/evrec-gen" --version | grep -q "^evrec-gen [0-9]" || exit 1
    echo "install: $(find "$prefix" -type f | wc -l) files in $prefix"
    ;;
installed)
    run cmake -S "$here/installed" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
    run cmake --build "$out" -j2
    check_app "$out" "$prefix/bin/evrec"
    ;;
pkgconfig)
    command -v pkg-config >/dev/null || { echo "pkg-config not found: skipped"; exit 77; }
    PATH=$prefix/bin:$PATH PKG_CONFIG_PATH=$prefix/lib/pkgconfig \
        run make -C "$here/pkgconfig" APP="$here/app" OUT="$out"
    check_app "$out" "$prefix/bin/evrec"
    ;;
subdir)
    run cmake -S "$here/subdir" -B "$out" -DEVREC_SOURCE_DIR="$src" -DCMAKE_BUILD_TYPE=RelWithDebInfo
    run cmake --build "$out" -j2
    # ThreadSanitizer: the build is what this proves; its reports on the recorder's lock-free
    # protocol are printed to the log, not failed on.
    TSAN_OPTIONS="exitcode=0 log_path=$out/tsan" check_app "$out" "$build/viewer-cli/evrec"
    ;;
fetch)
    # A source archive of the checkout, without build trees, as a release archive would be.
    tar -C "$src" --exclude='./build*' --exclude='./.git' -czf "$work/evrec-src.tar.gz" .
    run cmake -S "$here/fetch" -B "$out" -DEVREC_ARCHIVE="$work/evrec-src.tar.gz" -DCMAKE_BUILD_TYPE=Release
    run cmake --build "$out" -j2
    check_app "$out" "$build/viewer-cli/evrec"
    ;;
firmware)
    command -v arm-none-eabi-gcc >/dev/null || { echo "arm-none-eabi-gcc not found: skipped"; exit 77; }
    PATH=$prefix/bin:$PATH run cmake -S "$here/firmware" -B "$out" -DEVREC_SOURCE_DIR="$src" \
        -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/arm-none-eabi.cmake" -DEVREC_CPU=cortex-m4
    PATH=$prefix/bin:$PATH run cmake --build "$out" -j2
    arm-none-eabi-nm "$out/consumer_fw.elf" | grep -q " T evrec_save$" || {
        echo "FAIL: firmware lacks evrec_save" >&2; exit 1; }
    echo "firmware: $(arm-none-eabi-size "$out/consumer_fw.elf" | tail -1)"
    ;;
*)
    echo "run_consumer.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
