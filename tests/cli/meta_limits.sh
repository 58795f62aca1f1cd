#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Crafted meta-infos (craft_meta.c) against the reader and the viewer:
# - bounded memory: peak RSS of each command below 64 MiB + 8 x the file size, however the file
#   multiplies per-type state (run-time enum ranges, 65,535 event types, 65,535 events on one
#   wide struct, 4,000 event types each nesting a struct of 128 leaves; CTF export of 65,535 and
#   4,000 event types used); skipped under the
#   sanitizers (their allocator keeps freed memory);
# - meta-info invariants: structs nested too deep whatever the definition order, duplicate names,
#   a plain field with a type id, enum values not ascending or twice: `evrec schema` notes them
#   and exits 1 (and evrec-gen refuses the YAML or gives another hash), `evrec check` reports
#   them, `evrec qs-decode --meta` names enum values whatever their order;
# - damage: `evrec check` and `evrec schema` exit 1 on a file with a bad STREAM chunk.
# Usage: meta_limits.sh EVREC EVREC_GEN CRAFT_META PEAK_RSS WORK_DIR SANITIZED(0|1)
set -eu
evrec=$1 gen=$2 craft=$3 peak=$4 work=$5 sanitized=$6
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }

# run NAME EXPECTED_STATUS CMD...: output in $work/out, stderr in $work/err
run() {
    name=$1 want=$2
    shift 2
    rc=0
    "$@" >out 2>err || rc=$?
    if [ "$rc" -ne "$want" ]; then
        say_fail "$name: exit status $rc, expected $want"; sed 's/^/    /' err | head -5
    fi
}
# grep_err NAME PATTERN: stderr of the last run contains PATTERN
grep_err() { grep -q -- "$2" err || { say_fail "$1: stderr lacks '$2'"; sed 's/^/    /' err | head -5; }; }
grep_out() { grep -q -- "$2" out || { say_fail "$1: output lacks '$2'"; sed 's/^/    /' out | head -5; }; }

# mem NAME FILE EXPECTED_STATUS CMD...: peak RSS bound
mem() {
    name=$1 file=$2 want=$3
    shift 3
    rc=0
    "$peak" rss "$@" >out 2>err || rc=$?
    if [ "$rc" -ne "$want" ]; then
        say_fail "$name: exit status $rc, expected $want"; sed 's/^/    /' err | head -5
    fi
    size=$(wc -c <"$file")
    kb=$(cat rss)
    limit=$((64 * 1024 + 8 * size / 1024))
    if [ "$sanitized" = 1 ]; then
        echo "ok: $name: ran (peak RSS $kb KiB not checked under the sanitizers)"
    elif [ "$kb" -gt "$limit" ]; then
        say_fail "$name: peak RSS $kb KiB for a $size-byte file (limit $limit KiB)"
    else
        echo "ok: $name: peak RSS $kb KiB for a $size-byte file (limit $limit KiB)"
    fi
}

# ---- bounded memory ----
"$craft" runtime 2000 rt.evr
mem "info, 2000 run-time enums 16384 values apart" rt.evr 1 "$evrec" info rt.evr
grep_err "info, run-time enums" "run-time enum R"
"$craft" runtime 1 rt1.evr
mem "info, one run-time enum (within the limit)" rt1.evr 0 "$evrec" info rt1.evr

"$craft" shared 65535 shared.evr
for c in dump stats info; do
    mem "$c, 65535 events on one struct" shared.evr 0 "$evrec" $c shared.evr
done
for f in csv jsonl perfetto; do
    if [ "$f" = perfetto ] && ! "$evrec" export --help | grep -q -- "--perfetto"; then
        continue
    fi
    mem "export --$f, 65535 events on one struct" shared.evr 0 "$evrec" export -q --$f "out.$f" shared.evr
