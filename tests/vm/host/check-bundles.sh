#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-bundles.sh DECODER BUNDLE_DIR SIM_DOC TIMELINE_SKIP_REASON
#
# Decodes every bundle the guest sent back (BUNDLE_DIR/<name>/<name>.ptscope,
# <name> = cli_capture_<scope>_<trigger> or cli_run_<scope>_<trigger>;
# simf_* are check-sim-filter.sh's) with `DECODER decode` and prints
# "name verdict detail" lines for run.sh:
#
#  bundle_decodes               every bundle decodes to at least one
#                               instruction with exit 0; exit 3 (gaps or
#                               a damaged input) only when the capture
#                               says it lost something (manifest
#                               "complete": false, or sideband records
#                               lost): a clean capture must decode
#                               cleanly. 1 (error) or 2 (bad usage) is a
#                               FAIL
#  bundle_sideband_merged       each bundle's sideband.bin is one stream
#                               in TSC order (the module hands out each
#                               CPU's ring in turn; ptscope merges them;
#                               sb-order.py), and in one bundle at least
#                               two CPUs' records overlap in time: else a
#                               file of one ring after another would pass
#                               as well, and the check proves nothing
#  bundle_timeline_matches_sim  the decoded instruction addresses are the
#                               simulated unit's code images walked in their
#                               only possible order.
#  syscall_label_from_sideband  cli_run_user_syscalls (ptscope run --syscalls
#                               -- sysprog 5): the timeline has a slice
#                               "[syscall write → 4096]" on sysprog's pid,
#                               and the summary counts records naming a
#                               stretch. The write and its return value are
#                               the kernel's real sys_enter/sys_exit
#                               records; the stretch they name is a
#                               simulated round (sysprog makes its writes
#                               from the image's syscall address so that
#                               the IPs agree: tests/vm/guest/sysprog.c).
#  syscall_args_from_sideband   cli_run_both_syscalls (the same in combined
#                               scope): on sysprog's pid, at least one
#                               kernel entry slice pts_sim_kernel_entry
#                               carries {syscall=write nr=1 ret=4096} in
#                               the .txt (the record's arguments; the
#                               slice is not renamed), no slice is a
#                               user-scope label "[syscall ...]", and the
#                               summary counts the records.
#
# The expected order is derived by hand from the 40-byte code images
# (listing in docs/simulated-unit.md, "The code images"; bytes in
# kmod/pure/sim_code.c), not from any decoder output. Offsets (user image at 0x7f5100000000, kernel
# image at pts_sim_kernel_entry from the bundle's kallsyms):
#   00 endbr64, 04 mov $3,%ecx, 09 call leaf, 0e dec %ecx, 10 jnz 09,
#   12 lea exit,%rax, 19 jmp *%rax, 1c leaf: inc %edx, 1e ret,
#   20 exit: endbr64, 24 syscall (user) / sysretq (kernel),
#   26 jmp 00 (user only: where sysret returns)
# so each instruction has exactly these successors:
#   00->04 04->09 09->1c 1c->1e 1e->0e 0e->10 10->09|12 12->19 19->20
#   20->24, user 24 -> kernel 00 (combined scope) or a trace gap (user
#   only), kernel 24 -> user 26 (combined) or a gap (kernel only),
#   user 26->00.
# The loop runs 3 times per pass: "10->09" twice for each "10->12".
# Each CPU's trace is decoded and walked on its own, with no tolerance:
# the bundle's merged list switches CPU where the time merge pulls the
# next event of a CPU, often mid-round, and how often depends on how the
# CPUs' ticks interleave, which moves with the host's load
# (docs/testing-vm.md, "The timeline check, one CPU at a time"). The
# merged list must hold exactly the CPUs' instructions.
set -u
DECODER=$1 BDIR=$2 SIM_DOC=$3 TL_SKIP=${4:-}
USER_BASE=7f5100000000

