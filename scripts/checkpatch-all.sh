#!/usr/bin/env bash
# Runs checkpatch.pl --strict over every module source and the shared
# headers; any ERROR, WARNING or CHECK fails.
# Usage: checkpatch-all.sh PATH/TO/checkpatch.pl
set -euo pipefail
cp=${1:?usage: checkpatch-all.sh checkpatch.pl}
cd "$(dirname "$0")/.."
files=$(ls kmod/*.[ch] kmod/pure/*.[ch] include/ptscope/*.h 2>/dev/null)
[ -n "$files" ] || { echo "no module sources"; exit 1; }
# SPDX tags on .c/.h, kernel style; --no-tree: out-of-tree module.
out=$(perl "$cp" --no-tree --strict --terse --show-types \
	--ignore FILE_PATH_CHANGES -f $files || true)
if echo "$out" | grep -E ': (ERROR|WARNING|CHECK):'; then
	echo "checkpatch --strict found problems"; exit 1
fi
echo "checkpatch --strict: clean ($(echo $files | wc -w) files)"
