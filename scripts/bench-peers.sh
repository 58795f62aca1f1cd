#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# evrec against its peers (barectf, LTTng-UST, snprintf) in one command; writes
# bench/peers/BENCHMARKS.md and prints it. See bench/peers/README.md.
#
#   scripts/bench-peers.sh [--quick] [-o FILE] [-b BUILD_DIR]
#
#   --quick   small N and few rounds (CI): checks that every contender ran and the file was
#             written; the Cortex-M4 counts are skipped. The figures of a quick run mean little.
#   -o FILE   where the Markdown goes (default bench/peers/BENCHMARKS.md; --quick: BUILD_DIR/BENCHMARKS-quick.md)
#   -b DIR    build directory (default build-peers)
#
# Installs what it needs from Debian when missing (as root, or through sudo; otherwise it stops
# and prints the apt-get line): the build deps of evrec, liblttng-ust-dev, lttng-tools,
# python3-barectf, babeltrace2; for the Cortex-M4 counts gcc-arm-none-eabi and qemu-system-arm
# (when they cannot be installed those rows say "not measured" and why).
# Starts an LTTng session daemon (unless one runs) and a snapshot session for the run, and stops
# and destroys them at the end, also on failure.
# Exit status: 0 done, 1 a step failed (or --quick: a contender did not run), 2 bad usage.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=0
out=""
build="build-peers"
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    -o) [ $# -ge 2 ] || { echo "bench-peers: -o needs a file" >&2; exit 2; }; out=$2; shift ;;
    -b) [ $# -ge 2 ] || { echo "bench-peers: -b needs a directory" >&2; exit 2; }; build=$2; shift ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "bench-peers: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$out" ] || if [ $quick -eq 1 ]; then out=$build/BENCHMARKS-quick.md; else out=bench/peers/BENCHMARKS.md; fi
say() { echo "bench-peers: $*" >&2; }

load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)

# ---- dependencies
EVREC_EXTRA_PKGS="liblttng-ust-dev lttng-tools python3-barectf babeltrace2" ./scripts/deps.sh --demo ||
    { say "install the packages above, then run again"; exit 1; }
m4_why=""
if [ $quick -eq 1 ]; then
    m4_why="not measured (--quick)"
elif ! command -v arm-none-eabi-gcc >/dev/null 2>&1 || ! command -v qemu-system-arm >/dev/null 2>&1; then
    if EVREC_EXTRA_PKGS="gcc-arm-none-eabi qemu-system-arm" ./scripts/deps.sh --demo >/dev/null 2>&1 &&
        command -v arm-none-eabi-gcc >/dev/null 2>&1 && command -v qemu-system-arm >/dev/null 2>&1; then
        :
    else
        m4_why="not measured (gcc-arm-none-eabi and qemu-system-arm are not installed and could not be)"
    fi
fi

# ---- build
say "building in $build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVREC_BENCH_PEERS=ON -DEVREC_BUILD_TESTS=OFF \
    -DEVREC_BUILD_EXAMPLES=ON >"$build.cmake.log" 2>&1 || { cat "$build.cmake.log" >&2; exit 1; }
rm -f "$build.cmake.log"
cmake --build "$build" -j"$(nproc)" --target evrec-bench-peers evrec evrec-gen evrec-demo evrec-bench-demo-save >/dev/null
bench=$build/bench/peers/evrec-bench-peers
evrec=$build/viewer-cli/evrec
work=$(cd "$build" && pwd)/peers-run
rm -rf "$work"
mkdir -p "$work"

