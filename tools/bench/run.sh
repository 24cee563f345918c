#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: decode throughput and peak memory of `ptscope decode`
# against the bare libipt block-decoder loop (the floor), over
#   - bundles that ptsynth (the reference encoder) writes for real programs,
#   - synthetic streams of increasing size (bench-gen: ptsynth's encoder
#     walking tools/bench/workload.S), 1x, 10x and 100x.
# All traces are synthetic (no PT hardware here): the figures are decoder
# costs, not capture results. docs/performance.md explains the table.
#
# Environment:
#   BENCH_MAX_MB     largest synthetic trace, MB (10^6 bytes); the others are
#                    1/10 and 1/100 of it (default 100)
#   BENCH_REPS       repetitions of every measurement (default 3, at least 1)
#   BENCH_PROGRAMS   real programs ptsynth runs, ';'-separated command lines
#                    (default "/bin/true;/bin/ls /"), "" for none
#   BENCH_SINK       null: writers write to /dev/null (default; measures the
#                    CPU cost, not the disk); file: to files in the temp dir,
#                    sizes reported, each removed after its run
#   BENCH_TMP        where traces go (default: a new directory under
#                    ${TMPDIR:-/tmp}, removed at the end)
#   BENCH_RESULTS    the Markdown report (default $B/bench/results.md)
#   B                build directory (default build)
set -euo pipefail

B=${B:-build}
MAX_MB=${BENCH_MAX_MB:-100}
REPS=${BENCH_REPS:-3}
PROGRAMS=${BENCH_PROGRAMS-/bin/true;/bin/ls /}
SINK=${BENCH_SINK:-null}
RESULTS=${BENCH_RESULTS:-$B/bench/results.md}

PTSCOPE=$B/ptscope
PTSYNTH=$B/ptsynth
FLOOR=$B/bench-floor
GEN=$B/bench-gen
BTIME=$B/bench-time
WORKLOAD=$B/bench-workload
for p in "$PTSCOPE" "$PTSYNTH" "$FLOOR" "$GEN" "$BTIME" "$WORKLOAD"; do
	[ -x "$p" ] || { echo "bench: $p missing: run 'make bench' (it builds them)" >&2; exit 1; }
done
case "$MAX_MB" in ''|*[!0-9]*) echo "bench: BENCH_MAX_MB must be a whole number of MB" >&2; exit 2;; esac
case "$REPS" in ''|*[!0-9]*|0) echo "bench: BENCH_REPS must be 1 or more" >&2; exit 2;; esac
case "$SINK" in null|file) ;; *) echo "bench: BENCH_SINK must be null or file" >&2; exit 2;; esac
[ "$MAX_MB" -ge 1 ] || { echo "bench: BENCH_MAX_MB must be at least 1" >&2; exit 2; }

if [ -n "${BENCH_TMP:-}" ]; then
	TMP=$BENCH_TMP
	mkdir -p "$TMP"
else
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptscope-bench.XXXXXX")
	trap 'rm -rf "$TMP"' EXIT
fi
mkdir -p "$(dirname "$RESULTS")"

# Disk check: the largest trace, plus its outputs when they go to files
# (fxt ~40x, json ~100x the trace on this workload).
need_mb=$((MAX_MB * 2 + 64))
[ "$SINK" = file ] && need_mb=$((MAX_MB * 150 + 64))
avail_mb=$(df -Pm "$TMP" | awk 'NR == 2 { print $4 }')
if [ "$avail_mb" -lt "$need_mb" ]; then
	echo "bench: $TMP has $avail_mb MB free, the run needs about $need_mb MB;" \
	     "lower BENCH_MAX_MB or set BENCH_TMP" >&2
	exit 1
fi

# The model CPU of ptsynth's encoder (tools/ptsynth/lib/ptsynth_cpu.h):
# the raw synthetic traces need its timing parameters.
TIMING=(--cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000)

RAW=$TMP/raw.tsv	# trace tool rep wall cpu maxrss_kib bytes insns outbytes
: > "$RAW"

kv() { # kv KEY FILE: value of KEY=... in a key=value line
	sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$2" | head -n 1
}

