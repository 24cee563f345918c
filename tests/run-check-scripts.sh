#!/usr/bin/env bash
# Runs every tests/check.d/*.sh in name order. Each script exits 0 on
# success, 77 when it cannot run here (it prints why; a skip is never
# counted as a pass), anything else on failure; its output is shown.
# Ends with the plain "N passed, N failed, N skipped" line and a non-zero
# status if any failed.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 skip=0 failed=() skipped=()
for s in tests/check.d/*.sh; do
	[ -e "$s" ] || continue
	name=$(basename "$s" .sh)
	echo "=== check $name"
	bash "$s"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS $name"
	elif [ "$rc" -eq 77 ]; then
		skip=$((skip + 1)); skipped+=("$name"); echo "SKIP $name"
	else
		fail=$((fail + 1)); failed+=("$name"); echo "FAIL $name"
	fi
done
[ "$skip" -eq 0 ] || echo "skipped checks: ${skipped[*]}"
[ "$fail" -eq 0 ] || echo "failed checks: ${failed[*]}"
echo "checks: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
