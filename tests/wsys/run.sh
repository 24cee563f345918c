#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-wsys: whole-system reference traces from a QEMU log
# (docs/whole-system-traces.md).
#
# Boots a Debian 6.1 kernel (nokaslr, one CPU, TCG) with tests/wsys/wsys-init.c
# as /init, logs its workload with `log exec,nochain,int,in_asm`, turns the
# log into PT bundles for the user, kernel and both scopes of the task and
# for every task on the CPU (build/qemu-trace) and checks:
#   1. libipt's decode of each stream equals the ground truth, instruction
#      for instruction (ptsynth check), and ptscope decode exits 0;
#   2. ptscope decode's timelines show the logged syscalls, page faults and
#      interrupts where they belong (check-timeline.py);
#   3. perf 6.1 (through ../shared/tools/mkperfdata.py) decodes as many
#      instructions as the ground truth holds;
#   4. the window is large enough (>= 5e5 instructions, >= 10 syscalls,
#      >= 10 page faults, >= 50 interrupts);
#   5. the timeline check fails on a timeline that treats a page fault like
#      a call (WSYS_BREAK=fault-as-call): the check can fail.
# Exit status 0 when all pass. Output in $B/wsys (B=build by default).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
W=$ROOT/tests/wsys
OUT=$B/wsys
CACHE=$W/cache
SHARED=$ROOT/../shared
T0=$(date +%s)
fails=0

say() { echo "wsys: $*"; }
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

for t in qemu-trace ptsynth ptscope; do
	[ -x "$B/$t" ] || { say "no $B/$t: run make userland first"; exit 1; }
done
for c in qemu-system-x86_64 cpio gzip gcc python3 nm; do
	command -v $c > /dev/null || { say "$c is not installed (apt-get install qemu-system-x86 cpio gzip gcc python3 binutils)"; exit 1; }
done

# ---- kernel: newest installed 6.1 headers give the ABI; vmlinuz from its package
KVER=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2> /dev/null | sed 's|.*/linux-headers-||' |
	grep -v -- '-rt-\|-cloud-' | sort -V | tail -n 1)
[ -n "$KVER" ] || { say "no /usr/src/linux-headers-6.1.*-amd64 (apt-get install linux-headers-amd64)"; exit 1; }
mkdir -p "$CACHE" "$OUT"
VMLINUZ=
for f in "$CACHE/vmlinuz-$KVER" "$ROOT/tests/vm/cache/vmlinuz-$KVER"; do
	[ -s "$f" ] && { VMLINUZ=$f; break; }
