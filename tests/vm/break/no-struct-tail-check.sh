# SPDX-License-Identifier: GPL-2.0
# Breakage: ioctl structs are copied without the ABI's size rules
# (copy_struct_from_user): non-zero bytes past the module's struct and a
# too-small size are no longer refused.
# Must be caught by: ioctl_fuzz (its deterministic part).
. "$(dirname "$0")/lib.sh"
h=$(mktemp)
cat > "$h" <<'H'
/* VM-suite breakage no-struct-tail-check: never build this for real. */
#include <linux/uaccess.h>
#define copy_struct_from_user(dst, ksize, src, usize) \
	(copy_from_user((dst), (src), (ksize)) ? -EFAULT : 0)
H
force_header "$h"
