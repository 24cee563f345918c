# Sourced by the checks that decode reference-encoder bundles:
#   ptsynth_bundle NAME WORKDIR CMD [ARGS...]
# prints the bundle of 40-ptsynth-selfcheck for NAME when it exists
# (build/ptsynth-check/selfcheck), else runs CMD under ptsynth into
# WORKDIR/NAME.ptscope (stable addresses, as the self-check's) and prints
# that. Uses $B (the build directory).
ptsynth_bundle() {
	local name=$1 dir=$2 sc=${B:-build}/ptsynth-check/selfcheck
	shift 2
	if [ -f "$sc/$name.ptscope/manifest.json" ]; then
		echo "$sc/$name.ptscope"
	else
		"${B:-build}/ptsynth" run -q --no-aslr -o "$dir/$name.ptscope" -- "$@" </dev/null >/dev/null
		echo "$dir/$name.ptscope"
	fi
}
