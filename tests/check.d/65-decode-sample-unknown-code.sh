#!/usr/bin/env bash
# Code without a symbol in the shipped sample: ld.so's lazy-binding entry
# at 0x7ffff7fcb010 has no symbol, so the timeline names it
# "[unknown] 0x7ffff7fcb010 (ld-linux-x86-64.so.2)". By
# docs/output-formats.md that name is not a symbol: in the .txt it has no
# "+0xOFFSET" and its object is not repeated after it, and in the .json
# it has no "symbol" or "offset" argument. The expected line is written
# by hand from the .txt layout.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
S=samples/demo.ptscope
[ -d "$S" ] || { echo "FAIL: no $S (it is part of the repository)"; exit 1; }
[ -x "$P" ] || { echo "missing $P: run make"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

"$P" decode "$S" -o "$T/d.txt" >/dev/null 2>"$T/err" || { echo "FAIL: decode to .txt: $(cat "$T/err")"; exit 1; }
"$P" decode "$S" -o "$T/d.json" >/dev/null 2>"$T/err" || { echo "FAIL: decode to .json: $(cat "$T/err")"; exit 1; }

# the kind padded to 12 characters, one space and two per depth (5): 19 spaces
want="19811 0 7442/7442 5 call$(printf '%19s' '')> [unknown] 0x7ffff7fcb010 (ld-linux-x86-64.so.2)"
if grep -qxF -- "$want" "$T/d.txt"; then
	echo "ok: $want"
else
	echo "FAIL: no line '$want' in the .txt; [unknown] lines:"; grep -m5 -F '[unknown]' "$T/d.txt"; fail=1
fi
n=$(grep -cF '[unknown]' "$T/d.txt" || true)
bad=$(grep -cE '\[unknown\] 0x[0-9a-f]+( \([^()]*\))?\+0x' "$T/d.txt" || true)
rep=$(grep -cE '\[unknown\] 0x[0-9a-f]+ \(([^()]*)\)(\+0x[0-9a-f]+)? \(\1\)' "$T/d.txt" || true)
if [ "$bad" != 0 ] || [ "$rep" != 0 ]; then
	echo "FAIL: of $n [unknown] lines in the .txt, $bad have an offset, $rep repeat the object:"
	grep -m3 -E '\[unknown\] 0x[0-9a-f]+( \([^()]*\))?\+0x' "$T/d.txt"
	grep -m3 -E '\[unknown\] 0x[0-9a-f]+ \(([^()]*)\)(\+0x[0-9a-f]+)? \(\1\)' "$T/d.txt"
	fail=1
else
	echo "ok: $n [unknown] lines in the .txt, none with an offset or a repeated object"
fi
unk=$(grep -cF '"name":"[unknown] 0x' "$T/d.json" || true)
sym=$(grep -cF '"symbol":"[unknown] 0x' "$T/d.json" || true)
if [ "$unk" = 0 ] || [ "$sym" != 0 ]; then
	echo "FAIL: .json: $unk [unknown] slices, $sym with symbol/offset arguments"; fail=1
else
	echo "ok: $unk [unknown] slices in the .json, none with symbol/offset arguments"
fi
exit $fail
