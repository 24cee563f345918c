#!/usr/bin/env bash
# ptscope decode on damaged files: a bundle with a file missing or a bad
# manifest, a path that is no bundle, a --pt that is a pipe or a
# directory, a program, perf.data or an archive where a bundle or a
# trace goes, a --kallsyms without a kallsyms line, and a --perf-script
# file that holds no perf script branch line. Each is exit 1 (error) with
# a message saying what is wrong and what to do, and no output file is
# left. A bundle whose cpu0.pt or sideband.bin is a damaged copy is
# decoded as far as it goes (exit 3, the warning says what is missing), and
# one whose copy of a binary is truncated decodes that binary's code as
# gaps unless --sysroot holds the captured file;
# perf script lines and kallsyms lines that are not understood are
# reported even without --summary.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
Pabs=$(realpath "$P")
S=samples/demo.ptscope
[ -d "$S" ] || { echo "FAIL: no $S (it is part of the repository)"; exit 1; }
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

# a bundle whose manifest lists no CPU: nothing to decode, and what to do
copy nocpu
python3 - "$T/nocpu/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m['cpus'] = []; json.dump(m, open(sys.argv[1], 'w'))
PY
expect 1 "the bundle holds no CPU trace (manifest.json: \"cpus\" is empty): nothing to decode; capture again" "$T/nocpu"

copy nopt; rm "$T/nopt/cpu0.pt"
expect 1 "cpu0.pt.*missing from the bundle: copy the whole" "$T/nopt"

# A truncated copy of cpu0.pt: the bytes present are decoded, the missing
# tail is a gap at the end, and the exit status says gaps (3). The full
# size is the sample's, which the reader checks against its manifest.
full=$(stat -c %s "$S/cpu0.pt")
[ "$full" -gt 6000 ] || { echo "FAIL: $S/cpu0.pt is only $full bytes"; exit 1; }
copy cut; truncate -s 5000 "$T/cut/cpu0.pt"
expect 3 "^ptscope decode: warning: cpu0.pt: 5000 of $full bytes present (truncated copy?); decoding the bytes present" "$T/cut"
# What is decoded is the start of the whole decode. The whole decode itself
# is checked against the encoder's ground truth elsewhere (40-ptsynth-selfcheck,
# 45-ptsynth-e2e); here it is only the reference the truncated decode must
# agree with, line for line, up to the truncation gap.
rc=0
"$P" decode "$S" -o "$T/full.txt" 2> "$T/err" || rc=$?
"$P" decode "$T/cut" -o "$T/cut.txt" --summary > "$T/cut.summary" 2> "$T/err" || rc=$(( rc + $? ))
# first line of the cut decode whose kind (5th column) is "gap": slices ended there
g=$(awk '$5 == "gap" { print NR; exit }' "$T/cut.txt")
if [ "$rc" != 3 ] || [ -z "$g" ] || [ "$g" -lt 100 ] ||
   ! cmp -s <(head -n $((g - 1)) "$T/cut.txt") <(head -n $((g - 1)) "$T/full.txt"); then
	echo "FAIL: truncated cpu0.pt: exit $rc, first gap line ${g:-none}, or its decode is not the start of the full one"
	diff <(head -n $((${g:-2} - 1)) "$T/cut.txt") <(head -n $((${g:-2} - 1)) "$T/full.txt") | head -5
	fail=1
elif ! grep -q "gap: trace file truncated ($((full - 5000)) bytes missing)" "$T/cut.txt" ||
     ! grep -q "^trace: 5000 bytes (4.9 KiB); $((full - 5000)) bytes (.* KiB) missing (truncated copy)" "$T/cut.summary" ||
     ! grep -q "^  1 x trace file truncated ($((full - 5000)) bytes missing)" "$T/cut.summary"; then
	echo "FAIL: truncated cpu0.pt: the gap or the summary does not say what is missing"
	grep gap "$T/cut.txt" | tail -2; cat "$T/cut.summary"; fail=1
else
	echo "ok: truncated cpu0.pt decodes as the first $((g - 1)) lines of the whole, then the gap"
fi
# A truncated copy of one of the bundle's binaries (libdemo.so): the copy
# is not read, the binary is looked for under --sysroot as an uncopied one
# (checked by its build-id), and without it its code decodes as gaps, as
# perf decodes a trace whose dso is missing; the rest of the bundle is
# decoded. The reference is the whole bundle decoded with the same
# --sysroot (which also decides where debug files are looked for).
lib=tmp/ptscope-sample/libdemo.so
libfull=$(stat -c %s "$S/objects/$lib")
copy libcut; truncate -s 4000 "$T/libcut/objects/$lib"
mkdir -p "$T/noroot" "$T/root/$(dirname $lib)"; cp "$S/objects/$lib" "$T/root/$lib"
cutmsg="objects/$lib: 4000 of $libfull bytes present (truncated copy?): /$lib"
expect 3 "^ptscope decode: warning: $cutmsg decodes as gaps; copy the bundle again, or give --sysroot DIR with the original file at 'DIR/$lib'$" "$T/libcut" --sysroot "$T/noroot"
rc=0
"$P" decode "$S" -o "$T/libfull.txt" --sysroot "$T/noroot" 2> "$T/err" || rc=$?
"$P" decode "$T/libcut" -o "$T/libcut.txt" --sysroot "$T/noroot" --summary > "$T/libcut.summary" 2> "$T/err" || rc=$(( rc + $? ))
g=$(awk '$5 == "gap" { print NR; exit }' "$T/libcut.txt")
if [ "$rc" != 3 ] || [ -z "$g" ] || [ "$g" -lt 100 ] ||
   ! cmp -s <(head -n $((g - 1)) "$T/libcut.txt") <(head -n $((g - 1)) "$T/libfull.txt") ||
   ! grep -q "gap: no memory mapped at this address" "$T/libcut.txt" ||
   ! grep -q "^code files: 3 copied in the bundle, .*, 1 damaged copy in the bundle (missing or not of the recorded size)$" "$T/libcut.summary"; then
	echo "FAIL: truncated $lib: exit $rc, first gap line ${g:-none}, its decode not the start of the whole one, or the summary does not count it"
	grep "gap\|code files" "$T/libcut.txt" "$T/libcut.summary" | head -5; fail=1
