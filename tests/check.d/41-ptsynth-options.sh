#!/usr/bin/env bash
# Reference encoder under other RTIT_CTL settings and capture modes: each
# stream must still decode to exactly the ground truth. DisRETC (every
# RET a TIP), long TNT with CYC, PSBFreq 4K without timing packets, a
# wrapped 4 KiB snapshot ring (decode starts at the first PSB in it) and
# injected overflows (OVF + FUP), a trace stopped after N instructions
# (with a disable, and without one: ptscope decode lists every instruction
# libipt's instruction decoder returns), and a trace that follows an exec. Then a corrupted ground truth must be
# refused, so the comparison itself is shown to fail when it should.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
bin=$B/ptsynth-programs
work=$B/ptsynth-check/options
bash tests/ptsynth/build-programs.sh "$bin"
rm -rf "$work"
mkdir -p "$work"

n=0
variant() {
	n=$((n + 1))
	"$B/ptsynth" run -q "$@" -o "$work/v$n.ptscope" -- "$bin/cfeatures" </dev/null >/dev/null
	echo "variant $n: $*"
	"$B/ptsynth" check "$work/v$n.ptscope"
}

variant --noretcomp
variant --long-tnt --timing tsc,mtc,cyc
variant --psb-period 4096 --timing none
variant --wrap 4K
grep -q '"wrapped": true' "$work/v$n.ptscope/manifest.json"
grep -q '^w ' "$work/v$n.ptscope/ground-truth.txt"
variant --ovf-every 3000 --ovf-lost 5
grep -q '^o ' "$work/v$n.ptscope/ground-truth.txt"
grep -q '^l ' "$work/v$n.ptscope/ground-truth.txt"
# Tracing stopped part-way (user scope: the thread is interrupted, FUP +
# TIP.PGD, for the kernel to clear TraceEn); the command runs on.
n=$((n + 1))
"$B/ptsynth" run -q --max-insns 20000 -o "$work/v$n.ptscope" -- "$bin/cfeatures" </dev/null >"$work/v$n.out"
echo "variant $n: --max-insns 20000"
"$B/ptsynth" check "$work/v$n.ptscope"
grep -q '^sum=262 ' "$work/v$n.out"
[ "$(grep -c '^i ' "$work/v$n.ptscope/ground-truth.txt")" -eq 20000 ]

# A trace that ends while enabled, as a full ToPA STOP region ends it (no
# TIP.PGD): libipt's instruction decoder walks on past the last packet to
# the first branch that needs trace, and ptscope decode must list exactly
# the instructions it returns (issue 13 item 1: the last block was lost).
n=$((n + 1))
"$B/ptsynth" run -q --max-insns 5003 --stop-full -o "$work/v$n.ptscope" -- "$bin/cfeatures" \
	</dev/null >/dev/null
echo "variant $n: --max-insns 5003 --stop-full"
"$B/ptsynth" check "$work/v$n.ptscope" | tee "$work/v$n.check"
[ "$(grep -c '^[ad] ' "$work/v$n.ptscope/ground-truth.txt")" -eq 0 ]
all=$(sed -n 's/.* \([0-9]*\) in all$/\1/p' "$work/v$n.check")
[ -n "$all" ] || all=$(sed -n 's/.*OK: \([0-9]*\) instructions.*/\1/p' "$work/v$n.check")
"$B/ptscope" decode "$work/v$n.ptscope" -o "$work/v$n.json" --insn-list "$work/v$n.insns"
got=$(wc -l <"$work/v$n.insns")
echo "ptscope decode: $got instructions, libipt's instruction decoder: $all"
[ "$got" -eq "$all" ]

# An exec followed (--follow-exec): env execs the program; the trace is
# the program's, from its first instruction.
n=$((n + 1))
"$B/ptsynth" run -q --follow-exec -o "$work/v$n.ptscope" -- /usr/bin/env PTSYNTH_TEST=1 \
	"$bin/vdso_clock" </dev/null >/dev/null
echo "variant $n: --follow-exec (env -> vdso_clock)"
"$B/ptsynth" check "$work/v$n.ptscope"
grep -q "\"exe\": \"$(readlink -f "$bin/vdso_clock")\"" "$work/v$n.ptscope/manifest.json"

# Negative: move one instruction address in the ground truth.
cp -r "$work/v1.ptscope" "$work/bad.ptscope"
perl -pe 's/^i (\S+)/sprintf("i %x", hex($1) + 1)/e if /^i / && ++$k == 5000' \
	"$work/v1.ptscope/ground-truth.txt" >"$work/bad.ptscope/ground-truth.txt"
if "$B/ptsynth" check "$work/bad.ptscope" 2>"$work/bad.err"; then
	echo "a corrupted ground truth was accepted"
	exit 1
fi
# The manifest records the ground truth's size: the edit keeps it, so the
# refusal must come from the comparison.
grep -q 'MISMATCH' "$work/bad.err"
cat "$work/bad.err"
echo "ptsynth options: $n variants decode exactly; a wrong ground truth is refused"
