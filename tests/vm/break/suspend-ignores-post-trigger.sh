# SPDX-License-Identifier: GPL-2.0
# Breakage: the suspend notifier ends an ARMED capture only, so one in
# its post-trigger delay keeps every CPU tracing into the suspend.
# Must be caught by: suspend_stops_capture.
. "$(dirname "$0")/lib.sh"
f=kmod/lifecycle.c
replace $f '	if (pts_state_end()) {' '	if (pts_state_claim(PTSCOPE_STATE_STOPPED)) {'
echo "break: $f stops only an ARMED capture at suspend"
