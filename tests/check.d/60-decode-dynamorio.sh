#!/usr/bin/env bash
# Issue 5 "Done when" (i): the real capture ../shared/data/real/dynamorio-hello
# decodes in raw mode, with and without its perf sideband, to exactly its 8
# instructions (listed in its README, derived from the program) and a
# timeline with _start holding the untraced start and two syscall slices;
# its sideband given with the wrong --cpu is said.
set -eu
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
pts_need_shared data/real/dynamorio-hello
P=${PTSCOPE:-build/ptscope}
R=$PTS_SHARED/data/real/dynamorio-hello
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
want="401000 401005 40100a 401014 401019 40101b 401020 401025"
base=(--pt "$R/pt.bin" --cpu 9 --cpu-model 6/85/4 --mtc-freq 3 --nom-freq 37
      --cpuid-15 2,308 --scope user)
raw=("${base[@]}" --elf "$R/hello")
# third way: no --elf; the sideband's MMAP2 of /hello found under --sysroot
mkdir -p "$T/sysroot"
cp "$R/hello" "$T/sysroot/hello"
sb=(--pevent-primary "$R/primary.sideband.pevent" --pevent-secondary "$R/secondary.sideband.pevent"
    --pevent-sample-type 0x10086 --pevent-time-shift 31 --pevent-time-mult 581029125
    --pevent-time-zero 18444502336406842448)
fail=0
for mode in plain sideband sysroot; do
	args=("${raw[@]}")
	[ "$mode" = sideband ] && args=("${raw[@]}" "${sb[@]}")
	[ "$mode" = sysroot ] && args=("${base[@]}" "${sb[@]}" --sysroot "$T/sysroot")
	rc=0
	"$P" decode "${args[@]}" -o "$T/$mode.json" --insn-list "$T/$mode.insns" \
		--summary > "$T/$mode.summary" || rc=$?
	got=$(tr '\n' ' ' < "$T/$mode.insns" | sed 's/ $//')
	if [ "$rc" != 0 ] || [ "$got" != "$want" ]; then
		echo "FAIL $mode: exit $rc, instructions: $got (want $want)"
		fail=1
		continue
	fi
	# _start holds [interrupted] (the async disable before its first
	# instruction) and two [syscall] slices (user scope: kernel untraced)
	shape=$(python3 tests/tools/tl_shape.py "$T/$mode.json" | cut -d' ' -f2-) || {
		echo "FAIL $mode: timeline JSON not well formed"; fail=1; continue; }
	if [ "$shape" != "B0 _start|B1 [interrupted]|E1|B1 [syscall]|E1|B1 [syscall]|E1|E0" ]; then
		echo "FAIL $mode: timeline $shape"
		fail=1
		continue
	fi
	grep -q '^gaps: 0$' "$T/$mode.summary" || { echo "FAIL $mode: gaps"; cat "$T/$mode.summary"; fail=1; continue; }
	echo "ok $mode: $got"
done
# the .fxt (Perfetto) through fxtcheck, the independent reader written from
# the format's specification: the same four slices, _start enclosing the rest
if [ -x build/fxtcheck ]; then
	"$P" decode "${raw[@]}" -o "$T/hello.fxt"
	build/fxtcheck --dump "$T/hello.fxt" > "$T/hello.dump"
	got=$(awk '$1 == "slice" { print $3, $7 }' "$T/hello.dump" | sort | tr '\n' ';')
	if [ "$got" != "0 _start;1 [interrupted];1 [syscall];1 [syscall];" ]; then
		echo "FAIL fxt slices: $got"; cat "$T/hello.dump"; fail=1
	else
		echo "ok fxt: $got"
	fi
else
	echo "FAIL: build/fxtcheck missing (make)"; fail=1
fi
# the trace truncated in the middle: what is there is decoded, the rest is a gap or ends
head -c 1500 "$R/pt.bin" > "$T/cut.pt"
rc=0
"$P" decode --pt "$T/cut.pt" --elf "$R/hello" --cpu-model 6/85/4 --scope user -o "$T/cut.json" || rc=$?
if [ $rc != 0 ] && [ $rc != 3 ]; then echo "FAIL: truncated trace exit $rc"; fail=1; else echo "ok: truncated trace exit $rc"; fi
python3 tests/tools/tl_shape.py "$T/cut.json" > /dev/null || { echo "FAIL: truncated trace timeline"; fail=1; }
# with the sideband the thread is perf's 223991, named hello by its COMM record
grep -q '223991/223991 hello' "$T/sideband.summary" || { echo "FAIL sideband thread"; cat "$T/sideband.summary"; fail=1; }
# warns WHAT PATTERN ARGS...: the decode of ARGS exits 0 with PATTERN on stderr
warns() {
	local what=$1 pat=$2 rc=0
	shift 2
	"$P" decode "$@" -o "$T/warn.txt" 2> "$T/warn.err" || rc=$?
	if [ $rc != 0 ] || ! grep -q "$pat" "$T/warn.err"; then
		echo "FAIL: $what: exit $rc, not said"; cat "$T/warn.err"; fail=1
	else
		echo "ok: $what said"
	fi
}
# The sideband's records are of CPU 9: a --pt left at CPU 0 gets no thread
# from it, and the decode says so (not a silent track 0/0 passing for hello's)
base0=("${base[@]}"); base0[3]=0
warns "sideband of CPU 9 with --cpu 0" "^ptscope decode: warning: the perf sideband places no thread on CPU 0 (of the --pt files): its trace is one track of an unknown thread; its records are of CPU 9: give each --pt the CPU it was recorded on (--cpu N after it)" \
	"${base0[@]}" --elf "$R/hello" "${sb[@]}"
# the sideband without perf's time conversion: its times cannot be matched, said
warns "sideband without --pevent-time-*" "^ptscope decode: warning: perf sideband without --pevent-time-shift/-mult/-zero: its records' times (perf's clock) cannot be matched with the trace's TSC" \
	"${raw[@]}" "${sb[@]:0:6}"
rc=0
"$P" decode "${raw[@]}" "${sb[@]}" -o "$T/cpu9.txt" 2> "$T/cpu9.err" || rc=$?
[ $rc = 0 ] && [ ! -s "$T/cpu9.err" ] || { echo "FAIL: --cpu 9 with its sideband: exit $rc or a message"; cat "$T/cpu9.err"; fail=1; }
exit $fail
