#!/usr/bin/env bash
# ptscope decode on bad input: clear messages and the documented exit
# status (0 clean, 1 error, 2 bad usage, 3 decoded with gaps).
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
R=${PTS_SHARED:-../shared}/data/real/dynamorio-hello
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() {	# want-status grep-pattern args...
	local want=$1 pat=$2 rc=0
	shift 2
	"$P" decode "$@" > "$T/out" 2> "$T/err" || rc=$?
	if [ "$rc" != "$want" ] || ! grep -qi -- "$pat" "$T/out" "$T/err"; then
		echo "FAIL: decode $* -> exit $rc (want $want), output:"; cat "$T/out" "$T/err"
		fail=1
	else
		echo "ok: exit $rc: $(grep -hi -- "$pat" "$T/out" "$T/err" | head -1)"
	fi
}
expect 2 "unrecognized\|unknown\|usage" --no-such-option
expect 2 "nothing to decode" -o "$T/x.txt"
expect 2 "cannot tell the format" --pt "$R/pt.bin" -o "$T/x.unknownext"
# fxt is binary: asking for it on standard output is bad usage (docs/output-formats.md)
expect 2 "cannot go to standard output" --pt "$R/pt.bin" -o - --format fxt
expect 1 "cannot open trace file" --pt "$T/missing.pt" -o "$T/x.txt"
expect 1 "not an ELF" --pt "$R/pt.bin" --elf "$R/pt.bin" -o "$T/x.txt"
# a buffer with no PSB: decoded, one gap saying why
head -c 300 /dev/zero > "$T/nopsb.pt"
expect 3 "no sync point" --pt "$T/nopsb.pt" -o "$T/nopsb.txt" --summary
# the trace truncated in the middle: what is there is decoded, the rest is a gap or ends
head -c 1500 "$R/pt.bin" > "$T/cut.pt"
rc=0
"$P" decode --pt "$T/cut.pt" --elf "$R/hello" --cpu-model 6/85/4 --scope user -o "$T/cut.json" || rc=$?
if [ $rc != 0 ] && [ $rc != 3 ]; then echo "FAIL: truncated trace exit $rc"; fail=1; else echo "ok: truncated trace exit $rc"; fi
python3 tests/tools/tl_shape.py "$T/cut.json" > /dev/null || { echo "FAIL: truncated trace timeline"; fail=1; }
# no output file is left behind on error
[ ! -e "$T/x.txt" ] || { echo "FAIL: output left after an error"; fail=1; }
exit $fail
