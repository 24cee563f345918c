#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM suite: the real ptscope.ko (simulated PT unit) in Debian's own
# 6.1 and 6.12 kernels under QEMU TCG, driven from a busybox initramfs.
# docs/testing-vm.md describes every scenario.
#
#   tests/vm/run.sh                 both kernel lines, 6.1 and 6.12
#   tests/vm/run.sh --line 6.12     one line (repeatable); 6.1-rt and
#                                   6.12-rt are the PREEMPT_RT flavours
#   tests/vm/run.sh --serial        lines one after the other (default: in
#                                   parallel, reports printed in order)
#   tests/vm/run.sh --break NAME    build the module with tests/vm/break/NAME.sh
#                                   applied to a copy of its sources: the suite
#                                   must then fail (shows that it can)
#   tests/vm/run.sh --list          scenario names and what each checks
#   tests/vm/run.sh --final-only N  only the guest's final steps (kexec, then
#                                   reboot, each with a capture armed and a
#                                   START after the reboot notifier), N boots
#                                   per line: kexec_stops_tracing_and_boots
#                                   and reboot_notifier_stops_tracing N times
#   tests/vm/run.sh --kdump-only    only the two kdump boots per line
#                                   (kdump_post_notifiers_stop_first,
#                                   kdump_default_order_crash_probe)
#   PTS_VM_APPEND='k=v ...'         more kernel parameters for the guest
#                                   (vmtest_reboot_hold=MS, 0 = no hold;
#                                   vmtest_child_delay_ms=MS: see ptsunit.c)
#
# Verdict: per-scenario PASS / FAIL / SKIP lines by kernel line, then
# "N passed, N failed, N skipped"; exit status 1 if anything failed.
# A scenario whose prerequisite has not been built (no module sources,
# no static ptscope, no decoder) is SKIP with the reason: never PASS.
#
# Files: tests/vm/cache/ keeps the downloaded linux-image .debs and the
# extracted vmlinuz; tests/vm/out/<kver>/ holds the module build, the
# initramfs, console.log (serial 0: console + RESULT lines), data.log
# (bundles and the kernel log, base64: from the virtio-serial port
# "data", or serial 1 where that port is missing) and monitor.log.
set -u
set -o pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VM=$ROOT/tests/vm
OUT=$VM/out
CACHE=$VM/cache
B=${B:-build}

# Hard limit for one boot, seconds (QEMU is killed after it, -k 5 later).
BOOT_TIMEOUT=${PTS_VM_TIMEOUT:-600}

lines=()
break_name=
final_only=0
kdump_only=0
parallel=1
while [ $# -gt 0 ]; do
	case $1 in
	--line) lines+=("$2"); shift 2 ;;
	--serial) parallel=0; shift ;;
	--break) break_name=$2; shift 2 ;;
	--final-only) final_only=$2; shift 2 ;;
	--kdump-only) kdump_only=1; shift ;;
	--list) sed -n 's/^\([a-z0-9_]*\)\t\(.*\)/\1: \2/p' "$VM/scenarios.txt"; exit 0 ;;
	-h|--help) sed -n '3,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ ${#lines[@]} -gt 0 ] || lines=(6.1 6.12)
case $final_only in
''|*[!0-9]*) echo "run.sh: --final-only wants a number of boots" >&2; exit 2 ;;
esac
if [ -n "$break_name" ] && [ ! -f "$VM/break/$break_name.sh" ]; then
	echo "run.sh: no tests/vm/break/$break_name.sh; known breakages:" >&2
	ls "$VM/break" 2>/dev/null | sed -n 's/\.sh$//p' | grep -v '^lib$' | sed 's/^/  /' >&2
	exit 2
fi

mkdir -p "$OUT" "$CACHE"
t_start=$(date +%s)

