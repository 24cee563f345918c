#!/usr/bin/env bash
# The ground-truth reader (tests/ptsynth/callstructure.pl) on a runtime
# that runs a thread's code on two stacks, as Go's does (docs/fidelity.md,
# "Go programs"): a hand-written ground truth of a tiny program's
# functions, whose frames the reader must give at each call as the
# runtime's own rules say (runtime/asm_amd64.s, runtime/stack.go):
#  1. a call made on the scheduler stack (Go's g0: systemstack, morestack
#     and mcall move the stack pointer there and call) while the top
#     frames lie on a goroutine's stack, entered by a switch (gogo's jump
#     to a function's first byte), leaves them open: the goroutine's
#     frames go on under the call, as Go's traceback joins them;
#  2. a jump to the address a goroutine's frame's call saved, in that
#     slot moved by the distance its stack was copied (copystack moves
#     every frame of the stack by one delta; gogo resumes the moved
#     frame), ends the frames above that frame, as a return reading the
#     slot would;
#  3. a call on the goroutine's own stack still releases its frames at
#     or below the call's slot (a stack left without returns: here a
#     jump out of a frame two calls deep back into the goroutine's
#     function).
# Without rule 1 the goroutine's frames are dropped at the first call on
# the scheduler stack; without rule 2 the frames above the resumed one
# stay open. Oracle: the stacks written below, by hand.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
work=$B/callstructure-stacks
rm -rf "$work"
mkdir -p "$work"
. tests/ptsynth/handgt.sh
handgt_prog "$work" sched task grow onsys leaf
M=$main S=$sched T=$task G=$grow O=$onsys L=$leaf
# Thread stack (the scheduler's) near 7fff0000, the goroutine's stack
# at 10000, copied to 20000 (delta 0x10000). A record "i IP CLASS SIZE
# SLOT": a call's slot of its return address, a RET's slot read, an
# indirect JMP's slot just below its stack pointer; the next record's IP
# is where it went.
cat > "$work/gt.txt" <<EOF
$handgt_head
e $M
i $M call 5 7fff0f00
i $S jmp-ind 2 10ff8
i $T call 5 10f00
i $G call 5 7fff0f00
i $O call 5 7fff0ed0
i $L ret 1 7fff0ed0
i $(hx $O 5) jmp-ind 2 20f00
i $(hx $T 5) call 5 20f00
i $G call 5 20e00
i $L jmp 2
i $(hx $T 9) call 5 20f00
i $O other
EOF
printf '# ts_ns cpu pid/tid depth kind event\n' > "$work/tl.txt"
PTS_CALLSTRUCTURE_FRAMES=$work/frames perl tests/ptsynth/callstructure.pl "$work/gt.txt" \
	"$work/prog" /prog "$work/tl.txt" >/dev/null || true
cat > "$work/want" <<'EOF'
1	main
1	main;sched
1	main;task;grow
1	main;task;grow;onsys
1	main;task;grow;onsys;leaf
1	main;task;grow
1	main;task;grow;leaf
1	main;task;onsys
EOF
if ! diff -u "$work/want" "$work/frames.gt"; then
	echo "FAIL: the ground-truth reader's frames (+) are not the runtime's (-): $work/gt.txt"
	exit 1
fi
echo "ok: a call on the scheduler stack keeps the goroutine's frames, a jump into a copied stack ends the frames above the resumed one"