# walk SCOPE KERNEL_BASE LIST: one CPU's instruction addresses against
# the images' only possible order. Every succession must be one the code
# has (a trace gap only where the scope has one by design), and every pass
# through an image seen from its entry (offset 00) to its loop's exit
# (10->12) must take the loop's branch back exactly twice: no tolerance,
# a CPU's list is the model's walk whatever the guest's timing. Prints
# the counts, then PASS or FAIL (an empty list passes: see the caller).
walk() {
	awk -v ub="$USER_BASE" -v kb="$2" -v scope="$1" '
	# 64-bit addresses exceed a double: compare the upper 8 hex digits as
	# text and subtract the lower 8 (exact) ones.
	function norm(a) {
		a = tolower(a); sub(/^0x/, "", a)
		while (length(a) < 16) a = "0" a
		return a
	}
	function lo(a,   i, v) {
		v = 0
		for (i = 9; i <= 16; i++) v = v * 16 + index("0123456789abcdef", substr(a, i, 1)) - 1
		return v
	}
	function off(a, base) {
		if (substr(a, 1, 8) != substr(base, 1, 8)) return -1
		return lo(a) - lo(base)
	}
	function cls(a,   o) {
		a = norm(a)
		o = off(a, ub)
		if (o >= 0 && o < 40) return sprintf("U%02x", o)
		if (kb != "") { o = off(a, kb); if (o >= 0 && o < 40) return sprintf("K%02x", o) }
		return "X"
	}
	BEGIN {
		ub = norm(ub); if (kb != "") kb = norm(kb)
		split("00:04 04:09 09:1c 1c:1e 1e:0e 0e:10 10:09 10:12 12:19 19:20 20:24", e, " ")
		for (i in e) { split(e[i], p, ":"); ok["U" p[1] "U" p[2]] = 1; ok["K" p[1] "K" p[2]] = 1 }
		ok["U26U00"] = 1
		if (scope == "both") { ok["U24K00"] = 1; ok["K24U26"] = 1 }
		# Trace gaps a scope has by design: PGD at the far branch, PGE at
		# the next entry into the scope.
		if (scope == "user") ok["U24U26"] = 1
		if (scope == "kernel") ok["K24K00"] = 1
	}
	{ c = cls($1); r = substr(c, 1, 1); total++ }
	c == "X" { other++; if (!first_other) first_other = $1; prev = ""; delete open_; next }
	r == "U" && scope == "kernel" { wrongring++ }
	r == "K" && scope == "user" { wrongring++ }
	prev != "" { if (ok[prev c]) good++; else { bad++; if (!first_bad) first_bad = prev "->" c " at line " NR } }
	c == r "00" { open_[r] = 1; backs[r] = 0 }
	prev == r "10" && c == r "09" { back++; backs[r]++ }
	prev == r "10" && c == r "12" {
		out++
		if (open_[r]) {
			passes++
			if (backs[r] != 2) { badpass++; if (!first_badpass) first_badpass = backs[r] + 1 " iterations at line " NR }
		}
		open_[r] = 0
	}
	{ prev = c }
	END {
		printf "insns=%d other=%d wrong_ring=%d pairs_ok=%d pairs_bad=%d passes=%d passes_bad=%d loop_back=%d loop_exit=%d",
			total, other, wrongring, good, bad, passes, badpass, back, out
		if (first_other) printf " first_other=%s", first_other
		if (first_bad) printf " first_bad=%s", first_bad
		if (first_badpass) printf " first_bad_pass=%s", first_badpass
		# A CPU the traced process never ran on has an empty list; the
		# bundle as a whole needs a whole pass (the caller counts them).
		pass = other == 0 && wrongring == 0 && bad == 0 && badpass == 0
		printf " %s\n", pass ? "PASS" : "FAIL"
	}' "$3"
}

