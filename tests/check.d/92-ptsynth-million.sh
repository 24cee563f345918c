#!/usr/bin/env bash
# Ground-truth agreement on a run of more than 10^6 instructions: the C++
# test program linked against libstdc++.so (the dynamic loader relocates
# libstdc++: ~1.7 M instructions in all), checked exactly by libipt's
# instruction decoder. Takes about a minute of single-stepping, so it is
# opt-in: PTS_LONG_CHECKS=1 make check (else it skips).
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
if [ "${PTS_LONG_CHECKS:-0}" != 1 ]; then
	. tests/tools/check-lib.sh
	pts_skip "long check; run with PTS_LONG_CHECKS=1"
fi
work=$B/ptsynth-check/million
rm -rf "$work"
mkdir -p "$work"
g++ -O1 -g -o "$work/cxx_throw_dyn" tests/programs/cxx_throw.cc
"$B/ptsynth" run -o "$work/big.ptscope" -- "$work/cxx_throw_dyn" </dev/null >/dev/null
"$B/ptsynth" check "$work/big.ptscope" | tee "$work/check.txt"
n=$(sed -n 's/.*OK: \([0-9]*\) instructions.*/\1/p' "$work/check.txt")
[ "$n" -ge 1000000 ] || { echo "only $n instructions"; exit 1; }
echo "ground truth agrees on $n instructions"
