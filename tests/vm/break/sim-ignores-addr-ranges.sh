# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit ignores the ADDRn ranges (SDM 33.2.4.3),
# as it did before it modelled them: no IP filtering, no TraceStop.
# Must be caught by: addr_filter_in_range_and_tracestop.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/sim_unit.c
replace $f 'return !any || in;' 'return true || !any || in;'
replace $f 'return pts_sim_in_range(c, ip, RTIT_ADDR_CFG_STOP, &any);' \
	'return false && pts_sim_in_range(c, ip, RTIT_ADDR_CFG_STOP, &any);'
echo "break: $f no longer filters by address range or stops at TraceStop"
