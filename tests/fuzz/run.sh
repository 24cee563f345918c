#!/usr/bin/env bash
# make fuzz: runs each libFuzzer harness ($FB/fuzz-NAME) for FUZZ_SECONDS
# on a working copy of its seeds ($FB/corpus-NAME, which keeps what it
# finds; tests/fuzz/corpus/NAME is only read). A crash, a leak, a broken
# record rule or an input slower than 10 s stops that harness and leaves
# the input as $FB/crash-* (or timeout-, leak-, oom-) and its evidence in
# the output (report below); the run then fails. Prints each harness's
# executions and coverage, then the totals.
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
# What a failing harness leaves in this run's output, which is all a CI
# run keeps (its clone and build/ go): libFuzzer's seed, the harness's
# own lines (the difference or the broken rule), the sanitizer's summary,
# and the input itself (gzip, base64) when that is at most 4 KiB, with
# the command that replays it.
report() {
	local n=$1 log=$2 unit
	grep -E "^INFO: Seed:" "$log" | head -n 1
	grep -E "^(fuzz|serial|parallel): " "$log" | tail -n 20
	grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -n 10
	unit=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
	[ -n "$unit" ] && [ -f "$unit" ] || return 0
	if [ "$(gzip -9c "$unit" | wc -c)" -le 4096 ]; then
		echo "the input, to replay: base64 -d <<'EOF' | gunzip > input && $FB/fuzz-$n input"
		gzip -9c "$unit" | base64
		echo "EOF"
	else
		echo "the input is too large to show here ($(stat -c %s "$unit") bytes)"
	fi
}

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
		report "$n" "$log"
	fi
done
echo "fuzz: $total executions in all; ${#failed[@]} harness(es) found something${failed[*]:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
