#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench, part 3: parallel decode side by side, in one run
# (docs/performance.md, "Parallel decode"). For each trace and repetition,
# back to back: the floor (bench-floor: libipt's bare block loop, one
# thread), ptscope decode -j 1, ptscope decode -j (the online CPUs), and
# perf script --itrace=cr on a perf.data of the same bytes (made with
# ../shared/tools/mkperfdata.py; said when it is absent). Outputs go to
# /dev/null (fxt for ptscope, text for perf). Traces: generated streams
# (bench-gen) of BENCH_PAR_MB megabytes each, and 4 CPUs of different
# lengths (8, 6, 4 and 2 MB, one decode merging them; the floor decodes
# them one after the other). On 2 CPUs also two -j 1 decodes at once
# (ptscope-j1x2): what the machine gives two independent decodes, against
# which -j 2 vs -j 1 is read. Within a repetition the order of these four
# rotates; perf runs last.
#
# Environment: BENCH_PAR_MB (default "10 100"), BENCH_PAR_MULTI (the MB of
# each CPU of the multi-CPU trace, default "8 6 4 2"), BENCH_REPS (default 3; the
# largest trace runs once when BENCH_PAR_LARGE_ONCE=1, the default),
# BENCH_PAR_PERF_MAX_MB (perf only on traces up to this size, default 100),
# PTS_SHARED (default ../shared), BENCH_PAR_RESULTS (default
# $B/bench/parallel.md), B (default build).
#
# Each row also records, over that run, the machine's steal time (the
# "steal" column of /proc/stat: time the hypervisor ran something else
# while this VM's vCPUs wanted to run) and the busy time of everything but
# the measured command, both as shares of the machine's time, and the
# 1-minute load average at its start: the same code gains less from a
# second vCPU in an hour when the host or another job takes it away, and
# these tell such an hour from a change of the code (docs/performance.md,
# "What the machine gave a run"). At the start and the end, bench-pingpong
# times a cache line's round trip between CPUs 0 and 1.
set -euo pipefail

B=${B:-build}
MBS=${BENCH_PAR_MB:-10 100}
REPS=${BENCH_REPS:-3}
LARGE_ONCE=${BENCH_PAR_LARGE_ONCE:-1}
PERF_MAX=${BENCH_PAR_PERF_MAX_MB:-100}
SHARED=${PTS_SHARED:-../shared}
RESULTS=${BENCH_PAR_RESULTS:-$B/bench/parallel.md}
PTSCOPE=$B/ptscope
FLOOR=$B/bench-floor
GEN=$B/bench-gen
BTIME=$B/bench-time
WORKLOAD=$B/bench-workload
NCPU=$(nproc)
TIMING=(--cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000)
for p in "$PTSCOPE" "$FLOOR" "$GEN" "$BTIME" "$WORKLOAD"; do
	[ -x "$p" ] || { echo "bench: $p missing: run 'make bench'" >&2; exit 1; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptscope-parbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$(dirname "$RESULTS")"
RAW=$TMP/raw.tsv	# trace tool rep wall cpu rss_kib bytes caller_cpu (parallel runs; else -) steal_pct others_pct load1
: > "$RAW"

MKPD=$SHARED/tools/mkperfdata.py
perf_note=""
if [ ! -f "$MKPD" ]; then
	perf_note="no $MKPD here: perf not measured"
elif ! command -v perf > /dev/null; then
	perf_note="perf not installed: perf not measured"
fi
# the workload's code: its executable PT_LOAD's first address (perf reads that file)
text=$(readelf -lW "$WORKLOAD" | awk '$1 == "LOAD" { f = ""; for (i = 7; i < NF; i++) f = f $i; if (f ~ /E/) { print $3; exit } }')

kv() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$2" | head -n 1; }

# the machine's CPU time in clock ticks, all CPUs: "TOTAL STEAL IDLE"
# (/proc/stat's first line: user nice system idle iowait irq softirq steal;
# guest time is inside user already; idle counts iowait too)
ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $9, $5 + $6; exit }' /proc/stat; }
HZ=$(getconf CLK_TCK)
load1() { cut -d' ' -f1 /proc/loadavg; }
# machine BEFORE AFTER [CPU_S]: between two ticks readings, the steal time
# and the busy time of everything but the measured run (CPU_S seconds of
# it) in % of the machine's time: "STEAL<tab>OTHERS"
machine() {
	awk -v a="$1" -v b="$2" -v c="${3:-0}" -v hz="$HZ" 'BEGIN {
		split(a, x, " "); split(b, y, " "); t = y[1] - x[1]
		if (t <= 0) { printf "0.00\t0.00"; exit }
		o = (t - (y[3] - x[3]) - (y[2] - x[2]) - c * hz) / t
		printf "%.2f\t%.2f", 100 * (y[2] - x[2]) / t, (o > 0 ? 100 * o : 0) }'
}
# a cache line's round trip between the first two CPUs (bench-pingpong), at
# the start and the end: what -j2's events pay to cross, this hour
PINGPONG=$B/bench-pingpong
pingpong() { [ "$NCPU" -lt 2 ] || [ ! -x "$PINGPONG" ] || "$PINGPONG" | sed 's/^pingpong_ns //'; }
PING0=$(pingpong)
T0=$(ticks)
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)

