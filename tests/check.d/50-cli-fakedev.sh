#!/usr/bin/env bash
# ptscope's capture flow against tests/fakedev/fakedev.c, an LD_PRELOAD
# stand-in for /dev/ptscope: run/record/status/trigger/caps, the bundle
# they write (rotated rings, processes, vdso, objects, config, trigger),
# and the failure paths (refusals, no PT, no module, a write that fails,
# a second Ctrl-C). This checks the tool, not the module: the VM suite
# runs the real module.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; for f in "$T"/out "$T"/err; do [ -f "$f" ] && sed 's/^/  | /' "$f"; done; exit 1; }

gcc -shared -fPIC -O1 -D_GNU_SOURCE -Iinclude -o "$T/fakedev.so" tests/fakedev/fakedev.c -ldl
: > "$T/dev"
export PTSCOPE_DEVICE=$T/dev FAKEDEV_LOG=$T/log
pts() { LD_PRELOAD=$T/fakedev.so "$B/ptscope" "$@"; }

# the bundle library's own reader must accept what ptscope wrote
cat > "$T/readback.c" <<'C'
#include <stdio.h>
#include "bundle/bundle.h"
int main(int argc, char **argv)
{
	struct pts_bundle *b;
	struct pts_err e = { 0 };

	if (argc != 2 || pts_bundle_read(argv[1], &b, &e)) {
		printf("pts_bundle_read: %s\n", e.msg);
		return 1;
	}
	pts_bundle_free(b);
	return 0;
}
C
gcc -D_GNU_SOURCE -Iinclude -Iuserland/lib -o "$T/readback" "$T/readback.c" "$B/libptscope.a" \
	-lipt -lelf -ljson-c -lZydis -liberty -lm
readback() { "$T/readback" "$1" > "$T/out" 2>&1 || fail "reader refuses $1"; }

# manifest checks in python (json module): $1 bundle, $2 python expressions
check_manifest() {
	python3 - "$1" "$2" <<'PY' || fail "manifest check: $2"
import json, os, sys
d, exprs = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(d, "manifest.json")))
def f(name): return open(os.path.join(d, name), "rb").read()
for e in exprs.split(";;"):
    if not eval(e.strip()):
        print("not true:", e.strip()); sys.exit(1)
PY
}

# the simulated unit's 40-byte user code image (docs/simulated-unit.md)
printf '\xf3\x0f\x1e\xfa\xb9\x03\x00\x00\x00\xe8\x0e\x00\x00\x00\xff\xc9\x75\xf7\x48\x8d\x05\x07\x00\x00\x00\xff\xe0\xcc\xff\xc2\xc3\xcc\xf3\x0f\x1e\xfa\x0f\x05\xeb\xd8' > "$T/simcode"
export PTSCOPE_SIM_USER_CODE=$T/simcode

echo "-- run -- /bin/true: snapshot at exit"
TRUE=$(readlink -f /bin/true)
pts run -o "$T/a.ptscope" -- /bin/true > "$T/out" 2> "$T/err" || fail "run rc=$?"
grep -q "armed: pid" "$T/err" || fail "no status line"
grep -qF "next: ptscope decode $T/a.ptscope -o $T/a.fxt" "$T/out" || fail "no decode hint"
S=$((4 << 20)); H=$((S / 4))
check_manifest "$T/a.ptscope" "
m['complete'] is True ;; m['source'] == 'simulated-unit' ;;
m['trigger']['reason'] == 'exit' ;; m['config']['scope'] == 'user' ;;
int(m['config']['rtit_ctl'], 16) & 0x88 == 0x88 ;;
[c['cpu'] for c in m['cpus']] == [0, 1] ;;
m['cpus'][0]['wrapped'] is True and m['cpus'][0]['size'] == $S and m['cpus'][0]['head'] == $H ;;
all(f('cpu0.pt')[k] == (((($H + k) % $S) * 7 + 1) & 0xff) for k in (0, 1, $S - $H - 1, $S - $H, $S - 1)) ;;
m['cpus'][1]['wrapped'] is False and f('cpu1.pt') == bytes(((k * 7 + 2) & 0xff) for k in range(100)) ;;
'error' in m['cpus'][1]['flags'] ;;
m['sideband']['lost'] == 2 and m['sideband']['size'] > 0 ;;
m['processes'][0]['pid'] == m['config']['filter_pid'] ;;
[p['pid'] for p in m['processes']][1:] == [0] ;;
[x['path'] for x in m['processes'][1]['maps_arm']] == ['/sys/module/ptscope/sim_user_code'] ;;
any(x['path'] == '$TRUE' and 'x' in x['perms'] for x in m['processes'][0]['maps_arm']) ;;
len(m['processes'][0]['maps_trigger']) > 0 ;;
'vdso' in m['processes'][0] and f(m['processes'][0]['vdso']['file'])[:4] == b'\x7fELF' ;;
any(o['path'] == '$TRUE' and f(o['file']) == open('$TRUE','rb').read() for o in m['objects']) ;;
m['cpu']['family'] == 6 and m['cpu']['model'] == 85 ;;
any(o['path'] == '/sys/module/ptscope/sim_user_code' and f(o['file']) == open('$T/simcode','rb').read() for o in m['objects']) ;;
any(x['start'] == '0x7f5100000000' and x['path'] == '/sys/module/ptscope/sim_user_code' for x in m['processes'][0]['maps_trigger']) ;;
[p['when'] for p in m['timing']['time_pairs']][:2] == ['start', 'stop'] ;;
'kernel' not in m or not m['kernel'].get('text')"

