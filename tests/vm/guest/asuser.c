// SPDX-License-Identifier: GPL-2.0
/*
 * asuser UID CMD [ARGS...]: drop every privilege to UID (gid = UID, no
 * supplementary groups) and exec CMD, for the unprivileged-user
 * scenarios. setresuid() to a non-zero uid clears the effective and
 * permitted capability sets (capabilities(7), "Effect of user ID
 * changes"), so CMD runs without CAP_SYS_ADMIN / CAP_PERFMON.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;

	if (argc < 3) {
		fprintf(stderr, "usage: asuser UID CMD [ARGS...]\n");
		return 2;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid)) {
		perror("asuser: dropping privileges");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror("asuser: exec");
	return 127;
}
