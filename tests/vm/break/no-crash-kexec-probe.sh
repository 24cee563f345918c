# SPDX-License-Identifier: GPL-2.0
# Breakage: the module registers no probe on machine_crash_shutdown()
# (kmod/crash.c), as before the twenty-third round: with a crash kernel
# loaded and crash_kexec_post_notifiers clear nothing stops the crashing
# CPU before the jump.
# Must be caught by: kdump_default_order_crash_probe.
. "$(dirname "$0")/lib.sh"
f=kmod/crash.c
replace $f $'\tint err = register_kprobe(&pts_crash_kp);' $'\tint err = -ENOSYS;'
echo "break: $f: no crash-kexec probe"