readback "$T/a.ptscope"

echo "-- run of a CMD that execs again warns that the new program is not traced"
pts run -q -o "$T/e.ptscope" -- /bin/sh -c 'exec /bin/true' > "$T/out" 2> "$T/err" || fail "run sh -c exec rc=$?"
grep -q "CMD executed another program" "$T/err" || fail "no exec warning"

echo "-- run of a CMD killed by SIGKILL still ends with a snapshot"
pts run -q -o "$T/k.ptscope" -- /bin/sh -c 'kill -KILL $$' > "$T/out" 2> "$T/err" || fail "run of a killed CMD rc=$?"
check_manifest "$T/k.ptscope" "m['trigger']['reason'] == 'exit'"

echo "-- run --no-copy with a hex filter range"
pts run -q --no-copy -F stop:0x1000-0x2000 -o "$T/b.ptscope" -- /bin/true > "$T/out" 2> "$T/err" || fail "run --no-copy rc=$?"
check_manifest "$T/b.ptscope" "
all('file' not in o for o in m['objects'] if not o['path'].startswith('/sys/module/')) ;;
len(m['objects']) > 1 ;;
m['config']['addr_ranges'] == [{'a': '0x1000', 'b': '0x1fff', 'cfg': 2}]"

readback "$T/b.ptscope"

echo "-- a mapped file that cannot be read is a warning: complete bundle, exit 0, recorded"
# CMD (a copy of sh) deletes its own executable; without CAP_SYS_ADMIN
# (and CAP_CHECKPOINT_RESTORE) /proc/PID/map_files cannot be opened, so
# the file is out of reach: as perf record leaves a DSO it cannot read to
# decode as [unknown], the capture goes on and says what is lost
cp /bin/sh "$T/selfrm"
set +e
setpriv --inh-caps=-sys_admin,-checkpoint_restore --bounding-set=-sys_admin,-checkpoint_restore \
	env LD_PRELOAD="$T/fakedev.so" "$B/ptscope" run -q -o "$T/nc.ptscope" -- "$T/selfrm" -c "rm $T/selfrm" \
	> "$T/out" 2> "$T/err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "run with a file it cannot copy: rc $rc, want 0"
grep -q "^  warning   $T/selfrm not copied (cannot open $T/selfrm: No such file or directory): its code decodes as gaps (\[unknown\]); to decode it, give --sysroot DIR with the original file at 'DIR$T/selfrm'" "$T/out" ||
	fail "no warning naming the file, the loss and what to do"
! grep -q "^  error.*selfrm" "$T/out" || fail "a file not copied is still an error"
! grep -q INCOMPLETE "$T/out" || fail "a file not copied made the bundle incomplete"
check_manifest "$T/nc.ptscope" "
m['complete'] is True ;;
[(o['size'], o['build_id'], 'file' in o) for o in m['objects'] if o['path'] == '$T/selfrm'] == [(0, '', False)] ;;
[o['not_copied'] for o in m['objects'] if o['path'] == '$T/selfrm'] == ['cannot open $T/selfrm: No such file or directory'] ;;
any(o['path'] == '$T/selfrm (deleted)' and 'deleted while mapped' in o['not_copied'] for o in m['objects']) ;;
all('not_copied' not in o for o in m['objects'] if 'selfrm' not in o['path'])"
readback "$T/nc.ptscope"
# the decoder says it too, uses no host file for it, and counts it
cp /bin/true "$T/selfrm"
"$B/ptscope" decode "$T/nc.ptscope" -o "$T/nc.txt" --summary > "$T/out" 2> "$T/err" || true
grep -q "warning: $T/selfrm was not copied at capture: its code decodes as gaps; give --sysroot DIR with the original file at 'DIR$T/selfrm' (cannot open" "$T/out" ||
	fail "decode: no warning for the file not copied"
grep -q "code files: .*, 2 the capture could not read$" "$T/out" || fail "decode: not counted"
! grep -q "selfrm is used unchecked" "$T/out" || fail "decode used the file now at that path"
rm -f "$T/selfrm"

echo "-- attach: snapshot when the process exits"
sleep 1 &
sp=$!
pts attach -q -p $sp -o "$T/at.ptscope" > "$T/out" 2> "$T/err" || fail "attach rc=$?"
wait $sp || true
check_manifest "$T/at.ptscope" "
m['trigger']['reason'] == 'exit' ;; m['config']['filter_pid'] == $sp ;;
m['processes'][0]['pid'] == $sp and len(m['processes'][0]['maps_arm']) > 0"
if pts attach -q -p 4194305 -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then fail "attach to no process succeeded"; fi
grep -q "no process 4194305: give the pid of a running process" "$T/err" || fail "attach to no process: message"

