#!/usr/bin/env bash
# ptscope decode options on a bundle (the shipped sample, one thread
# 7442/7442): --pid/--tid select a process or thread and --time START..END
# a window (as perf script's), -o FILE.json.gz / .fxt.gz / .txt.gz write
# gzip, and the options that cannot apply are refused instead of ignored:
# a second -o, --scope (a bundle records its own), a raw trace file given
# as the bundle. Every command's --help states its exit status, and
# `ptscope help CMD` prints it.
# Oracles: the full decode (a selection of everything is the same bytes),
# gzip -dc and build/fxtcheck (the independent readers), and for the
# window the full .txt read with awk: which slices are open at its edges.
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
S=samples/demo.ptscope
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
run() {	# want-status args...: decode, output in $T/out, $T/err
	local want=$1 rc=0
	shift
	"$P" decode "$@" > "$T/out" 2> "$T/err" || rc=$?
	[ "$rc" = "$want" ] || { bad "decode $* -> exit $rc, want $want: $(cat "$T/err")"; return 1; }
}

run 0 "$S" -o "$T/full.txt" && run 0 "$S" -o "$T/full.json" && run 0 "$S" -o "$T/full.fxt"

echo "-- --tid/--pid on a bundle select a thread/process"
for sel in "--tid 7442" "--pid 7442"; do
	run 0 "$S" $sel -o "$T/sel.txt" && { cmp -s "$T/sel.txt" "$T/full.txt" || bad "$sel: not the whole decode"; }
done
for sel in "--tid 1" "--pid 1"; do
	run 0 "$S" $sel -o "$T/none.txt" || continue
	n=$(grep -vc '^#' "$T/none.txt" || true)
	[ "$n" = 0 ] || bad "$sel: $n records of other threads kept"
	grep -q "nothing in the trace matches the --pid/--tid/--time selection: --summary lists the trace's threads" "$T/err" ||
		bad "$sel: no warning that nothing matched, with what to do"
	# and what there is to select: the sample's one thread (its manifest's pid), with its times
	grep -q "the times each was traced (7442/7442 demo, traced [0-9]* \.\. [0-9]* ns)$" "$T/err" ||
		bad "$sel: the warning does not name the trace's thread and times: $(cat "$T/err")"
done

echo "-- --tid 0/--pid 0 select the idle task (swapper), not everything"
# the sample has no task 0: nothing matches (0 was taken for "no selection")
for sel in "--tid 0" "--pid 0"; do
	run 0 "$S" $sel -o "$T/zero.txt" || continue
	n=$(grep -vc '^#' "$T/zero.txt" || true)
	[ "$n" = 0 ] || bad "$sel: $n records of other tasks kept"
	grep -q "nothing in the trace matches" "$T/err" || bad "$sel: no warning that nothing matched"
done
# perf script text of the idle task 0/0 (kernel) and of 1/1: only 0/0's records
printf '%s\n' \
	"0/0 1.000000001:  1 branches:k:  call  ffffffff81000000 idle+0x0 ([kernel.kallsyms]) =>  ffffffff81000100 cpu_idle+0x0 ([kernel.kallsyms])" \
	"1/1 1.000000002:  1 branches:u:  call  401000 main+0x0 (a.out) =>  401100 f+0x0 (a.out)" > "$T/idle.perf"
if run 0 --perf-script "$T/idle.perf" --tid 0 -o "$T/idle.txt"; then
	kept=$(grep -v '^#' "$T/idle.txt" | awk '{ print $3 }' | sort -u | tr '\n' ' ')
	[ "$kept" = "0/0 " ] && echo "ok: --tid 0 keeps the idle task's records alone" ||
		bad "--tid 0 on perf script text: kept '$kept', want '0/0 '"
fi

echo "-- --time START..END cuts the timeline at the window's edges"
s=11000 e=12500
run 0 "$S" --time 11us..${e}ns -o "$T/win.txt" && run 0 "$S" --time 11us..${e}ns -o "$T/win.fxt" || true
build/fxtcheck "$T/win.fxt" > /dev/null || bad "--time: the .fxt is not well formed"
awk -v s=$s -v e=$e '!/^#/ && $4 != "-" && ($1 < s || $1 > e) { bad++ } END { exit bad > 0 }' "$T/win.txt" ||
	bad "--time: records outside [$s, $e]"
