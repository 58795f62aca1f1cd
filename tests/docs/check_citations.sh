#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The public headers cite only what a user of an installed evrec has: the documents installed in
# share/doc/evrec/ (FORMAT.md, QS.md, ...) by name, public sources (CCore, qtools, the SyS-T
# specification), and evrec's own API. Not a file of the repository that is not installed.
#
#   tests/docs/check_citations.sh SOURCE_DIR
#
# Headers: every header under an include/ folder of SOURCE_DIR (tests/ and build trees aside).
# Flagged: a source or private file (`name.c`, `src/...`, `*_internal.h`), a path into
# viewer-cli/, tests/, scripts/, examples/ or bench/, and a document cited by its repository
# path (`format/FORMAT.md`: the installed file is share/doc/evrec/FORMAT.md). Public files named
# as such are allowed: qtools' `qspy.c`, CCore's `EventRecorder.cpp`, the generated
# `NAME_events.c`.
# Exit status: 0 clean, 1 a citation was flagged (file:line and the text are printed), 2 bad usage.
set -eu

if [ $# -ne 1 ]; then
    sed -n '3,15p' "$0" >&2
    exit 2
fi
src=$(cd "$1" && pwd)

# Headers whose citations are fixed elsewhere, and why (one per line: path, reason).
exempt="
"

bad='(^|[^A-Za-z0-9_])(src/|viewer-cli/|tests/|scripts/|examples/|bench/)'
bad="$bad|[A-Za-z0-9_]+_internal\\.h|[A-Za-z0-9_]+\\.c([^A-Za-z0-9_]|\$)"
bad="$bad|[a-z-]+/[A-Za-z-]+\\.md"
allowed='qspy\.c|NAME_events\.c|EventRecorder\.cpp|CCore/src/'

count=0
flagged=0
for top in "$src"/*/; do
    case ${top%/} in "$src"/tests) continue ;; esac
    if [ -f "$top/CMakeCache.txt" ]; then continue; fi # a build tree
    find "$top" -type f -name '*.h' -path '*/include/*'
done | sort > "${TMPDIR:-/tmp}/evrec_citations.$$"
while read -r hdr; do
    rel=$(echo "${hdr#"$src"/}" | sed 's|//*|/|g')
    if echo "$exempt" | grep -q "^$rel "; then
        echo "check_citations: $rel exempt:$(echo "$exempt" | grep "^$rel " | cut -d' ' -f2-)"
        continue
    fi
    count=$((count + 1))
    hits=$(grep -n -E "$bad" "$hdr" | while IFS= read -r line; do
        if echo "$line" | sed -E "s#$allowed##g" | grep -q -E "$bad"; then echo "$line"; fi
    done)
    if [ -n "$hits" ]; then
        echo "$hits" | sed "s|^|$rel:|" >&2
        flagged=$((flagged + 1))
    fi
done < "${TMPDIR:-/tmp}/evrec_citations.$$"
rm -f "${TMPDIR:-/tmp}/evrec_citations.$$"
if [ $flagged -ne 0 ]; then
    echo "check_citations: $flagged of $count public headers cite a file a user does not have" >&2
    exit 1
fi
echo "check_citations: the $count public headers cite installed documents and public sources only"