echo "-- record -C 1 --duration"
pts record -q -C 1 --duration 200ms -o "$T/r.ptscope" > "$T/out" 2> "$T/err" || fail "record rc=$?"
check_manifest "$T/r.ptscope" "
[c['cpu'] for c in m['cpus']] == [1] ;; m['trigger']['reason'] == 'none' ;;
'duration' in m['trigger']['detail'] ;; m['config'].get('filter_pid', 0) == 0 ;;
int(m['config']['rtit_ctl'], 16) & 0x80 == 0 ;; len(m['processes']) >= 1"

readback "$T/r.ptscope"

echo "-- record with a tracepoint trigger fired by the module"
FAKEDEV_TRIGGER_MS=100 pts record -q --trigger tracepoint:sched:sched_switch:pid=4242 \
	-o "$T/t.ptscope" > "$T/out" 2> "$T/err" || fail "record --trigger rc=$?"
check_manifest "$T/t.ptscope" "
m['trigger']['reason'] == 'tracepoint' and m['trigger']['detail'] == 'sched:sched_switch' ;;
m['trigger']['pid'] == 4242 and m['trigger']['cpu'] == 1 ;;
m['config']['trigger_spec'] == 'tracepoint:sched:sched_switch:pid=4242'"

readback "$T/t.ptscope"

echo "-- the status line says how to fire a hotkey or manual trigger"
# the module's default key (x) when none is given, as GET_TRIGGER reports it
pts record --trigger hotkey --duration 100ms --size 64K --no-copy -o "$T/hk.ptscope" > "$T/out" 2> "$T/err" ||
	fail "record --trigger hotkey rc=$?"
grep -q "armed: .*trigger hotkey (fire it with Alt+SysRq+x at a console, or as root: echo x > /proc/sysrq-trigger)" \
	"$T/err" || fail "hotkey: the status line does not say which key fires it"
pts record --trigger hotkey:y --duration 100ms --size 64K --no-copy -o "$T/hy.ptscope" > "$T/out" 2> "$T/err" ||
	fail "record --trigger hotkey:y rc=$?"
grep -q "trigger hotkey:y (fire it with Alt+SysRq+y" "$T/err" || fail "hotkey:y: the status line"
pts record --trigger manual --duration 100ms --size 64K --no-copy -o "$T/mn.ptscope" > "$T/out" 2> "$T/err" ||
	fail "record --trigger manual rc=$?"
grep -q "trigger manual (fire it with \`ptscope trigger\` from another shell)" "$T/err" ||
	fail "manual: the status line does not say how to fire it"

echo "-- --multi-snapshot writes one bundle per trigger"
FAKEDEV_TRIGGER_MS=50 pts record -q --trigger manual --multi-snapshot --duration 2s --size 64K --no-copy \
	-o "$T/m.ptscope" > "$T/out" 2> "$T/err" || fail "record --multi-snapshot rc=$?"
[ -f "$T/m.1.ptscope/manifest.json" ] && [ -f "$T/m.2.ptscope/manifest.json" ] || fail "no m.1/m.2 bundles: $(ls "$T")"
check_manifest "$T/m.1.ptscope" "m['trigger']['reason'] == 'tracepoint' and m['complete'] is True"
readback "$T/m.2.ptscope"

echo "-- a crash kernel loaded at START is warned of, once a capture, with what to do"
FAKEDEV_KDUMP=1 FAKEDEV_TRIGGER_MS=50 pts record -q --trigger manual --multi-snapshot --duration 2s \
	--size 64K --no-copy -o "$T/k.ptscope" > "$T/out" 2> "$T/err" || fail "record with kdump rc=$?"
[ -f "$T/k.2.ptscope/manifest.json" ] || fail "kdump: no second snapshot, the warning was said of one START"
[ "$(grep -c 'warning: a crash kernel (kdump) is loaded' "$T/err")" = 1 ] ||
	fail "kdump: not one crash-kernel warning over the re-arms: $(cat "$T/err")"
grep -q 'Stop the capture before provoking a crash.*kexec -p -u' "$T/err" || fail "kdump: the warning says not what to do"
grep -q 'echo Y > /sys/module/kernel/parameters/crash_kexec_post_notifiers' "$T/err" ||
	fail "kdump: the warning does not say crash_kexec_post_notifiers can be set at run time"
pts record -q --duration 100ms --size 64K --no-copy -o "$T/nk.ptscope" > "$T/out" 2> "$T/err" ||
	fail "record without kdump rc=$?"
