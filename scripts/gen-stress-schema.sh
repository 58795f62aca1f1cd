#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Write a large schema to stdout, to measure evrec-gen's cost against its input size.
#   scripts/gen-stress-schema.sh nest N    a flow sequence nested N levels deep ([[[...]]])
#   scripts/gen-stress-schema.sh enum N    one uint32 enum of N values (V0 .. V<N-1>)
#   scripts/gen-stress-schema.sh block N   a block mapping nested N levels deep
#   scripts/gen-stress-schema.sh fields N  one struct of N uint8 fields
# Example: scripts/gen-stress-schema.sh nest 50000 > /tmp/nest.yaml
#          time build/schema/evrec-gen /tmp/nest.yaml -o /tmp/out
set -eu
[ $# -eq 2 ] || { sed -n '3,9p' "$0" >&2; exit 2; }
n=$2
echo '# SPDX-License-Identifier: Apache-2.0'
echo 'schema: stress'
echo 'version: 1'
case $1 in
nest)
    printf 'enums: '
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]"; printf "\n" }'
    ;;
block)
    echo 'enums:'
    awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) { for (j = 0; j < i; j++) printf " "; printf "k%d:\n", i } }'
    ;;
enum)
    printf 'enums:\n  - name: Big\n    type: uint32\n    values:\n'
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "      - V%d\n", i }'
    ;;
fields)
    printf 'structs:\n  - name: Wide\n    fields:\n'
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "      - {name: f%d, type: uint8}\n", i }'
    ;;
*) sed -n '3,9p' "$0" >&2; exit 2 ;;
esac
