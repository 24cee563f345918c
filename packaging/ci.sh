#!/usr/bin/env bash
# CI's packaging step (.ci/run; docs/packaging.md), as root on a Debian 12
# machine with the packaging tools installed:
#   make install DESTDIR=... and uninstall; make deb (lintian included);
#   dpkg -i of both packages, whose DKMS hook builds and installs the
#   module for the installed kernels; ptscope --version, man -w ptscope;
#   the module installed for each header tree given, then dropped and
#   built again for the first tree with `dkms build -k` + `dkms install -k`
#   and for the second by the hook a kernel update runs
#   (/etc/kernel/postinst.d/dkms);
#   dkms status; purge, and nothing of either package is left.
#
#   ci.sh KERNEL_HEADER_TREE...   (/usr/src/linux-headers-VERSION)
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^#define PTS_VERSION "\(.*\)"/\1/p' userland/lib/util/version.h)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
step() { echo "-- packaging: $*"; }

step "make install DESTDIR=$stage PREFIX=/usr, make uninstall"
make -s install DESTDIR="$stage" PREFIX=/usr
echo "installed $(find "$stage" ! -type d | wc -l) files"
make -s uninstall DESTDIR="$stage" PREFIX=/usr
[ -z "$(find "$stage" ! -type d)" ] || { echo "make uninstall left files in $stage"; exit 1; }

step "make deb"
make -s deb

step "dpkg -i ptscope ptscope-dkms"
dpkg -i build/deb/ptscope_"${version}"_amd64.deb build/deb/ptscope-dkms_"${version}"_all.deb
[ "$(ptscope --version)" = "ptscope $version" ] || { echo "ptscope --version: $(ptscope --version)"; exit 1; }
man -w ptscope ptscope-decode
dkms status ptscope

installed() {	# krel: DKMS built and installed the module for it
	dkms status -m ptscope -v "$version" -k "$1" | grep -q ': installed' &&
		ls "/lib/modules/$1/updates/dkms/"ptscope.ko* > /dev/null
}
# the non-rt trees first: the two rebuilt are then 6.1 and 6.12
mapfile -t trees < <(printf '%s\n' "$@" | grep -v -- '-rt-'; printf '%s\n' "$@" | grep -- '-rt-')
i=0
for kdir in "${trees[@]}"; do
	krel=${kdir#/usr/src/linux-headers-}	# its uname -r
	installed "$krel" || { echo "dpkg -i: DKMS did not install the module for $krel"; exit 1; }
	echo "dpkg -i: DKMS installed the module for $krel"
	i=$((i + 1))
	[ $i -le 2 ] || continue
	dkms remove -m ptscope -v "$version" -k "$krel" > /dev/null
	if [ $i = 1 ]; then
		step "dkms build -k $krel, dkms install -k $krel"
		dkms build -m ptscope -v "$version" -k "$krel"
		dkms install -m ptscope -v "$version" -k "$krel"
	else
		step "a kernel update's hook: /etc/kernel/postinst.d/dkms $krel"
		/etc/kernel/postinst.d/dkms "$krel"
	fi
	installed "$krel" || { echo "the module is not installed again for $krel"; exit 1; }
done
dkms status ptscope

step "dpkg --purge"
dpkg --purge ptscope ptscope-dkms
left=$(ls -d /usr/src/ptscope-"$version" /var/lib/dkms/ptscope /usr/bin/ptscope \
	/lib/udev/rules.d/60-ptscope.rules /lib/modules/*/updates/dkms/ptscope.ko* 2> /dev/null || true)
[ -z "$left" ] || { echo "purge left: $left"; exit 1; }
echo "packages installed, the module built by DKMS for $# header trees, purged"
