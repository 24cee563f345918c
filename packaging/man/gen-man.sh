#!/usr/bin/env bash
# Generates the man pages from the programs' own --help and --version with
# help2man: ptscope(1), one ptscope-COMMAND(1) per command that
# `ptscope --help` lists, ptsynth(1) and fxtcheck(1). The option text is
# the --help text, so a page cannot disagree with its program; the
# sections --help has no room for (SEE ALSO, FILES, ...) come from the
# NAME.h2m files beside this script.
#
#   gen-man.sh BINDIR OUTDIR
#
# Exit status: 0 written, 1 a program or help2man failed, 2 bad usage.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: gen-man.sh BINDIR OUTDIR" >&2; exit 2; }
bin=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v help2man > /dev/null ||
	{ echo "gen-man.sh: help2man not found (apt-get install help2man)" >&2; exit 1; }
version=$("$bin/ptscope" --version | awk '{ print $2 }')
[ -n "$version" ] || { echo "gen-man.sh: $bin/ptscope --version printed no version" >&2; exit 1; }
mkdir -p "$out"

# The lines of --help text (stdin) that lay something out rather than say
# it: an option's text ending in ':' (not the option's own line), then
# lines indented deeper than it, one a line (fxtcheck --dump's record
# layouts). Printed without their indentation.
layout_lines() {
	awk '{ match($0, /^ */); ind = RLENGTH; t = substr($0, ind + 1) }
		t == "" { blk = 0; pend = 0; next }
		blk && ind == bind { print t; next }
		{ blk = 0 }
		pend && ind > pind { blk = 1; bind = ind; print t }
		{ pind = ind; pend = ind > 0 && t !~ /^-/ && t ~ /:$/ }'
}

# page NAME DESCRIPTION PROGRAM [HELP-OPTION [EXTRA-INCLUDE]]
page() {
	local name=$1 desc=$2 prog=$3 helpopt=${4:---help}
	local inc=()
	[ -n "${5:-}" ] && inc+=(--include="$5")
	[ -f "$here/$name.h2m" ] && inc+=(--include="$here/$name.h2m")
	case $name in ptscope-*) inc+=(--include="$here/ptscope-command.h2m") ;; esac
	help2man --no-info --section=1 --manual="ptscope manual" --source="ptscope $version" \
		--version-string="$name $version" --help-option="$helpopt" \
		--name="$desc" "${inc[@]}" --output="$out/$name.1.tmp" "$prog"
	# help2man fills an example's "$ command" lines into one paragraph: one a line
	sed -i '/^\$ /a .br' "$out/$name.1.tmp"
	# and so the lines of a layout an option's text shows (fxtcheck --dump's)
	# shellcheck disable=SC2086 # helpopt is "COMMAND --help"
	"$prog" $helpopt | layout_lines > "$out/$name.layout"
	awk 'FILENAME == ARGV[1] { want[$0] = 1; next }
		{ print; t = $0; gsub(/\\f[BIRP]|\\[,\/&]/, "", t); gsub(/\\-/, "-", t) }
		t in want { print ".br" }' "$out/$name.layout" "$out/$name.1.tmp" > "$out/$name.1.br"
	mv "$out/$name.1.br" "$out/$name.1.tmp"
	rm -f "$out/$name.layout"
	mv "$out/$name.1.tmp" "$out/$name.1"
}

# The commands and their one-line summaries, as `ptscope --help` lists them.
mapfile -t cmds < <("$bin/ptscope" --help | awk '/^[A-Za-z].*:$/ { s = ($0 == "Commands:"); next }
	s && /^  [a-z]/ { sub(/^ +/, ""); print }')
[ ${#cmds[@]} -gt 0 ] || { echo "gen-man.sh: ptscope --help lists no command" >&2; exit 1; }
seealso="$out/ptscope-seealso.h2m"
echo "[SEE ALSO]" > "$seealso"
for c in "${cmds[@]}"; do
	read -r cmd desc <<< "$c"
	page "ptscope-$cmd" "$desc" "$bin/ptscope" "$cmd --help"
	printf '.BR ptscope\\-%s (1),\n' "$cmd" >> "$seealso"
done
printf '.BR ptsynth (1),\n.BR fxtcheck (1).\n' >> "$seealso"
page ptscope "Intel Processor Trace capture by direct MSR programming, and its decoder" \
	"$bin/ptscope" --help "$seealso"
rm -f "$seealso"
page ptsynth "reference Intel PT encoder driven by a real program's execution" "$bin/ptsynth"
page fxtcheck "validate and list a Fuchsia trace format (.fxt) file" "$bin/fxtcheck"
