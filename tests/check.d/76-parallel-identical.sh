#!/usr/bin/env bash
# Parallel decode (docs/decode.md, "Parallel decode"): on every stream of
# the decoder-fidelity corpus (the bundles 75-fidelity and
# 40-ptsynth-selfcheck made, the snapshot cut, the whole-system fixtures
# of 70-qemu-trace-log, the shipped sample, the real capture and the
# libipt-encoded streams of ../shared) and on a generated raw trace,
# `ptscope decode -j N` must write byte for byte what `-j 1` writes, in
# every format and in --summary, with the exit status. Chunks as small
# as the trace allows (--chunk-size 1: a chunk at every PSB) make as many
# joins as there are PSBs; a second run uses 3 threads and 4 KiB chunks.
# The joins made must be most of them (a decode that refused every join
# would be the serial one), and a join that drops one event, a run of
# jumps dropped when only its first jump lies in the elide window, and
# runs of two CPUs not cut where the time changes must be caught (the
# check's self-tests).
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
S=${PTS_SHARED:-../shared}
work=$B/parallel-check
. tests/tools/check-lib.sh

[ -x "$B/ptscope" ] || { echo "SKIP: $B/ptscope not built"; exit 77; }
rm -rf "$work"
mkdir -p "$work"

# name<TAB>decode arguments (one stream a line)
streams=$work/streams
: > "$streams"
for d in "$B"/fidelity/bundles/*.ptscope "$B"/fidelity/*.ptscope \
	 "$B"/ptsynth-check/selfcheck/*.ptscope "$B"/qemu-trace-log/res/*.ptscope \
	 samples/demo.ptscope; do
	[ -f "$d/manifest.json" ] || continue
	printf '%s\t%s\n' "$(basename "$(dirname "$d")")-$(basename "$d" .ptscope)" "$d" >> "$streams"
done
[ -d "$B/fidelity/bundles" ] ||
	echo "SKIP part: no $B/fidelity (75-fidelity did not run): its corpus bundles"
r=$S/data/real/dynamorio-hello
if [ -f "$r/pt.bin" ]; then
	printf 'dynamorio-hello\t--pt %s --cpu 9 --elf %s --cpu-model 6/85/4 --mtc-freq 3 --nom-freq 37 --cpuid-15 2,308 --scope user\n' \
		"$r/pt.bin" "$r/hello" >> "$streams"
else
	echo "SKIP part: no $r (outside data; CI has it, PTS_SHARED=DIR names a copy): the real capture"
fi
x=$B/fidelity/synth-example
if [ -f "$x/user.pt" ]; then
	printf 'synth-user\t--pt %s --elf %s --nom-freq 37 --scope user\n' "$x/user.pt" "$x/prog" >> "$streams"
	printf 'synth-kernel\t--pt %s --elf %s --elf %s --nom-freq 37 --scope both\n' \
		"$x/kern.pt" "$x/prog" "$x/kernel.elf" >> "$streams"
fi
# A generated trace (docs/performance.md): 400 kB, a PSB every 2 KiB.
if make -s "$B/bench-gen" "$B/bench-workload" < /dev/null > /dev/null 2>&1; then
	"$B/bench-gen" --elf "$B/bench-workload" --size 400000 --seed 3 -o "$work/gen.pt" > /dev/null
	printf 'gen-400kB\t--pt %s --elf %s --cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000\n' \
		"$work/gen.pt" "$B/bench-workload" >> "$streams"
	# two CPUs of one time base, merged by time: runs of jumps are cut where the time changes
	"$B/bench-gen" --elf "$B/bench-workload" --size 200000 --seed 5 -o "$work/gen-cpu0.pt" > /dev/null
	"$B/bench-gen" --elf "$B/bench-workload" --size 150000 --seed 6 -o "$work/gen-cpu1.pt" > /dev/null
	printf 'gen-2cpu\t--pt %s --cpu 0 --pt %s --cpu 1 --elf %s --cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000\n' \
		"$work/gen-cpu0.pt" "$work/gen-cpu1.pt" "$B/bench-workload" >> "$streams"
else
	echo "SKIP part: cannot build $B/bench-gen: no generated trace"
fi

n=0
fail=0
joins=0
refused=0
# decode STREAM-ARGS TAG EXTRA...: every format and the summary into $work/TAG.*
decode() {
	local args=$1 tag=$2 f rc
	shift 2
	for f in fxt json txt folded; do
		rc=0
		# shellcheck disable=SC2086
		PTS_PARDEC_STATS=1 "$B/ptscope" decode $args "$@" -o "$work/$tag.$f" --summary \
			> "$work/$tag.$f.sum" 2> "$work/$tag.$f.err" || rc=$?
		echo "$rc" > "$work/$tag.$f.rc"
	done
}
while IFS=$'\t' read -r name args; do
	decode "$args" "$name-j1" -j 1
	for run in "2 1" "3 4096"; do
		set -- $run
		tag=$name-j$1-c$2
		decode "$args" "$tag" -j "$1" --chunk-size "$2"
		for f in fxt json txt folded; do
			n=$((n + 1))
			for part in "" .sum .rc; do
				if ! cmp -s "$work/$name-j1.$f$part" "$work/$tag.$f$part"; then
					echo "FAIL: $name: -j $1 --chunk-size $2 $f${part:-} differs from -j 1"
					fail=$((fail + 1))
					break
				fi
			done
		done
		j=$(sed -n 's/^pardec: \([0-9]*\) joins, \([0-9]*\) refused$/\1/p' "$work/$tag.fxt.err" |
			awk '{s += $1} END {print s + 0}')
		r=$(sed -n 's/^pardec: \([0-9]*\) joins, \([0-9]*\) refused$/\2/p' "$work/$tag.fxt.err" |
			awk '{s += $1} END {print s + 0}')
		echo "  $name -j $1 --chunk-size $2: $j joins, $r refused"
		joins=$((joins + j))
		refused=$((refused + r))
	done
done < "$streams"
echo "parallel decode: $n outputs of $(wc -l < "$streams") streams compared with -j 1:" \
	"$fail differ; $joins joins, $refused refused"
[ "$fail" = 0 ] || exit 1
# most joins must be made: a refused one is decoded serially and proves nothing
if [ "$joins" -lt 100 ] || [ "$refused" -gt "$joins" ]; then
	echo "FAIL: too few joins made ($joins made, $refused refused)"
	exit 1
fi

# Self-test: a join that drops the successor's first event must show.
g=$(grep '^gen-400kB' "$streams" | cut -f2)
if [ -n "$g" ]; then
	# shellcheck disable=SC2086
	"$B/ptscope" decode $g -j 1 -o "$work/self-j1.txt" || true
	# shellcheck disable=SC2086
	PTS_PARDEC_BREAK=1 "$B/ptscope" decode $g -j 2 --chunk-size 1 -o "$work/self-broken.txt" || true
	if cmp -s "$work/self-j1.txt" "$work/self-broken.txt"; then
		echo "FAIL: a join that drops an event went unnoticed"
		exit 1
	fi
	echo "parallel decode self-test: a join that drops an event changes the output"
	# a run of jumps dropped whole when only its first jump lies in the window
	# shellcheck disable=SC2086
	PTS_PARDEC_BREAK=run "$B/ptscope" decode $g -j 2 --chunk-size 1 -o "$work/self-run.txt" || true
	if cmp -s "$work/self-j1.txt" "$work/self-run.txt"; then
		echo "FAIL: a run of jumps dropped on its first jump went unnoticed"
		exit 1
	fi
	echo "parallel decode self-test: a run dropped on its first jump changes the output"
fi
# Self-test: two CPUs' runs not cut where the time changes (the other CPU's
# events then fall inside a run) must show, in the summary's jump count.
g=$(grep '^gen-2cpu' "$streams" | cut -f2)
if [ -n "$g" ]; then
	# shellcheck disable=SC2086
	PTS_PARDEC_BREAK=time "$B/ptscope" decode $g -j 2 --chunk-size 1 -o "$work/self-time.fxt" --summary \
		> "$work/self-time.sum" || true
	if cmp -s "$work/gen-2cpu-j1.fxt.sum" "$work/self-time.sum"; then
		echo "FAIL: runs of two CPUs not cut at time changes went unnoticed"
		exit 1
	fi
	echo "parallel decode self-test: runs of two CPUs not cut at time changes change the summary"
fi