# one NAME TOOL REP BYTES -- CMD...: a timed run, its row added (wall cpu rss)
one() {
	local name=$1 tool=$2 rep=$3 bytes=$4 st
	shift 5
	local l=$(load1) t0=$(ticks)
	set +e
	PTS_PARDEC_STATS=1 "$BTIME" -o "$TMP/t" -- "$@" > /dev/null 2> "$TMP/err"
	st=$?
	set -e
	local t1=$(ticks)
	if [ "$st" != 0 ] && [ "$st" != 3 ]; then
		echo "bench: $tool on $name failed (exit $st):" >&2
		cat "$TMP/err" >&2
		exit 1
	fi
	# the calling thread's CPU time of a parallel decode (pardec.c, PTS_PARDEC_STATS)
	caller=$(sed -n 's/^pardec: CPU s: calling thread \([0-9.]*\),.*/\1/p' "$TMP/err" | head -n 1)
	local cpu=$(awk -v u="$(kv user "$TMP/t")" -v s="$(kv sys "$TMP/t")" 'BEGIN { printf "%.3f", u + s }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tool" "$rep" "$(kv wall "$TMP/t")" \
		"$cpu" "$(kv maxrss_kib "$TMP/t")" "$bytes" "${caller:--}" "$(machine "$t0" "$t1" "$cpu")" "$l" >> "$RAW"
	tail -n 1 "$RAW" | awk -F'\t' '{ printf "  %-10s %-12s rep %s: wall %7ss cpu %7ss rss %7s KiB steal %5s%% others %5s%% load %s\n", $1, $2, $3, $4, $5, $6, $9, $10, $11 }' >&2
}

# two NAME REP BYTES -- CMD...: two copies of CMD at once (one per core of a
# 2-CPU machine), counted per copy: wall and CPU halved. Its "wall vs -j1"
# is the most -jN can gain over -j1 on these cores when nothing is shared
# but the machine (caches, memory, the host's other guests).
two() {
	local name=$1 rep=$2 bytes=$3
	shift 4
	local l=$(load1) t0=$(ticks) t1
	"$BTIME" -o "$TMP/t" -- bash -c '"$@" > /dev/null & "$@" > /dev/null; wait' two "$@" > /dev/null
	t1=$(ticks)
	local cpu=$(awk -v u="$(kv user "$TMP/t")" -v s="$(kv sys "$TMP/t")" 'BEGIN { printf "%.3f", u + s }')
	printf '%s\tptscope-j1x2\t%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\n' "$name" "$rep" \
		"$(awk -v w="$(kv wall "$TMP/t")" 'BEGIN { printf "%.3f", w / 2 }')" \
		"$(awk -v c="$cpu" 'BEGIN { printf "%.3f", c / 2 }')" \
		"$(kv maxrss_kib "$TMP/t")" "$bytes" "$(machine "$t0" "$t1" "$cpu")" "$l" >> "$RAW"
}

# several floor runs (one per CPU file) counted as one row
floor_sum() {
	local name=$1 rep=$2 bytes=$3 f w=0 c=0 r=0 l=$(load1) t0=$(ticks)
	shift 3
	for f in "$@"; do
		"$BTIME" -o "$TMP/t" -- "$FLOOR" --pt "$f" --elf "$WORKLOAD" > /dev/null
		w=$(awk -v a="$w" -v b="$(kv wall "$TMP/t")" 'BEGIN { print a + b }')
		c=$(awk -v a="$c" -v u="$(kv user "$TMP/t")" -v s="$(kv sys "$TMP/t")" 'BEGIN { print a + u + s }')
		r=$(awk -v a="$r" -v b="$(kv maxrss_kib "$TMP/t")" 'BEGIN { print (b > a ? b : a) }')
	done
	printf '%s\tfloor\t%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\n' "$name" "$rep" "$w" "$c" "$r" "$bytes" \
		"$(machine "$t0" "$(ticks)" "$c")" "$l" >> "$RAW"
}

# trace NAME MB-LIST: generate one stream per MB value (CPU 0, 1, ...), measure
trace() {
	local name=$1 mbs=$2 i=0 mb bytes=0 reps=$REPS rep k perf_args=() pt_args=() files=()
	for mb in $mbs; do
		"$GEN" --elf "$WORKLOAD" --size $((mb * 1000000)) --seed $((i + 1)) -o "$TMP/$name.$i.pt" > /dev/null
		files+=("$TMP/$name.$i.pt")
		pt_args+=(--pt "$TMP/$name.$i.pt" --cpu "$i")
		perf_args+=(--pt "$TMP/$name.$i.pt" --cpu "$i")
		bytes=$((bytes + $(stat -c %s "$TMP/$name.$i.pt")))
		i=$((i + 1))
	done
	local total=$((bytes / 1000000)) have_perf=""
	if [ -z "$perf_note" ] && [ "$total" -le "$PERF_MAX" ]; then
		python3 "$MKPD" -o "$TMP/$name.perf.data" "${perf_args[@]}" \
			--image "$WORKLOAD:$text" --pid 1000 --comm workload --cpu-model 6/85/4 \
			--mtc-freq 3 --nom-freq 21 --tsc-ctc 168/2 > /dev/null
		have_perf=1
	fi
	[ "$LARGE_ONCE" = 1 ] && [ "$total" -ge 50 ] && reps=1
	echo "$name: $bytes bytes in $i stream(s) ($mbs MB), $reps repetition(s)" >&2
	for rep in $(seq 1 "$reps"); do
		# the order rotates with the repetition, so that a change of the
		# machine's speed within a repetition favours no tool (ab.sh does so too)
		for k in 0 1 2 3; do
			case $(((k + rep - 1) % 4)) in
			0) floor_sum "$name" "$rep" "$bytes" "${files[@]}" ;;
			1) one "$name" ptscope-j1 "$rep" "$bytes" -- "$PTSCOPE" decode "${pt_args[@]}" \
				--elf "$WORKLOAD" "${TIMING[@]}" -j 1 --format fxt -o /dev/null ;;
			2) one "$name" "ptscope-j$NCPU" "$rep" "$bytes" -- "$PTSCOPE" decode "${pt_args[@]}" \
				--elf "$WORKLOAD" "${TIMING[@]}" -j "$NCPU" --format fxt -o /dev/null ;;
			3) [ "$NCPU" != 2 ] ||
				two "$name" "$rep" "$bytes" -- "$PTSCOPE" decode "${pt_args[@]}" \
					--elf "$WORKLOAD" "${TIMING[@]}" -j 1 --format fxt -o /dev/null ;;
			esac
		done
		[ -z "$have_perf" ] ||
			one "$name" perf-cr "$rep" "$bytes" -- perf script -i "$TMP/$name.perf.data" \
				--itrace=cr -F +flags
	done
	rm -f "${files[@]}" "$TMP/$name.perf.data"
}

