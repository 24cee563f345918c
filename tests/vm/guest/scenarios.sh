# SPDX-License-Identifier: GPL-2.0
# Guest scenarios, sourced by /init (busybox sh). Every name here is
# listed in tests/vm/scenarios.txt with what it checks; a scenario
# whose prerequisite is missing reports SKIP with the reason.

# ---- the rig itself -------------------------------------------------------
# A real key press from the host reaches the kernel's sysrq handler:
# the path the hotkey trigger depends on (alt-sysrq-h prints the help).
mark_klog
echo "HOSTREQ sendkey alt-sysrq-h"
i=0
while [ $i -lt 100 ] && ! new_klog | grep -q 'sysrq: HELP'; do
	sleep 0.2
	i=$((i + 1))
done
if new_klog | grep -q 'sysrq: HELP'; then
	res rig_sendkey_reaches_sysrq PASS "HMP sendkey alt-sysrq-h -> 'sysrq: HELP' after $((i * 2 / 10)) s"
else
	res rig_sendkey_reaches_sysrq FAIL "no 'sysrq: HELP' in the kernel log 20 s after the key press"
fi
if [ "$(asuser 1000 id -u)" = 1000 ]; then
	res rig_drop_to_uid_1000 PASS "asuser 1000 id -u = 1000"
else
	res rig_drop_to_uid_1000 FAIL "asuser 1000 id -u = '$(asuser 1000 id -u 2>&1)'"
fi

# ---- the module -------------------------------------------------------------
MOD_SCENARIOS="load_without_pt_enodev load_simulated caps_ioctl_simulated
ioctl_capture_user_manual ioctl_capture_user_tracepoint ioctl_capture_user_sysrq_proc ioctl_capture_user_sysrq_key
ioctl_capture_kernel_manual ioctl_capture_kernel_tracepoint ioctl_capture_kernel_sysrq_proc ioctl_capture_kernel_sysrq_key
ioctl_capture_both_manual ioctl_capture_both_tracepoint ioctl_capture_both_sysrq_proc ioctl_capture_both_sysrq_key
snapshot_ring_wraps full_mode_stops_when_full multi_snapshot post_trigger_delay
ioctl_fuzz unpriv_refused unpriv_own_capture unpriv_other_users_capture
open_group_member_asks_no_capability open_outside_group_audited unpriv_own_capture_no_capability_denial
mmap_write_refused mapcount_after_fork_and_reconfigure mmap_moved_split_and_forked trigger_race_start_stop
tracepoint_pid_in_a_pid_namespace sideband_pids_of_the_capture_namespace
rmmod_while_mapped rmmod_while_armed
cpu_offline_during_capture full_mode_hotplug_stays_stopped foreign_state_restored foreign_traceen_while_armed
lbr_bts_beside_pt
trigger_stops_fifo_cpu sideband_percpu_lost_and_order sideband_watermark_wakes sideband_syscall_records
configure_vs_cpu_hotplug
uprobe_main_thread uprobe_second_thread uprobe_post_trigger uprobe_multi_snapshot uprobe_refusals uprobe_unpriv
sim_filter_captures module_unload"
# The command too runs every scope with every trigger kind.
CLI_MATRIX="$(for s in user kernel both; do
	for t in manual tracepoint sysrq_proc sysrq_key; do echo ${s}_$t; done; done)"
# `ptscope run` with each scope and the triggers that fit it; attach; status.
CLI_RUN="$(for s in user kernel both; do
	for t in exit manual tracepoint sysrq_proc; do echo cli_run_${s}_$t; done; done)"
CLI_SCENARIOS="cli_caps_simulated $(for c in $CLI_MATRIX; do echo cli_capture_$c; done)
$CLI_RUN cli_run_user_syscalls cli_run_user_pidns cli_attach_duration cli_attach_manual cli_status_armed cli_status_after
cli_run_user_uprobe cli_uprobe_thread cli_uprobe_shared_object cli_uprobe_multi_snapshot
cli_status_uprobe"

if [ "$VM_HAVE_MODULE" != 1 ]; then
	for s in $MOD_SCENARIOS $CLI_SCENARIOS; do
		res $s SKIP "$VM_MODULE_REASON"
	done
	return 0
fi

insmod_sim() { insmod /ptscope.ko simulate=1; }

