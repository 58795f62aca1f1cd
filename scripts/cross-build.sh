#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Cross builds of the recorder and the example firmware for the MCU matrix, with the table of
# ROM, RAM and instructions per record (ports/PORTING.md).
#
#   scripts/cross-build.sh [-d DIR] [-t "TARGETS"] [-O "OPTS"] [-g EVREC_GEN] [-c]
#
#   -d DIR      where the build directories go (DIR/build-cross-<target><opt>); default: the repo
#   -t TARGETS  default "cortex-m0plus cortex-m3 cortex-m4 cortex-m33 rv32imac rv64imac"
#   -O OPTS     default "-Os -O2"
#   -g GEN      the host evrec-gen; default: built in DIR/build-cross-host (needs libyaml)
#   -c          check the budgets on Cortex-M4: core ROM <= 2048 B at -Os and
#               3-field record <= 34 instructions one-shot and <= 52 cyclic (steady state)
#               at -O2 (evrec_reserve() stores a provisional id with the time so that a
#               recovery can step over a slot never committed: +2 on both) (exit 1 on a miss; 77 when
#               qemu-system-arm is missing), RAM beyond the trace buffer <= 64 B (printed; a miss
#               fails only with -r, because it is decided by the core's structs)
#   -r          with -c: the RAM budget fails the run too
#
# Exit status: 0 done (and the budgets met), 1 a build failed or a budget was missed, 2 bad
# usage, 77 skipped: the cross compiler of a target (arm-none-eabi-gcc for cortex-*,
# riscv64-unknown-elf-gcc for rv*) is not installed, or with -c qemu-system-arm is not.
#
# Columns (bytes from <toolchain>-size; the objects as compiled, before --gc-sections):
#   core      text of recorder.c + runtime_enum.c + status.c: the record path and host
#             start/stop/tick (any core object this script does not know is added here too, and
#             named on stderr)
#   cyclic    cyclic.c, the cyclic mode (linked only into programs that call
#             evrec_recorder_init_cyclic(): the rest of the core reaches it through a pointer)
#   recov     recover.c + keep_meta.c: recovering a buffer a previous run left
#             (evrec_recorder_recover()) and keeping the meta-info in the buffer
#             (evrec_recorder_keep_meta()); linked only into programs that call them
#   save meta crc32c   the save path (the writer common/save.c, common/tracks.c for the TRACKS
#             chunk, common/attrs.c for the ATTRS chunk, common/save_index.c for the INDEX
#             chunk, buffer/save_recorder.c and save_lanes.c for the walk of a recorder's
#             records), the meta-info validation, the CRC table, each on its own
#   port      text of the port library (clock enabling, tick hook)
#   libRAM    data + bss of the core and port objects
#   objs      sizeof evrec_host_t + evrec_recorder_t (the firmware's fw_host and recorder): the
#             RAM a recording needs besides the user's trace buffer, together with libRAM
#   fwROM fwRAM   the whole example firmware: text + data, and data + bss without the trace
#             buffer (.evrec_trace)
#   value 3fld tick   instructions executed per record on QEMU (scripts/insn-count.sh): one u32
#             payload, the 3-field ContextSwitch, evrec_tick(). Cortex-M4 on mps2-an386;
#             Cortex-M3 and Cortex-M0+ on mps2-an385 (ARMv6-M code runs unchanged on an M3, and
#             executed instructions do not depend on the core's timing); "-" where no QEMU
#             machine of this repo runs the image (Cortex-M33, RISC-V).
#   c3fld     the 3-field event in cyclic mode (1 KiB blocks, after three laps of the ring): the
#             block switches, each clearing one block ahead, spread over the records
#   s3fld     the 3-field event in streaming mode (evrec/evrec_stream.h; 1 KiB blocks, drained
#             between loops): the block switches spread over the records
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root
targets="cortex-m0plus cortex-m3 cortex-m4 cortex-m33 rv32imac rv64imac"
opts="-Os -O2"
gen=${EVREC_GEN:-}
check=0
strict_ram=0
jobs=${EVREC_JOBS:-2}
while getopts d:t:O:g:cr opt; do
    case $opt in
    d) dir=$OPTARG ;;
    t) targets=$OPTARG ;;
    O) opts=$OPTARG ;;
    g) gen=$OPTARG ;;
    c) check=1 ;;
    r) strict_ram=1 ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
