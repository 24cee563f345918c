# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit's overflow injection does nothing, as
# before it existed: no packets lost, no OVF (SDM 33.4.2.16).
# Must be caught by: overflow_is_a_decoder_gap.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/sim_unit.c
replace $f 'c->lose_rounds = rounds;' 'c->lose_rounds = 0 * rounds;'
echo "break: $f no longer injects overflows"