# Load on a CPU without PT and without the simulated unit: ENODEV and
# exactly one line of ours that says why.
mark_klog
out=$(kmodload /ptscope.ko 2>&1)
st=$?
lines=$(new_klog | grep -i 'ptscope' | grep -v -e 'taints kernel' -e 'module verification failed')
n=$(echo "$lines" | grep -c .)
if [ $st -eq 19 ] && [ "$n" = 1 ]; then
	res load_without_pt_enodev PASS "finit_module: ENODEV; log: $lines"
else
	res load_without_pt_enodev FAIL "finit_module status $st '$out' (want 19 = ENODEV); $n log lines: $(echo "$lines" | tr '\n' '|')"
	rmmod ptscope 2>/dev/null
fi

mark_klog
if out=$(insmod_sim 2>&1) && [ -c /dev/ptscope ]; then
	res load_simulated PASS "insmod simulate=1 ok, /dev/ptscope $(stat -c '%a' /dev/ptscope); log: $(new_klog | grep -i ptscope | grep -v taint | tail -n 1)"
else
	res load_simulated FAIL "insmod simulate=1: '$out', /dev/ptscope $(ls -l /dev/ptscope 2>&1)"
	for s in $MOD_SCENARIOS $CLI_SCENARIOS; do
		case $s in load_*) ;; *) res $s SKIP "module did not load" ;; esac
	done
	return 0
fi

run_t ptstest caps caps_ioctl_simulated

# Scope x trigger matrix through the raw ABI.
for scope in user kernel both; do
	for trig in manual tracepoint sysrq_proc sysrq_key; do
		run_t ptstest capture ioctl_capture_${scope}_${trig} --scope $scope --trigger $trig
	done
done

run_t ptstest capture snapshot_ring_wraps --scope both --trigger manual --size 8192 --work-ms 1500 --expect-wrap
run_t ptstest capture full_mode_stops_when_full --scope both --trigger none --mode full --size 8192 --work-ms 500
run_t ptstest capture multi_snapshot --scope user --trigger sysrq_proc --multi 3
run_t ptstest capture post_trigger_delay --scope both --trigger manual --post-us 300000

# Bad ioctls: deterministic refusals, then random calls; no oops.
run_t ioctl_fuzz ioctl_fuzz 20000

