#!/usr/bin/env bash
# make fuzz: runs each libFuzzer harness ($FB/fuzz-NAME) for FUZZ_SECONDS
# on a working copy of its seeds ($FB/corpus-NAME, which keeps what it
# finds; tests/fuzz/corpus/NAME is only read). A crash, a leak, a broken
# record rule or an input slower than 10 s stops that harness and leaves
# the input as $FB/crash-NAME-* (or timeout-, leak-, oom-); the run then
# fails. Prints each harness's executions and coverage, then the totals.
set -u
cd "$(dirname "$0")/../.."
FB=${FB:-build/fuzz}
secs=${FUZZ_SECONDS:-60}
# the harnesses write each input to a file: in memory (/dev/shm) when
# there is one, not on disk (several times the executions per second)
if [ -z "${FUZZ_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	FUZZ_TMPDIR=/dev/shm
fi
export TMPDIR=${FUZZ_TMPDIR:-${TMPDIR:-/tmp}}
total=0 failed=()
for n in "$@"; do
	mkdir -p "$FB/corpus-$n"
	log="$FB/fuzz-$n.log"
	echo "=== fuzz $n: ${secs}s"
	rc=0
	"$FB/fuzz-$n" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$FB/" \
		"$FB/corpus-$n" "tests/fuzz/corpus/$n" > "$log" 2>&1 || rc=$?
	runs=$(awk '/stat::number_of_executed_units:/ { print $2 }' "$log")
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
	echo "$n: ${runs:-0} executions, ${cov:-no coverage line}, corpus $(ls "$FB/corpus-$n" | wc -l) inputs"
	total=$(( total + ${runs:-0} ))
	if [ "$rc" != 0 ]; then
		failed+=("$n")
		grep -E "ERROR|SUMMARY|breaks the record rules|left open|Test unit written" "$log" | head -n 20
	fi
done
echo "fuzz: $total executions in all; ${#failed[@]} harness(es) found something${failed[*]:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