else
	echo "ok: truncated $lib decodes as the first $((g - 1)) lines of the whole, then a gap at its code"
fi
expect 0 "^ptscope decode: warning: $cutmsg decodes with $T/root/$lib, the captured file (same build-id)$" "$T/libcut" --sysroot "$T/root"
"$P" decode "$S" -o "$T/libfull.txt" --sysroot "$T/root" 2> /dev/null
"$P" decode "$T/libcut" -o "$T/libcut.txt" --sysroot "$T/root" 2> /dev/null
cmp -s "$T/libfull.txt" "$T/libcut.txt" && echo "ok: with --sysroot holding $lib the decode is the whole one" ||
	{ echo "FAIL: truncated $lib with --sysroot: not the whole decode"; fail=1; }
# a copy missing from the bundle (a copy that did not finish) is as a cut
# one: gaps at its code and the rest decoded, or the file from --sysroot
copy libgone; rm "$T/libgone/objects/$lib"
gonemsg="objects/$lib is missing from the bundle (a copy that did not finish?): /$lib"
expect 3 "^ptscope decode: warning: $gonemsg decodes as gaps; copy the bundle again, or give --sysroot DIR with the original file at 'DIR/$lib'$" "$T/libgone" --sysroot "$T/noroot"
expect 3 "^code files: 3 copied in the bundle, .*, 1 damaged copy in the bundle (missing or not of the recorded size)$" "$T/libgone" --sysroot "$T/noroot" --summary
"$P" decode "$T/libgone" -o "$T/libgone.txt" --sysroot "$T/root" 2> "$T/err"
cmp -s "$T/libfull.txt" "$T/libgone.txt" && grep -q "$gonemsg decodes with $T/root/$lib, the captured file (same build-id)$" "$T/err" &&
	echo "ok: a missing copy of $lib, with --sysroot holding it: the whole decode" ||
	{ echo "FAIL: missing $lib with --sysroot: not the whole decode"; cat "$T/err"; fail=1; }
# perf's build-id cache holds it (perf archive brought the capture
# machine's over): taken by the build-id the capture recorded, from the
# .build-id link's elf or from ORIGPATH/BUILDID/elf (perf's util/build-id.c)
libid=e35c175327b9dbd72ec2fe81962e1aa554fc9a21
mkdir -p "$T/cache/.build-id/${libid:0:2}/${libid:2}" "$T/cache2/$lib/$libid" "$T/cache3/.build-id/${libid:0:2}/${libid:2}"
cp "$S/objects/$lib" "$T/cache/.build-id/${libid:0:2}/${libid:2}/elf"
cp "$S/objects/$lib" "$T/cache2/$lib/$libid/elf"
cp "$S/objects/tmp/ptscope-sample/demo" "$T/cache3/.build-id/${libid:0:2}/${libid:2}/elf"
for c in "cache:$T/cache/.build-id/${libid:0:2}/${libid:2}/elf" "cache2:$T/cache2/$lib/$libid/elf"; do
	"$P" decode "$T/libgone" -o "$T/libgone.txt" --sysroot "$T/noroot" --buildid-dir "$T/${c%%:*}" 2> "$T/err"
	cmp -s "$T/libfull.txt" "$T/libgone.txt" && grep -q "$gonemsg decodes with ${c#*:}, the captured file (perf's build-id cache, same build-id)$" "$T/err" &&
		echo "ok: a missing copy of $lib, in perf's build-id cache as ${c#*:}: the whole decode" ||
		{ echo "FAIL: missing $lib in perf's build-id cache ${c#*:}: not the whole decode"; cat "$T/err"; fail=1; }
done
# the layout as perf itself writes it (perf buildid-cache --add: the
# oracle of where perf puts a file, independent of the reader above)
if perf --buildid-dir "$T/pcache" buildid-cache --add "$S/objects/$lib" > /dev/null 2>&1 &&
   [ -e "$T/pcache/.build-id/${libid:0:2}/${libid:2}/elf" ]; then
	"$P" decode "$T/libgone" -o "$T/libgone.txt" --sysroot "$T/noroot" --buildid-dir "$T/pcache" 2> "$T/err"
	cmp -s "$T/libfull.txt" "$T/libgone.txt" && grep -q "decodes with $T/pcache/.build-id/${libid:0:2}/${libid:2}/elf, the captured file (perf's build-id cache" "$T/err" &&
		echo "ok: a missing copy of $lib, in a build-id cache perf buildid-cache wrote: the whole decode" ||
		{ echo "FAIL: missing $lib in perf buildid-cache's cache: not the whole decode"; cat "$T/err"; fail=1; }
else
	echo "SKIP part: perf buildid-cache --add did not write $T/pcache/.build-id/${libid:0:2}/${libid:2}/elf (no perf here: linux-perf)"
fi
# a file of another build-id at the cache's place is not the captured one
expect 3 "^ptscope decode: warning: $gonemsg decodes as gaps" "$T/libgone" --sysroot "$T/noroot" --buildid-dir "$T/cache3"
# the default cache is $HOME/.debug, as perf's; --buildid-dir must name a directory
mkdir -p "$T/home/.debug"; cp -r "$T/cache/.build-id" "$T/home/.debug/"
HOME=$T/home "$P" decode "$T/libgone" -o "$T/libgone.txt" --sysroot "$T/noroot" 2> /dev/null
cmp -s "$T/libfull.txt" "$T/libgone.txt" && echo "ok: \$HOME/.debug is perf's build-id cache by default" ||
	{ echo "FAIL: \$HOME/.debug not looked in"; fail=1; }
