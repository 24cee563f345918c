#!/usr/bin/env bash
# `make KDIR=DIR` with DIR no kernel header tree says what is wrong and
# what to install, as plain `make` does when the running kernel has no
# headers, instead of make's own "No such file or directory. Stop."
# (README, "Capturing on a real Intel machine").
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
for k in "$T/none" "$T"; do	# missing, and a directory that is no tree
	rc=0
	make --no-print-directory module KDIR="$k" > "$T/out" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then
		echo "FAIL: make module KDIR=$k succeeded"; fail=1
	elif ! grep -q "KDIR=$k is not a kernel header tree" "$T/out" ||
	     ! grep -q "apt-get install linux-headers-" "$T/out"; then
		echo "FAIL: make module KDIR=$k does not explain:"; cat "$T/out"; fail=1
	elif grep -q "No such file or directory\|Stop\." "$T/out"; then
		echo "FAIL: make module KDIR=$k shows make's raw error:"; cat "$T/out"; fail=1
	else
		echo "ok: KDIR=$k: $(head -n 1 "$T/out")"
	fi
done
exit $fail
