/* SPDX-License-Identifier: GPL-2.0 */
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
 * host tests, which check that this file still assembles to them.
 *
 * Layout (offsets from pts_sim_kernel_entry):
 *   0x00 endbr64; 0x04 mov $3,%ecx
 *   0x09 call leaf; 0x0e dec %ecx; 0x10 jnz 0x09      (three iterations)
 *   0x12 lea exit(%rip),%rax; 0x19 jmp *%rax          (indirect: TIP)
 *   0x1c leaf: inc %edx; 0x1e ret                     (TNT or TIP)
 *   0x20 exit: endbr64; 0x24 sysretq                  (far: leaves ring 0)
 */
#ifdef __KERNEL__
#include <linux/objtool.h>
#include <asm/nospec-branch.h>
#else
/* Host build (tests only compare the bytes): the annotations emit none. */
#define ANNOTATE_RETPOLINE_SAFE
#define ANNOTATE_UNRET_SAFE
.macro STACK_FRAME_NON_STANDARD func:req
.endm
#endif

	.text
	.p2align 4
	.globl pts_sim_kernel_entry
	.type pts_sim_kernel_entry, @function
pts_sim_kernel_entry:
	endbr64
	movl	$3, %ecx
.Lpts_sim_kernel_loop:
	call	pts_sim_kernel_leaf
	decl	%ecx
	jnz	.Lpts_sim_kernel_loop
	leaq	pts_sim_kernel_exit(%rip), %rax
	/* Never executed, so no retpoline: keep the bytes fixed. */
	ANNOTATE_RETPOLINE_SAFE
	jmp	*%rax
	int3
	.size pts_sim_kernel_entry, . - pts_sim_kernel_entry

	.type pts_sim_kernel_leaf, @function
pts_sim_kernel_leaf:
	incl	%edx
	/* Never executed, so no return thunk: keep the bytes fixed. */
	ANNOTATE_UNRET_SAFE
	ret
	int3
	.size pts_sim_kernel_leaf, . - pts_sim_kernel_leaf

	/*
	 * sysretq is what a real return to user space ends with; objtool
	 * cannot validate the stack across it, and need not: never run.
	 */
	.type pts_sim_kernel_exit, @function
pts_sim_kernel_exit:
	endbr64
	sysretq
	int3
	.size pts_sim_kernel_exit, . - pts_sim_kernel_exit
	STACK_FRAME_NON_STANDARD pts_sim_kernel_exit
