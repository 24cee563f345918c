#!/usr/bin/env bash
# make install / uninstall with DESTDIR and PREFIX (packaging/install.mk,
# docs/packaging.md): exactly the expected files land under DESTDIR+PREFIX
# (programs, one man page per command, completion, udev rule, docs), the
# installed programs run, and uninstall removes every file install wrote.
# The DKMS source tree (make install-dkms) holds every file of the module
# the repository tracks (82-modules-install checks modules_install).
# Without help2man the man pages are left out (MAN=no) and said so;
# 81-man-pages then skips.
set -u
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
mk() { make --no-print-directory "$@" > "$T/make.log" 2>&1 || { bad "make $*"; tail -20 "$T/make.log"; }; }

man=yes
if ! command -v help2man > /dev/null; then
	man=no
	echo "note: help2man absent: installing with MAN=no (no man pages; 81-man-pages skips)"
fi
version=$(build/ptscope --version | awk '{ print $2 }')

# PREFIX=/usr, as the Debian package installs
D=$T/root
mk install DESTDIR="$D" PREFIX=/usr MAN=$man BASHCOMPDIR=/usr/share/bash-completion/completions \
	UDEVDIR=/lib/udev
want=(usr/bin/ptscope usr/bin/ptsynth usr/bin/fxtcheck
	usr/share/bash-completion/completions/ptscope
	usr/share/bash-completion/completions/ptsynth
	usr/share/bash-completion/completions/fxtcheck
	lib/udev/rules.d/60-ptscope.rules usr/share/doc/ptscope/README.md
	usr/share/doc/ptscope/packaging.md)
if [ $man = yes ]; then
	want+=(usr/share/man/man1/ptscope.1 usr/share/man/man1/ptsynth.1 usr/share/man/man1/fxtcheck.1)
	for c in $(build/ptscope --help | awk '/^[A-Za-z].*:$/ { s = ($0 == "Commands:"); next }
			s && /^  [a-z]/ { print $1 }'); do
		want+=("usr/share/man/man1/ptscope-$c.1")
	done
fi
for f in "${want[@]}"; do
	[ -e "$D/$f" ] || [ -L "$D/$f" ] || bad "install did not write $f"
done
# nothing outside the expected directories
(cd "$D" && find . ! -type d | sed 's|^\./||' | sort) > "$T/got"
unexpected=$(grep -v -E '^(usr/bin/(ptscope|ptsynth|fxtcheck)|usr/share/man/man1/(ptscope(-[a-z]+)?|ptsynth|fxtcheck)\.1|usr/share/bash-completion/completions/(ptscope|ptsynth|fxtcheck)|lib/udev/rules\.d/60-ptscope\.rules|usr/share/doc/ptscope/[A-Za-z0-9_.-]+\.md)$' "$T/got")
[ -z "$unexpected" ] || bad "install wrote unexpected files: $unexpected"
[ "$("$D/usr/bin/ptscope" --version)" = "ptscope $version" ] || bad "installed ptscope --version"
[ "$("$D/usr/bin/ptsynth" --version)" = "ptsynth $version" ] || bad "installed ptsynth --version"
[ "$("$D/usr/bin/fxtcheck" --version)" = "fxtcheck $version" ] || bad "installed fxtcheck --version"
[ "$(readlink "$D/usr/share/bash-completion/completions/ptsynth")" = ptscope ] ||
	bad "completion for ptsynth is not the ptscope file"
echo "ok: install DESTDIR PREFIX=/usr: $(wc -l < "$T/got") files"

mk uninstall DESTDIR="$D" PREFIX=/usr BASHCOMPDIR=/usr/share/bash-completion/completions \
	UDEVDIR=/lib/udev
left=$(cd "$D" && find . ! -type d)
[ -z "$left" ] || bad "uninstall left: $left"
[ -z "$left" ] && echo "ok: uninstall removed every file"

# the default PREFIX is /usr/local; PREFIX moves programs, pages and docs
D=$T/local
mk install DESTDIR="$D" MAN=$man
[ -x "$D/usr/local/bin/ptscope" ] || bad "default PREFIX: no usr/local/bin/ptscope"
[ -e "$D/usr/local/share/doc/ptscope/README.md" ] || bad "default PREFIX: no docs in usr/local/share/doc"
[ $man = no ] || [ -e "$D/usr/local/share/man/man1/ptscope-decode.1" ] ||
	bad "default PREFIX: no usr/local/share/man/man1/ptscope-decode.1"
mk uninstall DESTDIR="$D"
left=$(cd "$D" && find . ! -type d)
[ -z "$left" ] || bad "uninstall (default PREFIX) left: $left"
[ -z "$left" ] && echo "ok: default PREFIX /usr/local: install and uninstall"

# DKMS source tree: every tracked module source, plus dkms.conf with the version
D=$T/dkms
mk install-dkms DESTDIR="$D"
S=$D/usr/src/ptscope-$version
grep -qx "PACKAGE_VERSION=\"$version\"" "$S/dkms.conf" || bad "dkms.conf: no PACKAGE_VERSION=\"$version\""
missing=$(git ls-files Kbuild kmod include 2>/dev/null | grep -v -E '(^|/)README\.md$' |
	while read -r f; do [ -e "$S/$f" ] || echo "$f"; done)
[ -z "$missing" ] || bad "install-dkms left out: $missing"
[ -z "$missing" ] && echo "ok: install-dkms: $(find "$S" -type f | wc -l) files in usr/src/ptscope-$version"

exit $fail