# Capability checks seen from the guest: a kprobe on security_capable(),
# which every capable(), ns_capable() and file_ns_capable() goes through,
# with its cap and opts arguments (x86-64: 3rd and 4th in rdx, rcx).
# A check without CAP_OPT_NOAUDIT (bit 1) is one an LSM audits when it
# refuses. CAP_SYS_ADMIN is 21, CAP_PERFMON 38 (linux/capability.h).
CAPT=/sys/kernel/tracing
cap_probe_on() {
	echo 'p:ptscope_vm/capchk security_capable cap=%dx:s32 opts=%cx:u32' \
		>> $CAPT/kprobe_events 2>/dev/null &&
		echo 1 > $CAPT/events/ptscope_vm/capchk/enable && echo > $CAPT/trace
}
cap_probe_off() {
	echo 0 > $CAPT/events/ptscope_vm/capchk/enable 2>/dev/null
	echo '-:ptscope_vm/capchk' >> $CAPT/kprobe_events 2>/dev/null
}
# cap_audited COMM: the audited checks of caps 21 and 38 COMM made since
# the trace was cleared, as "cap,cap,..." (empty: none).
cap_audited() {
	awk -v c="$1" '$0 ~ " capchk: " && $1 ~ ("^" c "-[0-9]+$") {
		cap = ""; o = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^cap=/) cap = substr($i, 5)
			if ($i ~ /^opts=/) o = substr($i, 6)
		}
		if ((cap == 21 || cap == 38) && int(o / 2) % 2 == 0)
			l = l (l == "" ? "" : ",") cap
	} END { print l }' $CAPT/trace
}
# Opening with group=1000 (perms.c pts_perm_open()): a member's open asks
# no capability; an outsider's is refused after an audited
# perfmon_capable(); root outside the group opens through it.
open_capability_checks() {
	if ! cap_probe_on; then
		for s in open_group_member_asks_no_capability open_outside_group_audited; do
			res $s SKIP "no kprobe on security_capable (kprobe_events)"
		done
		return 0
	fi
	echo > $CAPT/trace
	asuser 1000 /t/permtest open
	st=$?
	a=$(cap_audited permtest)
	if [ $st -eq 0 ] && [ -z "$a" ]; then
		res open_group_member_asks_no_capability PASS "uid/gid 1000 opened; no audited CAP_SYS_ADMIN/CAP_PERFMON check"
	else
		res open_group_member_asks_no_capability FAIL "uid/gid 1000: open status $st (want 0), audited checks of caps '$a' (want none)"
	fi
	# The node's mode would stop uid 1001 before the module: open it up
	# so that the module's own check is reached.
	chmod 0666 /dev/ptscope
	echo > $CAPT/trace
	asuser 1001 /t/permtest open
	st=$?
	a1=$(cap_audited permtest)
	echo > $CAPT/trace
	/t/permtest open
	st0=$?
	a0=$(cap_audited permtest)
	chmod 0660 /dev/ptscope
	# EPERM = 1
	if [ $st -eq 1 ] && [ "$a1" = 38,21 ] && [ $st0 -eq 0 ] && [ "$a0" = 38 ]; then
		res open_outside_group_audited PASS "uid 1001: EPERM after audited checks $a1; root outside gid 1000: opened after audited check $a0"
	else
		res open_outside_group_audited FAIL "uid 1001: status $st (want 1 = EPERM), audited '$a1' (want 38,21); root: status $st0 (want 0), audited '$a0' (want 38)"
	fi
	cap_probe_off
}
# unpriv_own_capture as traced by cap_probe_on: the one refusal it
# provokes that rests on a capability (the 8 MiB ring, BUFFER_LIMIT:
# perfmon_capable() asked and refused) is the only audited check.
own_capture_capability_checks() {
	if [ ! -e $CAPT/events/ptscope_vm/capchk/enable ]; then
		res unpriv_own_capture_no_capability_denial SKIP "no kprobe on security_capable (kprobe_events)"
		return 0
	fi
	a=$(cap_audited permtest)
	if [ "$a" = 38,21 ]; then
		res unpriv_own_capture_no_capability_denial PASS "audited checks: $a (the refused 8 MiB ring's perfmon_capable()) and none else"
	else
		res unpriv_own_capture_no_capability_denial FAIL "audited checks of caps '$a', want 38,21 (the refused 8 MiB ring's) and none else"
	fi
}

