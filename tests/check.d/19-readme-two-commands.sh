#!/usr/bin/env bash
# README.md's "The two commands" section holds exactly two indented
# (4-space) code lines, build + decode the sample and the tests: .ci/run
# reads them from there and runs them word for word in a clone with
# nothing beside it. Any other 4-space block in that section (an example
# of output) would be read as a command and stop CI: fence it (```text).
set -u
cd "$(dirname "$0")/../.."
mapfile -t cmds < <(awk '/^## /{ s = ($0 == "## The two commands") }
	s && /^    [^ ]/ { sub(/^    /, ""); print }' README.md)
if [ ${#cmds[@]} -ne 2 ] || [ "${cmds[1]}" != "make check" ] ||
   [[ "${cmds[0]}" != make* ]]; then
	echo "FAIL: README.md \"The two commands\": want a make command and \`make check\`" \
		"as the section's only 4-space lines, found ${#cmds[@]}:"
	printf '  %s\n' "${cmds[@]}"
	exit 1
fi
echo "ok: README.md's two commands: ${cmds[0]} | ${cmds[1]}"
