#!/usr/bin/env bash
# Runs every tests/check.d/*.sh in name order. Each script exits 0 on
# success, PTS_SKIP (tests/tools/check-lib.sh) when it cannot run here
# (its "SKIP: reason" line says why; a skip is never counted as a pass),
# anything else on failure; its output is shown.
# A script that passes without a part it cannot run here (outside data
# absent) prints "SKIP part: reason" for each: the last line counts those
# scripts and repeats their reasons, so no skip goes unsaid.
# Ends with the reason for every skip, one a line ("skipped NAME: why",
# "in part NAME: why"), then the short "checks: N passed (N in part), N
# failed, N skipped" line, and a non-zero status if any failed. When
# PTS_UNIT_SUMMARY names the file the unit tests wrote their last line to
# (make check), that line is repeated just before the last, so the end of
# `make check` counts every skip. PTS_CHECK_SKIPS names a file to keep the
# reasons and the two count lines in (make check: build/check-skips.txt),
# which the last line then names: they scroll away in a long output.
set -u
cd "$(dirname "$0")/.."
. tests/tools/check-lib.sh
pass=0 fail=0 skip=0 part=0 failed=() skipped=() parts=()
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for s in tests/check.d/*.sh; do
	[ -e "$s" ] || continue
	name=$(basename "$s" .sh)
	echo "=== check $name"
	bash "$s" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS $name"
		why=$(sed -n 's/^SKIP part: //p' "$out" | paste -sd '|' | sed 's/|/, /g')
		[ -z "$why" ] || { part=$((part + 1)); parts+=("$name: $why"); }
	elif [ "$rc" -eq "$PTS_SKIP" ]; then
		why=$(sed -n 's/^SKIP: //p' "$out" | tail -n 1)
		skip=$((skip + 1)); skipped+=("$name: ${why:-no reason given}"); echo "SKIP $name"
	else
		fail=$((fail + 1)); failed+=("$name"); echo "FAIL $name"
	fi
done
[ "$fail" -eq 0 ] || echo "failed checks: ${failed[*]}"
keep=${PTS_CHECK_SKIPS:-}
[ -z "$keep" ] || : > "$keep" || keep=
# every line of the end goes to the output and, when asked, to $keep
say() { echo "$1"; [ -z "$keep" ] || echo "$1" >> "$keep"; }
if [ "$skip" -gt 0 ] || [ "$part" -gt 0 ]; then
	say "skipped, whole or in part, and why:"
	for r in "${skipped[@]}"; do say "  skipped $r"; done
	for r in "${parts[@]}"; do say "  in part $r"; done
fi
if [ -n "${PTS_UNIT_SUMMARY:-}" ] && [ -s "$PTS_UNIT_SUMMARY" ]; then
	say "$(cat "$PTS_UNIT_SUMMARY")"
fi
line="checks: $pass passed"
[ "$part" -eq 0 ] || line+=" ($part in part)"
line+=", $fail failed, $skip skipped"
if [ "$skip" -gt 0 ] || [ "$part" -gt 0 ]; then
	line+=": the reasons above"
	[ -z "$keep" ] || line+=", kept in $keep"
fi
say "$line"
[ "$fail" -eq 0 ]
