# SPDX-License-Identifier: GPL-2.0
# Breakage: the module no longer tells LBR or BTS users from nothing
# (kmod/pure/lbr_bts.c: every model counts as one where perf lets them
# run beside PT).
# Must be caught by: lbr_bts_beside_pt.
. "$(dirname "$0")/lib.sh"
f=kmod/pure/lbr_bts.c
replace $f $'\tif (family != 6)\n\t\treturn false;' $'\treturn false;'
echo "break: $f: no model keeps LBR and BTS apart from PT"