# Unprivileged user: kernel scope and other users' processes refused.
# The module's group=<gid> parameter is the documented way to let a
# group open the node (0660); uid 1000 runs with gid 1000.
# No udev here: chgrp does what the documented udev rule does.
if rmmod ptscope && insmod /ptscope.ko simulate=1 group=1000 && chgrp 1000 /dev/ptscope; then
	run_t asuser 1000 /t/ptstest unpriv unpriv_refused
	open_capability_checks
	# Its own capture: usable, and no physical address reaches it.
	cap_probe_on
	run_t asuser 1000 /t/permtest own-user unpriv_own_capture
	own_capture_capability_checks
	cap_probe_off
	# Root's armed capture: nothing but its state word.
	rm -f /tmp/ready /tmp/go
	permtest arm-hold /tmp/ready /tmp/go &
	hp=$!
	i=0
	while [ ! -e /tmp/ready ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	run_t asuser 1000 /t/permtest other-user unpriv_other_users_capture
	touch /tmp/go
	wait $hp
else
	for s in unpriv_refused unpriv_own_capture unpriv_other_users_capture \
		 open_group_member_asks_no_capability open_outside_group_audited \
		 unpriv_own_capture_no_capability_denial; do
		res $s FAIL "could not reload with group=1000"
	done
fi
rmmod ptscope 2>/dev/null
insmod_sim

run_t ptstest mmap-write mmap_write_refused
run_t permtest mapcount mapcount_after_fork_and_reconfigure
run_t permtest mremap-split mmap_moved_split_and_forked
run_t permtest mmap-compact mmap_compact_offsets
run_t permtest mmap-compact-ia32 mmap_compact_offsets_ia32 /t/mmap32
run_t permtest trigger-race trigger_race_start_stop 4000
run_t permtest tp-pidns tracepoint_pid_in_a_pid_namespace
run_t permtest sb-pidns sideband_pids_of_the_capture_namespace
run_t permtest tp-typed tracepoint_trigger_typed_probes
run_t permtest configure-keeps configure_refusal_keeps_capture
run_t permtest configure-replace configure_registers_before_release
run_t permtest unconfigure-forgets unconfigure_forgets_capture

# rmmod while a mapping exists (its fd closed): refused (EBUSY) or
# harmless; the mapping stays readable; unload works once it is gone.
rm -f /tmp/ready /tmp/go
ptstest hold-mapped /tmp/ready /tmp/go > /tmp/hold.out 2>&1 &
hp=$!
i=0
while [ ! -e /tmp/ready ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
o1=$(rmmod ptscope 2>&1); s1=$?
touch /tmp/go
wait $hp; hs=$?
o2=$(rmmod ptscope 2>&1); s2=$?
if [ $s1 -eq 0 ]; then
	# Unloaded under a live mapping: only sound if nothing broke.
	d1="rmmod while mapped SUCCEEDED"
else
	d1="rmmod while mapped refused: $o1"
fi
if [ $hs -eq 0 ] && { [ $s1 -eq 0 ] || [ $s2 -eq 0 ]; } && insmod_sim; then
	res rmmod_while_mapped PASS "$d1; $(sed -n 's/^RESULT hold_mapped PASS //p' /tmp/hold.out); unload after unmap ok"
else
	res rmmod_while_mapped FAIL "$d1; holder status $hs: $(tr '\n' ' ' < /tmp/hold.out); second rmmod status $s2 '$o2'"
	lsmod | grep -q ptscope || insmod_sim
fi

# rmmod while armed: with the fd open it is refused; once the fd is
# closed the module must stop the capture itself on unload.
rm -f /tmp/ready /tmp/go
ptstest arm-hold /tmp/ready /tmp/go &
hp=$!
i=0
while [ ! -e /tmp/ready ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
o1=$(rmmod ptscope 2>&1); s1=$?
touch /tmp/go
wait $hp
mark_klog
o2=$(rmmod ptscope 2>&1); s2=$?
sleep 1
if [ $s1 -ne 0 ] && [ $s2 -eq 0 ] && ! lsmod | grep -q '^ptscope' && insmod_sim; then
	res rmmod_while_armed PASS "fd open: refused ($o1); armed, fd closed: unloaded; reload ok"
else
	res rmmod_while_armed FAIL "fd open: status $s1 '$o1'; fd closed: status $s2 '$o2'"
	lsmod | grep -q ptscope || insmod_sim
fi

if [ "$(nproc)" -ge 2 ]; then
	run_t ptstest capture cpu_offline_during_capture --scope both --trigger manual --offline-cpu 1 --work-ms 600
	run_t ptsunit full-hotplug full_mode_hotplug_stays_stopped
else
	res cpu_offline_during_capture SKIP "one CPU only"
	res full_mode_hotplug_stays_stopped SKIP "one CPU only"
fi

# Another owner of the PT unit (perf intel_pt, KVM), played through the
# simulated unit's sim_msr file: its values survive a capture; its
# TraceEn while armed is a reported conflict, never a write into freed
# pages.
run_t ptsunit foreign-state foreign_state_restored
# A read() whose copy to user space waits on a page fault (userfaultfd)
# holds up no ioctl (nor the notifiers, which take the same lock).
run_t ptsunit read-fault sideband_read_fault_holds_no_lock
# A suspend (PM notifier) ends an armed capture and one in its
# post-trigger delay: /sys/power/pm_test freezer runs the notifiers and
# the freezer, then resumes at once.
# And START is refused from the notifier to the end of the suspend.
if [ -w /sys/power/pm_test ]; then
	run_t ptsunit suspend-stops suspend_stops_capture
	run_t ptsunit suspend-start suspend_refuses_start
else
	res suspend_stops_capture SKIP "no /sys/power/pm_test (kernel without CONFIG_PM_DEBUG)"
	res suspend_refuses_start SKIP "no /sys/power/pm_test (kernel without CONFIG_PM_DEBUG)"
fi
if [ "$(nproc)" -ge 2 ]; then
	run_t ptsunit foreign-traceen foreign_traceen_while_armed
else
	res foreign_traceen_while_armed SKIP "one CPU only"
fi
# An LBR or BTS user (perf -b, intel_bts) on a model where perf keeps
# them apart from PT, played through DEBUGCTL in sim_msr: refused at
# START, a conflict at STOP.
if [ "$(nproc)" -ge 2 ]; then
	run_t ptsunit lbr-bts lbr_bts_beside_pt
else
	res lbr_bts_beside_pt SKIP "one CPU only"
fi

# A SCHED_FIFO task that never yields holds cpu1: RT throttling off, and
# from 6.12 the fair server (a deadline server that gives normal tasks
# 50 ms a second under RT load) off on cpu1 too, so that no normal task
# (a kworker) runs there. The trigger on cpu0 must still stop cpu1.
if [ "$(nproc)" -ge 2 ]; then
	rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	[ -d /sys/kernel/debug/sched ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	fs=/sys/kernel/debug/sched/fair_server/cpu1/runtime
	fsr=
	if [ -w $fs ]; then
		fsr=$(cat $fs)
		echo 0 > $fs
	fi
	run_t permtest fifo-stop trigger_stops_fifo_cpu
	[ -n "$fsr" ] && echo "$fsr" > $fs
	echo "$rt" > /proc/sys/kernel/sched_rt_runtime_us
else
	res trigger_stops_fifo_cpu SKIP "one CPU only"
fi

# The sideband's per-CPU rings: drops counted per CPU, each CPU's records
# in TSC order, LOST records; a half-full ring wakes a poller.
run_t sbtest percpu sideband_percpu_lost_and_order
run_t sbtest wake sideband_watermark_wakes
# The traced child's syscalls and user page faults (PTSCOPE_CFG_SYSREC):
# real kernel tracepoints; only the trace beside them is simulated.
run_t sbtest sysrec sideband_syscall_records

# CONFIGURE/UNCONFIGURE (tracepoint probes: static keys) against CPU
# hotplug, the hung-task detector armed at 10 s: nothing may block.
# Last before the unload: a deadlock leaves both loops stuck.
cpu1=/sys/devices/system/cpu/cpu1/online
if [ "$(nproc)" -ge 2 ] && [ -w $cpu1 ]; then
	hto=$(cat /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null)
	echo 10 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	mark_klog
	(
		end=$(($(cut -d. -f1 /proc/uptime) + 8))
		while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
			echo 0 > $cpu1
			echo 1 > $cpu1
		done
	) &
	tp=$!
	permtest hotplug-loop configure_vs_cpu_hotplug 8000 > /tmp/hp.out 2>&1 &
	lp=$!
	i=0
	while { kill -0 $tp 2>/dev/null || kill -0 $lp 2>/dev/null; } && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $tp 2>/dev/null || kill -0 $lp 2>/dev/null; then
		res configure_vs_cpu_hotplug FAIL "stuck 30 s after an 8 s loop; $(new_klog | grep -m1 'blocked for more than')"
	elif new_klog | grep -q 'blocked for more than'; then
		res configure_vs_cpu_hotplug FAIL "$(new_klog | grep -m1 'blocked for more than')"
	else
		wait $lp
		grep '^RESULT' /tmp/hp.out
		grep -q '^RESULT configure_vs_cpu_hotplug PASS' /tmp/hp.out || NFAIL=$((NFAIL + 1))
		tick
	fi
	[ -n "$hto" ] && echo "$hto" > /proc/sys/kernel/hung_task_timeout_secs
	echo 1 > $cpu1 2>/dev/null
else
	res configure_vs_cpu_hotplug SKIP "one CPU only, or cpu1 cannot go offline"
fi

# ---- the ptscope command ----------------------------------------------------
if [ "$VM_HAVE_CLI" != 1 ]; then
	for s in $CLI_SCENARIOS; do
		res $s SKIP "$VM_CLI_REASON"
	done
else
	. /t/cli-scenarios.sh
fi

# ---- the user-function trigger (uprobe): raw ABI, then the command --------------
. /t/uprobe-scenarios.sh

# ---- the simulated unit's CR3 and IP filtering, TraceStop, OVF -------------
. /t/sim-scenarios.sh

# ---- unload ---------------------------------------------------------------------
mark_klog
if out=$(rmmod ptscope 2>&1) && [ ! -e /dev/ptscope ]; then
	res module_unload PASS "rmmod ok"
else
	res module_unload FAIL "rmmod: '$out'"
fi
