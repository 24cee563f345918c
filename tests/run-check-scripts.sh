#!/usr/bin/env bash
# Runs every tests/check.d/*.sh in name order. Each script exits 0 on
# success; its output is shown. Ends with the plain "N passed, N failed"
# line and a non-zero status if any failed.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 failed=()
for s in tests/check.d/*.sh; do
	[ -e "$s" ] || continue
	name=$(basename "$s" .sh)
	echo "=== check $name"
	if bash "$s"; then
		pass=$((pass + 1)); echo "PASS $name"
	else
		fail=$((fail + 1)); failed+=("$name"); echo "FAIL $name"
	fi
done
[ "$fail" -eq 0 ] || echo "failed checks: ${failed[*]}"
echo "checks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
