#!/usr/bin/env bash
# An allow-list line that says "varies" (tests/fidelity/known-differences)
# passes any count, from none to every call and stack of its stream. It
# must not make a stream's comparison one that cannot fail: with a
# decoder whose timeline has lost every caller (each call at depth 1, as
# a decoder that drops its stack at every switch would show), the (c)
# comparison of every stream with stacks must fail, the Go stream's
# (goroutines, whose nesting line says "varies") as a C coroutine
# stream's (coro, whose has none). Uses the bundles 75-fidelity made.
set -eu
cd "$(dirname "$0")/../.."
B=${B:-build}
work=$B/fidelity-varies
bin=$B/ptsynth-programs
rm -rf "$work"
mkdir -p "$work/build"
for s in coro goroutines; do
	if [ ! -f "$B/fidelity/bundles/$s.ptscope/manifest.json" ]; then
		echo "SKIP: no $B/fidelity/bundles/$s.ptscope (75-fidelity did not make it)"
		exit 77
	fi
done
# ptscope whose .txt listings put every event at depth 0: no caller open
cat > "$work/build/ptscope" <<EOF
#!/usr/bin/env bash
"$(cd "$B" && pwd)/ptscope" "\$@" || exit
out=
while [ \$# -gt 1 ]; do [ "\$1" = -o ] && out=\$2; shift; done
case \$out in
*.txt) sed -i -E '/^#/!s/^([^ ]+ +[^ ]+ +[^ ]+ +)[0-9]+/\10/' "\$out" ;;
esac
EOF
chmod +x "$work/build/ptscope"
ln -s "$(cd "$B" && pwd)/ptsynth" "$work/build/ptsynth"
fail=0
for s in coro goroutines; do
	if out=$(python3 tests/fidelity/fidelity.py --build "$work/build" --work "$work/$s" \
		--allow tests/fidelity/known-differences \
		--bundle "$s=$B/fidelity/bundles/$s.ptscope:$bin/$s" 2>&1); then
		echo "FAIL: $s: a timeline with no caller open passes the fidelity check:"
		echo "$out" | grep -E "^fidelity: |  $s nesting" | cut -c1-200
		fail=1
	fi
done
[ $fail = 0 ] || exit 1
echo "ok: a timeline that lost every caller fails the fidelity check on every stream with stacks"
