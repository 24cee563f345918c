#!/usr/bin/env bash
# Code without a symbol in the shipped sample. ld.so's code at 0x7ffff7fcb010
# (link address 0x1010, ld.so loaded at 0x7ffff7fca000) is a PLT entry:
# `objdump -d` of the bundled ld.so labels it "<_dl_catch_exception@plt>"
# (from its R_X86_64_JUMP_SLOT relocation), and so does the timeline. In a
# copy of the bundle whose ld.so has its dynamic relocations zeroed (.rela.dyn
# and .rela.plt: they become R_X86_64_NONE; the code is unchanged), nothing
# names it: the timeline calls it
# "[unknown] 0x7ffff7fcb010 (ld-linux-x86-64.so.2)". By
# docs/output-formats.md that name is not a symbol: in the .txt it has no
# "+0xOFFSET" and its object is not repeated after it, and in the .json
# it has no "symbol" or "offset" argument. The expected lines are written
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

# expect_line FILE LINE: the line is in the file, whole
expect_line() {
	if grep -qxF -- "$2" "$1"; then
		echo "ok: $2"
	else
		echo "FAIL: no line '$2' in the .txt; lines at that time:"; grep -m5 -F "${2%% *} " "$1"
		fail=1
	fi
}

"$P" decode "$S" -o "$T/named.txt" >/dev/null 2>"$T/err" || { echo "FAIL: decode to .txt: $(cat "$T/err")"; exit 1; }
# .txt layout: the kind padded to 12 characters, one space and two per
# depth (5): 19 spaces; no offset at a function's entry
ind=$(printf '%19s' '')
expect_line "$T/named.txt" "19811 0 7442/7442 5 call$ind> _dl_catch_exception@plt (ld-linux-x86-64.so.2)"

cp -r "$S" "$T/b.ptscope"
L=$T/b.ptscope/objects/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
chmod u+w "$L"
# zero every dynamic relocation section (readelf -S: RELA, offset, size), same file size
readelf -SW "$L" | sed 's/^ *\[ *[0-9]*\]//' | awk '$2 == "RELA" { print $4, $5 }' |
while read -r off size; do
	dd if=/dev/zero of="$L" bs=1 seek=$((0x$off)) count=$((0x$size)) conv=notrunc status=none
done
"$P" decode "$T/b.ptscope" -o "$T/d.txt" >/dev/null 2>"$T/err" || { echo "FAIL: decode to .txt: $(cat "$T/err")"; exit 1; }
"$P" decode "$T/b.ptscope" -o "$T/d.json" >/dev/null 2>"$T/err" || { echo "FAIL: decode to .json: $(cat "$T/err")"; exit 1; }

expect_line "$T/d.txt" "19811 0 7442/7442 5 call$ind> [unknown] 0x7ffff7fcb010 (ld-linux-x86-64.so.2)"
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
