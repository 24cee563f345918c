# SPDX-License-Identifier: GPL-2.0
# Breakage: CONFIGURE allocates the sideband rings only after it has
# released the current capture, as before the twenty-sixth round: rings
# the caller's memory cgroup cannot hold leave the module IDLE, a
# triggered snapshot not yet read gone with it.
# Must be caught by: configure_refusal_keeps_capture (sideband-beyond-memcg).
. "$(dirname "$0")/lib.sh"
f=kmod/config.c
replace $f $'\terr = pts_sideband_prepare(plan.sideband_size, &sb);\n\tif (err) {' \
	$'\terr = 0;\n\tif (err) {'
replace $f $'\t/* Nothing fails from here on: release the current capture, swap. */' \
	$'\tpts_unconfigure();\n\terr = pts_sideband_prepare(plan.sideband_size, &sb);\n\tif (err) {\n\t\twhy->reason = PTSCOPE_R_NO_MEMORY;\n\t\tgoto out;\n\t}'
echo "break: $f allocates the sideband rings after the current capture is released"