# measure TRACE-NAME TOOL REP BYTES INSNS -- CMD...: one timed run, one row
measure() {
	local name=$1 tool=$2 rep=$3 bytes=$4 insns=$5 out=$6
	shift 6
	local t=$TMP/time.txt st wall cpu rss ob=0
	set +e
	"$BTIME" -o "$t" -- "$@" > "$TMP/stdout.txt" 2> "$TMP/stderr.txt"
	st=$?
	set -e
	# decode: 0 clean, 3 decoded with gaps (counted, not fatal here)
	if [ "$st" != 0 ] && [ "$st" != 3 ]; then
		echo "bench: $tool on $name failed (exit $st):" >&2
		cat "$TMP/stderr.txt" >&2
		exit 1
	fi
	wall=$(kv wall "$t")
	cpu=$(awk -v u="$(kv user "$t")" -v s="$(kv sys "$t")" 'BEGIN { printf "%.3f", u + s }')
	rss=$(kv maxrss_kib "$t")
	if [ -n "$out" ] && [ -f "$out" ]; then
		ob=$(stat -c %s "$out")
		rm -f "$out"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$name" "$tool" "$rep" "$wall" "$cpu" "$rss" "$bytes" "$insns" "$ob" >> "$RAW"
	printf '  %-14s %-14s rep %s: wall %6ss cpu %6ss rss %6s KiB\n' \
		"$name" "$tool" "$rep" "$wall" "$cpu" "$rss" >&2
}

sink() { # sink FORMAT: the -o target
	if [ "$SINK" = file ]; then echo "$TMP/out.$1"; else echo /dev/null; fi
}

# decode_all NAME BYTES INSNS FLOOR-ARGS -- DECODE-INPUT-ARGS...: the
# measurements (floor, floor with ptscope's block flags, decode to null,
# fxt, json), interleaved per repetition so that
# load changes on the machine spread over all of them.
decode_all() {
	local name=$1 bytes=$2 insns=$3 floor_args=$4
	shift 5
	local rep f
	for rep in $(seq 1 "$REPS"); do
		# shellcheck disable=SC2086
		measure "$name" floor "$rep" "$bytes" "$insns" "" "$FLOOR" $floor_args
		# shellcheck disable=SC2086
		measure "$name" floor-tl "$rep" "$bytes" "$insns" "" "$FLOOR" --timeline-flags $floor_args
		for f in null fxt json; do
			measure "$name" "decode-$f" "$rep" "$bytes" "$insns" "$(sink "$f")" \
				"$PTSCOPE" decode "$@" --format "$f" -o "$(sink "$f")"
		done
	done
}

echo "bench: traces in $TMP; $REPS repetitions; writers to $SINK" >&2

# ---- real programs under ptsynth (bundles) ----------------------------------
GENRAW=$TMP/gen.tsv	# what rep wall cpu bytes insns
: > "$GENRAW"
i=0
IFS=';' read -r -a progs <<< "$PROGRAMS"
for prog in "${progs[@]}"; do
	[ -n "$prog" ] || continue
	i=$((i + 1))
	name="prog$i"
	for rep in $(seq 1 "$REPS"); do
		rm -rf "$TMP/$name.ptscope"
		# shellcheck disable=SC2086
		"$BTIME" -o "$TMP/time.txt" -- "$PTSYNTH" run -q -o "$TMP/$name.ptscope" -- $prog \
			> /dev/null 2> "$TMP/stderr.txt" || {
			echo "bench: ptsynth run -- $prog failed:" >&2
			cat "$TMP/stderr.txt" >&2
			exit 1
		}
		"$FLOOR" --bundle "$TMP/$name.ptscope" > "$TMP/floor.txt"
		bytes=$(kv bytes "$TMP/floor.txt")
		insns=$(kv insns "$TMP/floor.txt")
		printf 'ptsynth-run %s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rep" "$(kv wall "$TMP/time.txt")" \
			"$(awk -v u="$(kv user "$TMP/time.txt")" -v s="$(kv sys "$TMP/time.txt")" \
				'BEGIN { printf "%.3f", u + s }')" "$bytes" "$insns" >> "$GENRAW"
		# the run is slow (ptrace single-step): one repetition is enough for
		# programs of more than a second
		[ "$(kv wall "$TMP/time.txt" | cut -d. -f1)" -lt 5 ] || break
	done
	echo "$name = $prog: $bytes bytes, $insns instructions" >&2
	echo "$name	$prog" >> "$TMP/names.tsv"
	decode_all "$name" "$bytes" "$insns" "--bundle $TMP/$name.ptscope" -- "$TMP/$name.ptscope"
	rm -rf "$TMP/$name.ptscope"
done

# ---- synthetic streams: 1x, 10x, 100x ----------------------------------------
sizes=()
for div in 100 10 1; do
	mb=$((MAX_MB / div))
	[ "$mb" -ge 1 ] || continue
	sizes+=("$mb")
