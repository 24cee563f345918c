/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code image behind the benchmark's large synthetic traces
 * (tools/bench/gen.c walks it; docs/performance.md). A small program with
 * the shapes compiled code has: a main loop, nested calls, loops with
 * calls inside, leaf functions, a tail call, an indirect call through a
 * table, a switch through a jump table, and a rare system call. Built
 * static, not PIE (the Makefile links it at the default 0x401000).
 *
 * It is never run: gen.c decides each conditional branch with a seeded
 * pseudo-random generator and takes indirect targets from the
 * .benchmeta section, so the trace is deterministic for a seed while the
 * block decoder does the work a real program's trace gives it.
 *
 * .benchmeta records are three quads: kind, site, target.
 *   kind 1: the indirect branch at site may go to target
 *   kind 2: the conditional branch at site is rarely taken (1 in 256)
 * Labels used only for the records are local (.L) so that the symbol
 * table holds just the functions, as in a compiled program.
 */
	.macro ITARGET site, target
	.pushsection .benchmeta, "a"
	.quad 1, \site, \target
	.popsection
	.endm

	.macro RARE site
	.pushsection .benchmeta, "a"
	.quad 2, \site, 0
	.popsection
	.endm

	.text
	.globl _start
	.type _start, @function
_start:
	xor	%ebp, %ebp
	lea	buffer(%rip), %rdi
	mov	$64, %esi
.Lmain:
	call	parse_record
	mov	%eax, %edx
	call	checksum
	/* dispatch one operation through a function-pointer table */
	mov	%eax, %ecx
	and	$3, %ecx
	lea	op_table(%rip), %r8
.Licall:
	call	*(%r8,%rcx,8)
	ITARGET .Licall, op_add
	ITARGET .Licall, op_sub
	ITARGET .Licall, op_mul
	ITARGET .Licall, op_div
	call	state_machine
	inc	%rbp
	test	$0xfff, %ebp
.Lrare:
	jz	.Lsys
	RARE	.Lrare
	jmp	.Lmain
.Lsys:
	/* getpid(): a system call now and then (user scope: TIP.PGD / TIP.PGE) */
	mov	$39, %eax
	syscall
	jmp	.Lmain
	.size _start, .-_start

/* parse_record(rdi = buf, esi = len): a byte loop with a call per byte */
	.type parse_record, @function
parse_record:
	push	%rbx
	xor	%eax, %eax
	xor	%ecx, %ecx
1:	movzbl	(%rdi,%rcx), %edx
	call	classify
	add	%edx, %eax
	cmp	$'\n', %dl
	je	2f
	inc	%rcx
	cmp	%esi, %ecx
	jb	1b
2:	pop	%rbx
	ret
	.size parse_record, .-parse_record

/* classify(edx = byte): a leaf with a few conditional branches */
	.type classify, @function
classify:
	cmp	$'0', %dl
	jb	1f
	cmp	$'9', %dl
	ja	1f
	sub	$'0', %edx
	ret
1:	cmp	$'a', %dl
	jb	2f
	and	$0x1f, %edx
2:	ret
	.size classify, .-classify

/* checksum(rdi, esi): an inner loop calling a mixing function */
	.type checksum, @function
checksum:
	push	%r12
	mov	$0x811c9dc5, %eax
	xor	%r12d, %r12d
1:	movzbl	(%rdi,%r12), %edx
	call	mix
	inc	%r12d
	cmp	$16, %r12d
	jb	1b
	pop	%r12
	ret
	.size checksum, .-checksum

	.type mix, @function
mix:
	xor	%edx, %eax
	imul	$0x01000193, %eax, %eax
	test	$1, %al
	jz	1f
	rol	$5, %eax
1:	ret
	.size mix, .-mix

	.type op_add, @function
op_add:
	lea	(%rax,%rdx), %eax
	call	clamp
	ret
	.size op_add, .-op_add

	.type op_sub, @function
op_sub:
	sub	%edx, %eax
	jns	1f
	neg	%eax
1:	ret
	.size op_sub, .-op_sub

	.type op_mul, @function
op_mul:
	imul	%edx, %eax
	call	clamp
	call	clamp
	ret
	.size op_mul, .-op_mul

/* op_div ends in a tail call */
	.type op_div, @function
op_div:
	test	%edx, %edx
	jz	1f
	xor	%edx, %edx
	shr	$1, %eax
1:	jmp	clamp
	.size op_div, .-op_div

	.type clamp, @function
clamp:
	cmp	$0xffff, %eax
	jbe	1f
	mov	$0xffff, %eax
1:	ret
	.size clamp, .-clamp

/* state_machine(eax): a loop around a switch through a jump table */
	.type state_machine, @function
state_machine:
	push	%rbx
	mov	%eax, %ebx
.Lsm_loop:
	mov	%ebx, %ecx
	and	$3, %ecx
	lea	sm_table(%rip), %r9
.Lsm_jmp:
	jmp	*(%r9,%rcx,8)
	ITARGET .Lsm_jmp, .Lsm_case0
	ITARGET .Lsm_jmp, .Lsm_case1
	ITARGET .Lsm_jmp, .Lsm_case2
	ITARGET .Lsm_jmp, .Lsm_case3
.Lsm_case0:
	add	$7, %ebx
	jmp	.Lsm_next
.Lsm_case1:
	shr	$1, %ebx
	call	clamp
	jmp	.Lsm_next
.Lsm_case2:
	lea	buffer(%rip), %rdi
	mov	$32, %esi
	call	copy_bytes
	jmp	.Lsm_next
.Lsm_case3:
	xor	$0x55, %ebx
.Lsm_next:
	dec	%ebx
	test	$7, %ebx
	jnz	.Lsm_loop
	pop	%rbx
	ret
	.size state_machine, .-state_machine

/* copy_bytes(rdi, esi): a leaf loop, eight bytes at a time */
	.type copy_bytes, @function
copy_bytes:
	xor	%ecx, %ecx
1:	mov	(%rdi,%rcx), %rax
	mov	%rax, 256(%rdi,%rcx)
	add	$8, %ecx
	cmp	%esi, %ecx
	jb	1b
	ret
	.size copy_bytes, .-copy_bytes

	.section .rodata
	.balign 8
op_table:
	.quad	op_add, op_sub, op_mul, op_div
sm_table:
	.quad	.Lsm_case0, .Lsm_case1, .Lsm_case2, .Lsm_case3

	.bss
	.balign 64
buffer:
	.skip	4096
	.section .note.GNU-stack, "", @progbits
