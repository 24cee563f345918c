# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit ignores the STOP bit of ToPA entries
# (SDM 33.2.7.2), so a full-mode ring wraps over its oldest data
# instead of stopping.
# Must be caught by: full_mode_stops_when_full.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/sim_unit.c
replace $f 'c->region_stop = entry & TOPA_STOP;' 'c->region_stop = 0;'
echo "break: $f no longer honours ToPA STOP"
