# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit ignores CR3 filtering (SDM 33.2.4.2), as
# it did before it modelled it: every tick writes a round, whichever
# process the CPU runs.
# Must be caught by: cr3_filter_excludes_other_process.
f=kmod/pure/sim_unit.c
p1='return !(c->ctl & RTIT_CTL_CR3FILTER) || !((cr3 ^ c->cr3_match) & ~0x1fULL);'
p2='if ((c->ctl & RTIT_CTL_CR3FILTER) && c->ctx.no_user)'
for pat in "$p1" "$p2"; do
	grep -qF "$pat" "$f" || { echo "break: '$pat' not found in $f" >&2; exit 1; }
done
sed -i -e 's/return !(c->ctl \& RTIT_CTL_CR3FILTER) || !((cr3 ^ c->cr3_match) \& ~0x1fULL);/return true; \/* VM-suite breakage *\//' \
	-e 's/if ((c->ctl \& RTIT_CTL_CR3FILTER) \&\& c->ctx.no_user)/if (0) \/* VM-suite breakage *\//' "$f"
echo "break: $f no longer filters by CR3"
