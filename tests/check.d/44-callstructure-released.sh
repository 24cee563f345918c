#!/usr/bin/env bash
# The ground-truth reader (tests/ptsynth/callstructure.pl) keeps a
# switched stack's frames open under a call made above that stack's base
# (Go's systemstack and morestack, 44-callstructure-stacks), and takes a
# JMP to an address an open frame of that stack saved, in another slot,
# as that frame's return from a copied stack. Neither may keep or end
# frames that the machine released or kept: hand-written ground truths
# of a tiny program's functions, whose frames at each call are derived
# here from the stack pointers and what the code does (oracle: the
# stacks written below, by hand):
#  1. a goroutine that ended (its function's RET to goexit, goexit1,
#     mcall(goexit0) on the scheduler stack at the slot of mstart1's
#     return address, as g0.sched.sp puts it) is no frame of the next
#     goroutine's stack, and neither are the scheduler frames that
#     goexit0's call overwrote (Go's traceback joins a goroutine's frames
#     under systemstack and morestack only, never under mcall:
#     runtime/traceback.go);
#  2. a longjmp out of a coroutine (entered by makecontext's RET to its
#     first byte) back to main's stack releases the coroutine's frames:
#     main's next call is main's;
#  3. likewise a handler on an alternate signal stack (sigaltstack) that
#     siglongjmps out of a coroutine to main;
#  4. on a fiber's stack, a jump-table JMP to a case label that is also
#     the return address of the recursive call just before it (a
#     fallthrough) is no return of that call's frame.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
work=$B/callstructure-released
rm -rf "$work"
mkdir -p "$work"
. tests/ptsynth/handgt.sh
handgt_prog "$work" mstart1 schedule execute gogo ga gb goexit goexit1 mcall goexit0 \
	leaf save resume coro deep jump handler sched task rec
head=$handgt_head
fail=0
# case NAME: ground-truth records on stdin, $work/NAME.want the stacks
case_() {
	{ echo "$head"; cat; } > "$work/$1.gt.txt"
	printf '# ts_ns cpu pid/tid depth kind event\n' > "$work/tl.txt"
	PTS_CALLSTRUCTURE_FRAMES=$work/$1 perl tests/ptsynth/callstructure.pl \
		"$work/$1.gt.txt" "$work/prog" /prog "$work/tl.txt" >/dev/null || true
	if ! diff -u "$work/$1.want" "$work/$1.gt"; then
		echo "FAIL $1: the ground-truth reader's frames (+) are not the machine's (-)"
		fail=1
	fi
}
# 1. Thread stack near 7fff0000 (g0; mstart1's return address at
# 7fff0f00, where systemstack and mcall call: g0.sched.sp is the slot
# above it), goroutine A's stack at 10000 (gogo's jump to ga with the
# stack pointer at the slot of goexit+1, 10ff8), B's at 30000.
cat > "$work/goexit.want" <<'EOF'
1	main
1	main;mstart1
1	main;mstart1;schedule
1	main;mstart1;schedule;execute
1	main;mstart1;schedule;execute;gogo
1	main;mstart1;schedule;execute;ga;leaf
1	main;mstart1;schedule;execute;goexit1
1	main;mstart1;schedule;execute;goexit1;mcall
1	main;goexit0
1	main;goexit0;schedule
1	main;goexit0;schedule;execute
1	main;goexit0;schedule;execute;gogo
1	main;goexit0;schedule;execute;gb;leaf
EOF
case_ goexit <<EOF
e $main
i $main call 5 7fff0f00
i $mstart1 call 5 7fff0ee0
i $schedule call 5 7fff0ec0
i $execute call 5 7fff0ea0
i $gogo jmp-ind 2 10ff0
i $ga call 5 10fe0
i $leaf ret 1 10fe0
i $(hx $ga 5) ret 1 10ff8
i $(hx $goexit 1) call 5 10ff8
i $goexit1 call 5 10fe8
i $mcall call-ind 2 7fff0f00
i $goexit0 call 5 7fff0ee0
i $schedule call 5 7fff0ec0
i $execute call 5 7fff0ea0
i $gogo jmp-ind 2 30ff0
i $gb call 5 30fe0
i $leaf other
EOF
# 2. main's setjmp (save) returns; resume enters the coroutine by a RET
# to coro's first byte on its stack at 20000; two calls deep, longjmp
# (jump) restores main's stack pointer and jumps to save's return
# address; main calls leaf.
cat > "$work/longjmp.want" <<'EOF'
1	main
1	main;save
1	main;resume
1	main;coro;deep
1	main;coro;deep;jump
1	main;leaf
EOF
case_ longjmp <<EOF
e $main
i $main call 5 7fff0f00
i $save ret 1 7fff0f00
i $(hx $main 5) call 5 7fff0f00
i $resume ret 1 20ff8
i $coro call 5 20fe0
i $deep other
i $deep call 5 20fc0
i $jump jmp-ind 2 7fff0f00
i $(hx $main 5) call 5 7fff0f00
i $leaf other
EOF
# 3. As 2, but a signal interrupts deep; its handler runs on an
# alternate stack at 7ff80000 (sigaltstack) and siglongjmps to main.
cat > "$work/sigaltstack.want" <<'EOF'
1	main
1	main;save
1	main;resume
1	main;coro;deep
1	main;coro;deep;handler
1	main;coro;deep;handler;jump
1	main;leaf
EOF
case_ sigaltstack <<EOF
e $main
i $main call 5 7fff0f00
i $save ret 1 7fff0f00
i $(hx $main 5) call 5 7fff0f00
i $resume ret 1 20ff8
i $coro call 5 20fe0
i $deep other
a $(hx $deep 4)
e $handler
i $handler call 5 7ff80f00
i $jump jmp-ind 2 7fff0f00
i $(hx $main 5) call 5 7fff0f00
i $leaf other
EOF
# 4. sched enters task on a fiber's stack (10000) by a JMP to its first
# byte; task calls rec; rec's jump table takes it to rec+8, which calls
# rec (return address rec+13); that rec's jump table takes it to rec+13
# (the next case, a fallthrough), which calls leaf: three frames deep.
cat > "$work/casejump.want" <<'EOF'
1	main
1	main;sched
1	main;task;rec
1	main;task;rec;rec
1	main;task;rec;rec;leaf
EOF
case_ casejump <<EOF
e $main
i $main call 5 7fff0f00
i $sched jmp-ind 2 10ff8
i $task call 5 10f00
i $rec jmp-ind 2 10ed8
i $(hx $rec 8) call 5 10ed8
i $rec jmp-ind 2 10eb0
i $(hx $rec 13) call 5 10eb0
i $leaf other
EOF
[ $fail = 0 ] || exit 1
echo "ok: frames released by an exit, a longjmp or a siglongjmp out of a switched stack are gone; a jump to a case label is no return"
