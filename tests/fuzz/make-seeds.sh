#!/usr/bin/env bash
# Regenerates tests/fuzz/corpus (docs/fuzzing.md): the seeds of each
# harness, among them the minimised reproducers of issue 20's findings.
# Needs a build (make, and make build/fuzz-data/user.elf ...). Seeds found
# by fuzzing and worth keeping are added by hand; this rewrites only the
# files it makes.
set -eu
cd "$(dirname "$0")/../.."
C=tests/fuzz/corpus
S=samples/demo.ptscope
D=build/fuzz-data
mkdir -p $C/{raw_pt,bundle,perfscript,pevent,kallsyms,elf,pardec,uprobe,debugfile} build
make -s $D/user.elf $D/kernel.elf $D/spin.bin
cc -O1 -o build/fuzz-mkseeds tests/fuzz/mkseeds.c -lipt
build/fuzz-mkseeds $C

# raw PT: the sample's trace (its code is not the harness's: gaps), user scope
{ printf '\064\001\003\025\000\000\000\001'; cat $S/cpu0.pt; } > $C/raw_pt/demo-cpu0

# parallel against serial decode (fuzz_pardec.c): the sample's trace in its
# bundle (the harness decodes an input's first KiB): its start in chunks of
# 32 B (a chunk per PSB), and the starts of three of its PSB periods in a
# KiB, chunks of 64 B, 3 workers; the decoder tests' trace in raw mode, on
# one CPU and split across two (mkseeds.c makes the others: joins, refused
# joins, runs of jumps across chunks, two CPUs of different lengths)
{ printf '\000\000\000\000'; head -c 1024 $S/cpu0.pt; } > $C/pardec/demo-chunk32
python3 - $S/cpu0.pt $C/pardec/demo-three-psbs-3jobs <<'PY'
import sys
s = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b"\x12\0\0\0" + s[0:340] + s[2048:2388] + s[4100:4444])
PY
{ printf '\001\000\000\001'; tail -c +9 $C/raw_pt/user-main; } > $C/pardec/user-main
{ printf '\201\050\000\001'; tail -c +9 $C/raw_pt/user-main-two-cpus; } > $C/pardec/user-main-two-cpus