dec_ok=1 dec_detail= tl_ok=1 tl_detail= n=0
for d in "$BDIR"/*/; do
	name=$(basename "$d")
	# The filtering scenarios' bundles: check-sim-filter.sh.
	case $name in simf_*) continue ;; esac
	b=$d/$name.ptscope
	[ -d "$b" ] || { dec_ok=0; dec_detail="$dec_detail $name:no-bundle-dir"; continue; }
	n=$((n + 1))
	"$DECODER" decode "$b" -o "$d/timeline.txt" --summary --insn-list "$d/insns.txt" \
		> "$d/decode.out" 2>&1
	st=$?
	lossy=0
	sb_lost=$(sed -n '/"sideband"/,/}/s/.*"lost": *\([0-9]*\).*/\1/p' "$b/manifest.json" |
		head -n 1)
	if grep -q '"complete": *false' "$b/manifest.json" || [ "${sb_lost:-0}" != 0 ]; then
		lossy=1
	fi
	ninsn=$(grep -c . "$d/insns.txt" 2>/dev/null)
	if [ $st -ne 0 ] && { [ $st -ne 3 ] || [ $lossy = 0 ]; }; then
		dec_ok=0
		dec_detail="$dec_detail $name:exit$st($( { grep -m1 -A1 '^gaps:' "$d/decode.out" |
			tail -n 1; grep -m1 '^warning' "$d/decode.out"; } | head -c 300 | tr '\n' ' '))"
		# Exit 3 (damaged) still lists what decoded: walked below, so that
		# the timeline check says what the walk finds there too.
		if [ $st -ne 3 ]; then
			[ -n "$TL_SKIP" ] || tl_ok=0 tl_detail="$tl_detail $name:not-decoded(exit$st)"
			continue
		fi
	else
		dec_detail="$dec_detail $name:exit$st,${ninsn:-0}-insns"
	fi
	if [ "${ninsn:-0}" -eq 0 ]; then
		# A decode that recovers no instruction has not decoded anything.
		dec_ok=0
		dec_detail="$dec_detail($(grep -m1 -A1 '^gaps:' "$d/decode.out" | tail -n 1 | sed 's/^ *//'))"
	fi
	[ -n "$TL_SKIP" ] && continue

	scope=${name#cli_*_}
	scope=${scope%%_*}
	kbase=
	if [ "$scope" != user ]; then
		kbase=$(awk '$3 == "pts_sim_kernel_entry" { print $1; exit }' "$b/kernel/kallsyms" 2>/dev/null)
		if [ -z "$kbase" ]; then
			tl_ok=0
			tl_detail="$tl_detail $name:no-pts_sim_kernel_entry-in-kernel/kallsyms"
			continue
		fi
	fi
	# Each CPU's trace decoded on its own (bundle-cpus.py says why), its
	# list walked (walk below); the merged list must hold them all.
	cdir=$d/per-cpu
	rm -rf "$cdir"
	cpus=$(python3 "$(dirname "$0")/bundle-cpus.py" "$b" "$cdir") || cpus=
	if [ -z "$cpus" ]; then
		tl_ok=0
		tl_detail="$tl_detail $name:no-cpu-with-a-trace-in-the-manifest"
		continue
	fi
	sum=0 one= bad_here=0 npass=0
	while read -r cpu cb; do
		l=$cdir/insns-cpu$cpu.txt
		"$DECODER" decode "$cb" --format null --insn-list "$l" > "$cdir/decode-cpu$cpu.out" 2>&1
		st=$?
		if [ $st -ne 0 ] && [ $st -ne 3 ]; then
			bad_here=1
			one="$one cpu$cpu:decode-failed($(head -c 200 "$cdir/decode-cpu$cpu.out" | tr '\n' ' '))"
			continue
		fi
		verdict=$(walk "$scope" "$kbase" "$l")
		sum=$((sum + $(grep -c . "$l")))
		p=${verdict#* passes=}
		npass=$((npass + ${p%% *}))
		case $verdict in
		*PASS) one="$one cpu$cpu:${verdict% PASS}" ;;
		*) bad_here=1; one="$one cpu$cpu:MISMATCH(${verdict% FAIL})" ;;
		esac
	done <<< "$cpus"
	if [ "$npass" = 0 ]; then
		bad_here=1
		one="$one no-CPU-has-a-whole-pass-through-an-image"
	fi
	if [ "$sum" != "${ninsn:-0}" ]; then
		bad_here=1
		one="$one merged=${ninsn:-0}-insns-but-the-CPUs-have-$sum"
	else
		one="$one merged=$sum"
	fi
	if [ $bad_here = 0 ]; then
		tl_detail="$tl_detail $name:{${one# }}"
	else
		tl_ok=0
		tl_detail="$tl_detail $name:MISMATCH{${one# }}"
	fi
done
# The capture made in a new pid namespace: the sideband names its command
# by the pid the bundle lists (docs/abi.md, "Pids"); every thread with code
# in the summary ("  PID/TID name: ... N calls ...") is that pid.
pd=$BDIR/cli_run_user_pidns
if [ -f "$pd/decode.out" ]; then
	want=$(sed -n '/"processes"/,$ s/.*"pid": *\([0-9-]*\).*/\1/p' \
		"$pd/cli_run_user_pidns.ptscope/manifest.json" |
		head -n 1)
	threads=$(sed -n 's|^  \(-\{0,1\}[0-9]*\)/\(-\{0,1\}[0-9]*\).* \([0-9]*\) calls\{0,1\},.*|\1/\2:\3|p' \
		"$pd/decode.out" | tr '\n' ' ')
	own=0 other=
	for t in $threads; do
		p=${t%%/*} c=${t##*:}
		[ "$c" = 0 ] && continue
		if [ "$p" = "$want" ]; then own=$((own + 1)); else other="$other $t"; fi
	done
	if [ -n "$want" ] && [ $own -ge 1 ] && [ -z "$other" ]; then
		echo "bundle_pids_of_the_namespace PASS processes[] pid $want; threads with calls: $threads"
	else
		echo "bundle_pids_of_the_namespace FAIL processes[] pid ${want:-none}; threads (pid/tid:calls): ${threads:-none}${other:+; other pids:$other}"
	fi
else
	echo "bundle_pids_of_the_namespace SKIP no decoded cli_run_user_pidns bundle"
fi
if [ $n -eq 0 ]; then
	echo "bundle_decodes FAIL no bundle directory under $BDIR"
	echo "bundle_timeline_matches_sim SKIP no bundle"
	echo "syscall_label_from_sideband SKIP no bundle"
	echo "syscall_args_from_sideband SKIP no bundle"
	exit 0
fi
echo "bundle_decodes $([ $dec_ok = 1 ] && echo PASS || echo FAIL)$dec_detail"
# The sideband files: one stream in TSC order (docs/bundle-format.md 3.8).
sb_ok=1 sb_detail= sb_n=0 sb_inter=0
for d in "$BDIR"/*/; do
	name=$(basename "$d")
	f=$d/$name.ptscope/sideband.bin
	[ -f "$f" ] || continue
	sb_n=$((sb_n + 1))
	r=$(python3 "$(dirname "$0")/sb-order.py" "$f" 2>&1) || sb_ok=0
	case $r in *-interleaved) sb_inter=1 ;; esac
	sb_detail="$sb_detail $name:$r"
