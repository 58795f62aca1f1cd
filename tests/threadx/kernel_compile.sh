#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile check of the evrec ThreadX hooks in a kernel port built with a cross compiler:
#   kernel_compile.sh THREADX_DIR CONFIG_DIR PORT_SUBDIR OUT_DIR CC INCLUDES -- [CFLAGS...]
# compiles the kernel's services that carry the insert points evrec records, the port's assembly
# (scheduler, system return, context save/restore) with TX_ENABLE_EXECUTION_CHANGE_NOTIFY and
# CONFIG_DIR's tx_user.h, and evrec_threadx.c; then checks with nm that the kernel calls the
# hooks and that evrec_threadx.c defines what the port calls, and prints evrec_threadx.o's size.
# INCLUDES: ':'-separated include folders for evrec_threadx.c (the generated threadx_events.h,
# evrec's headers, the target port). Exit 77 (skipped) when CC is not installed.
set -eu
tdir=$1 config=$2 port=$3 out=$4 cc=$5 incs=$6
shift 6
[ "${1:-}" = "--" ] && shift
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "skipped: $cc is not installed"
    exit 77
fi
nm=${cc%gcc}nm
size=${cc%gcc}size
here=$(cd "$(dirname "$0")/../../ports/rtos/threadx" && pwd)
mkdir -p "$out"
rm -f "$out"/*.o
flags="-DTX_INCLUDE_USER_DEFINE_FILE -DTX_ENABLE_EXECUTION_CHANGE_NOTIFY -I$config -I$here -I$tdir/common/inc -I$tdir/$port/inc"
for f in tx_thread_create tx_thread_delete tx_thread_system_resume tx_thread_system_suspend \
         tx_queue_create tx_queue_send tx_queue_receive tx_semaphore_create tx_semaphore_get \
         tx_semaphore_put tx_mutex_create tx_mutex_get tx_mutex_put tx_event_flags_create \
         tx_event_flags_get tx_event_flags_set tx_trace_isr_enter_insert tx_trace_isr_exit_insert; do
    "$cc" "$@" $flags -c -Werror=implicit-function-declaration "$tdir/common/src/$f.c" -o "$out/$f.o"
done
for f in tx_thread_schedule tx_thread_system_return tx_thread_context_save tx_thread_context_restore; do
    "$cc" "$@" $flags -c "$tdir/$port/src/$f.S" -o "$out/$f.o"
done
evrec_inc=$(echo "$incs" | tr ':' '\n' | sed 's/^/-I/' | tr '\n' ' ')
# shellcheck disable=SC2086
"$cc" "$@" $flags $evrec_inc -c -Wall -Wextra -Werror "$here/evrec_threadx.c" -o "$out/evrec_threadx.o.x"
sites=$("$nm" -u "$out"/*.o | grep -c 'evrec_threadx_trace_insert$' || true)
echo "$cc: $port compiled with the hooks: $sites object(s) call evrec_threadx_trace_insert"
status=0
for need in evrec_threadx_trace_insert _tx_execution_thread_enter _tx_execution_thread_exit \
            _tx_execution_isr_enter _tx_execution_isr_exit; do
    if ! "$nm" -u "$out"/*.o | grep -q " $need\$"; then
        echo "FAIL: the kernel's objects do not call $need"
        status=1
    fi
done
for def in evrec_threadx_trace_insert _tx_execution_thread_enter _tx_execution_thread_exit \
           _tx_execution_isr_enter _tx_execution_isr_exit _tx_execution_initialize; do
    if ! "$nm" --defined-only "$out/evrec_threadx.o.x" | grep -q " T $def\$"; then
        echo "FAIL: evrec_threadx.c does not define $def"
        status=1
    fi
done
"$size" "$out/evrec_threadx.o.x"
exit $status