done
"$craft" types 65535 types.evr
mem "dump, 65535 event types with classes and records" types.evr 0 "$evrec" dump types.evr
mem "export --jsonl, 65535 event types" types.evr 0 "$evrec" export -q --jsonl out.jsonl types.evr
# CTF: babeltrace2 makes event classes in quadratic time: only those the records use are made,
# at most 4,096 (EVREC_BT_MAX_EVENT_CLASSES); 65,535 types used are refused up front, in bounded
# memory (it took over 10 minutes and 312 MB when every class was made first)
if ! "$evrec" export -q --ctf ctf_probe /nonexistent 2>&1 | grep -q "without CTF support"; then
    mem "export --ctf, 65535 event types used (refused)" types.evr 1 "$evrec" export -q --ctf types.ctf types.evr
    grep_err "export --ctf, 65535 event types" "the records use 65534 event types; a CTF conversion takes at most 4096"
    [ ! -e types.ctf ] || say_fail "export --ctf, 65535 event types: types.ctf was left behind"
    mem "export --ctf, 65535 events on one struct" shared.evr 0 "$evrec" export -q --ctf shared.ctf shared.evr
    "$craft" types 4000 types4000.evr
    mem "export --ctf, 4000 event types (3999 with records)" types4000.evr 0 "$evrec" export -q --ctf types4000.ctf types4000.evr
    n=$(find types4000.ctf -name metadata -exec grep -c '^event {' {} +)
    [ "$n" = 3999 ] || say_fail "export --ctf, 4000 event types (3999 with records): $n event classes in the metadata, expected 3999"
fi

# Thousands of event types whose structs each nest one struct of 128 leaves: without records
# (the export writers build an event type's leaf tables on its first record), then with one
# record of each (a leaf path is kept once, not per event type)
"$craft" nested 4000 nested.evr
"$craft" nested-rec 4000 nested-rec.evr
for n in nested nested-rec; do
    for c in dump stats; do
        mem "$c, 4000 event types nesting 128 leaves ($n)" $n.evr 0 "$evrec" $c $n.evr
    done
    for f in csv jsonl perfetto; do
        if [ "$f" = perfetto ] && ! "$evrec" export --help | grep -q -- "--perfetto"; then
            continue
        fi
        mem "export --$f, 4000 event types nesting 128 leaves ($n)" $n.evr 0 \
            "$evrec" export -q --$f "$n.$f" $n.evr
    done
done
# every record exported with its leaves: the last one (E3999: leaf k holds (3999 + k - 1) mod 256)
tail -n 1 nested-rec.jsonl | grep -q '"event":"E3999",.*"x.a.a.a.a.a.a.a":159,.*"x.b.b.b.b.b.b.b":30}}' ||
    say_fail "export --jsonl nested-rec: the last record lacks its leaves"
[ "$(wc -l <nested-rec.csv)" -eq 4000 ] || say_fail "export --csv nested-rec: $(wc -l <nested-rec.csv) lines, expected 4000"
head -n 1 nested-rec.csv | grep -q ',x.a.a.a.a.a.a.a,.*,x.b.b.b.b.b.b.b,loss,' ||
    say_fail "export --csv nested-rec: the header lacks the leaf columns"

# `evrec timeline` on thousands of recorded event types (a class lane each, a legend item each):
# at most 200 lanes, scaled into 3000 px; at most 200 event types named in the legend, then
# "and N more event types" (TIMELINE.md); the span bins of a lane made by its first span
for n in nested nested-rec types; do
    for e in svg png; do
        mem "timeline -o $e, event types ($n)" $n.evr 0 "$evrec" timeline --layout "tl-$n-$e.txt" -o "tl-$n.$e" $n.evr
        h=$(awk '$1 == "size" { print $3 }' "tl-$n-$e.txt" 2>/dev/null)
        if [ -z "$h" ] || [ "$h" -gt 4000 ]; then
            say_fail "timeline -o $e ($n): picture ${h:-?} px high, expected at most 4000"
        fi
    done
done
grep -q '<tl:legend kind="more-events" count="3799"/>' tl-nested-rec.svg ||
    say_fail "timeline nested-rec: the SVG metadata lacks 'and 3799 more event types'"
[ "$(grep -c '<tl:legend kind="event"' tl-nested-rec.svg)" -eq 200 ] ||
    say_fail "timeline nested-rec: $(grep -c '<tl:legend kind="event"' tl-nested-rec.svg) event types in the legend, expected 200"
