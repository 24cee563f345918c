# SPDX-License-Identifier: GPL-2.0
# Breakage: every capability check in the module answers "yes", so an
# unprivileged user may trace the kernel and other users' processes.
# Must be caught by: unpriv_refused.
. "$(dirname "$0")/lib.sh"
h=$(mktemp)
cat > "$h" <<'H'
/* VM-suite breakage no-capable-check: never build this for real. */
#include <linux/capability.h>
#include <linux/ptrace.h>
#define capable(cap) ((void)(cap), true)
#define ns_capable(ns, cap) ((void)(ns), (void)(cap), true)
#define perfmon_capable() true
#define ptrace_may_access(task, mode) ((void)(task), (void)(mode), true)
H
force_header "$h"
