// SPDX-License-Identifier: GPL-2.0
/* Function bounds of a stripped object from the FDEs of its .eh_frame. */
#include "ehframe.h"

#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* DWARF pointer encodings (DW_EH_PE_*, LSB Core, "DWARF Exception Header Encoding") */
#define PE_OMIT		0xff
#define PE_FORMAT	0x0f	/* the value's format */
#define PE_APPL		0x70	/* what it is relative to */
#define PE_ABSPTR	0x00
#define PE_ULEB128	0x01
#define PE_UDATA2	0x02
#define PE_UDATA4	0x03
#define PE_UDATA8	0x04
#define PE_SLEB128	0x09
#define PE_SDATA2	0x0a
#define PE_SDATA4	0x0b
#define PE_SDATA8	0x0c
#define PE_PCREL	0x10

/* A cursor over the bytes of .eh_frame; ok goes false at the first read past end. */
struct cur {
	const uint8_t *p, *end;
	bool ok;
};

static uint64_t rd_n(struct cur *c, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (!c->ok || (size_t)(c->end - c->p) < n) {
		c->ok = false;
		return 0;
	}
	for (i = 0; i < n; i++)	/* little-endian: x86-64 only */
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t rd_leb(struct cur *c, bool sign)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t b;

	do {
		b = (uint8_t)rd_n(c, 1);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (c->ok && (b & 0x80));
	if (sign && shift < 64 && (b & 0x40))
		v |= ~0ULL << shift;
	return v;
}

/*
 * A value of encoding enc at c (its address addr, for PC-relative ones);
 * ok false when the encoding is one this reader does not take.
 */
static uint64_t rd_enc(struct cur *c, uint8_t enc, uint64_t addr, size_t ptr_size)
{
	uint64_t v;

	switch (enc & PE_FORMAT) {
	case PE_ABSPTR:	v = rd_n(c, ptr_size); break;
	case PE_ULEB128: v = rd_leb(c, false); break;
	case PE_SLEB128: v = rd_leb(c, true); break;
	case PE_UDATA2:	v = rd_n(c, 2); break;
	case PE_SDATA2:	v = (uint64_t)(int64_t)(int16_t)rd_n(c, 2); break;
	case PE_UDATA4:	v = rd_n(c, 4); break;
	case PE_SDATA4:	v = (uint64_t)(int64_t)(int32_t)rd_n(c, 4); break;
	case PE_UDATA8:
	case PE_SDATA8:	v = rd_n(c, 8); break;
	default:
		c->ok = false;
		return 0;
	}
	switch (enc & PE_APPL) {
	case 0:
		return v;
	case PE_PCREL:
		return v + addr;
	default:	/* textrel, datarel, funcrel, aligned: not in linked x86-64 objects */
		c->ok = false;
		return 0;
	}
}

/* What an FDE needs of its CIE. */
struct cie {
	int enc;	/* FDE pointer encoding ('R'; absolute without), -1 unreadable */
	bool z;		/* the FDE has augmentation data ('z') */
};

/* The CIE at [p, end), after its CIE id. */
static struct cie read_cie(const uint8_t *p, const uint8_t *end, size_t ptr_size)
{
	struct cur c = { p, end, true };
	struct cie r = { -1, false };
	const char *aug;
	size_t i;
	uint8_t ver = (uint8_t)rd_n(&c, 1);

	aug = (const char *)c.p;
	while (c.ok && rd_n(&c, 1))
		;
	if (!c.ok || (ver != 1 && ver != 3))
		return r;
	if (aug[0] != 'z') {	/* no augmentation data: nothing says otherwise */
		r.enc = aug[0] ? -1 : PE_ABSPTR;
		return r;
	}
	r.z = true;
	rd_leb(&c, false);		/* code alignment factor */
	rd_leb(&c, true);		/* data alignment factor */
	if (ver == 1)
		rd_n(&c, 1);		/* return address register */
	else
		rd_leb(&c, false);
	rd_leb(&c, false);		/* augmentation data length */
	r.enc = PE_ABSPTR;
	for (i = 1; c.ok && aug[i]; i++) {
		uint8_t enc;

		switch (aug[i]) {
		case 'R':
			r.enc = (int)rd_n(&c, 1);
			break;
		case 'L':
			rd_n(&c, 1);
			break;
		case 'P':
			enc = (uint8_t)rd_n(&c, 1);
			rd_enc(&c, enc, 0, ptr_size);
			break;
		case 'S':
		case 'B':
			break;
		default:
			c.ok = false;
		}
	}
	if (!c.ok)
		r.enc = -1;
	return r;
}

/*
 * Does the FDE's first rule (its call frame instructions at c, skipping
 * DW_CFA_nop) define the CFA? Then the CFA at its first byte is not the
 * CIE's (the caller's stack pointer + 8 on x86-64, a function's entry):
 * the code is entered with a frame set up, a part of a function such as
 * GCC's cold part (foo.cold), which its hot part jumps into.
 */
static bool enters_mid_frame(struct cur *c)
{
	uint8_t op;

	do
		op = (uint8_t)rd_n(c, 1);
	while (c->ok && op == 0x00);	/* DW_CFA_nop */
	if (!c->ok)
		return false;
	switch (op) {
	case 0x0c:	/* DW_CFA_def_cfa */
	case 0x0d:	/* DW_CFA_def_cfa_register */
	case 0x0e:	/* DW_CFA_def_cfa_offset */
	case 0x0f:	/* DW_CFA_def_cfa_expression */
	case 0x12:	/* DW_CFA_def_cfa_sf */
	case 0x13:	/* DW_CFA_def_cfa_offset_sf */
		return true;
	default:
		return false;
	}
}

/* Is [start, start + size) inside one of the object's executable sections? */
static bool in_exec_section(Elf *elf, uint64_t start, uint64_t size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_type == SHT_PROGBITS && start >= sh.sh_addr &&
		    start - sh.sh_addr < sh.sh_size && size <= sh.sh_size - (start - sh.sh_addr))
			return true;
	}
	return false;
}

