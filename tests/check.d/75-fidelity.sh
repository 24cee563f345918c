#!/usr/bin/env bash
# Decoder fidelity (docs/fidelity.md, issue 13): on every stream of the
# corpus, `ptscope decode` against libipt's instruction decoder (every
# instruction), perf 6.1's decoder (calls, returns, system calls,
# interrupts, trace begin/end) and the reference encoder's ground truth
# (the stack of the executable's frames at every call), in one table.
# Differences must be listed in tests/fidelity/known-differences with
# their reason (a known defect or a justified difference); an entry that
# no longer shows fails too.
#
# Streams: the reference-encoder programs (tests/programs, bundles of
# 40-ptsynth-selfcheck reused when present; stable addresses), a
# stripped C++ program, Debian's gzip (stripped), the two
# with timer signals again with timers that run out inside setitimer
# (the signals arrive at its exit in every run), one of them cut at its last
# PSB (a trace that ends without a disable, as snapshots do), OCaml's
# raises (also out of a recursion deeper than the timeline shows), Go's
# goroutines (the runtime's stack switches; skipped, said, without go), the
# whole-system fixture bundles of 70-qemu-trace-log (user, kernel, both
# scopes and the whole CPU), the shipped sample, and with ../shared: the
# real capture dynamorio-hello and the
# libipt-encoded streams of ../shared/tools/synth-example. Without
# ../shared or perf, those parts are skipped and say so.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
S=${PTS_SHARED:-../shared}
bin=$B/ptsynth-programs
work=$B/fidelity

for t in ptscope ptsynth; do
	if [ ! -x "$B/$t" ]; then
		echo "SKIP: $B/$t not built"
		exit 77
	fi
done
bash tests/ptsynth/build-programs.sh "$bin"
rm -rf "$work"
mkdir -p "$work/bundles"

. tests/ptsynth/bundle.sh	# ptsynth_bundle: the self-check's bundles when present
bundle() { ptsynth_bundle "$1" "$work/bundles" "${@:2}"; }

args=()
for prog in cfeatures cxx_throw vdso_clock threads signals tailcalls; do
	args+=(--bundle "$prog=$(bundle $prog "$bin/$prog"):$bin/$prog")
done
true_bundle=$(bundle true /bin/true)
args+=(--bundle "true=$true_bundle")
# A stripped Debian binary that calls exit() from its own code: at exit
# ld.so's _dl_call_fini jumps into its _fini (.fini, no symbol in
# .dynsym) while its unnamed frames are still open. No symbols: no (c).
if [ -x /usr/bin/gzip ]; then
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/gzip.ptscope" -- /usr/bin/gzip -c /dev/null \
		</dev/null >/dev/null
	args+=(--bundle "gzip=$work/bundles/gzip.ptscope")
else
	echo "SKIP part: no /usr/bin/gzip: no gzip stream"
fi
# The same two with timers of 1 us, which run out before setitimer
# returns: the timer signals arrive at that system call's exit (in
# signals, on_alarm nests in itself there) in every run, where with the
# default period they land in the loops unless the machine is loaded.
for prog in signals cfeatures; do
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/$prog-exit.ptscope" -- "$bin/$prog" 1 \
		</dev/null >/dev/null
	args+=(--bundle "$prog-exit=$work/bundles/$prog-exit.ptscope:$bin/$prog")
done
# The rest of the corpus (tests/programs): a hand-written retpoline, deep
# recursion, swapcontext coroutines (a generator; a generator and
# coroutines switching from nested calls; a round-robin scheduler's tasks
# switching through one helper; fibers whose hand-written switch returns
# by an indirect jump, as Boost.Context's), fork + wait, fork + exec of itself
# followed by --follow-exec, PLT calls and dlopen with lazy binding (PIE)
# and with -z now (non-PIE), indirect jumps (jump tables, computed goto,
# a cold part, a jump into another function's middle), C++ exceptions
# through a shared library and through frames with cleanups, an IFUNC
# and GOT calls, a longjmp into an older frame of a recursion, frames
# that end without returns (a throw caught by an older frame of the
# thrower's function, pthread_exit, pthread_cancel, exit; landing pads in
# cold parts), GCC's retpolines and return thunks, the get-PC idiom and
# push+ret.
for prog in retpoline deep_rec coro pingpong rrsched fibers forkexec plt_lazy plt_nopie jumps cxx_unwind ifunc recjmp unwind thunks pushret; do
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/$prog.ptscope" -- "$bin/$prog" </dev/null >/dev/null
	args+=(--bundle "$prog=$work/bundles/$prog.ptscope:$bin/$prog")
