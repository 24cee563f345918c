#!/usr/bin/env bash
# ptscope decode on bad input: clear messages and the documented exit
# status (0 clean, 1 error, 2 bad usage, 3 decoded with gaps). The trace
# is the shipped sample's; a truncated real capture is decoded by
# 60-decode-dynamorio.sh.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
PT=samples/demo.ptscope/cpu0.pt
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() {	# want-status grep-pattern args...
	local want=$1 pat=$2 rc=0
	shift 2
	"$P" decode "$@" > "$T/out" 2> "$T/err" || rc=$?
	if [ "$rc" != "$want" ] || ! grep -qi -- "$pat" "$T/out" "$T/err"; then
		echo "FAIL: decode $* -> exit $rc (want $want), output:"; cat "$T/out" "$T/err"
		fail=1
	else
		echo "ok: exit $rc: $(grep -hi -- "$pat" "$T/out" "$T/err" | head -1)"
	fi
}
expect 2 "unrecognized\|unknown\|usage" --no-such-option
expect 2 "nothing to decode" -o "$T/x.txt"
expect 2 "cannot tell the format" --pt "$PT" -o "$T/x.unknownext"
# fxt is binary: asking for it on standard output is bad usage (docs/output-formats.md)
expect 2 "cannot go to standard output" --pt "$PT" -o - --format fxt
# an input file that is not there: its option, and what the option wants
expect 1 "^ptscope decode: --pt $T/missing.pt: No such file or directory: give a file of one CPU's raw trace$" --pt "$T/missing.pt" -o "$T/x.txt"
expect 1 "^ptscope decode: --elf $T/missing.elf: No such file or directory: give the traced program or library" --pt "$PT" --elf "$T/missing.elf:0x1000" -o "$T/x.txt"
# -o in a directory that does not exist: the name given, not the temporary one
expect 1 "^ptscope decode: cannot create $T/nodir/x.fxt: No such file or directory; check that its directory exists" \
	samples/demo.ptscope -o "$T/nodir/x.fxt"
# refused before any work: no chunk of 0 bytes, no raw-PT option on a bundle
expect 2 "chunk-size wants 1 or more trace bytes" --pt "$PT" --chunk-size 0 -o "$T/x.txt"
expect 2 "elf is for raw --pt traces" samples/demo.ptscope --elf "$PT" -o "$T/x.txt"
expect 1 "not an ELF file: give raw code with --raw" --pt "$PT" --elf "$PT" -o "$T/x.txt"
# --raw cannot go with a bundle: a --vmlinux that is no ELF is told what to give
expect 1 "^ptscope decode: --vmlinux: $PT is not an ELF file: give the kernel's ELF image, vmlinux" \
	samples/demo.ptscope --vmlinux "$PT" -o "$T/x.txt"
# an empty trace file is said without --summary (it decodes to one gap)
: > "$T/empty.pt"
expect 3 "^ptscope decode: warning: --pt $T/empty.pt is empty (0 bytes): no trace of cpu 0 to decode" \
	--pt "$T/empty.pt" -o "$T/empty.txt"
# a buffer with no PSB: decoded, one gap saying why
head -c 300 /dev/zero > "$T/nopsb.pt"
expect 3 "no sync point" --pt "$T/nopsb.pt" -o "$T/nopsb.txt" --summary
# a --scope the trace contradicts (the sample is a user-space trace) is said, what to do included
expect 3 "^ptscope decode: warning: --scope kernel: [0-9]* events of the trace are impossible in it (user-space addresses): give the scope the trace was recorded with, or leave --scope out" --pt "$PT" --scope kernel --format null
rc=0; "$P" decode --pt "$PT" --scope user --format null 2> "$T/err" || rc=$?
! grep -q -- "--scope" "$T/err" || { echo "FAIL: --scope user of a user trace is said to be wrong"; cat "$T/err"; fail=1; }
# a raw trace without any code decodes as gaps only: said, with the options that give code
expect 3 "^ptscope decode: warning: no code given: .*give the program with --elf FILE\[:BASE\]" --pt "$PT" --format null
rc=0; "$P" decode --pt "$PT" --elf samples/demo.ptscope/objects/tmp/ptscope-sample/demo --format null 2> "$T/err" || rc=$?
! grep -q "no code given" "$T/err" || { echo "FAIL: no code given said with --elf"; cat "$T/err"; fail=1; }
# perf script text on standard input (--perf-script -), as perf's pipelines give it
printf '%s\n' '1/2 10.000000100:   1 branches:u:   call   401000 main+0x5 (prog) =>   401100 foo+0x0 (prog)' \
	'1/2 10.000000200:   1 branches:u:   return   401110 foo+0x10 (prog) =>   401005 main+0x5 (prog)' |
	"$P" decode --perf-script - -o "$T/stdin.txt" 2> "$T/err" && grep -q "call  *> foo (prog)" "$T/stdin.txt" ||
	{ echo "FAIL: --perf-script - did not read standard input:"; cat "$T/err" "$T/stdin.txt"; fail=1; }
# a raw trace's thread given by --tid alone is that thread of its own process, not of pid 0
"$P" decode --pt "$PT" --tid 5 -o - 2> /dev/null | grep -q "^# thread 5/5$" ||
	{ echo "FAIL: --tid 5 alone is not thread 5/5"; "$P" decode --pt "$PT" --tid 5 -o - 2>&1 | head -4; fail=1; }
# a file this user may not read (a capture copied with sudo is root's):
# read access is asked for, for --pt and for a bundle's own files alike.
# Root reads every file: as root the decodes run as nobody (setpriv).
asuser() { if [ "$(id -u)" != 0 ]; then "$@"; else setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; fi; }
if [ "$(id -u)" = 0 ] && ! command -v setpriv > /dev/null; then
	echo "SKIP part: unreadable inputs (root here, and no setpriv to decode as another user)"
else
	chmod 755 "$T"
	cp "$PT" "$T/mine.pt" && chmod 000 "$T/mine.pt"
	cp -r samples/demo.ptscope "$T/b.ptscope" && chmod -R a+rX "$T/b.ptscope" && chmod 000 "$T/b.ptscope/cpu0.pt"
	for c in "--pt $T/mine.pt:--pt $T/mine.pt: Permission denied: this user may not read it" \
		 "$T/b.ptscope:cannot open trace file $T/b.ptscope/cpu0.pt: Permission denied: this user may not read it (ls -l shows its owner and mode): give yourself read access (a bundle's whole directory: sudo chown -R \$USER DIR"; do
		rc=0
		# shellcheck disable=SC2086 # the options are several words
		asuser "$(realpath "$P")" decode ${c%%:*} --format null > "$T/out" 2> "$T/err" || rc=$?
		if [ "$rc" != 1 ] || ! grep -qF -- "${c#*:}" "$T/err"; then
			echo "FAIL: decode ${c%%:*} unreadable -> exit $rc (want 1 and '${c#*:}'):"; cat "$T/err"; fail=1
		else
			echo "ok: exit 1: $(head -c 120 "$T/err")"
		fi
	done
fi
# no output file is left behind on error
[ ! -e "$T/x.txt" ] || { echo "FAIL: output left after an error"; fail=1; }
exit $fail
