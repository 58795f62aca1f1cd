# SPDX-License-Identifier: Apache-2.0
# Sourced by the firmware tests that run examples/firmware on QEMU (fw_qemu_test.sh,
# fw_rtt_gdb_test.sh, fw_stream_test.sh) once they have set root (the source tree), b (their
# build folder) and gen (the host evrec-gen): the tools check, fail, the firmware's cross build,
# a fresh run folder and QEMU's common options.

# Exits 77 (the test is skipped) when qemu-system-arm or arm-none-eabi-gcc is not installed.
fw_need_tools() {
    for tool in qemu-system-arm arm-none-eabi-gcc; do
        if ! command -v $tool >/dev/null 2>&1; then
            echo "SKIP: $tool is not installed (apt-get install qemu-system-arm gcc-arm-none-eabi)"
            exit 77
        fi
    done
}

fail() { echo "FAIL: $*"; exit 1; }

# fw_build CPU TARGET [CMAKE_ARG...]: examples/firmware configured in $b for CPU at -Os with the
# host evrec-gen, TARGET built; the build log and a failure when either step fails.
fw_build() {
    fw_cpu=$1 fw_target=$2
    shift 2
    mkdir -p "$b"
    if ! { cmake -S "$root/examples/firmware" -B "$b" \
               -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/arm-none-eabi.cmake" \
               -DEVREC_CPU="$fw_cpu" -DEVREC_FW_OPT=-Os -DEVREC_GEN_EXECUTABLE="$gen" "$@" &&
           cmake --build "$b" --target "$fw_target"; } >"$b/build.log" 2>&1; then
        cat "$b/build.log"
        fail "cross build for $fw_cpu failed"
    fi
}

# fw_run_dir DIR: DIR made anew, empty, and the current folder.
fw_run_dir() {
    rm -rf "$1"
    mkdir -p "$1"
    cd "$1"
}

# QEMU's options every firmware test gives, after -M MACHINE: no display or monitor, semihosting
# (the firmware's console and files). Unquoted where used (no option in it has a blank), so that
# `timeout` can run QEMU with it.
fw_qemu_opts="-nographic -monitor none -semihosting-config enable=on,target=native"
