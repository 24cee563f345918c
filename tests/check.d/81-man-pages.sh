#!/usr/bin/env bash
# The man pages say what the programs accept (docs/packaging.md):
# 1. every long option in the option tables of ptscope decode
#    (session/decode_options.c) and ptsynth (getopt) appears in that program's --help (decode's
#    and the capture commands' --help are printed from their tables,
#    tests/unit/test_util_opttab.c; ptscope's other commands parse two
#    options by hand);
# 2. `make man` (help2man, build/man) writes ptscope(1), one
#    ptscope-COMMAND(1) per command `ptscope --help` lists, ptsynth(1)
#    and fxtcheck(1), each NAME line as `ptscope --help` summarises it;
# 3. every option each --help defines appears in its page as an option
#    heading (the line after .TP/.HP/.IP), not merely somewhere in prose.
# 4. an example's command lines stay one a line;
# 5. so does a layout an option's text shows (fxtcheck --dump's record
#    lines), in the page as man renders it.
# Part 1 runs everywhere; 2 to 5 skip without help2man, 5 also without
# man (the pages are generated at build time, never committed).
set -u
cd "$(dirname "$0")/../.."
. tests/tools/check-lib.sh
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. option tables -> --help
table_names() {	# file: the names of every option table in it (getopt's, util/opttab.h's)
	awk '/struct (option|pts_optdef) [a-z_]*\[\] = \{/ { t = 1; next } t && /\{ *0, *0|^\};/ { t = 0 }
		t && match($0, /\{ *"[^"]+"/) { s = substr($0, RSTART, RLENGTH); sub(/^\{ *"/, "", s);
		sub(/"$/, "", s); print s }' "$1"
}
check_table() {	# source, help command...
	local src=$1 n=0 name help
	shift
	help=$("$@" --help)
	for name in $(table_names "$src"); do
		n=$((n + 1))
		grep -q -- "--$name\b" <<< "$help" || bad "$src: --$name is not in \`${*##*/} --help\`"
	done
	[ "$n" -gt 0 ] || bad "$src: no option table found"
	echo "ok: $src: $n table options all in \`${*##*/} --help\`"
}
check_table userland/lib/session/decode_options.c build/ptscope decode
check_table tools/ptsynth/cli/ptsynth.c build/ptsynth

command -v help2man > /dev/null ||
	{ [ $fail = 0 ] || exit 1; pts_skip "help2man absent: man pages not generated (apt-get install help2man)"; }

# 2. the pages
make --no-print-directory man > /dev/null 2>&1 || { make --no-print-directory man; exit 1; }
M=build/man
mapfile -t cmds < <(build/ptscope --help | awk '/^[A-Za-z].*:$/ { s = ($0 == "Commands:"); next }
	s && /^  [a-z]/ { sub(/^ +/, ""); print }')
[ ${#cmds[@]} -ge 7 ] || bad "ptscope --help lists ${#cmds[@]} commands"
pages=(ptscope ptsynth fxtcheck)
for c in "${cmds[@]}"; do
	read -r cmd desc <<< "$c"
	pages+=("ptscope-$cmd")
	name=$(awk '/^\.SH NAME/ { getline; print; exit }' "$M/ptscope-$cmd.1" 2>/dev/null | sed 's/\\-/-/g')
	[ "$name" = "ptscope-$cmd - $desc" ] || bad "ptscope-$cmd.1 NAME is '$name', not 'ptscope-$cmd - $desc'"
	grep -q "^\.BR ptscope\\\\-$cmd (1)" "$M/ptscope.1" || bad "ptscope.1 SEE ALSO does not name ptscope-$cmd(1)"
done
extra=$(ls "$M" | grep -v -x -F -f <(printf '%s.1\n' "${pages[@]}"))
[ -z "$extra" ] || bad "build/man has pages of no command: $extra"

# 3. options of each --help -> headings of its page
help_opts() {	# the options an --help text defines: the names in each option line's spec
	awk '/^[ \t]*-/ { line = $0; sub(/^[ \t]+/, "", line)
		if (match(line, /  +/)) line = substr(line, 1, RSTART - 1)
		n = split(line, item, /, +/)
		for (i = 1; i <= n; i++) { split(item[i], w, /[ [=]/); if (w[1] ~ /^-/) print w[1] } }'
}
headings() {	# man page: its option headings, roff escapes removed
	awk '/^\.(TP|HP|IP)/ { getline; print }' "$1" |
		sed -e 's/\\f[BIRP]//g; s/\\f(CW//g; s/\\[,\/&]//g; s/\\-/-/g'
}
total=0
for p in "${pages[@]}"; do
	case $p in
	ptscope-*) help=$(build/ptscope "${p#ptscope-}" --help) ;;
	*) help=$(build/$p --help) ;;
	esac
	[ -e "$M/$p.1" ] || { bad "no page $p.1"; continue; }
	h=$(headings "$M/$p.1")
	n=0
	for o in $(help_opts <<< "$help" | sort -u); do
		n=$((n + 1))
		grep -q -E -- "(^|[ ,])$o([ ,=[]|$)" <<< "$h" ||
			bad "$p.1: option $o of its --help is no option heading of the page"
	done
	[ "$n" -gt 0 ] || bad "$p --help defines no option"
	total=$((total + n))
done
# 4. an example's command lines (--help's "$ ptscope caps" ...) stay one a
#    line: help2man fills them into one paragraph unless each ends in a break
for p in "${pages[@]}"; do
	awk -v p="$p" 'prev ~ /^\$ / && $0 != ".br" { print "FAIL: " p ".1: example line \"" prev \
		"\" runs on into the next"; bad = 1 } { prev = $0 } END { exit bad }' "$M/$p.1" || fail=1
done
grep -q '^\$ ptscope caps$' "$M/ptscope.1" || bad "ptscope.1 has no example line \$ ptscope caps"
# 5. a layout an option's text shows (fxtcheck --dump's record lines: text
#    ending in ':', then lines indented deeper) keeps one line each in the
#    page as man shows it, not filled into one paragraph
layout=0 shown_by="man"
command -v man > /dev/null || shown_by="nothing (no man here)"
if command -v man > /dev/null; then
	for p in "${pages[@]}"; do
		case $p in
		ptscope-*) help=$(build/ptscope "${p#ptscope-}" --help) ;;
		*) help=$(build/$p --help) ;;
		esac
		shown=$(MANWIDTH=200 man -l "$M/$p.1" 2> /dev/null | sed 's/^ *//; s/ *$//')
		while IFS= read -r l; do
			layout=$((layout + 1))
			grep -q -x -F -- "$l" <<< "$shown" ||
				bad "$p.1: the layout line '$l' of its --help is not a line of its own in man's page"
		done < <(awk '{ match($0, /^ */); ind = RLENGTH; t = substr($0, ind + 1) }
			t == "" { inblk = 0; colon = 0; next }
			inblk && ind == bi { print t; next }
			{ inblk = 0 }
			colon && ind > ci { inblk = 1; bi = ind; print t }
			{ ci = ind; colon = ind > 0 && substr(t, 1, 1) != "-" && substr(t, length(t)) == ":" }' \
			<<< "$help")
	done
	[ "$layout" -ge 4 ] || bad "fxtcheck --help's four --dump layout lines were not found ($layout layout lines)"
fi
[ $fail = 0 ] && echo "ok: ${#pages[@]} man pages; all $total options of their --help are option headings; $layout layout lines one a line as shown by $shown_by"
exit $fail
