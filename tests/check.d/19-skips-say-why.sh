#!/usr/bin/env bash
# Every skip of a scripted check says why: tests/run-check-scripts.sh takes
# a skipped script's reason from its last "SKIP: reason" line (pts_skip in
# tests/tools/check-lib.sh prints one) and repeats it in make check's last
# line, which README.md promises gives the reason for every skip. A script
# that exits 77 after any other line ("skip: ...") is counted with "no
# reason given". Checked here in the scripts' text: a skip is taken where a
# tool or a file is missing, which this machine may well have.
set -u
cd "$(dirname "$0")/../.."
fail=0
for s in tests/check.d/*.sh tests/ptsynth/*.sh tests/fidelity/*.sh; do
	[ -e "$s" ] || continue
	# an exit with the skip status whose line, or the line before it, prints no SKIP: line
	bad=$(awk '/exit (77|"?\$PTS_SKIP"?)([^0-9]|$)/ && $0 !~ /echo "SKIP: / && prev !~ /echo "SKIP: / {
			print FILENAME ":" FNR ": " $0 }
		{ prev = $0 }' "$s")
	if [ -n "$bad" ]; then
		echo "FAIL: a skip without a \"SKIP: reason\" line (use pts_skip):"; echo "$bad"
		fail=1
	fi
done
[ $fail = 0 ] && echo "ok: every skip of the scripted checks prints its SKIP: reason"
exit $fail
