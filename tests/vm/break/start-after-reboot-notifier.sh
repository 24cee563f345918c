# SPDX-License-Identifier: GPL-2.0
# Breakage: START is accepted after the reboot notifier has stopped
# every CPU, so a process still running then (user space runs on until
# the reset or machine_kexec()) arms PT again across the reset or kexec.
# Must be caught by: kexec_stops_tracing_and_boots,
# reboot_notifier_stops_tracing.
. "$(dirname "$0")/lib.sh"
f=kmod/lifecycle.c
replace $f '	pts.shutting_down = true;' '	pts.shutting_down = false;'
echo "break: $f lets START arm again after the reboot notifier"
