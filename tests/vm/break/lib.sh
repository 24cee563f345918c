# SPDX-License-Identifier: GPL-2.0
# Shared by the break/*.sh scripts; run in the COPY of the module
# sources (tests/vm/out/<kver>/src), never in the worktree.
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
