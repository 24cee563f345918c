# SPDX-License-Identifier: GPL-2.0
# The user-function trigger (a uprobe), sourced by scenarios.sh with the
# module loaded (simulate=1): through the raw ABI (uprobetest), then
# through the ptscope command (its uprobetest target waits for a file
# before each call, so the capture is armed first whatever the guest's
# speed). The probed code is real code of the guest's processes; the
# trace around it is the simulated unit's (docs/testing-vm.md).

run_t uprobetest main uprobe_main_thread
run_t uprobetest thread uprobe_second_thread
run_t uprobetest post uprobe_post_trigger
run_t uprobetest multi uprobe_multi_snapshot 3
run_t uprobetest refusals uprobe_refusals
run_t uprobetest perfmon uprobe_perfmon_only
if rmmod ptscope && insmod /ptscope.ko simulate=1 group=1000 && chgrp 1000 /dev/ptscope; then
	run_t asuser 1000 /t/uprobetest unpriv uprobe_unpriv
else
	res uprobe_unpriv FAIL "could not reload with group=1000"
fi
rmmod ptscope 2>/dev/null
insmod /ptscope.ko simulate=1

# Without the command, scenarios.sh reports the cli_* ones as SKIP.
[ "$VM_HAVE_CLI" = 1 ] || return 0

# "field": value of the manifest's trigger object.
trig_field() {
	sed -n '/"trigger": *{/,/}/s/.*"'"$2"'": *"\{0,1\}\([^",]*\)"\{0,1\},\{0,1\}$/\1/p' \
		"$1/manifest.json" | head -n 1
}

# up_run NAME TRIGGER MODE [N]: `ptscope run --trigger TRIGGER -- uprobetest
# target MODE /tmp/NAME.go [N]` in the background ($rp); 0 once armed.
up_run() {
	rm -rf /tmp/$1.ptscope /tmp/$1.*.ptscope /tmp/$1.go*
	ptscope run -q --scope user --size 64K --trigger "$2" $5 -o /tmp/$1.ptscope \
		-- uprobetest target $3 /tmp/$1.go $4 > /tmp/$1.out 2>&1 &
	rp=$!
	ptstest wait-armed 20000 2> /tmp/wait.err
}

# One hit in the main thread, on a bare SYMBOL (magic-trace's -trigger):
# the bundle's trigger is the uprobe, in the traced process's main thread.
name=cli_run_user_uprobe
if ! up_run $name probe_main main; then
	res $name FAIL "run never armed: $(cat /tmp/wait.err) $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	res cli_status_uprobe FAIL "no armed capture to look at"
	wait_pid $rp 1
else
	ptscope status > /tmp/status.out 2>&1
	if grep -q '^armed on *uprobe /t/uprobetest+0x[0-9a-f]* (file offset), pid [0-9]*, 0 hit' \
		/tmp/status.out; then
		res cli_status_uprobe PASS "$(grep '^armed on' /tmp/status.out)"
	else
		res cli_status_uprobe FAIL "$(head -c 500 /tmp/status.out | tr '\n' '|')"
	fi
	touch /tmp/$name.go
	wait_pid $rp 60
	st=$?
	b=/tmp/$name.ptscope
	tpid=$(trig_field $b pid) ttid=$(trig_field $b tid)
	if [ $st -ne 0 ]; then
		res $name FAIL "run exit status $st: $(head -c 400 /tmp/$name.out | tr '\n' ' ')"
	elif ! msg=$(bundle_complete $b uprobe); then
		res $name FAIL "$msg; run said: $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	elif ! grep -q '^trigger: uprobe on probe_main in /t/uprobetest (section .text' /tmp/$name.out ||
		[ "$tpid" != "$ttid" ] || [ -z "$tpid" ] || [ "$(trig_field $b detail)" != probe_main ]; then
		res $name FAIL "trigger pid '$tpid' tid '$ttid' detail '$(trig_field $b detail)'; run said: $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	else
		res $name PASS "$msg; $(grep -m1 '^trigger:' /tmp/$name.out); main thread $ttid"
		(cd /tmp && tar -cf "$name.tar" "$name.ptscope") && send_file bundle $name "/tmp/$name.tar"
		rm -f "/tmp/$name.tar"
	fi