for mb in $MBS; do
	trace "gen-${mb}MB" "$mb"
done
MULTI=${BENCH_PAR_MULTI:-8 6 4 2}
trace "$(echo $MULTI | wc -w)cpu-$(echo $MULTI | tr ' ' '\n' | awk '{s += $1} END {print s}')MB" "$MULTI"

MED='function med(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	lo = a[1]; hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'
{
	echo "# Parallel decode side by side"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "- machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $NCPU CPUs;" \
	     "load average at the start: $LOAD0, at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	whole=$(machine "$T0" "$(ticks)")
	ping1=$(pingpong)
	echo "- the machine's time over the whole run (/proc/stat, $NCPU CPUs): steal" \
	     "$(echo "$whole" | cut -f1) %, busy $(echo "$whole" | cut -f2) % (this benchmark included)."
	echo "  Per row, over each of its runs (median, min–max): \"steal %\", the time the hypervisor"
	echo "  gave to other guests while this one's CPUs wanted to run, and \"others %\", the busy"
	echo "  time of everything but the run measured, each in % of the machine's time; \"load\","
	echo "  the 1-minute load average at the runs' starts (median). Wall-time ratios are"
	echo "  comparable between runs only where these are near 0 and alike."
	[ -z "$PING0" ] ||
		echo "- a cache line's round trip between CPUs 0 and 1 (bench-pingpong, ns a round trip," \
		     "batches of 2,000): at the start $PING0; at the end $ping1."
	[ -z "$perf_note" ] || echo "- $perf_note"
	echo "- ptscope writes fxt to /dev/null; perf script --itrace=cr -F +flags its text to /dev/null."
	echo "  Medians (min–max) over the repetitions; ratios are paired: the two runs of one"
	echo "  repetition, back to back, then the median over the repetitions."
	echo "- CPU ratios (user + sys of the process) are the ones that hold on a shared machine;"
	echo "  wall ratios only when the machine is idle. For -j$NCPU, \"calling\" is the calling"
	echo "  thread's CPU time (merge, timeline, writer), and \"bound\" the wall time the run"
	echo "  would need on $NCPU idle cores by its CPU split, max(calling, CPU / $NCPU), as"
	echo "  ×floor (floor CPU / bound) and vs -j1 (-j1 CPU / bound), paired."
	[ "$NCPU" != 2 ] ||
		echo "- ptscope-j1x2: two ptscope -j 1 decodes of the trace at once, wall and CPU per decode:" \
		     "its \"wall vs -j1\" is what two cores give two independent decodes, the ceiling of -j$NCPU vs -j1 here."
	echo
	echo "| trace | MB | tool | wall s | CPU s | peak RSS MiB | wall ×floor | wall vs -j1 | perf wall / wall | CPU ×floor | CPU vs -j1 | calling s | bound ×floor | bound vs -j1 | steal % | others % | load |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk -F'\t' -v NCPU="$NCPU" "$MED"'
	{
		k = $1 SUBSEP $2
		if (!(k in wall)) { order[++n] = k; tr[k] = $1; tl[k] = $2; by[k] = $7 }
		wall[k] = wall[k] " " $4; cpu[k] = cpu[k] " " $5; rss[k] = rss[k] " " $6 / 1024
		w[$1 SUBSEP $2 SUBSEP $3] = $4; reps[k] = reps[k] " " $3
		cp[$1 SUBSEP $2 SUBSEP $3] = $5
		if ($9 != "") { stl[k] = stl[k] " " $9; oth[k] = oth[k] " " $10; ld[k] = ld[k] " " $11 }
		if ($8 != "-" && $8 != "") {
			b = $5 / NCPU; if ($8 > b) b = $8
			bd[$1 SUBSEP $2 SUBSEP $3] = b; call[k] = call[k] " " $8
		}
	}
	# median over the repetitions of: the other tool CPU in that repetition / this bound
	function pbound(k, other,   m, rr, j, r, s, a) {
		s = ""; m = split(reps[k], rr, " ")
		for (j = 1; j <= m; j++) {
			r = rr[j]
			if (!((tr[k] SUBSEP other SUBSEP r) in cp) || !((tr[k] SUBSEP tl[k] SUBSEP r) in bd))
				continue
			a = bd[tr[k] SUBSEP tl[k] SUBSEP r]
			if (a > 0) s = s " " cp[tr[k] SUBSEP other SUBSEP r] / a
		}
		return s == "" ? "–" : sprintf("%.2f (%.2f–%.2f)", med(s), lo, hi)
	}
	function pcpu(k, other,   m, rr, j, r, s, a, b) {
		s = ""; m = split(reps[k], rr, " ")
		for (j = 1; j <= m; j++) {
			r = rr[j]
			if (!((tr[k] SUBSEP other SUBSEP r) in cp)) continue
			a = cp[tr[k] SUBSEP other SUBSEP r]; b = cp[tr[k] SUBSEP tl[k] SUBSEP r]
			if (a > 0 && b > 0) s = s " " a / b
		}
		return s == "" ? "–" : sprintf("%.2f (%.2f–%.2f)", med(s), lo, hi)
	}
	function paired(k, other, inv,   m, rr, j, r, s, a, b) {
		s = ""; m = split(reps[k], rr, " ")
		for (j = 1; j <= m; j++) {
			r = rr[j]
			if (!((tr[k] SUBSEP other SUBSEP r) in w)) continue
			a = w[tr[k] SUBSEP other SUBSEP r]; b = w[tr[k] SUBSEP tl[k] SUBSEP r]
			if (a <= 0 || b <= 0) continue
			s = s " " (inv ? a / b : a / b)
		}
		return s == "" ? "–" : sprintf("%.2f (%.2f–%.2f)", med(s), lo, hi)
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			a = med(wall[k]); al = lo; ah = hi
			c = med(cpu[k]); cl = lo; ch = hi
			r = med(rss[k]); rl = lo; rh = hi
			j1 = ""
			for (x in wall) { split(x, p, SUBSEP); if (p[1] == tr[k] && p[2] == "ptscope-j1") j1 = 1 }
			cs = call[k] == "" ? "–" : sprintf("%.2f", med(call[k]))
			st = stl[k] == "" ? "–" : sprintf("%.1f (%.1f–%.1f)", med(stl[k]), lo, hi)
			ot = oth[k] == "" ? "–" : sprintf("%.1f (%.1f–%.1f)", med(oth[k]), lo, hi)
			la = ld[k] == "" ? "–" : sprintf("%.2f", med(ld[k]))
			printf "| %s | %.1f | %s | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) | %.1f (%.1f–%.1f) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				tr[k], by[k] / 1e6, tl[k], a, al, ah, c, cl, ch, r, rl, rh,
				tl[k] == "floor" ? "1.00" : paired(k, "floor", 1),
				tl[k] ~ /^ptscope/ ? paired(k, "ptscope-j1", 1) : "–",
				tl[k] ~ /^ptscope-j[0-9]+$/ ? paired(k, "perf-cr", 1) : "–",
				tl[k] == "floor" ? "1.00" : pcpu(k, "floor"),
				tl[k] ~ /^ptscope/ ? pcpu(k, "ptscope-j1") : "–",
				cs,
				call[k] == "" ? "–" : pbound(k, "floor"),
				call[k] == "" ? "–" : pbound(k, "ptscope-j1"),
				st, ot, la
		}
	}' "$RAW"
	# -j2's CPU against a -j1 decode's when two run at once (the ceiling's
	# runs): both pay for sharing the machine, so this is -j2's own extra;
	# the ceiling divided by it is where -j2 would be with no idle time
	[ "$NCPU" != 2 ] || awk -F'\t' "$MED"'
	{ k = $1 SUBSEP $3; if ($2 == "ptscope-j2") a[k] = $5; if ($2 == "ptscope-j1x2") b[k] = $5
	  if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	END {
		if (n) { print ""; print "-j2 CPU / the CPU of one of two -j1 decodes at once (paired, median, min–max):" }
		for (i = 1; i <= n; i++) {
			s = ""
			for (k in a) { split(k, q, SUBSEP); if (q[1] == order[i] && (k in b) && b[k] > 0) s = s " " a[k] / b[k] }
			if (s != "") printf "- %s: %.3f (%.3f–%.3f)\n", order[i], med(s), lo, hi
		}
	}' "$RAW"
} > "$RESULTS"
cp "$RAW" "${RESULTS%.md}.tsv"
cat "$RESULTS"