expect 1 "^ptscope decode: --buildid-dir $T/nocache is not a directory: give perf's build-id cache" "$S" --buildid-dir "$T/nocache"
# a host file of another build-id is not the captured one: gaps, and said
cp "$S/objects/tmp/ptscope-sample/demo" "$T/root/$lib"
expect 3 "^ptscope decode: warning: $cutmsg decodes as gaps; copy the bundle again, or give --sysroot DIR with the original file at 'DIR/$lib' ($T/root/$lib is not the captured file" "$T/libcut" --sysroot "$T/root"
expect 3 "^  not matching (decoded as gaps): $T/root/$lib: build-id 26246858c150d718a28bb490b28aed4e7787acbf, captured e35c175327b9dbd72ec2fe81962e1aa554fc9a21$" "$T/libcut" --sysroot "$T/root" --summary

# A cpu0.pt longer than the manifest says: the bytes after the recorded
# size were added later (a PSB then 0xff: an "unknown packet" gap if they
# were decoded); they are ignored and said, and the decode is the whole one.
copy long; { printf '\002\202%.0s' 1 2 3 4 5 6 7 8; printf '\377%.0s' $(seq 16); } >> "$T/long/cpu0.pt"
expect 0 "cpu0.pt: $((full + 32)) bytes, the manifest says $full: decoding the bytes the capture wrote; the 32 bytes after them were added later and are ignored" "$T/long"
cmp -s "$T/o.txt" "$T/full.txt" || { echo "FAIL: the longer cpu0.pt decodes differently"; fail=1; }

# The -o extension is recognised in any case: OUT.TXT is the .txt listing
# (the same bytes as the whole decode above)
rc=0; "$P" decode "$S" -o "$T/UPPER.TXT" 2> "$T/err" || rc=$?
[ $rc = 0 ] && cmp -s "$T/UPPER.TXT" "$T/full.txt" ||
	{ echo "FAIL: -o UPPER.TXT: exit $rc, or not the .txt listing"; cat "$T/err"; fail=1; }
# --help: --sysroot serves bundles too, so it is not listed under "raw PT"
"$P" decode --help > "$T/help"
awk '/^raw PT/ { raw = 1 } /--sysroot/ { exit !(raw == 0) }' "$T/help" && grep -q -- "--sysroot" "$T/help" ||
	{ echo "FAIL: decode --help lists --sysroot under raw PT"; fail=1; }

# A manifest without a TSC frequency (tsc_khz 0, "unknown" in
# bundle-format.md) falls back to the nominal ratio x 100 MHz, and says so.
# The sample's nom_freq is 21: 21 x 100 MHz = 2100000 kHz, which is exactly
# its recorded tsc_khz, so the decode must be the whole one, byte for byte
# (raw TSC ticks as ns would make every time 2.1 times too long).
copy nokhz; sed -i 's/"tsc_khz": 2100000/"tsc_khz": 0/g' "$T/nokhz/manifest.json"
grep -q '"nom_freq": 21,' "$T/nokhz/manifest.json" || { echo "FAIL: the sample's nom_freq is not 21"; exit 1; }
expect 0 "^ptscope decode: warning: manifest.json: tsc_khz is 0 (not recorded): times use the nominal ratio 21 x 100 MHz = 2100000 kHz" "$T/nokhz"
cmp -s "$T/o.txt" "$T/full.txt" || { echo "FAIL: tsc_khz 0 with nom_freq 21 decodes differently from tsc_khz 2100000"; fail=1; }
sed -i 's/"nom_freq": 21,/"nom_freq": 0,/' "$T/nokhz/manifest.json"
expect 0 "warning: manifest.json: tsc_khz and nom_freq are 0 (not recorded): times are TSC ticks, not ns" "$T/nokhz"

# An incomplete bundle (the capture failed part-way, bundle-format.md
# section 2) is decoded and said on stderr even without --summary; the
# sample's files are all there, so the exit status stays 0.
copy incomplete
sed -i 's/"complete": true,/"complete": false,/; s/"incomplete_reason": "",/"incomplete_reason": "writing cpu1.pt: No space left on device",/' "$T/incomplete/manifest.json"
expect 0 '^ptscope decode: warning: bundle incomplete (manifest.json: "complete": false): writing cpu1.pt: No space left on device; decoding what is there' "$T/incomplete"
sed -i 's/"incomplete_reason": "[^"]*",/"incomplete_reason": "",/' "$T/incomplete/manifest.json"
expect 0 '^ptscope decode: warning: bundle incomplete (manifest.json: "complete": false): no reason recorded' "$T/incomplete"

# A damaged sideband: the records before the damage are used, the warning
# names the file, the byte offset and what is wrong, and the exit status
# is 3 (records were lost). Record offsets and fields are found here by
# walking the sample's records (include/uapi/ptscope.h: u16 type, u16 size,
# u32 cpu, u64 tsc).
sbrec() {	# N FIELD: offset|size|tsc of record N of $S/sideband.bin
	python3 - "$S/sideband.bin" "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, n = 0, int(sys.argv[2])
for _ in range(n):
    off += struct.unpack_from('<H', d, off + 2)[0]
t, size, cpu, tsc = struct.unpack_from('<HHIQ', d, off)
print({'offset': off, 'size': size, 'tsc': tsc, 'cpu': cpu}[sys.argv[3]])
PY
}
poke() {	# FILE OFFSET FORMAT VALUE: write struct.pack(FORMAT, VALUE) at OFFSET
	python3 -c 'import struct, sys
f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack(sys.argv[3], int(sys.argv[4])))' "$@"
}
sbfull=$(stat -c %s "$S/sideband.bin")
o1=$(sbrec 1 offset); s1=$(sbrec 1 size); o3=$(sbrec 3 offset); o4=$(sbrec 4 offset)
[ "$sbfull" -gt "$o4" ] && [ "$(sbrec 3 cpu)" = "$(sbrec 4 cpu)" ] && [ "$(sbrec 3 tsc)" -gt 0 ] ||
	{ echo "FAIL: $S/sideband.bin is not the sample this check expects"; exit 1; }