done
if [ $sb_n = 0 ]; then
	echo "bundle_sideband_merged SKIP no sideband file in any bundle"
else
	[ $sb_inter = 1 ] ||
		sb_detail="$sb_detail (no bundle whose CPUs' records overlap in time: not merged)"
	echo "bundle_sideband_merged $([ $sb_ok$sb_inter = 11 ] && echo PASS || echo FAIL)$sb_detail"
fi
if [ -n "$TL_SKIP" ]; then
	echo "bundle_timeline_matches_sim SKIP $TL_SKIP"
else
	echo "bundle_timeline_matches_sim $([ $tl_ok = 1 ] && echo PASS || echo FAIL)$tl_detail"
fi
# Syscall labels from the kernel's records (docs/decode.md).
d=$BDIR/cli_run_user_syscalls
if [ ! -f "$d/timeline.txt" ]; then
	echo "syscall_label_from_sideband FAIL no decoded cli_run_user_syscalls bundle (see that scenario's line)"
else
	pid=$(sed -n 's/.*"filter_pid": *\([0-9]*\).*/\1/p' "$d/cli_run_user_syscalls.ptscope/manifest.json" |
		head -n 1)
	nl=$(awk -v p="$pid" '$3 ~ "^" p "/" && /> \[syscall write → 4096\]/' "$d/timeline.txt" | wc -l)
	plain=$(grep -c '> \[syscall\]' "$d/timeline.txt")
	sum=$(grep -m1 '^syscall and page-fault records:' "$d/decode.out")
	if [ -n "$pid" ] && [ "$nl" -ge 1 ] && [ -n "$sum" ]; then
		echo "syscall_label_from_sideband PASS pid $pid: $nl slice(s) [syscall write → 4096], $plain plain [syscall]; $sum"
	else
		echo "syscall_label_from_sideband FAIL pid '$pid': $nl labelled write slice(s), $plain plain; summary: '${sum:-none}'"
	fi
fi
# The same records as a kernel entry slice's arguments (combined scope).
d=$BDIR/cli_run_both_syscalls
if [ ! -f "$d/timeline.txt" ]; then
	echo "syscall_args_from_sideband FAIL no decoded cli_run_both_syscalls bundle (see that scenario's line)"
else
	pid=$(sed -n 's/.*"filter_pid": *\([0-9]*\).*/\1/p' "$d/cli_run_both_syscalls.ptscope/manifest.json" |
		head -n 1)
	na=$(awk -v p="$pid" '$3 ~ "^" p "/" && /> pts_sim_kernel_entry .*\{syscall=write nr=1 ret=4096\}$/' \
		"$d/timeline.txt" | wc -l)
	ne=$(awk -v p="$pid" '$3 ~ "^" p "/" && /> pts_sim_kernel_entry /' "$d/timeline.txt" | wc -l)
	nl=$(grep -c '> \[syscall [a-z0-9]' "$d/timeline.txt")
	sum=$(grep -m1 '^syscall and page-fault records:' "$d/decode.out")
	if [ -n "$pid" ] && [ "$na" -ge 1 ] && [ "$nl" = 0 ] && [ -n "$sum" ]; then
		echo "syscall_args_from_sideband PASS pid $pid: $na of $ne pts_sim_kernel_entry slice(s) with {syscall=write nr=1 ret=4096}; $sum"
	else
		echo "syscall_args_from_sideband FAIL pid '$pid': $na of $ne entry slice(s) with the write's arguments, $nl [syscall...] label(s); summary: '${sum:-none}'"
	fi
fi
