# SPDX-License-Identifier: GPL-2.0
# Scenarios of the ptscope command (static build in /bin/ptscope),
# sourced by scenarios.sh with the module loaded (simulate=1).
# Bundles of the manual-trigger captures go to the host (serial 1) to
# be decoded there; the others are checked here (manifest + trace).

out=$(ptscope caps 2>&1)
if echo "$out" | grep -qi 'simulated'; then
	res cli_caps_simulated PASS "$(echo "$out" | grep -i -m1 'simulated')"
else
	res cli_caps_simulated FAIL "no 'simulated' in: $(echo "$out" | head -n 5 | tr '\n' '|')"
fi

# The kernel-scope rule the module applies on this kernel (docs/abi.md,
# Permissions): 6.12 exports perf_allow_kernel(), 6.1 does not.
case $(uname -r) in
6.1.*) want='exports neither perf_event_paranoid nor perf_allow_kernel() to modules (6.1)' ;;
*) want="goes through the kernel's perf_allow_kernel() (6.12)" ;;
esac
if echo "$out" | grep -qF "$want"; then
	res cli_caps_permission_rule PASS "$(uname -r): $want"
else
	res cli_caps_permission_rule FAIL "$(uname -r): no '$want' in: $(echo "$out" | grep -A3 '^permissions' | tr '\n' '|')"
fi

# Wait for `ptscope record` (pid $1) to end, at most $2 s; 0 if it exited 0.
wait_pid() {
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt $(($2 * 10)) ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -INT "$1" 2>/dev/null
		sleep 1
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		return 124
	fi
	wait "$1"
}

# A bundle is usable if its manifest exists and some cpuN.pt has bytes.
bundle_ok() {
	[ -s "$1/manifest.json" ] || { echo "no $1/manifest.json"; return 1; }
	_bytes=0
	for _f in "$1"/cpu*.pt; do
		[ -f "$_f" ] && _bytes=$((_bytes + $(stat -c %s "$_f")))
	done
	[ $_bytes -gt 0 ] || { echo "no trace bytes in $1/cpu*.pt"; return 1; }
	echo "$(ls "$1" | wc -l) files, $_bytes trace bytes, $(du -sk "$1" | cut -f1) KiB"
}

key=x
for scope in user kernel both; do
	for trig in manual tracepoint sysrq_proc sysrq_key; do
		name=cli_capture_${scope}_${trig}
		case " $(echo $CLI_MATRIX) " in
		*" ${scope}_${trig} "*) ;;
		*) continue ;;
		esac
		b=/tmp/$name.ptscope
		rm -rf "$b"
		wpid=
		case $trig in
		manual) spec=manual ;;
		tracepoint)
			rm -f /tmp/spin.fifo
			mkfifo /tmp/spin.fifo
			spin 0 < /tmp/spin.fifo &
			wpid=$!
			exec 7> /tmp/spin.fifo
			spec=tracepoint:sched:sched_process_exit:pid=$wpid ;;
		*) spec=hotkey:$key ;;
		esac
		ptscope record -q --scope $scope --size 64K --trigger "$spec" -o "$b" > /tmp/rec.out 2>&1 &
		rp=$!
		if ! ptstest wait-armed 15000 2> /tmp/wait.err; then
			res $name FAIL "record never armed: $(cat /tmp/wait.err) $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
			wait_pid $rp 1
			[ -n "$wpid" ] && { exec 7>&-; wait $wpid; }
			continue
		fi
		spin 200
		case $trig in
		manual) tout=$(ptscope trigger 2>&1) || echo "ptscope trigger: $tout" >> /tmp/rec.out ;;
		tracepoint) echo x >&7; exec 7>&-; wait $wpid ;;
		sysrq_proc) echo $key > /proc/sysrq-trigger ;;
		sysrq_key) echo "HOSTREQ sendkey alt-sysrq-$key" ;;
		esac
		wait_pid $rp 40
		st=$?
		if [ $st -ne 0 ]; then
			res $name FAIL "record exit status $st: $(head -c 400 /tmp/rec.out | tr '\n' ' ')"
			continue
		fi
		if msg=$(bundle_ok "$b"); then
			res $name PASS "$msg"
		else
			res $name FAIL "$msg; record said: $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
			continue
		fi
		# One bundle per scope travels to the host for decoding.
		if [ $trig = manual ]; then
			(cd /tmp && tar -cf "$name.tar" "$name.ptscope") && send_file bundle $name "/tmp/$name.tar"
			rm -f "/tmp/$name.tar"
		fi
		rm -rf "$b"
	done
