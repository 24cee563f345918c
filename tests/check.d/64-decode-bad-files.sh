#!/usr/bin/env bash
# ptscope decode on damaged files: a bundle with a file missing, truncated
# or a bad manifest, a path that is no bundle, a --pt that is a pipe or a
# directory, and a --perf-script file
# that holds no perf script branch line. Each is exit 1 (error) with a
# message saying what is wrong and what to do, and no output file is left;
# perf script lines that are not understood are reported even without
# --summary.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
S=samples/demo.ptscope
PS=${PTS_SHARED:-../shared}/data/real/perf-script/page_fault.perf
[ -d "$S" ] || { echo "skip: no $S"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() {	# want-status grep-pattern args...
	local want=$1 pat=$2 rc=0
	shift 2
	rm -f "$T/o.txt"
	"$P" decode "$@" -o "$T/o.txt" > "$T/out" 2> "$T/err" || rc=$?
	if [ "$rc" != "$want" ] || ! grep -qi -- "$pat" "$T/out" "$T/err"; then
		echo "FAIL: decode $* -> exit $rc (want $want), output:"; cat "$T/out" "$T/err"
		fail=1
	elif [ "$want" = 1 ] && [ -e "$T/o.txt" ]; then
		echo "FAIL: decode $* -> exit 1 but left $T/o.txt"; fail=1
	else
		echo "ok: exit $rc: $(grep -hi -- "$pat" "$T/out" "$T/err" | head -1)"
	fi
}
copy() { rm -rf "$T/$1"; cp -r "$S" "$T/$1"; }

copy nopt; rm "$T/nopt/cpu0.pt"
expect 1 "cpu0.pt.*missing from the bundle: copy the whole" "$T/nopt"
copy cut; truncate -s 5000 "$T/cut/cpu0.pt"
expect 1 "is 5000 bytes but cpus\[0\].size says.*copy the bundle again" "$T/cut"
copy badjson; printf '{"format": "ptscope-bundle", "vers' > "$T/badjson/manifest.json"
expect 1 "manifest.json: bad JSON.*copy the bundle again" "$T/badjson"
copy ver; sed -i 's/"version": 1,/"version": 99,/' "$T/ver/manifest.json"
expect 1 "version 99 is not supported.*use a ptscope at least as new" "$T/ver"
mkdir "$T/emptydir"
expect 1 "manifest.json.*not a bundle" "$T/emptydir"
echo x > "$T/afile"
expect 1 "not a directory" "$T/afile"
expect 1 "no such file.*give the NAME.ptscope directory" "$T/missing.ptscope"

# raw --pt that is not a regular file: a pipe would read as 0 bytes and its
# trace would be lost, so it is refused (the data is still in the pipe's source)
expect 1 "not a regular file (a pipe): save the trace to a file" --pt <(cat "$S/cpu0.pt")
expect 1 "not a regular file (a directory)" --pt "$T"

# --raw: a missing file, an OFFSET past the end and a directory each say which
expect 1 "raw $T/missing.bin: cannot read it: no such file" --pt "$S/cpu0.pt" --raw "$T/missing.bin:0:0x1000"
head -c 100 "$S/cpu0.pt" > "$T/code.bin"
expect 1 "OFFSET 0x1000 is past its end (100 bytes)" --pt "$S/cpu0.pt" --raw "$T/code.bin:0x1000:0x1000"
expect 1 "raw $T: not a regular file" --pt "$S/cpu0.pt" --raw "$T:0:0x1000"

# two traces of one CPU cannot be merged as one stream: bad usage, say which
expect 2 "are both CPU 0: give each --pt its own --cpu" --pt "$S/cpu0.pt" --pt "$S/cpu0.pt" --cpu 0
expect 2 "are both CPU 1" --pt "$S/cpu0.pt" --cpu 1 --pt "$S/cpu0.pt"

# an output that names an input is refused before anything is written
copy keep
clobber() {	# want-pattern args... (exit 2 wanted)
	local pat=$1 rc=0
	shift
	"$P" decode "$@" > /dev/null 2> "$T/err" || rc=$?
	if [ $rc != 2 ] || ! grep -q -- "$pat" "$T/err"; then
		echo "FAIL: decode $* -> exit $rc (want 2):"; cat "$T/err"; fail=1
	else
		echo "ok: exit 2: $(cat "$T/err")"
	fi
}
clobber "is a file of the bundle.*choose another output name" "$T/keep" -o "$T/keep/manifest.json" --format txt
clobber "is the input.*choose another output name" --pt "$T/keep/cpu0.pt" --insn-list "$T/keep/cpu0.pt" --format null
clobber "is the input" --pt "$T/keep/cpu0.pt" -o "$T/keep/cpu0.pt" --format txt
cmp -s "$S/cpu0.pt" "$T/keep/cpu0.pt" && cmp -s "$S/manifest.json" "$T/keep/manifest.json" ||
	{ echo "FAIL: an input file was changed"; fail=1; }

# an output that cannot be written (file size limit): exit 1 with the reason
# and what to do; the old -o file is kept, a failed --insn-list is named
echo old > "$T/keep.json"
rc=0
( ulimit -f 100; trap '' XFSZ; "$P" decode "$S" -o "$T/keep.json" ) 2> "$T/err" || rc=$?
if [ $rc != 1 ] || ! grep -q "File too large; raise the file size limit" "$T/err" ||
   [ "$(cat "$T/keep.json")" != old ]; then
	echo "FAIL: -o over the file size limit: exit $rc, keep.json $(head -c 20 "$T/keep.json")"; cat "$T/err"; fail=1
else
	echo "ok: exit 1: $(cat "$T/err")"
fi
rc=0
( ulimit -f 10; trap '' XFSZ; "$P" decode "$S" --format null --insn-list "$T/il.txt" ) 2> "$T/err" || rc=$?
if [ $rc != 1 ] || ! grep -q "cannot write $T/il.txt: File too large: the instruction list is incomplete" "$T/err"; then
	echo "FAIL: --insn-list over the file size limit: exit $rc"; cat "$T/err"; fail=1
else
	echo "ok: exit 1: $(cat "$T/err")"
fi

# a mistyped option: getopt's message with the command's name, and a pointer
# to --help instead of the 30-line usage
expect 2 "^ptscope decode: unrecognized option '--no-such-option'" "$S" --no-such-option
grep -q "^usage:" "$T/err" && { echo "FAIL: bad option printed the whole usage"; fail=1; }

# timing values with trailing text or a sign are refused, not cut short
for m in 6/85/ 6/85/4/9 6/85x -6/85 6/85/+4; do
	expect 2 "--cpu-model wants FAMILY/MODEL" --pt "$S/cpu0.pt" --cpu-model "$m"
done
for c in 2,308x 2,-308 2,308,1; do
	expect 2 "--cpuid-15 wants EAX,EBX" --pt "$S/cpu0.pt" --cpuid-15 "$c"
done
# the well-formed values are taken (exit 3: ld.so's code is not given here)
expect 3 "gap(s) in the trace" --pt "$S/cpu0.pt" --cpu-model 6/85 --cpuid-15 2,168 --format null

# perf script input: nothing understood is an error, some lines not understood a note
printf 'garbage line\nmore garbage\n' > "$T/garbage.perf"
expect 1 "no perf script branch line in 2 line(s).*perf script --itrace=cr" --perf-script "$T/garbage.perf"
: > "$T/empty.perf"
expect 1 "no perf script branch line in 0 line(s)" --perf-script "$T/empty.perf"
if [ -r "$PS" ]; then
	{ printf 'garbage line\n'; cat "$PS"; } > "$T/mixed.perf"
	expect 3 "1 perf script line(s) not understood, skipped" --perf-script "$T/mixed.perf"
fi
exit $fail
