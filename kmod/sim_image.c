// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel code image of the simulated PT unit (docs/simulated-unit.md).
 *
 * This code is never executed. The simulated unit writes a packet stream
 * that says it was: a decoder loads these bytes from the capture's kernel
 * text (/proc/kcore at the address kallsyms gives for
 * pts_sim_kernel_entry) and must reconstruct the documented instruction
 * sequence. The bytes are fixed: literal endbr64, bare ret and an
 * annotated indirect jmp, so that no kernel configuration rewrites them
 * at build time. kmod/pure/sim_code.c holds the same 40 bytes for the
 * host tests, which check that this file, built with -DPTS_HOST, still
 * assembles to them.
 *
 * Layout (offsets from pts_sim_kernel_entry):
 *   0x00 endbr64; 0x04 mov $3,%ecx
 *   0x09 call leaf; 0x0e dec %ecx; 0x10 jnz 0x09      (three iterations)
 *   0x12 lea exit(%rip),%rax; 0x19 jmp *%rax          (indirect: TIP)
 *   0x1c leaf: inc %edx; 0x1e ret                     (TNT or TIP)
 *   0x20 exit: endbr64; 0x24 sysretq                  (far: leaves ring 0)
 */
#ifdef PTS_HOST
#define PTS_SIM_NOT_RUN ""
#else
#include <linux/objtool.h>
#include <asm/nospec-branch.h>
/* Never executed: no retpoline or return thunk, objtool is told so. */
#define PTS_SIM_NOT_RUN ANNOTATE_RETPOLINE_SAFE
#endif

asm(".pushsection .text, \"ax\"\n"
	".p2align 4\n"
	".globl pts_sim_kernel_entry\n"
	".type pts_sim_kernel_entry, @function\n"
	"pts_sim_kernel_entry:\n"
	"\tendbr64\n"
	"\tmovl $3, %ecx\n"
	"1:\tcall pts_sim_kernel_leaf\n"
	"\tdecl %ecx\n"
	"\tjnz 1b\n"
	/* a local label: resolved here, no relocation to patch the bytes */
	"\tleaq .Lpts_sim_kernel_exit(%rip), %rax\n"
	PTS_SIM_NOT_RUN
	"\tjmp *%rax\n"
	"\tint3\n"
	".size pts_sim_kernel_entry, . - pts_sim_kernel_entry\n"
	".type pts_sim_kernel_leaf, @function\n"
	"pts_sim_kernel_leaf:\n"
	"\tincl %edx\n"
	PTS_SIM_NOT_RUN
	"\tret\n"
	"\tint3\n"
	".size pts_sim_kernel_leaf, . - pts_sim_kernel_leaf\n"
	".globl pts_sim_kernel_exit\n"
	".type pts_sim_kernel_exit, @function\n"
	"pts_sim_kernel_exit:\n"
	".Lpts_sim_kernel_exit:\n"
	"\tendbr64\n"
	"\tsysretq\n"
	"\tint3\n"
	".size pts_sim_kernel_exit, . - pts_sim_kernel_exit\n"
	".popsection\n"
);

#ifndef PTS_HOST
/*
 * sysretq is what a real return to user space ends with; objtool cannot
 * validate the stack across it, and need not: this code never runs.
 */
void pts_sim_kernel_exit(void);
STACK_FRAME_NON_STANDARD(pts_sim_kernel_exit);
#endif
