# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit's overflow injection does nothing, as
# before it existed: no packets lost, no OVF (SDM 33.4.2.16).
# Must be caught by: overflow_is_a_decoder_gap.
f=kmod/pure/sim_unit.c
pat='c->lose_rounds = rounds;'
grep -qF "$pat" "$f" || { echo "break: '$pat' not found in $f" >&2; exit 1; }
sed -i 's/c->lose_rounds = rounds;/c->lose_rounds = 0 * rounds; \/* VM-suite breakage *\//' "$f"
echo "break: $f no longer injects overflows"