! grep -q 'crash kernel' "$T/err" || fail "a crash-kernel warning without a crash kernel: $(cat "$T/err")"
FAKEDEV_ARMED=1 FAKEDEV_KDUMP=1 pts status > "$T/out" 2> "$T/err" || fail "status with kdump rc=$?"
grep -q '^kdump  *a crash kernel was loaded at START.*crash_kexec_post_notifiers to Y.*kexec -p -u' "$T/out" || fail "kdump: status has no kdump line"
FAKEDEV_ARMED=1 FAKEDEV_KDUMP=1 pts status --json > "$T/status.json" || fail "status --json with kdump rc=$?"
python3 -c "import json; s = json.load(open('$T/status.json')); assert s['state'] == 'armed' and s['crash_kernel'] is True" ||
	fail "kdump: status --json: $(cat "$T/status.json")"
FAKEDEV_ARMED=1 pts status > "$T/out" 2> "$T/err" || fail "status without kdump rc=$?"
! grep -q '^kdump' "$T/out" || fail "kdump: a status kdump line without a crash kernel"

echo "-- a bundle name that cannot be created is refused before CMD runs or anything is armed"
: > "$T/afile"
for o in /no/such/dir/x.ptscope "$T/afile/x.ptscope" "$T/a.ptscope"; do
	: > "$T/log"
	rm -f "$T/ran"
	if pts run -q -o "$o" -- touch "$T/ran" > "$T/out" 2> "$T/err"; then fail "run -o $o succeeded"; fi
	[ ! -e "$T/ran" ] || fail "run -o $o: CMD was started"
	[ ! -s "$T/log" ] || fail "run -o $o: the device was used: $(tr '\n' ' ' < "$T/log")"
	grep -q "cannot write the bundle $o\|$o already exists" "$T/err" || fail "run -o $o: message"
done
grep -q "its directory /no/such/dir: No such file or directory (create it first" "$T/err" ||
	grep -q "already exists" "$T/err" || fail "missing directory message"
: > "$T/log"
if pts record -q --multi-snapshot -o /no/such/dir/m.ptscope > "$T/out" 2> "$T/err"; then
	fail "record --multi-snapshot into a missing directory succeeded"; fi
[ ! -s "$T/log" ] || fail "record --multi-snapshot -o /no/such/dir: the device was used"

echo "-- --multi-snapshot numbers its bundles past the ones already there"
mkdir "$T/n.1.ptscope"
FAKEDEV_TRIGGER_MS=50 pts record -q --trigger manual --multi-snapshot --duration 2s --size 64K --no-copy \
	-o "$T/n.ptscope" > "$T/out" 2> "$T/err" || fail "record --multi-snapshot beside n.1 rc=$?"
[ -z "$(ls -A "$T/n.1.ptscope")" ] || fail "the existing n.1.ptscope was written into"
[ -f "$T/n.2.ptscope/manifest.json" ] && [ -f "$T/n.3.ptscope/manifest.json" ] || fail "no n.2/n.3: $(ls "$T")"

echo "-- two captures started in the same second get two default names"
mkdir "$T/cwd"
Babs=$(realpath "$B")
(cd "$T/cwd" && LD_PRELOAD=$T/fakedev.so "$Babs/ptscope" run -q -- /bin/true > ../out1 2>&1) &
(cd "$T/cwd" && LD_PRELOAD=$T/fakedev.so "$Babs/ptscope" run -q -- /bin/true > ../out2 2>&1) &
wait
[ "$(ls -d "$T"/cwd/ptscope-*.ptscope | wc -l)" = 2 ] || fail "default names: $(ls "$T/cwd"; cat "$T/out1" "$T/out2")"

echo "-- a bundle that cannot be written at the end is saved in TMPDIR, and ptscope says where"
mkdir -p "$T/gone" "$T/tmp"
set +e
TMPDIR=$T/tmp pts run -q -o "$T/gone/x.ptscope" -- rm -rf "$T/gone" > "$T/out" 2> "$T/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "rc $rc when the bundle had to be rescued"
rescued=$(ls -d "$T"/tmp/x-rescued-*.ptscope)
grep -qF "$T/gone/x.ptscope could not be written; the capture is saved in $rescued instead" "$T/err" ||
	fail "no rescue message"
check_manifest "$rescued" "m['complete'] is True ;; m['trigger']['reason'] == 'exit'"

echo "-- --filter SYMBOL is looked up in CMD and relocated with its maps"
# expected: nm's value of main plus the load bias; for a PIE (ELF type DYN)
# the bias is the start of the executable's pgoff-0 mapping, because ld puts
# p_vaddr == p_offset in every PT_LOAD; a non-PIE executable has bias 0
MAINV=$(nm "$B/ptscope" | awk '$3 == "main" { print $1 }')
PIE=$(readelf -h "$B/ptscope" | grep -c 'Type: *DYN' || true)
pts run -q -F stop:main -o "$T/f.ptscope" -- "$B/ptscope" --help > "$T/out" 2> "$T/err" || fail "run -F stop:main rc=$?"
EXE=$(readlink -f "$B/ptscope")
check_manifest "$T/f.ptscope" "
m['config']['addr_ranges'][0]['cfg'] == 2 ;;
int(m['config']['addr_ranges'][0]['a'], 16) == 0x$MAINV + ($PIE and min(int(x['start'], 16) for x in m['processes'][0]['maps_arm'] if x['path'] == '$EXE' and int(x['pgoff'], 16) == 0))"
# a user function as the only traced range of a kernel scope: said, never fatal
pts run -q --scope kernel -F filter:main -o "$T/fk.ptscope" -- "$B/ptscope" --help > "$T/out" 2> "$T/err" ||
	[ -f "$T/fk.ptscope/manifest.json" ] || fail "run --scope kernel -F filter:main: no bundle"
