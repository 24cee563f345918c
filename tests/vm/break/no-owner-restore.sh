# SPDX-License-Identifier: GPL-2.0
# Breakage: the stop no longer gives another owner's RTIT MSR values
# back (kmod/pure/owner.c restores nothing).
# Must be caught by: foreign_state_restored.
f=kmod/pure/owner.c
pat='	*kept = 0;'
grep -qF "$pat" "$f" || { echo "break: '$pat' not found in $f" >&2; exit 1; }
sed -i 's/^\t\*kept = 0;$/\t*kept = 0;\n\treturn 0; \/* VM-suite breakage *\//' "$f"
echo "break: $f restores nothing"
