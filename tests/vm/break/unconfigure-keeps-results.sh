# SPDX-License-Identifier: GPL-2.0
# Breakage: UNCONFIGURE leaves the released capture's configuration, its
# trigger's fields, times and per-CPU RTIT values where GET_STATE and
# GET_CPU_STATUS serve them to any opener, as before the twenty-fifth
# round.
# Must be caught by: unconfigure_forgets_capture.
. "$(dirname "$0")/lib.sh"
f=kmod/config.c
replace $f $'\tforget_capture();\n\tpts_state_set_run(PTSCOPE_STATE_IDLE);' \
	$'\tpts_state_set_run(PTSCOPE_STATE_IDLE);'
echo "break: $f: UNCONFIGURE forgets nothing of the capture"