# slices open at the start (begun before s, not ended by then) begin at s
open_s=$(awk -v s=$s '!/^#/ && $4 != "-" && $1 < s { if ($0 ~ / > /) n++; else if ($0 ~ / < /) n-- } END { print n }' "$T/full.txt")
inside=$(awk -v s=$s -v e=$e '!/^#/ && $1 >= s && $1 <= e && / > / { n++ } END { print n + 0 }' "$T/full.txt")
got_begin=$(grep -c ' > ' "$T/win.txt")
got_at_s=$(awk -v s=$s '$1 == s && / > /' "$T/win.txt" | wc -l)
[ "$got_begin" = $((open_s + inside)) ] || bad "--time: $got_begin slices, want $open_s open at $s + $inside begun inside"
[ "$got_at_s" -ge "$open_s" ] || bad "--time: $got_at_s slices begin at $s, want at least $open_s"
[ "$(grep -c ' < ' "$T/win.txt")" = "$got_begin" ] || bad "--time: not every slice ends"
# a BEGIN inside the window is the full decode's line, unchanged
awk -v s=$s -v e=$e '!/^#/ && $1 > s && $1 <= e && / > /' "$T/full.txt" > "$T/in.begins"
awk -v s=$s -v e=$e '$1 > s && / > /' "$T/win.txt" > "$T/win.begins"
cmp -s "$T/in.begins" "$T/win.begins" || bad "--time: the slices begun inside differ from the full decode"
for w in 5..1 1ms x..2 ..; do
	run 2 "$S" --time "$w" -o "$T/x.txt" && grep -q -- "--time" "$T/err" || bad "--time $w: no usage error"
done

echo "-- -o FILE.json.gz, .fxt.gz, .TXT.GZ are gzip"
run 0 "$S" -o "$T/d.json.gz" && { gzip -dc "$T/d.json.gz" | cmp -s - "$T/full.json" || bad ".json.gz is not the .json"; }
run 0 "$S" -o "$T/d.fxt.gz" && { gzip -dc "$T/d.fxt.gz" > "$T/d.fxt" && cmp -s "$T/d.fxt" "$T/full.fxt" &&
	build/fxtcheck "$T/d.fxt" > /dev/null || bad ".fxt.gz is not the .fxt"; }
run 0 "$S" -o "$T/D.TXT.GZ" && { gzip -dc "$T/D.TXT.GZ" | cmp -s - "$T/full.txt" || bad ".TXT.GZ is not the .txt"; }
ls "$T" | grep -q '\.tmp\.' && bad "a temporary file was left: $(ls "$T")"

echo "-- options that cannot apply are refused, not ignored"
run 2 "$S" -o "$T/a.txt" -o "$T/b.txt" && { grep -q -- "-o given twice" "$T/err" || bad "second -o: message"; }
[ ! -e "$T/a.txt" ] && [ ! -e "$T/b.txt" ] || bad "second -o: an output was written"
run 2 "$S" --scope kernel -o "$T/a.txt" && { grep -q "a bundle records its own scope" "$T/err" || bad "--scope on a bundle: message"; }
cp "$S/cpu0.pt" "$T/raw.pt"
run 1 "$T/raw.pt" -o "$T/a.txt" && { grep -q -- "use --pt $T/raw.pt" "$T/err" || bad "a raw trace as the bundle: no 'use --pt'"; }
# inside a bundle, the bundle is named instead
run 1 "$S/cpu0.pt" -o "$T/a.txt" && { grep -q -- "is a file of the bundle $S: give the bundle" "$T/err" || bad "a bundle's trace as the bundle: the bundle not named"; }

echo "-- every command's --help states its exit status"
for c in caps run attach record trigger status decode; do
	"$P" $c --help 2>&1 | grep -qi "exit status" || bad "ptscope $c --help says no exit status"
	# `ptscope help CMD`, as git's: the command's own help, not the list of commands
	[ "$("$P" help $c 2>&1)" = "$("$P" $c --help 2>&1)" ] || bad "ptscope help $c is not ptscope $c --help"
done
rc=0; "$P" help nosuch > /dev/null 2> "$T/err" || rc=$?
[ $rc = 2 ] && grep -q "unknown command 'nosuch'" "$T/err" || bad "ptscope help nosuch: rc $rc, $(head -n 1 "$T/err")"
"$P" --help | grep -q "decode: 3 decoded with gaps" || bad "ptscope --help: no exit status 3"

echo "-- a word that is no command: what was meant (before: \"unknown command 'X'\" alone)"
# cmd WORD WANT: ptscope WORD exits 2 and its first line is WANT
cmd() {
	local rc=0
	"$P" "$1" > /dev/null 2> "$T/err" || rc=$?
	[ $rc = 2 ] && [ "$(head -n 1 "$T/err")" = "$2" ] || bad "ptscope $1: rc $rc, '$(head -n 1 "$T/err")', want '$2'"
	grep -q "^Usage: ptscope COMMAND" "$T/err" || bad "ptscope $1: no usage after the message"
}
cmd decod "ptscope: unknown command 'decod': did you mean 'ptscope decode'?"
cmd recrod "ptscope: unknown command 'recrod': did you mean 'ptscope record'?"
cmd stats "ptscope: unknown command 'stats': did you mean 'ptscope status'?"
cmd report "ptscope: unknown command 'report': perf report's counterpart is 'ptscope decode' (ptscope decode --help)"
cmd "$S" "ptscope: '$S' is a directory, not a command: to decode a bundle, ptscope decode $S -o OUT.fxt"
cmd "$S/cpu0.pt" "ptscope: '$S/cpu0.pt' is a file, not a command: ptscope decode reads a bundle (a directory), --pt FILE or --perf-script FILE (ptscope decode --help)"
cmd nosuch "ptscope: unknown command 'nosuch'"
exit $fail
