// SPDX-License-Identifier: GPL-2.0
/* The demo's shared library: a checksum reached through the PLT. */
unsigned int demo_checksum(const char *s, unsigned long n);

unsigned int demo_checksum(const char *s, unsigned long n)
{
	unsigned int h = 2166136261u;	/* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}
