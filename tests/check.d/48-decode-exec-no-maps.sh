#!/usr/bin/env bash
# A program whose exec the sideband records but whose maps the bundle does
# not have (it ran between two reads of the maps, 100 ms apart, or they
# could not be read): docs/decode.md, "exec without maps".
# 1. A static non-PIE program (tests/programs/forkexec.c, ELF type
#    ET_EXEC) traced by the reference encoder, its maps removed from the
#    manifest: its code is placed from the file the EXEC record names, at
#    its link addresses, and the decode lists exactly the instructions of
#    ptsynth's ground truth (the single-stepped execution), as it does with
#    the maps; said on --summary. Without the fallback it decoded 0
#    instructions and 2 gaps, unexplained.
# 2. The same with the EXEC's filename relative ("./forkexec", as execve
#    was given it; the working directory is not recorded): the one object
#    whose path ends in it is that file.
# 3. The shipped sample (a PIE, dynamically linked) without its maps: its
#    load address is in no record (execve returns into its dynamic
#    loader), so its code decodes as gaps (exit 3) and a notice on stderr
#    says why and what to do, without --summary.
# 4. Raw mode (--pt, --pevent-*): perf's exec record (COMM with the exec
#    flag) names no file; a hand-made perf sideband whose process execs
#    and maps nothing decodes as gaps and a notice names the process and
#    the --elf to give; given it, the decode is the ground truth's.
# 5. A static PIE (forkexec built -static-pie: ET_DYN, no PT_INTERP)
#    traced with --syscalls, maps removed: execve returns to its entry
#    point, so the SYS_EXIT of that execve (its IP) less e_entry is its
#    load bias; the decode lists exactly the ground truth's instructions
#    (the addresses single-stepped where the kernel put it, ASLR on).
#    Before: gaps. Without --syscalls, and with that record removed, gaps
#    and a notice saying why (and to capture with --syscalls).
set -u
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
B=${B:-build}
P=$B/ptscope
bin=$B/ptsynth-programs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

bash tests/ptsynth/build-programs.sh "$bin" || exit 1
"$B/ptsynth" run -q -o "$T/fe.ptscope" -- "$bin/forkexec" < /dev/null > /dev/null ||
	{ echo "FAIL: ptsynth run forkexec"; exit 1; }
readelf -h "$bin/forkexec" | grep -q "EXEC (Executable file)" ||
	{ echo "FAIL: $bin/forkexec is not an ET_EXEC program"; exit 1; }

# strip DIR: a copy of bundle DIR whose processes have no maps
strip() {
	rm -rf "$2"
	cp -r "$1" "$2"
	python3 - "$2/manifest.json" <<-'EOF'
	import json, sys
	m = json.load(open(sys.argv[1]))
	for p in m["processes"]:
	    p["maps_arm"] = []
	    p["maps_trigger"] = []
	    p.pop("maps_exec", None)
	json.dump(m, open(sys.argv[1], "w"), indent=2)
	EOF
}
# relative DIR NAME: its EXEC records name the program NAME (ptscope_sb_exec:
# hdr type 2, size, cpu, tsc; pid, tid, cr3, comm[16], filename NUL-padded to
# 8), the manifest's sideband size following
relative() {
	python3 - "$1/sideband.bin" "$2" "$1/manifest.json" <<-'EOF'
	import json, struct, sys
	d = open(sys.argv[1], "rb").read()
	out, off = b"", 0
	while off + 16 <= len(d):
	    t, size, cpu, tsc = struct.unpack_from("<HHIQ", d, off)
	    rec = d[off:off + size]
	    if t == 2:
	        name = sys.argv[2].encode() + b"\0"
	        name += b"\0" * (-len(name) % 8)
	        body = rec[16:48] + name
	        rec = struct.pack("<HHIQ", t, 16 + len(body), cpu, tsc) + body
	    out += rec
	    off += size
	open(sys.argv[1], "wb").write(out)
	m = json.load(open(sys.argv[3]))
	m["sideband"]["size"] = len(out)
	json.dump(m, open(sys.argv[3], "w"), indent=2)
	EOF
}
want=$(awk '/^i / { print $2 }' "$T/fe.ptscope/ground-truth.txt")
[ -n "$want" ] || { echo "FAIL: no instruction in the ground truth"; exit 1; }

