#!/usr/bin/env bash
# Decoder change identity (docs/performance.md): decode every stream of the
# corpus with two ptscope binaries, OLD and NEW, single-threaded (-j 1: or
# IDENTITY_JOBS),
# into fxt, json, txt and folded, with --summary and --insn-list, and again
# without either (the decoder's block loop without an instruction listing),
# and require the outputs to be equal byte for byte.
#
#   tools/bench/identity.sh OLD NEW          (after `make check`: its corpus)
#   IDENTITY_JOBS=2 tools/bench/identity.sh OLD NEW   (-j 2 instead: the
#                 parallel decode; --insn-list decodes serially still)
#
# Streams (as 76-parallel-identical lists them, plus larger generated ones):
# the bundles 75-fidelity, 40-ptsynth-selfcheck and 70-qemu-trace-log made
# under $B, the shipped sample, ../shared's real capture, libipt-encoded
# streams and perf script files, and bench-gen traces of several seeds and
# sizes (IDENTITY_GEN_MB, default "1 10": one trace of each size more).
# Prints one line per difference and a count; exit 1 when any differ.
set -eu
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 OLD-PTSCOPE NEW-PTSCOPE" >&2; exit 2; }
old=$1
new=$2
B=${B:-build}
S=${PTS_SHARED:-../shared}
work=${IDENTITY_WORK:-$B/identity}
jobs=${IDENTITY_JOBS:-1}
rm -rf "$work"
mkdir -p "$work"

streams=$work/streams
: > "$streams"
add() { printf '%s\t%s\n' "$1" "$2" >> "$streams"; }
for d in "$B"/fidelity/bundles/*.ptscope "$B"/fidelity/*.ptscope \
	 "$B"/ptsynth-check/selfcheck/*.ptscope "$B"/qemu-trace-log/res/*.ptscope \
	 samples/demo.ptscope; do
	[ -f "$d/manifest.json" ] && add "$(basename "$(dirname "$d")")-$(basename "$d" .ptscope)" "$d"
done
r=$S/data/real/dynamorio-hello
[ -f "$r/pt.bin" ] && add dynamorio-hello "--pt $r/pt.bin --cpu 9 --elf $r/hello --cpu-model 6/85/4 --mtc-freq 3 --nom-freq 37 --cpuid-15 2,308 --scope user"
for p in "$S"/data/real/perf-script/*.perf; do
	[ -f "$p" ] && add "perf-$(basename "$p" .perf)" "--perf-script $p"
done
x=$B/fidelity/synth-example
if [ -f "$x/user.pt" ]; then
	add synth-user "--pt $x/user.pt --elf $x/prog --nom-freq 37 --scope user"
	add synth-kernel "--pt $x/kern.pt --elf $x/prog --elf $x/kernel.elf --nom-freq 37 --scope both"
fi
if [ ! -x "$B/bench-gen" ] || [ ! -f "$B/bench-workload" ]; then
	make -s "$B/bench-gen" "$B/bench-workload" < /dev/null > /dev/null
fi
gen_args="--elf $B/bench-workload --cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000"
seed=1
for size in 100000 400000 $(for m in ${IDENTITY_GEN_MB:-1 10}; do echo $((m * 1000000)); done); do
	"$B/bench-gen" --elf "$B/bench-workload" --size "$size" --seed "$seed" -o "$work/gen-$seed.pt" > /dev/null
	add "gen-$size-seed$seed" "--pt $work/gen-$seed.pt $gen_args"
	seed=$((seed + 1))
done
"$B/bench-gen" --elf "$B/bench-workload" --size 200000 --seed 5 -o "$work/gen-cpu0.pt" > /dev/null
"$B/bench-gen" --elf "$B/bench-workload" --size 150000 --seed 6 -o "$work/gen-cpu1.pt" > /dev/null
add gen-2cpu "--pt $work/gen-cpu0.pt --cpu 0 --pt $work/gen-cpu1.pt --cpu 1 $gen_args"

n=0
fail=0
# run BIN TAG ARGS: every format, its summary, exit status and instruction
# list (PT inputs: perf script text lists no instructions)
run() {
	local bin=$1 tag=$2 args=$3 f rc insn
	for f in fxt json txt folded; do
		rc=0
		insn="--insn-list $work/$tag.$f.insn"
		case $args in --perf-script*) insn= ;; esac
		# shellcheck disable=SC2086
		"$bin" decode $args -j "$jobs" -o "$work/$tag.$f" --summary $insn \
			> "$work/$tag.$f.sum" 2> "$work/$tag.$f.err" || rc=$?
		echo "$rc" > "$work/$tag.$f.rc"
		# again without the instruction list: the decoder's own block loop
		# runs only then (with it, every block goes through step)
		if [ -n "$insn" ]; then
			# shellcheck disable=SC2086
			"$bin" decode $args -j "$jobs" -o "$work/$tag.$f.plain" --format "$f" \
				> /dev/null 2>&1 || true
		fi
	done
}
while IFS=$'\t' read -r name args; do
	run "$old" "$name-old" "$args"
	run "$new" "$name-new" "$args"
	for f in fxt json txt folded; do
		for part in "" .sum .rc .insn .plain; do
			[ -e "$work/$name-old.$f$part" ] || [ -e "$work/$name-new.$f$part" ] || continue
			n=$((n + 1))
			if ! cmp -s "$work/$name-old.$f$part" "$work/$name-new.$f$part"; then
				echo "DIFFER: $name $f${part:-}"
				fail=$((fail + 1))
			fi
		done
	done
	rm -f "$work/$name"-*.{fxt,json,txt,folded}*
done < "$streams"
echo "identity: $n outputs of $(wc -l < "$streams") streams compared: $fail differ"
[ "$fail" = 0 ]
