/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code images the simulated PT unit "executes" (docs/simulated-unit.md,
 * "Code image"). Both are 40 bytes with the same layout up to the far
 * branch at PTS_SIM_OFF_FAR: a function that calls a leaf three times in
 * a loop, then jumps indirectly to an exit stub that leaves its ring
 * (user: syscall, kernel: sysretq). The user image adds a resume point
 * (jmp back to the start) right after its syscall.
 *
 * The kernel image is kmod/sim_image.c, at the address of
 * pts_sim_kernel_entry in the module's text; the user image is published
 * at PTS_SIM_USER_BASE and through /sys/module/ptscope/sim_user_code.
 */
#ifndef PTSCOPE_SIM_CODE_H
#define PTSCOPE_SIM_CODE_H

#include "pure.h"

/* User virtual address of the user code image (canonical, lower half). */
#define PTS_SIM_USER_BASE	0x7f5100000000ULL
#define PTS_SIM_CODE_SIZE	40	/* bytes, both images */

/* Instruction offsets shared by both images (bytes from the start). */
#define PTS_SIM_OFF_ENTRY	0x00	/* endbr64 */
#define PTS_SIM_OFF_MOV		0x04	/* mov $3,%ecx */
#define PTS_SIM_OFF_CALL	0x09	/* call leaf (direct: no packet) */
#define PTS_SIM_OFF_DEC		0x0e	/* dec %ecx: return address of the call */
#define PTS_SIM_OFF_JNZ		0x10	/* jnz CALL: one TNT bit */
#define PTS_SIM_OFF_LEA		0x12	/* lea exit(%rip),%rax: after the last jnz */
#define PTS_SIM_OFF_JMP		0x19	/* jmp *%rax: TIP to EXIT */
#define PTS_SIM_OFF_LEAF	0x1c	/* leaf: inc %edx */
#define PTS_SIM_OFF_RET		0x1e	/* ret: TNT (compressed) or TIP */
#define PTS_SIM_OFF_EXIT	0x20	/* endbr64 */
#define PTS_SIM_OFF_FAR		0x24	/* user: syscall (2 bytes), kernel: sysretq (3) */
#define PTS_SIM_OFF_RESUME	0x26	/* user only: jmp ENTRY, where sysret returns */
#define PTS_SIM_LOOP_COUNT	3	/* iterations of the call loop */

extern const u8 pts_sim_user_code[PTS_SIM_CODE_SIZE];
extern const u8 pts_sim_kernel_code[PTS_SIM_CODE_SIZE];

/* The kernel image itself: kmod/sim_image.c, linked into the module only. */
extern const u8 pts_sim_kernel_entry[];

#endif /* PTSCOPE_SIM_CODE_H */