done
# C++ stripped (-O2): virtual calls, throws through frames with
# destructors caught by an older frame of a recursion, a rethrow, a throw
# through std::function; the functions' bounds from .eh_frame alone.
# Frames named from the unstripped twin.
"$B/ptsynth" run -q --no-aslr -o "$work/bundles/stripped.ptscope" -- "$bin/stripped" </dev/null >/dev/null
args+=(--bundle "stripped=$work/bundles/stripped.ptscope:$bin/stripped:$bin/stripped.full")
"$B/ptsynth" run -q --no-aslr --follow-exec -o "$work/bundles/forkexec-exec.ptscope" -- \
	"$bin/forkexec" exec </dev/null >/dev/null
args+=(--bundle "forkexec-exec=$work/bundles/forkexec-exec.ptscope:$bin/forkexec")
# Cold parts a profile made (-fprofile-use), entered before their
# function set up a frame and jumping back into it in a recursion: with
# symbols (foo.cold) and stripped (nothing ties such a part to its
# function but the jumps), frames named from the unstripped build.
if nm "$bin/coldrec" | grep -q ' depth\.cold$'; then
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/coldrec.ptscope" -- "$bin/coldrec" \
		</dev/null >/dev/null
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/coldrec-stripped.ptscope" -- \
		"$bin/coldrec.stripped" </dev/null >/dev/null
	args+=(--bundle "coldrec=$work/bundles/coldrec.ptscope:$bin/coldrec")
	args+=(--bundle "coldrec-stripped=$work/bundles/coldrec-stripped.ptscope:$bin/coldrec.stripped:$bin/coldrec")
else
	# another GCC may lay the profile out otherwise: said, not compared
	echo "SKIP part: this GCC made no depth.cold in $bin/coldrec (profile-guided): no coldrec streams"
fi
# OpenMP workers: two threads of a parallel loop and region; passive
# waiting (futex), where libgomp's default spin would be single-stepped.
OMP_WAIT_POLICY=passive "$B/ptsynth" run -q --no-aslr -o "$work/bundles/omp.ptscope" -- "$bin/omp" \
	</dev/null >/dev/null
args+=(--bundle "omp=$work/bundles/omp.ptscope:$bin/omp")
# Rust: panics unwinding through frames with values to drop, closures,
# an inlined iterator chain.
if [ -x "$bin/panics" ]; then
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/panics.ptscope" -- "$bin/panics" \
		</dev/null >/dev/null
	args+=(--bundle "panics=$work/bundles/panics.ptscope:$bin/panics")
else
	echo "SKIP part: no rustc (apt-get install rustc): no panics stream (Rust)"
fi
# OCaml: exceptions raised by restoring a handler's stack pointer and
# jumping (or returning) to it, a 300-frame recursion, tail calls.
if [ -x "$bin/ocaml_raise" ]; then
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/ocaml_raise.ptscope" -- "$bin/ocaml_raise" \
		</dev/null >/dev/null
	args+=(--bundle "ocaml_raise=$work/bundles/ocaml_raise.ptscope:$bin/ocaml_raise")
	# the same raised out of a recursion 700 deep: frames beyond the
	# timeline's 512, whose calls are not shown (a count the program fixes)
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/ocaml_raise-deep.ptscope" -- \
		"$bin/ocaml_raise" deep </dev/null >/dev/null
	args+=(--bundle "ocaml_raise-deep=$work/bundles/ocaml_raise-deep.ptscope:$bin/ocaml_raise")
else
	echo "SKIP part: no ocamlopt (apt-get install ocaml-nox): no ocaml_raise stream (OCaml)"
fi
# Go: goroutines switched by the runtime on one thread (GOMAXPROCS=1:
# the run does not depend on the machine's CPUs), stacks grown by
# morestack, a channel, a recovered panic.
if [ -x "$bin/goroutines" ]; then
	GOMAXPROCS=1 "$B/ptsynth" run -q --no-aslr -o "$work/bundles/goroutines.ptscope" -- \
		"$bin/goroutines" </dev/null >/dev/null
	args+=(--bundle "goroutines=$work/bundles/goroutines.ptscope:$bin/goroutines")
else
	echo "SKIP part: no go (apt-get install golang-go): no goroutines stream (Go)"
fi
# Library callbacks (qsort, bsearch, atexit) built by Clang, linked by
# lld: its packed layout puts the code mid-page, 0x1000 above its offset.
if [ -x "$bin/callbacks_lld" ]; then
	"$B/ptsynth" run -q --no-aslr -o "$work/bundles/callbacks_lld.ptscope" -- "$bin/callbacks_lld" \
		</dev/null >/dev/null
	args+=(--bundle "callbacks_lld=$work/bundles/callbacks_lld.ptscope:$bin/callbacks_lld")