grep -q "warning: --filter range 0x[0-9a-f]*-0x[0-9a-f]* is user-space code, which --scope kernel does not trace: nothing inside it will be traced" \
	"$T/err" || fail "a user filter range in kernel scope is not said: $(cat "$T/err")"
# ... again in the summary at the end, and by the decoder: never fatal
grep -q "^  warning   --filter range 0x[0-9a-f]*-0x[0-9a-f]* is user-space code, which --scope kernel does not trace: nothing inside it was traced" \
	"$T/out" || fail "the summary does not say the filter range outside the scope: $(cat "$T/out")"
# and a kernel range in user scope, from a hex range
pts run -q -F filter:0xffffffff81000000-0xffffffff81001000 -o "$T/fu.ptscope" -- /bin/true > "$T/out" 2> "$T/err" ||
	[ -f "$T/fu.ptscope/manifest.json" ] || fail "run -F kernel range: no bundle"
grep -q "^  warning   --filter range 0xffffffff81000000-0xffffffff81001000 is kernel code, which --scope user does not trace" \
	"$T/out" || fail "summary: kernel range in user scope: $(cat "$T/out")"
for fb in fk fu; do
	set +e
	"$B/ptscope" decode "$T/$fb.ptscope" -o "$T/$fb.fxt" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "decode of $fb.ptscope: rc $rc: a range outside the scope is never fatal"
	grep -q "ptscope decode: warning: the capture's --filter range 0x[0-9a-f]*-0x[0-9a-f]* is .* code, which --scope [a-z]* does not trace: nothing inside it was traced" \
		"$T/err" || fail "decode of $fb.ptscope does not say the range outside the scope: $(cat "$T/err")"
done
if pts record -q -F stop:main -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then fail "record with a symbol filter succeeded"; fi
grep -q "a symbol needs a traced process" "$T/err" || fail "record symbol filter message"

echo "-- --trigger SYMBOL: a uprobe on CMD's executable at the symbol's file offset"
# expected: nm's value of main placed in the PT_LOAD that holds it, from
# readelf's program headers (file offset = value - p_vaddr + p_offset)
MAINOFF=
while read -r typ off va pa fsz rest; do
	[ "$typ" = LOAD ] || continue
	if (( 0x$MAINV >= va && 0x$MAINV < va + fsz )); then
		MAINOFF=$(printf '%#x' $(( 0x$MAINV - va + off )))
	fi
done < <(readelf -lW "$B/ptscope")
[ -n "$MAINOFF" ] || fail "readelf: no LOAD segment holds main"
: > "$T/log"
pts run -q --trigger main -o "$T/u.ptscope" -- "$B/ptscope" --help > "$T/out" 2> "$T/err" ||
	fail "run --trigger main rc=$?"
grep -q "^UPROBE $EXE $MAINOFF pid [1-9][0-9]*$" "$T/log" ||
	fail "uprobe at CONFIGURE: '$(grep UPROBE "$T/log")', want $EXE $MAINOFF and CMD's pid"
grep -qF "trigger: uprobe on main in $EXE (section .text, file offset $MAINOFF), in one process" "$T/err" ||
	fail "no 'trigger: uprobe on main' line: $(cat "$T/err")"
# a symbol that is not there: refused before the device is configured and
# before CMD runs a single instruction of its own
: > "$T/log"
rm -f "$T/ran2"
if pts run -q --trigger no_such_fn -o "$T/v.ptscope" -- touch "$T/ran2" > "$T/out" 2> "$T/err"; then
	fail "run --trigger no_such_fn succeeded"
fi
grep -q "no symbol 'no_such_fn'" "$T/err" || fail "missing symbol message: $(cat "$T/err")"
! grep -q CONFIGURE "$T/log" || fail "CONFIGURE issued for a missing trigger symbol"
[ ! -e "$T/ran2" ] || fail "CMD ran although its trigger symbol is missing"
[ ! -e "$T/v.ptscope" ] || fail "a bundle was written for a refused trigger"

echo "-- a tracepoint without a probe is refused before the device is used or CMD runs"
# the fake device takes any name; the module would refuse it at CONFIGURE,
# after CMD was started and held: the options know the module's list
for tp in sched:no_such_event syscalls:sys_enter_openat; do
	: > "$T/log"
	rm -f "$T/ran3"
	set +e
	pts run -q --trigger "tracepoint:$tp" -o "$T/tp.ptscope" -- touch "$T/ran3" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "run --trigger tracepoint:$tp: rc $rc, want 2 (bad option)"
	[ ! -s "$T/log" ] || fail "tracepoint:$tp: the device was used: $(tr '\n' ' ' < "$T/log")"
	[ ! -e "$T/ran3" ] || fail "tracepoint:$tp: CMD ran"
	[ ! -e "$T/tp.ptscope" ] || fail "tracepoint:$tp: a bundle was written"