done
for mb in "${sizes[@]}"; do
	name="gen-${mb}MB"
	pt=$TMP/$name.pt
	# generation rate: every repetition for the smaller traces, once for the largest
	for rep in $(seq 1 "$REPS"); do
		"$BTIME" -o "$TMP/time.txt" -- "$GEN" --elf "$WORKLOAD" --size $((mb * 1000000)) \
			--seed 1 -o "$pt" > "$TMP/gen.txt"
		printf 'bench-gen %s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rep" "$(kv wall "$TMP/time.txt")" \
			"$(kv seconds "$TMP/gen.txt")" "$(kv bytes "$TMP/gen.txt")" \
			"$(kv insns "$TMP/gen.txt")" >> "$GENRAW"
		[ "$mb" != "$MAX_MB" ] || break
	done
	"$FLOOR" --pt "$pt" --elf "$WORKLOAD" > "$TMP/floor.txt"
	bytes=$(kv bytes "$TMP/floor.txt")
	insns=$(kv insns "$TMP/floor.txt")
	echo "$name: $bytes bytes, $insns instructions" >&2
	echo "$name	bench-gen --size $((mb * 1000000)) --seed 1 (workload.S)" >> "$TMP/names.tsv"
	decode_all "$name" "$bytes" "$insns" "--pt $pt --elf $WORKLOAD" -- \
		--pt "$pt" --elf "$WORKLOAD" "${TIMING[@]}"
	rm -f "$pt"
done

