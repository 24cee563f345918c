#!/usr/bin/env bash
# The .json timeline in a real viewer: speedscope (npm, pinned version) in
# headless Chromium (Debian's chromium package). The oracle is the
# viewer's own importer: it logs "import: N ms" when a profile loaded and
# a warning for every E event that does not end the open slice ("Tried to
# end ...") or a slice left open ("... was still open at end of profile").
# Pass: the import finished and not one such warning. Timelines: the
# shipped sample (user code, ld.so and libc) and, when ../shared is
# there, perf's real user + kernel page-fault listing. The screenshots
# are kept in build/check-artifacts/ for a look.
#
# Skipped, visibly, when chromium is not installed (.ci/run installs it)
# or speedscope cannot be installed from npm (offline).
set -u
cd "$(dirname "$0")/../.."
P=${PTSCOPE:-build/ptscope}
SS_VERSION=1.25.0
SS=${PTS_SPEEDSCOPE:-build/speedscope}
ART=build/check-artifacts
[ -x "$P" ] || { echo "missing $P: run make"; exit 1; }
command -v chromium >/dev/null || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
INDEX=$SS/node_modules/speedscope/dist/release/index.html
if [ ! -f "$INDEX" ]; then
	command -v npm >/dev/null || { echo "SKIP: npm not installed, no speedscope"; exit 77; }
	mkdir -p "$SS"
	timeout 300 npm install --prefix "$SS" --no-audit --no-fund --silent "speedscope@$SS_VERSION" \
		>"$SS/npm.log" 2>&1 ||
		{ echo "SKIP: npm install speedscope@$SS_VERSION failed: $(tail -n 2 "$SS/npm.log")"; exit 77; }
fi
[ -f "$INDEX" ] || { echo "SKIP: speedscope $SS_VERSION has no $INDEX"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$ART"
fail=0

# view NAME JSON: load JSON in speedscope as its command-line tool does
# (a script calling speedscope.loadFileFromBase64), screenshot, console log
view() {
	local name=$1 json=$2 log="$T/$1.log"

	node -e 'const fs = require("fs");
		 const b = fs.readFileSync(process.argv[1]).toString("base64");
		 fs.writeFileSync(process.argv[2], "speedscope.loadFileFromBase64(" +
				  JSON.stringify(process.argv[3]) + ", " + JSON.stringify(b) + ")");' \
		"$json" "$T/$name.js" "$name.json"
	timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--no-first-run --disable-dev-shm-usage --allow-file-access-from-files \
		--virtual-time-budget=10000 --window-size=1280,800 --enable-logging=stderr --v=0 \
		--screenshot="$ART/speedscope-$name.png" \
		"file://$PWD/$INDEX#localProfilePath=$T/$name.js" >"$log" 2>&1
	if ! grep -q '"import: [0-9.]* ms"' "$log"; then
		echo "FAIL $name: speedscope did not finish importing:"; grep CONSOLE "$log" | head -5
		fail=1
	elif grep -E 'Tried to end|still open at end|rror' "$log" | grep -q CONSOLE; then
		echo "FAIL $name: speedscope's importer complains ($(grep -c 'Tried to end' "$log") x" \
			"\"Tried to end\"):"
		grep CONSOLE "$log" | grep -E 'Tried to end|still open|rror' | head -3 | cut -c1-300
		fail=1
	else
		echo "ok $name: speedscope imported it without a warning;" \
			"screenshot $ART/speedscope-$name.png ($(stat -c %s "$ART/speedscope-$name.png") bytes)"
	fi
}

"$P" decode samples/demo.ptscope -o "$T/demo.json" 2>"$T/err" || { echo "FAIL: decode: $(cat "$T/err")"; exit 1; }
view demo "$T/demo.json"
D=${PTS_SHARED:-../shared}/data/real/perf-script/page_fault.perf
if [ -f "$D" ]; then
	"$P" decode --perf-script "$D" -o "$T/page_fault.json" 2>/dev/null
	view page_fault "$T/page_fault.json"
else
	echo "SKIP part: no $D (outside data; CI has it, PTS_SHARED=DIR names a copy): perf's real page-fault listing"
fi
exit $fail
