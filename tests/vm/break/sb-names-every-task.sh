# SPDX-License-Identifier: GPL-2.0
# Breakage: the sideband of a capture configured without CAP_PERFMON
# names every task of the system (pids, comms, exec'd file names), as a
# CPU-wide capture's does.
# Must be caught by: unpriv_own_capture.
. "$(dirname "$0")/lib.sh"
f=kmod/sideband.c
replace $f '	return sb_own && !is_idle_task(t) && task_tgid(t) != sb_own;' '	return false;'
echo "break: $f hides no task from an unprivileged capture"
