#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Golden transcripts of the `evrec` viewer: each case below runs one command in WORK/in (so that
# the paths in its messages are the same on every machine) and writes a transcript: the command,
# its standard output, its standard error, its exit status, then each output file (text files as
# they are, binary files and directories by SHA-256). The transcripts must equal
# EXPECTED/<case>.txt byte for byte.
#   golden.sh EVREC GOLDEN_INPUTS DATA EXPECTED WORK PERFETTO(0|1) CTF(0|1) [--update]
# --update writes the transcripts into EXPECTED instead (after an intended change of output).
set -u
evrec=$1 inputs=$2 data=$3 expected=$4 work=$5 perfetto=$6 ctf=$7 update=${8:-}
abs() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(pwd)" "$1" ;; esac; }
evrec=$(abs "$evrec") inputs=$(abs "$inputs") data=$(abs "$data") expected=$(abs "$expected") work=$(abs "$work")
rm -rf "$work"
mkdir -p "$work/in" "$work/got" || exit 1
"$inputs" "$work/in" || exit 1
cp "$data/ccore/ref.bin" "$data/qs/sample.bin" "$data/syst/frames.txt" "$data/syst/len_frames.txt" \
    "$work/in/" || exit 1
cd "$work/in" || exit 1
# Under the sanitizers LeakSanitizer lists the suppressions it used (cairo's, tests/lsan.supp) on
# stderr at exit: not part of evrec's output.
if [ -n "${LSAN_OPTIONS:-}" ]; then
    LSAN_OPTIONS="$LSAN_OPTIONS:print_suppressions=0"
    export LSAN_OPTIONS
fi
failed=0

# Output file or directory $1 of the case, into the transcript $2.
show_file() {
    if [ -f "$1/metadata" ]; then
        show_ctf "$1" "$2"
    elif [ -d "$1" ]; then
        (cd "$1" && find . -type f | LC_ALL=C sort | while read -r f; do
            printf -- '--- file %s/%s sha256 %s\n' "$1" "${f#./}" "$(sha256sum < "$f" | cut -d' ' -f1)"
        done) >> "$2"
    elif [ ! -e "$1" ]; then
        printf -- '--- file %s absent\n' "$1" >> "$2"
    elif LC_ALL=C grep -q '[^[:print:][:space:]]' "$1"; then
        printf -- '--- file %s sha256 %s\n' "$1" "$(sha256sum < "$1" | cut -d' ' -f1)" >> "$2"
    else
        printf -- '--- file %s\n' "$1" >> "$2"
        cat "$1" >> "$2"
    fi
}

# A CTF trace directory $1 into the transcript $2: its metadata without the trace UUID (new on
# every run), the sizes of its stream files (their packet headers carry the UUID too); and, when
# the babeltrace2 command is installed, what it prints for the trace, compared with
# EXPECTED/<case>.babeltrace2.
show_ctf() {
    printf -- '--- ctf %s metadata\n' "$1" >> "$2"
    sed 's/^\(\s*uuid = \)".*";$/\1"(uuid)";/' "$1/metadata" >> "$2"
    (cd "$1" && find . -type f ! -name metadata | LC_ALL=C sort | while read -r f; do
        printf -- '--- ctf %s/%s %s bytes\n' "$1" "${f#./}" "$(wc -c < "$f" | tr -d ' ')"
    done) >> "$2"
    if command -v babeltrace2 > /dev/null 2>&1; then
        bt="$work/got/$name.babeltrace2"
        (cd "$work/in" && babeltrace2 "$1" 2>&1) | sed -e "s/UUID: [0-9a-f-]*/UUID: (uuid)/" -e "s|$work/|WORK/|g" > "$bt"
        if [ "$update" = --update ]; then
            cp "$bt" "$expected/$name.babeltrace2"
        elif ! cmp -s "$bt" "$expected/$name.babeltrace2"; then
            echo "golden: babeltrace2 $1 ($name) differs from $expected/$name.babeltrace2:"
            diff -u "$expected/$name.babeltrace2" "$bt" | head -40
            failed=1
        fi
    fi
}

# run NAME [files=F1,F2] [stdin=F] ARGS...: one case.
run() {
    name=$1
    shift
    files= stdin=/dev/null
    case "${1:-}" in files=*) files=${1#files=}; shift ;; esac
    case "${1:-}" in stdin=*) stdin=${1#stdin=}; shift ;; esac
    t="$work/got/$name.txt"
    printf '$ evrec %s\n' "$*" > "$t"
    "$evrec" "$@" < "$stdin" > "$work/got/$name.out" 2> "$work/got/$name.err"
    rc=$?
    out="$work/got/$name.out"
    if LC_ALL=C grep -q '[^[:print:][:space:]]' "$out"; then
        printf -- '--- stdout sha256 %s\n' "$(sha256sum < "$out" | cut -d' ' -f1)" >> "$t"
    else
        printf -- '--- stdout\n' >> "$t"
        cat "$out" >> "$t"
    fi
    printf -- '--- stderr\n' >> "$t"
    cat "$work/got/$name.err" >> "$t"
    printf -- '--- exit %s\n' "$rc" >> "$t"
    old_ifs=$IFS
    IFS=,
    for f in $files; do
        show_file "$f" "$t"
    done
    IFS=$old_ifs
    if [ "$update" = --update ]; then
        cp "$t" "$expected/$name.txt"
    elif ! cmp -s "$t" "$expected/$name.txt"; then
        echo "golden: $name differs from $expected/$name.txt:"
        diff -u "$expected/$name.txt" "$t" | head -40
        failed=1
    fi
}