# ---- LTTng: a session daemon and an active snapshot session for the record run
session=evrec-peers-$$
our_sessiond=""
session_made=0
cleanup() {
    if [ $session_made -eq 1 ]; then
        lttng stop "$session" >/dev/null 2>&1 || true
        lttng destroy "$session" >/dev/null 2>&1 || true
    fi
    if [ -n "$our_sessiond" ]; then
        kill "$our_sessiond" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
if [ "$(id -u)" -eq 0 ]; then rundir=/var/run/lttng; else rundir=${LTTNG_HOME:-$HOME}/.lttng; fi
if lttng list >/dev/null 2>&1; then
    say "using the LTTng session daemon that runs already"
else
    lttng-sessiond --daemonize --no-kernel
    our_sessiond=$(cat "$rundir/lttng-sessiond.pid" 2>/dev/null || true)
    [ -n "$our_sessiond" ] || { say "lttng-sessiond started but wrote no pid file in $rundir"; exit 1; }
fi
# Snapshot mode: the channel overwrites its oldest packets (flight recorder), nothing goes to
# disk while the benchmark runs, no event is discarded. Per-user buffers, one per CPU.
lttng create "$session" --snapshot -o "$work/lttng" >/dev/null
session_made=1
lttng enable-channel -u -s "$session" --buffers-uid --subbuf-size=1M --num-subbuf=4 peers >/dev/null
lttng enable-event -u -s "$session" -c peers 'evrec_peers:bench' >/dev/null
lttng start "$session" >/dev/null

# ---- record cost
if [ $quick -eq 1 ]; then rec_args="--quick"; n_trace=20000; reps=1; else rec_args=""; n_trace=1000000; reps=5; fi
say "record cost (evrec-bench-peers record $rec_args)"
# shellcheck disable=SC2086
"$bench" record $rec_args --require-all >"$work/record.md"
lttng snapshot record -s "$session" >/dev/null
lttng stop "$session" >/dev/null
lttng destroy "$session" >/dev/null
session_made=0
lttng_events=$(babeltrace2 "$work/lttng" 2>/dev/null | wc -l)
lttng_bytes=$(find "$work/lttng" -type f ! -name metadata ! -path '*/index/*' -exec cat {} + | wc -c)
[ "$lttng_events" -gt 0 ] || { say "the LTTng snapshot holds no event"; exit 1; }
if [ -n "$our_sessiond" ]; then
    kill "$our_sessiond" 2>/dev/null || true
    our_sessiond=""
fi
ran=$(sed -n 's/^ran: //p' "$work/record.md")
# Every contender of bench/peers/contenders.c must have run.
for k in floor evrec evrec-cyclic evrec-lanes evrec-qs barectf lttng snprintf; do
    case " $ran " in *" $k "*) ;; *) say "contender $k did not run"; exit 1 ;; esac
done

# ---- sizes and the equivalent traces
say "traces of $n_trace events"
"$bench" traces "$work" "$n_trace"
evr_bytes=$(wc -c <"$work/evrec.evr")
ctf_bytes=$(wc -c <"$work/ctf/stream_0")
bytes_of() { sed -n "s/^bytes $1 //p" "$work/record.md"; }

# ---- read throughput
# CPU time (user + system) of a command, seconds, median of $reps runs; its stdout is discarded.
median_time() { "$bench" time "$reps" "$@" || { say "failed: $*"; exit 1; }; }
rate() { awk -v n="$n_trace" -v s="$1" 'BEGIN { if (s > 0) printf "%.2f", n / s / 1e6; else printf "-" }'; }
say "read throughput"
api=$("$bench" read "$work/evrec.evr" $((reps * 2 + 1)) | awk '{ printf "%.2f", $4 / 1e6 }')
t_dump=$(median_time "$evrec" dump "$work/evrec.evr")
t_stats=$(median_time "$evrec" stats "$work/evrec.evr")
t_bt=$(median_time babeltrace2 "$work/ctf")
bt_lines=$(babeltrace2 "$work/ctf" | wc -l)
[ "$bt_lines" -eq "$n_trace" ] || { say "babeltrace2 printed $bt_lines events of the CTF trace, not $n_trace"; exit 1; }
dump_lines=$("$evrec" dump "$work/evrec.evr" | wc -l)
[ "$dump_lines" -ge "$n_trace" ] || { say "evrec dump printed $dump_lines lines, fewer than $n_trace"; exit 1; }

# ---- save vs memcpy
say "save against memcpy"
if [ $quick -eq 1 ]; then "$bench" save --quick >"$work/save.md"; else "$bench" save >"$work/save.md"; fi
say "save on the demo's stream"
"$build/examples/evrec-demo" -o "$work/demo.evr" --frames 300 >/dev/null 2>&1 || { say "evrec-demo failed"; exit 1; }
if [ $quick -eq 1 ]; then demo_args="8 3"; else demo_args="64 15"; fi
# shellcheck disable=SC2086
"$build/bench/evrec-bench-demo-save" "$work/demo.evr" $demo_args >"$work/demo-save.txt" ||
    { say "evrec-bench-demo-save failed"; exit 1; }

