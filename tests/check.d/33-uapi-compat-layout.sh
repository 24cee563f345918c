#!/usr/bin/env bash
# The ioctl ABI serves 32-bit callers unchanged (kmod/main.c hands
# compat_ioctl to compat_ptr_ioctl(), which only converts the pointer):
# every struct of include/uapi/ptscope.h, the ioctl arguments and the
# sideband records read(), must have the same offsets and sizes compiled
# for i386 (-m32, where a __u64 is only 4-byte aligned) as for x86-64,
# with no hole and no tail padding (explicit reserved fields only).
# pahole reads the layouts from both objects' DWARF. Self-test: a struct
# with a __u64 after a lone __u32 differs, as it must.
# Skips (counted as skipped) without pahole or a compiler that builds
# -m32 objects.
set -u
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
command -v pahole >/dev/null || pts_skip "no pahole: layouts not compared"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# layouts FILE.c OUT: pahole of FILE.c built with -m32 and -m64 (OUT.32, OUT.64)
layouts() {
	local m
	for m in 32 64; do
		gcc -m$m -c -g -I. -idirafter /usr/include/x86_64-linux-gnu \
		    -o "$2.$m.o" "$1" 2>"$2.$m.err" || return 1
		pahole "$2.$m.o" > "$2.$m" || return 1
	done
}
{
	echo '#include "include/uapi/ptscope.h"'
	sed -n 's/^struct \(ptscope_[a-z0-9_]*\) {.*/struct \1 v_\1;/p' include/uapi/ptscope.h
} > "$work/uapi.c"
n=$(grep -c '^struct' "$work/uapi.c")
if ! layouts "$work/uapi.c" "$work/uapi"; then
	grep -q 'm32\|gnu/stubs-32\|asm/' "$work"/uapi.*.err 2>/dev/null &&
		pts_skip "gcc cannot build -m32 objects here: $(head -n 1 "$work"/uapi.32.err)"
	echo "FAIL: include/uapi/ptscope.h does not build:"; cat "$work"/uapi.*.err; exit 1
fi
rc=0
if ! diff "$work/uapi.32" "$work/uapi.64" > "$work/diff"; then
	echo "FAIL: struct layouts differ between -m32 and -m64 (< i386, > x86-64):"
	cat "$work/diff"; rc=1
elif grep -nE 'XXX|padding:' "$work/uapi.64"; then
	echo "FAIL: a hole or tail padding (above): make it an explicit reserved field"; rc=1
elif [ "$(grep -c '^struct ptscope_' "$work/uapi.64")" != "$n" ]; then
	echo "FAIL: pahole shows $(grep -c '^struct ptscope_' "$work/uapi.64") of the $n structs"; rc=1
else
	echo "ok: $n structs of include/uapi/ptscope.h: same layout on i386 and x86-64, no hole"
fi
printf '#include <linux/types.h>\nstruct bad { __u32 a; __u64 b; } v;\n' > "$work/bad.c"
if layouts "$work/bad.c" "$work/bad" && ! diff -q "$work/bad.32" "$work/bad.64" >/dev/null; then
	echo "ok: a __u64 after a lone __u32 differs between -m32 and -m64, as it must"
else
	echo "FAIL: self-test: the bad struct compares equal (or does not build)"; rc=1
fi
exit $rc