copy sbcut; truncate -s $((o1 + 20)) "$T/sbcut/sideband.bin"
expect 3 "sideband.bin: $((o1 + 20)) of $sbfull bytes present (truncated copy?)" "$T/sbcut"
expect 3 "sideband.bin: damaged record at byte offset $o1: size $s1 runs past the end (20 bytes left; truncated file?); the $o1 bytes before it are used" "$T/sbcut"
copy sbsize; poke "$T/sbsize/sideband.bin" $((o1 + 2)) '<H' 12
expect 3 "sideband.bin: damaged record at byte offset $o1: size 12 is smaller than the 16-byte header" "$T/sbsize"
copy sbtype; poke "$T/sbtype/sideband.bin" "$o3" '<H' 0
expect 3 "sideband.bin: damaged record at byte offset $o3: type 0 (zeroed bytes" "$T/sbtype"
copy sbtime; poke "$T/sbtime/sideband.bin" $((o4 + 8)) '<Q' $(( $(sbrec 3 tsc) - 1 ))
expect 3 "sideband.bin: damaged record at byte offset $o4: .* of CPU $(sbrec 4 cpu) at TSC $(( $(sbrec 3 tsc) - 1 )), before the record ahead of it on that CPU (TSC $(sbrec 3 tsc)): times go back" "$T/sbtime"
# The largest TSC a record can hold (2^64 - 1 = 18446744073709551615) in
# record 1: record 2, of the same CPU with its own (smaller) TSC, is then
# the one whose time goes back. The reader once kept "TSC + 1" per CPU,
# which wraps to 0 ("no record yet") here and accepted everything silently.
o2=$(sbrec 2 offset)
[ "$(sbrec 1 cpu)" = "$(sbrec 2 cpu)" ] || { echo "FAIL: records 1 and 2 of $S/sideband.bin are not of one CPU"; exit 1; }
copy sbmax; poke "$T/sbmax/sideband.bin" $((o1 + 8)) '<Q' 18446744073709551615
expect 3 "sideband.bin: damaged record at byte offset $o2: .* of CPU $(sbrec 2 cpu) at TSC $(sbrec 2 tsc), before the record ahead of it on that CPU (TSC 18446744073709551615): times go back" "$T/sbmax"
# Which thread ran, with the sideband lost (cut to 0 bytes, or to its first
# record: an exec, no thread switch) or damaged before its first switch
# (sbmax above): the sample's manifest lists one process, pid 7442, and its
# trigger names thread 7442/7442, the one thread of the whole decode
# (checked here). The trace is that process's, so the decode is the whole
# one, names and all, not pid 0 with every name [unknown].
awk '!/^#/ && $3 != "7442/7442" { exit 1 }' "$T/full.txt" ||
	{ echo "FAIL: the sample's decode has a thread other than 7442/7442"; exit 1; }
for cut in 0 "$o1"; do
	copy sblost; truncate -s "$cut" "$T/sblost/sideband.bin"
	expect 3 "sideband.bin is damaged: trace without a thread switch before it is attributed to the bundle's only process, pid 7442 demo, thread 7442 (the trigger's)" "$T/sblost"
	cmp -s "$T/o.txt" "$T/full.txt" || { echo "FAIL: sideband.bin cut to $cut bytes: the decode is not the whole one"; diff "$T/o.txt" "$T/full.txt" | head -5; fail=1; }
done
expect 3 "sideband.bin is damaged: trace without a thread switch before it is attributed to the bundle's only process, pid 7442" "$T/sbmax"
cmp -s "$T/o.txt" "$T/full.txt" || { echo "FAIL: sideband.bin with TSC 2^64-1: the decode is not the whole one"; fail=1; }
# A CPU number the kernel cannot have (the sideband's bound, 8192) is damage
copy cpubig
python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); m["cpus"][0]["cpu"] = 100000
json.dump(m, open(sys.argv[1], "w"), indent=1)' "$T/cpubig/manifest.json"
expect 1 "key cpus\[0\].cpu: CPU 100000: no x86-64 Linux kernel numbers CPUs past 8191 (NR_CPUS); the manifest is damaged, copy the bundle again" "$T/cpubig"
expect 2 "--cpu wants a number up to 8191, not '8192'" --pt "$S/cpu0.pt" --cpu 8192
expect 3 "gap(s) in the trace" --pt "$S/cpu0.pt" --cpu 8191 --format null
# the summary says so too
expect 3 "^warning: sideband.bin: damaged record at byte offset $o4" "$T/sbtime" --summary
grep -q "^ptscope decode: warning" "$T/err" && { echo "FAIL: the warning was printed twice with --summary"; fail=1; }

# Counts of one are said in the singular. Record 0 of the sample is an
# exec record (type 2, docs/abi.md): with size 16 (the header alone) it is
# shorter than its struct. A cut 1 byte after record 1 leaves 1 byte where a
# 16-byte header should be. A cpu0.pt 1 byte short or long is 1 byte missing
# or added.
[ "$(sbrec 0 offset)" = 0 ] && python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(2); sys.exit(struct.unpack("<H", d)[0] != 2)' "$S/sideband.bin" ||
	{ echo "FAIL: record 0 of $S/sideband.bin is not an exec record"; exit 1; }
