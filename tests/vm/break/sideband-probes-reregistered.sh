# SPDX-License-Identifier: GPL-2.0
# Breakage: a CONFIGURE that replaces a capture unregisters the
# sideband's sched probes with it and registers them again, as before
# the twenty-sixth round: a registration the kernel refuses then leaves
# the module IDLE.
# Must be caught by: configure_registers_before_release
# (tpunreg:sched_switch).
. "$(dirname "$0")/lib.sh"
f=kmod/sideband.c
replace $f $'\tsb_wm = prep->size / 2;' \
	$'\tsb_wm = prep->size / 2;\n\tunregister_probes();\n\tif (register_probes())\n\t\tpts_err("sideband probes lost\\n");'
echo "break: $f registers the sched probes again when a capture is replaced"
