#!/usr/bin/env bash
# The README's first command decodes the shipped sample with --summary: its
# diagnostics must be ones a newcomer can read as expected. Without the
# host's debug files for ld.so and libc (no libc6-dbg, as in a fresh CI
# machine; --sysroot of an empty directory keeps the host's out) their
# hidden functions are unnamed code, and jumps into them (lazy binding's
# PLT0 into ld.so, __sigsetjmp into __sigjmp_save) were taken as longjmps
# that unwound the stack: 9 returns then went to no open frame's return
# address. None now. With ld.so's symbols (libc6-dbg of the sample's
# build-id installed), the one diagnostic is ld.so's _start running on
# into _dl_start_user, and the line names that place.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
S=samples/demo.ptscope
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
mkdir "$T/empty"
"$P" decode "$S" --sysroot "$T/empty" --summary -o "$T/a.fxt" > "$T/sum" 2>&1 ||
	{ echo "FAIL: decode: $(cat "$T/sum")"; exit 1; }
if grep -q '^diagnostic:' "$T/sum"; then
	echo "FAIL: the sample without host debug files: $(grep '^diagnostic:' "$T/sum")"
	fail=1
else
	echo "ok: the sample without host debug files: no diagnostic"
fi
ld=$S/objects/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
id=$(readelf -n "$ld" 2>/dev/null | awk '/Build ID/ { print $3 }')
if [ -n "$id" ] && [ -r "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]; then
	"$P" decode "$S" --summary -o "$T/b.fxt" > "$T/sum" 2>&1 ||
		{ echo "FAIL: decode: $(cat "$T/sum")"; exit 1; }
	want='diagnostic: 1 x ran on into another function without a call (slice renamed, nothing lost): first _start -> _dl_start_user (ld-linux-x86-64.so.2)'
	if [ "$(grep '^diagnostic:' "$T/sum")" = "$want" ]; then
		echo "ok: with ld.so's symbols: $want"
	else
		echo "FAIL: with ld.so's symbols: '$(grep '^diagnostic:' "$T/sum")', want '$want'"
		fail=1
	fi
else
	echo "SKIP part: no debug file of the sample's ld.so (build-id ${id:-?}) here (libc6-dbg of that build)"
fi
exit $fail
