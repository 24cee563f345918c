#!/usr/bin/env bash
# Reference encoder self-check (issue 6): single-step real programs with
# ptsynth and decode the produced stream with libipt's instruction
# decoder: every instruction and every disable/enable must match the
# ground truth. Programs: recursion + function pointers + setjmp/longjmp
# + signal handlers + shared-library calls (cfeatures), a C++ throw and
# catch (cxx_throw), clock_gettime through the vdso (vdso_clock), two
# threads with a mutex and pthread_join (threads), signal handlers in
# every shape (signals), tail calls (tailcalls), and /bin/true.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
bin=$B/ptsynth-programs
work=$B/ptsynth-check/selfcheck
bash tests/ptsynth/build-programs.sh "$bin"
rm -rf "$work"
mkdir -p "$work"

run() {
	local name=$1
	shift
	# stdin from /dev/null: the traced program must not read the terminal.
	# Stable addresses: the streams, and where their PSBs fall, change
	# only with where the timer signals land and how threads interleave
	# (75-fidelity compares these bundles with perf).
	"$B/ptsynth" run --no-aslr -o "$work/$name.ptscope" -- "$@" </dev/null >"$work/$name.out"
	"$B/ptsynth" check "$work/$name.ptscope"
}

run cfeatures "$bin/cfeatures"
grep -q '^sum=262 v0=1 usr1=10 alarm=1$' "$work/cfeatures.out"
# The timer signal interrupted user code: an asynchronous disable (FUP +
# TIP.PGD) must be in the ground truth, else the signal path went untested.
grep -q '^a ' "$work/cfeatures.ptscope/ground-truth.txt"
run cxx_throw "$bin/cxx_throw"
grep -q '^caught=1$' "$work/cxx_throw.out"
run vdso_clock "$bin/vdso_clock"
# clock_gettime ran in the vdso: instructions inside its image section.
vdso=$(awk '$1 == "m" && $5 ~ /^vdso\// { print $2, $3 }' "$work/vdso_clock.ptscope/ground-truth.txt")
[ -n "$vdso" ]
perl -e '($lo, $hi) = map { hex } split / /, shift; $n = 0;
	while (<>) { $n++ if /^i (\S+)/ && hex($1) >= $lo && hex($1) < $hi }
	die "only $n vdso instructions\n" if $n < 20; print "$n instructions in the vdso\n"' \
	"$vdso" "$work/vdso_clock.ptscope/ground-truth.txt"
run threads "$bin/threads"
grep -q '^total=377 144 233$' "$work/threads.out"
# Two workers and the main thread shared the modelled CPU: context
# switches (t records) and a thread list of three in the manifest.
[ "$(grep -c '^t ' "$work/threads.ptscope/ground-truth.txt")" -ge 3 ]
# Signal handlers in every shape (issue 13): raised, nested, timer signals
# (one arriving inside its own handler), an alternate stack, siglongjmp.
# Where a timer signal lands depends on the load: in a loop (FUP +
# TIP.PGD) or at a system call's return; both are compared downstream.
run signals "$bin/signals"
grep -q '^usr1=66 usr2=72 alarm=2 alt=1 jump=138 r=19$' "$work/signals.out"
# Tail calls (sibling calls on): jumps to function entries.
run tailcalls "$bin/tailcalls"
grep -q '^chain=34 even=0 f=11$' "$work/tailcalls.out"
run true /bin/true
echo "ptsynth self-check: 7 programs decode exactly"
