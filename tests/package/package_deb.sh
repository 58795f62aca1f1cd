#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian packages: `cpack -G DEB` in the build tree BUILD writes evrec_*.deb (the programs,
# the catalogue) and libevrec-dev_*.deb (headers, libraries, CMake and pkg-config files) into
# WORK; each must list what it is for, and declare its dependencies.
# Usage: package_deb.sh BUILD WORK. Exit 0 pass, 1 fail, 77 skipped (no dpkg-deb).
set -eu
build=$1 work=$2
command -v dpkg-deb >/dev/null || { echo "dpkg-deb not found: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
if ! (cd "$build" && cpack -G DEB -B "$work" -D CPACK_PACKAGING_INSTALL_PREFIX=/usr) >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log" >&2
    exit 1
fi
tools=$(ls "$work"/evrec_*.deb) dev=$(ls "$work"/libevrec-dev_*.deb)
fail=0
expect() { # expect DEB PATH...
    deb=$1; shift
    dpkg-deb --contents "$deb" | awk '{print $6}' >"$work/list"
    for p in "$@"; do
        grep -qx "./usr/$p" "$work/list" || { echo "FAIL: $(basename "$deb") lacks /usr/$p" >&2; fail=1; }
    done
}
expect "$tools" bin/evrec bin/evrec-gen share/evrec/rtos.yaml share/doc/evrec/LICENSE share/doc/evrec/FORMAT.md
expect "$dev" include/evrec/evrec_reader.h include/evrec/evrec_recorder.h include/evrec/evrec_gen.h \
    include/evrec/ports/posix/evrec_port.h lib/libevrec-reader.a lib/libevrec-recorder-posix.a \
    lib/libevrec-common.a lib/cmake/evrec/evrecConfig.cmake lib/cmake/evrec/evrecConfigVersion.cmake \
    lib/cmake/evrec/evrecTargets.cmake lib/pkgconfig/evrec-reader.pc lib/pkgconfig/evrec-recorder-posix.pc \
    share/evrec/cmake/EvrecGenerate.cmake
dpkg-deb -f "$tools" Depends | grep -q "libyaml" || { echo "FAIL: evrec does not depend on libyaml" >&2; fail=1; }
dpkg-deb -f "$tools" Depends | grep -q "libsqlite3" || { echo "FAIL: evrec does not depend on libsqlite3 (evrec sql)" >&2; fail=1; }
dpkg-deb -f "$tools" Depends | grep -q "libcurl" || { echo "FAIL: evrec does not depend on libcurl (export --clickhouse)" >&2; fail=1; }
dpkg-deb -f "$dev" Depends | grep -q "^evrec (= " || { echo "FAIL: libevrec-dev does not depend on evrec" >&2; fail=1; }
dpkg-deb -f "$dev" Depends | grep -q "libxxhash-dev" || { echo "FAIL: libevrec-dev lacks libxxhash-dev" >&2; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "$(basename "$tools"): Depends: $(dpkg-deb -f "$tools" Depends)"
echo "$(basename "$dev"): Depends: $(dpkg-deb -f "$dev" Depends)"
