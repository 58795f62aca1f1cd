#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages evrec needs, only those missing. Safe to run repeatedly.
#   scripts/deps.sh          everything (build, tests)
#   scripts/deps.sh --demo   what the demo needs (no test framework)
# As root it runs apt-get itself, else through sudo when there is one; otherwise it stops and
# prints the apt-get line to run as root. EVREC_EXTRA_PKGS adds packages.
set -eu
PKGS="build-essential cmake pkg-config libyaml-dev libxxhash-dev libelf-dev libcairo2-dev libxml2-dev \
    libsqlite3-dev libedit-dev libcurl4-openssl-dev"
# The exports (CTF through libbabeltrace2, Perfetto through protobuf-c) and the test suite's
# tools: the demo builds without them.
[ "${1:-}" = "--demo" ] || PKGS="$PKGS libcriterion-dev libbabeltrace2-dev babeltrace2 \
    protobuf-c-compiler libprotobuf-c-dev protobuf-compiler python3 clickhouse-server"
PKGS="$PKGS ${EVREC_EXTRA_PKGS:-}"
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "evrec: not a Debian system: install these or their equivalents: $PKGS" >&2
    exit 0
fi
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
line="apt-get install -y$missing"
stop() {
    echo "evrec: missing packages:$missing" >&2
    echo "evrec: $1; run this as root, then try again:" >&2
    echo "  $line" >&2
    exit 1
}
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    stop "not root and no sudo"
fi
echo "evrec: installing$missing${SUDO:+ (through sudo)}" >&2
# sudo drops the environment: DEBIAN_FRONTEND goes through env.
$SUDO apt-get update -qq || stop "apt-get update failed"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null || stop "apt-get install failed"
