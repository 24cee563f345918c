#!/usr/bin/env bash
# Runs checkpatch.pl --strict over every module source and the shared
# headers; any ERROR, WARNING or CHECK fails.
# Usage: checkpatch-all.sh PATH/TO/checkpatch.pl
set -euo pipefail
cp=${1:?usage: checkpatch-all.sh checkpatch.pl}
cd "$(dirname "$0")/.."
files=$(ls kmod/*.[ch] kmod/pure/*.[ch] include/ptscope/*.h include/uapi/*.h 2>/dev/null |
	grep -v '^kmod/compat.h$')
[ -n "$files" ] || { echo "no module sources"; exit 1; }
# --no-tree: out-of-tree module. kmod/compat.h is the one place allowed
# to test LINUX_VERSION_CODE (API drift is kept out of every other file).
out=$(perl "$cp" --no-tree --strict --terse --show-types \
	--ignore FILE_PATH_CHANGES -f $files || true)
out+=$(perl "$cp" --no-tree --strict --terse --show-types \
	--ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE -f kmod/compat.h || true)
if echo "$out" | grep -E ': (ERROR|WARNING|CHECK):'; then
	echo "checkpatch --strict found problems"; exit 1
fi
echo "checkpatch --strict: clean ($(( $(echo $files | wc -w) + 1 )) files)"
