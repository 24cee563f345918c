#!/usr/bin/env bash
# qemu-trace's reading of a QEMU log, on a hand-written log in QEMU 7.2's
# format (tests/wsys/fixture/qemu.log) over a five-instruction program
# (prog.S) and a stub kernel: REP iterations retire once, an interrupt
# between iterations and a fault on a REP instruction leave it unretired,
# a "Stopped execution" TB did not run, a retranslated TB executes its new
# translation, SYSCALL/SYSRETQ/IRETQ move between rings. The expected
# ground truth and events (expected-*.txt) were derived by hand from the
# log by those rules (docs/whole-system-traces.md); libipt's decode of all
# bundles (three scopes, and the CPU) must then match the ground truth.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
F=tests/wsys/fixture
T=$B/qemu-trace-log
for t in qemu-trace ptsynth; do
	[ -x "$B/$t" ] || { echo "no $B/$t (make userland)"; exit 1; }
done
rm -rf "$T"
mkdir -p "$T"
as -o "$T/prog.o" "$F/prog.S" && ld -static -Ttext=0x401000 -e _start -o "$T/init" "$T/prog.o" ||
	{ echo "cannot assemble $F/prog.S"; exit 1; }
"$B/qemu-trace" --log "$F/qemu.log" --kallsyms "$F/kallsyms" --exe "$T/init" --out "$T/res" \
	> "$T/out.txt" 2>&1 || { cat "$T/out.txt"; echo "qemu-trace failed"; exit 1; }
rc=0
if ! grep '^[iab] ' "$T/res/both.ptscope/ground-truth.txt" | diff -u "$F/expected-both.txt" -; then
	echo "ground truth (both scope) differs from the hand-derived sequence"
	rc=1
fi
if ! grep -v '^#' "$T/res/events.txt" | diff -u "$F/expected-events.txt" -; then
	echo "events differ from the hand-derived list"
	rc=1
fi
for s in user kernel both cpu; do
	"$B/ptsynth" check "$T/res/$s.ptscope" || rc=1
done
[ $rc = 0 ] && echo "qemu-trace: the hand-written log gives the hand-derived instruction stream and events"
exit $rc
