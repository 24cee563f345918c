// SPDX-License-Identifier: GPL-2.0
/*
 * Where a program exec'd during a capture began: the user IP at which its
 * execve returned, from the sideband's SYS_EXIT records (config
 * syscall_records, --syscalls). See session_int.h.
 */
#include <errno.h>
#include <stdint.h>

#include "../bundle/sideband.h"
#include "session_int.h"

/* x86-64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl) */
#define NR_EXECVE	59
#define NR_EXECVEAT	322

int pts_exec_entry_ip(const struct pts_bundle *b, const struct pts_timeconv *tc, int32_t pid,
		      uint64_t exec_ns, uint64_t *ip)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader rd;
	struct pts_err e2 = { 0 };
	int32_t tid = 0;
	int rc, found = 0;
	bool after = false;

	if (!b->config.syscall_records)
		return 0;
	rc = pts_sb_reader_open(&rd, b, &e2);
	if (rc) {
		/* a sideband that cannot be read is said where its records are read */
		pts_sb_reader_close(&rd);
		return rc == -ENOMEM ? rc : 0;
	}
	while (!found && (rc = pts_sb_next(&rd, &h, &e2)) == 1) {
		if (!after) {
			const struct ptscope_sb_exec *ex = (const void *)h;

			/* the exec's record: its program begins here, in its tid */
			if (h->type == PTSCOPE_SB_EXEC && ex->pid == pid &&
			    pts_tc_ns(tc, h->tsc) == exec_ns) {
				after = true;
				tid = ex->tid;
			}
			continue;
		}
		if (h->type == PTSCOPE_SB_EXEC && ((const struct ptscope_sb_exec *)h)->pid == pid)
			break;	/* exec'd again first: no return of the first */
		if (h->type == PTSCOPE_SB_SYS_EXIT || h->type == PTSCOPE_SB_SYS_ENTER) {
			const struct ptscope_sb_syscall *s = (const void *)h;

			if (s->tid != tid)
				continue;
			/* the tid's first syscall record must be execve's return */
			if (h->type == PTSCOPE_SB_SYS_EXIT && !s->ret &&
			    (s->nr == NR_EXECVE || s->nr == NR_EXECVEAT)) {
				*ip = s->ip;
				found = 1;
			}
			break;
		}
	}
	pts_sb_reader_close(&rd);
	return found;
}
