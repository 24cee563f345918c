#!/usr/bin/env bash
# ptsynth run's command line: a bad value names its option and says what
# it takes; a command that cannot start leaves no bundle, so the same
# command line works once it is fixed; a long run says how far it is
# (PTSYNTH_PROGRESS=0: at every check, every 65536 instructions).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

rc=0
"$B/ptsynth" run --wrap 2K -o "$T/a.ptscope" -- /bin/true 2> "$T/err" || rc=$?
[ "$rc" = 2 ] && grep -q -- "--wrap: bad value '2K'; give the ring size in bytes, at least 4096" "$T/err" ||
	bad "--wrap 2K: exit $rc: $(cat "$T/err")"
rc=0
"$B/ptsynth" run --ovf-every=0 -o "$T/a.ptscope" -- /bin/true 2> "$T/err" || rc=$?
[ "$rc" = 2 ] && grep -q -- "--ovf-every: bad value '0'" "$T/err" || bad "--ovf-every=0: exit $rc: $(cat "$T/err")"

rc=0
"$B/ptsynth" run -q -o "$T/b.ptscope" -- "$T/no-such-program" 2> "$T/err" || rc=$?
[ "$rc" = 1 ] || bad "a missing program: exit $rc"
[ ! -e "$T/b.ptscope" ] || bad "a failed start left $T/b.ptscope: $(ls "$T/b.ptscope")"
"$B/ptsynth" run -q --max-insns 1000 -o "$T/b.ptscope" -- /bin/true 2> "$T/err" < /dev/null ||
	bad "the rerun after a failed start: $(cat "$T/err")"

PTSYNTH_PROGRESS=0 "$B/ptsynth" run --max-insns 70000 -o "$T/c.ptscope" -- /bin/true \
	2> "$T/err" < /dev/null > /dev/null || bad "progress run: $(cat "$T/err")"
grep -q "^ptsynth: 65536 instructions traced in " "$T/err" || bad "no progress line: $(cat "$T/err")"
[ "$fail" = 0 ] && echo "ptsynth run: option errors, failed start and progress as documented"
exit $fail
