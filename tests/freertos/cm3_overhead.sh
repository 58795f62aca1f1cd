#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tracing overhead of evrec's FreeRTOS hooks on the Cortex-M3 run (cm3/, QEMU mps2-an385):
# the same firmware built with the hooks (CM3_TRACE=1, checked by qemu_cm3_test.sh) and without
# them (CM3_TRACE=0), 2 s of emulated time each. QEMU's -icount makes virtual time proportional
# to executed instructions, and every task of the workload has a fixed amount of work per second,
# so what the hooks cost shows as less idle time. From the kernel's own run-time statistics
# (the idle task's counter and the total) of both runs:
#   overhead = non-idle share with tracing - non-idle share without (percentage points of CPU)
#
#   cm3_overhead.sh KERNEL_DIR HOST_BUILD_DIR [OPT]
# HOST_BUILD_DIR: a host build of evrec with evrec-gen and evrec built; OPT: -O2 (default), -Os.
# Output: two "run" lines and the "overhead" line. Exit 77 when qemu_cm3_test.sh skips.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 KERNEL_DIR HOST_BUILD_DIR [OPT]" >&2; exit 2; }
kernel=$(cd "$1" && pwd) host=$(cd "$2" && pwd) opt=${3:--O2}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$host/tests/freertos/cm3-overhead$opt
for trace in 1 0; do
    rc=0
    sh "$root/tests/freertos/qemu_cm3_test.sh" "$root" "$kernel" "$out/trace$trace" \
        "$host/schema/evrec-gen" "$host/viewer-cli/evrec" -DCM3_TRACE=$trace -DCM3_OPT="$opt" \
        >"$out-trace$trace.log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || { cat "$out-trace$trace.log"; exit "$rc"; }
done
awk '
FNR == 1 { run++ }
/^kernel: total / { total[run] = $3 }
/^kernel: task IDLE / { idle[run] = $4 }
/^fw: trace on recorded / { records = $5 }
END {
    for (r = 1; r <= 2; r++) {
        busy[r] = 100 * (1 - idle[r] / total[r])
        printf "run: tracing %-3s total %d ticks, idle %d ticks, non-idle %.3f%%\n", r == 1 ? "on" : "off", total[r], idle[r], busy[r]
    }
    d = busy[1] - busy[2]
    printf "overhead: %.3f percentage points of the CPU (%.2f%% more busy time); %d records, %.1f ticks (%.0f instructions at 16 ns) of CPU per record\n", d, 100 * d / busy[2], records, d / 100 * total[1] / records, d / 100 * total[1] / records * 40 / 16
}' "$out/trace1/run/console.txt" "$out/trace0/run/console.txt"
