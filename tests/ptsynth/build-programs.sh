#!/usr/bin/env bash
# Builds the reference-encoder test programs (tests/programs) into $1
# (default build/ptsynth-programs), only when a source is newer. Tail
# calls are disabled so that every call in the source is a CALL, except in
# tailcalls.c, which is about them (sibling-call optimisation on).
set -eu
cd "$(dirname "$0")/../.."
out=${1:-build/ptsynth-programs}
mkdir -p "$out"
src=tests/programs
flags="-O1 -g -fno-optimize-sibling-calls"
newer() { [ ! -e "$1" ] || [ "$2" -nt "$1" ]; }
if newer "$out/libshlib.so" $src/shlib.c; then
	gcc $flags -fPIC -shared -o "$out/libshlib.so" $src/shlib.c
fi
if newer "$out/cfeatures" $src/cfeatures.c || newer "$out/cfeatures" "$out/libshlib.so"; then
	gcc $flags -o "$out/cfeatures" $src/cfeatures.c -L"$out" -lshlib -Wl,-rpath,'$ORIGIN'
fi
# libstdc++ and libgcc linked statically: the dynamic loader would spend
# 1.5 million instructions relocating libstdc++.so, which makes no
# difference to what is tested and costs a minute of single-stepping.
if newer "$out/cxx_throw" $src/cxx_throw.cc; then
	g++ $flags -static-libstdc++ -static-libgcc -o "$out/cxx_throw" $src/cxx_throw.cc
fi
if newer "$out/vdso_clock" $src/vdso_clock.c; then
	gcc $flags -o "$out/vdso_clock" $src/vdso_clock.c
fi
if newer "$out/threads" $src/threads.c; then
	gcc $flags -pthread -o "$out/threads" $src/threads.c
fi
if newer "$out/signals" $src/signals.c; then
	gcc $flags -o "$out/signals" $src/signals.c
fi
if newer "$out/tailcalls" $src/tailcalls.c; then
	gcc $flags -foptimize-sibling-calls -o "$out/tailcalls" $src/tailcalls.c
fi
# The decoder fidelity corpus (docs/fidelity.md): small and static, or
# dynamic with the loader's work kept low, so that single-stepping them
# stays within seconds.
if newer "$out/retpoline" $src/retpoline.S; then
	gcc -nostdlib -static -no-pie -o "$out/retpoline" $src/retpoline.S
fi
for p in deep_rec coro pingpong rrsched fibers forkexec recjmp pushret; do
	if newer "$out/$p" $src/$p.c; then
		gcc $flags -static -o "$out/$p" $src/$p.c
	fi
done
if newer "$out/plt_lazy" $src/plt.c || newer "$out/plt_lazy" "$out/libshlib.so"; then
	gcc $flags -o "$out/plt_lazy" $src/plt.c -L"$out" -lshlib -Wl,-rpath,'$ORIGIN' -ldl
fi
if newer "$out/plt_nopie" $src/plt.c || newer "$out/plt_nopie" "$out/libshlib.so"; then
	gcc $flags -no-pie -Wl,-z,now -o "$out/plt_nopie" $src/plt.c -L"$out" -lshlib \
		-Wl,-rpath,'$ORIGIN' -ldl
fi
# Indirect jumps (jump tables, computed goto, an indirect tail call, a
# cold part, a jump into another function's middle): optimised, sibling
# calls on, static.
if newer "$out/jumps" $src/jumps.c; then
	gcc -O2 -g -foptimize-sibling-calls -static -o "$out/jumps" $src/jumps.c
fi
# C++ exceptions through a shared library and through frames with
# cleanups. libstdc++ linked statically (as for cxx_throw); the library
# takes the personality routine from the executable, which exports it,
# and _Unwind_Resume from libgcc_s, which both share: one unwinder.
if newer "$out/libcxxlib.so" $src/cxxlib.cc; then
	g++ $flags -fPIC -shared -nostdlib -o "$out/libcxxlib.so" $src/cxxlib.cc
fi
if newer "$out/cxx_unwind" $src/cxx_unwind.cc || newer "$out/cxx_unwind" "$out/libcxxlib.so"; then
	g++ $flags -static-libstdc++ -Wl,--export-dynamic-symbol=__gxx_personality_v0 \
		-o "$out/cxx_unwind" $src/cxx_unwind.cc -L"$out" -lcxxlib -Wl,-rpath,'$ORIGIN'
fi
# An IFUNC of the executable and calls through the GOT (noplt): PIE.
if newer "$out/ifunc" $src/ifunc.c || newer "$out/ifunc" "$out/libshlib.so"; then
	gcc $flags -o "$out/ifunc" $src/ifunc.c -L"$out" -lshlib -Wl,-rpath,'$ORIGIN'