fi
rm -rf /tmp/$name.ptscope

# Hit only by a thread the program starts after arming.
name=cli_uprobe_thread
if ! up_run $name probe_thread thread; then
	res $name FAIL "run never armed: $(cat /tmp/wait.err) $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	wait_pid $rp 1
else
	touch /tmp/$name.go
	wait_pid $rp 60
	st=$?
	b=/tmp/$name.ptscope
	tpid=$(trig_field $b pid) ttid=$(trig_field $b tid)
	thr=$(sed -n 's/^uprobetest: thread \([0-9]*\) calls probe_thread/\1/p' /tmp/$name.out)
	if [ $st -ne 0 ]; then
		res $name FAIL "run exit status $st: $(head -c 400 /tmp/$name.out | tr '\n' ' ')"
	elif ! msg=$(bundle_complete $b uprobe); then
		res $name FAIL "$msg; run said: $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	elif [ -z "$thr" ] || [ "$ttid" != "$thr" ] || [ "$tpid" = "$ttid" ]; then
		res $name FAIL "trigger pid '$tpid' tid '$ttid', the calling thread '$thr'"
	else
		res $name PASS "$msg; trigger tid $ttid = the second thread (pid $tpid)"
	fi
fi
rm -rf /tmp/$name.ptscope

# A function of a shared object the program maps after arming: the uprobe
# is on the file, so the kernel installs it at that mmap.
name=cli_uprobe_shared_object
if ! up_run $name uprobe:/t/libupt.so:lib_probe lib; then
	res $name FAIL "run never armed: $(cat /tmp/wait.err) $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	wait_pid $rp 1
else
	touch /tmp/$name.go
	wait_pid $rp 60
	st=$?
	b=/tmp/$name.ptscope
	if [ $st -ne 0 ]; then
		res $name FAIL "run exit status $st: $(head -c 400 /tmp/$name.out | tr '\n' ' ')"
	elif ! msg=$(bundle_complete $b uprobe); then
		res $name FAIL "$msg; run said: $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	elif ! grep -q '^trigger: uprobe on lib_probe in /t/libupt.so' /tmp/$name.out ||
		[ "$(trig_field $b pid)" != "$(trig_field $b tid)" ]; then
		res $name FAIL "trigger pid $(trig_field $b pid) tid $(trig_field $b tid); run said: $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	else
		res $name PASS "$msg; $(grep -m1 '^trigger:' /tmp/$name.out)"
	fi
fi
rm -rf /tmp/$name.ptscope

# --multi-snapshot, three hits: each after the capture is armed again.
name=cli_uprobe_multi_snapshot
if ! up_run $name probe_main main 3 --multi-snapshot; then
	res $name FAIL "run never armed: $(cat /tmp/wait.err) $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	wait_pid $rp 1
else
	ok=1 why=
	for k in 1 2 3; do
		touch /tmp/$name.go.$k
		i=0
		while [ ! -s /tmp/$name.$k.ptscope/manifest.json ] && [ $i -lt 600 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ $k -lt 3 ] || break
		# re-armed: the next hit must find it armed
		ptstest wait-armed 20000 2> /tmp/wait.err || { ok=0; why="not re-armed after $k"; break; }
	done
	wait_pid $rp 60
	st=$?
	n=0
	for k in 1 2 3; do
		b=/tmp/$name.$k.ptscope
		if msg=$(bundle_complete $b uprobe); then
			n=$((n + 1))
		else
			ok=0 why="$why bundle $k: $msg;"
		fi
	done
	if [ $ok = 1 ] && [ $st -eq 0 ]; then
		res $name PASS "3 hits, $n bundles with reason uprobe"
	else
		res $name FAIL "run status $st, $n good bundles; $why run said: $(head -c 300 /tmp/$name.out | tr '\n' ' ')"
	fi
fi
rm -rf /tmp/$name.*
