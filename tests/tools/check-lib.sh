# Sourced by tests/check.d scripts (bash). A check that cannot run here
# says why on a "SKIP: reason" line and exits PTS_SKIP: the runner
# (tests/run-check-scripts.sh) counts it as skipped, never as passed, and
# repeats the reason in its last line.
PTS_SKIP=77

pts_skip() {	# reason...
	echo "SKIP: $*"
	exit "$PTS_SKIP"
}

# Test data that lives outside the repository (../shared beside the
# project root in CI, or PTS_SHARED=DIR): skip, visibly, when a file the
# check reads is absent, so a clone with nothing beside it passes.
PTS_SHARED=${PTS_SHARED:-../shared}
pts_need_shared() {	# path-under-PTS_SHARED...
	local f
	for f; do
		[ -e "$PTS_SHARED/$f" ] ||
			pts_skip "needs $PTS_SHARED/$f, absent here (CI has it; PTS_SHARED=DIR names a copy)"
	done
}