# decode DIR TAG: exit status in $T/TAG.rc, stderr $T/TAG.err, summary $T/TAG.sum
decode() {
	local rc=0
	"$P" decode "$1" -o "$T/$2.txt" --insn-list "$T/$2.insn" --summary > "$T/$2.sum" \
		2> "$T/$2.err" || rc=$?
	echo $rc > "$T/$2.rc"
}

echo "-- 1. non-PIE, no maps: placed at its link addresses"
strip "$T/fe.ptscope" "$T/nomaps.ptscope"
decode "$T/fe.ptscope" full
decode "$T/nomaps.ptscope" nomaps
[ "$(cat "$T/full.insn")" = "$want" ] || bad "the bundle with its maps does not decode to the ground truth"
[ "$(cat "$T/nomaps.rc")" = 0 ] || bad "without maps: exit $(cat "$T/nomaps.rc"), want 0: $(cat "$T/nomaps.err")"
if [ "$(cat "$T/nomaps.insn")" = "$want" ]; then
	echo "ok: without maps: $(wc -l < "$T/nomaps.insn") instructions, the ground truth's"
else
	bad "without maps: $(wc -l < "$T/nomaps.insn") instructions, not the ground truth's $(wc -l <<< "$want"); $(grep -E '^(gaps|instructions)' "$T/nomaps.sum")"
fi
grep -q "^warning: pid [0-9]* exec'd $(realpath "$bin/forkexec") and no maps of it were read (it ran between two reads, 100 ms apart, or they failed): its code is decoded from the file at its link addresses (not a PIE)$" "$T/nomaps.sum" ||
	bad "no summary warning saying where the code came from: $(grep -i warn "$T/nomaps.sum")"

echo "-- 2. the EXEC's filename relative"
relative "$T/nomaps.ptscope" ./forkexec
decode "$T/nomaps.ptscope" rel
[ "$(cat "$T/rel.insn")" = "$want" ] || bad "relative ./forkexec: not the ground truth: $(grep -E '^(gaps|instructions|warning)' "$T/rel.sum")"
grep -i "warning" "$T/rel.sum" | grep -v "exec'd ./forkexec" && bad "relative: a warning of another cause"
grep -q "exec'd ./forkexec and no maps of it were read (.*): its code is decoded from the file at its link addresses" "$T/rel.sum" &&
	echo "ok: ./forkexec: the bundle's one object ending in it" || bad "relative: $(grep -i warn "$T/rel.sum")"

echo "-- 3. a PIE without maps: gaps, said without --summary"
strip samples/demo.ptscope "$T/pie.ptscope"
rc=0
"$P" decode "$T/pie.ptscope" -o "$T/pie.txt" 2> "$T/pie.err" || rc=$?
[ $rc = 3 ] || bad "PIE without maps: exit $rc, want 3 (gaps)"
grep -q "^ptscope decode: warning: pid 7442 exec'd /tmp/ptscope-sample/demo and no maps of it were read (it ran between two reads, 100 ms apart, or they failed): its code decodes as gaps (a PIE with a dynamic loader: no record gives its load address; trace it with 'ptscope run', which reads its maps at exec, or build it -no-pie)$" "$T/pie.err" &&
	echo "ok: PIE: $(grep -o "a PIE with [^)]*" "$T/pie.err")" || bad "PIE without maps: $(cat "$T/pie.err")"
# a kernel-only capture traced no user code: nothing to say of its programs
sed 's/"scope": "user"/"scope": "kernel"/' "$T/pie.ptscope/manifest.json" > "$T/m.json" &&
	mv "$T/m.json" "$T/pie.ptscope/manifest.json"