# ---- dump ----
run dump dump demo.evr
run dump_hex dump --hex demo.evr
run dump_raw dump --raw demo.evr
run dump_raw_hex dump --raw --hex demo.evr
run dump_offsets_index dump --offsets --index demo.evr
run dump_time_order dump --time-order demo.evr
run dump_time_freq dump --time-freq 32768 demo.evr
run dump_select dump --event TaskSwitch,Sent --where 'state == Blocked or packet.length > 15' demo.evr
run dump_window dump --from '#10' --to 3ms --limit 12 demo.evr
run dump_class dump --class PhaseChange --time-order demo.evr
run dump_ccore dump demo.ccore
run dump_index dump --index demo.evr
run dump_damaged2 dump --offsets damaged.evr
run dump_damaged_order dump --time-order damaged.evr
run dump_ref dump ref.bin
run dump_ref_hex dump --hex --offsets ref.bin
run dump_stdin stdin=demo.evr dump -
run dump_ref_stdin stdin=ref.bin dump --index -
# ---- info, stats ----
run info info demo.evr
run info_ccore info demo.ccore
run info_damaged info damaged.evr
run info_ref info ref.bin
run stats stats demo.evr
run stats_json stats --format json demo.evr
run stats_top stats --top 2 --event Sent,IsrExit demo.evr
run stats_damaged stats damaged.evr
run stats_damaged_json stats --format json damaged.evr
run stats_ref stats ref.bin
run stats_ref_json stats --format json ref.bin
# ---- export ----
run export_csv files=out.csv export --quiet --csv out.csv demo.evr
run export_jsonl files=out.jsonl export --quiet --jsonl out.jsonl demo.evr
run export_ccore files=out.ccore export --quiet --ccore out.ccore demo.evr
run export_damaged_csv files=damaged.csv export --quiet --csv damaged.csv damaged.evr
run export_damaged_jsonl files=damaged.jsonl export --quiet --jsonl damaged.jsonl damaged.evr
run export_damaged_ccore files=damaged.ccore export --quiet --ccore damaged.ccore damaged.evr
run export_damaged_ccore_dump dump damaged.ccore
run export_ref_csv files=ref.csv export --quiet --csv ref.csv ref.bin
run export_ref_jsonl files=ref.jsonl export --quiet --jsonl ref.jsonl ref.bin
run export_ref_ccore files=ref.ccore export --quiet --ccore ref.ccore ref.bin
run export_select_csv files=sel.csv export --quiet --event Sent --where 'packet.length < 20' --csv sel.csv demo.evr
run export_select_jsonl files=sel.jsonl export --quiet --from '#5' --limit 9 --jsonl sel.jsonl demo.evr
run export_ccore_window files=win.ccore export --quiet --reorder-window 2 --ccore win.ccore demo.evr
run export_stdout export --quiet --csv - demo.ccore
run export_jsonl_stdout export --quiet --jsonl - ref.bin
if [ "$perfetto" = 1 ]; then
    run export_perfetto files=out.pftrace export --quiet --perfetto out.pftrace demo.evr
    run export_perfetto_damaged files=damaged.pftrace export --quiet --perfetto damaged.pftrace damaged.evr
    run export_perfetto_ref files=ref.pftrace export --quiet --perfetto ref.pftrace ref.bin
    run export_perfetto_select files=sel.pftrace export --quiet --event Sent,IsrEnter,IsrExit --perfetto sel.pftrace demo.evr
    run export_perfetto_stats files=stats.pftrace export --perfetto stats.pftrace demo.evr
fi
if [ "$ctf" = 1 ]; then
    run export_ctf files=ctf export --quiet --ctf ctf demo.evr
    run export_ctf_ref files=ctf-ref export --quiet --ctf ctf-ref ref.bin
    run export_ctf_damaged files=ctf-damaged export --quiet --ctf ctf-damaged damaged.evr
fi
# ---- timeline (its layout text; the picture is cairo's) ----
run timeline files=tl.txt timeline --layout tl.txt -o tl.svg demo.evr
run timeline_damaged files=tld.txt timeline --layout tld.txt -o tld.svg damaged.evr
# ---- schema, check ----
run schema files=demo.yaml,demo.part1.yaml schema -o demo.yaml demo.evr
run schema_ref files=ref.yaml schema --name ref --version 2 -o ref.yaml ref.bin
run schema_stdout schema demo.ccore
run check check --schema demo.yaml demo.evr
run check_ref check --schema demo.yaml ref.bin
# ---- QS ----
run qs qs -o - demo.evr
run qs_file files=demo.qs qs -o demo.qs demo.evr
run qs_classes files=demo-cl.qs qs --classes --time-size 2 -o demo-cl.qs demo.evr
run qs_decode qs-decode sample.bin
run qs_decode_meta qs-decode --meta demo.evr demo.qs
run qs_decode_qspy qs-decode --meta demo.evr --qspy demo.qs
run qs_decode_classes qs-decode --meta demo.evr --classes demo-cl.qs
run qs_decode_out files=back.evr qs-decode --meta demo.evr -o back.evr demo.qs
run qs_decode_back dump back.evr
# ---- SyS-T ----
run syst_text syst --text demo.evr
run syst_text_ts syst --text --timestamp --crc --id64 demo.evr
run syst_bin files=demo.syst,demo.xml syst -o demo.syst --collateral demo.xml demo.evr
run syst_decode syst-decode frames.txt
run syst_decode_len syst-decode len_frames.txt
run syst_decode_meta syst-decode --meta demo.evr demo.syst
run syst_decode_ts files=ts.txt syst --text --timestamp -o ts.txt demo.evr
run syst_decode_meta_ts syst-decode --meta demo.evr ts.txt
run syst_decode_out files=sback.evr syst-decode --meta demo.evr -o sback.evr ts.txt
run syst_decode_back dump sback.evr
# ---- help ----
run help --help
run help_dump help dump
exit $failed
