#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile check of the evrec FreeRTOS hooks in a kernel port built with a cross compiler:
#   kernel_compile.sh KERNEL_DIR CONFIG_DIR PORT_SUBDIR OUT_DIR CC [CFLAGS...]
# compiles the kernel's tasks.c, queue.c, timers.c and PORT_SUBDIR/port.c with CONFIG_DIR's
# FreeRTOSConfig.h (PORT_SUBDIR "-": no port.c, CONFIG_DIR holds a stub portmacro.h), then checks
# that the objects call the hooks (nm). Exit 77 (skipped) when CC is not installed.
set -eu
kernel=$1 config=$2 port=$3 out=$4 cc=$5
shift 5
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "skipped: $cc is not installed"
    exit 77
fi
case $cc in
*gcc) nm=${cc%gcc}nm ;;
*) nm=nm ;;
esac
here=$(cd "$(dirname "$0")/../../ports/rtos/freertos" && pwd)
mkdir -p "$out"
rm -f "$out"/*.o
files="tasks.c queue.c timers.c event_groups.c"
hooks="switched_in task_new task_ready queue_done object_create notify notify_self group_create group_set group_end group_block"
port_inc=
if [ "$port" != "-" ]; then
    files="$files $port/port.c"
    hooks="$hooks isr_enter isr_exit"
    port_inc=-I"$kernel/$port"
fi
for f in $files; do
    "$cc" "$@" -c -Werror=implicit-function-declaration -I"$config" -I"$here" -I"$kernel/include" \
        $port_inc "$kernel/$f" -o "$out/$(basename "$f").o"
done
undefined=$("$nm" -u "$out"/*.o | grep -c 'evrec_freertos_' || true)
echo "$cc: the kernel (port $port) compiled with the hooks; $undefined hook call site(s) by symbol"
for hook in $hooks; do
    if ! "$nm" -u "$out"/*.o | grep -q "evrec_freertos_$hook\$"; then
        echo "FAIL: no call of evrec_freertos_$hook in the kernel's objects"
        exit 1
    fi
done
