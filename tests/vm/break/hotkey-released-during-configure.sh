# SPDX-License-Identifier: GPL-2.0
# Breakage: a CONFIGURE that keeps the capture's hotkey unregisters it
# with the current capture and registers it again, as before the
# twenty-sixth round: another driver taking the key in between leaves
# the module IDLE.
# Must be caught by: configure_registers_before_release (keyunreg:120).
. "$(dirname "$0")/lib.sh"
f=kmod/trigger.c
replace $f $'\tif (trig_key && trig_key != prep->key)\n\t\tunregister_sysrq_key(trig_key, &pts_sysrq_op);' \
	$'\tif (trig_key)\n\t\tunregister_sysrq_key(trig_key, &pts_sysrq_op);\n\tif (prep->key && !prep->key_held &&\n\t    register_sysrq_key(prep->key, &pts_sysrq_op))\n\t\tprep->key = 0;'
echo "break: $f releases the hotkey and takes it again when a CONFIGURE keeps it"