# ---- Cortex-M4
m4_oneshot="" m4_cyclic="" m4_qs="" m4_barectf=""
if [ -z "$m4_why" ]; then
    say "Cortex-M4 instruction counts (QEMU)"
    if scripts/cross-build.sh -d "$work/cross" -t cortex-m4 -O "-Os -O2" -g "$build/schema/evrec-gen" \
            >"$work/cross.txt" 2>"$work/cross.err" &&
        tests/qs/m4/qs-insn-count.sh >"$work/qs-insn.txt" 2>"$work/qs-insn.err"; then
        # Columns of cross-build.sh: target opt | core cyclic recov save meta crc32c port | ... | value 3fld tick c3fld
        row() { awk -v o="$1" '$1 == "cortex-m4" && $2 == o { gsub(/\|/, " "); print }' "$work/cross.txt"; }
        # shellcheck disable=SC2046
        set -- $(row -O2)
        o2_core=$3 o2_cyc=$4 o2_3fld=${15} o2_c3fld=${17}
        # shellcheck disable=SC2046
        set -- $(row -Os)
        os_core=$3 os_cyc=$4 os_3fld=${15} os_c3fld=${17}
        qs_ev=$(awk '$1 == "ring_primask" { print $2 }' "$work/qs-insn.txt")
        qs_rom=$(awk '$NF ~ /^qs_.*\.o$/ { s += $1 } END { print s }' "$work/qs-insn.txt")
        m4_oneshot="| evrec one-shot (3-field record) | $o2_3fld | $os_3fld | $o2_core | $os_core | measured here |"
        m4_cyclic="| evrec cyclic (3-field record, 1 KiB blocks, wrapping) | $o2_c3fld | $os_c3fld | $((o2_core + o2_cyc)) | $((os_core + os_cyc)) | measured here |"
        m4_qs="| evrec one-shot + live QS (RAM record + evrec_qs_tx_event_ex, PRIMASK lock) | $(awk -v a="$o2_3fld" -v b="$qs_ev" 'BEGIN { printf "%.1f", a + b }') | - | $((o2_core + qs_rom)) | - | measured here |"
    else
        m4_why="not measured (the count failed: see $work/cross.err, $work/qs-insn.err)"
    fi
    if [ -z "$m4_why" ]; then
        if bench/peers/m4/barectf-insn-count.sh >"$work/barectf-insn.txt" 2>"$work/barectf-insn.err"; then
            b_ev=$(awk '$1 == "barectf" { printf "%.1f", $2 }' "$work/barectf-insn.txt")
            b_rom=$(awk '$1 == "rom" { print $2 }' "$work/barectf-insn.txt")
            m4_barectf="| barectf (generated from bench/peers/barectf.yaml, 4 KiB packets, no lock) | $b_ev | - | $b_rom | - | measured here |"
        else
            m4_barectf="| barectf | not measured | | | | the count failed: $(head -1 "$work/barectf-insn.err") |"
        fi
    fi
fi