grep -q '"scope": "kernel"' "$T/pie.ptscope/manifest.json" || bad "no kernel-scope copy made"
"$P" decode "$T/pie.ptscope" -o "$T/kpie.txt" 2> "$T/kpie.err"
grep -q "exec'd" "$T/kpie.err" && bad "kernel scope: the programs' maps are said: $(cat "$T/kpie.err")"

echo "-- 4. raw mode: perf sideband with an exec and no mapping of the program"
# perf_event_header records (perf_event.h) with a sample_id trailer of
# sample_type TID|TIME|CPU (0x86): pid, tid; time; cpu, res. perf's time
# conversion given as shift 0, mult 1, zero 0: a record's time is the
# trace's TSC, so the EXEC (the bundle's, at the trace start) comes first.
tsc=$(python3 /dev/stdin "$T/fe.ptscope/sideband.bin" <<-'EOF'
	import struct, sys
	d = open(sys.argv[1], "rb").read()
	t, size, cpu, tsc = struct.unpack_from("<HHIQ", d, 0)
	print(tsc)
	EOF
)
pid=$(sed -n 's/^ *"pid": \([0-9]*\),$/\1/p' "$T/fe.ptscope/manifest.json" | head -1)
python3 - "$T/fe.pevent" "$pid" "$tsc" <<-'EOF'
	import struct, sys
	pid, tsc = int(sys.argv[2]), int(sys.argv[3])
	def rec(type, misc, payload):
	    trailer = struct.pack("<IIQII", pid, pid, tsc, 0, 0)
	    return struct.pack("<IHH", type, misc, 8 + len(payload) + len(trailer)) + payload + trailer
	itrace_start = rec(12, 0, struct.pack("<II", pid, pid))
	comm_exec = rec(3, 1 << 13, struct.pack("<II", pid, pid) + b"forkexec\0\0\0\0\0\0\0\0")
	open(sys.argv[1], "wb").write(itrace_start + comm_exec)
	EOF
mkdir -p "$T/root"
raw=(--pt "$T/fe.ptscope/cpu0.pt" --cpu 0 --cpu-model 6/85/4 --pevent-primary "$T/fe.pevent"
     --pevent-sample-type 0x86 --pevent-time-shift 0 --pevent-time-mult 1 --pevent-time-zero 0
     --sysroot "$T/root")
rc=0
"$P" decode "${raw[@]}" -o "$T/raw.txt" 2> "$T/raw.err" || rc=$?
[ $rc = 3 ] || bad "raw, no mapping: exit $rc, want 3 (gaps)"
grep -q "^ptscope decode: warning: perf sideband: pid $pid (forkexec) exec'd at $tsc ns and no MMAP record after it maps its program's file (perf records no path at an exec): its code decodes as gaps; give it with --elf FILE (non-PIE: at its link addresses) or --elf FILE:BASE (PIE: BASE its load address, from /proc/PID/maps where it ran)$" "$T/raw.err" &&
	echo "ok: raw: the exec without a mapping said, with --elf" || bad "raw, no mapping: $(cat "$T/raw.err")"
# the --elf it names: the ground truth's instructions, and nothing said
rc=0
"$P" decode "${raw[@]}" --elf "$bin/forkexec" -o "$T/raw2.txt" --insn-list "$T/raw2.insn" \
	2> "$T/raw2.err" || rc=$?
[ $rc = 0 ] && [ "$(cat "$T/raw2.insn")" = "$want" ] &&
	echo "ok: raw with --elf: $(wc -l < "$T/raw2.insn") instructions, the ground truth's" ||
	bad "raw with --elf: exit $rc, $(wc -l < "$T/raw2.insn") instructions: $(cat "$T/raw2.err")"
grep -q "exec'd" "$T/raw2.err" && bad "raw with --elf: the exec is still said: $(cat "$T/raw2.err")"

