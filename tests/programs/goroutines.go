// SPDX-License-Identifier: GPL-2.0
//
// Go as `go build` makes it (the gc toolchain, static), for the decoder
// fidelity corpus (docs/fidelity.md, "Go programs"): the runtime runs a
// thread's code on more than one stack. Two goroutines recurse 100 and
// 150 deep with frames of 100 bytes, so their first stacks (2 KiB) grow
// several times (morestack, newstack, copystack; sysmon's preemptions
// land at the same calls: gopreempt_m), and block sending on a channel
// at the bottom (gopark, mcall(park_m), schedule, gogo) until main
// receives; main then recovers from a nil-map panic (gopanic, mcall
// (recovery), gogo) and exits by os.Exit. The runtime's own switches
// (systemstack) run throughout. Run with GOMAXPROCS=1 (one P: the
// goroutines take turns on one thread whatever the machine's CPUs).
package main

import "os"

var sink int

// climb recurses with a frame large enough that a goroutine's first stack
// (2 KiB) grows several times (morestack, newstack, copystack); at the
// bottom it sends on ch, where the goroutine blocks until main receives
// (gopark, mcall(park_m), schedule, gogo).
//
//go:noinline
func climb(n int, ch chan<- int) int {
	var pad [12]int
	pad[n%12] = n
	if n == 0 {
		ch <- pad[0]
		return 1
	}
	return climb(n-1, ch) + pad[n%12]
}

//go:noinline
func store(m map[int]int, k int) {
	m[k] = k // m is nil: runtime.mapassign panics
}

//go:noinline
func guarded(k int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	var m map[int]int
	store(m, k)
	return true
}

func main() {
	ch := make(chan int)
	done := make(chan int)
	for g := 0; g < 2; g++ {
		go func(depth int) {
			done <- climb(depth, ch)
		}(100 + 50*g)
	}
	for i := 0; i < 2; i++ {
		sink += <-ch
	}
	for i := 0; i < 2; i++ {
		sink += <-done
	}
	if guarded(3) {
		os.Exit(1)
	}
	os.Exit(0)
}