[ "$(grep -c '^row lane' tl-types-svg.txt)" -eq 200 ] ||
    say_fail "timeline types: $(grep -c '^row lane' tl-types-svg.txt) lanes, expected 200"
grep -q '(other lanes)' tl-types-svg.txt || say_fail "timeline types: no '(other lanes)' row"

# ---- nesting: the depth counts whatever the order of definition ----
for order in late early; do
    "$craft" deep-$order 8 deep8.evr
    run "dump, 8 levels ($order)" 0 "$evrec" dump deep8.evr
    grep_out "dump, 8 levels ($order)" "d.in.in.in.in.in.in.in.x=7"
    "$craft" deep-$order 9 deep9.evr
    run "dump, 9 levels ($order)" 1 "$evrec" dump deep9.evr
    grep_err "dump, 9 levels ($order)" "levels deep"
    run "schema, 9 levels ($order)" 1 "$evrec" schema deep9.evr
done

# ---- what evrec-gen refuses or hashes differently: noted, exit 1 ----
for m in dup-struct plain-ref enum-desc enum-dup; do
    "$craft" $m 0 $m.evr
    run "schema $m" 1 "$evrec" schema -o $m.yaml $m.evr
    grep_err "schema $m" "note: "
    grep_err "schema $m" "evrec-gen would refuse this schema or make tables with another schema hash"
done
"$evrec" schema -o dup.yaml dup-struct.evr 2>err || true
grep_err "schema dup-struct" "both named Twin"
"$evrec" schema -o ed.yaml enum-desc.evr 2>err || true
grep_err "schema enum-desc" "not in ascending order"
run "evrec-gen dup-struct.yaml" 1 "$gen" dup-struct.yaml -o gen_dup
run "evrec-gen enum-dup.yaml" 1 "$gen" enum-dup.yaml -o gen_edup

# evrec check sees the plain field's type id and the value order, in a container and in the
# bare CCore stream (which has no hash to fall back on)
for m in plain-ref enum-desc; do
    "$evrec" export -q --ccore $m.bin $m.evr
    for f in $m.evr $m.bin; do
        run "check $f" 1 "$evrec" check --schema $m.yaml $f
        case $m in
        plain-ref) grep_out "check $f" "has type id 0 in the schema, 3 in the file" ;;
        enum-desc) grep_out "check $f" "the values are in another order" ;;
        esac
    done
done

# qs-decode --meta: names and markers of enum values listed in descending order
run "qs enum-desc" 0 "$evrec" qs enum-desc.evr -o ed.qs
run "qs-decode --meta enum-desc" 0 "$evrec" qs-decode --meta enum-desc.evr ed.qs
grep_out "qs-decode --meta enum-desc" "phase=Early \[Up\]"
grep_out "qs-decode --meta enum-desc" "phase=Late \[Down\]"

# ---- a good file: exit 0, and evrec-gen accepts the YAML ----
"$craft" types 20 good.evr
run "schema good" 0 "$evrec" schema -o good.yaml good.evr
run "evrec-gen good.yaml" 0 "$gen" good.yaml -o gen_good
run "check good" 0 "$evrec" check --schema good.yaml good.evr

# ---- damage: a byte flipped in the last STREAM chunk's payload (the meta-info, in the first
# chunks, is intact: `check` still compares it) ----
"$craft" types 2000 big.evr
run "schema big" 0 "$evrec" schema -o big.yaml big.evr
size=$(wc -c <big.evr)
off=$((size - 8 - 8 - 3)) # inside the End record, before the END chunk's 8 bytes
cp big.evr bad.evr
printf '\377' | dd of=bad.evr bs=1 seek=$off conv=notrunc 2>/dev/null
run "check damaged" 1 "$evrec" check --schema big.yaml bad.evr
grep_err "check damaged" "CRC"
grep_out "check damaged" "is damaged"
run "schema damaged" 1 "$evrec" schema -o bad.yaml bad.evr
grep_err "schema damaged" "CRC"

exit $fail
