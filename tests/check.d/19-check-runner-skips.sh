#!/usr/bin/env bash
# make check ends with the reason for every skip (README.md), one a line,
# then short count lines: tests/run-check-scripts.sh, copied into a tree of
# its own, runs scripts written here: one passing, one skipped whole
# (pts_skip), one passing without parts it could not run ("SKIP part:
# reason"), and one failing. The end must list each skip's reason on a line
# of its own, keep them in the file PTS_CHECK_SKIPS names, and count each
# on a last line short enough to read (it was one line of some 1,000
# characters with every reason in it); the status must be the failure's.
set -u
cd "$(dirname "$0")/../.."
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT
mkdir -p "$R/tests/tools" "$R/tests/check.d"
cp tests/run-check-scripts.sh "$R/tests/"
cp tests/tools/check-lib.sh "$R/tests/tools/"
T=$R/tests/check.d
cat > "$T/a-pass.sh" <<'S'
echo ok
S
cat > "$T/b-skip.sh" <<'S'
. tests/tools/check-lib.sh
pts_skip "needs the moon, absent here"
S
cat > "$T/c-part.sh" <<'S'
echo "SKIP part: no tide table: no low-water check"
echo "SKIP part: no almanac: no eclipse check"
echo ok
S
cat > "$T/d-fail.sh" <<'S'
exit 1
S
rc=0
printf 'unit tests: 3 passed, 0 failed, 0 skipped\n' > "$R/unit.last"
PTS_UNIT_SUMMARY=$R/unit.last PTS_CHECK_SKIPS=$R/skips.txt bash "$R/tests/run-check-scripts.sh" \
	> "$R/out" 2>&1 || rc=$?
want="skipped, whole or in part, and why:
  skipped b-skip: needs the moon, absent here
  in part c-part: no tide table: no low-water check, no almanac: no eclipse check
unit tests: 3 passed, 0 failed, 0 skipped
checks: 2 passed (1 in part), 1 failed, 1 skipped: the reasons above, kept in $R/skips.txt"
end=$(tail -n 5 "$R/out")
if [ "$rc" = 0 ] || [ "$end" != "$want" ]; then
	echo "FAIL: exit $rc, the end:"; echo "$end" | sed 's/^/  /'; echo "want:"; echo "$want" | sed 's/^/  /'
	exit 1
fi
if [ "$(cat "$R/skips.txt")" != "$want" ]; then
	echo "FAIL: $R/skips.txt does not keep the end:"; sed 's/^/  /' "$R/skips.txt"
	exit 1
fi
# run alone (no PTS_CHECK_SKIPS): no file named
rc=0
PTS_UNIT_SUMMARY= bash "$R/tests/run-check-scripts.sh" > "$R/out" 2>&1 || rc=$?
last=$(tail -n 1 "$R/out")
if [ "$last" != "checks: 2 passed (1 in part), 1 failed, 1 skipped: the reasons above" ]; then
	echo "FAIL: without PTS_CHECK_SKIPS, last line: $last"; exit 1
fi
echo "ok: $(tail -n 1 "$R/skips.txt")"
