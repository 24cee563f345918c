# SPDX-License-Identifier: GPL-2.0
# Breakage: a CPU whose unit stopped by itself (full ring) resumes
# tracing when it comes back online.
# Must be caught by: full_mode_hotplug_stays_stopped.
f=kmod/pure/stopped.c
pat='	return !(cpu_flags & (PTSCOPE_CPUF_STOPPED | PTSCOPE_CPUF_TRACESTOP));'
grep -qF "$pat" "$f" || { echo "break: '$pat' not found in $f" >&2; exit 1; }
sed -i 's/^\treturn !(cpu_flags & (PTSCOPE_CPUF_STOPPED | PTSCOPE_CPUF_TRACESTOP));$/\treturn true; \/* VM-suite breakage *\//' "$f"
echo "break: $f lets a stopped CPU resume"