note() { echo "vm: $*"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ---- results ----------------------------------------------------------------
# Every verdict goes through result(): "LINE NAME PASS|FAIL|SKIP detail".
RESULTS=$OUT/results.txt
: > "$RESULTS"
result() { # line name verdict detail...
	local line=$1 name=$2 verdict=$3
	shift 3
	printf '%-4s %-5s %-34s %s\n' "$verdict" "$line" "$name" "$*"
	printf '%s %s %s %s\n' "$line" "$name" "$verdict" "$*" >> "$RESULTS"
}

# ---- host-side pieces shared by both lines ----------------------------------
GUEST_BIN=$OUT/guest-bin
mkdir -p "$GUEST_BIN"
guest_build_log=$OUT/guest-build.log
: > "$guest_build_log"
guest_ok=1
for src in "$VM"/guest/*.c; do
	prog=$(basename "$src" .c)
	if ! gcc -static -O2 -g0 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
		-I"$ROOT/include" -o "$GUEST_BIN/$prog" "$src" >> "$guest_build_log" 2>&1; then
		guest_ok=0
		note "building guest program $prog failed (see $guest_build_log)"
	fi
done
# 32-bit (i386) guest programs: freestanding (the host need not have a
# 32-bit C library), raw system calls; the uapi header's <asm/...> come
# from the host's multiarch directory, whose headers serve -m32 too. A
# failed build leaves the program out and its scenario says SKIP.
for src in "$VM"/guest/ia32/*.c; do
	[ -e "$src" ] || continue
	prog=$(basename "$src" .c)
	if ! gcc -m32 -static -nostdlib -ffreestanding -fno-pie -no-pie \
		-fno-stack-protector -O2 -g0 -std=gnu11 -Wall -Wextra -Werror \
		-I"$ROOT/include" -idirafter "/usr/include/$(gcc -print-multiarch)" \
		-o "$GUEST_BIN/$prog" "$src" >> "$guest_build_log" 2>&1; then
		rm -f "$GUEST_BIN/$prog"
		note "building the 32-bit guest program $prog failed (see $guest_build_log): its scenario is SKIP"
	fi
done
# Shared objects the guest programs map themselves (no loader in the guest).
for src in "$VM"/guest/*.S; do
	[ -e "$src" ] || continue
	prog=lib$(basename "$src" .S | sed 's/^lib//').so
	if ! gcc -shared -nostdlib -o "$GUEST_BIN/$prog" "$src" >> "$guest_build_log" 2>&1; then
		guest_ok=0
		note "building guest shared object $prog failed (see $guest_build_log)"
	fi
done

# Static ptscope for the guest (the Makefile's `static` target).
CLI_STATIC=
cli_reason=
if [ -z "$(ls "$ROOT"/userland/cli/*.c 2>/dev/null)" ]; then
	cli_reason="no userland/cli sources yet"
elif ! make -C "$ROOT" -s B="$B" static > "$OUT/static-build.log" 2>&1; then
	cli_reason="make static failed (see tests/vm/out/static-build.log)"
elif [ ! -x "$ROOT/$B/ptscope-static" ]; then
	cli_reason="make static did not produce $B/ptscope-static"
else
	CLI_STATIC=$ROOT/$B/ptscope-static
fi

# Host decoder for the copied-back bundles.
DECODER=
decoder_reason=
if [ ! -x "$ROOT/$B/ptscope" ]; then
	decoder_reason="no $B/ptscope (make userland)"
elif ! "$ROOT/$B/ptscope" decode --help > /dev/null 2>&1; then
	decoder_reason="$B/ptscope has no working 'decode' subcommand yet"
else
	DECODER=$ROOT/$B/ptscope
fi
SIM_DOC=$ROOT/docs/simulated-unit.md
timeline_reason=
[ -f "$SIM_DOC" ] || timeline_reason="no docs/simulated-unit.md (the simulated unit's known timeline)"

# The module is there once kmod/ has its kbuild file (the simulated
# unit's sources may land before the module core).
HAVE_KMOD_SRC=0
[ -f "$ROOT/kmod/Kbuild" ] || [ -f "$ROOT/kmod/Makefile" ] && HAVE_KMOD_SRC=1

# ---- per kernel line -----------------------------------------------------------
# newest installed headers of a line: "6.1", "6.12" = the flavourless
# amd64 build (linux-headers-<line>.<abi>-amd64, not -rt, not -cloud);
# "6.1-rt", "6.12-rt" = the PREEMPT_RT flavour (-rt-amd64).
find_kver() {
	local line=${1%-rt} flavour=amd64 d
	[ "$line" != "$1" ] && flavour=rt-amd64
	for d in /usr/src/linux-headers-"$line".*-"$flavour"; do
		[ -d "$d" ] || continue
		d=${d#/usr/src/linux-headers-}
		case $flavour:$d in amd64:*-rt-amd64|*-cloud-amd64) continue ;; esac
		echo "$d"
	done | sort -V | tail -n 1
}

# vmlinuz for KVER, from the linux-image package (downloaded, never installed).
get_vmlinuz() {
	local kver=$1 img=$CACHE/vmlinuz-$1 pkg deb tmp
	[ -s "$img" ] && { echo "$img"; return 0; }
	for pkg in "linux-image-$kver" "linux-image-$kver-unsigned"; do
		deb=$(ls "$CACHE/${pkg}"_*.deb 2>/dev/null | tail -n 1)
		if [ -z "$deb" ]; then
			# apt's sandbox user cannot write into a root-owned
			# worktree; download in a scratch dir it can write to.
			tmp=$(mktemp -d)
			chmod 777 "$tmp"
			(cd "$tmp" && apt-get download -q "$pkg") > "$OUT/apt-$pkg.log" 2>&1 \
				&& mv "$tmp"/*.deb "$CACHE/" 2>/dev/null
			rm -rf "$tmp"
			deb=$(ls "$CACHE/${pkg}"_*.deb 2>/dev/null | tail -n 1)
		fi
		[ -n "$deb" ] || continue
		if dpkg-deb -c "$deb" | grep "\./boot/vmlinuz-$kver\$" > /dev/null; then
			tmp=$(mktemp -d)
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "./boot/vmlinuz-$kver" &&
				mv "$tmp/boot/vmlinuz-$kver" "$img"
			rm -rf "$tmp"
			[ -s "$img" ] && { echo "$img"; return 0; }
		fi
	done
	return 1
}

# The virtio console driver, for the fast data channel: built in on
# 6.12, modules on 6.1. Modules come from the same linux-image .deb as
# vmlinuz (never installed); prints the load order (file names), one per
# line, into DIR/vmods/order, or nothing when the driver is built in.
get_vmods() { # kver dir
	local kver=$1 vm=$2/vmods deb cfg=/usr/src/linux-headers-$1/.config tmp f name dep order=
	rm -rf "$vm"
	grep -q '^CONFIG_VIRTIO_CONSOLE=y' "$cfg" && return 0
	grep -q '^CONFIG_VIRTIO_CONSOLE=m' "$cfg" || return 1
	deb=$(ls "$CACHE/linux-image-${kver}"_*.deb "$CACHE/linux-image-${kver}-unsigned"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || return 1
	mkdir -p "$vm"
	tmp=$(mktemp -d)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards \
		"./lib/modules/$kver/kernel/drivers/virtio/*" \
		"./lib/modules/$kver/kernel/drivers/char/virtio_console.ko*" 2> /dev/null
	find "$tmp" -name '*.ko*' -exec cp {} "$vm/" \;
	rm -rf "$tmp"
	# Depth-first on modinfo's depends, dependencies first.
	add_mod() {
		local f
		f=$(ls "$vm/$1".ko* "$vm/$(echo "$1" | tr _ -)".ko* 2> /dev/null | head -n 1)
		[ -n "$f" ] || return 1
		case " $order " in *" $(basename "$f") "*) return 0 ;; esac
		for dep in $(modinfo -F depends "$f" | tr , ' '); do
			add_mod "$dep" || return 1
		done
		order="$order $(basename "$f")"
	}
	add_mod virtio_console || return 1
	add_mod virtio_pci || return 1
	for f in $order; do echo "$f"; done > "$vm/order"
}

# Build ptscope.ko for exactly KVER in a private copy of the tree, so the
# two kernel lines never share objects and the worktree stays clean.
build_module() {
	local kver=$1 dir=$2 src=$2/src
	rm -rf "$src"
	mkdir -p "$src"
	cp -a "$ROOT/Kbuild" "$ROOT/kmod" "$ROOT/include" "$src/"
	find "$src" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
	if [ -n "$break_name" ]; then
		if ! (cd "$src" && bash "$VM/break/$break_name.sh") > "$dir/break.log" 2>&1; then
			echo "breakage $break_name did not apply (see $dir/break.log)"
			return 1
		fi
	fi
	if ! make -j"$(nproc)" -C "/usr/src/linux-headers-$kver" M="$src" modules > "$dir/kbuild.log" 2>&1; then
		echo "kbuild failed: $(grep -m1 -E 'error|Error' "$dir/kbuild.log")"
		return 1
	fi
	[ -f "$src/kmod/ptscope.ko" ] || { echo "kbuild made no kmod/ptscope.ko"; return 1; }
	cp "$src/kmod/ptscope.ko" "$dir/ptscope.ko"
	make -C "/usr/src/linux-headers-$kver" M="$src" clean > /dev/null 2>&1
	return 0
}

# initramfs: busybox + links, /init, test programs, module, static ptscope.
build_initramfs() {
	local dir=$1 kver=$2 line=$3 have_mod=$4 vmlinuz=${5:-} r=$1/rootfs app
	rm -rf "$r"
	mkdir -p "$r"/{bin,sbin,etc,proc,sys,dev,tmp,root,t,home/user} "$r/usr/bin" "$r/usr/sbin"
	cp /bin/busybox "$r/bin/busybox"
	if [ -f "$dir/vmods/order" ]; then
		mkdir -p "$r/lib/vmods"
		cp "$dir/vmods"/* "$r/lib/vmods/"
	fi
	for app in $(/bin/busybox --list); do
		[ -e "$r/bin/$app" ] || ln -s busybox "$r/bin/$app"
	done
	cp "$VM/guest/init" "$r/init"
	cp "$VM/guest/"*.sh "$r/t/" 2>/dev/null
	cp "$GUEST_BIN"/* "$r/t/"
	chmod 755 "$r/init" "$r"/t/*
	[ "$have_mod" = 1 ] && cp "$dir/ptscope.ko" "$r/ptscope.ko"
	[ -n "$CLI_STATIC" ] && cp "$CLI_STATIC" "$r/bin/ptscope"
	printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\n' > "$r/etc/passwd"
	printf 'root:x:0:\nuser:x:1000:\n' > "$r/etc/group"
	chown -R 1000:1000 "$r/home/user" 2>/dev/null
	chmod 1777 "$r/tmp"
	{
		echo "VM_LINE=$line"
		echo "VM_KVER=$kver"
		echo "VM_HAVE_MODULE=$have_mod"
		echo "VM_MODULE_REASON='$mod_reason'"
		echo "VM_HAVE_CLI=$([ -n "$CLI_STATIC" ] && echo 1 || echo 0)"
		echo "VM_CLI_REASON='$cli_reason'"
		echo "VM_BREAK='$break_name'"
	} > "$r/etc/vmtest.conf"
	# The last step kexecs into the same kernel with a small initramfs
	# of its own (tests/vm/guest/kexec-init): the image and that
	# initramfs travel in this one.
	if [ "$have_mod" = 1 ] && [ -n "$vmlinuz" ]; then
		local k=$dir/kexec-rootfs
		rm -rf "$k"
		mkdir -p "$k"/{bin,proc,sys,dev,tmp,t}
		cp /bin/busybox "$k/bin/busybox"
		cp "$VM/guest/kexec-init" "$k/init"
		cp "$GUEST_BIN/ptsunit" "$GUEST_BIN/qexit" "$k/t/"
		cp "$dir/ptscope.ko" "$k/ptscope.ko"
		chmod 755 "$k/init" "$k"/t/*
		mkdir -p "$r/kexec"
		cp "$vmlinuz" "$r/kexec/vmlinuz"
		(cd "$k" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$r/kexec/initrd.gz"
	fi
	(cd "$r" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$dir/initramfs.cpio.gz"
}

# Serve the guest's requests for real key presses: a console line
# "HOSTREQ sendkey KEYS" makes the host type KEYS on the VM's PS/2
# keyboard through the QEMU monitor (HMP sendkey).
key_server() {
	local con=$1 mon_in=$2 qpid=$3 done_n=0 n req
	while kill -0 "$qpid" 2> /dev/null; do
		n=$(tr -d '\r' < "$con" | grep -c '^HOSTREQ sendkey ')
		while [ "$done_n" -lt "$n" ]; do
			done_n=$((done_n + 1))
			req=$(tr -d '\r' < "$con" | grep '^HOSTREQ sendkey ' | sed -n "${done_n}p")
			set -- $req
			echo "sendkey $3" > "$mon_in"
			echo "$(date +%T) sendkey $3" >> "$(dirname "$con")/keys.log"
		done
		sleep 0.2
	done
}

# A payload the guest sent (tests/vm/guest/init, send_file): after the
# line "BEGIN kind name raw SIZE" come SIZE raw bytes; after
# "BEGIN kind name b64" base64 lines up to "END kind name".
extract_payload() { # data.log kind name -> stdout (the bytes)
	local hdr off mode size
	hdr=$(grep -a -b -m 1 "^BEGIN $2 $3 " "$1") || return 1
	off=${hdr%%:*}
	hdr=${hdr#*:}
	set -- "$1" "$2" "$3" $hdr
	mode=$7 size=${8:-0}
	if [ "$mode" = raw ]; then
		# The payload starts after the header line and its newline.
		# (head stops reading early: tail's SIGPIPE is no failure.)
		{ tail -c +$((off + ${#hdr} + 2)) "$1" || true; } | head -c "$size"
	else
		tail -c +$((off + 1)) "$1" | awk -v k="$2" -v n="$3" '
			$1 == "BEGIN" && $2 == k && $3 == n { on = 1; next }
			$0 == "END " k " " n { exit }
			on { print }' | base64 -d 2> /dev/null
	fi
}

# The host verdicts on the filtering scenarios' bundles, when there is
# nothing to decode.
simf_skip() { # line reason
	local n
	for n in cr3_filter_excludes_other_process addr_filter_in_range_and_tracestop \
		overflow_is_a_decoder_gap; do
		result "$1" $n SKIP "$2"
	done
}

# Host-side scenario: decode each copied-back bundle and check it.
check_bundles() { # line dir
	local line=$1 dir=$2 bdir=$2/bundles name ok detail
	rm -rf "$bdir"
	mkdir -p "$bdir"
	local names
	names=$(grep -a '^BEGIN bundle ' "$dir/data.log" | awk '{ print $3 }')
	if [ -z "$names" ]; then
		if [ -z "$CLI_STATIC" ]; then
			result "$line" bundle_copied_back SKIP "$cli_reason"
		elif [ "$have_mod" != 1 ]; then
			result "$line" bundle_copied_back SKIP "no module: $mod_reason"
		elif ! grep -q -e '^RESULT cli_capture_[a-z]*_manual PASS' -e '^RESULT cli_run_[a-z]*_exit PASS' "$dir/console.txt"; then
			# Those captures' own FAIL/SKIP lines say why.
			result "$line" bundle_copied_back SKIP "no manual-trigger or run-exit capture passed in the guest"
		else
			result "$line" bundle_copied_back FAIL "the guest sent no bundle"
		fi
		result "$line" bundle_decodes SKIP "no bundle"
		result "$line" bundle_timeline_matches_sim SKIP "no bundle"
		result "$line" bundle_sideband_merged SKIP "no bundle"
		result "$line" syscall_label_from_sideband SKIP "no bundle"
		result "$line" syscall_args_from_sideband SKIP "no bundle"
		result "$line" bundle_pids_of_the_namespace SKIP "no bundle"
		simf_skip "$line" "no bundle"
		return
	fi
	ok=1 detail=
	for name in $names; do
		mkdir -p "$bdir/$name"
		if ! extract_payload "$dir/data.log" bundle "$name" | tar -x -C "$bdir/$name" 2> /dev/null; then
			ok=0 detail="$detail $name:corrupt"
		fi
	done
	if [ $ok = 1 ]; then
		result "$line" bundle_copied_back PASS "$(echo $names | wc -w) bundle(s): $(echo $names)"
	else
		result "$line" bundle_copied_back FAIL "$detail"
	fi
	if [ -z "$DECODER" ]; then
		result "$line" bundle_decodes SKIP "$decoder_reason"
		result "$line" bundle_timeline_matches_sim SKIP "$decoder_reason"
		result "$line" bundle_sideband_merged SKIP "$decoder_reason"
		result "$line" syscall_label_from_sideband SKIP "$decoder_reason"
		result "$line" syscall_args_from_sideband SKIP "$decoder_reason"
		result "$line" bundle_pids_of_the_namespace SKIP "$decoder_reason"
		simf_skip "$line" "$decoder_reason"
		return
	fi
	bash "$VM/host/check-bundles.sh" "$DECODER" "$bdir" "$SIM_DOC" "$timeline_reason" \
		> "$dir/decode-results.txt" 2> "$dir/decode.log"
	while read -r name verdict detail; do
		result "$line" "$name" "$verdict" "$detail"
	done < "$dir/decode-results.txt"
	if grep -q '^RESULT sim_filter_captures SKIP' "$dir/console.txt"; then
		simf_skip "$line" "sim_filter_captures skipped in the guest"
		return
	fi
	bash "$VM/host/check-sim-filter.sh" "$DECODER" "$bdir" \
		> "$dir/sim-filter-results.txt" 2>> "$dir/decode.log"
	while read -r name verdict detail; do
		result "$line" "$name" "$verdict" "$detail"
	done < "$dir/sim-filter-results.txt"
}

# Kernel log: the guest sends its whole dmesg at the end; the console
# also shows anything that happened after (a panic).
check_klog() { # line dir
	local line=$1 dir=$2 hits
	extract_payload "$dir/data.log" text dmesg > "$dir/dmesg.txt"
	hits=$(cat "$dir/dmesg.txt" "$dir/console.txt" | grep -E -m 5 \
		'BUG:|WARNING:|Oops|general protection fault|Kernel panic|kernel BUG|Call Trace:|possible circular locking|possible recursive locking|inconsistent lock state|lockdep|KASAN:|KFENCE:|UBSAN:|list_(add|del) corruption|Poison overwritten|Object padding overwritten|Redzone overwritten|refcount_t:|scheduling while atomic|sleeping function called from invalid context|soft lockup|hard LOCKUP|hung_task|rcu_sched self-detected stall|rcu: INFO')
	if [ -n "$hits" ]; then
		result "$line" klog_clean FAIL "$(echo "$hits" | head -n 2 | tr '\n' '|')"
	elif [ ! -s "$dir/dmesg.txt" ]; then
		result "$line" klog_clean FAIL "the guest sent no kernel log (died before the end?)"
	else
		result "$line" klog_clean PASS "$(wc -l < "$dir/dmesg.txt") lines, no BUG/WARNING/Oops/lockdep/KASAN/KFENCE/UBSAN/corruption report"
	fi
}

# Why the child of ptsunit kexec-armed / reboot-armed (which tries START
# once the reboot notifier has stopped the capture) left no result line,
# from its markers and the simulated unit's lines (tests/vm/guest/ptsunit.c,
# start_after_reboot_notifier(); kmod/sim_kernel.c): the child never
# ran; it ran but was not scheduled between the notifier and the end of
# the kernel; its START re-armed a CPU (the unit says so) and the end
# came before the child could say it; or its START was still in flight.
child_evidence() { # what(kexec|reboot) console-text-from-the-arm-on
	local what=$1 text=$2 armed
	armed=$(grep <<<"$text" -m1 -o 'simulated PT unit: CPU [0-9]*: TraceEn set after the reboot notifier')
	if [ -n "$armed" ]; then
		echo "START raced the $what: the child's START re-armed a CPU after the notifier ('${armed#simulated PT unit: }'), and the $what came before the child could log its result"
	elif grep <<<"$text" -q "vmtest: $what child: STOPPED seen, calling START"; then
		echo "START raced the $what: the child called START after the notifier, but neither its result nor a CPU armed again reached the console before the $what (the START was still in flight)"
	elif grep <<<"$text" -q "vmtest: $what child: polling"; then
		echo "the child never saw the capture STOPPED: it polled before the $what, but was not scheduled between the notifier and the $what (START untested; $(hold_note "$text"))"
	else
		echo "the child never ran (no 'vmtest: $what child: polling' line): START untested"
	fi
}

# Whether the reset or kexec waited for the child (the simulated unit's
# sim_reboot_hold, armed by ptsunit; vmtest_reboot_hold=0 turns it off).
hold_note() { # console-text-from-the-arm-on
	grep <<<"$1" -m1 -o 'reboot hold: \(released after [0-9]* ms\|not released within [0-9]* ms\)' ||
		echo "the reboot not held for the child"
}

# The guest's last steps: kexec with a capture armed (ptsunit
# kexec-armed: the reboot notifiers, then the same kernel boots from
# /kexec), then in that kernel a reboot with a capture armed: the
# module's reboot notifier must stop every CPU before each.
check_kexec() { # line dir
	local line=$1 dir=$2 after child armed
	if [ "$have_mod" != 1 ]; then
		result "$line" kexec_stops_tracing_and_boots SKIP "no module: $mod_reason"
		return
	fi
	if ! grep -q '^=== VMTEST-KEXEC armed' "$dir/console.txt"; then
		result "$line" kexec_stops_tracing_and_boots FAIL "the guest did not arm and kexec ($(grep -m1 '^RESULT kexec_armed' "$dir/console.txt"))"
		return
	fi
	after=$(sed -n '/^=== VMTEST-KEXEC armed/,/^=== VMTEST-KEXEC booted/p' "$dir/console.txt")
	# The child says it polls before the parent prints the marker.
	child=$(sed -n '/vmtest: kexec child: polling/,/^=== VMTEST-KEXEC booted/p' "$dir/console.txt")
	if ! grep <<<"$after" -q 'ptscope.*restart or kexec: tracing stopped on every CPU'; then
		result "$line" kexec_stops_tracing_and_boots FAIL "no reboot-notifier line from the module before the kexec"
	elif ! grep <<<"$after" -q 'simulated PT unit: restart or kexec: TraceEn clear on all'; then
		result "$line" kexec_stops_tracing_and_boots FAIL "the simulated unit did not report TraceEn clear on every CPU before the kexec: $(grep <<<"$after" -m1 'simulated PT unit: restart')"
	elif grep <<<"$after" -q 'vmtest: START after the reboot notifier: accepted'; then
		armed=$(grep <<<"$after" -m1 -o 'CPU [0-9]*: TraceEn set after the reboot notifier')
		result "$line" kexec_stops_tracing_and_boots FAIL "a START after the reboot notifier was accepted: every CPU armed again${armed:+ (the unit: $armed)}"
	elif ! grep <<<"$after" -q 'vmtest: START after the reboot notifier: refused (SHUTTING_DOWN)'; then
		result "$line" kexec_stops_tracing_and_boots FAIL "a START after the reboot notifier was not refused: $(grep <<<"$after" -m1 -o 'START after the reboot notifier.*' || child_evidence kexec "$child")"
	elif ! grep <<<"$after" -q '^=== VMTEST-KEXEC booted'; then
		result "$line" kexec_stops_tracing_and_boots FAIL "the kexec'd kernel never ran its init"
	else
		result "$line" kexec_stops_tracing_and_boots PASS "$(grep <<<"$after" -m1 -o 'ptscope.*restart or kexec: tracing.*'); $(grep <<<"$after" -m1 -o 'restart or kexec: TraceEn clear.*'); START after it refused ($(hold_note "$after")); then '$(grep <<<"$after" -m1 '^=== VMTEST-KEXEC booted')'"
	fi
}

# The last guest step reboots with a capture armed: the module's reboot
# notifier (also run by kexec -e) must stop every CPU before the reset.
check_reboot() { # line dir
	local line=$1 dir=$2 after child
	if [ "$have_mod" != 1 ]; then
		result "$line" reboot_notifier_stops_tracing SKIP "no module: $mod_reason"
		return
	fi
	if ! grep -q '^=== VMTEST-REBOOT armed' "$dir/console.txt"; then
		result "$line" reboot_notifier_stops_tracing FAIL "the guest did not arm and reboot (console: tests/vm/out/<kver>/console.txt)"
		return
	fi
	after=$(sed -n '/^=== VMTEST-REBOOT armed/,$p' "$dir/console.txt")
	child=$(sed -n '/vmtest: reboot child: polling/,$p' "$dir/console.txt")
	if ! grep <<<"$after" -q 'ptscope.*restart or kexec: tracing stopped on every CPU'; then
		result "$line" reboot_notifier_stops_tracing FAIL "no reboot-notifier line from the module before the reset"
	elif grep <<<"$after" -q 'vmtest: START after the reboot notifier: accepted'; then
		result "$line" reboot_notifier_stops_tracing FAIL "a START after the reboot notifier was accepted: every CPU armed again"
	elif ! grep <<<"$after" -q 'vmtest: START after the reboot notifier: refused (SHUTTING_DOWN)'; then
		result "$line" reboot_notifier_stops_tracing FAIL "a START after the reboot notifier was not refused: $(grep <<<"$after" -m1 -o 'START after the reboot notifier.*' || child_evidence reboot "$child")"
	elif ! grep <<<"$after" -q 'reboot: Restarting system'; then
		result "$line" reboot_notifier_stops_tracing FAIL "the kernel never reached 'Restarting system'"
	else
		result "$line" reboot_notifier_stops_tracing PASS "$(grep <<<"$after" -m1 -o 'ptscope.*restart or kexec.*'), a START after it refused ($(hold_note "$after")), then 'reboot: Restarting system'"
	fi
}

# One boot of a line's kernel and initramfs under QEMU: what every boot
# of the suite shares, then the boot's own QEMU arguments.
# thread=single: both vCPUs on one host thread. With multi-threaded TCG a
# vCPU can run a stale translation of kernel text that the other vCPU is
# patching (text_poke_bp on tracepoint and static-key changes), which
# ends in an "int3" Oops in the guest; a single TCG thread keeps code
# modification coherent (docs/testing-vm.md). The console is the first
# serial port; with a DATA prefix, the data channel follows it: a second
# serial port (DATA.serial1) and a virtio-serial port named "data"
# (DATA.virtio). QEMU's own output goes to LOG; returns timeout's status.
qemu_boot() { # timeout mem_mib vmlinuz dir append console log data [qemu args]
	local tmo=$1 mem=$2 kernel=$3 dir=$4 append=$5 con=$6 log=$7 data=$8
	local -a chan=()
	shift 8
	[ -n "$data" ] && chan=(-serial "file:$data.serial1"
		-device virtio-serial-pci,id=vser0
		-chardev "file,id=vdata,path=$data.virtio"
		-device virtserialport,bus=vser0.0,chardev=vdata,name=data)
	timeout -k 5 "$tmo" qemu-system-x86_64 \
		-accel tcg,thread=single -cpu max -smp 2 -m "$mem" \
		-kernel "$kernel" -initrd "$dir/initramfs.cpio.gz" \
		-append "$append" \
		-display none -vga none -no-reboot \
		-serial "file:$con" "${chan[@]}" "$@" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		> "$log" 2>&1
}

# A second, short boot of the same initramfs with vmtest_panic=1: the
# guest triggers a capture with a 10 s post-trigger delay and panics in
# it (sysrq c; panic=-1 resets at once, QEMU -no-reboot exits 0), with
# crash_kexec_post_notifiers set at run time (the order of a kdump
# setup: the other CPUs stopped by NMI, then the notifiers). The
# panic notifier must end the capture as TRIGGERED with the trigger's
# own reason (IOCTL, 1) and PTSCOPE_STATEF_PANIC (0x80), which its line
# on the console says (docs/abi.md, "What a PANIC snapshot can promise").
check_panic() { # line dir vmlinuz append
	local line=$1 dir=$2 con=$2/panic-console.log rc after got
	if [ "$have_mod" != 1 ]; then
		result "$line" panic_in_post_trigger_delay SKIP "no module: $mod_reason"
		return
	fi
	: > "$con"
	qemu_boot 180 512 "$3" "$dir" "$4 vmtest_panic=1" "$con" "$dir/panic-qemu.log" ""
	rc=$?
	tr -d '\r' < "$con" > "$dir/panic-console.txt"
	if ! grep -q '^=== VMTEST-PANIC post-trigger' "$dir/panic-console.txt"; then
		result "$line" panic_in_post_trigger_delay FAIL "QEMU status $rc, the guest did not reach the panic: $(grep -m1 'RESULT panic_post\|vmtest:' "$dir/panic-console.txt")"
		return
	fi
	after=$(sed -n '/^=== VMTEST-PANIC post-trigger/,$p' "$dir/panic-console.txt")
	got=$(grep <<<"$after" -m1 -o 'ptscope.*panic: capture ended.*')
	if ! grep <<<"$after" -q 'Kernel panic - not syncing'; then
		result "$line" panic_in_post_trigger_delay FAIL "no 'Kernel panic' after the marker (QEMU status $rc)"
	elif [ -z "$got" ]; then
		result "$line" panic_in_post_trigger_delay FAIL "no panic line from the module: the capture's state at the panic is not reported (QEMU status $rc)"
	elif ! grep <<<"$got" -q '(was POST_TRIGGER): state 4, trigger reason 1, flags 0x[0-9a-f]*[89a-f][0-9a-f]; PT stopped'; then
		result "$line" panic_in_post_trigger_delay FAIL "want (was POST_TRIGGER): state 4 (TRIGGERED), trigger reason 1 (IOCTL, kept), flags with 0x80 (PANIC); got: $got"
	elif [ "$rc" != 0 ]; then
		result "$line" panic_in_post_trigger_delay FAIL "QEMU status $rc after the panic, want 0 (panic=-1 resets, -no-reboot exits)"
	else
		result "$line" panic_in_post_trigger_delay PASS "$got; then the reset; $(grep -m1 -o 'crash_kexec_post_notifiers=[YN] set at run time' "$dir/panic-console.txt" || echo 'crash_kexec_post_notifiers not set')"
	fi
}

# The guest kernel's command line for KVER (PTS_VM_APPEND last).
guest_append() { # kver
	# loglevel=5: warnings and the register/stack dumps of reports
	# (KERN_DEFAULT) reach the console even if the guest never sends its
	# log; softlockup_panic=1: a CPU stuck in the kernel ends the run at
	# once (with its stack) instead of at the hard time limit.
	# no_timer_check: under TCG on a loaded host the kernel's early check
	# of the IO-APIC timer can miss its ticks and panic the boot ("IO-APIC
	# + timer doesn't work!", seen on 6.1 at load average 11).
	local kver=$1 append
	append="console=ttyS0 panic=-1 oops=panic softlockup_panic=1 loglevel=5 log_buf_len=8M no_timer_check"
	# Cheap memory-error detectors the stock kernels can switch on at boot.
	grep -q '^CONFIG_KFENCE=y' "/usr/src/linux-headers-$kver/.config" &&
		append="$append kfence.sample_interval=10"
	grep -q '^CONFIG_SLUB_DEBUG=y' "/usr/src/linux-headers-$kver/.config" &&
		append="$append slub_debug=FZP"
	echo "$append${PTS_VM_APPEND:+ $PTS_VM_APPEND}"
}

# --final-only N: N boots of a guest that runs only the final steps
# (vmtest_only=final: kexec with a capture armed, then in the kexec'd
# kernel a reboot with a capture armed, each with the child that tries
# START after the reboot notifier). Each boot's two host scenarios are
# reported under "LINE#I"; consoles in tests/vm/out/<kver>/final-I.txt.
# Two kdump boots of the same initramfs (vmtest_kdump=Y, then N), with
# memory reserved for a crash kernel: the guest loads the kexec image
# and its small initramfs as the crash kernel, sets
# crash_kexec_post_notifiers, arms a capture on every CPU and panics
# (sysrq c); the crash kernel's /init prints "=== VMTEST-CRASH booted".
# Y: panic() runs the notifiers before __crash_kexec(): the module's
# panic line (the capture ended, was ARMED, reason PANIC) must come
# before the crash kernel, and the crash-kexec probe then finds nothing
# to end (no line of its own). N (the default): __crash_kexec() comes
# first and the notifiers never run: no panic line, but the module's
# crash-kexec probe (kmod/crash.c, on machine_crash_shutdown()) must have
# stopped the crashing CPU and ended the capture (was ARMED, reason
# PANIC) before the crash kernel. Each line counts if it is on the
# console before the crash kernel's, or, where the consoles print from a
# thread (PREEMPT_RT) and had not printed it before the jump, in the old
# kernel's log records, which the crash kernel finds in /proc/vmcore.
# What the crashing CPU's unit would write after the jump without the
# probe cannot be shown: the simulated unit is a timer of the old kernel.
kdump_line() { # text what: the line's text if before the crash kernel, or "vmcore"
	local after=$1 what=$2 nr crash_nr core
	nr=$(grep -n -m1 "ptscope.*$what: capture ended" <<<"$after" | cut -d: -f1)
	crash_nr=$(grep -n -m1 '^=== VMTEST-CRASH booted' <<<"$after" | cut -d: -f1)
	core=$(sed -n "s/^=== VMTEST-CRASH vmcore $what line: //p" <<<"$after" | head -n 1)
	if [ -n "$nr" ] && [ -n "$crash_nr" ] && [ "$nr" -lt "$crash_nr" ]; then
		grep <<<"$after" -m1 -o "$what: capture ended.*"
	elif [ -n "$core" ] && [ "$core" != none ]; then
		echo "vmcore: $core"
	fi
}

check_kdump() { # line dir vmlinuz append Y|N
	local line=$1 dir=$2 pn=$5 con=$2/kdump-$5-console.log txt=$2/kdump-$5-console.txt rc after
	local name=kdump_default_order_crash_probe panic crash want_re='(was ARMED): state 4, trigger reason 4,'
	[ "$pn" = Y ] && name=kdump_post_notifiers_stop_first
	if [ "$have_mod" != 1 ]; then
		result "$line" "$name" SKIP "no module: $mod_reason"
		return
	fi
	: > "$con"
	# 768 MiB with 192 MiB reserved: the crash kernel and its initramfs
	# fit, and the first kernel keeps what the other boots have.
	qemu_boot 240 768 "$3" "$dir" "$4 crashkernel=192M vmtest_kdump=$pn" "$con" \
		"$dir/kdump-$pn-qemu.log" ""
	rc=$?
	tr -d '\r' < "$con" > "$txt"
	# The marker is written to the tty, whose output the kernel's own
	# console lines may overtake: the text from the boot's first marker.
	if ! grep -q '^=== VMTEST-KDUMP armed' "$txt"; then
		result "$line" "$name" FAIL "QEMU status $rc, the guest did not arm and panic: $(grep -m1 'RESULT kdump_armed\|vmtest:' "$txt")$(grep -q '^=== VMTEST-CRASH booted' "$txt" && echo ' (yet the crash kernel booted: the marker was lost on the console)')"
		return
	fi
	after=$(sed -n '/^=== VMTEST-KDUMP begin/,$p' "$txt")
	panic=$(kdump_line "$after" panic)
	crash=$(kdump_line "$after" 'crash kexec')
	if ! grep <<<"$after" -q 'Kernel panic'; then
		result "$line" "$name" FAIL "no 'Kernel panic' after the marker (QEMU status $rc)"
	elif ! grep <<<"$after" -q '^=== VMTEST-CRASH booted'; then
		result "$line" "$name" FAIL "the crash kernel never ran its init (QEMU status $rc; console: tests/vm/out/<kver>/kdump-$pn-console.txt)"
	elif ! grep <<<"$after" -q '^=== VMTEST-CRASH booted .* vmcore=yes'; then
		result "$line" "$name" FAIL "the crash kernel has no /proc/vmcore: $(grep <<<"$after" -m1 '^=== VMTEST-CRASH')"
	elif ! grep <<<"$after" -q '^=== VMTEST-CRASH vmcore crash kexec line: '; then
		result "$line" "$name" FAIL "the crash kernel did not search its vmcore for the module's lines"
	elif [ "$pn" = Y ] && [ -z "$panic" ]; then
		result "$line" "$name" FAIL "with crash_kexec_post_notifiers=Y no panic line from the module before the crash kernel, on the console or in the vmcore"
	elif [ "$pn" = Y ] && ! grep -qF "$want_re" <<<"$panic"; then
		result "$line" "$name" FAIL "want (was ARMED): state 4 (TRIGGERED), trigger reason 4 (PANIC); got: $panic"
	elif [ "$pn" = Y ] && [ -n "$crash" ]; then
		result "$line" "$name" FAIL "with crash_kexec_post_notifiers=Y the crash-kexec probe still found a capture to end after the panic notifier: $crash"
	elif [ "$pn" = N ] && [ -n "$panic" ]; then
		result "$line" "$name" FAIL "with crash_kexec_post_notifiers=N the module's panic notifier ran before the crash kernel ($panic): the kernel's order is not the one docs/abi.md describes"
	elif [ "$pn" = N ] && [ -z "$crash" ]; then
		result "$line" "$name" FAIL "with crash_kexec_post_notifiers=N nothing stopped the crashing CPU before the crash kernel: no line of the crash-kexec probe on the console or in the vmcore ($(grep -m1 -o 'ptscope.*machine_crash_shutdown.*' "$txt" || echo 'no load warning'))"
	elif [ "$pn" = N ] && ! grep -qF "$want_re" <<<"$crash"; then
		result "$line" "$name" FAIL "want (was ARMED): state 4 (TRIGGERED), trigger reason 4 (PANIC) from the crash-kexec probe; got: $crash"
	elif [ "$pn" = Y ]; then
		result "$line" "$name" PASS "$panic; no crash-kexec line; then '$(grep <<<"$after" -m1 '^=== VMTEST-CRASH booted')'"
	else
		result "$line" "$name" PASS "no panic line; $crash; then '$(grep <<<"$after" -m1 '^=== VMTEST-CRASH booted')'"
	fi
}

run_final_boots() { # line dir vmlinuz append
	local line=$1 dir=$2 i rc con=$2/console.log data=$2/data.log
	for ((i = 1; i <= final_only; i++)); do
		rm -f "$con" "$data".*
		: > "$con"
		qemu_boot "$BOOT_TIMEOUT" 512 "$3" "$dir" "$4 vmtest_only=final" "$con" \
			"$dir/qemu.log" "$data"
		rc=$?
		tr -d '\r' < "$con" > "$dir/console.txt"
		cp "$dir/console.txt" "$dir/final-$i.txt"
		[ "$rc" = 0 ] || note "line $line boot $i: QEMU status $rc (want 0: the final reset)"
		check_kexec "$line#$i" "$dir"
		check_reboot "$line#$i" "$dir"
	done
}

run_line() {
	local line=$1 kver dir vmlinuz have_mod=0 t0 t1 rc mod_reason=
	kver=$(find_kver "$line")
	if [ -z "$kver" ]; then
		result "$line" boot SKIP "no /usr/src/linux-headers-$line.*-amd64 (apt-get install linux-headers-<$line abi>-amd64)"
		return
	fi
	dir=$OUT/$kver
	mkdir -p "$dir"
	note "line $line: kernel $kver"
	if ! vmlinuz=$(get_vmlinuz "$kver"); then
		result "$line" boot FAIL "cannot get /boot/vmlinuz-$kver from linux-image-$kver(-unsigned) (see tests/vm/out/apt-*.log)"
		return
	fi
	if [ "$HAVE_KMOD_SRC" = 0 ]; then
		mod_reason="no kmod/Kbuild yet (module core not landed)"
		result "$line" module_build SKIP "$mod_reason"
	else
		t0=$(date +%s.%N)
		if msg=$(build_module "$kver" "$dir"); then
			have_mod=1
			t1=$(date +%s.%N)
			result "$line" module_build PASS "ptscope.ko for $kver ($(stat -c %s "$dir/ptscope.ko") bytes, $(elapsed "$t0" "$t1") s)"
		else
			mod_reason="module build failed"
			result "$line" module_build FAIL "$msg"
		fi
	fi
	if [ "$guest_ok" = 0 ]; then
		result "$line" guest_programs FAIL "see tests/vm/out/guest-build.log"
		return
	fi
	get_vmods "$kver" "$dir" || note "line $line: no virtio console modules: bulk data goes over serial 1"
	build_initramfs "$dir" "$kver" "$line" "$have_mod" "$vmlinuz"

	# Boot. Serial 0 = console (RESULT lines); bulk data on the
	# virtio-serial port "data" (MB/s), or serial 1 (~200 KB/s) if the
	# guest cannot bring that port up.
	local con=$dir/console.log data=$dir/data.log mon=$dir/monitor qpid kpid append
	append=$(guest_append "$kver")
	if [ "$final_only" -gt 0 ]; then
		run_final_boots "$line" "$dir" "$vmlinuz" "$append"
		return
	fi
	if [ "$kdump_only" = 1 ]; then
		check_kdump "$line" "$dir" "$vmlinuz" "$append" Y
		check_kdump "$line" "$dir" "$vmlinuz" "$append" N
		return
	fi
	rm -f "$con" "$data" "$data".* "$mon.in" "$mon.out" "$dir/keys.log" "$dir/monitor.log"
	: > "$con"
	mkfifo "$mon.in" "$mon.out"
	t0=$(date +%s.%N)
	# The monitor on a pipe: key_server types the hotkeys into it.
	qemu_boot "$BOOT_TIMEOUT" 512 "$vmlinuz" "$dir" "$append" "$con" "$dir/qemu.log" \
		"$data" -chardev "pipe,id=mon0,path=$mon" -mon chardev=mon0,mode=readline &
	qpid=$!
	cat "$mon.out" > "$dir/monitor.log" &
	kpid=$!
	key_server "$con" "$mon.in" "$qpid" &
	local spid=$!
	wait "$qpid"
	rc=$?
	t1=$(date +%s.%N)
	kill "$spid" 2> /dev/null
	wait "$spid" 2> /dev/null
	kill "$kpid" 2> /dev/null
	wait "$kpid" 2> /dev/null
	rm -f "$mon.in" "$mon.out"
	tr -d '\r' < "$con" > "$dir/console.txt"
	# The virtio port carries raw bytes; serial 1 is a tty (\r\n).
	{ cat "$data.virtio"; tr -d '\r' < "$data.serial1"; } > "$data" 2> /dev/null
	local secs
	secs=$(elapsed "$t0" "$t1")
	note "line $line: QEMU exit status $rc after $secs s"

	# Guest verdict: qexit N makes QEMU exit with (N << 1) | 1; after the
	# last step, a reboot with a capture armed (VMTEST-REBOOT), the reset
	# makes QEMU (-no-reboot) exit with 0.
	local endrc want
	endrc=$(sed -n 's/^=== VMTEST-END rc=\([0-9]*\).*/\1/p' "$dir/console.txt" | tail -n 1)
	want=$(( (${endrc:-0} << 1) | 1 ))
	grep -q '^=== VMTEST-REBOOT rc=' "$dir/console.txt" && want=0
	case $rc in
	124|137) result "$line" boot FAIL "hard time limit ${BOOT_TIMEOUT}s hit (console: tests/vm/out/$kver/console.txt)" ;;
	*)
		if [ -z "$endrc" ]; then
			result "$line" boot FAIL "guest ended without its end marker, QEMU status $rc (panic? see tests/vm/out/$kver/console.txt)"
		elif [ "$want" -ne "$rc" ]; then
			result "$line" boot FAIL "end marker rc=$endrc but QEMU status $rc, want $want (isa-debug-exit or the final reboot not reached?)"
		elif [ "$want" = 0 ]; then
			result "$line" boot PASS "booted, ran (end marker rc=$endrc) and ended with the final armed reboot (QEMU -no-reboot status 0) in $secs s"
		else
			result "$line" boot PASS "booted, ran and exited through isa-debug-exit (status $rc = rc $endrc) in $secs s"
		fi ;;
	esac

	# Seconds each guest scenario took (guest uptime between results).
	awk '/^=== T / { if (last != "") printf "%6.1f %s\n", $3 - last, name; last = $3; name = "" }
	     /^RESULT / { name = $2 }' "$dir/console.txt" > "$dir/times.txt"

	# Guest RESULT lines, in the order of scenarios.txt; missing = FAIL.
	local name desc got verdict detail
	while IFS=$'\t' read -r name desc; do
		case $name in ''|'#'*) continue ;; esac
		case $desc in host:*) continue ;; esac
		got=$(grep "^RESULT $name " "$dir/console.txt" | tail -n 1)
		if [ -z "$got" ]; then
			result "$line" "$name" FAIL "no RESULT line from the guest"
			continue
		fi
		set -- $got
		verdict=$3
		detail=${got#RESULT $name $verdict}
		detail=${detail# }
		result "$line" "$name" "$verdict" "$detail"
	done < "$VM/scenarios.txt"
	# A RESULT name not in scenarios.txt is still reported.
	grep '^RESULT ' "$dir/console.txt" | while read -r _ name verdict detail; do
		grep -q "^$name	" "$VM/scenarios.txt" || result "$line" "$name" "$verdict" "$detail (not in scenarios.txt)"
	done

	check_bundles "$line" "$dir"
	check_kexec "$line" "$dir"
	check_reboot "$line" "$dir"
	check_klog "$line" "$dir"
	check_panic "$line" "$dir" "$vmlinuz" "$append"
	check_kdump "$line" "$dir" "$vmlinuz" "$append" Y
	check_kdump "$line" "$dir" "$vmlinuz" "$append" N
}

# Kernel images first (one apt-get at a time), then the lines: in
# parallel by default (the guests mostly wait; two TCG guests on two
# host cores finish well before two in a row), each line's report
# printed whole, in order.
for line in "${lines[@]}"; do
	kver=$(find_kver "$line")
	[ -n "$kver" ] && get_vmlinuz "$kver" > /dev/null
done
if [ "$parallel" = 1 ] && [ ${#lines[@]} -gt 1 ]; then
	pids=()
	for line in "${lines[@]}"; do
		run_line "$line" > "$OUT/run-$line.log" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	for line in "${lines[@]}"; do
		cat "$OUT/run-$line.log"
	done
else
	for line in "${lines[@]}"; do
		run_line "$line"
	done
fi

t_end=$(date +%s)
npass=$(awk '$3 == "PASS"' "$RESULTS" | wc -l)
nfail=$(awk '$3 == "FAIL"' "$RESULTS" | wc -l)
nskip=$(awk '$3 == "SKIP"' "$RESULTS" | wc -l)
if [ "$nskip" -gt 0 ]; then
	echo "skipped, by reason (prerequisite missing; a skip is not a pass):"
	awk '$3 == "SKIP" { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' "$RESULTS" |
		sort | uniq -c | sed 's/^ */  /'
fi
[ -n "$break_name" ] && echo "module built with breakage '$break_name' (tests/vm/break/$break_name.sh)"
echo "vm suite: $((t_end - t_start)) s"
echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
