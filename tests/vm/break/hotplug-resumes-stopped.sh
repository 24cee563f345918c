# SPDX-License-Identifier: GPL-2.0
# Breakage: a CPU whose unit stopped by itself (full ring) resumes
# tracing when it comes back online.
# Must be caught by: full_mode_hotplug_stays_stopped.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/stopped.c
replace $f '	return !(cpu_flags & (PTSCOPE_CPUF_STOPPED | PTSCOPE_CPUF_TRACESTOP));' '	return true;'
echo "break: $f lets a stopped CPU resume"
