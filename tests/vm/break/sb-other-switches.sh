# SPDX-License-Identifier: GPL-2.0
# Breakage: the sideband of a capture configured without CAP_PERFMON has
# every switch of the traced CPUs (other tasks' among themselves and with
# the idle task) and the CR3 identity of every hidden task, as before
# the twentieth round: when other users' processes run, and which
# address space each is.
# Must be caught by: unpriv_own_capture.
. "$(dirname "$0")/lib.sh"
f=kmod/sideband.c
replace $f '	if (!sb_own_task(prev) && !sb_own_task(next))' '	if (0)'
replace $f '	if (!sb_hidden(current))
		r.cr3 = task_user_cr3(current);' '	r.cr3 = task_user_cr3(current);'
echo "break: $f writes every switch and hidden tasks' CR3s for an unprivileged capture"
