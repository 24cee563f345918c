# User program for the decoder's synthetic-trace tests (tests/unit/test_decode_synth.c).
# Linked at 0x401000 (ld -Ttext=0x401000). Every function starts at a
# pinned offset (.org) so the tests know each address by construction:
#   _start 0x401000  f1 0x401040  f2 0x401060  f3 0x401080  tail 0x4010a0
#   lj_main 0x401100  lj_a 0x401140  lj_b 0x401160  lj_c 0x401180  pw 0x4011c0
#   spin 0x401200
# Instruction sizes used by the tests: call rel32 5, mov $imm,%eax 5,
# syscall 2, lea rip 7, call *%rbx 2, dec %ecx 2, jnz rel8 2.
	.text
	.globl _start
_start:				# 0x401000
	call	f1		# 0x401000
	mov	$39, %eax	# 0x401005  getpid
	syscall			# 0x40100a
.Lafter_syscall:		# 0x40100c
	lea	f3(%rip), %rbx	# 0x40100c
	call	*%rbx		# 0x401013  indirect call: TIP f3
	jmp	tail		# 0x401015  cross-function direct jump
	.org 0x40
	.globl f1
f1:				# 0x401040
	call	f2		# 0x401040
	ret			# 0x401045
	.org 0x60
	.globl f2
f2:				# 0x401060
	mov	$3, %ecx	# 0x401060
1:	dec	%ecx		# 0x401065
	jnz	1b		# 0x401067  taken, taken, not-taken
	ret			# 0x401069
	.size	f2, . - f2	# the one function with an extent: its loop's jumps can be elided
	.org 0x80
	.globl f3
f3:				# 0x401080
	ret
	.org 0xa0
	.globl tail
tail:				# 0x4010a0
	mov	$60, %eax	# 0x4010a0  exit
	xor	%edi, %edi	# 0x4010a5
	syscall			# 0x4010a7
	.org 0x100
	.globl lj_main
lj_main:			# 0x401100
	call	lj_a		# 0x401100
	nop			# 0x401105  setjmp's return point (the longjmp lands here)
	mov	$60, %eax	# 0x401106
	syscall			# 0x40110b
	.org 0x140
	.globl lj_a
lj_a:				# 0x401140
	call	lj_b
	ret
	.org 0x160
	.globl lj_b
lj_b:				# 0x401160
	call	lj_c
	ret
	.org 0x180
	.globl lj_c
lj_c:				# 0x401180
	lea	lj_main+5(%rip), %rax
	jmp	*%rax		# longjmp: indirect jump back into lj_main, TIP 0x401105
	.org 0x1c0
	.globl pw
pw:				# 0x4011c0
	ptwrite	%rax		# 0x4011c0  (f3 48 0f ae e0)
	ret			# 0x4011c5
	.org 0x200
	.globl spin
spin:				# 0x401200
	jmp	spin		# a loop that needs no trace (abort's `hlt; jmp`)
