#!/usr/bin/env bash
# fxtcheck (the tests' independent fxt reader as a tool) on traces whose
# bytes are worked out by hand from the Fuchsia trace format reference:
# a valid one must give exactly one slice, a begin without its end must
# be refused. Other checks then use fxtcheck on `ptscope decode` output.
set -eu
B=${B:-build}
tool=$B/fxtcheck
[ -x "$tool" ] || { echo "missing $tool: run make"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

word() { printf "$1" >>"$2"; }

# Magic number record: the reference gives its bytes, 10 00 04 46 78 54 16 00.
magic='\x10\x00\x04\x46\x78\x54\x16\x00'
# Initialization record: [0..3] 1, [4..15] 2 words -> 0x21; 10^9 = 0x3b9aca00.
init='\x21\x00\x00\x00\x00\x00\x00\x00\x00\xca\x9a\x3b\x00\x00\x00\x00'
# Duration begin: [0..3] 4 | [4..15] 6 words | [16..19] type 2 | [24..31]
# thread 0 (inline) | [32..47] category inline, length 3 (0x8003) |
# [48..63] name inline, length 4 (0x8004) = 0x8004800300020064.
# Then ts 5, pid 10, tid 11, "cat" and "work" padded to 8 bytes.
begin='\x64\x00\x02\x00\x03\x80\x04\x80\x05\0\0\0\0\0\0\0\x0a\0\0\0\0\0\0\0\x0b\0\0\0\0\0\0\0cat\0\0\0\0\0work\0\0\0\0'
# Duration end: the same with type 3 (0x8004800300030064) and ts 9.
end='\x64\x00\x03\x00\x03\x80\x04\x80\x09\0\0\0\0\0\0\0\x0a\0\0\0\0\0\0\0\x0b\0\0\0\0\0\0\0cat\0\0\0\0\0work\0\0\0\0'

word "$magic" "$tmp/good.fxt"; word "$init" "$tmp/good.fxt"
word "$begin" "$tmp/good.fxt"; word "$end" "$tmp/good.fxt"
got=$("$tool" --dump "$tmp/good.fxt")
want="slice 10/11 0 5 9 cat work"
if [ "$got" != "$want" ]; then
	echo "hand-built trace: got '$got', want '$want'"
	exit 1
fi

# the same trace gzip-compressed, as ptscope decode -o t.fxt.gz writes it: read the same
gzip -c "$tmp/good.fxt" > "$tmp/good.fxt.gz"
got=$("$tool" --dump "$tmp/good.fxt.gz") || { echo "fxtcheck refused a gzip-compressed trace"; exit 1; }
[ "$got" = "$want" ] || { echo "fxtcheck on .fxt.gz: got '$got', want '$want'"; exit 1; }

word "$magic" "$tmp/open.fxt"; word "$init" "$tmp/open.fxt"; word "$begin" "$tmp/open.fxt"
if "$tool" "$tmp/open.fxt" 2>"$tmp/err"; then
	echo "a begin without its end was accepted"
	exit 1
fi
grep -q "open slices" "$tmp/err" || { echo "unexpected error: $(cat "$tmp/err")"; exit 1; }
# --help is asked for, not a usage error: the usage on stdout, exit 0;
# no FILE is a usage error (exit 2)
rc=0; "$tool" --help > "$tmp/help" 2>&1 || rc=$?
[ $rc = 0 ] && grep -qi "^usage: fxtcheck" "$tmp/help" || { echo "fxtcheck --help: exit $rc"; cat "$tmp/help"; exit 1; }
rc=0; "$tool" 2> /dev/null || rc=$?
[ $rc = 2 ] || { echo "fxtcheck without FILE: exit $rc, want 2"; exit 1; }
# a usage error says what is wrong before the usage line
rc=0; "$tool" --frob x.fxt 2> "$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q "^fxtcheck: unknown option '--frob'$" "$tmp/err" ||
	{ echo "fxtcheck --frob: exit $rc: $(cat "$tmp/err")"; exit 1; }
rc=0; "$tool" a.fxt b.fxt 2> "$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q "^fxtcheck: one FILE at a time, extra argument 'b.fxt'$" "$tmp/err" ||
	{ echo "fxtcheck a.fxt b.fxt: exit $rc: $(cat "$tmp/err")"; exit 1; }
# a file that is not there, and a directory: each says why (exit 1)
rc=0; "$tool" "$tmp/nosuch.fxt" 2> "$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q "cannot open $tmp/nosuch.fxt: No such file or directory" "$tmp/err" ||
	{ echo "fxtcheck of a missing file: exit $rc: $(cat "$tmp/err")"; exit 1; }
rc=0; "$tool" "$tmp" 2> "$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q "$tmp is a directory: give the file that ptscope decode -o wrote" "$tmp/err" ||
	{ echo "fxtcheck of a directory: exit $rc: $(cat "$tmp/err")"; exit 1; }
# a file of another kind says what it is and what to do with it (exit 1):
# a JSON timeline (plain and gzip-compressed), the text timeline, an empty file
printf '{"displayTimeUnit":"ns","traceEvents":[\n]}\n' > "$tmp/t.json"
gzip -c "$tmp/t.json" > "$tmp/t.json.gz"
printf '# ts_ns cpu pid/tid depth kind event\n' > "$tmp/t.txt"
: > "$tmp/empty.fxt"
for f in t.json:"it is JSON: a Chrome JSON timeline" t.json.gz:"it is JSON: a Chrome JSON timeline" \
	 t.txt:"it is ptscope decode's text timeline" empty.fxt:"the file is empty"; do
	rc=0; "$tool" "$tmp/${f%%:*}" 2> "$tmp/err" || rc=$?
	[ $rc = 1 ] && grep -q "not an fxt file (${f#*:}" "$tmp/err" ||
		{ echo "fxtcheck of ${f%%:*}: exit $rc, want 1 and '${f#*:}': $(cat "$tmp/err")"; exit 1; }
done
echo "fxtcheck: hand-built trace read as one slice; unmatched begin refused; --help exit 0;" \
	"JSON, text and empty files said"
