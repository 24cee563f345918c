#!/usr/bin/env bash
# Every fuzz seed (tests/fuzz/corpus/NAME) through its libFuzzer harness
# built as `make fuzz` builds it: clang, ASan and UBSan with no recovery.
# check-fuzz replays the same seeds through $(CC) builds without
# sanitizers, which miss undefined behaviour that does not crash (NULL + 0
# in the parallel decoder's chunk store was one, found only by `make fuzz`).
# -runs=0 executes the seeds once each and mutates nothing, so the check is
# deterministic. Needs clang and its libFuzzer runtime; skips visibly
# without them (the README's lone clone).
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
. tests/tools/check-lib.sh
command -v "${FUZZ_CC:-clang}" > /dev/null || pts_skip "needs clang (make fuzz's compiler), absent here"
names=$(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_\(.*\)\.c|\1|')
targets=$(for n in $names; do printf '%s/fuzz/fuzz-%s ' "$B" "$n"; done)
log=$(mktemp "${TMPDIR:-/tmp}/ptscope-fuzzseeds.XXXXXX")
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086
make -s $targets "$B/fuzz-data/user.elf" "$B/fuzz-data/kernel.elf" "$B/fuzz-data/spin.bin" \
	< /dev/null > "$log" 2>&1 || { tail -n 20 "$log"; pts_skip "cannot build the libFuzzer harnesses (clang's libFuzzer runtime?)"; }
fail=0
for n in $names; do
	# the reproducer of a failing seed goes under build/, not into the source tree
	if TMPDIR=${TMPDIR:-/tmp} "$B/fuzz/fuzz-$n" -runs=0 -artifact_prefix="$B/fuzz/seed-" \
		"tests/fuzz/corpus/$n" > "$log" 2>&1; then
		echo "$n: $(ls "tests/fuzz/corpus/$n" | wc -l) seeds, no sanitizer report"
	else
		echo "FAIL: $n: a seed fails under ASan/UBSan:"
		grep -m 5 'runtime error\|ERROR: \|SUMMARY\|Running: ' "$log" || tail -n 20 "$log"
		fail=1
	fi
done
exit "$fail"
