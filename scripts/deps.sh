#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install the Debian packages evrec needs, only those missing. Safe to run repeatedly.
set -eu
PKGS="build-essential cmake pkg-config libyaml-dev libxxhash-dev libcriterion-dev libelf-dev ${EVREC_EXTRA_PKGS:-}"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "evrec: installing$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