# ---- the Markdown
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
[ -n "$cpu" ] || cpu=$(uname -m)
cmd="scripts/bench-peers.sh"
[ $quick -eq 1 ] && cmd="$cmd --quick"
{
    echo "<!-- SPDX-License-Identifier: Apache-2.0 -->"
    echo "# evrec and its peers: measured"
    echo
    echo "Generated by \`$cmd\` on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit by hand."
    echo "Machine: $cpu, \`nproc\` = $(nproc), $(uname -sr), $(cc --version | head -1)."
    echo "Load average (1 min) when the run started: $load on $(nproc) CPUs; above the CPU count, other jobs"
    echo "competed for the CPUs and the figures are noisy (ratios of the same round less than the ns)."
    if [ $quick -eq 1 ]; then
        echo
        echo "**Quick run (\`--quick\`): tiny N and 3 rounds. It checks that everything runs; the figures mean little.**"
    fi
    echo
    echo "What each contender is and how it is configured: [README.md](README.md)."
    echo
    echo "## Record cost per record"
    echo
    echo "The same event everywhere: a timestamp and three fields (u8, u16, u32). All contenders run"
    echo "in one process, interleaved round by round; the floor is the timestamp read alone."
    echo
    grep -v '^bytes \|^ran:\|^<!-- bytes' "$work/record.md"
    echo
    echo "## Bytes per record"
    echo
    echo "| contender | bytes per record | what |"
    echo "|---|---:|---|"
    echo "| evrec one-shot, RAM | $(bytes_of evrec) | native slot in the trace buffer (16-byte BenchEvent) |"
    echo "| evrec, file | $(awk -v b="$evr_bytes" -v n="$n_trace" 'BEGIN { printf "%.2f", b / n }') | \`evrec_save_path\` of $n_trace records: $evr_bytes bytes (header, meta-info, chunks with CRC) |"
    echo "| evrec + live QS | $(bytes_of qs-frame) | QS frame in the transmit ring (HDLC-framed, 4-byte timestamp), on top of the RAM slot |"
    echo "| barectf | $(bytes_of barectf) | packet bytes per event (4 KiB packets, headers and unused tails included) |"
    echo "| barectf, CTF file | $(awk -v b="$ctf_bytes" -v n="$n_trace" 'BEGIN { printf "%.2f", b / n }') | stream file of the $n_trace-event trace (the same packets) |"
    echo "| LTTng-UST | $(awk -v b="$lttng_bytes" -v n="$lttng_events" 'BEGIN { printf "%.2f", b / n }') | snapshot's stream files / its $lttng_events events (packet headers included, metadata not) |"
    printf '| snprintf | %s | text line length ("<ts> bench c=.. b=.. a=..\\n") |\n' "$(bytes_of snprintf)"
    echo
    echo "## Read throughput on an equivalent trace"
    echo
    echo "$n_trace events, the same in both traces (evrec file: \`evrec-bench-peers traces\`; CTF: barectf's"
    echo "packets of the same events). Tools: CPU time (user + system) of the whole command (start-up"
    echo "and file read included), output to /dev/null, median of $reps runs; reader API: the file in"
    echo "memory, \`evrec_reader_next()\` over all records, CPU time, median of $((reps * 2 + 1))."
    echo
    echo "| reader | M records/s |"
    echo "|---|---:|"
    echo "| evrec reader API (\`evrec_reader_next\`) | $api |"
    echo "| \`evrec dump\` (text, one line per record) | $(rate "$t_dump") |"
    echo "| \`evrec stats\` | $(rate "$t_stats") |"
    echo "| \`babeltrace2\` text output of barectf's CTF trace | $(rate "$t_bt") |"
    echo
    echo "## Save against memcpy"
    echo
    cat "$work/save.md"
    echo
    awk -v mib="${demo_args%% *}" '
        /^demo order/ { n = $3; sub(/^\(/, "", n); per = $0; sub(/.*\(/, "", per); sub(/ per record\).*/, "", per) }
        /evrec_save/ { mbs = $4; pct = $(NF - 2) }
        /repetitions/ { reps = $1 }
        END {
            print "| " mib " MiB trace buffer in the order of an evrec-demo recording (" per " bytes per record) | MB/s (median) | of memcpy |"
            print "|---|---:|---:|"
            print "| evrec_save (container, CRC-32C) | " mbs " | " pct " |"
            print ""
            print "`evrec-bench-demo-save`: the demo'"'"'s meta-info and record sizes, its " n " records'"'"' event order repeated until the buffer is full (event types switch from record to record); " reps " repetitions, each paired with a memcpy of the same bytes; thread CPU time."
        }' "$work/demo-save.txt"
    echo
    echo "## Cortex-M4: instructions executed per record and ROM"
    echo
    echo "Measured rows: executed instructions counted on QEMU mps2-an386 (\`scripts/insn-count.sh\`,"
    echo "\`tests/qs/m4/qs-insn-count.sh\`, \`bench/peers/m4/barectf-insn-count.sh\`); ROM = text of the"
    echo "recorder core (plus the cyclic mode / the QS bridge's objects), from \`scripts/cross-build.sh\`;"
    echo "barectf: text of its generated \`barectf.o\` (the platform callbacks not counted)."
    echo
    echo "| recorder | instructions, -O2 | instructions, -Os | ROM bytes, -O2 | ROM bytes, -Os | source |"
    echo "|---|---:|---:|---:|---:|---|"
    if [ -n "$m4_why" ]; then
        echo "| evrec one-shot, cyclic, + live QS; barectf | $m4_why | | | | |"
    else
        echo "$m4_oneshot"
        echo "$m4_cyclic"
        echo "$m4_qs"
        echo "$m4_barectf"
    fi
    echo
    echo "Other tracers (SystemView, CMSIS Event Recorder, Tracealyzer, Trice) are not in this table."
    echo "SystemView's continuous RTT recording and Trice's direct RTT mode are measured from their public"
    echo "sources next to evrec's streaming record and drain in bench/peers/m4/README.md"
    echo "(scripts/bench-stream-m4.sh, given their checkouts); the figures the projects publish are quoted below."
    echo
    if [ -f bench/peers/RECORD.md ]; then # written by scripts/bench-record.sh
        sed 1,1d bench/peers/RECORD.md
        echo
    fi
    sed 1,1d bench/peers/QUOTED.md
} >"$out"
[ -s "$out" ] || { say "$out was not written"; exit 1; }
cat "$out"
say "wrote $out"
