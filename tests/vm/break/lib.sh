# SPDX-License-Identifier: GPL-2.0
# Shared by the break/*.sh scripts; run in the COPY of the module
# sources (tests/vm/out/<kver>/src), never in the worktree.

# replace FILE OLD NEW: the one place FILE holds the text OLD (taken
# letter for letter) becomes NEW followed by "/* VM-suite breakage */".
# Exits 1 when OLD is not there once: the code moved on, and a breakage
# that no longer applies must not pass for one that was caught.
replace() {
	local n
	n=$(OLD=$2 perl -0ne 'my $c = () = /\Q$ENV{OLD}\E/g; print $c' "$1")
	if [ "$n" != 1 ]; then
		echo "break: '$2' found ${n:-0} times in $1, not once" >&2
		exit 1
	fi
	OLD=$2 NEW="$3 /* VM-suite breakage */" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$1"
}

# force_header FILE: make every module object include FILE first.
force_header() {
	local kb
	cp "$1" kmod/vm_break.h
	for kb in kmod/Kbuild kmod/Makefile; do
		[ -f "$kb" ] || continue
		echo 'ccflags-y += -include $(src)/vm_break.h' >> "$kb"
		echo "break: $kb now force-includes kmod/vm_break.h"
		return 0
	done
	echo "break: no kmod/Kbuild or kmod/Makefile to add the header to" >&2
	return 1
}