else
	echo "SKIP part: no clang or ld.lld: no callbacks_lld stream (lld's layout)"
fi
# A snapshot: deep_rec's trace cut at its last PSB, in the recursion.
args+=(--snapshot "deep_rec-snapshot=$work/bundles/deep_rec.ptscope:$bin/deep_rec:1")
# Whole-system shapes (kernel scopes, ring changes, interrupts): the
# bundles 70-qemu-trace-log made from its hand-written QEMU log.
qt=$B/qemu-trace-log/res
if [ -f "$qt/both.ptscope/manifest.json" ]; then
	# kernel scope has no /init frames to compare (no (c))
	args+=(--bundle "qemu-fixture-kernel=$qt/kernel.ptscope")
	for s in user both cpu; do
		args+=(--bundle "qemu-fixture-$s=$qt/$s.ptscope:/init")
	done
else
	echo "SKIP part: no $qt (70-qemu-trace-log did not run): no whole-system fixture streams"
fi
demo=$(sed -n 's/^m .* objects\(.*\/demo\)$/\1/p' samples/demo.ptscope/ground-truth.txt | head -1)
args+=(--bundle "demo=samples/demo.ptscope:$demo")

shared=
if [ -d "$S/data/real/dynamorio-hello" ] && [ -f "$S/tools/mkperfdata.py" ]; then
	shared=$(cd "$S" && pwd)
	args+=(--shared "$shared" --dynamorio --synth-example)
	command -v perf >/dev/null ||
		echo "SKIP part: perf not installed (apt-get install linux-perf): no perf comparison"
else
	echo "SKIP part: no $S (outside data; CI has it, PTS_SHARED=DIR names a copy): no perf comparison, no real capture, no libipt-encoded streams"
fi
python3 tests/fidelity/fidelity.py --build "$B" --work "$work" \
	--allow tests/fidelity/known-differences "${args[@]}"

# The check itself must fail on an unexplained difference (our last
# instruction dropped, as a decoder that loses the end of a trace does) and
# on a stale entry (a listed difference, here a `model` one, that does not show).
printf 'cxx_throw nesting model: a test entry that must be reported stale\n' \
	> "$work/allow-test"
out=$(PTS_FIDELITY_BREAK=drop-last-insn python3 tests/fidelity/fidelity.py --build "$B" \
	--work "$work/selftest" --allow "$work/allow-test" "${args[@]:2:2}") &&
	{ echo "FAIL: the fidelity check passed with differences left unexplained"; exit 1; }
for want in 'UNEXPLAINED cxx_throw insns: 1 ' 'STALE cxx_throw nesting'; do
	echo "$out" | grep -q "$want" || { echo "FAIL: no '$want' in:"; echo "$out"; exit 1; }
done
# A comparison of nothing must fail too: /bin/true has no symbols, so the
# stacks of its functions are none.
out=$(python3 tests/fidelity/fidelity.py --build "$B" --work "$work/selftest-none" \
	--allow /dev/null --bundle "true=$true_bundle:/bin/true") &&
	{ echo "FAIL: the fidelity check passed comparing 0 stacks"; exit 1; }
echo "$out" | grep -q 'ERROR true: (c) compared 0 stacks' ||
	{ echo "FAIL: no '(c) compared 0 stacks' in:"; echo "$out"; exit 1; }
# A branch event that differs must be shown where it is, so that a
# failure can be read from the log alone: perf's event and the timeline's
# (index, time, addresses, symbol), the instruction, the ground truth.
if [ -n "$shared" ] && command -v perf >/dev/null; then
	out=$(PTS_FIDELITY_BREAK=drop-a-call python3 tests/fidelity/fidelity.py --build "$B" \
		--work "$work/selftest-call" --allow /dev/null --shared "$shared" "${args[@]:2:2}") &&
		{ echo "FAIL: the fidelity check passed with a call missing"; exit 1; }
	for want in 'UNEXPLAINED cxx_throw calls: 1 ' 'at perf event 2 of ' \
		'perf <      2: .* call .* => [0-9a-f]* _dl_start+0x0' \
		'ours        1: ts [0-9.]* tid [0-9]* begin trace_begin _start at 0x' \
		'perf instruction [0-9]*: libipt instruction [0-9]*' 'ground truth: .*: i [0-9a-f]* call'; do
		echo "$out" | grep -q "$want" || { echo "FAIL: no '$want' in:"; echo "$out"; exit 1; }
	done
fi
echo "fidelity self-test: an unexplained difference, a stale entry and a comparison of 0 stacks fail the check, and where a call differs is shown"
