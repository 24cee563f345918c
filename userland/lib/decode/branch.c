// SPDX-License-Identifier: GPL-2.0
#include "branch.h"

const char *pts_br_kind_name(enum pts_br_kind k)
{
	static const char *const names[] = {
		[PTS_BR_CALL] = "call",
		[PTS_BR_RETURN] = "return",
		[PTS_BR_JUMP] = "jump",
		[PTS_BR_SYSCALL] = "syscall",
		[PTS_BR_SYSRET] = "sysret",
		[PTS_BR_IRET] = "iret",
		[PTS_BR_INTERRUPT] = "interrupt",
		[PTS_BR_ENABLED] = "enabled",
		[PTS_BR_DISABLED] = "disabled",
		[PTS_BR_GAP] = "gap",
		[PTS_BR_INSTANT] = "instant",
		[PTS_BR_CBR] = "cbr",
		[PTS_BR_EXEC] = "exec",
		[PTS_BR_TRIGGER] = "trigger",
	};

	return (unsigned int)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}