done
grep -q "give tracepoint:raw_syscalls:sys_enter:pid=N" "$T/err" || fail "syscalls:sys_enter_openat: message"
pts record --help > "$T/out" || fail "record --help"
grep -q "^  .*irq:irq_handler_entry" "$T/out" || fail "record --help does not list the tracepoints a trigger takes"

echo "-- refusals carry the module's reason"
: > "$T/log"
if FAKEDEV_REFUSE=5 pts record -q -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then fail "refused CONFIGURE succeeded"; fi
grep -q "CONFIGURE refused: kernel scope, system-wide capture and CPU-wide triggers need CAP_SYS_ADMIN or CAP_PERFMON" "$T/err" || fail "no reason text"
[ ! -e "$T/x.ptscope" ] || fail "bundle written after a refusal"
# a value only where the module set one (no "value 0" nobody gave), the
# options it came from as given, and what to do
if FAKEDEV_REFUSE=9 pts record -q -C 1 -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then fail "refused -C succeeded"; fi
grep -q "CONFIGURE refused: cpu_mask names no online CPU or a CPU that does not exist (Invalid argument); from -C/--cpus 1; give -C/--cpus a list of online CPUs" \
	"$T/err" || fail "BAD_CPU_MASK refusal: $(cat "$T/err")"
if FAKEDEV_REFUSE=43 FAKEDEV_REFUSE_ARG=1048576 pts record -q --size 4M -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then
	fail "refused --size succeeded"; fi
grep -q "(limit 1 MiB, Invalid argument); from --size 4 MiB; give a --size" "$T/err" ||
	fail "BUFFER_LIMIT refusal: $(cat "$T/err")"
# BAD_TRIGGER and RESERVED_NONZERO: reason_arg is the refused field's offset
# in the struct (docs/abi.md): the field is named with the value ptscope sent
cat > "$T/off.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include <uapi/ptscope.h>
int main(void)
{
	printf("%zu %zu\n", offsetof(struct ptscope_config, trigger.post_trigger_us),
	       offsetof(struct ptscope_config, trigger.hotkey));
	return 0;
}
C
gcc -Iinclude -o "$T/off" "$T/off.c"
read -r off_post off_key < <("$T/off")
if FAKEDEV_REFUSE=29 FAKEDEV_REFUSE_ARG=$off_post pts record -q --trigger manual --post-trigger 500 -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then
	fail "refused --post-trigger succeeded"; fi
grep -q "(field trigger.post_trigger_us = 500, Invalid argument); from --trigger manual, --post-trigger 500;" "$T/err" ||
	fail "BAD_TRIGGER refusal names no field: $(cat "$T/err")"
if FAKEDEV_REFUSE=29 FAKEDEV_REFUSE_ARG=$off_key pts record -q --trigger hotkey:q -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then
	fail "refused hotkey succeeded"; fi
grep -q "(field trigger.hotkey = 'q', Invalid argument); from --trigger hotkey:q;" "$T/err" ||
	fail "BAD_TRIGGER refusal names no field: $(cat "$T/err")"
# a module older than this ptscope refuses the bytes past its struct
if FAKEDEV_REFUSE=2 FAKEDEV_REFUSE_ARG=456 pts record -q -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then
	fail "refused struct tail succeeded"; fi
grep -q "(bytes from offset 456 on (uprobe.fd), which this module does not know, Invalid argument); ptscope leaves every reserved field 0" "$T/err" ||
	fail "RESERVED_NONZERO refusal names no field: $(cat "$T/err")"
if pts trigger > "$T/out" 2> "$T/err"; then fail "trigger on an idle device succeeded"; fi
! grep -q "value" "$T/err" || fail "a refusal without a value prints one: $(cat "$T/err")"

echo "-- an option this machine cannot do is a bad option: exit 2, nothing armed"
for opt in "-C 7" "--filter 0x1000-0x2000 --filter 0x3000-0x4000 --filter 0x5000-0x6000"; do
	: > "$T/log"
	set +e
	# shellcheck disable=SC2086 # the option and its value are two words
	pts record -q $opt --duration 100ms -o "$T/x.ptscope" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "record $opt: rc $rc, want 2 (bad option): $(cat "$T/err")"
	! grep -q CONFIGURE "$T/log" || fail "record $opt: CONFIGURE issued"
