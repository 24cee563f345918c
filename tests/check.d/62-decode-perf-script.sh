#!/usr/bin/env bash
# Issue 5 "Done when" (ii) through the command: both real perf-script
# listings give well-formed timelines (every begin has its end, no negative
# durations, time never goes back), the Overflow gap is an instant, the exit
# status says "decoded with gaps" (3), and the shapes derived by hand in
# tests/unit/test_decode_perfscript.c hold.
set -eu
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
pts_need_shared data/real/perf-script
P=${PTSCOPE:-build/ptscope}
D=$PTS_SHARED/data/real/perf-script
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
A="itch_bbo::book::Book::add_order"
M="__memmove_avx_unaligned_erms"
for f in memmove_decode_error page_fault; do
	rc=0
	"$P" decode --perf-script "$D/$f.perf" -o "$T/$f.json" --summary > "$T/$f.summary" || rc=$?
	if [ $rc != 3 ]; then
		echo "FAIL $f: exit $rc, want 3 (decoded with gaps)"; fail=1; continue
	fi
	grep -q '1 x Overflow packet' "$T/$f.summary" || { echo "FAIL $f: gap cause"; fail=1; }
	python3 tests/tools/tl_shape.py "$T/$f.json" > "$T/$f.shape" || { echo "FAIL $f: structure"; fail=1; continue; }
	echo "ok $f: $(wc -c < "$T/$f.shape") bytes of shape"
done
want="$A|B1 $M|E1|B1 $M|E1|E0|I gap|B0 $A|B1 $M|E1|E0"
grep -qF "B0 $want" "$T/memmove_decode_error.shape" || { echo "FAIL memmove shape"; cat "$T/memmove_decode_error.shape"; fail=1; }
# page fault: after the gap the user frames _dl_catch_exception > _fini hold the kernel entry
grep -qF "I gap|B0 _dl_catch_exception|B1 _fini|B2 asm_exc_page_fault|B3 error_entry|" "$T/page_fault.shape" ||
	{ echo "FAIL page_fault shape"; head -c 600 "$T/page_fault.shape"; fail=1; }
exit $fail
