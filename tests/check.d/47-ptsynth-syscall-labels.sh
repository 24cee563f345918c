#!/usr/bin/env bash
# Syscall labels on reference-encoder bundles: `ptsynth run --syscalls`
# single-steps a real program and writes, for every syscall it sees, the
# SYS_ENTER/SYS_EXIT records ptscope.ko writes with --syscalls (number and
# return IP before the step, the return value read from rax after it: the
# ground truth). The program writes 4096 bytes to /dev/null, opens a file
# that does not exist and exits with exit_group. Checked in the decoded
# .txt: those three labels, as the kernel's table names the calls; every
# "[syscall" slice is labelled (none plain), as many as ptsynth counted
# syscalls; --summary counts every record as naming a stretch, none
# unmatched. A bundle of the same program without --syscalls keeps the
# plain "[syscall]" slices and has no such summary line.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat > "$T/prog.c" <<'EOF'
#include <fcntl.h>
#include <unistd.h>
static char block[4096];
int main(void)
{
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
		return 1;
	if (open("/nonexistent/ptscope-test", O_RDONLY) >= 0)
		return 2;
	return 0;
}
EOF
gcc -O1 -o "$T/prog" "$T/prog.c" || { echo "FAIL: gcc"; exit 1; }

if ! "$B/ptsynth" run --syscalls -o "$T/s.ptscope" -- "$T/prog" > /dev/null 2> "$T/run.err"; then
	echo "FAIL: ptsynth run: $(cat "$T/run.err")"; exit 1
fi
nsys=$(sed -n 's/.*(\([0-9]*\) syscalls,.*/\1/p' "$T/run.err")
"$B/ptsynth" check "$T/s.ptscope" > "$T/check.out" 2>&1 ||
	bad "ptsynth check: $(tail -n 3 "$T/check.out")"
"$B/ptscope" decode "$T/s.ptscope" -o "$T/s.txt" --summary > "$T/sum.txt" 2>&1 ||
	bad "decode: $(head -n 3 "$T/sum.txt")"
for want in '[syscall write → 4096]' '[syscall openat → -ENOENT]' '[syscall exit_group]'; do
	grep -qF "> $want" "$T/s.txt" || bad "no slice '$want' in the timeline"
done
labelled=$(grep -c '> \[syscall [a-z0-9_]' "$T/s.txt")
plain=$(grep -c '> \[syscall\]' "$T/s.txt")
[ "$plain" = 0 ] || bad "$plain syscall slices without a label"
[ -n "$nsys" ] && [ "$labelled" = "$nsys" ] ||
	bad "$labelled labelled syscall slices, ptsynth counted '${nsys}' syscalls"
line=$(grep '^syscall and page-fault records:' "$T/sum.txt")
case $line in
*" $nsys naming an untraced stretch, 0 unmatched within their thread's traced time, 0 outside it"*) ;;
*) bad "summary: '$line' (want $nsys naming, 0 unmatched, 0 outside)" ;;
esac
grep -q '"syscall_records": true' "$T/s.ptscope/manifest.json" ||
	bad "manifest has no config.syscall_records"

# the same program without the records: plain slices, no summary line
"$B/ptsynth" run -q -o "$T/p.ptscope" -- "$T/prog" > /dev/null 2>&1 || bad "ptsynth run (plain)"
"$B/ptscope" decode "$T/p.ptscope" -o "$T/p.txt" --summary > "$T/psum.txt" 2>&1 || bad "decode (plain)"
[ "$(grep -c '> \[syscall [a-z]' "$T/p.txt")" = 0 ] || bad "labels without records"
[ "$(grep -c '> \[syscall\]' "$T/p.txt")" -gt 0 ] || bad "no plain [syscall] slice without records"
grep -q '^syscall and page-fault records:' "$T/psum.txt" && bad "summary line without records"
[ $fail = 0 ] && echo "ok: $labelled of $nsys syscalls labelled (write → 4096, openat → -ENOENT, exit_group); $line"
exit $fail
