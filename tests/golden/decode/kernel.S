# Kernel-half stub for the decoder's synthetic-trace tests, linked at
# 0xffffffff81000000 (K). Pinned offsets:
#   entry_SYSCALL_64 K+0x00  do_syscall K+0x20  do_exit K+0x40
#   asm_common_interrupt K+0x60  handle_irq K+0x80
#   asm_exc_page_fault K+0xa0  exc_page_fault K+0xc0  kpw K+0xe0
	.text
	.globl entry_SYSCALL_64
entry_SYSCALL_64:		# K+0x00
	call	do_syscall	# K+0x00
	sysretq			# K+0x05  far return to user: TIP (both) or TIP.PGD (kernel only)
	.org 0x20
	.globl do_syscall
do_syscall:			# K+0x20
	cmp	$60, %eax
	je	do_exit		# not-taken for getpid, taken for exit
	ret
	.org 0x40
	.globl do_exit
do_exit:			# K+0x40
	jmp	*%rdx		# the trace ends here (TIP.PGD)
	.org 0x60
	.globl asm_common_interrupt
asm_common_interrupt:		# K+0x60
	call	handle_irq	# K+0x60
	iretq			# K+0x65
	.org 0x80
	.globl handle_irq
handle_irq:			# K+0x80
	ret
	.org 0xa0
	.globl asm_exc_page_fault
asm_exc_page_fault:		# K+0xa0
	call	exc_page_fault
	iretq
	.org 0xc0
	.globl exc_page_fault
exc_page_fault:			# K+0xc0
	ret
	.org 0xe0
	.globl kpw
kpw:				# K+0xe0
	ptwrite	%rax		# K+0xe0
	ret			# K+0xe5