# bundles: manifest, sideband, cpu0.pt with fuzz_bundle.c's separators
SB=$'\n@@ptscope-fuzz sideband.bin@@\n' CPU=$'\n@@ptscope-fuzz cpu0.pt@@\n'
bundle() {	# name manifest sideband cpu0
	{ cat "$2"; printf '%s' "$SB"; cat "$3"; printf '%s' "$CPU"; cat "$4"; } > $C/bundle/$1
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
bundle demo $S/manifest.json $S/sideband.bin $S/cpu0.pt
# item 3: a manifest followed by NUL bytes (once taken as blanks)
{ cat $S/manifest.json; head -c 64 /dev/zero; } > "$T/nul.json"
bundle manifest-nul-padded "$T/nul.json" $S/sideband.bin $S/cpu0.pt
# item 5: two cpus[] entries naming cpu0.pt
python3 - $S/manifest.json "$T/two.json" "$T/zero.json" "$T/objsize.json" "$T/objgone.json" \
	"$T/sbgone.json" "$T/vdgone.json" <<'PY'
import copy, json, sys
m = json.load(open(sys.argv[1]))
c = copy.deepcopy(m["cpus"][0]); c["cpu"] = 1
m2 = copy.deepcopy(m); m2["cpus"].append(c)
json.dump(m2, open(sys.argv[2], "w"), indent=1)
m3 = copy.deepcopy(m); m3["sideband"]["size"] += 4096
json.dump(m3, open(sys.argv[3], "w"), indent=1)
# a copy of a binary of another size than recorded (libdemo.so cut short):
# not read, its code gaps (docs/decode.md, "Damaged bundles")
m4 = copy.deepcopy(m)
next(o for o in m4["objects"] if o["path"].endswith("/libdemo.so"))["size"] += 1
json.dump(m4, open(sys.argv[4], "w"), indent=1)
# a copy of a binary, the sideband and the vdso missing from the bundle
# (a copy that did not finish): decoded as copies of 0 bytes (docs/decode.md)
m5 = copy.deepcopy(m)
next(o for o in m5["objects"] if o["path"].endswith("/libdemo.so"))["file"] += ".gone"
json.dump(m5, open(sys.argv[5], "w"), indent=1)
m6 = copy.deepcopy(m); m6["sideband"]["file"] = "sideband-gone.bin"
json.dump(m6, open(sys.argv[6], "w"), indent=1)
m7 = copy.deepcopy(m); m7["processes"][0]["vdso"]["file"] += ".gone"
json.dump(m7, open(sys.argv[7], "w"), indent=1)
PY
bundle two-cpus-one-file "$T/two.json" $S/sideband.bin $S/cpu0.pt
# item 3: a sideband running into zeros (a sparse file's hole)
{ cat $S/sideband.bin; head -c 4096 /dev/zero; } > "$T/sb"
bundle sideband-zeros "$T/zero.json" "$T/sb" $S/cpu0.pt
bundle object-copy-size-differs "$T/objsize.json" $S/sideband.bin $S/cpu0.pt
bundle object-copy-missing "$T/objgone.json" $S/sideband.bin $S/cpu0.pt
bundle sideband-missing "$T/sbgone.json" $S/sideband.bin $S/cpu0.pt
bundle vdso-missing "$T/vdgone.json" $S/sideband.bin $S/cpu0.pt
# the same with a --sysroot and perf's build-id cache holding libdemo.so
# (fuzz_bundle.c: (size / 5) % 4 picks them; blanks after the manifest
# give the seed that size)
padded() {	# name, manifest, (size / 5) % 4 wanted
	cp "$2" "$T/pad.json"
	bundle "$1" "$T/pad.json" $S/sideband.bin $S/cpu0.pt
	while n=$(stat -c %s $C/bundle/"$1"); [ $(( (n / 5) % 4 )) != "$3" ]; do
		printf ' ' >> "$T/pad.json"
		bundle "$1" "$T/pad.json" $S/sideband.bin $S/cpu0.pt
	done
}
padded object-copy-missing-sysroot "$T/objgone.json" 1
padded object-copy-missing-buildid-cache "$T/objgone.json" 2
padded object-copy-size-differs-sysroot "$T/objsize.json" 1
padded object-copy-size-differs-buildid-cache "$T/objsize.json" 2

# where a stripped binary's names are found (fuzz_debugfile.c): user.S
# linked with a build-id and a .gnu_debuglink to prog.debug, stripped, and
# its debug file, at each place the option byte names, with and without
# the sysroot, the original path and perf's build-id cache
DBG=$'\n@@ptscope-fuzz debug@@\n'
as -o "$T/u.o" tests/golden/decode/user.S
ld -static --build-id -Ttext=0x401000 -e _start -o "$T/u.elf" "$T/u.o"
objcopy --only-keep-debug "$T/u.elf" "$T/prog.debug"
strip -o "$T/u.stripped" "$T/u.elf"
objcopy --add-gnu-debuglink="$T/prog.debug" "$T/u.stripped" "$T/prog"
dbgseed() {	# name, option byte (octal), debug file
	{ printf "\\$2"; cat "$T/prog"; printf '%s' "$DBG"; cat "$3"; } > $C/debugfile/$1
}
dbgseed nowhere 000 "$T/prog.debug"
dbgseed sysroot-build-id 041 "$T/prog.debug"
dbgseed sysroot-debuglink-beside 142 "$T/prog.debug"
dbgseed sysroot-debuglink-usr-lib-debug 144 "$T/prog.debug"
dbgseed cache-debug 210 "$T/prog.debug"
dbgseed cache-origpath-elf 320 "$T/u.elf"
dbgseed cache-stripped-elf 320 "$T/u.stripped"
dbgseed everywhere 377 "$T/prog.debug"
# a debug file of another build-id everywhere: never taken
ld -static --build-id -Ttext=0x402000 -e _start -o "$T/o.elf" "$T/u.o"
dbgseed other-build-id-everywhere 377 "$T/o.elf"
# a file of each kind the decode's inputs refuse, as the binary
{ printf '\000'; printf 'PERFILE2'; head -c 120 /dev/zero; } > $C/debugfile/magic-perf-data
{ printf '\000'; printf 'x' | gzip -c; } > $C/debugfile/magic-gzip

# perf script text: every branch kind the parser knows, and 100 threads
# (item 4 in small: one call and return each)
cat > $C/perfscript/kinds <<'TXT'
100/101 1000.000000100:          1   branches:u:   tr strt                       0 [unknown] ([unknown]) =>           401000 _start+0x0 (a.out)
100/101 1000.000000110:          1   branches:u:   call                     401000 _start+0x0 (a.out) =>           401040 f1+0x0 (a.out)
100/101 1000.000000120:          1   branches:u:   jmp                      401045 f1+0x5 (a.out) =>           401060 f2+0x0 (a.out)
100/101 1000.000000130:          1   branches:u:   jcc                      401067 f2+0x7 (a.out) =>           401065 f2+0x5 (a.out)
100/101 1000.000000140:          1   branches:u:   return                   401069 f2+0x9 (a.out) =>           401005 _start+0x5 (a.out)
100/101 1000.000000150:          1   branches:u:   syscall                  40100a _start+0xa (a.out) =>                0 [unknown] ([unknown])
100/101 1000.000000160:          1   branches:u:   tr end  syscall          40100a _start+0xa (a.out) =>                0 [unknown] ([unknown])
100/101 1000.000000170:          1   branches:u:   tr strt                       0 [unknown] ([unknown]) =>           40100c _start+0xc (a.out)
100/101 1000.000000180:          1   branches:u:   call                     401013 _start+0x13 (a.out) =>           401080 f3+0x0 (a.out)
100/101 1000.000000190:          1   branches:uH:  hw int                   401080 f3+0x0 (a.out) => ffffffff81000060 asm_common_interrupt+0x0 ([kernel.kallsyms])
100/101 1000.000000200:          1   branches:kH:  iret             ffffffff81000065 asm_common_interrupt+0x5 ([kernel.kallsyms]) =>           401080 f3+0x0 (a.out)
 instruction trace error type 1 time 1000.000000210 cpu 0 pid 100 tid 101 ip 0x401080 code 7: Overflow packet
100/101 1000.000000220:          1   branches:u:   tr strt                       0 [unknown] ([unknown]) =>           401015 _start+0x15 (a.out)
100/101 1000.000000230:          1   branches:u:   async                    401015 _start+0x15 (a.out) =>                0 [unknown] ([unknown])
TXT
python3 - > $C/perfscript/threads-100 <<'PY'
for i in range(100):
    tid = 1000 + i
    t = 2472089.0 + i * 1e-6
    print(f"{tid}/{tid} {t:.9f}:          1   branches:uH:   call                     401000 main+0x0 (a.out) =>           401100 f+0x0 (a.out)")
    print(f"{tid}/{tid} {t + 5e-7:.9f}:          1   branches:uH:   return                   401105 f+0x5 (a.out) =>           401005 main+0x5 (a.out)")
PY

# kallsyms: text symbols, a module's, data and bad lines
cat > $C/kallsyms/basic <<'TXT'
ffffffff81000000 T entry_SYSCALL_64
ffffffff81000020 t do_syscall
ffffffff81000040 t do_exit
ffffffff81000060 T asm_common_interrupt
ffffffff81000080 t handle_irq
ffffffff81000100 D some_data
ffffffffc0000000 t ptscope_ioctl	[ptscope]
not a kallsyms line
ffffffff81000120 W weak_fn
TXT
# code outside the text sections (capture/ktext_extra.h): BPF programs and
# trampolines, ftrace trampolines, kprobe slots; one in the last page
cat > $C/kallsyms/extra-text <<'TXT'
ffffffff81000000 T _stext
ffffffffa0001000 t bpf_prog_6deef7357e7b4530_sd_fw_ingress	[bpf]
ffffffffa0001080 t bpf_prog_6deef7357e7b4530_sd_fw_egress	[bpf]
ffffffffa0003000 t bpf_trampoline_6442491234	[bpf]
ffffffffc0201000 t ftrace_trampoline	[__builtin__ftrace]
ffffffffc0210000 t kprobe_insn_page	[__builtin__kprobes]
ffffffffc0210040 T ptscope_ioctl	[ptscope]
fffffffffffff800 t optinsn_slot	[__builtin__kprobes]
TXT

# user-function triggers (fuzz_uprobe.c): a spec line, then the ELF file:
# the decoder tests' program (symbols without a size), an OFF that wraps
# round to an address before the symbol (once accepted: inside _start),
# and a library with two versions of foo (as test_capture_uprobe_sym.c)
uprobe() {	# name spec elf
	{ printf '%s\n' "$2"; cat "$3"; } > $C/uprobe/$1
}
uprobe user-f1 f1 $D/user.elf
uprobe user-f3-plus f3+8 $D/user.elf
uprobe user-f1-wraps f1+18446744073709551584 $D/user.elf
printf '.text\n.globl foo_v1\n.type foo_v1,@function\nfoo_v1: nop\nret\n.size foo_v1,2\n.globl foo_v2\n.type foo_v2,@function\nfoo_v2: nop\nnop\nret\n.size foo_v2,3\n.symver foo_v1,foo@VERS_1\n.symver foo_v2,foo@@VERS_2\n' > "$T/v.s"
printf 'VERS_1 { global: foo; local: *; };\nVERS_2 { global: foo; } VERS_1;\n' > "$T/v.map"
gcc -shared -nostdlib -Wl,--version-script="$T/v.map" -o "$T/libv.so" "$T/v.s"
strip -o "$T/libv.stripped.so" "$T/libv.so"
uprobe libv-foo-v1 foo@VERS_1 "$T/libv.so"
uprobe libv-stripped-foo foo "$T/libv.stripped.so"

# ELF images: the decoder tests' programs; item 6: section headers moved
# past the end of the file (e_shoff, ELF64 header offset 0x28)
cp $D/user.elf $C/elf/user.elf
cp $D/kernel.elf $C/elf/kernel.elf
cp $D/user.elf $C/elf/user-shoff-past-end.elf
printf '\000\000\000\100\000\000\000\000' |
	dd of=$C/elf/user-shoff-past-end.elf bs=1 seek=40 conv=notrunc status=none
# a stripped program whose functions only its .eh_frame bounds
as -o build/fuzz-fdes.o tests/fuzz/fdes.S
ld -static -s -e _start -Ttext=0x401000 -o $C/elf/user-fdes.elf build/fuzz-fdes.o

# the folded writer (each harness's writer choice set to folded, 4): raw PT
# and perf sideband by their option byte, the others by their size, padded
# with what the input ignores (PT's PAD packets are zero bytes; blank lines;
# bytes past an ELF's last section)
python3 - $C <<'PY'
import sys
c = sys.argv[1]
def put(dst, b):
    open(f"{c}/{dst}", "wb").write(b)
def size_mod(src, dst, mod, want, step, pad):
    b = open(f"{c}/{src}", "rb").read()
    while len(b) // step % mod != want:
        b += pad
    put(dst, b)
for src in ("user-main", "demo-cpu0", "user-main-two-cpus"):
    b = bytearray(open(f"{c}/raw_pt/{src}", "rb").read())
    b[0] = (b[0] & 0x8f) | 0x40
    put(f"raw_pt/{src}-folded", bytes(b))
b = bytearray(open(f"{c}/pevent/comm-mmap2-switch", "rb").read())
b[14] = 4
put("pevent/comm-mmap2-switch-folded", bytes(b))
# its MMAP2 (at 72, after the options and the COMM) recording a build-id
# (misc PERF_RECORD_MISC_MMAP_BUILD_ID: size, 3 reserved bytes, 20 bytes
# where maj, min and ino are), which user.elf (none) does not have, under
# --sysroot FUZZ_DATA and with it as perf's build-id cache
b[14] = 8 | 16
b[76:78] = (0x4002).to_bytes(2, "little")
b[112:136] = bytes([20, 0, 0, 0]) + bytes(range(0xa0, 0xb4))
put("pevent/mmap2-build-id-sysroot", bytes(b))
size_mod("perfscript/kinds", "perfscript/kinds-folded", 5, 4, 4, b"\n")
size_mod("bundle/demo", "bundle/demo-folded", 5, 4, 1, b"\0")
size_mod("elf/user.elf", "elf/user-folded.elf", 5, 4, 1, b"\0")
PY
ls $C/*