done

# ---- ptscope run / attach / status ------------------------------------------
# A bundle is complete: bundle_ok, its manifest says "complete": true and
# every cpuN.pt of the capture is non-empty (the simulated unit writes on
# every online CPU). With $2, the manifest's trigger reason must be $2.
bundle_complete() {
	_m=$(bundle_ok "$1") || { echo "$_m"; return 1; }
	grep -q '"complete": *true' "$1/manifest.json" ||
		{ echo "manifest not complete: $(grep -o '"complete": *[a-z]*' "$1/manifest.json")"; return 1; }
	_ncpu=0
	for _f in "$1"/cpu*.pt; do
		[ -s "$_f" ] || { echo "empty $(basename "$_f")"; return 1; }
		_ncpu=$((_ncpu + 1))
	done
	[ $_ncpu -eq "$(nproc)" ] || { echo "$_ncpu cpuN.pt files for $(nproc) CPUs"; return 1; }
	if [ -n "${2:-}" ]; then
		grep -q "\"reason\": *\"$2\"" "$1/manifest.json" ||
			{ echo "trigger reason not $2: $(grep -o '"reason": *"[a-z]*"' "$1/manifest.json" | tr '\n' ' ')"; return 1; }
	fi
	echo "$_m, complete${2:+, reason $2}"
}

# A test program held until the test writes to fd 8 (spin 0 waits for a
# byte on stdin): `ptscope run` arms before it runs, and it is still
# running when the trigger comes, whatever the guest's speed.
hold_open() { rm -f /tmp/hold.fifo; mkfifo /tmp/hold.fifo; }
hold_release() { echo x >&8; exec 8>&-; }

# `ptscope run -- CMD` for each scope with the triggers that make sense
# for it: CMD's exit (default), manual, a tracepoint (the exit of another
# test program, by pid), the hotkey through /proc/sysrq-trigger. The
# exit-trigger bundle of each scope goes to the host to be decoded.
for scope in user kernel both; do
	for trig in exit manual tracepoint sysrq_proc; do
		name=cli_run_${scope}_${trig}
		b=/tmp/$name.ptscope
		rm -rf "$b"
		if [ $trig = exit ]; then
			ptscope run -q --scope $scope --size 64K -o "$b" -- spin 300 > /tmp/rec.out 2>&1
			st=$?
			want=
		else
			wpid=
			case $trig in
			manual) spec=manual want=ioctl ;;
			tracepoint)
				rm -f /tmp/spin.fifo
				mkfifo /tmp/spin.fifo
				spin 0 < /tmp/spin.fifo &
				wpid=$!
				exec 7> /tmp/spin.fifo
				spec=tracepoint:sched:sched_process_exit:pid=$wpid want=tracepoint ;;
			sysrq_proc) spec=hotkey want=hotkey ;;
			esac
			hold_open
			ptscope run -q --scope $scope --size 64K --trigger "$spec" -o "$b" \
				-- spin 0 < /tmp/hold.fifo > /tmp/rec.out 2>&1 &
			rp=$!
			exec 8> /tmp/hold.fifo
			if ! ptstest wait-armed 15000 2> /tmp/wait.err; then
				res $name FAIL "run never armed: $(cat /tmp/wait.err) $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
				hold_release
				wait_pid $rp 5
				[ -n "$wpid" ] && { exec 7>&-; wait $wpid; }
				continue
			fi
			spin 200
			case $trig in
			manual) tout=$(ptscope trigger 2>&1) || echo "ptscope trigger: $tout" >> /tmp/rec.out ;;
			tracepoint) echo x >&7; exec 7>&-; wait $wpid ;;
			sysrq_proc) echo x > /proc/sysrq-trigger ;;
			esac
			# CMD ends after the snapshot (run waits for it, as perf does).
			sleep 0.3
			hold_release
			wait_pid $rp 40
			st=$?
		fi
		if [ $st -ne 0 ]; then
			res $name FAIL "run exit status $st: $(head -c 400 /tmp/rec.out | tr '\n' ' ')"
			rm -rf "$b"
			continue
		fi
		if msg=$(bundle_complete "$b" $want); then
			res $name PASS "$msg"
		else
			res $name FAIL "$msg; run said: $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
			rm -rf "$b"
			continue
		fi
		if [ $trig = exit ]; then
			(cd /tmp && tar -cf "$name.tar" "$name.ptscope") && send_file bundle $name "/tmp/$name.tar"
			rm -f "/tmp/$name.tar"
		fi
		rm -rf "$b"
	done
