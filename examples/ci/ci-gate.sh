#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A firmware CI job's timing gate, on the demo: record a baseline, then a candidate twice (once
# unchanged, once with the encode stage slowed by --slow-stage), and compare each candidate with
# the baseline under the budgets of budget.yaml. The unchanged candidate passes (exit 0), the
# slowed one fails (exit 1) with one line per violated budget.
#
#   examples/ci/ci-gate.sh [BUILD_DIR]     (default: build; needs evrec and evrec-demo built)
#
# In a real job the recordings come from the board or QEMU (evrec record ...) of the base
# commit and of the change; the comparison and its exit status are the same.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd) || exit 2
demo=$build/examples/evrec-demo
evrec=$build/viewer-cli/evrec
for p in "$demo" "$evrec"; do
  [ -x "$p" ] || { echo "ci-gate: $p not built (cmake --build $build --target evrec evrec-demo)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/evrec-ci.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

record() { # NAME [demo options]
  name=$1; shift
  "$demo" -o "$work/$name.evr" --frames 300 "$@" >/dev/null || { echo "ci-gate: evrec-demo failed" >&2; exit 2; }
}
record baseline
record unchanged
record slowed --slow-stage encode:200

gate() { # CANDIDATE EXPECTED_STATUS
  echo "== evrec diff --budget budget.yaml baseline.evr $1.evr"
  (cd "$work" && "$evrec" diff --span FrameStage --event FrameDrop --budget "$here/budget.yaml" \
    baseline.evr "$1.evr")
  status=$?
  echo "== exit status $status (expected $2)"
  [ "$status" -eq "$2" ]
}
ok=0
gate unchanged 0 || ok=1
gate slowed 1 || ok=1
[ $ok -eq 0 ] && echo "ci-gate: the gate passed the unchanged candidate and failed the slowed one"
exit $ok
