# SPDX-License-Identifier: GPL-2.0
# Breakage: CONFIGURE checks and registers the triggers (the tracepoint,
# the hotkey, the uprobe's file, offset and registration) only after it
# has released the current capture, as before the twenty-fifth round
# (checks) and the twenty-sixth (registrations): a refusal for bad input,
# or the kernel's refusal of the uprobe, loses a triggered snapshot not
# yet read.
# Must be caught by: configure_refusal_keeps_capture (and
# configure_registers_before_release).
. "$(dirname "$0")/lib.sh"
f=kmod/config.c
replace $f $'\terr = pts_trigger_prepare(cfg, admin, &trig, why);\n\tif (err)\n\t\tgoto out;' \
	$'\terr = 0;'
replace $f $'\t/* Nothing fails from here on: release the current capture, swap. */' \
	$'\tpts_unconfigure();\n\terr = pts_trigger_prepare(cfg, admin, &trig, why);\n\tif (err)\n\t\tgoto out;'
echo "break: $f checks and registers the triggers after the current capture is released"
