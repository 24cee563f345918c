/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hand-written retpoline (no libc, static, non-PIE), for the decoder
 * fidelity corpus (docs/fidelity.md). An indirect call goes through the
 * thunk as compilers emit it for -mindirect-branch=thunk:
 *
 *   __x86_indirect_thunk_rax:
 *       call 1f          pushes 2f, goes to 1f
 *   2:  pause; lfence    speculation trap, never executed
 *       jmp 2b
 *   1:  mov %rax,(%rsp)  the return address becomes the target
 *       ret              "returns" into the target
 *
 * The RET matches no CALL's return address: decoders get its target from
 * a TIP, and the target (leaf, then callee) returns to the instruction
 * after the `call __x86_indirect_thunk_rax`. main calls leaf and callee
 * through the thunk three times each, then exits with status 0.
 */
	.text
	.globl	_start
_start:
	mov	$3, %r12d
1:	call	main_loop_body
	dec	%r12d
	jnz	1b
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall

	.type	main_loop_body, @function
main_loop_body:
	lea	leaf(%rip), %rax
	call	__x86_indirect_thunk_rax
	lea	callee(%rip), %rax
	call	__x86_indirect_thunk_rax
	ret

	.type	leaf, @function
leaf:
	mov	$1, %ecx
	ret

	.type	callee, @function
callee:
	call	leaf
	add	$1, %ecx
	ret

	.globl	__x86_indirect_thunk_rax
	.type	__x86_indirect_thunk_rax, @function
__x86_indirect_thunk_rax:
	call	1f
2:	pause
	lfence
	jmp	2b
1:	mov	%rax, (%rsp)
	ret

	.section .note.GNU-stack,"",@progbits
