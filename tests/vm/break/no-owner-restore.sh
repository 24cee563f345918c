# SPDX-License-Identifier: GPL-2.0
# Breakage: the stop no longer gives another owner's RTIT MSR values
# back (kmod/pure/owner.c restores nothing).
# Must be caught by: foreign_state_restored.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/owner.c
replace $f $'\t*kept = 0;' $'\t*kept = 0;\n\treturn 0;'
echo "break: $f restores nothing"