done
grep -q "this CPU has 2" "$T/err" || fail "--filter count: message: $(cat "$T/err")"
if FAKEDEV_NO_PT=1 pts record -q -o "$T/x.ptscope" > "$T/out" 2> "$T/err"; then fail "no-PT succeeded"; fi
grep -q "no Intel PT" "$T/err" && grep -q "simulate=1" "$T/err" || fail "no-PT message"
# a bad value is said as itself before the module is looked for: no module here
nomod() { PTSCOPE_DEVICE=$T/nonexistent "$B/ptscope" "$@" -o "$T/nm.ptscope" > "$T/out" 2> "$T/err"; }
for c in "record -q -C 1023:2:CPU 1023 is not online" \
	 "attach -q -p 4194305:1:no process 4194305: give the pid" \
	 "run -q -- $T/nosuchprog:1:cannot run '$T/nosuchprog': No such file or directory: give" \
	 "run -q -- $T/dev:1:cannot run '$T/dev': Permission denied: make it" \
	 "run -q --trigger uprobe:/bin/sh:no_such_symbol -- /bin/true:1:--trigger: no symbol 'no_such_symbol'" \
	 "run -q --trigger no_such_symbol -- /bin/true:1:--trigger: no symbol 'no_such_symbol' in /"; do
	args=${c%%:[0-9]:*} want=${c#*:[0-9]:} rc=${c#"$args:"}
	rc=${rc%%:*}
	set +e
	# shellcheck disable=SC2086 # the options are several words
	nomod $args
	got=$?
	set -e
	[ "$got" = "$rc" ] || fail "$args without the module: rc $got, want $rc"
	grep -qF -- "$want" "$T/err" || fail "$args without the module: not '$want' first"
	! grep -q "module is not loaded" "$T/err" || fail "$args: the module named before the value"
	[ ! -e "$T/nm.ptscope" ] || fail "$args: a bundle directory was made"
done
if PTSCOPE_DEVICE=$T/nonexistent "$B/ptscope" caps > "$T/out" 2> "$T/err"; then fail "caps without module succeeded"; fi
grep -q "^module *not loaded" "$T/out" || fail "caps without module: no module line"
# modprobe needs an install step (packages, make modules_install): say so
! grep -h "modprobe" "$T/out" "$T/err" | grep -v -q "modprobe ptscope simulate=1 once installed" ||
	fail "modprobe suggested without its install step"
# without the module, caps reads CPUID itself: it must agree with the
# kernel's reading in /proc/cpuinfo (vendor, family, model, stepping, and
# the intel_pt flag, X86_FEATURE_INTEL_PT = CPUID.07H:EBX[25])
set +e
PTSCOPE_DEVICE=$T/nonexistent "$B/ptscope" caps --json > "$T/nomod.json" 2> "$T/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "caps --json without module: rc $rc, want 1"
python3 - "$T/nomod.json" "$T/err" <<'PY' || fail "caps without module disagrees with /proc/cpuinfo"
import json, sys
c = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
info = {}
for line in open('/proc/cpuinfo'):
    if ':' in line:
        k, v = (x.strip() for x in line.split(':', 1))
        info.setdefault(k, v)
pt = 'intel_pt' in info['flags'].split()
assert c['module_loaded'] is False and c['can_decode'] is True and c['can_capture'] is False, c
assert c['vendor'] == info['vendor_id'], (c['vendor'], info['vendor_id'])
assert (c['family'], c['model'], c['stepping']) == \
    (int(info['cpu family']), int(info['model']), int(info['stepping'])), c
assert c['pt'] == pt, (c['pt'], pt)
if not pt:
    want = 'this CPU (%s) has no Intel PT: decode works here; capture needs an Intel CPU, or `simulate=1` for a dry run' % info['vendor_id']
    assert want in c['verdict'] and want in err, (c['verdict'], err)
else:
    assert 'insmod kmod/ptscope.ko' in err, err
PY
if pts run -q -o "$T/x.ptscope" -- /nonexistent/prog > "$T/out" 2> "$T/err"; then fail "run of a missing program succeeded"; fi
grep -q "cannot run '/nonexistent/prog': No such file or directory: give the program's path" "$T/err" ||
	fail "missing-program message: $(cat "$T/err")"
[ ! -e "$T/x.ptscope" ] || fail "a missing program left a bundle"
printf 'echo hi\n' > "$T/script.sh"	# not executable
if pts run -q -o "$T/x.ptscope" -- "$T/script.sh" > "$T/out" 2> "$T/err"; then fail "run of a non-executable file succeeded"; fi
grep -q "cannot run '$T/script.sh': Permission denied: make it executable (chmod +x)" "$T/err" ||
	fail "non-executable message: $(cat "$T/err")"
if pts record --size 3M > "$T/out" 2> "$T/err"; then fail "--size 3M accepted"; fi
grep -q -- "--size: '3M' is not a power of two" "$T/err" || fail "--size message"

echo "-- a data file that cannot be written marks the bundle incomplete"
set +e
( ulimit -f 1024; trap '' XFSZ; pts run -q -o "$T/c.ptscope" -- /bin/true > "$T/out" 2> "$T/err" )
rc=$?
set -e
[ "$rc" = 1 ] || fail "rc $rc for an incomplete bundle"
check_manifest "$T/c.ptscope" "
m['complete'] is False and 'cpu0.pt' in m['incomplete_reason'] ;;
[c['cpu'] for c in m['cpus']] == [1]"
grep -q "INCOMPLETE" "$T/out" || fail "summary does not say incomplete"
readback "$T/c.ptscope"

echo "-- a second Ctrl-C aborts and disarms"
: > "$T/log"
FAKEDEV_SLOW_STOP_MS=1500 LD_PRELOAD=$T/fakedev.so "$B/ptscope" run -q -o "$T/d.ptscope" -- sleep 30 > "$T/out" 2> "$T/err" &
pid=$!
for _ in $(seq 50); do grep -q START "$T/log" && break; sleep 0.1; done
# the first stops tracing (STOP takes 1.5 s here), the second lands during it
kill -INT $pid; sleep 0.5; kill -INT $pid
set +e; wait $pid; rc=$?; set -e
[ "$rc" = 130 ] || fail "rc $rc after two Ctrl-C"
tail -n 2 "$T/log" | tr '\n' ' ' | grep -q "STOP UNCONFIGURE" || fail "not disarmed: $(tr '\n' ' ' < "$T/log")"
[ ! -e "$T/d.ptscope/manifest.json" ] || grep -q '"complete": *false' "$T/d.ptscope/manifest.json" || fail "aborted bundle claims complete"

echo "-- status, trigger, caps, --help"
pts status > "$T/out" 2> "$T/err" || fail "status rc=$?"
grep -q "^state *idle (simulated PT unit)" "$T/out" || fail "status output"
pts status --disarm > "$T/out" 2> "$T/err" || fail "status --disarm rc=$?"
grep -q "nothing to disarm" "$T/out" || fail "status --disarm on idle"
if pts trigger > "$T/out" 2> "$T/err"; then fail "trigger on an idle device succeeded"; fi
grep -q "TRIGGER refused: not armed.*start one there (ptscope record, run or attach, e.g. with --trigger manual)" \
	"$T/err" || fail "trigger message: $(cat "$T/err")"
pts status --json > "$T/status.json" || fail "status --json rc=$?"
python3 -c "
import json; s = json.load(open('$T/status.json'))
assert s['module_loaded'] and s['state'] == 'idle' and s['simulated'] and s['cpus'] == []
assert s['trigger'] == {'reason': 'none'} and s['rtit_ctl'].startswith('0x')" || fail "status json: $(cat "$T/status.json")"
set +e
PTSCOPE_DEVICE=$T/nonexistent "$B/ptscope" status --json > "$T/status.json" 2> "$T/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "status --json without module: rc $rc"
python3 -c "
import json; s = json.load(open('$T/status.json')); assert s['module_loaded'] is False" ||
	fail "status json without module: $(cat "$T/status.json")"
# one version: --version, -V and the producer of the bundles ptscope writes
v=$("$B/ptscope" --version) || fail "--version rc=$?"
[ "$v" = "$("$B/ptscope" -V)" ] || fail "-V differs from --version"
# an option before any command is said to be one, with the ones ptscope takes
set +e
"$B/ptscope" -v > "$T/out" 2> "$T/err"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "^ptscope: unknown option '-v' (ptscope takes -h/--help and -V/--version" "$T/err" ||
	fail "ptscope -v: rc $rc: $(head -1 "$T/err")"
echo "$v" | grep -qE '^ptscope [0-9]+\.[0-9]+' || fail "--version: $v"
check_manifest "$T/a.ptscope" "m['producer'] == '$v'"
pts caps --json > "$T/caps.json" || fail "caps --json"
python3 -c "
import json; c = json.load(open('$T/caps.json'))
assert c['simulated'] and c['module_loaded'] and c['features']['cr3_filter']
assert any(x['feature'] == 'ptwrite' for x in c['missing'])
assert c['online_cpus'] == [0, 1]" || fail "caps json"
pts caps | grep -q "simulated PT unit" || fail "caps table"
# the key --trigger hotkey fires on: the module's hotkey parameter
mkdir -p "$T/mod/parameters"
echo y > "$T/mod/parameters/hotkey"
PTSCOPE_MODULE_SYSFS=$T/mod pts caps > "$T/out" || fail "caps with a hotkey parameter"
grep -q "^hotkey  *y: --trigger hotkey fires on Alt+SysRq+y" "$T/out" || fail "caps: no hotkey line: $(cat "$T/out")"
PTSCOPE_MODULE_SYSFS=$T/mod pts caps --json > "$T/caps.json" || fail "caps --json with a hotkey parameter"
python3 -c "import json; assert json.load(open('$T/caps.json'))['hotkey'] == 'y'" || fail "caps --json: hotkey"
PTSCOPE_MODULE_SYSFS=$T/nonexistent pts caps > "$T/out" || fail "caps without the parameter"
grep -q "^hotkey  *unknown.*--trigger hotkey:KEY names the key" "$T/out" || fail "caps: unreadable hotkey"
for c in caps run attach record trigger status; do
	"$B/ptscope" $c --help > "$T/out" || fail "$c --help"
	grep -qi "usage: ptscope $c" "$T/out" || fail "$c --help text"
done
echo "all fake-device checks passed"
