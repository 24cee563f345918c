#!/usr/bin/env bash
# Regenerates samples/demo.ptscope (run by `make sample`): builds demo.c and
# libdemo.c in a fixed directory, then traces the demo with ptsynth, the
# reference encoder (user scope, TSC + MTC + CYC timing, no ASLR so
# addresses are stable, code pages that never ran zeroed to keep the
# sample small), and checks the result with libipt. The trace is synthetic: it was not recorded by PT
# hardware.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
work=/tmp/ptscope-sample
rm -rf "$work"
mkdir -p "$work"
flags="-O1 -g -fno-optimize-sibling-calls"
gcc $flags -fPIC -shared -o "$work/libdemo.so" samples/libdemo.c
gcc $flags -o "$work/demo" samples/demo.c -L"$work" -ldemo -Wl,-rpath,"$work"
rm -rf samples/demo.ptscope
"$B/ptsynth" run --no-aslr --trim-objects --timing tsc,mtc,cyc -o samples/demo.ptscope -- "$work/demo" </dev/null
"$B/ptsynth" check samples/demo.ptscope
du -sh samples/demo.ptscope
