# SPDX-License-Identifier: GPL-2.0
# Breakage: the module dereferences NULL when a trigger fires (through
# its irq_work), i.e. an oops in IRQ context on the first snapshot.
# With oops=panic the VM dies there: must be caught by boot (no end
# marker) and by every later scenario (no RESULT line).
. "$(dirname "$0")/lib.sh"
h=$(mktemp)
cat > "$h" <<'H'
/* VM-suite breakage oops-on-trigger: never build this for real. */
#include <linux/irq_work.h>
static inline bool pts_vm_break_oops(void)
{
	*(volatile int *)0 = 1;
	return false;
}
#define irq_work_queue(w) ((void)(w), pts_vm_break_oops())
H
force_header "$h"
