# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit cuts the loop of its code images short (two
# iterations, where the code's `mov $3,%ecx` makes three) in one round of
# every 64 on each CPU: a trace the code cannot produce, in a share of the
# successions (about 1 %) that the timeline check used to let through as
# CPU switches of the merged list, and a loop count within its slack.
# Must be caught by: bundle_timeline_matches_sim (a pass with 2
# iterations on a CPU's own list).
. "$(dirname "$0")/lib.sh"
f=kmod/pure/sim_unit.c
replace $f 'again = i + 1 < PTS_SIM_LOOP_COUNT;' \
	'again = i + 1 < PTS_SIM_LOOP_COUNT - (c->rounds % 64 == 63);'
echo "break: $f runs the images' loop twice in one round of 64"