fi
# Frames that end without returns (a throw caught by an older frame of
# the thrower's function, pthread_exit, pthread_cancel, exit): -O2, so
# that the landing pads lie in cold parts; as cxx_unwind otherwise. With
# C cleanup handlers compiled as C (no -fexceptions: setjmp buffers),
# here rather than in a program of their own, whose loading of libgcc_s
# would cost 0.2 M single-stepped instructions more.
# The same C once more without unwind tables (no FDE: the unwinder's
# walk ends at its frames), its two names renamed.
if newer "$out/unwind" $src/unwind.cc || newer "$out/unwind" $src/cleanup_c.c; then
	gcc -O2 -g -fno-optimize-sibling-calls -pthread -c -o "$out/cleanup_c.o" $src/cleanup_c.c
	gcc -O2 -g -fno-optimize-sibling-calls -fno-asynchronous-unwind-tables -pthread \
		-Dc_exit_thread=c_exit_thread_nocfi -Dc_cleaned=c_cleaned_nocfi \
		-c -o "$out/cleanup_nocfi.o" $src/cleanup_c.c
	g++ -O2 -g -fno-optimize-sibling-calls -pthread -static-libstdc++ -o "$out/unwind" \
		$src/unwind.cc "$out/cleanup_c.o" "$out/cleanup_nocfi.o"
fi
# C++ as a distribution ships it: -O2 (cold parts, sibling calls),
# libstdc++ static (as above), stripped. The unstripped twin, the same
# code, names the ground truth's frames (tests/ptsynth/callstructure.pl).
if newer "$out/stripped" $src/stripped.cc; then
	g++ -O2 -g -pthread -static-libstdc++ -o "$out/stripped.full" $src/stripped.cc
	strip -o "$out/stripped" "$out/stripped.full"
fi
# GCC's own retpolines: indirect branches through __x86_indirect_thunk_*,
# returns through __x86_return_thunk (sibling calls on, static: libc's
# code has none).
if newer "$out/thunks" $src/thunks.c; then
	gcc -O2 -g -mindirect-branch=thunk -mfunction-return=thunk -static -o "$out/thunks" \
		$src/thunks.c
fi
# OpenMP workers, libgomp static (the linker's warning about its dlopen,
# for offloading, which this program does not use, is shown on failure).
if newer "$out/omp" $src/omp.c; then
	gcc $flags -fopenmp -static -o "$out/omp" $src/omp.c 2>"$out/omp.log" ||
		{ cat "$out/omp.log" >&2; exit 1; }
fi
# Cold parts made by a profile (-fprofile-use): GCC moves the blocks the
# training run ("train": no negative value) never ran into cold parts,
# some entered before their function has set up a frame; the traced run
# (no argument) runs them in recursions. The profile's file is named by
# the output's path: the instrumented build and the final one write the
# same file. Stripped too, the unstripped build its twin.
if newer "$out/coldrec" $src/coldrec.c; then
	rm -rf "$out/coldrec.prof"
	gcc -O2 -g -static -fprofile-generate="$out/coldrec.prof" -o "$out/coldrec" $src/coldrec.c
	"$out/coldrec" train >/dev/null
	gcc -O2 -g -static -fprofile-use="$out/coldrec.prof" -Werror=missing-profile \
		-o "$out/coldrec" $src/coldrec.c
	strip -o "$out/coldrec.stripped" "$out/coldrec"
fi
# Rust as usually built (-O, no frame pointers; panics unwind), linked
# statically. Not built, and its stream skipped, without rustc (Debian's
# rustc package in CI).
if command -v rustc >/dev/null && newer "$out/panics" $src/panics.rs; then
	rustc -O -g -C force-frame-pointers=no -C target-feature=+crt-static -o "$out/panics" \
		$src/panics.rs
fi
# OCaml native code (ocamlopt, as magic-trace's users build it; static:
# the loader's work is no part of the test), compiled in $out, where
# ocamlopt leaves its .cmi, .cmx and .o. Without -g: a raise in the
# program's own code is the inline `jmp *%r11`; the standard library's
# raises call caml_raise_exn. Not built, and its stream skipped,
# without ocamlopt (Debian's ocaml-nox).
if command -v ocamlopt >/dev/null && newer "$out/ocaml_raise" $src/ocaml_raise.ml; then
	cp $src/ocaml_raise.ml "$out/"
	# the runtime's dlopen makes ld warn about static linking: not shown
	(cd "$out" && ocamlopt -ccopt -static -o ocaml_raise ocaml_raise.ml) \
		> "$out/ocaml_raise.log" 2>&1 || { cat "$out/ocaml_raise.log"; exit 1; }
	grep -v 'dlopen' "$out/ocaml_raise.log" || true
fi
# Clang with lld (static-pie): lld's packed segment layout. Not built,
# and its stream skipped, without them.
if command -v clang >/dev/null && command -v ld.lld >/dev/null &&
	newer "$out/callbacks_lld" $src/callbacks.c; then
	clang -O2 -g -fuse-ld=lld -static-pie -o "$out/callbacks_lld" $src/callbacks.c
fi
# Go as `go build` makes it (static, the gc toolchain's runtime): goroutines
# switched by the runtime (gogo, mcall, systemstack), stacks grown by
# morestack, a channel, a panic recovered. The build cache in $out (the
# check may run with no HOME). Not built, and its stream skipped,
# without go (Debian's golang-go).
if command -v go >/dev/null && newer "$out/goroutines" $src/goroutines.go; then
	GOCACHE="$(cd "$out" && pwd)/go-cache" GO111MODULE=off GOFLAGS= \
		go build -o "$out/goroutines" $src/goroutines.go
fi
