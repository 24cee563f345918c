#!/usr/bin/env bash
# End to end on reference-encoder bundles: `ptscope decode` must give
# timelines whose call/return structure matches the ground truth (same
# function sequence and call depth at every call, same number of calls),
# compared by tests/ptsynth/callstructure.pl. Skips (exit 77) while
# `ptscope decode` is not part of the build.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
bin=$B/ptsynth-programs
sc=$B/ptsynth-check/selfcheck
work=$B/ptsynth-check/e2e

if [ ! -x "$B/ptscope" ]; then
	echo "SKIP: $B/ptscope not built"
	exit 77
fi
probe=$("$B/ptscope" decode 2>&1 </dev/null)
if echo "$probe" | grep -qi -e 'not built' -e 'unknown command'; then
	echo "SKIP: ptscope decode is not available yet: $(echo "$probe" | head -1)"
	exit 77
fi
set -e
bash tests/ptsynth/build-programs.sh "$bin"
rm -rf "$work"
mkdir -p "$work"

bundle() {	# reuse the self-check's bundles when present
	local name=$1
	shift
	if [ -f "$sc/$name.ptscope/manifest.json" ]; then
		echo "$sc/$name.ptscope"
	else
		"$B/ptsynth" run -q -o "$work/$name.ptscope" -- "$@" </dev/null >/dev/null
		echo "$work/$name.ptscope"
	fi
}

for prog in cfeatures cxx_throw vdso_clock; do
	b=$(bundle $prog "$bin/$prog")
	exe=$(readlink -f "$bin/$prog")
	"$B/ptscope" decode "$b" -o "$work/$prog.txt"
	echo "$prog:"
	perl tests/ptsynth/callstructure.pl "$b/ground-truth.txt" "$b/objects$exe" "$exe" \
		"$work/$prog.txt"
done
echo "ptscope decode matches the reference encoder's call structure"
