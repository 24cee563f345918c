/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libupt.so: a shared object for the user-function trigger's VM scenario
 * (gcc -shared -nostdlib): one exported function, lib_probe(x) = x + 1.
 * uprobetest maps the file executable itself (the guest has no dynamic
 * loader) and calls it.
 */
	.text
	.globl	lib_probe
	.type	lib_probe, @function
lib_probe:
	leal	1(%rdi), %eax
	ret
	.size	lib_probe, .-lib_probe
	.section .note.GNU-stack, "", @progbits
