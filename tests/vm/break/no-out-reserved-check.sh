# SPDX-License-Identifier: GPL-2.0
# Breakage: reserved_zero() finds nothing: the reserved fields of the
# structs the module only fills (GET_CAPS, GET_STATE, GET_CPU_STATUS,
# GET_TRIGGER), and ptscope_cmd's, are not checked on input, so a later
# ABI could not give them a meaning.
# Must be caught by: ioctl_fuzz.
. "$(dirname "$0")/lib.sh"
f=kmod/main.c
replace $f $'\tconst u8 *nz = memchr_inv((const u8 *)k + off, 0, len);' \
	$'\tconst u8 *nz = NULL;'
echo "break: $f reads no reserved field of the filled structs"
