#!/usr/bin/env bash
# The parallel decode (docs/decode.md, "Parallel decode": worker threads,
# the window of live chunks, the joins, the hand-out, the scans before
# the decode) under ThreadSanitizer: ptscope built again with
# -fsanitize=thread in $B/tsan, then a few decodes with worker threads,
# each of which must give -j 1's output with no report. TSan stops the
# decode at its first report (halt_on_error) with exit status 66.
# The decodes: a generated trace in chunks at every PSB (-j 2) and in
# 4 KiB chunks (-j 3), the same with the calling thread decoding chunks
# into the sink beside the workers (PTS_PARDEC_ORDER=sink), two CPUs
# merged by time, the shipped sample (sideband, several processes: the
# workers' own images), and a decode whose output fails early, chunks in
# flight. A racy program built the same way must be reported first, or
# the check proves nothing. libipt is not built with TSan: what it does
# inside itself is not seen (docs/fuzzing.md, "Data races"). Needs the
# compiler's TSan runtime (gcc: libtsan2, which gcc-12 depends on);
# skips visibly without it.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
. tests/tools/check-lib.sh
T=$B/tsan
cc="${TSAN_CC:-${CC:-cc}} -fsanitize=thread"
[ -x "$B/ptscope" ] || pts_skip "$B/ptscope not built"
mkdir -p "$T/check"
log=$T/check/log
# every report fails the decode; no suppressions (none is needed)
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"

# The probe: two threads write one variable with no lock. Built and run:
# the runtime is there and a race fails a run here. The main thread
# waits on a relaxed atomic (no happens-before for TSan) until the
# other has written: two writes at the same moment can both miss each
# other in TSan's shadow memory (1 run in 300 reported nothing on this
# machine under load), two writes one after the other cannot.
cat > "$T/check/race.c" << 'EOF'
#include <pthread.h>
static int shared;
static int written;
static void *writer(void *arg)
{
	shared++;
	__atomic_store_n(&written, 1, __ATOMIC_RELAXED);
	return arg;
}
int main(void)
{
	pthread_t t;

	if (pthread_create(&t, 0, writer, 0))
		return 1;
	while (!__atomic_load_n(&written, __ATOMIC_RELAXED))
		;
	shared++;
	pthread_join(t, 0);
	return 0;
}
EOF
$cc -g -o "$T/check/race" "$T/check/race.c" -pthread > "$log" 2>&1 ||
	{ cat "$log"; pts_skip "$cc cannot build a program (no TSan runtime: gcc's is libtsan2)"; }
# A TSan runtime that cannot lay out its shadow memory under this kernel's
# address randomisation stops with "FATAL: ThreadSanitizer" before main:
# then every run goes without randomisation (setarch -R), or none can.
run_as=()
rc=0
"$T/check/race" > "$log" 2>&1 || rc=$?
if [ "$rc" != 66 ] && grep -q 'FATAL: ThreadSanitizer' "$log"; then
	run_as=(setarch "$(uname -m)" -R)
	rc=0
	${run_as[@]+"${run_as[@]}"} "$T/check/race" > "$log" 2>&1 || rc=$?
	grep -q 'FATAL: ThreadSanitizer' "$log" &&
		{ head -n 5 "$log"; pts_skip "the TSan runtime of $cc cannot run on this kernel, even without address randomisation"; }
	echo "note: the TSan runtime needs address randomisation off here: runs under ${run_as[*]}"
fi
if [ "$rc" != 66 ] || ! grep -q 'WARNING: ThreadSanitizer: data race' "$log"; then
	head -n 20 "$log"
	echo "FAIL: a data race built with $cc was not reported (exit status $rc, not 66)"
	exit 1
fi
echo "probe: a racy program built with $cc is reported (exit status 66)"

# ptscope with TSan, the project's own flags otherwise (-O2 -g -Werror)
make -s -j2 B="$T" CC="$cc" "$T/ptscope" < /dev/null > "$log" 2>&1 ||
	{ tail -n 20 "$log"; echo "FAIL: cannot build ptscope with $cc"; exit 1; }
make -s "$B/bench-gen" "$B/bench-workload" < /dev/null > /dev/null 2>&1 ||
	pts_skip "cannot build $B/bench-gen"
