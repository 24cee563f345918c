#!/usr/bin/env bash
# ptscope decode never waits on, nor reads without bound, an input that is
# not a regular file or is larger than it may be (issue 20 items 2 and 3):
# a manifest.json that is a FIFO or a link to /dev/zero, --elf,
# --pevent-primary, --kallsyms and --kcore FIFOs, an uncopied object whose --sysroot path is a
# FIFO; one trace file given for two CPUs (item 5); a manifest larger than PTS_BUNDLE_MANIFEST_MAX (64 MiB); a 1 GiB
# (sparse) sideband read as it goes under a 512 MiB address-space limit.
# Each decode runs under `timeout`: a read that blocks is a failure (124),
# not a hung check.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
S=samples/demo.ptscope
[ -d "$S" ] || { echo "SKIP: no $S"; exit 77; }
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() {	# want-status grep-pattern args...
	local want=$1 pat=$2 rc=0
	shift 2
	rm -f "$T/o.txt"
	timeout 20 "$P" decode "$@" -o "$T/o.txt" > "$T/out" 2> "$T/err" < /dev/null || rc=$?
	if [ "$rc" != "$want" ] || ! grep -qi -- "$pat" "$T/out" "$T/err"; then
		echo "FAIL: decode $* -> exit $rc (want $want; 124: timed out), output:"
		head -c 600 "$T/out" "$T/err"; fail=1
	else
		echo "ok: exit $rc: $(grep -hi -- "$pat" "$T/out" "$T/err" | head -1)"
	fi
}
copy() { rm -rf "$T/$1"; cp -r "$S" "$T/$1"; }

# manifest.json a FIFO (nobody writes it) and a link to /dev/zero
copy fifo; rm "$T/fifo/manifest.json"; mkfifo "$T/fifo/manifest.json"
expect 1 "manifest $T/fifo/manifest.json is a pipe (FIFO), not a regular file" "$T/fifo"
copy zero; ln -sf /dev/zero "$T/zero/manifest.json"
expect 1 "manifest $T/zero/manifest.json is a device, not a regular file" "$T/zero"

# a manifest one byte over the documented 64 MiB: refused from its size
# (sparse: no disk used), before anything is read or parsed
copy big; truncate -s $(( (64 << 20) + 1 )) "$T/big/manifest.json"
expect 1 "manifest $T/big/manifest.json is 67108865 bytes, more than the 67108864" "$T/big"

# raw mode: --elf and --pevent-primary FIFOs
mkfifo "$T/pipe"
expect 1 "$T/pipe is a pipe (FIFO), not a regular file" --pt "$S/cpu0.pt" --elf "$T/pipe"
expect 1 "$T/pipe is a pipe (FIFO), not a regular file" --pt "$S/cpu0.pt" \
	--pevent-primary "$T/pipe" --pevent-sample-type 0x10086
expect 1 "kallsyms file $T/pipe is a pipe (FIFO), not a regular file" --pt "$S/cpu0.pt" \
	--kallsyms "$T/pipe"
mkdir "$T/kcore"; mkfifo "$T/kcore/kcore"
expect 1 "kcore $T/kcore/kcore is a pipe (FIFO), not a regular file.*--kcore wants a directory" \
	--pt "$S/cpu0.pt" --kcore "$T/kcore"

# one trace file given as two CPUs' traces, by its name and by a link:
# refused, it would decode twice (issue 20 item 5)
ln -s "$(realpath "$S/cpu0.pt")" "$T/other.pt"
expect 1 "and --pt $S/cpu0.pt (CPU 1) are one file: a trace file holds one CPU's trace" \
	--pt "$S/cpu0.pt" --cpu 0 --pt "$S/cpu0.pt" --cpu 1
expect 1 "and --pt $T/other.pt (CPU 3) are one file" --pt "$S/cpu0.pt" --cpu 2 --pt "$T/other.pt" --cpu 3

# --perf-script reads a stream: a pipe is fine (its text is decoded), a
# FIFO nobody writes reads as empty (no branch line: exit 1), never waits
expect 1 "$T/pipe: no perf script branch line in 0 line" --perf-script "$T/pipe"
expect 0 "^threads: 1" --summary --perf-script <(printf '%s\n' "1/1 1.000000001:  1 branches:u:  call  401000 main+0x0 (a.out) =>  401100 f+0x0 (a.out)")

# an object the bundle did not copy, found under --sysroot: there a FIFO.
# Its code is not available (a warning, decoded as gaps), nothing waits.
copy nocopy
python3 - "$T/nocopy/manifest.json" <<'EOF'
import json, sys
p = sys.argv[1]
m = json.load(open(p))
for o in m["objects"]:
    if o["path"].endswith("libdemo.so"):
        del o["file"], o["build_id"]
json.dump(m, open(p, "w"), indent=1)
EOF
mkdir -p "$T/root/tmp/ptscope-sample"
mkfifo "$T/root/tmp/ptscope-sample/libdemo.so"
expect 3 "code of /tmp/ptscope-sample/libdemo.so not available: .*is a pipe (FIFO), not a regular file" \
	"$T/nocopy" --sysroot "$T/root" --summary

# a 1 GiB sideband (the sample's 312 bytes, then zeros up to 1 GiB; the
# manifest says so): read as it goes, the first zero record is the damage.
# Read whole it would not fit in the 512 MiB of address space given.
copy sparse
sb=$(stat -c %s "$S/sideband.bin")
truncate -s $((1 << 30)) "$T/sparse/sideband.bin"
sed -i "s/\"size\": $sb,/\"size\": $((1 << 30)),/" "$T/sparse/manifest.json"
grep -q "\"size\": $((1 << 30))," "$T/sparse/manifest.json" ||
	{ echo "FAIL: could not set the sideband size in the manifest"; exit 1; }
rc=0
( ulimit -v 524288; timeout 60 "$P" decode "$T/sparse" -o "$T/o.txt" ) > "$T/out" 2> "$T/err" || rc=$?
if [ "$rc" != 3 ] || ! grep -q "sideband.bin: damaged record at byte offset $sb: type 0" "$T/err"; then
	echo "FAIL: 1 GiB sideband under a 512 MiB limit: exit $rc (want 3), output:"
	head -c 600 "$T/out" "$T/err"; fail=1
else
	echo "ok: 1 GiB sideband: $(grep -h "damaged record" "$T/err" | head -1)"
fi
exit $fail
