// SPDX-License-Identifier: GPL-2.0
// Frames that end without returns, for the decoder fidelity corpus
// (docs/fidelity.md):
// - a throw caught by an older frame of the function that threw: only
//   the even depths of `rec_catch` have a handler, so the landing pad
//   reached is that of the frame one below the thrower, at an address
//   every frame of the function shares;
// - forced unwinding: a thread leaves by pthread_exit from the innermost
//   frame of a recursion whose frames each hold a destructor and a
//   cleanup handler (pthread_cleanup_push, a destructor of its own in
//   C++), and another is cancelled (deferred) at pthread_testcancel deep
//   in a recursion of the same shape: _Unwind_ForcedUnwind runs every
//   frame's landing pad, and libc's stop function jumps back into
//   start_thread at the end;
// - exit() from deep in a recursion: the frames never end at all;
// - the same pthread_exit from C frames built without -fexceptions
//   (cleanup_c.c): each cleanup handler is reached by a longjmp;
// - and from the same C frames built without unwind tables
//   (-fno-asynchronous-unwind-tables, no FDE): the unwinder's walk ends
//   at the first of them, wherever the buffer it goes on to lies.
// Built -O2 (landing pads in each function's cold part, foo.cold),
// libstdc++ static and libgcc_s the one unwinder, as cxx_unwind. Output
// is deterministic.
#include <pthread.h>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#define NOINLINE __attribute__((noinline, noipa))

static int destroyed, cleaned, caught;
extern "C" int c_cleaned, c_cleaned_nocfi;
extern "C" void *c_exit_thread(void *);
extern "C" void *c_exit_thread_nocfi(void *);
static pthread_barrier_t bar;

struct Guard {
	int v;
	explicit Guard(int x) : v(x) {}
	~Guard() { destroyed += v; }
};

NOINLINE static void leaf_throw(int n)
{
	throw std::runtime_error(n ? "odd" : "even");
}

// The throw from depth 0 is caught at depth 1, the innermost frame with
// a handler; depth 0 has no cleanup, so the unwinder goes from the throw
// straight to depth 1's handler.
NOINLINE static int rec_catch(int n)
{
	if (n == 0) {
		leaf_throw(n);
		return 0;
	}
	if (n % 2) {
		try {
			return rec_catch(n - 1) + 1;
		} catch (const std::exception &) {
			caught += n;
			return -1;
		}
	}
	return rec_catch(n - 1) + n;
}

static void cleanup(void *p)
{
	cleaned += (int)(long)p;
}

NOINLINE static int exit_rec(int n)
{
	Guard g(n);
	int r = 0;

	pthread_cleanup_push(cleanup, (void *)(long)n);
	if (n == 0)
		pthread_exit(nullptr);
	r = exit_rec(n - 1) + g.v;
	pthread_cleanup_pop(0);
	return r;
}

// Cancelled before it gets here (main's pthread_cancel, then the
// barrier): pthread_testcancel acts on it in the innermost frame.
NOINLINE static int cancel_rec(int n)
{
	Guard g(n);
	int r = 0;

	pthread_cleanup_push(cleanup, (void *)(long)(10 * n));
	if (n == 0) {
		pthread_barrier_wait(&bar);
		pthread_testcancel();
	} else {
		r = cancel_rec(n - 1) + g.v;
	}
	pthread_cleanup_pop(0);
	return r;
}

static void *exit_thread(void *)
{
	exit_rec(3);
	return nullptr;
}

static void *cancel_thread(void *)
{
	cancel_rec(3);
	return nullptr;
}

NOINLINE static int exit_deep(int n)
{
	Guard g(n);

	if (n == 0) {
		std::printf("caught=%d destroyed=%d cleaned=%d c_cleaned=%d %d\n", caught,
			    destroyed, cleaned, c_cleaned, c_cleaned_nocfi);
		std::fflush(stdout);
		std::exit(0);
	}
	return exit_deep(n - 1) + g.v;
}

int main()
{
	pthread_t t;

	rec_catch(4);
	pthread_create(&t, nullptr, exit_thread, nullptr);
	pthread_join(t, nullptr);
	pthread_barrier_init(&bar, nullptr, 2);
	pthread_create(&t, nullptr, cancel_thread, nullptr);
	pthread_cancel(t);
	pthread_barrier_wait(&bar);
	pthread_join(t, nullptr);
	pthread_create(&t, nullptr, c_exit_thread, nullptr);
	pthread_join(t, nullptr);
	pthread_create(&t, nullptr, c_exit_thread_nocfi, nullptr);
	pthread_join(t, nullptr);
	return exit_deep(4);
}
