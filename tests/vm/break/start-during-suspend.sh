# SPDX-License-Identifier: GPL-2.0
# Breakage: START is accepted between the PM notifier's PREPARE and POST,
# as before that refusal: a process still running after the notifier
# (until the freezer, and again after the thaw) arms every CPU for the
# suspend, or for a hibernation image restored over the pages PT writes.
# Must be caught by: suspend_refuses_start.
. "$(dirname "$0")/lib.sh"
f=kmod/lifecycle.c
replace $f '	pts.pm_transition = true;' '	pts.pm_transition = false;'
echo "break: $f lets START arm again during a suspend"