copy sbexec; poke "$T/sbexec/sideband.bin" 2 '<H' 16
expect 3 "sideband.bin: damaged record at byte offset 0: an exec record of 16 bytes, its struct needs [0-9]*; no record before it is used, the $sbfull bytes from there on are not used" "$T/sbexec"
# a sideband missing altogether (a copy that did not finish): the trace is
# decoded without its records, as for one cut at 0 bytes
copy sbgone; rm "$T/sbgone/sideband.bin"
expect 3 "^ptscope decode: warning: sideband.bin is missing from the bundle (a copy that did not finish?): its $sbfull bytes of records are lost; copy the bundle again$" "$T/sbgone"
# a vdso missing: the rest decodes, the vdso's code with another
# process's copy of its size, else as gaps (the sample's trace never
# enters its vdso: nothing lost, exit 0, as for a damaged binary's copy)
copy vdgone; rm "$T/vdgone/vdso/7442.so"
expect 0 "^ptscope decode: warning: vdso/7442.so is missing from the bundle (a copy that did not finish?): pid 7442's vdso decodes with another process's copy of its size, else as gaps; copy the bundle again$" "$T/vdgone"
copy sbone; truncate -s $((o1 + 1)) "$T/sbone/sideband.bin"
expect 3 "sideband.bin: damaged record at byte offset $o1: only 1 byte left, a header needs 16 (truncated file?); the $o1 bytes before it are used, the 1 byte from there on is not used" "$T/sbone"
copy ptone; truncate -s $((full - 1)) "$T/ptone/cpu0.pt"
expect 3 "cpu0.pt: $((full - 1)) of $full bytes present (truncated copy?); decoding the bytes present, the missing 1 byte is a gap at the end of cpu 0" "$T/ptone"
copy ptlong1; printf '\0' >> "$T/ptlong1/cpu0.pt"
expect 0 "cpu0.pt: $((full + 1)) bytes, the manifest says $full: decoding the bytes the capture wrote; the 1 byte after them was added later and is ignored" "$T/ptlong1"
copy sblong1; printf '\0' >> "$T/sblong1/sideband.bin"
expect 0 "sideband.bin: $((sbfull + 1)) bytes, the manifest says $sbfull: using the records the capture wrote; the 1 byte after them was added later and is ignored" "$T/sblong1"
# a data file that is not a regular file, or a directory given as
# --perf-script: each says what to do
copy notreg; rm "$T/notreg/cpu0.pt"; mkdir "$T/notreg/cpu0.pt"
expect 1 "cpu0.pt (named by cpus\[0\].file) is not a regular file: copy the whole $T/notreg directory again" "$T/notreg"
expect 1 "^ptscope decode: --perf-script $T is a directory: give the file .perf script --itrace=cr --ns -F pid,tid,time,flags,ip,sym,symoff,dso,addr. wrote" --perf-script "$T"

# --kallsyms that is not a kallsyms file is refused; one with some bad
# lines is used, the bad lines counted and the first shown
printf 'garbage\nmore garbage here\n' > "$T/garbage.ks"
expect 1 "garbage.ks: no kallsyms lines (expected 'ADDRESS TYPE NAME \[MODULE\]' as in /proc/kallsyms)" --pt "$S/cpu0.pt" --kallsyms "$T/garbage.ks"
printf 'ffffffff81000000 T _stext\nffffffff81000100 T do_syscall_64\nnot a kallsyms line\nffffffffc0001000 t mod_fn\t[mymod]\n' > "$T/mixed.ks"
expect 3 "mixed.ks: 1 of 4 lines are not kallsyms lines, skipped (the first: line 3: 'not a kallsyms line')" --pt "$S/cpu0.pt" --kallsyms "$T/mixed.ks"
# a bundle's kallsyms that does not parse is a warning: the trace is still decoded
copy ks; mkdir -p "$T/ks/kernel"; printf 'garbage\n' > "$T/ks/kernel/kallsyms"
python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); m["kernel"] = {"kallsyms": {"file": "kernel/kallsyms", "size": 8}}
json.dump(m, open(sys.argv[1], "w"), indent=1)' "$T/ks/manifest.json"
expect 0 "kernel/kallsyms: no kallsyms lines .*: kernel code is named \[unknown\]" "$T/ks"
copy badjson; printf '{"format": "ptscope-bundle", "vers' > "$T/badjson/manifest.json"
expect 1 "manifest.json: bad JSON.*copy the bundle again" "$T/badjson"
# an empty manifest (a copy cut short) is said to be empty, with what to do
copy empty; : > "$T/empty/manifest.json"
expect 1 "manifest.json is empty (0 bytes): the bundle was cut short .*copy the whole $T/empty directory again .*capture again (ptscope run, attach or record -o $T/empty)$" "$T/empty"
printf '\n\0\0\0' > "$T/empty/manifest.json"
expect 1 "manifest.json is empty (4 bytes of white space or zeros)" "$T/empty"
copy ver; sed -i 's/"version": 1,/"version": 99,/' "$T/ver/manifest.json"
# a newer bundle names the program that wrote it (its producer), to decode it with
sed -i 's/"producer": "[^"]*"/"producer": "ptscope 7.2"/' "$T/ver/manifest.json"
expect 1 "manifest.json: bundle version 99 is not supported: this ptscope (.*) reads version 1; it was written by \"ptscope 7.2\": use a ptscope at least that new$" "$T/ver"
# a version below the first is no ptscope's: a damaged manifest
sed -i 's/"version": 99,/"version": 0,/' "$T/ver/manifest.json"
expect 1 "bundle version 0 is not supported: no ptscope wrote it (the first version is 1); the manifest is damaged, copy the bundle again$" "$T/ver"
mkdir "$T/emptydir"
expect 1 "manifest.json: No such file or directory: not a bundle, or the capture did not finish (the manifest is written last): give the NAME.ptscope directory that ptscope run, attach or record wrote$" "$T/emptydir"
# a capture's traces without its manifest: decodable as raw traces, said how
mkdir "$T/nomanifest" && cp "$S/cpu0.pt" "$T/nomanifest/"
expect 1 "; this one's traces decode as raw ones, without the manifest's CPU, timing and maps (ptscope decode --pt $T/nomanifest/cpu0.pt --cpu 0 --elf PROG ...)$" "$T/nomanifest"
echo x > "$T/afile"
expect 1 "not a directory" "$T/afile"
expect 1 "no such file.*give the NAME.ptscope directory" "$T/missing.ptscope"

