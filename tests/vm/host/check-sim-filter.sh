#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-sim-filter.sh DECODER BUNDLE_DIR
#
# Decodes the bundles of the guest's sim_filter_captures
# (tests/vm/guest/sim-scenarios.sh: BUNDLE_DIR/simf_*/simf_*.ptscope, with
# simf_*.pids = "target PID other PID") and prints "name verdict detail"
# lines for run.sh. The rules are the SDM's (docs/simulated-unit.md,
# "Filtering"), judged on what `ptscope decode` reports, never on the
# module's own account:
#
#  cr3_filter_excludes_other_process   simf_cr3: instructions decoded, and
#      every thread in the summary and every timeline line is the traced
#      pid; the other spin process (same user, same CPUs, same code image
#      at the same address) never appears; no paging event (PIP needs
#      OS = 1, and this is user scope)
#  addr_filter_in_range_and_tracestop  simf_addr: every decoded address is
#      in the leaf's filter range 0x7f510000001c..0x7f510000001f; a stop
#      (TraceStop) event was decoded and the decoder says a TraceStop range
#      was reached, never that a buffer filled
#  overflow_is_a_decoder_gap           simf_ovf: the decoder counts an
#      overflow event and lists an OVF gap; still only the traced pid
set -u
DECODER=$1 BDIR=$2
LEAF_LO=7f510000001c LEAF_HI=7f510000001f

# decode NAME: decode bundle NAME into its directory; sets d, b, target,
# other, st; returns 1 (with a FAIL line for $2) when there is nothing.
decode() {
	d=$BDIR/$1 b=$BDIR/$1/$1.ptscope
	if [ ! -d "$b" ] || [ ! -s "$d/$1.pids" ]; then
		echo "$2 FAIL no $1 bundle from the guest (see sim_filter_captures)"
		return 1
	fi
	read -r _ target _ other < "$d/$1.pids"
	"$DECODER" decode "$b" -o "$d/timeline.txt" --summary --insn-list "$d/insns.txt" \
		> "$d/decode.out" 2>&1
	st=$?
	return 0
}

# pids_seen: the distinct pids of the timeline's control-flow lines
# ("ts cpu pid/tid depth kind ..."). Counter lines (CBR, from a PSB+ at
# the enable, which carries no instruction and no process) are left out.
pids_seen() {
	awk '!/^#/ && NF >= 5 && $5 != "counter" { split($3, p, "/"); if (p[1] != "") print p[1] }' \
		"$d/timeline.txt" | sort -u | tr '\n' ' '
}

# threads_seen: the pids of the summary's "threads:" block that made at
# least one call (every round of the code image makes three).
threads_seen() {
	sed -n '/^threads:/,/^[a-z]/p' "$d/decode.out" |
		sed -n 's/^  *\([0-9][0-9]*\)\/[0-9]*.* \([0-9][0-9]*\) calls.*/\1 \2/p' |
		awk '$2 > 0 { print $1 }' | sort -u | tr '\n' ' '
}

events() { grep -m1 '^trace events:' "$d/decode.out"; }

only_target() { # list
	local p
	[ -n "$1" ] || return 1
	for p in $1; do
		[ "$p" = "$target" ] || return 1
	done
}

if decode simf_cr3 cr3_filter_excludes_other_process; then
	n=$(grep -c . "$d/insns.txt" 2> /dev/null)
	seen=$(pids_seen) thr=$(threads_seen) ev=$(events)
	detail="target $target other $other: ${n:-0} insns, exit $st, timeline pids: $seen, threads: $thr; $ev"
	if [ "${n:-0}" -gt 0 ] && [ "$st" = 0 ] && only_target "$seen" && only_target "$thr" &&
		! grep <<<"$ev" -q paging; then
		echo "cr3_filter_excludes_other_process PASS $detail"
	else
		echo "cr3_filter_excludes_other_process FAIL $detail"
	fi
fi

if decode simf_addr addr_filter_in_range_and_tracestop; then
	# 64-bit addresses exceed awk's doubles: compare fixed-width hex text.
	out=$(awk -v lo="$LEAF_LO" -v hi="$LEAF_HI" '
		{ a = tolower($1); sub(/^0x/, "", a); while (length(a) < 16) a = "0" a
		  L = lo; H = hi; while (length(L) < 16) L = "0" L; while (length(H) < 16) H = "0" H
		  n++; if (a < L || a > H) { bad++; if (!first) first = $1 } }
		END { printf "%d %d %s", n, bad, first }' "$d/insns.txt" 2> /dev/null)
	set -- $out
	n=${1:-0} bad=${2:-0} first=${3:-}
	ev=$(events)
	stopmsg=$(grep -c 'TraceStop address range was reached' "$d/decode.out")
	fullmsg=$(grep -c 'the buffer filled' "$d/decode.out")
	detail="${n} insns, ${bad} outside ${LEAF_LO}..${LEAF_HI}${first:+ (first $first)}, exit $st; TraceStop messages $stopmsg, buffer-filled messages $fullmsg; $ev"
	if [ "$n" -gt 0 ] && [ "$bad" = 0 ] && [ "$stopmsg" -ge 1 ] && [ "$fullmsg" = 0 ] &&
		grep <<<"$ev" -q 'stop [1-9]'; then
		echo "addr_filter_in_range_and_tracestop PASS $detail"
	else
		echo "addr_filter_in_range_and_tracestop FAIL $detail"
	fi
fi

if decode simf_ovf overflow_is_a_decoder_gap; then
	n=$(grep -c . "$d/insns.txt" 2> /dev/null)
	ev=$(events) thr=$(threads_seen)
	gap=$(grep -m1 -i 'overflow (OVF)' "$d/decode.out" | sed 's/^ *//')
	detail="target $target: ${n:-0} insns, exit $st, threads: $thr; $ev; gap: ${gap:-none}"
	if [ "${n:-0}" -gt 0 ] && grep <<<"$ev" -q 'overflow [1-9]' && [ -n "$gap" ] &&
		only_target "$thr"; then
		echo "overflow_is_a_decoder_gap PASS $detail"
	else
		echo "overflow_is_a_decoder_gap FAIL $detail"
	fi
fi
exit 0
