#!/usr/bin/env bash
# Cross-check the decoder against an independent one: perf 6.1's intel_pt
# decoder, fed through ../shared/tools/mkperfdata.py. Both must list the
# same executed instructions for
#   - the real capture dynamorio-hello (user scope), and
#   - the libipt-encoded streams of ../shared/tools/synth-example (user
#     scope, and user+kernel scope with the kernel stub).
# Needs perf (Debian package linux-perf), as, ld, cc, python3.
set -eu
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
pts_need_shared data/real/dynamorio-hello tools/mkperfdata.py tools/synth-example
P=${PTSCOPE:-build/ptscope}
S=$(cd "$PTS_SHARED" && pwd)
if ! command -v perf >/dev/null; then
	echo "FAIL: perf not found: apt-get install linux-perf"
	exit 1
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

compare() {	# name perf-insns ours
	if diff -q "$2" "$3" >/dev/null; then
		echo "ok $1: $(wc -l < "$3") instructions agree with perf"
	else
		echo "FAIL $1: instruction lists differ (perf vs ptscope)"
		diff "$2" "$3" | head -20
		fail=1
	fi
}

# 1. dynamorio-hello
R=$S/data/real/dynamorio-hello
python3 "$S/tools/mkperfdata.py" -o "$T/hello.data" --pt "$R/pt.bin" --cpu 9 \
	--image "$R/hello:0x401000:0x1000:0x27" --pid 223991 --comm hello \
	--cpu-model 6/85/4 --mtc-freq 3 --nom-freq 37 --tsc-ctc 308/2 \
	--time-shift 31 --time-mult 581029125 --time-zero 18444502336406842448 > /dev/null 2>&1
perf script -f -i "$T/hello.data" --itrace=i0ns -F ip 2>/dev/null | awk '{print $1}' > "$T/hello.perf"
"$P" decode --pt "$R/pt.bin" --cpu 9 --elf "$R/hello" --cpu-model 6/85/4 --mtc-freq 3 \
	--nom-freq 37 --cpuid-15 2,308 --scope user --insn-list "$T/hello.ours" --format null
compare dynamorio-hello "$T/hello.perf" "$T/hello.ours"

# 2. synth-example streams (user scope; user+kernel scope)
X=$S/tools/synth-example
as -o "$T/prog.o" "$X/prog.S" && ld -static -Ttext=0x401000 -e _start -o "$T/prog" "$T/prog.o"
as -o "$T/kernel.o" "$X/kernel.S" &&
	ld -static -Ttext=0xffffffff81000000 -e entry_SYSCALL_64 -o "$T/kernel.elf" "$T/kernel.o"
cc -O2 -o "$T/gen" "$X/gen.c" -lipt
sym() { nm "$1" | awk -v s="$2" '$3 == s { print "0x" $1 }'; }
START=$(sym "$T/prog" _start); AFTER=$(sym "$T/prog" after_syscall); F3=$(sym "$T/prog" f3)
KENTRY=$(sym "$T/kernel.elf" entry_SYSCALL_64)
"$T/gen" user "$START" "$AFTER" "$F3" > "$T/user.pt"
"$T/gen" kernel "$START" "$AFTER" "$F3" "$KENTRY" > "$T/kern.pt"
mk() {
	python3 "$S/tools/mkperfdata.py" --cpu 0 --image "$T/prog:$START" --pid 4242 --comm prog \
		--no-mtc --nom-freq 37 "$@" > /dev/null 2>&1
}
mk -o "$T/user.data" --pt "$T/user.pt"
mk -o "$T/kern.data" --pt "$T/kern.pt" --kernel-image "$T/kernel.elf"
for t in user kern; do
	perf script -f -i "$T/$t.data" --itrace=i0ns -F ip 2>/dev/null | awk '{print $1}' > "$T/$t.perf"
	scope=user
	extra=()
	if [ $t = kern ]; then scope=both; extra=(--elf "$T/kernel.elf"); fi
	"$P" decode --pt "$T/$t.pt" --elf "$T/prog" "${extra[@]}" --nom-freq 37 --scope $scope \
		--insn-list "$T/$t.ours" --format null
	compare "synth-example $t" "$T/$t.perf" "$T/$t.ours"
done
# the kernel half again, from the kcore directory perf itself used (kcore + kallsyms)
"$P" decode --pt "$T/kern.pt" --elf "$T/prog" --kcore "$T/kern.data/kcore_dir" --nom-freq 37 \
	--scope both --insn-list "$T/kcore.ours" -o "$T/kcore.txt"
compare "synth-example kern via --kcore" "$T/kern.perf" "$T/kcore.ours"
grep -q 'do_syscall' "$T/kcore.txt" || { echo "FAIL: no kernel names from kcore_dir/kallsyms"; fail=1; }
exit $fail