w=$T/check
rm -f "$w"/*.fxt	# -j 1's outputs of this build, made once each below
"$B/bench-gen" --elf "$B/bench-workload" --size 300000 --seed 3 -o "$w/gen.pt" > /dev/null
"$B/bench-gen" --elf "$B/bench-workload" --size 150000 --seed 5 -o "$w/gen-cpu0.pt" > /dev/null
"$B/bench-gen" --elf "$B/bench-workload" --size 100000 --seed 6 -o "$w/gen-cpu1.pt" > /dev/null
timing="--cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000"
gen="--pt $w/gen.pt --elf $B/bench-workload $timing"
two="--pt $w/gen-cpu0.pt --cpu 0 --pt $w/gen-cpu1.pt --cpu 1 --elf $B/bench-workload $timing"

fail=0
n=0
# run NAME ORDER STREAM-ARGS DECODE-ARGS: the TSan build against -j 1 (the plain build)
run() {
	local name=$1 order=$2 args=$3 extra=$4 rc=0
	n=$((n + 1))
	if [ ! -f "$w/$name-j1.fxt" ]; then
		# shellcheck disable=SC2086
		"$B/ptscope" decode $args -j 1 -o "$w/$name-j1.fxt" > /dev/null 2>&1 || true
	fi
	# shellcheck disable=SC2086
	PTS_PARDEC_ORDER=$order ${run_as[@]+"${run_as[@]}"} "$T/ptscope" decode $args $extra -o "$w/$name.fxt" \
		> "$log" 2>&1 || rc=$?
	if grep -q 'ThreadSanitizer' "$log" || [ "$rc" = 66 ]; then
		echo "FAIL: $name ${order:+PTS_PARDEC_ORDER=$order }$extra: ThreadSanitizer report:"
		grep -A 12 'WARNING: ThreadSanitizer' "$log" | head -n 40
		fail=$((fail + 1))
	elif ! cmp -s "$w/$name-j1.fxt" "$w/$name.fxt"; then
		echo "FAIL: $name ${order:+PTS_PARDEC_ORDER=$order }$extra: output differs from -j 1 (exit status $rc)"
		fail=$((fail + 1))
	else
		echo "  $name ${order:+PTS_PARDEC_ORDER=$order }$extra: no report, as -j 1"
	fi
}
run gen "" "$gen" "-j 2 --chunk-size 1"
run gen "" "$gen" "-j 3 --chunk-size 4096"
run gen sink "$gen" "-j 2 --chunk-size 1"
run gen sink "$gen" "-j 3 --chunk-size 4096"
run gen-2cpu "" "$two" "-j 2 --chunk-size 1"
run gen-2cpu sink "$two" "-j 3 --chunk-size 4096"
run demo "" samples/demo.ptscope "-j 2 --chunk-size 1"
run demo sink samples/demo.ptscope "-j 3 --chunk-size 1"
# An early end: the output fails at its first write (/dev/full), while the
# workers decode chunks ahead; those in flight are waited for and freed
# (pts_pcpu_free, pts_pool_free). The decode says so and exits 1.
for order in "" sink; do
	[ -c /dev/full ] || break
	n=$((n + 1))
	rc=0
	# shellcheck disable=SC2086
	PTS_PARDEC_ORDER=$order ${run_as[@]+"${run_as[@]}"} "$T/ptscope" decode $gen -j 2 \
		--chunk-size 1 --format txt -o /dev/full > "$log" 2>&1 || rc=$?
	if grep -q 'ThreadSanitizer' "$log" || [ "$rc" != 1 ]; then
		echo "FAIL: gen ${order:+PTS_PARDEC_ORDER=$order }-j 2 -o /dev/full: exit status $rc (want 1), or a report:"
		head -n 40 "$log"
		fail=$((fail + 1))
	else
		echo "  gen ${order:+PTS_PARDEC_ORDER=$order }-j 2 --chunk-size 1 -o /dev/full: no report, the write error said"
	fi
done
echo "parallel decode under ThreadSanitizer: $n decodes, $fail failed"
[ "$fail" = 0 ]