echo "-- 5. a static PIE, its execve's return recorded (--syscalls)"
gcc -O1 -g -fno-optimize-sibling-calls -static-pie -o "$T/fe_spie" tests/programs/forkexec.c ||
	{ echo "FAIL: gcc -static-pie"; exit 1; }
readelf -h "$T/fe_spie" | grep -q "DYN (Position-Independent" && ! readelf -l "$T/fe_spie" | grep -q INTERP ||
	{ echo "FAIL: $T/fe_spie is not a static PIE"; exit 1; }
"$B/ptsynth" run -q --syscalls -o "$T/sp.ptscope" -- "$T/fe_spie" < /dev/null > /dev/null &&
"$B/ptsynth" run -q -o "$T/sp0.ptscope" -- "$T/fe_spie" < /dev/null > /dev/null ||
	{ echo "FAIL: ptsynth run fe_spie"; exit 1; }
spwant=$(awk '/^i / { print $2 }' "$T/sp.ptscope/ground-truth.txt")
first=$(head -1 <<< "$spwant")
entry=$(readelf -h "$T/fe_spie" | sed -n 's/ *Entry point address: *//p')
bias=$(printf '0x%x' $((0x$first - entry)))
strip "$T/sp.ptscope" "$T/spn.ptscope"
decode "$T/spn.ptscope" spn
[ "$(cat "$T/spn.rc")" = 0 ] && [ "$(cat "$T/spn.insn")" = "$spwant" ] &&
	echo "ok: static PIE: $(wc -l < "$T/spn.insn") instructions, the ground truth's (load bias $bias)" ||
	bad "static PIE: exit $(cat "$T/spn.rc"), $(wc -l < "$T/spn.insn") instructions, want $(wc -l <<< "$spwant"): $(grep -E '^(gaps|warning)' "$T/spn.sum")"
grep -q "^warning: pid [0-9]* exec'd $T/fe_spie and no maps of it were read (.*): its code is decoded from the file moved by $bias (a static PIE: execve returned to its entry, 0x$first)$" "$T/spn.sum" ||
	bad "static PIE: no summary warning with the bias $bias: $(grep -i warn "$T/spn.sum")"
strip "$T/sp0.ptscope" "$T/sp0n.ptscope"
rc=0
"$P" decode "$T/sp0n.ptscope" -o "$T/sp0n.txt" 2> "$T/sp0n.err" || rc=$?
[ $rc = 3 ] && grep -q "its code decodes as gaps (a static PIE: its load address is where execve returned, recorded only with --syscalls; capture with --syscalls, or trace it with 'ptscope run')$" "$T/sp0n.err" &&
	echo "ok: static PIE without --syscalls: gaps, said" || bad "static PIE without --syscalls: exit $rc: $(cat "$T/sp0n.err")"
# the execve's SYS_EXIT (type 10) dropped: lost, nothing to place it by
python3 - "$T/spn.ptscope/sideband.bin" "$T/spn.ptscope/manifest.json" <<-'EOF'
	import json, struct, sys
	d = open(sys.argv[1], "rb").read()
	out, off = b"", 0
	while off + 16 <= len(d):
	    t, size, cpu, tsc = struct.unpack_from("<HHIQ", d, off)
	    if not (t == 10 and struct.unpack_from("<q", d, off + 24)[0] == 59):
	        out += d[off:off + size]
	    off += size
	open(sys.argv[1], "wb").write(out)
	m = json.load(open(sys.argv[2]))
	m["sideband"]["size"] = len(out)
	json.dump(m, open(sys.argv[2], "w"), indent=2)
	EOF
rc=0
"$P" decode "$T/spn.ptscope" -o "$T/spl.txt" 2> "$T/spl.err" || rc=$?
[ $rc = 3 ] && grep -q "its code decodes as gaps (a static PIE whose execve return is not in the sideband (records lost?): no record gives its load address)$" "$T/spl.err" &&
	echo "ok: static PIE, execve's return missing: gaps, said" || bad "static PIE, no execve return: exit $rc: $(cat "$T/spl.err")"
exit $fail