static Elf_Data *eh_frame(Elf *elf, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *sn;

		if (!gelf_getshdr(scn, out) || out->sh_type != SHT_PROGBITS)
			continue;
		sn = elf_strptr(elf, shstrndx, out->sh_name);
		if (sn && !strcmp(sn, ".eh_frame"))
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/*
 * One FDE at [p, end) (after its CIE pointer, at link address addr):
 * added when its code is in no symbol yet.
 */
static int add_fde(struct pts_symtab *st, size_t named, Elf *elf, const uint8_t *p,
		   const uint8_t *end, uint64_t addr, struct cie cie, size_t ptr_size)
{
	struct pts_symtab sorted = { .syms = st->syms, .n = named };
	struct cur c = { p, end, true };
	uint64_t start, size, aug;
	uint8_t enc = (uint8_t)cie.enc;

	if (enc & 0x80)		/* DW_EH_PE_indirect: not for code addresses */
		return 0;
	start = rd_enc(&c, enc, addr, ptr_size);
	size = rd_enc(&c, enc & PE_FORMAT, 0, ptr_size);
	if (!c.ok || !size || pts_symtab_find(&sorted, start) ||
	    !in_exec_section(elf, start, size))
		return 0;
	if (cie.z) {
		aug = rd_leb(&c, false);	/* augmentation data (the LSDA pointer) */
		if (aug > (uint64_t)(c.end - c.p))
			return 0;
		c.p += aug;
	}
	return pts_symtab_add_unnamed(st, start, size, enters_mid_frame(&c));
}

int pts_ehframe_add_fdes(struct pts_symtab *st, Elf *elf)
{
	GElf_Shdr sh;
	GElf_Ehdr eh;
	Elf_Data *d = eh_frame(elf, &sh);
	const uint8_t *base, *p, *end;
	size_t ptr_size, named = st->n;	/* the sorted symbols, before any FDE's */
	int rc = 0;

	if (!d || !d->d_buf || !gelf_getehdr(elf, &eh))
		return 0;
	ptr_size = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	base = d->d_buf;
	end = base + d->d_size;
	for (p = base; !rc && end - p >= 8;) {
		uint64_t len = (uint32_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
		const uint8_t *rec = p + 4, *id_at, *next;
		uint32_t id;
		struct cie cie;

		if (len == 0)		/* the terminator */
			break;
		if (len == 0xffffffff)	/* 64-bit DWARF length: not in x86-64 .eh_frame */
			break;
		if (len > (uint64_t)(end - rec) || len < 4)
			break;
		next = rec + len;
		id_at = rec;
		id = (uint32_t)(id_at[0] | id_at[1] << 8 | id_at[2] << 16 | (uint32_t)id_at[3] << 24);
		p = next;
		if (!id)		/* a CIE */
			continue;
		/* an FDE: its CIE lies id bytes before this field */
		if (id > (uint64_t)(id_at - base) || end - (id_at - id) < 8)
			continue;
		{
			const uint8_t *at = id_at - id;
			uint32_t clen = (uint32_t)(at[0] | at[1] << 8 | at[2] << 16 |
						   (uint32_t)at[3] << 24);

			if (clen < 5 || clen > (uint64_t)(end - at - 4) || at[4] | at[5] | at[6] | at[7])
				continue;
			cie = read_cie(at + 8, at + 4 + clen, ptr_size);
		}
		if (cie.enc < 0 || cie.enc == PE_OMIT)
			continue;
		rc = add_fde(st, named, elf, id_at + 4, next, sh.sh_addr + (uint64_t)(id_at + 4 - base),
			     cie, ptr_size);
	}
	return rc;
}
