#!/usr/bin/env bash
# The bash completion (packaging/bash-completion/ptscope) in a bash with
# nothing else loaded: COMP_LINE, COMP_POINT, COMP_WORDS and COMP_CWORD
# set as bash sets them, the completion function called, its COMPREPLY
# compared with what a user must be offered: commands, options, option
# values, trigger kinds, tracepoints from a stand-in tracefs events
# directory (PTSCOPE_EVENTS_DIR), uprobe paths and functions (by nm, when
# installed), bundle directories, and a command after `run --`. Needs
# only bash.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/events/sched/sched_process_exit" "$T/events/sched/sched_switch" \
	"$T/events/syscalls/sys_enter_read" "$T/bundles/a.ptscope" "$T/bundles/b.ptscope"
touch "$T/events/enable" "$T/bundles/notes.txt" "$T/bundles/t.fxt"

PATH=$PWD/build:$PATH PTSCOPE_EVENTS_DIR=$T/events T=$T bash --norc --noprofile <<'SH'
. packaging/bash-completion/ptscope
fail=0 n=0
# want LINE EXPECTED...: COMPREPLY (sorted) must be exactly EXPECTED
want() {
	local line=$1
	shift
	COMP_LINE=$line COMP_POINT=${#line}
	read -ra COMP_WORDS <<< "$line"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_ptscope
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	exp=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	n=$((n + 1))
	if [ "$got" != "$exp" ]; then
		echo "FAIL: [$line] offered: $got; want: $exp"
		fail=1
	fi
}
want "ptscope " attach caps decode record run status trigger
want "ptscope de" decode
want "ptscope --v" --version
want "ptscope run --sc" --scope
want "ptscope run --scope " user kernel both
want "ptscope run --scope k" kernel
want "ptscope attach --timing " low normal high
want "ptscope record --mode " snapshot full
want "ptscope decode --format " fxt json txt folded null
want "ptscope run -trace-" -trace-include-kernel -trace-kernel-only
want "ptscope decode --pevent-t" --pevent-time-mult --pevent-time-shift --pevent-time-zero
want "ptscope caps -" -h -j --help --json
want "ptscope run -t " tracepoint: uprobe: hotkey manual
want "ptscope run --trigger h" hotkey
# bash splits tracepoint:sched at ':' (COMP_WORDBREAKS): the part after
# the last ':' is what it replaces
# only the tracepoints a trigger can be armed on (the --help's list) that
# the events directory holds: syscalls:sys_enter_read is an event, and
# the options refuse it
want "ptscope record -t tracepoint:" sched:
want "ptscope record -t tracepoint:sc" sched:
want "ptscope record -t tracepoint:s" sched:
want "ptscope record -t tracepoint:syscalls:"
want "ptscope record -t tracepoint:sched:" sched_process_exit sched_switch
want "ptscope record -t tracepoint:sched:sched_p" sched_process_exit
want "ptscope record -t tracepoint:sched:sched_switch:" pid=
want "ptscope run -t uprobe:$T/bundles/no" "$T/bundles/notes.txt:"
want "ptscope run -t uprobe:$T/bun" "$T/bundles/"
command -v nm > /dev/null && want "ptscope run -t uprobe:$PWD/build/fxtcheck:mai" main
want "ptscope decode $T/bundles/" "$T/bundles/a.ptscope" "$T/bundles/b.ptscope"
want "ptscope decode $T/bundles/a" "$T/bundles/a.ptscope"
want "ptscope run -o $T/bundles/b" "$T/bundles/b.ptscope"
want "ptscope decode --sysroot $T/ev" "$T/events"
want "ptscope run -- fxtch" fxtcheck
want "build/ptscope run --no" --noretcomp --no-copy --no-syscalls
want "ptsynth " check run
want "ptsynth run --wr" --wrap
want "ptsynth check --cpu-m" --cpu-model
want "fxtcheck --d" --dump
want "fxtcheck $T/bundles/" "$T/bundles/a.ptscope" "$T/bundles/b.ptscope" "$T/bundles/t.fxt"
[ $fail = 0 ] && echo "ok: $n completions as expected"
exit $fail
SH
