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
