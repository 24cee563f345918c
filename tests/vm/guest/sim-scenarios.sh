# SPDX-License-Identifier: GPL-2.0
# The simulated unit's filtering and loss seen end to end, sourced by
# scenarios.sh after the ptscope command's scenarios (docs/testing-vm.md,
# "The simulated unit's filtering"). As uid 1000 (the module reloaded
# with group=1000), `ptscope attach` captures user scope of one spin
# process while a second spin process of the same user runs on the same
# CPUs:
#   simf_cr3   CR3 filter only;
#   simf_addr  plus an IP filter range on the user image's leaf function
#              and a TraceStop range on its exit stub;
#   simf_ovf   CR3 filter, with root asking the unit to lose the first
#              rounds of the capture (/sys/module/ptscope/sim_ovf).
# Each bundle travels to the host with the two pids; the host decodes it
# (tests/vm/host/check-sim-filter.sh) and decides.

# User image addresses (docs/simulated-unit.md, "The code images").
SIMF_LEAF=0x7f510000001c	# leaf: inc %edx; ret (4 bytes)
SIMF_EXIT=0x7f5100000020	# exit stub: endbr64; syscall (6 bytes)

# simf_capture NAME [ptscope options]: one capture; 0 if its bundle was sent.
simf_capture() {
	_n=$1
	shift
	_b=/tmp/$_n.ptscope
	rm -rf "$_b" "/tmp/$_n.tar" "/tmp/$_n.pids"
	asuser 1000 /t/spin 6000 &
	_other=$!
	asuser 1000 /t/spin 6000 &
	_target=$!
	sleep 0.2
	# Root plays an internal buffer overflow: each CPU loses its first
	# 3 rounds of the capture (an injection waits for TraceEn), then OVF.
	if [ "$_n" = simf_ovf ] && ! echo 3 > /sys/module/ptscope/sim_ovf; then
		simf_detail="$simf_detail $_n: writing sim_ovf failed;"
		kill $_other $_target 2> /dev/null
		wait $_other $_target 2> /dev/null
		return 1
	fi
	asuser 1000 /bin/ptscope attach -q -p $_target --scope user --size 64K \
		--duration 600ms "$@" -o "$_b" > "/tmp/$_n.out" 2>&1 &
	_ap=$!
	wait $_ap
	_st=$?
	kill $_other $_target 2> /dev/null
	wait $_other $_target 2> /dev/null
	if [ $_st -ne 0 ] || [ ! -s "$_b/manifest.json" ]; then
		simf_detail="$simf_detail $_n: attach status $_st: $(head -c 300 "/tmp/$_n.out" | tr '\n' ' ');"
		return 1
	fi
	echo "target $_target other $_other" > "/tmp/$_n.pids"
	(cd /tmp && tar -cf "$_n.tar" "$_n.ptscope" "$_n.pids") &&
		send_file bundle $_n "/tmp/$_n.tar"
	_st=$?
	simf_detail="$simf_detail $_n: target $_target other $_other, sent;"
	rm -rf "$_b" "/tmp/$_n.tar"
	return $_st
}

if [ "$VM_HAVE_CLI" != 1 ]; then
	res sim_filter_captures SKIP "$VM_CLI_REASON"
elif ! { rmmod ptscope && insmod /ptscope.ko simulate=1 group=1000 &&
	 chgrp 1000 /dev/ptscope; }; then
	res sim_filter_captures FAIL "could not reload with group=1000"
	lsmod | grep -q '^ptscope' || insmod_sim
else
	simf_detail= simf_ok=1
	simf_capture simf_cr3 || simf_ok=0
	simf_capture simf_addr --filter filter:$SIMF_LEAF-0x7f5100000020 \
		--filter stop:$SIMF_EXIT-0x7f5100000026 || simf_ok=0
	simf_capture simf_ovf || simf_ok=0
	if [ $simf_ok = 1 ]; then
		res sim_filter_captures PASS "$simf_detail"
	else
		res sim_filter_captures FAIL "$simf_detail"
	fi
	rmmod ptscope && insmod_sim
fi
