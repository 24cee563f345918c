#!/usr/bin/env bash
# ptscope.ko builds with W=1 -Werror and sparse (C=2) without a single
# warning against every installed Debian kernel header tree
# (/usr/src/linux-headers-*-amd64), and passes checkpatch --strict when
# $CHECKPATCH names a checkpatch.pl (compat.h's one LINUX_VERSION_CODE use
# is by design: it is the file that holds the version tests).
# Skips (counted as skipped, tests/tools/check-lib.sh) when no header tree
# is installed.
set -u
cd "$(dirname "$0")/../.."
trees=()
for t in /usr/src/linux-headers-*-amd64; do
	[ -e "$t/Module.symvers" ] && trees+=("$t")
done
if [ ${#trees[@]} -eq 0 ]; then
	. tests/tools/check-lib.sh
	pts_skip "no /usr/src/linux-headers-*-amd64: module build not checked"
fi
sparse=()
command -v sparse >/dev/null && sparse=(C=2)
rc=0
for t in "${trees[@]}"; do
	work=$(mktemp -d)
	cp -r Kbuild kmod include "$work/"
	find "$work/kmod" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod*' \) -delete
	log="$work/build.log"
	# without the parent make's MAKEFLAGS: under `make -j2 check` they name a
	# jobserver this script does not inherit, and make's warning about it
	# would read as a build warning
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$t" M="$work" W=1 KCFLAGS=-Werror \
	     "${sparse[@]}" modules >"$log" 2>&1; then
		echo "FAIL: build against $t"; tail -30 "$log"; rc=1
	elif grep -E "warning|error:" "$log" | grep -v "Skipping BTF"; then
		echo "FAIL: warnings or sparse output against $t"; rc=1
	else
		echo "ok: $(basename "$t") W=1 -Werror ${sparse[*]:-(no sparse)}"
	fi
	rm -rf "$work"
done
if [ -n "${CHECKPATCH:-}" ]; then
	out=$(perl "$CHECKPATCH" --no-tree --strict -f $(git ls-files "kmod/*.[ch]") 2>&1 |
	      grep -E '^(ERROR|WARNING|CHECK)' | grep -v 'LINUX_VERSION_CODE should be avoided')
	if [ -n "$out" ]; then
		echo "FAIL: checkpatch"; echo "$out"; rc=1
	else
		echo "ok: checkpatch --strict"
	fi
fi
exit $rc