prefix_of() {
    case $1 in
    cortex-*) echo arm-none-eabi ;;
    rv*) echo riscv64-unknown-elf ;;
    *) echo "cross-build: unknown target $1" >&2; exit 2 ;;
    esac
}

# A missing cross compiler is a skip, not a failure: the host tests still run without it.
for t in $targets; do
    p=$(prefix_of "$t") || exit 2
    if ! command -v "$p-gcc" >/dev/null 2>&1; then
        case $p in
        arm-none-eabi) pkg=gcc-arm-none-eabi ;;
        *) pkg=gcc-riscv64-unknown-elf ;;
        esac
        echo "cross-build: $p-gcc is not installed (apt-get install $pkg): skipped" >&2
        exit 77
    fi
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ "$check" -eq 1 ] && ! command -v qemu-system-arm >/dev/null 2>&1; then
    echo "cross-build: qemu-system-arm is not installed: the budgets cannot be checked" >&2
    exit 77
fi

if [ -z "$gen" ]; then
    h=$dir/build-cross-host
    echo "== host evrec-gen ($h)" >&2
    cmake -S "$root" -B "$h" -DEVREC_BUILD_TESTS=OFF -DEVREC_BUILD_EXAMPLES=OFF \
        -DEVREC_BUILD_BENCH=OFF >"$dir/build-cross-host.log" 2>&1 ||
        { cat "$dir/build-cross-host.log" >&2; exit 1; }
    cmake --build "$h" --target evrec-gen -j"$jobs" >>"$dir/build-cross-host.log" 2>&1 ||
        { cat "$dir/build-cross-host.log" >&2; exit 1; }
    gen=$h/schema/evrec-gen
fi

# ---- builds ----
for t in $targets; do
    for o in $opts; do
        b=$dir/build-cross-$t$o
        case $t in
        cortex-*) tc="-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/arm-none-eabi.cmake -DEVREC_CPU=$t" ;;
        *) tc="-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/riscv64-unknown-elf.cmake -DEVREC_ARCH=$t" ;;
        esac
        echo "== build $t $o" >&2
        # shellcheck disable=SC2086
        if ! { cmake -S "$root/examples/firmware" -B "$b" $tc -DEVREC_FW_OPT="$o" \
                   -DEVREC_GEN_EXECUTABLE="$gen" && cmake --build "$b" -j"$jobs"; } >"$b.log" 2>&1; then
            cat "$b.log" >&2
            echo "cross-build: $t $o failed (log: $b.log)" >&2
            exit 1
        fi
    done
done

# ---- table ----
# sizes_of ARCHIVE...: "name text data bss" per object, from berkeley size output.
sizes_of() {
    "$size" "$@" | awk 'NR > 1 && $6 != "" { n = $6; sub(/\.c\.obj$|\.c\.o$/, "", n); print n, $1, $2, $3 }'
}
# section_size ELF SECTION: bytes of one section (0 if absent).
section_size() {
    "$size" -A "$1" | awk -v s="$2" '$1 == s { print $2; f = 1 } END { if (!f) print 0 }'
}
# symbol_size ELF SYMBOL: st_size of a data symbol (0 if absent).
symbol_size() {
    "$nm" -S "$1" | awk -v s="$2" '$4 == s { print $2; f = 1 } END { if (!f) print 0 }' |
        { read -r v; printf '%d\n' "0x$v"; }
}

miss=0
printf '%-14s %-3s | %5s %6s %5s %5s %5s %6s %5s | %6s %4s %5s %5s | %5s %4s %4s %5s %5s\n' \
    target opt core cyclic recov save meta crc32c port libRAM objs fwROM fwRAM value 3fld tick c3fld s3fld
