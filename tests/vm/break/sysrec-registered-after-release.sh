# SPDX-License-Identifier: GPL-2.0
# Breakage: CONFIGURE registers the syscall records' probes only after it
# has released the current capture's, as before the twenty-sixth round: a
# registration the kernel refuses then leaves the module IDLE.
# Must be caught by: configure_registers_before_release (tpreg:sys_enter
# after the previous capture's tpunreg).
. "$(dirname "$0")/lib.sh"
f=kmod/config.c
replace $f $'\terr = pts_sysrec_prepare(sysrec, &sysrec_registered);' $'\terr = 0;'
replace $f $'\tpts_sysrec_commit(sysrec, mm, pts.selected);' \
	$'\tpts_sysrec_teardown();\n\tif (pts_sysrec_prepare(sysrec, &sysrec_registered))\n\t\tpts_err("syscall records lost\\n");\n\tpts_sysrec_commit(sysrec, mm, pts.selected);'
echo "break: $f registers the syscall records' probes after the current capture's are released"
