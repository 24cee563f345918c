#!/usr/bin/env bash
# make modules_install KDIR=TREE DESTDIR=DIR (packaging/install.mk) builds
# the module for TREE and puts ptscope.ko under DIR/lib/modules/RELEASE,
# where modprobe looks: RELEASE is the kernel's `uname -r`, the header
# package's name (not include/config/kernel.release, which is 6.1.N in
# Debian's 6.1 trees). Against the oldest installed non-rt header tree
# (6.1 in CI); skips without one.
set -u
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
mk() { make --no-print-directory "$@" > "$T/make.log" 2>&1 || { bad "make $*"; tail -20 "$T/make.log"; }; }
kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | grep -v -- -rt- | sort -V | head -n 1)
if [ -z "$kdir" ] || [ ! -e "$kdir/Makefile" ]; then
	pts_skip "no /usr/src/linux-headers-*-amd64: make modules_install not checked"
fi
D=$T/mod
mk modules_install KDIR="$kdir" DESTDIR="$D"
rel=${kdir#/usr/src/linux-headers-}
ko=$(find "$D/lib/modules/$rel" -name 'ptscope.ko*' 2>/dev/null)
[ -n "$ko" ] || bad "modules_install KDIR=$kdir: no ptscope.ko under lib/modules/$rel"
[ -n "$ko" ] && echo "ok: modules_install: ${ko#$D/}"
exit $fail
