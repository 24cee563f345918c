#!/usr/bin/env bash
# The README's first command decodes the shipped sample with --summary: its
# diagnostics must be ones a newcomer can read as expected. Without the
# host's debug files for ld.so and libc (no libc6-dbg, as in a fresh CI
# machine; here the bundle's copies of them have their build-ids changed,
# so that no debug file of this host is theirs: a host debug file names a
# binary only when the build-ids match, whatever --sysroot says) their
# hidden functions are unnamed code, and jumps into them (lazy binding's
# PLT0 into ld.so, __sigsetjmp into __sigjmp_save) were taken as longjmps
# that unwound the stack: 9 returns then went to no open frame's return
# address. None now. With ld.so's symbols (libc6-dbg of the sample's
# build-id installed), the one diagnostic is ld.so's _start running on
# into _dl_start_user, and the line names that place, with --sysroot too.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
S=samples/demo.ptscope
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
mkdir "$T/empty"
cp -r "$S" "$T/nodbg.ptscope"
# each copy's build-id with its last byte changed (the same size: still the copy)
for f in "$T"/nodbg.ptscope/objects/usr/lib/x86_64-linux-gnu/*; do
	python3 - "$f" "$(readelf -n "$f" | awk '/Build ID/ { print $3 }')" <<'PY' ||
import sys
path, hexid = sys.argv[1], sys.argv[2]
data = bytearray(open(path, 'rb').read())
bid = bytes.fromhex(hexid)
at = data.find(b'GNU\0' + bid)
assert len(bid) > 0 and at >= 0, 'no build-id note'
data[at + 4 + len(bid) - 1] ^= 0xff
open(path, 'wb').write(data)
PY
		{ echo "FAIL: cannot change the build-id of $f"; exit 1; }
done
mkdir "$T/cache"	# perf's build-id cache, empty: listed where it was looked in
"$P" decode "$T/nodbg.ptscope" --sysroot "$T/empty" --buildid-dir "$T/cache" --summary -o "$T/a.fxt" > "$T/sum" 2>&1 ||
	{ echo "FAIL: decode: $(cat "$T/sum")"; exit 1; }
if grep -q '^diagnostic:' "$T/sum"; then
	echo "FAIL: the sample without host debug files: $(grep '^diagnostic:' "$T/sum")"
	fail=1
else
	echo "ok: the sample without host debug files: no diagnostic"
fi
# the summary says which objects have no names, and where their debug files were looked for
bid="[0-9a-f]\{2\}/[0-9a-f]*"
dbgat="no debug file at $T/empty/usr/lib/debug/.build-id/$bid\.debug, $T/cache/.build-id/$bid/debug, $T/cache/.build-id/$bid/elf, /usr/lib/debug/.build-id/$bid\.debug$"
if grep -q "^names: 2 objects without a symbol table or debug file (functions by their exported names, else \[unknown\]):$" "$T/sum" &&
   grep -q "^  /usr/lib/x86_64-linux-gnu/libc.so.6: $dbgat" "$T/sum" &&
   grep -q "^  /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2: $dbgat" "$T/sum" &&
   grep -q "^  to name them: install the capture machine's debug symbols here" "$T/sum"; then
	echo "ok: the summary names the two unnamed objects and where their debug files were looked for"
else
	echo "FAIL: no names lines for ld.so and libc in the summary:"; sed -n '/^names/,/to name/p' "$T/sum"
	fail=1
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
	# --sysroot keeps the host's debug files of the same build-id (as perf's build-id cache)
	"$P" decode "$S" --sysroot "$T/empty" --summary -o "$T/c.fxt" > "$T/sum" 2>&1 ||
		{ echo "FAIL: decode: $(cat "$T/sum")"; exit 1; }
	if [ "$(grep '^diagnostic:' "$T/sum")" = "$want" ] && ! grep -q '^names:' "$T/sum"; then
		echo "ok: with --sysroot of an empty directory, ld.so's symbols from the host's debug file"
	else
		echo "FAIL: with --sysroot of an empty directory: '$(grep '^diagnostic:\|^names:' "$T/sum")'"
		fail=1
	fi
else
	echo "SKIP part: no debug file of the sample's ld.so (build-id ${id:-?}) here (libc6-dbg of that build)"
fi
exit $fail
