# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit ignores CR3 filtering (SDM 33.2.4.2), as
# it did before it modelled it: every tick writes a round, whichever
# process the CPU runs.
# Must be caught by: cr3_filter_excludes_other_process.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/sim_unit.c
replace $f 'return !(c->ctl & RTIT_CTL_CR3FILTER) || !((cr3 ^ c->cr3_match) & ~0x1fULL);' \
	'return true;'
replace $f 'if ((c->ctl & RTIT_CTL_CR3FILTER) && c->ctx.no_user)' 'if (0)'
echo "break: $f no longer filters by CR3"