for t in $targets; do
    p=$(prefix_of "$t")
    size=$p-size
    nm=$p-nm
    for o in $opts; do
        b=$dir/build-cross-$t$o
        rec=$b/port/libevrec_recorder.a
        port=$(ls "$b"/port/libevrec_port_*.a)
        set -- $(sizes_of "$rec" | awk '
            $1 == "save" || $1 == "tracks" || $1 == "attrs" || $1 == "save_index" || $1 == "save_recorder" || $1 == "save_lanes" { save += $2; next }
            $1 == "meta" { meta += $2; next }
            $1 == "crc32c" { crc += $2; next } $1 == "cyclic" { cyc += $2; next }
            $1 == "recover" || $1 == "keep_meta" { recov += $2; ram += $3 + $4; next }
            $1 == "lanes" { ram += $3 + $4; next } # evrec_lanes_*: linked only when called
            $1 == "rtt" { ram += $3 + $4; next } # evrec_rtt_* (transport/rtt.c): likewise
            $1 == "stream_ring" || $1 == "stream_drain" || $1 == "stream_plan" || $1 == "stream_boot" { ram += $3 + $4; next } # evrec_stream_*: likewise
            { core += $2 }
            $1 != "recorder" && $1 != "runtime_enum" && $1 != "status" {
                printf "cross-build: %s (%d B) counted in core\n", $1, $2 > "/dev/stderr" }
            { ram += $3 + $4 }
            END { print core + 0, cyc + 0, save + 0, meta + 0, crc + 0, ram + 0, recov + 0 }')
        core=$1 cyclic=$2 save=$3 meta=$4 crc=$5 libram=$6 recov=$7
        set -- $(sizes_of "$port" | awk '{ text += $2; ram += $3 + $4 } END { print text + 0, ram + 0 }')
        porttext=$1
        libram=$((libram + $2))
        elf=$b/evrec-fw.elf
        objs=$(( $(symbol_size "$elf" fw_host) + $(symbol_size "$elf" recorder) ))
        set -- $("$size" "$elf" | awk 'NR == 2 { print $1, $2, $3 }')
        trace=$(section_size "$elf" .evrec_trace)
        fwrom=$(($1 + $2))
        fwram=$(($2 + $3 - trace))
        value=- sw=- tick=- csw=- ssw=-
        machine=""
        case $t in
        cortex-m4) machine=mps2-an386 ;;
        cortex-m3 | cortex-m0plus) machine=mps2-an385 ;;
        esac
        if [ -n "$machine" ] && command -v qemu-system-arm >/dev/null 2>&1; then
            counts=$("$root/scripts/insn-count.sh" -m "$machine" "$b/evrec-insn.elf") ||
                { echo "cross-build: instruction count failed for $t $o" >&2; exit 1; }
            value=$(echo "$counts" | awk '$1 == "value" { print $2 }')
            sw=$(echo "$counts" | awk '$1 == "switch" { print $2 }')
            tick=$(echo "$counts" | awk '$1 == "tick" { print $2 }')
            csw=$(echo "$counts" | awk '$1 == "cswitch" { printf "%.1f", $2 }')
            ssw=$(echo "$counts" | awk '$1 == "sswitch" { printf "%.1f", $2 }')
        fi
        printf '%-14s %-3s | %5d %6d %5d %5d %5d %6d %5d | %6d %4d %5d %5d | %5s %4s %4s %5s %5s\n' \
            "$t" "$o" "$core" "$cyclic" "$recov" "$save" "$meta" "$crc" "$porttext" "$libram" "$objs" "$fwrom" "$fwram" \
            "$value" "$sw" "$tick" "$csw" "$ssw"
        if [ "$check" -eq 1 ] && [ "$t" = cortex-m4 ]; then
            budget() { # name value limit [soft]
                if [ "$2" = - ]; then
                    echo "budget: $1 not measured (qemu-system-arm missing)" >&2; miss=1
                elif awk -v a="$2" -v b="$3" 'BEGIN { exit !(a + 0 <= b + 0) }'; then
                    echo "budget: $1 = $2 <= $3: PASS" >&2
                elif [ "${4:-}" = soft ]; then
                    echo "budget: $1 = $2 > $3: MISS (not enforced without -r)" >&2
                else
                    echo "budget: $1 = $2 > $3: MISS" >&2; miss=1
                fi
            }
            case $o in
            -Os) budget "cortex-m4 -Os core ROM (bytes)" "$core" 2048
                 if [ "$strict_ram" -eq 1 ]; then ram_kind=hard; else ram_kind=soft; fi
                 budget "cortex-m4 -Os RAM beyond the trace buffer (libRAM + objs, bytes)" \
                     $((libram + objs)) 64 "$ram_kind" ;;
            -O2) budget "cortex-m4 -O2 3-field record (instructions)" "$sw" 34
                 budget "cortex-m4 -O2 3-field record, cyclic steady state (instructions)" \
                     "$csw" 52
                 budget "cortex-m4 -O2 3-field record, streaming (instructions)" "$ssw" 36 ;;
            esac
        fi
    done
done
[ "$miss" -eq 0 ] || exit 1