done

# run_syscalls NAME SCOPE SIZE: `ptscope run --syscalls -- sysprog 5` in
# SCOPE; a complete bundle with config.syscall_records goes to the host.
run_syscalls() {
	local name=$1 b=/tmp/$1.ptscope st msg

	rm -rf "$b"
	ptscope run -q --scope "$2" --size "$3" --syscalls -o "$b" -- sysprog 5 > /tmp/rec.out 2>&1
	st=$?
	if [ $st -ne 0 ]; then
		res "$name" FAIL "run exit status $st: $(head -c 400 /tmp/rec.out | tr '\n' ' ')"
	elif ! grep -q '"syscall_records": *true' "$b/manifest.json"; then
		res "$name" FAIL "manifest without config.syscall_records"
	elif msg=$(bundle_complete "$b"); then
		res "$name" PASS "$msg; $(grep -m1 '^sysprog:' /tmp/rec.out)"
		(cd /tmp && tar -cf "$name.tar" "$name.ptscope") && send_file bundle "$name" "/tmp/$name.tar"
		rm -f "/tmp/$name.tar"
	else
		res "$name" FAIL "$msg; run said: $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
	fi
	rm -rf "$b"
}

# `ptscope run --syscalls` of a known program (sysprog: five writes of
# 4096 bytes to /dev/null, made from the simulated image's syscall
# address, tests/vm/guest/sysprog.c): the bundle goes to the host, where
# syscall_label_from_sideband looks for "[syscall write → 4096]". The
# records are the kernel's; the stretches they name are simulated rounds.
run_syscalls cli_run_user_syscalls user 64K

# The same program in combined scope (User + OS): the kernel entry is
# decoded (the simulated kernel round, pts_sim_kernel_entry), and the
# host's syscall_args_from_sideband looks for the write's record as that
# slice's arguments, {syscall=write nr=1 ret=4096}, the slice keeping its
# name.
run_syscalls cli_run_both_syscalls both 256K

# `ptscope run` inside a new pid namespace (a container's view): ptscope
# is pid 1 there, its command pid 2, and /proc is that namespace's. The
# bundle goes to the host, which checks that the sideband names the
# command by the pid the bundle lists (bundle_pids_of_the_namespace).
name=cli_run_user_pidns
b=/tmp/$name.ptscope
rm -rf "$b"
if unshare -p -f -m --mount-proc ptscope run -q --scope user --size 64K -o "$b" -- spin 300 \
	> /tmp/rec.out 2>&1; then
	if msg=$(bundle_complete "$b"); then
		pid=$(sed -n '/"processes"/,$ s/.*"pid": *\([0-9-]*\).*/\1/p' "$b/manifest.json" | head -n 1)
		res $name PASS "$msg; processes[] pid $pid"
		(cd /tmp && tar -cf "$name.tar" "$name.ptscope") && send_file bundle $name "/tmp/$name.tar"
		rm -f "/tmp/$name.tar"
	else
		res $name FAIL "$msg; run said: $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
	fi
