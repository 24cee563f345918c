#!/usr/bin/env bash
# Two ptscope binaries against the floor, paired and interleaved
# (docs/performance.md, "Comparing two decoders"):
#
#   tools/bench/ab.sh OLD NEW TRACE.pt...     (bench-gen traces of bench-workload)
#
# For each repetition (AB_REPS, default 5) and trace: bench-floor, OLD and
# NEW decoding to fxt in /dev/null with -j 1, in an order that rotates
# with the repetition; CPU time (user + sys) of each from bench-time. A
# ratio is floor CPU / decoder CPU of the same repetition; printed: the
# median (min-max) of those ratios per trace and binary, NEW/OLD CPU of
# the same repetition, and the load average before and after.
set -eu
cd "$(dirname "$0")/../.."
[ $# -ge 3 ] || { echo "usage: $0 OLD NEW TRACE.pt..." >&2; exit 2; }
old=$1
new=$2
shift 2
B=${B:-build}
reps=${AB_REPS:-5}
args="--elf $B/bench-workload --cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cpu() {	# CPU seconds of one command (bench-time's user + sys)
	"$B/bench-time" -- "$@" 2>&1 >/dev/null | sed -n 's/.* user=\([0-9.]*\) sys=\([0-9.]*\).*/\1 \2/p' |
		awk '{print $1 + $2}'
}
for ((r = 1; r <= reps; r++)); do
	for t in "$@"; do
		for k in 0 1 2; do
			case $(((k + r) % 3)) in
			0) echo "$r $t floor $(cpu "$B/bench-floor" --pt "$t" --elf "$B/bench-workload")" ;;
			1) # shellcheck disable=SC2086
			   echo "$r $t old $(cpu "$old" decode --pt "$t" $args -o /dev/null --format fxt -j 1)" ;;
			2) # shellcheck disable=SC2086
			   echo "$r $t new $(cpu "$new" decode --pt "$t" $args -o /dev/null --format fxt -j 1)" ;;
			esac
		done >> "$rows"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ c[$1, $2, $3] = $4; tr[$2] = 1; if ($1 > reps) reps = $1 }
END {
	printf "| trace | floor CPU s | old CPU s | new CPU s | old ×floor | new ×floor | new/old CPU |\n|---|---:|---:|---:|---:|---:|---:|\n"
	for (t in tr) {
		split("", f); split("", o); split("", w); split("", ro); split("", rn); split("", q)
		lo1 = lo2 = lo3 = 1e9; hi1 = hi2 = hi3 = 0
		for (r = 1; r <= reps; r++) {
			f[r] = c[r, t, "floor"]; o[r] = c[r, t, "old"]; w[r] = c[r, t, "new"]
			ro[r] = f[r] / o[r]; rn[r] = f[r] / w[r]; q[r] = w[r] / o[r]
			if (ro[r] < lo1) lo1 = ro[r]; if (ro[r] > hi1) hi1 = ro[r]
			if (rn[r] < lo2) lo2 = rn[r]; if (rn[r] > hi2) hi2 = rn[r]
			if (q[r] < lo3) lo3 = q[r]; if (q[r] > hi3) hi3 = q[r]
		}
		printf "| %s | %.3f | %.3f | %.3f | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) |\n", t,
		       med(f, reps), med(o, reps), med(w, reps), med(ro, reps), lo1, hi1, med(rn, reps), lo2, hi2,
		       med(q, reps), lo3, hi3
	}
}' "$rows"
