#!/usr/bin/env bash
# Every tracepoint probe of ptscope.ko has its tracepoint's prototype,
# checked by the compiler against each kernel it is built for
# (kmod/tp_probe.h): a tracepoint calls its probes through a pointer of
# its own prototype, so any other prototype is undefined behaviour and
# traps under clang kCFI.
#  1. No file of kmod/ registers a probe but tp_probe.c, which only
#     pts_tp_register() (prototype checked) and trigger_tp.c's table
#     (every entry checked) reach.
#  2. Against the installed 6.1 and 6.12 header trees, a probe given another
#     prototype does not build: a trigger probe of sched_switch without
#     its last argument (prev_state, added in 5.18: the drift a probe
#     written once would miss) and a sideband probe with a const argument.
# Part 2 skips (counted as skipped) when no header tree is installed.
set -u
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
rc=0

bad=$(grep -nE 'tracepoint_probe_(un)?register[a-z_]*\([^)]' kmod/*.c |
      grep -v '^kmod/tp_probe\.c:')
if [ -n "$bad" ]; then
	echo "FAIL: tracepoint probes registered outside kmod/tp_probe.c (prototype unchecked;"
	echo "      use pts_tp_register() and pts_tp_unregister() of kmod/tp_probe.h):"
	echo "$bad"
	rc=1
else
	echo "ok: probes are registered through kmod/tp_probe.c only"
fi

# One tree per kernel line: the -rt trees have the same trace headers
# (and 30-kmod-build-clean.sh builds the module, checks included, on all).
trees=()
for t in /usr/src/linux-headers-*-amd64; do
	case $t in *-rt-amd64) continue ;; esac
	[ -e "$t/Module.symvers" ] && trees+=("$t")
done
if [ ${#trees[@]} -eq 0 ]; then
	[ $rc -eq 0 ] || exit $rc
	pts_skip "no /usr/src/linux-headers-*-amd64: prototype checks not built"
fi

# mutate FILE PATTERN REPLACEMENT: sed, and fail if nothing changed
mutate() {
	local before
	before=$(md5sum <"$1")
	sed -i "s/$2/$3/" "$1"
	[ "$(md5sum <"$1")" != "$before" ] || { echo "FAIL: '$2' not found in $1"; return 1; }
}

want_trigger='trig_sched_switch does not have the prototype of tracepoint sched_switch'
want_sideband='probe_exit does not have the prototype of tracepoint sched_process_exit'
for t in "${trees[@]}"; do
	name=$(basename "$t")
	work=$(mktemp -d)
	cp -r Kbuild kmod include "$work/"
	find "$work/kmod" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod*' \) -delete
	if ! mutate "$work/kmod/trigger_tp.c" \
		'^		  struct task_struct \*next, unsigned int prev_state);$' \
		'		  struct task_struct *next);' ||
	   ! mutate "$work/kmod/sideband.c" \
		'^static void probe_exit(void \*data, struct task_struct \*p)$' \
		'static void probe_exit(void *data, const struct task_struct *p)'; then
		rc=1
	elif make -k -C "$t" M="$work" kmod/trigger_tp.o kmod/sideband.o >"$work/log" 2>&1; then
		echo "FAIL: $name: probes of another prototype build"; rc=1
	else
		for w in "$want_trigger" "$want_sideband"; do
			if grep -q "$w" "$work/log"; then
				echo "ok: $name: build error \"$w\""
			else
				echo "FAIL: $name: no build error \"$w\":"; grep -m5 'error' "$work/log"; rc=1
			fi
		done
	fi
	rm -rf "$work"
done
exit $rc
