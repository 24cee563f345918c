# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit runs the loop of its code images twice,
# where the code's `mov $3,%ecx` makes it three times, in one round of
# every 64 on each CPU: a trace that decodes (the decoder follows the TNT
# bits, it does not count) to a walk the code cannot make, in a share of
# the successions and loop counts within the slack the timeline check
# used to allow for CPU switches of the merged list.
# Must be caught by: bundle_timeline_matches_sim (a pass of 2 iterations
# on a CPU's own list); nothing else.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/sim_unit.c
short='PTS_SIM_LOOP_COUNT - (c->rounds % 64 == 63)'
replace $f '	for (i = 0; i < PTS_SIM_LOOP_COUNT; i++) {' "	for (i = 0; i < $short; i++) {"
replace $f 'again = i + 1 < PTS_SIM_LOOP_COUNT;' "again = i + 1 < $short;"
echo "break: $f runs the images' loop twice in one round of 64"