# raw --pt that is not a regular file: a pipe would read as 0 bytes and its
# trace would be lost, so it is refused (the data is still in the pipe's source)
expect 1 "is a pipe (FIFO), not a regular file: copy it to a file" --pt <(cat "$S/cpu0.pt")
# a directory as --pt: a bundle is decoded without --pt, a folder holds the files
expect 1 "^ptscope decode: --pt $T is a directory: give a file of one CPU's raw trace (--pt FILE --cpu N, once per CPU)$" --pt "$T"
expect 1 "^ptscope decode: --pt $S is a capture bundle (it holds manifest.json): decode it without --pt (ptscope decode $S -o OUT)$" --pt "$S"
expect 1 "^ptscope decode: --perf-script $S is a directory: give the file .perf script --itrace=cr --ns -F pid,tid,time,flags,ip,sym,symoff,dso,addr. wrote (this is a capture bundle: ptscope decode $S -o OUT decodes it)$" --perf-script "$S"
# a file of another kind where a bundle or a trace goes (its first bytes
# say what it is: userland/lib/util/file_magic.h): what to give instead
# (a program copied out of the sample: one inside a bundle names the bundle, below)
cp "$S/objects/tmp/ptscope-sample/demo" "$T/demo"
D="$T/demo"
expect 1 "^ptscope decode: $D is an ELF file (a program or library), not a bundle (.*): it is the code of a trace: give it with --elf $D\[:BASE\] beside --pt TRACE$" "$D"
expect 1 "^ptscope decode: --pt $D is an ELF file (a program or library), not a raw PT trace" --pt "$D"
tar cf "$T/packed.tar" -C samples demo.ptscope
expect 1 "^ptscope decode: $T/packed.tar is a tar archive, not a bundle (.*): unpack it (tar xf $T/packed.tar) and decode the NAME.ptscope directory it holds$" "$T/packed.tar"
# a zip of the bundle, and a bzip2 tarball (python's, as zip and bzip2 may be absent)
python3 - "$T/packed.zip" "$T/packed.tar" "$T/packed.tar.bz2" <<-'EOF'
	import bz2, sys, zipfile
	with zipfile.ZipFile(sys.argv[1], "w") as z:
	    z.write("samples/demo.ptscope/manifest.json", "demo.ptscope/manifest.json")
	open(sys.argv[3], "wb").write(bz2.compress(open(sys.argv[2], "rb").read()))
	EOF
expect 1 "^ptscope decode: $T/packed.zip is a zip archive, not a bundle (.*): unpack it (unzip $T/packed.zip) and decode the NAME.ptscope directory it holds$" "$T/packed.zip"
expect 1 "^ptscope decode: $T/packed.tar.bz2 is bzip2-compressed, not a bundle (.*): a packed bundle unpacks with tar xf $T/packed.tar.bz2 (then decode the NAME.ptscope directory); a compressed trace or listing with bzcat $T/packed.tar.bz2 > FILE$" "$T/packed.tar.bz2"
gzip -c "$S/cpu0.pt" > "$T/cpu0.pt.gz"
expect 1 "^ptscope decode: --pt $T/cpu0.pt.gz is gzip-compressed, not a raw PT trace: a trace is read as it is; decompress it (zcat $T/cpu0.pt.gz > FILE) and give --pt FILE$" --pt "$T/cpu0.pt.gz"
printf 'PERFILE2' > "$T/perf.data"; head -c 200 /dev/zero >> "$T/perf.data"
expect 1 "^ptscope decode: --perf-script $T/perf.data is a perf.data file (perf record's), not perf script's text: ptscope reads the branches perf decodes from it: perf script .* -i $T/perf.data > branches.txt, then ptscope decode --perf-script branches.txt -o OUT$" --perf-script "$T/perf.data"
# a perf.data of no Intel PT recording (perf record -e cpu-clock): perf script
# would only say its samples have no ADDR; said, with the recording to make.
# perf_file_header by hand (perf's header.h): magic, size 104, attr_size,
# attrs, data at 104 (size 16), event_types, features (bit 18 AUXTRACE),
# then the data section: one record (u32 type, u16 misc, u16 size 16)
perfdata() {	# file, features word, type of the one record
	{ printf 'PERFILE2'; le64 104; le64 0; le64 0; le64 0; le64 104; le64 16; le64 0; le64 0
	  le64 "$2"; le64 0; le64 0; le64 0; le32 "$3"; printf '\0\0\x10\0'; le64 0; } > "$1"
}
le64() { printf "$(printf '%016x' "$1" | sed -E 's/(..)(..)(..)(..)(..)(..)(..)(..)/\\x\8\\x\7\\x\6\\x\5\\x\4\\x\3\\x\2\\x\1/')"; }
le32() { printf "$(printf '%08x' "$1" | sed -E 's/(..)(..)(..)(..)/\\x\4\\x\3\\x\2\\x\1/')"; }
perfdata "$T/clock.data" 0 9	# a PERF_RECORD_SAMPLE, no AUXTRACE bit
expect 1 "^ptscope decode: --perf-script $T/clock.data is a perf.data file (perf record's), not perf script's text, and it holds no Intel PT trace (no AUXTRACE feature nor AUXTRACE_INFO record: it was recorded without -e intel_pt//): perf decodes no branch from it. Record one with perf record -e intel_pt//u -- CMD, then perf script .* -i perf.data > branches.txt and ptscope decode --perf-script branches.txt -o OUT$" --perf-script "$T/clock.data"
expect 1 "^ptscope decode: $T/clock.data is a perf.data file (perf record's), not a bundle (.*), and it holds no Intel PT trace" "$T/clock.data"
# with the AUXTRACE bit, or an AUXTRACE_INFO record (a file another tool made): perf decodes it
perfdata "$T/pt1.data" $((1 << 18)) 9
expect 1 "^ptscope decode: --perf-script $T/pt1.data is a perf.data file (perf record's), not perf script's text: ptscope reads the branches perf decodes from it" --perf-script "$T/pt1.data"
perfdata "$T/pt2.data" 0 70
expect 1 "^ptscope decode: --perf-script $T/pt2.data is a perf.data file (perf record's), not perf script's text: ptscope reads the branches perf decodes from it" --perf-script "$T/pt2.data"
# another file or a folder of a bundle where the bundle goes: the bundle is named
expect 1 "^ptscope decode: $S/cpu0.pt is a file of the bundle $S: give the bundle, its directory (ptscope decode $S -o OUT)$" "$S/cpu0.pt"
expect 1 "^ptscope decode: $S/objects/tmp/ptscope-sample/demo is a file of the bundle $S: give the bundle" "$S/objects/tmp/ptscope-sample/demo"
expect 1 "^ptscope decode: $S/objects is a folder of the bundle $S: give the bundle" "$S/objects"
# a bundle's manifest where the bundle goes: the directory is the bundle
expect 1 "^ptscope decode: $S/manifest.json is a bundle's manifest: give the bundle, its directory (ptscope decode $S)$" "$S/manifest.json"
(cd "$S" && rc=0 && "$Pabs" decode manifest.json -o "$T/m.txt" 2> "$T/err" || rc=$?
 [ "$rc" = 1 ] && grep -q "^ptscope decode: manifest.json is a bundle's manifest: give the bundle, its directory (ptscope decode .)$" "$T/err") ||
	{ echo "FAIL: decode manifest.json inside the bundle: $(cat "$T/err")"; fail=1; }
