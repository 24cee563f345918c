#!/usr/bin/env bash
# The scope of a raw trace recorded on a Skylake server (CPU 6/85/4),
# inferred from the packets behind a TMA whose reserved bits are set in
# its PSB+ (without --scope). libipt works around erratum SKZ84 by passing
# over such a TMA and the byte after it (here a PAD); the decoders do, and
# the scope scan reads the trace with the same errata (dc00f76): the
# TIP.PGE at a kernel address after the PSBEND is its evidence, and the
# scope is kernel. A scan without the errata takes the TMA for damage,
# finds no PSB after it, sees no address and assumes user space; so does
# the decode of the same bytes as another CPU's (6/94/3, no SKZ84), which
# this check also runs, to show the TMA is what the CPU model decides.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# PSB, TSC, TMA (FC bit 9 set) + PAD, PSBEND, TIP.PGE 0xffffffff81000000 (sext 48), PAD PAD
printf '\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82\x02\x82' > "$T/t.pt"
printf '\x19\x00\x10\x00\x00\x00\x00\x00' >> "$T/t.pt"
printf '\x02\x73\x12\x00\x00\x34\x02\x00' >> "$T/t.pt"
printf '\x02\x23' >> "$T/t.pt"
printf '\x71\x00\x00\x00\x81\xff\xff\x00\x00' >> "$T/t.pt"
scope() {	# cpu-model: the summary's scope line
	"$P" decode --pt "$T/t.pt" --cpu 0 --cpu-model "$1" --summary --format txt \
		-o "$T/out.txt" 2>&1 | grep '^scope:'
}
s=$(scope 6/85/4)
case $s in
"scope: kernel (from the trace:"*) echo "ok: 6/85/4: $s" ;;
*) echo "FAIL: 6/85/4: the scope behind an SKZ84 TMA: '$s', want kernel from the trace"; fail=1 ;;
esac
s=$(scope 6/94/3)
case $s in
"scope: user (no address"*) echo "ok: 6/94/3: $s" ;;
*) echo "FAIL: 6/94/3 (no SKZ84): '$s', want user assumed (the TMA is damage)"; fail=1 ;;
esac
exit $fail