done
if [ -z "$VMLINUZ" ]; then
	tmp=$(mktemp -d)
	chmod 777 "$tmp"
	for pkg in "linux-image-$KVER-unsigned" "linux-image-$KVER"; do
		(cd "$tmp" && apt-get download -q "$pkg") > "$OUT/apt.log" 2>&1 || continue
		deb=$(ls "$tmp"/*.deb | head -n 1)
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "./boot/vmlinuz-$KVER" 2> /dev/null &&
			mv "$tmp/boot/vmlinuz-$KVER" "$CACHE/vmlinuz-$KVER" && break
	done
	rm -rf "$tmp"
	VMLINUZ=$CACHE/vmlinuz-$KVER
	[ -s "$VMLINUZ" ] || { say "cannot get vmlinuz-$KVER (see $OUT/apt.log)"; exit 1; }
fi
say "kernel $KVER ($VMLINUZ)"

# ---- guest: the workload as /init of a minimal initramfs
rm -rf "$OUT/root" "$OUT/res"
mkdir -p "$OUT/root/proc" "$OUT/root/dev"
gcc -static -O2 -Wall -Wextra -Werror -o "$OUT/init" "$W/wsys-init.c" || { say "guest build failed"; exit 1; }
cp "$OUT/init" "$OUT/root/init"
(cd "$OUT/root" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$OUT/initramfs.cpio.gz"

# ---- run and log
if ! timeout -k 5 240 python3 "$W/qemu-run.py" "$VMLINUZ" "$OUT/initramfs.cpio.gz" "$OUT/vm"; then
	say "the VM run failed (see $OUT/vm/console.txt)"
	exit 1
fi
say "log: $(du -m "$OUT/vm/qemu.log" | cut -f1) MB"

# ---- reconstruct and encode
if ! "$B/qemu-trace" --log "$OUT/vm/qemu.log" --kallsyms "$OUT/vm/kallsyms" --exe "$OUT/init" \
	--out "$OUT/res" | tee "$OUT/qemu-trace.txt"; then
	fail "qemu-trace: the log does not give one consistent instruction stream"
	exit 1
fi
rm -f "$OUT/vm/qemu.log"	# 100 MB; the bundles hold what the checks need

# ---- 1. libipt decode == ground truth (the task in three scopes; the CPU)
for s in user kernel both cpu; do
	if "$B/ptsynth" check "$OUT/res/$s.ptscope" > "$OUT/res/check-$s.txt" 2>&1; then
		pass "libipt $s: $(sed 's/.*: OK: //' "$OUT/res/check-$s.txt")"
	else
		fail "libipt $s: $(cat "$OUT/res/check-$s.txt")"
	fi
done

# ---- 2. ptscope decode timelines
for s in user kernel both cpu; do
	"$B/ptscope" decode "$OUT/res/$s.ptscope" -o "$OUT/res/$s.txt" --summary > "$OUT/res/summary-$s.txt" 2>&1
	rc=$?
	[ $rc = 0 ] || fail "ptscope decode $s: exit status $rc (see $OUT/res/summary-$s.txt)"
done
EV=$OUT/res/events.txt
if python3 "$W/check-timeline.py" "$EV" "$OUT/init" "$OUT/res/both.txt" "$OUT/res/user.txt" \
	"$OUT/res/kernel.txt" > "$OUT/res/timeline.txt"; then
	pass "timeline: $(tail -n 2 "$OUT/res/timeline.txt" | head -n 1 | sed 's/check-timeline: //')"
else
	fail "timeline:"
	cat "$OUT/res/timeline.txt"
fi

# ---- 5. the check fails on a wrong rule
if WSYS_BREAK=fault-as-call python3 "$W/check-timeline.py" "$EV" "$OUT/init" "$OUT/res/both.txt" \
	"$OUT/res/user.txt" "$OUT/res/kernel.txt" > "$OUT/res/timeline-broken.txt"; then
	fail "timeline check passed a timeline with a page fault as a call"
else
	pass "timeline check rejects a page fault treated as a call: $(grep -m1 FAIL "$OUT/res/timeline-broken.txt" | sed 's/check-timeline: //')"
fi

# ---- 3. perf 6.1 instruction count
if command -v perf > /dev/null && [ -f "$SHARED/tools/mkperfdata.py" ]; then
	for s in user kernel both cpu; do
		b=$OUT/res/$s.ptscope
		want=$(grep -c '^i ' "$b/ground-truth.txt")
		rm -rf "$OUT/res/perf-$s"
		python3 "$SHARED/tools/mkperfdata.py" -o "$OUT/res/perf-$s" --pt "$b/cpu0.pt" --cpu 0 \
			--image "$b/objects/init:0x401000" --pid 1 --comm init \
			--cpu-model 6/85/4 --mtc-freq 3 --nom-freq 21 --tsc-ctc 168/2 \
			--kernel-image "$b/kernel/vmlinux.text:$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"]["text"][0]["vaddr"])' "$b/manifest.json")" \
			> /dev/null 2>&1 || { fail "mkperfdata $s"; continue; }
		got=$(perf script -i "$OUT/res/perf-$s" --itrace=i0ns -F ip 2> /dev/null | wc -l)
		if [ "$got" = "$want" ]; then
			pass "perf $s: $got instructions, as the ground truth"
		else
			fail "perf $s: $got instructions, ground truth $want"
		fi
		rm -rf "$OUT/res/perf-$s"
	done
else
	fail "perf or ../shared/tools/mkperfdata.py missing (apt-get install linux-perf)"
fi

# ---- 3b. decoder fidelity (docs/fidelity.md): every instruction against
# libipt, branch events against perf, /init's frames against the ground
# truth, on the four bundles; differences only as tests/fidelity lists them
if command -v perf > /dev/null && [ -f "$SHARED/tools/mkperfdata.py" ]; then
	fargs=()
	# kernel scope: no /init frames to compare (no (c))
	fargs+=(--bundle "wsys-kernel=$OUT/res/kernel.ptscope")
	for s in user both cpu; do
		fargs+=(--bundle "wsys-$s=$OUT/res/$s.ptscope:/init")
	done
	if python3 "$ROOT/tests/fidelity/fidelity.py" --build "$B" --work "$OUT/fidelity" \
		--allow "$ROOT/tests/fidelity/known-differences" --shared "$SHARED" "${fargs[@]}" \
		> "$OUT/res/fidelity.txt" 2>&1; then
		pass "fidelity: $(tail -1 "$OUT/res/fidelity.txt" | sed 's/^fidelity: //')"
	else
		fail "fidelity (see $OUT/res/fidelity.txt)"
	fi
	sed -n 's/^fidelity: /  /p' "$OUT/res/fidelity.txt"
fi

# ---- 4. window size
n_insn=$(grep -c '^i ' "$OUT/res/both.ptscope/ground-truth.txt")
n_sys=$(grep -c '^syscall ' "$EV")
n_pf=$(grep -c '^exception [03] [0-9a-f]* asm_exc_page_fault ' "$EV")
n_irq=$(grep -c '^interrupt ' "$EV")
say "window: $n_insn instructions of /init, $n_sys syscalls, $n_pf page faults, $n_irq interrupts"
if [ "$n_insn" -ge 500000 ] && [ "$n_sys" -ge 10 ] && [ "$n_pf" -ge 10 ] && [ "$n_irq" -ge 50 ]; then
	pass "window size"
else
	fail "window too small (need >= 500000 instructions, 10 syscalls, 10 page faults, 50 interrupts)"
fi

say "$(( $(date +%s) - T0 )) s"
[ $fails = 0 ] && { say "all passed"; exit 0; }
say "$fails failed"
exit 1
