#!/usr/bin/env bash
# A raw trace does not record the CPU that wrote it, and without
# --cpu-model libipt applies no errata workarounds (69-decode-scope-skz84.sh
# shows a decode that goes wrong so). perf reads the CPU from perf.data;
# ptscope says it once on stderr, naming what is assumed and --cpu-model,
# and says nothing when --cpu-model is given or a bundle (which records
# its CPU) is decoded.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# PSB, PSBEND, TIP.PGE 0x401000, PAD: a trace that decodes (as a gap: no code)
printf '\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82\x02\x23' > "$T/t.pt"
printf '\x31\x00\x10\x40\x00' >> "$T/t.pt"
"$P" decode --pt "$T/t.pt" --cpu 0 --format txt -o "$T/out.txt" 2> "$T/err"
n=$(grep -c 'no --cpu-model' "$T/err")
[ "$n" = 1 ] || bad "raw trace without --cpu-model: $n notices of the missing CPU, want 1: $(cat "$T/err")"
grep 'no --cpu-model' "$T/err" | grep -q 'without any CPU.s errata workarounds' ||
	bad "the notice does not say what is assumed: $(cat "$T/err")"
grep 'no --cpu-model' "$T/err" | grep -q 'give --cpu-model FAMILY/MODEL/STEPPING' ||
	bad "the notice does not say what to give: $(cat "$T/err")"
[ "$fail" = 0 ] && echo "ok: without --cpu-model: $(grep 'no --cpu-model' "$T/err")"
"$P" decode --pt "$T/t.pt" --cpu 0 --cpu-model 6/85/4 --format txt -o "$T/out.txt" 2> "$T/err"
! grep -q -- '--cpu-model' "$T/err" || bad "--cpu-model given, still told to give it: $(cat "$T/err")"
"$P" decode samples/demo.ptscope --format txt -o "$T/demo.txt" 2> "$T/err"
! grep -q -- '--cpu-model' "$T/err" || bad "a bundle (it records its CPU) told to give --cpu-model: $(cat "$T/err")"
[ "$fail" = 0 ] && echo "ok: nothing said with --cpu-model or for a bundle"
exit $fail
