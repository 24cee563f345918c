#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Self-test of the VM suite's host-side timeline check
# (tests/vm/host/check-bundles.sh) without a VM: a stand-in decoder
# writes hand-made instruction lists, each CPU's when asked to decode
# one CPU's bundle (tests/vm/host/bundle-cpus.py), and for the whole
# bundle the two interleaved mid-round, as the decoder's time merge lists
# them. The walk of the simulated code images in combined scope (user
# 00..24, kernel 00..24, user 26, per the listing in
# docs/simulated-unit.md) must pass, however the merged list
# interleaves the CPUs; the same walk with a two-iteration loop, with a
# stray address, with one round in six of one CPU taking the loop twice
# in each image (within the slack the check used to allow), or
# with a merged list that lacks a CPU's instructions must fail. A decode that
# exits 3 (gaps or a damaged input) fails bundle_decodes for a clean
# capture and passes it for one whose manifest says sideband records were
# lost. The sideband check (bundle_sideband_merged) must pass for CPU
# rings merged in TSC order and fail for the same rings one after the
# other (what a capture that does not merge writes), and for a bundle
# whose records all come from one CPU (nothing merged: no evidence).
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/bundles/cli_capture_both_manual
mkdir -p "$b/cli_capture_both_manual.ptscope/kernel"
printf 'ffffffffc0a01230 T pts_sim_kernel_entry\t[ptscope]\n' \
	> "$b/cli_capture_both_manual.ptscope/kernel/kallsyms"
manifest() { # sideband records lost
	printf '{\n  "complete": true,\n  "cpus": [\n    { "cpu": 0, "file": "cpu0.pt" },\n' \
		> "$b/cli_capture_both_manual.ptscope/manifest.json"
	printf '    { "cpu": 1, "file": "cpu1.pt" }\n  ],\n' \
		>> "$b/cli_capture_both_manual.ptscope/manifest.json"
	printf '  "sideband": {\n    "file": "sideband.bin",\n' \
		>> "$b/cli_capture_both_manual.ptscope/manifest.json"
	printf '    "size": 8,\n    "lost": %s\n  }\n}\n' "$1" \
		>> "$b/cli_capture_both_manual.ptscope/manifest.json"
}
manifest 0

# The stand-in decoder: writes the list given by LOOPS, STRAY, SHORT (cpu1's
# fourth pass loops twice) and LOSE (the merged list lacks cpu1's).
cat > "$tmp/dec" << 'DEC'
#!/usr/bin/env bash
out= bundle=
while [ $# -gt 0 ]; do
	case $1 in
	--insn-list) out=$2; shift ;;
	*.ptscope) bundle=$1 ;;
	esac
	shift
done
walk() { # cpu
	for p in 1 2 3 4 5 6; do
		n=${LOOPS:-3}
		[ -n "${SHORT:-}" ] && [ "$1" = 1 ] && [ $p = 4 ] && n=2
		seq="00 04"
		for i in $(seq "$n"); do seq="$seq 09 1c 1e 0e 10"; done
		seq="$seq 12 19 20 24"
		for o in $seq; do printf '0x7f51000000%s\n' "$o"; done
		for o in $seq; do printf 'ffffffffc0a012%x\n' $((0x30 + 0x$o)); done
		echo 0x7f5100000026
		if [ -n "${STRAY:-}" ] && [ $p = 3 ]; then echo 0x401000; fi
	done
}
case $bundle in
*/cpu[0-9]*.ptscope) c=${bundle##*/cpu}; walk "${c%.ptscope}" > "$out" ;;
*)
	# Both CPUs, switching every 7 instructions: mid-round, as the time
	# merge lists them.
	walk 0 > "$out.0"
	if [ -n "${LOSE:-}" ]; then : > "$out.1"; else walk 1 > "$out.1"; fi
	awk -v f="$out.1" '{ print; if (NR % 7 == 0) for (i = 0; i < 7 && (getline l < f) > 0; i++) print l }
		END { while ((getline l < f) > 0) print l }' "$out.0" > "$out"
	rm -f "$out.0" "$out.1" ;;
esac
exit "${EXIT:-0}"
DEC
chmod +x "$tmp/dec"

run() { # the line of this check (default bundle_timeline)
	bash tests/vm/host/check-bundles.sh "$tmp/dec" "$tmp/bundles" /dev/null "" < /dev/null |
		grep "^${1:-bundle_timeline}"
}
fail=0
# expect PASS|FAIL WHAT LINE: the check's line for WHAT must say PASS or
# FAIL (a FAIL asked for here is this self-test passing)
expect() {
	case $3 in
	*" $1 "*) echo "ok: $2 gives $1, as it must: $3" ;;
	*) echo "WRONG: $2 must give $1: $3"; fail=1 ;;
	esac
}
expect PASS "good walk" "$(run)"
expect FAIL "two-iteration loop" "$(LOOPS=2 run)"
expect FAIL "stray address" "$(STRAY=1 run)"
expect FAIL "one round of six on cpu1 with two-iteration loops" "$(SHORT=1 run)"
expect FAIL "a merged list without cpu1's instructions" "$(LOSE=1 run)"
expect PASS "exit 0" "$(run bundle_decodes)"
expect FAIL "exit 3, clean capture" "$(EXIT=3 run bundle_decodes)"
manifest 2
expect PASS "exit 3, 2 sideband records lost" "$(EXIT=3 run bundle_decodes)"

# sideband.bin of two CPUs' rings (struct ptscope_sb_hdr: u16 type, u16
# size, u32 cpu, u64 tsc): ORDER merged (by TSC), concatenated (CPU 0's
# ring, then CPU 1's), or one (CPU 0's only)
sideband() {
	python3 - "$1" "$b/cli_capture_both_manual.ptscope/sideband.bin" << 'PY'
import struct, sys
rings = {0: [100, 300, 500], 1: [200, 400, 600]}
recs = [(t, c) for c in rings for t in rings[c]]
if sys.argv[1] == 'merged':
    recs.sort()
elif sys.argv[1] == 'one':
    recs = [r for r in recs if r[1] == 0]
open(sys.argv[2], 'wb').write(b''.join(struct.pack('<HHIQ', 1, 16, c, t) for t, c in recs))
PY
}
sideband merged
expect PASS "two CPUs' rings merged" "$(run bundle_sideband_merged)"
sideband concatenated
expect FAIL "two CPUs' rings one after the other" "$(run bundle_sideband_merged)"
sideband one
expect FAIL "one CPU's records only" "$(run bundle_sideband_merged)"
exit $fail
