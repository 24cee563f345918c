#!/usr/bin/env bash
# The writers on real decodes: both perf-script recordings in
# ../shared/data/real go through `ptscope decode` into every format, and
# each file must be well formed: the .fxt passes fxtcheck (the
# independent reader: headers, tables, begin/end nesting, monotonic time)
# with slices in it, every .folded line is "frames COUNT" with COUNT > 0,
# and the .txt has one event line per BEGIN/END/INSTANT/COUNTER.
set -eu
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
pts_need_shared data/real/perf-script
B=${B:-build}
data=$PTS_SHARED/data/real/perf-script
[ -x "$B/ptscope" ] && [ -x "$B/fxtcheck" ] || { echo "missing $B/ptscope or $B/fxtcheck: run make"; exit 1; }
"$B/ptscope" decode --help >/dev/null 2>&1 || { echo "$B/ptscope has no decode command"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$data"/*.perf; do
	n=$(basename "$f" .perf)
	for ext in fxt txt folded; do
		rc=0
		"$B/ptscope" decode --perf-script "$f" -o "$tmp/$n.$ext" 2>"$tmp/err" || rc=$?
		# 0: clean, 3: decoded with gaps (both recordings have an overflow)
		if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
			echo "$n.$ext: decode failed ($rc): $(cat "$tmp/err")"
			exit 1
		fi
	done
	if compgen -G "$tmp/*.tmp.*" >/dev/null; then
		echo "$n: temporary file left behind: $(ls "$tmp")"; exit 1
	fi
	"$B/fxtcheck" --dump "$tmp/$n.fxt" >"$tmp/$n.dump"
	slices=$(grep -c '^slice ' "$tmp/$n.dump" || true)
	[ "$slices" -gt 0 ] || { echo "$n.fxt: no slices"; exit 1; }
	bad=$(grep -cvE '^.+ [1-9][0-9]*$' "$tmp/$n.folded" || true)
	[ "$bad" = 0 ] || { echo "$n.folded: $bad malformed lines"; exit 1; }
	# every slice is one BEGIN and one END line in the listing
	lines=$(grep -cE '^[0-9]+ [0-9]+ -?[0-9]+/-?[0-9]+ [0-9]+ [a-z_]+ +[<>] ' "$tmp/$n.txt" || true)
	[ "$lines" = $((2 * slices)) ] || {
		echo "$n.txt: $lines begin/end lines for $slices slices"; exit 1; }
	echo "$n: fxt valid with $slices slices; txt and folded well formed"
done
