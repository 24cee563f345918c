#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench, second part: decode cost against the number of threads.
# perf script text with N distinct threads (one call and one return each)
# for N = BENCH_THREADS/10 and BENCH_THREADS (default 100000), decoded to
# .fxt in /dev/null: wall time and peak memory, and the ratio of the two
# runs. A lookup that scans the threads makes the ratio ~N/10 times 10
# (100x for 10x the threads); a hashed one keeps it near 10.
set -euo pipefail
B=${B:-build}
N=${BENCH_THREADS:-100000}
PTSCOPE=$B/ptscope
BTIME=$B/bench-time
for p in "$PTSCOPE" "$BTIME"; do
	[ -x "$p" ] || { echo "bench: $p missing: run 'make bench'" >&2; exit 1; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptscope-bench-threads.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
gen() {	# threads file
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			tid = 1000 + i; t = 2472089 + i * 1e-6
			printf "%d/%d %.9f:          1   branches:uH:   call                     401000 main+0x0 (a.out) =>           401100 f+0x0 (a.out)\n", tid, tid, t
			printf "%d/%d %.9f:          1   branches:uH:   return                   401105 f+0x5 (a.out) =>           401005 main+0x5 (a.out)\n", tid, tid, t + 5e-7
		}
	}' > "$2"
}
declare -A wall rss
for n in $((N / 10)) "$N"; do
	gen "$n" "$TMP/ps.txt"
	"$BTIME" -o "$TMP/t" -- "$PTSCOPE" decode --perf-script "$TMP/ps.txt" --format fxt \
		-o /dev/null > /dev/null
	wall[$n]=$(sed 's/.*wall=\([0-9.]*\).*/\1/' "$TMP/t")
	rss[$n]=$(sed 's/.*maxrss_kib=\([0-9]*\).*/\1/' "$TMP/t")
	echo "threads $n: ${wall[$n]} s, peak ${rss[$n]} KiB"
done
awk -v a="${wall[$((N / 10))]}" -v b="${wall[$N]}" -v ra="${rss[$((N / 10))]}" -v rb="${rss[$N]}" \
	'BEGIN { printf "10x the threads: %.1fx the time, %.1fx the memory\n", b / (a > 0 ? a : 1e-3), rb / ra }'
