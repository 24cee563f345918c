# SPDX-License-Identifier: GPL-2.0
# Breakage: CONFIGURE checks the triggers against the running kernel (the
# tracepoint, the hotkey, the uprobe's file and offset) only after it has
# released the current capture, as before the twenty-fifth round: a
# refusal for bad input loses a triggered snapshot not yet read.
# Must be caught by: configure_refusal_keeps_capture.
. "$(dirname "$0")/lib.sh"
f=kmod/config.c
replace $f $'\terr = pts_trigger_prepare(cfg, admin, &trig, why);\n\tif (err)\n\t\tgoto out;' \
	$'\terr = 0;'
replace $f $'\terr = pts_trigger_commit(&trig, why);' \
	$'\terr = pts_trigger_prepare(cfg, admin, &trig, why);\n\tif (!err)\n\t\terr = pts_trigger_commit(&trig, why);'
echo "break: $f checks the triggers after the current capture is released"
