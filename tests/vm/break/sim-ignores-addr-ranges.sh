# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit ignores the ADDRn ranges (SDM 33.2.4.3),
# as it did before it modelled them: no IP filtering, no TraceStop.
# Must be caught by: addr_filter_in_range_and_tracestop.
f=kmod/pure/sim_unit.c
p1='return !any || in;'
p2='return pts_sim_in_range(c, ip, RTIT_ADDR_CFG_STOP, &any);'
for pat in "$p1" "$p2"; do
	grep -qF "$pat" "$f" || { echo "break: '$pat' not found in $f" >&2; exit 1; }
done
sed -i -e 's/return !any || in;/return true || !any || in; \/* VM-suite breakage *\//' \
	-e 's/return pts_sim_in_range(c, ip, RTIT_ADDR_CFG_STOP, &any);/return false \&\& pts_sim_in_range(c, ip, RTIT_ADDR_CFG_STOP, \&any); \/* VM-suite breakage *\//' "$f"
echo "break: $f no longer filters by address range or stops at TraceStop"
