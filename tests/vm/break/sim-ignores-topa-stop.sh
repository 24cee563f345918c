# SPDX-License-Identifier: GPL-2.0
# Breakage: the simulated unit ignores the STOP bit of ToPA entries
# (SDM 33.2.7.2), so a full-mode ring wraps over its oldest data
# instead of stopping.
# Must be caught by: full_mode_stops_when_full.
f=kmod/pure/sim_unit.c
pat='c->region_stop = entry & TOPA_STOP;'
grep -qF "$pat" "$f" || { echo "break: '$pat' not found in $f" >&2; exit 1; }
sed -i "s/c->region_stop = entry & TOPA_STOP;/c->region_stop = 0; \/* VM-suite breakage *\//" "$f"
echo "break: $f no longer honours ToPA STOP"
