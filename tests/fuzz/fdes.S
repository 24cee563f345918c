/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seed of the ELF harness (tests/fuzz/make-seeds.sh), linked at
 * 0x401000 and stripped: functions that only .eh_frame bounds
 * (decode/ehframe.c), one of them a part entered with a frame set up
 * (its FDE's first rule defines the CFA), and code no FDE covers.
 */
	.text
	.globl _start
_start:
	.cfi_startproc
	.cfi_undefined rip
	call f
	call g
	ret
	.cfi_endproc
	.p2align 4
f:
	.cfi_startproc
	push %rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	jmp f_part
	.cfi_endproc
	.p2align 4
f_part:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	pop %rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.p2align 4
g:
	ret
