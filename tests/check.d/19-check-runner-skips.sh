#!/usr/bin/env bash
# make check's last line gives the reason for every skip (README.md):
# tests/run-check-scripts.sh, copied into a tree of its own, runs scripts
# written here: one passing, one skipped whole (pts_skip), one passing
# without parts it could not run ("SKIP part: reason"), and one failing.
# The line must count each and repeat every skip's reason; the status must
# be the failure's.
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
PTS_UNIT_SUMMARY= bash "$R/tests/run-check-scripts.sh" > "$R/out" 2>&1 || rc=$?
last=$(tail -n 1 "$R/out")
want="checks: 2 passed (1 in part: c-part: no tide table: no low-water check, no almanac: no eclipse check), 1 failed, 1 skipped (b-skip: needs the moon, absent here)"
if [ "$rc" = 0 ] || [ "$last" != "$want" ]; then
	echo "FAIL: exit $rc, last line:"; echo "  $last"; echo "want:"; echo "  $want"
	exit 1
fi
echo "ok: $last"
