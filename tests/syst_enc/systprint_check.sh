#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `evrec syst` against MIPI's reference SyS-T decoder: a demo recording, converted with each
# message option alone and all together, decoded by systprint and compared with `evrec dump` /
# `evrec export --jsonl` record by record (systprint_check.py). Needs EVREC_SYSTPRINT = the path
# of a built systprint; exits 77 (skipped) without it.
# Usage: systprint_check.sh EVREC EVREC_DEMO CHECK_PY WORK_DIR
set -eu
evrec=$1 demo=$2 check=$3 work=$4
if [ -z "${EVREC_SYSTPRINT:-}" ] || [ ! -x "$EVREC_SYSTPRINT" ]; then
    echo "skipped: set EVREC_SYSTPRINT to a built systprint (printer/ of the MIPI SyS-T sources)"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$demo" --frames 40 -o "$work/demo.evr" >/dev/null
fail=0
for opts in "" "--crc" "--timestamp" "--id64" \
    "--crc --timestamp --id64 --guid {8F6A3C2E-1B4D-4E5F-9A0B-112233445566} --unit 1029 --severity debug" \
    "--module 18 --unit 3"; do
    # shellcheck disable=SC2086 # the options split on purpose
    python3 "$check" "$evrec" "$EVREC_SYSTPRINT" "$work/demo.evr" "$work/run" $opts || fail=1
done
exit $fail
