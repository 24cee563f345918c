#!/usr/bin/env bash
# Resident memory of a decode does not grow with the trace
# (docs/performance.md): a generated 24 MB raw trace, its scope read from
# the trace (the scan reads every byte), decoded serially (-j 1) and in
# parallel (-j 2); peak RSS (wait4 ru_maxrss, build/bench-time) must stay
# below 16 MiB serially and 48 MiB in parallel, less than the trace.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
. tests/tools/check-lib.sh
[ -x "$B/ptscope" ] || pts_skip "$B/ptscope not built"
make -s "$B/bench-gen" "$B/bench-workload" "$B/bench-time" < /dev/null > /dev/null 2>&1 ||
	pts_skip "cannot build $B/bench-gen"
T=$(mktemp -d "${TMPDIR:-/tmp}/ptscope-mem.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$B/bench-gen" --elf "$B/bench-workload" --size 24000000 --seed 2 -o "$T/g.pt" > /dev/null
fail=0
for run in "1 16" "2 48"; do
	set -- $run
	"$B/bench-time" -o "$T/t" -- "$B/ptscope" decode --pt "$T/g.pt" --elf "$B/bench-workload" \
		--cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --cpuid-15 2,168 --tsc-khz 2100000 \
		-j "$1" --format null -o /dev/null
	kib=$(sed -n 's/.*maxrss_kib=\([0-9]*\).*/\1/p' "$T/t")
	echo "decode -j $1 of a 24 MB trace: peak RSS $((kib / 1024)) MiB (bound $2 MiB)"
	if [ "$kib" -ge $(($2 * 1024)) ]; then
		echo "FAIL: -j $1 peak RSS $((kib / 1024)) MiB >= $2 MiB"
		fail=1
	fi
done
exit "$fail"