# ---- report ------------------------------------------------------------------
# med(s): median of the space-separated numbers in s; sets lo and hi to their
# minimum and maximum. Shared by the report's awk programs.
MED_AWK='
function med(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	lo = a[1]; hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'
{
	echo "# ptscope decode benchmark"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "- machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs," \
	     "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
	     "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- libipt $(dpkg-query -W -f '${Version}' libipt2 2>/dev/null || echo '?'), gcc $(gcc -dumpfullversion)," \
	     "repetitions: $REPS, writers to: $SINK"
	echo "- MB = 10^6 bytes of trace; rates use CPU time (user + sys) of the process, the"
	echo "  figure that stays meaningful on a shared machine; wall time is shown beside it."
	echo "  Values are medians, (min–max) over the repetitions. ×floor = rate / floor's rate;"
	echo "  floor: the bare libipt block-decoder loop (libipt's default block flags);"
	echo "  floor-tl: the same loop with the flags ptscope decode needs for call timelines"
	echo "  (end_on_call, end_on_jump)."
	echo
	echo "Traces:"
	echo
	awk -F'\t' '{ printf "- %s: %s\n", $1, $2 }' "$TMP/names.tsv"
	echo
	echo "| trace | MB | Minsn | tool | CPU s | wall s | MB/s | Minsn/s | ×floor | ×floor-tl | peak RSS MiB |"
	echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
	awk -F'\t' "$MED_AWK"'
	function rng(fmt, m, l, h) {
		return sprintf(fmt " (" fmt "–" fmt ")", m, l, h)
	}
	{
		k = $1 SUBSEP $2
		if (!(k in cpu)) { order[++n] = k; trace[k] = $1; tool[k] = $2; bytes[k] = $7; insns[k] = $8 }
		cpu[k] = cpu[k] " " ($5 > 0.0005 ? $5 : 0.0005)
		wall[k] = wall[k] " " $4
		rss[k] = rss[k] " " $6 / 1024
		mbs[k] = mbs[k] " " $7 / 1e6 / ($5 > 0.0005 ? $5 : 0.0005)
		ips[k] = ips[k] " " $8 / 1e6 / ($5 > 0.0005 ? $5 : 0.0005)
		if ($9 > 0) outb[k] = $9
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			c = med(cpu[k]); cl = lo; ch = hi
			w = med(wall[k]); wl = lo; wh = hi
			r = med(rss[k]); rl = lo; rh = hi
			m = med(mbs[k]); ml = lo; mh = hi
			p = med(ips[k])
			if (tool[k] == "floor") fm[trace[k]] = m
			if (tool[k] == "floor-tl") ftm[trace[k]] = m
			f = fm[trace[k]] > 0 ? sprintf("%.2f", m / fm[trace[k]]) : "–"
			ft = ftm[trace[k]] > 0 ? sprintf("%.2f", m / ftm[trace[k]]) : "–"
			t = tool[k]
			if (k in outb) t = sprintf("%s (%.0f MB out)", t, outb[k] / 1e6)
			printf "| %s | %.2f | %.1f | %s | %s | %s | %s | %.1f | %s | %s | %s |\n",
				trace[k], bytes[k] / 1e6, insns[k] / 1e6, t,
				rng("%.3f", c, cl, ch), rng("%.2f", w, wl, wh), rng("%.2f", m, ml, mh),
				p, f, ft, rng("%.1f", r, rl, rh)
		}
	}' "$RAW"
	echo
	echo "Paired ratios: each repetition runs the floors and the decodes of a trace back"
	echo "to back, so the ratio of their CPU times within one repetition is less exposed to"
	echo "load that changes between repetitions; median (min–max) over the repetitions:"
	echo
	echo "| trace | tool | ×floor | ×floor-tl |"
	echo "|---|---|---:|---:|"
	awk -F'\t' "$MED_AWK"'
	{
		c = $5 > 0.0005 ? $5 : 0.0005
		t[$1 SUBSEP $2 SUBSEP $3] = c
		if ($2 != "floor" && $2 != "floor-tl") {
			k = $1 SUBSEP $2
			if (!(k in seen)) { seen[k] = 1; order[++n] = k; tr[k] = $1; tl[k] = $2 }
			reps[k] = reps[k] " " $3
		}
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]; rf = ""; rt = ""
			m = split(reps[k], rr, " ")
			for (j = 1; j <= m; j++) {
				r = rr[j]; d = t[tr[k] SUBSEP tl[k] SUBSEP r]
				if ((tr[k] SUBSEP "floor" SUBSEP r) in t) rf = rf " " t[tr[k] SUBSEP "floor" SUBSEP r] / d
				if ((tr[k] SUBSEP "floor-tl" SUBSEP r) in t) rt = rt " " t[tr[k] SUBSEP "floor-tl" SUBSEP r] / d
			}
			a = rf == "" ? "–" : sprintf("%.2f (%.2f–%.2f)", med(rf), lo, hi)
			b = rt == "" ? "–" : sprintf("%.2f (%.2f–%.2f)", med(rt), lo, hi)
			printf "| %s | %s | %s | %s |\n", tr[k], tl[k], a, b
		}
	}' "$RAW"
	echo
	echo "Trace generation (ptsynth run: ptrace single-step of a real program, rate per wall"
	echo "second; bench-gen: ptsynth's encoder library alone, rate per CPU second of its"
	echo "encoding loop):"
	echo
	echo "| generator | trace | reps | MB | Minsn | seconds | MB/s | Minsn/s |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	awk -F'\t' "$MED_AWK"'
	{
		k = $1
		if (!(k in cnt)) order[++n] = k
		cnt[k]++
		split($1, parts, " ")
		# ptsynth run: wall time ($3); bench-gen: its own CPU time of the loop ($4)
		s = parts[1] == "ptsynth-run" ? $3 : $4
		if (s < 0.0005) s = 0.0005
		sec[k] = sec[k] " " s; bytes[k] = $5; insns[k] = $6
		mbs[k] = mbs[k] " " $5 / 1e6 / s; ips[k] = ips[k] " " $6 / 1e6 / s
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]; split(k, parts, " ")
			s = med(sec[k]); sl = lo; sh = hi
			m = med(mbs[k]); ml = lo; mh = hi
			p = med(ips[k]); pl = lo; ph = hi
			printf "| %s | %s | %d | %.3f | %.2f | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) |\n",
				parts[1], parts[2], cnt[k], bytes[k] / 1e6, insns[k] / 1e6,
				s, sl, sh, m, ml, mh, p, pl, ph
		}
	}' "$GENRAW"
	if [ "${#sizes[@]}" -ge 2 ]; then
		echo
		echo "Scaling (synthetic traces; ratios of median CPU time and of median peak RSS"
		echo "to the smallest trace, gen-${sizes[0]}MB):"
		echo
		echo "| tool | size ratio | CPU time ratio | peak RSS ratio |"
		echo "|---|---:|---:|---:|"
		awk -F'\t' -v base="gen-${sizes[0]}MB" "$MED_AWK"'
		$1 ~ /^gen-/ {
			k = $1 SUBSEP $2
			if (!(k in cpu)) { order[++n] = k; trace[k] = $1; tool[k] = $2; bytes[k] = $7 }
			cpu[k] = cpu[k] " " $5; rss[k] = rss[k] " " $6
		}
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]
				if (trace[k] == base) continue
				b = base SUBSEP tool[k]
				printf "| %s (%s) | %.0f× | %.1f× | %.2f× |\n", tool[k], trace[k],
					bytes[k] / bytes[b], med(cpu[k]) / med(cpu[b]), med(rss[k]) / med(rss[b])
			}
		}' "$RAW"
	fi
} > "$RESULTS"
cp "$RAW" "${RESULTS%.md}.tsv"
cat "$RESULTS"
echo >&2
echo "bench: report in $RESULTS (raw rows in ${RESULTS%.md}.tsv)" >&2