(cd "$S" && rc=0 && "$Pabs" decode cpu0.pt -o "$T/m.txt" 2> "$T/err" || rc=$?
 [ "$rc" = 1 ] && grep -q "^ptscope decode: cpu0.pt is a file of the bundle .: give the bundle, its directory (ptscope decode . -o OUT)$" "$T/err") ||
	{ echo "FAIL: decode cpu0.pt inside the bundle: $(cat "$T/err")"; fail=1; }
# a cut copy of an ELF: its headers name code past its end, and no OFFSET was given to check
head -c 1000 "$S/objects/tmp/ptscope-sample/demo" > "$T/cut.elf"
expect 1 "^ptscope decode: $T/cut.elf: its executable PT_LOAD (file offset 0x[0-9a-f]*+0x[0-9a-f]*) runs past the end of the file (1000 bytes): a truncated copy? copy the ELF again$" --pt "$S/cpu0.pt" --elf "$T/cut.elf"
# an ELF for another machine (e_machine, bytes 18-19, set to 183, EM_AARCH64):
# Intel PT traces x86 code, so its bytes must not be decoded as x86
cp "$S/objects/tmp/ptscope-sample/demo" "$T/arm.elf"
printf '\xb7\x00' | dd of="$T/arm.elf" bs=1 seek=18 conv=notrunc 2> /dev/null
expect 1 "^ptscope decode: $T/arm.elf is an ELF for AArch64 (e_machine 183), not x86: Intel PT traces x86 code only; give the x86-64 (or i386) build of the traced program$" --pt "$S/cpu0.pt" --elf "$T/arm.elf"
# a directory where a file of code goes: a file is asked for, not a copy
expect 1 "^ptscope decode: code file $S is a directory, not a regular file: give a file (one in it?)$" --pt "$S/cpu0.pt" --elf "$S"

# --raw: a missing file, an OFFSET past the end and a directory each say which
expect 1 "^ptscope decode: --raw $T/missing.bin: No such file or directory: give the file of the code's bytes (--raw FILE:OFFSET:VADDR)$" --pt "$S/cpu0.pt" --raw "$T/missing.bin:0:0x1000"
head -c 100 "$S/cpu0.pt" > "$T/code.bin"
# the OFFSET is said in decimal (as the size) and hex, however it was given
expect 1 "OFFSET 4096 (0x1000) is past its end (100 bytes)" --pt "$S/cpu0.pt" --raw "$T/code.bin:0x1000:0x1000"
expect 1 "OFFSET 4096 (0x1000) is past its end (100 bytes)" --pt "$S/cpu0.pt" --raw "$T/code.bin:4096:0x1000"
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
# only the manifest and the files it names are the bundle's: an earlier
# decode's output inside the bundle directory may be written again
clobber "sideband.bin is a file of the bundle" "$T/keep" -o "$T/keep/sideband.bin" --format txt
for i in 1 2; do
	rc=0; "$P" decode "$T/keep" -o "$T/keep/out.txt" 2> "$T/err" || rc=$?
	[ $rc = 0 ] || { echo "FAIL: decode #$i to out.txt inside the bundle: exit $rc"; cat "$T/err"; fail=1; }
done
# a directory that is no bundle is said to be one, not "a file of the bundle"
mkdir -p "$T/nob/sub"; echo x > "$T/nob/sub/x.txt"
rc=0; ( cd "$T/nob/sub" && "$Pabs" decode "$T/nob" -o x.txt ) 2> "$T/err" || rc=$?
if [ $rc != 1 ] || ! grep -q "manifest.json: No such file or directory: not a bundle" "$T/err"; then
	echo "FAIL: decode of a directory without manifest.json: exit $rc"; cat "$T/err"; fail=1
else
	echo "ok: exit 1: $(cat "$T/err")"
fi
# a directory as -o is bad usage that says what to give instead
clobber "^ptscope decode: -o $T is a directory: name a file (in it, e.g. $T/trace.fxt)" "$S" -o "$T"
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
if [ $rc != 1 ] || ! grep -q "cannot write $T/il.txt: File too large: the instruction list is incomplete and not kept" "$T/err" ||
   ls "$T" | grep -q '^il\.txt'; then
	echo "FAIL: --insn-list over the file size limit: exit $rc, or a partial list left:"; cat "$T/err"; ls "$T" | grep '^il'; fail=1
else
	echo "ok: exit 1: $(cat "$T/err")"
fi
# --insn-list is written under a temporary name as -o is: a decode that
# fails (here: no manifest) keeps an existing file as it was
copy nomanifest; rm "$T/nomanifest/manifest.json"
echo precious > "$T/precious.lst"
rc=0
"$P" decode "$T/nomanifest" -o "$T/t.txt" --insn-list "$T/precious.lst" 2> "$T/err" || rc=$?
if [ $rc != 1 ] || [ "$(cat "$T/precious.lst")" != precious ] || ls "$T" | grep -q 'precious\.lst\.tmp'; then
	echo "FAIL: a failed decode changed --insn-list's file (exit $rc): $(head -c 20 "$T/precious.lst")"; fail=1
