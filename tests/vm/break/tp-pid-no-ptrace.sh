# SPDX-License-Identifier: GPL-2.0
# Breakage: a tracepoint trigger's tracepoint_pid is not checked for
# ptrace access, as before that check: a user-scope capture of one's own
# process can watch any other process through its trigger.
# Must be caught by: unpriv_refused (own-capture-tp-pid1/-tid1 ACCEPTED).
. "$(dirname "$0")/lib.sh"
f=kmod/perms.c
replace $f '	if ((cfg->trigger.kinds & PTSCOPE_TRIG_TRACEPOINT) &&
	    cfg->trigger.tracepoint_pid) {' '	if (0 && (cfg->trigger.kinds & PTSCOPE_TRIG_TRACEPOINT) &&
	    cfg->trigger.tracepoint_pid) {'
echo "break: $f no longer checks the tracepoint trigger's pid"
