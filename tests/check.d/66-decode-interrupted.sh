#!/usr/bin/env bash
# An interrupted decode leaves no temporary file and keeps the old outputs
# (docs/output-formats.md, "Temporary name, then rename"): SIGINT, SIGTERM
# and SIGHUP sent to a decode still running remove FILE.tmp.PID (timeline
# and --insn-list) and end it with the signal, so the shell sees
# 128 + signal number (SIGHUP 1, SIGINT 2, SIGTERM 15: signal(7)).
# The trace is a generated one (build/bench-gen, docs/performance.md), big
# enough that decoding it takes seconds.
set -u
cd "$(dirname "$0")/../.."
P=$(realpath "${PTSCOPE:-build/ptscope}")
if [ ! -x build/bench-gen ] || [ ! -x build/bench-workload ]; then
	make -s build/bench-gen build/bench-workload < /dev/null > /dev/null 2>&1 ||
		{ . tests/tools/check-lib.sh; pts_skip "cannot build build/bench-gen"; }
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
build/bench-gen --elf build/bench-workload --size 10000000 --seed 1 -o "$T/x.pt" > /dev/null ||
	{ echo "FAIL: bench-gen"; exit 1; }
W=$(realpath build/bench-workload)

interrupt() {	# SIGNAL NUMBER: decode, wait for its temporary files, send SIGNAL
	local sig=$1 num=$2 pid rc i
	echo old > "$T/out.folded"
	echo old > "$T/il.txt"
	# job control on: a background job keeps SIGINT (else the shell ignores it there)
	set -m
	# the decode keeps a signal its parent ignores ignored (as nohup
	# asks): start it with the default action, whatever the caller
	# (nohup, a CI runner) left ignored
	env --default-signal="$sig" "$P" decode --pt "$T/x.pt" --elf "$W" -o "$T/out.folded" --insn-list "$T/il.txt" \
		2> "$T/err" &
	pid=$!
	set +m
	for i in $(seq 100); do
		[ -e "$T/out.folded.tmp.$pid" ] && [ -e "$T/il.txt.tmp.$pid" ] && break
		sleep 0.05
	done
	sleep 0.2
	if ! kill -0 "$pid" 2> /dev/null; then
		echo "FAIL: SIG$sig: the decode ended before the signal (trace too small?)"; fail=1
		wait "$pid"
		return
	fi
	kill -s "$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	if [ $rc != $((128 + num)) ]; then
		echo "FAIL: SIG$sig: exit $rc, want $((128 + num))"; cat "$T/err"; fail=1
	elif ls "$T" | grep -q '\.tmp\.'; then
		echo "FAIL: SIG$sig: temporary files left:"; ls "$T"; fail=1
	elif [ "$(cat "$T/out.folded")" != old ] || [ "$(cat "$T/il.txt")" != old ]; then
		echo "FAIL: SIG$sig: an existing output was changed"; fail=1
	else
		echo "ok: SIG$sig: exit $rc, no temporary file left, old outputs kept"
	fi
}
interrupt INT 2
interrupt TERM 15
interrupt HUP 1
exit $fail
