#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The output-path rule (ports/posix/include/evrec_out_file.h) for every program and every option
# that writes a file: each writes OUT when OUT is
#   absent    -> a new regular file                 regular  -> replaced (new content)
#   symlink   -> the file it names replaced, the link stays
#   dangling  -> refused, nothing created through the link
#   chardev   -> written in place (a null device node made with mknod; /dev/null as non-root)
#   fifo      -> written in place, its reader gets the bytes
#   dir       -> refused, the directory left
#   rofs      -> a file on a read-only tmpfs: refused, the file left
#   full      -> a file on a full tmpfs (ENOSPC): the run fails, the file left
#   empty     -> (qs-decode, syst-decode) a stream with no event: refused, the file left
# and never leaves a temporary file. `export --ctf DIR` writes a directory: new or empty only.
# rofs and full need mount(2) (root): reported "skip" where it is not allowed.
# Prints the matrix (program x case) as a Markdown table; exits 1 when a cell is FAIL.
# Usage: output_matrix.sh EVREC EVREC_DEMO EVREC_GEN IMAGE_TOOL DATA_DIR SOURCE_DIR WORK_DIR
set -u
evrec=$1 demo=$2 gen=$3 image_tool=$4 data=$5 src=$6 work=$7
for m in $(grep " $work/" /proc/mounts 2>/dev/null | cut -d' ' -f2); do umount "$m" 2>/dev/null; done
rm -rf "$work"
mkdir -p "$work/in" "$work/tmp"
TMPDIR=$work/tmp
export TMPDIR
in=$work/in
ref=$data/ccore/ref.bin
yaml=$src/examples/demo/demo.yaml
"$demo" --frames 5 --fps 0 -o "$in/demo.evr" >/dev/null || exit 1
"$evrec" qs "$in/demo.evr" -o "$in/demo.qs" 2>/dev/null || exit 1
"$evrec" syst "$in/demo.evr" -o "$in/demo.syst" 2>/dev/null || exit 1
"$image_tool" "$in/image.bin" || exit 1
: >"$in/empty"

programs="export-csv export-jsonl export-ccore timeline-svg timeline-png timeline-layout qs syst syst-text
syst-collateral qs-decode syst-decode recover schema gen-depfile gen-collateral demo demo-qs"
if "$evrec" export --help | grep -q -- "--perfetto"; then
    programs="$programs export-perfetto"
fi
if "$evrec" export --help | grep -q -- "--ctf"; then
    programs="$programs export-ctf"
fi
cases="absent regular symlink dangling chardev fifo dir rofs full empty"

ext_of() {
    case $1 in
    export-csv) echo .csv ;; export-jsonl) echo .jsonl ;; export-ccore) echo .bin ;;
    export-perfetto) echo .pftrace ;; timeline-svg) echo .svg ;; timeline-png) echo .png ;;
    timeline-layout | syst-text) echo .txt ;; qs | demo-qs) echo .qs ;; syst) echo .syst ;;
    syst-collateral | gen-collateral) echo .xml ;; schema) echo .yaml ;; gen-depfile) echo .d ;;
    export-ctf) echo "" ;; *) echo .evr ;;
    esac
}

# run PROGRAM OUT DIR STREAM: the program writing OUT (side files in DIR; STREAM: the decoders' input).
run() {
    p=$1 o=$2 d=$3 s=$4
    case $p in
    export-csv) "$evrec" export -q --csv "$o" "$ref" ;;
    export-jsonl) "$evrec" export -q --jsonl "$o" "$ref" ;;
    export-ccore) "$evrec" export -q --ccore "$o" "$ref" ;;
    export-perfetto) "$evrec" export -q --perfetto "$o" "$in/demo.evr" ;;
    export-ctf) "$evrec" export --ctf "$o" "$ref" ;;
    timeline-svg | timeline-png) "$evrec" timeline "$in/demo.evr" -o "$o" ;;
    timeline-layout) "$evrec" timeline "$in/demo.evr" -o "$d/side.svg" --layout "$o" ;;
    qs) "$evrec" qs "$in/demo.evr" -o "$o" ;;
    syst) "$evrec" syst "$in/demo.evr" -o "$o" ;;
    syst-text) "$evrec" syst "$in/demo.evr" --text -o "$o" ;;
    syst-collateral) "$evrec" syst "$in/demo.evr" --collateral "$o" ;;
    qs-decode) "$evrec" qs-decode --meta "$in/demo.evr" "${s:-$in/demo.qs}" -o "$o" ;;
    syst-decode) "$evrec" syst-decode --meta "$in/demo.evr" "${s:-$in/demo.syst}" -o "$o" ;;
    recover) "$evrec" recover -o "$o" "$in/image.bin" ;;
    schema) "$evrec" schema "$in/demo.evr" -o "$o" ;;
    gen-depfile) "$gen" "$yaml" -o "$d/gen" --depfile "$o" ;;
    gen-collateral) "$gen" "$yaml" -o "$d/gen" --syst-collateral "$o" ;;
    demo) "$demo" --frames 3 --fps 0 -o "$o" ;;
    demo-qs) "$demo" --frames 3 --fps 0 -o "$d/side.evr" --qs "$o" ;;
    esac
}

holds_old() { [ -f "$1" ] && [ "$(cat "$1")" = OLD ]; }
new_content() { [ -f "$1" ] && [ -s "$1" ] && [ "$(head -c 3 "$1")" != OLD ]; }