else
	res $name FAIL "run in a new pid namespace: exit status $?: $(head -c 400 /tmp/rec.out | tr '\n' ' ')"
fi
rm -rf "$b"

# `ptscope attach -p PID` on a running test program, ended by --duration.
name=cli_attach_duration
b=/tmp/$name.ptscope
rm -rf "$b"
spin 20000 &
spid=$!
sleep 0.1
if ptscope attach -q -p $spid --scope user --size 64K --duration 300ms -o "$b" > /tmp/rec.out 2>&1; then
	if msg=$(bundle_complete "$b"); then
		res $name PASS "$msg"
	else
		res $name FAIL "$msg; attach said: $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
	fi
else
	res $name FAIL "attach exit status $?: $(head -c 400 /tmp/rec.out | tr '\n' ' ')"
fi
kill $spid 2>/dev/null
wait $spid 2>/dev/null
rm -rf "$b"

# `ptscope attach -p PID` ended by `ptscope trigger`; while it is armed,
# `ptscope status` shows the armed state and one head line per CPU;
# after it, the module is back to idle.
name=cli_attach_manual
b=/tmp/$name.ptscope
rm -rf "$b"
spin 20000 &
spid=$!
sleep 0.1
ptscope attach -q -p $spid --scope user --size 64K --trigger manual -o "$b" > /tmp/rec.out 2>&1 &
rp=$!
if ! ptstest wait-armed 15000 2> /tmp/wait.err; then
	res $name FAIL "attach never armed: $(cat /tmp/wait.err) $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
	res cli_status_armed FAIL "no armed capture to look at"
	wait_pid $rp 1
else
	spin 100
	ptscope status > /tmp/status.out 2>&1
	sst=$?
	# cpu lines: "N  <buffer> <head> <valid> <wraps> <flags>"
	ncpu=$(grep -cE '^[0-9]+ +[0-9.]+ ?[KMG]?i?B? +[0-9]+ +[0-9]+ +[0-9]+' /tmp/status.out)
	if [ $sst -eq 0 ] && grep -q '^state *armed' /tmp/status.out && [ "$ncpu" -eq "$(nproc)" ]; then
		res cli_status_armed PASS "$(grep '^state' /tmp/status.out), $ncpu per-CPU head lines"
	else
		res cli_status_armed FAIL "status $sst, $ncpu CPU lines for $(nproc) CPUs: $(head -c 500 /tmp/status.out | tr '\n' '|')"
	fi
	tout=$(ptscope trigger 2>&1) || echo "ptscope trigger: $tout" >> /tmp/rec.out
	wait_pid $rp 40
	st=$?
	if [ $st -ne 0 ]; then
		res $name FAIL "attach exit status $st: $(head -c 400 /tmp/rec.out | tr '\n' ' ')"
	elif msg=$(bundle_complete "$b" ioctl); then
		res $name PASS "$msg"
	else
		res $name FAIL "$msg; attach said: $(head -c 300 /tmp/rec.out | tr '\n' ' ')"
	fi
fi
kill $spid 2>/dev/null
wait $spid 2>/dev/null
rm -rf "$b"
ptscope status > /tmp/status.out 2>&1
sst=$?
if [ $sst -eq 0 ] && grep -q '^state *idle' /tmp/status.out; then
	res cli_status_after PASS "$(grep '^state' /tmp/status.out)"
else
	res cli_status_after FAIL "status $sst: $(head -c 500 /tmp/status.out | tr '\n' '|')"
fi
