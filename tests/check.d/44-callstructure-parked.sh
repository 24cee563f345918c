#!/usr/bin/env bash
# The ground-truth reader (tests/ptsynth/callstructure.pl) on a goroutine
# that parks (gopark's mcall(park_m)) while the scheduler runs another:
# a hand-written ground truth of a tiny program's functions, whose frames
# at each call are derived here from the stack pointers and what Go's
# runtime does (oracle: the stacks written below, by hand). mcall moves
# the stack pointer to g0.sched.sp (the slot above mstart1's return
# address) and calls park_m there: the scheduler frames of the round
# before (mstart1, schedule, execute) are overwritten, and the parked
# goroutine's frames, kept on its own stack, are not the thread's until
# gogo resumes them (Go's traceback stops at mcall: runtime/traceback.go
# joins a goroutine's frames only under systemstack and morestack). So
# goroutine B, which the scheduler starts next, runs under park_m's
# frames, not under A's; and A, resumed by gogo's jump to the address
# its call of mcall saved, in that slot, runs in place of gogo's frame
# of the round that resumes it. A reader that keeps A's frames open
# under the call on g0 nests B under A, and every goroutine under the
# one before it: the stacks grow with every switch. Only the
# goroutines' own stacks are compared (their calls of leaf): those on g0
# between mcall and gogo (park_m, schedule, execute) may be shown joined
# under the goroutine's mcall, as the reader does for systemstack and
# morestack, or on their own, as Go's traceback shows them.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
work=$B/callstructure-parked
rm -rf "$work"
mkdir -p "$work"
. tests/ptsynth/handgt.sh
handgt_prog "$work" mstart1 schedule execute gogo ga gb mcall park_m leaf \
	sched pick resume yield
# g0 near 7fff0000 (mstart1's return address at 7fff0f00, where mcall
# pushes its function's argument before its call), A's stack at
# 10000 (gogo's first jump to ga with the stack pointer at 10ff8), B's at
# 30000. A parks (ga's call of mcall, slot 10fe0), B starts and parks,
# A resumes (gogo's jump to ga+5 with the stack pointer at 10fe8).
cat > "$work/gt.txt" <<EOF
$handgt_head
e $main
i $main call 5 7fff0f00
i $mstart1 call 5 7fff0ee0
i $schedule call 5 7fff0ec0
i $execute call 5 7fff0ea0
i $gogo jmp-ind 2 10ff0
i $ga call 5 10fe0
i $mcall call-ind 2 7fff0ef8
i $park_m call 5 7fff0ee0
i $schedule call 5 7fff0ec0
i $execute call 5 7fff0ea0
i $gogo jmp-ind 2 30ff0
i $gb call 5 30fe0
i $leaf ret 1 30fe0
i $(hx $gb 5) call 5 30fe0
i $mcall call-ind 2 7fff0ef8
i $park_m call 5 7fff0ee0
i $schedule call 5 7fff0ec0
i $execute call 5 7fff0ea0
i $gogo jmp-ind 2 10fe0
i $(hx $ga 5) call 5 10fe0
i $leaf other
EOF
cat > "$work/want" <<'EOF'
1	main
1	main;mstart1
1	main;mstart1;schedule
1	main;mstart1;schedule;execute
1	main;mstart1;schedule;execute;gogo
1	main;mstart1;schedule;execute;ga;mcall
1	main;park_m
1	main;park_m;schedule
1	main;park_m;schedule;execute
1	main;park_m;schedule;execute;gogo
1	main;park_m;schedule;execute;gb;leaf
1	main;park_m;schedule;execute;gb;mcall
1	main;park_m
1	main;park_m;schedule
1	main;park_m;schedule;execute
1	main;park_m;schedule;execute;gogo
1	main;park_m;schedule;execute;ga;leaf
EOF
# The same switches in a C library of green threads: sched's loop on the
# thread's stack picks a task (pick) and enters it by resume's RET to its
# first byte, on the task's own stack; a task yields by calling yield,
# which saves the slot of its own return address, moves the stack
# pointer to the scheduler's and calls pick there; resume's RET that
# reads the saved slot resumes the task.
cat > "$work/gt2.txt" <<EOF
$handgt_head
e $main
i $main call 5 7fff0f00
i $sched call 5 7fff0ee0
i $resume ret 1 20ff8
i $ga call 5 20fe0
i $yield call 2 7fff0ee0
i $pick call 5 7fff0ec0
i $resume ret 1 30ff8
i $gb call 5 30fe0
i $leaf ret 1 30fe0
i $(hx $gb 5) call 5 30fe0
i $yield call 2 7fff0ee0
i $pick call 5 7fff0ec0
i $resume ret 1 20fe0
i $(hx $ga 5) call 5 20fe0
i $leaf other
EOF
cat > "$work/want2" <<'EOF'
1	main;sched;pick;gb;leaf
1	main;sched;pick;ga;leaf
EOF
printf '# ts_ns cpu pid/tid depth kind event\n' > "$work/tl.txt"
fail=0
for n in '' 2; do
	PTS_CALLSTRUCTURE_FRAMES=$work/frames$n perl tests/ptsynth/callstructure.pl \
		"$work/gt$n.txt" "$work/prog" /prog "$work/tl.txt" >/dev/null || true
	grep ';leaf$' "$work/want$n" > "$work/want$n.leaf"
	grep ';leaf$' "$work/frames$n.gt" > "$work/frames$n.leaf" || true
	if ! diff -u "$work/want$n.leaf" "$work/frames$n.leaf"; then
		echo "FAIL: the ground-truth reader's frames (+) are not the machine's (-): $work/gt$n.txt"
		fail=1
	fi
done
[ $fail = 0 ] || exit 1
echo "ok: a parked goroutine's (a green thread's) frames are not the next one's; the switch back resumes them in place of its frame"