# mount_tmpfs DIR: a 64 KiB tmpfs at DIR, or return 1.
mount_tmpfs() { mkdir -p "$1" && mount -t tmpfs -o size=64k tmpfs "$1" 2>/dev/null; }

# cell PROGRAM CASE: run one case; prints the cell text.
cell() {
    p=$1 c=$2
    d=$work/m/$p/$c
    mkdir -p "$d"
    x=$(ext_of "$p")
    o=$d/out$x stream="" reader="" verdict=""
    ctf=0
    [ "$p" = export-ctf ] && ctf=1
    case $c in
    regular) echo OLD >"$o" ;;
    symlink) echo OLD >"$d/target$x"; ln -s "target$x" "$o" ;;
    dangling) ln -s "nowhere$x" "$o" ;;
    chardev) mknod "$o" c 1 3 2>/dev/null || ln -s /dev/null "$o" ;;
    fifo)
        mkfifo "$o"
        if [ $ctf = 0 ]; then
            cat "$o" >"$d/got" &
            reader=$!
        fi
        ;;
    dir) mkdir "$o" ;;
    rofs | full)
        mount_tmpfs "$d/mnt" || { echo "skip (no mount)"; return; }
        o=$d/mnt/out$x
        [ $ctf = 1 ] || echo OLD >"$o"
        if [ $c = rofs ]; then
            mount -o remount,ro "$d/mnt"
        else
            dd if=/dev/zero of="$d/mnt/filler" bs=4096 2>/dev/null
        fi
        ;;
    empty)
        case $p in qs-decode | syst-decode) ;; *) echo "-"; return ;; esac
        echo OLD >"$o"
        stream=$in/empty
        ;;
    esac
    rc=0
    run "$p" "$o" "$d" "$stream" >"$d/log" 2>&1 || rc=$?
    if [ -n "$reader" ]; then
        (sleep 10; kill "$reader" 2>/dev/null) >/dev/null 2>&1 &
        watchdog=$!
        wait "$reader" 2>/dev/null
        kill "$watchdog" 2>/dev/null
    fi
    if [ $ctf = 1 ]; then
        case $c in
        absent) [ $rc = 0 ] && [ -d "$o" ] && [ -n "$(ls "$o")" ] && verdict="created" ;;
        regular) [ $rc != 0 ] && holds_old "$o" && verdict="refused, kept" ;;
        symlink) [ $rc != 0 ] && [ -L "$o" ] && holds_old "$d/target$x" && verdict="refused, kept" ;;
        dangling) [ $rc != 0 ] && [ -L "$o" ] && [ ! -e "$d/nowhere$x" ] && verdict="refused" ;;
        chardev) [ $rc != 0 ] && { [ -c "$o" ] || [ -L "$o" ]; } && verdict="refused, kept" ;;
        fifo) [ $rc != 0 ] && [ -p "$o" ] && verdict="refused, kept" ;;
        dir) [ $rc = 0 ] && [ -n "$(ls "$o")" ] && verdict="empty dir filled" ;;
        rofs) [ $rc != 0 ] && [ ! -e "$o" ] && verdict="refused" ;;
        full) [ $rc != 0 ] && [ ! -e "$o" ] && verdict="failed, nothing left" ;;
        esac
    else
        case $c in
        absent) [ $rc = 0 ] && new_content "$o" && [ ! -L "$o" ] && verdict="created" ;;
        regular) [ $rc = 0 ] && new_content "$o" && [ ! -L "$o" ] && verdict="replaced" ;;
        symlink) [ $rc = 0 ] && [ -L "$o" ] && new_content "$d/target$x" && verdict="target replaced" ;;
        dangling) [ $rc != 0 ] && [ -L "$o" ] && [ ! -e "$d/nowhere$x" ] && verdict="refused" ;;
        chardev) [ $rc = 0 ] && { [ -c "$o" ] || [ -L "$o" ]; } && verdict="in place" ;;
        fifo) [ $rc = 0 ] && [ -p "$o" ] && [ -s "$d/got" ] && verdict="in place" ;;
        dir) [ $rc != 0 ] && [ -d "$o" ] && [ -z "$(ls -A "$o")" ] && verdict="refused" ;;
        rofs) [ $rc != 0 ] && holds_old "$o" && verdict="refused, kept" ;;
        full) [ $rc != 0 ] && holds_old "$o" && verdict="failed, kept" ;;
        empty) [ $rc != 0 ] && holds_old "$o" && verdict="refused, kept" ;;
        esac
    fi
    left=$(find "$d" "$TMPDIR" -name '.*' ! -name . 2>/dev/null | head -1)
    if [ -n "$left" ]; then
        verdict=""
        echo "$p/$c: temporary file left: $left" >>"$work/failures"
    fi
    if [ -z "$verdict" ]; then
        {
            echo "$p/$c: exit status $rc; $(ls -la "$o" 2>&1)"
            sed 's/^/    /' "$d/log"
        } >>"$work/failures"
        verdict="FAIL"
    fi
    grep -q " $d/mnt " /proc/mounts 2>/dev/null && umount "$d/mnt"
    rm -f "$TMPDIR"/.??* 2>/dev/null
    echo "$verdict"
}

: >"$work/failures"
header="| program |"
rule="|---|"
for c in $cases; do
    header="$header $c |"
    rule="$rule---|"
done
echo "$header"
echo "$rule"
for p in $programs; do
    line="| $p |"
    for c in $cases; do
        line="$line $(cell "$p" "$c") |"
    done
    echo "$line"
done
if [ -s "$work/failures" ]; then
    echo
    echo "Failures:"
    cat "$work/failures"
    exit 1
fi
exit 0
