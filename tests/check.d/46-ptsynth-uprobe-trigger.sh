#!/usr/bin/env bash
# The user-function trigger's trace, on reference-encoder bundles: `ptsynth
# run --trigger-at ADDR` ends the trace where a uprobe's int3 at ADDR would
# (the thread traps before executing the instruction: FUP there, TIP.PGD;
# the module stops tracing in the handler). A non-PIE program calls the
# probed function (probe_fn, its address from nm) from its main thread, or
# only from a second thread. Checked: ptsynth's own ground-truth check;
# the bundle's trigger is "uprobe" with the hitting thread's tid (the
# second thread's, not the pid, in the threaded variant); in the decoded
# .txt that thread's innermost open user frame at the end of the trace is
# probe_fn, under its caller, and the trigger instant is on that thread.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat > "$T/prog.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
static volatile int sink;
__attribute__((noinline)) int work_main(int x) { sink += x; return sink; }
__attribute__((noinline)) int probe_fn(int x) { sink -= x; return sink * 3; }
__attribute__((noinline)) int caller_fn(int x) { return probe_fn(x) + 1; }
static void *thr(void *a) { (void)a; work_main(2); caller_fn(5); return NULL; }
int main(int argc, char **argv)
{
	pthread_t t;

	(void)argv;
	for (int i = 0; i < 3; i++)
		work_main(i);
	if (argc > 1) {		/* "main": the main thread calls it */
		caller_fn(1);
		return 0;
	}
	pthread_create(&t, NULL, thr, NULL);
	pthread_join(t, NULL);
	printf("%d\n", sink);
	return 0;
}
EOF
gcc -O1 -fno-pie -no-pie -pthread -o "$T/prog" "$T/prog.c" || { echo "FAIL: gcc"; exit 1; }
addr=$(nm "$T/prog" | awk '$3 == "probe_fn" { print $1 }')
[ -n "$addr" ] || { echo "FAIL: nm finds no probe_fn"; exit 1; }
addr=$(printf '%x' "0x$addr")

# manifest trigger field
tf() { sed -n '/"trigger": *{/,/}/s/.*"'"$2"'": *"\{0,1\}\([^",]*\)"\{0,1\},\{0,1\}$/\1/p' \
	"$1/manifest.json" | head -n 1; }

for variant in main thread; do
	b=$T/$variant.ptscope
	arg=
	[ $variant = main ] && arg=main
	if ! "$B/ptsynth" run -q --trigger-at "$addr" -o "$b" -- "$T/prog" $arg \
		> /dev/null 2> "$T/err"; then
		bad "$variant: ptsynth run: $(cat "$T/err")"
		continue
	fi
	"$B/ptsynth" check "$b" > "$T/check.out" 2>&1 ||
		bad "$variant: ptsynth check: $(tail -n 3 "$T/check.out")"
	pid=$(tf "$b" pid) tid=$(tf "$b" tid) reason=$(tf "$b" reason)
	[ "$reason" = uprobe ] || bad "$variant: trigger reason '$reason'"
	if [ $variant = main ]; then
		[ "$tid" = "$pid" ] || bad "main: trigger tid $tid is not the main thread $pid"
	else
		[ -n "$tid" ] && [ "$tid" != "$pid" ] ||
			bad "thread: trigger tid '$tid' should be the second thread, not pid $pid"
	fi
	if ! "$B/ptscope" decode "$b" -o "$T/$variant.txt" > "$T/dec.out" 2>&1; then
		bad "$variant: decode: $(head -n 3 "$T/dec.out")"
		continue
	fi
	# "ts cpu pid/tid depth end_of_trace < NAME (OBJ) ..." of the hitting
	# thread: the deepest one that is not synthetic is the last user frame.
	last=$(awk -v t="$pid/$tid" '$3 == t && $5 == "end_of_trace" && $7 !~ /^\[/ &&
		$4 + 0 > d { d = $4 + 0; n = $7 } END { print n }' "$T/$variant.txt")
	parent=$(awk -v t="$pid/$tid" -v n=probe_fn '$3 == t && $5 == "end_of_trace" &&
		$7 == n { d = $4 - 1 } $3 == t && $5 == "end_of_trace" && d != "" &&
		$4 == d { print $7; exit }' "$T/$variant.txt")
	[ "$last" = probe_fn ] ||
		bad "$variant: last user frame of $pid/$tid is '$last', not probe_fn: $(grep " $pid/$tid " "$T/$variant.txt" | tail -n 6 | tr '\n' '|')"
	[ "$parent" = caller_fn ] || bad "$variant: probe_fn's caller is '$parent', not caller_fn"
	grep -q "^[0-9]* [0-9]* $pid/$tid [0-9]* [a-z_]* *! trigger: uprobe 0x$addr" "$T/$variant.txt" ||
		bad "$variant: no trigger instant on $pid/$tid: $(grep -m1 'trigger' "$T/$variant.txt")"
	[ $fail = 0 ] && echo "ok $variant: trigger uprobe at 0x$addr in $pid/$tid; last user frame probe_fn under caller_fn; trigger instant on that thread"
done
exit $fail