else
	echo "ok: exit 1, the existing --insn-list file is kept"
fi
# only the list fails (/dev/full: every write is ENOSPC): exit 1 means
# nothing was written, so the timeline is not renamed into place either
echo old > "$T/t.txt"
rc=0
"$P" decode "$S" -o "$T/t.txt" --insn-list /dev/full 2> "$T/err" || rc=$?
if [ $rc != 1 ] || [ "$(cat "$T/t.txt")" != old ] || ls "$T" | grep -q 't\.txt\.tmp' ||
   ! grep -q "cannot write /dev/full: No space left on device: the instruction list is incomplete and not kept; nor is the timeline $T/t.txt" "$T/err"; then
	echo "FAIL: --insn-list /dev/full: exit $rc, t.txt $(head -c 20 "$T/t.txt")"; cat "$T/err"; fail=1
else
	echo "ok: exit 1: $(cat "$T/err")"
fi
# -o and --insn-list naming one file: one would replace the other
clobber "are one file: one would replace the other" "$S" -o "$T/same.txt" --insn-list "$T/same.txt"
clobber "are one file" "$S" -o "$T/same.txt" --insn-list "$T/../$(basename "$T")/same.txt"
echo x > "$T/same.txt"
clobber "are one file" "$S" -o "$T/same.txt" --insn-list "$T/./same.txt"
# a list that cannot be created says what to do
expect 1 "cannot write the instruction list $T/nodir/il: No such file or directory; check that its directory exists" "$S" --insn-list "$T/nodir/il"

# --format null writes nothing and creates no file (docs/output-formats.md):
# it needs no -o. Run in an empty folder, which must stay empty.
mkdir "$T/nullcwd"
rc=0
Sabs=$(realpath "$S")
( cd "$T/nullcwd" && "$Pabs" decode "$Sabs" --format null ) > "$T/out" 2> "$T/err" || rc=$?
if [ $rc != 0 ] || [ -s "$T/out" ] || [ -s "$T/err" ] || [ -n "$(ls -A "$T/nullcwd")" ]; then
	echo "FAIL: --format null without -o: exit $rc (want 0, no output, no file)"; cat "$T/out" "$T/err"; ls -A "$T/nullcwd"; fail=1
else
	echo "ok: exit 0: --format null without -o"
fi

# a mistyped option: the option table's message with the command's name, and a
# pointer to --help instead of the 30-line usage
expect 2 "^ptscope decode: unknown option '--no-such-option' for ptscope decode (see ptscope decode --help)" "$S" --no-such-option
grep -qi "^usage:" "$T/err" && { echo "FAIL: bad option printed the whole usage"; fail=1; }

# timing values with trailing text or a sign are refused, not cut short
for m in 6/85/ 6/85/4/9 6/85x -6/85 6/85/+4; do
	expect 2 "--cpu-model wants FAMILY/MODEL" --pt "$S/cpu0.pt" --cpu-model "$m"
done
for c in 2,308x 2,-308 2,308,1; do
	expect 2 "--cpuid-15 wants EAX,EBX" --pt "$S/cpu0.pt" --cpuid-15 "$c"
done
# family 0 would mean no CPU at all; a model libipt does not know is said on stderr
# in raw mode as for a bundle (docs/decode.md, --cpu-model)
expect 2 "^ptscope decode: --cpu-model 0/0/0: family 0 is no CPU's" --pt "$S/cpu0.pt" --cpu-model 0/0/0
expect 3 "^ptscope decode: warning: CPU 99/1/1 (family/model/stepping) is unknown to libipt [0-9.]*: decoded without its errata workarounds; give --cpu-model with the nearest model" --pt "$S/cpu0.pt" --cpu-model 99/1/1 --format null
expect 0 "^ptscope decode: warning: CPU 99/1/1 (family/model/stepping) is unknown to libipt" "$S" --cpu-model 99/1/1 --format null
# a bundle's CPU overridden is said on stderr, naming both, without --summary
expect 0 "^ptscope decode: warning: --cpu-model 6/94/3: decoding with the errata of that CPU; the capture's CPU is 6/85/4" "$S" --cpu-model 6/94/3 --format null
# the capture's own CPU given again overrides nothing: nothing said (it said "6/85/4 ...
# the capture's CPU is 6/85/4")
rc=0; "$P" decode "$S" --cpu-model 6/85/4 --format null 2> "$T/err" || rc=$?
[ $rc = 0 ] && [ ! -s "$T/err" ] && echo "ok: --cpu-model of the capture's own CPU: nothing said" ||
	{ echo "FAIL: --cpu-model 6/85/4 on a 6/85/4 bundle: exit $rc: $(cat "$T/err")"; fail=1; }
# the well-formed values are taken (exit 3: ld.so's code is not given here)
expect 3 "gap(s) in the trace" --pt "$S/cpu0.pt" --cpu-model 6/85 --cpuid-15 2,168 --format null

# perf script input: nothing understood is an error, some lines not understood a note
printf 'garbage line\nmore garbage\n' > "$T/garbage.perf"
expect 1 "no perf script branch line in 2 line(s).*perf script --itrace=cr" --perf-script "$T/garbage.perf"
: > "$T/empty.perf"
expect 1 "no perf script branch line in 0 line(s): the input is empty (perf script wrote nothing: did it fail? A perf.data recorded without -e intel_pt// gives no branch); make it with perf script --itrace=cr" --perf-script "$T/empty.perf"
# a listing with one line that is not perf script's (the two branch lines
# in the format of perf script --itrace=cr, as tests/unit/test_decode_perfscript.c)
{
	echo 'garbage line'
	echo '1/2 10.000000100:   1 branches:u:   call   401000 main+0x5 (prog) =>   401100 foo+0x0 (prog)'
	echo '1/2 10.000000200:   1 branches:u:   return   401110 foo+0x10 (prog) =>   401005 main+0x5 (prog)'
} > "$T/mixed.perf"
expect 0 "1 perf script line(s) not understood, skipped" --perf-script "$T/mixed.perf"
exit $fail
