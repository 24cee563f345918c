# SPDX-License-Identifier: GPL-2.0
# Breakage: the module reports every task by its pid of the initial pid
# namespace (task->tgid, task->pid), whatever namespace configured the
# capture, as before pidns.c: a capture configured in a container names
# its tasks by pids its /proc does not know.
# Must be caught by: sideband_pids_of_the_capture_namespace.
set -e
f=kmod/pidns.c
grep -q '^void pts_task_ids' "$f"
# The function's first statement returns the initial namespace's numbers.
sed -i '/^void pts_task_ids/,/^}/ s/^\tstruct pid_namespace \*ns = READ_ONCE(cap_ns);$/&\n\n\t*pid = t->tgid;\n\t*tid = t->pid;\n\tif (ns)\n\t\treturn;/' "$f"
grep -qP '^\t\*pid = t->tgid;$' "$f"
echo "break: $f reports initial-namespace pids"
