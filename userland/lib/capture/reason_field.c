// SPDX-License-Identifier: GPL-2.0
/*
 * The refused field of a BAD_TRIGGER or RESERVED_NONZERO refusal, by the
 * offset the module gives. See reason_field.h.
 */
#include "reason_field.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <uapi/ptscope.h>

/* How a field's value is said. */
enum kind { U, S, X, KEY, TEXT };

struct field {
	const char *name;
	size_t off, size;	/* the whole field (an array: all of it) */
	size_t elem;		/* an array's element size, else size */
	enum kind kind;
	bool trigger;		/* a field BAD_TRIGGER may name */
};

#define MEMBER_SIZE(type, m) sizeof(((type *)0)->m)
#define FLD(type, m, k) { #m, offsetof(type, m), MEMBER_SIZE(type, m), MEMBER_SIZE(type, m), k, false }
#define ARR(type, m, k) { #m, offsetof(type, m), MEMBER_SIZE(type, m), MEMBER_SIZE(type, m[0]), k, false }
#define TRG(type, m, k) { #m, offsetof(type, m), MEMBER_SIZE(type, m), MEMBER_SIZE(type, m), k, true }
#define CFG(m, k) FLD(struct ptscope_config, m, k)
#define RANGE(i) CFG(addr[i].start, X), CFG(addr[i].end, X), CFG(addr[i].cfg, U), CFG(addr[i].reserved, X)

/* The header, in every struct: its out fields must be 0 on input. */
static const struct field hdr_fields[] = {
	{ "hdr.reason", offsetof(struct ptscope_hdr, reason), 4, 4, U, false },
	{ "hdr.reason_arg", offsetof(struct ptscope_hdr, reason_arg), 8, 8, U, false },
};

static const struct field config_fields[] = {
	CFG(flags, X), CFG(scope, U), CFG(mode, U), CFG(timing, X), CFG(trace_flags, X),
	CFG(mtc_freq, U), CFG(cyc_thresh, U), CFG(psb_freq, U), CFG(reserved0, X),
	CFG(buffer_size, U), CFG(sideband_size, U), ARR(struct ptscope_config, cpu_mask, X),
	CFG(cr3_pid, S), CFG(nr_addr_ranges, U), RANGE(0), RANGE(1), RANGE(2), RANGE(3),
	CFG(trigger.kinds, X),
	TRG(struct ptscope_config, trigger.flags, X),
	TRG(struct ptscope_config, trigger.tracepoint_pid, S),
	TRG(struct ptscope_config, trigger.hotkey, KEY),
	TRG(struct ptscope_config, trigger.post_trigger_us, U),
	CFG(trigger.reserved0, X),
	TRG(struct ptscope_config, trigger.tracepoint, TEXT),
	ARR(struct ptscope_config, trigger.reserved, X),
	ARR(struct ptscope_config, reserved, X),
	TRG(struct ptscope_config, uprobe.fd, S),
	TRG(struct ptscope_config, uprobe.pid, S),
	TRG(struct ptscope_config, uprobe.offset, X),
	CFG(uprobe.flags, X), CFG(uprobe.reserved0, X),
	ARR(struct ptscope_config, uprobe.reserved, X),
};

static const struct field cmd_fields[] = {
	FLD(struct ptscope_cmd, flags, X), FLD(struct ptscope_cmd, reserved0, X),
	ARR(struct ptscope_cmd, reserved, X),
};

static const struct field trigger_info_fields[] = {
	FLD(struct ptscope_trigger_info, kinds, X), FLD(struct ptscope_trigger_info, flags, X),
	FLD(struct ptscope_trigger_info, uprobe_hits, U),
	ARR(struct ptscope_trigger_info, reserved, X),
};

static const struct field sideband_read_fields[] = {
	FLD(struct ptscope_sideband_read, buf_len, U),
	FLD(struct ptscope_sideband_read, bytes_read, U),
	FLD(struct ptscope_sideband_read, lost, U),
	ARR(struct ptscope_sideband_read, reserved, X),
};

#define TABLE(t) t, sizeof(t) / sizeof(t[0])

/* The struct each call passes, by the name device.c gives the call. */
static const struct {
	const char *what;
	const struct field *v;
	size_t n;
} calls[] = {
	{ "CONFIGURE", TABLE(config_fields) },
	{ "START", TABLE(cmd_fields) },
	{ "STOP", TABLE(cmd_fields) },
	{ "TRIGGER", TABLE(cmd_fields) },
	{ "UNCONFIGURE", TABLE(cmd_fields) },
	{ "GET_TRIGGER", TABLE(trigger_info_fields) },
	{ "READ_SIDEBAND", TABLE(sideband_read_fields) },
};

static const struct field *find(const struct field *v, size_t n, uint64_t off)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (off >= v[i].off && off < v[i].off + v[i].size)
			return &v[i];
	return NULL;
}

/* The element at off of field f as sent, unsigned; false when not sent. */
static bool element(const struct ptscope_hdr *hdr, const struct field *f, uint64_t off,
		    uint64_t *v)
{
	const unsigned char *p = (const unsigned char *)hdr;
	size_t at = f->off + (off - f->off) / f->elem * f->elem;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;

	if (at + f->elem > hdr->size)
		return false;
	switch (f->elem) {
	case 1: memcpy(&u8, p + at, 1); *v = u8; return true;
	case 2: memcpy(&u16, p + at, 2); *v = u16; return true;
	case 4: memcpy(&u32, p + at, 4); *v = u32; return true;
	case 8: memcpy(v, p + at, 8); return true;
	}
	return false;
}

/* "trigger.reserved[1]": an array's element by the offset, else the name. */
static void field_name(const struct field *f, uint64_t off, char *buf, size_t len)
{
	if (f->elem != f->size && f->kind != TEXT)
		snprintf(buf, len, "%s[%zu]", f->name, (size_t)(off - f->off) / f->elem);
	else
		snprintf(buf, len, "%s", f->name);
}

/* The value sent in f, as its kind says; false when not in what was sent. */
static bool field_value(const struct ptscope_hdr *hdr, const struct field *f, uint64_t off,
			char *buf, size_t len)
{
	uint64_t v;

	if (f->kind == TEXT) {
		const char *s = (const char *)hdr + f->off;

		if (f->off + f->size > hdr->size)
			return false;
		snprintf(buf, len, "\"%.*s\"%s", (int)strnlen(s, f->size), s,
			 strnlen(s, f->size) == f->size ? " (no NUL)" : "");
		return true;
	}
	if (!element(hdr, f, off, &v))
		return false;
	switch (f->kind) {
	case S:
		snprintf(buf, len, "%" PRId64, f->elem == 4 ? (int64_t)(int32_t)v : (int64_t)v);
		break;
	case X:
		snprintf(buf, len, "0x%" PRIx64, v);
		break;
	case KEY:
		if (v > ' ' && v < 0x7f)
			snprintf(buf, len, "'%c'", (char)v);
		else
			snprintf(buf, len, "%" PRIu64, v);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, v);
	}
	return true;
}

const char *pts_reason_field(const char *what, const struct ptscope_hdr *hdr, char *buf,
			     size_t len)
{
	const struct field *f = NULL, *v = NULL;
	uint64_t off = hdr->reason_arg, zero;
	char name[48], val[96];
	size_t i, n = 0;

	if (hdr->reason != PTSCOPE_R_BAD_TRIGGER && hdr->reason != PTSCOPE_R_RESERVED_NONZERO)
		return NULL;
	if (hdr->reason == PTSCOPE_R_RESERVED_NONZERO && off == PTSCOPE_ARG_NO_FIELD) {
		snprintf(buf, len, "the RTIT_CTL the module computed, no field of the call");
		return buf;
	}
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(calls[i].what, what)) {
			v = calls[i].v;
			n = calls[i].n;
		}
	if (hdr->reason == PTSCOPE_R_RESERVED_NONZERO) {
		f = find(hdr_fields, sizeof(hdr_fields) / sizeof(hdr_fields[0]), off);
		/* the refusal overwrote what was sent there */
		if (f) {
			snprintf(buf, len, "field %s, which must be 0 on input", f->name);
			return buf;
		}
	}
	if (v)
		f = find(v, n, off);
	/* BAD_TRIGGER names a trigger field only: any other value is no offset */
	if (!f || (hdr->reason == PTSCOPE_R_BAD_TRIGGER && !f->trigger))
		return NULL;
	field_name(f, off, name, sizeof(name));
	if (!field_value(hdr, f, off, val, sizeof(val)))
		return NULL;
	/*
	 * Refused as not zero where this ptscope sent zero: the module read
	 * from there on as bytes past its own struct (copy_struct_from_user),
	 * so it is older than this ptscope.
	 */
	if (hdr->reason == PTSCOPE_R_RESERVED_NONZERO && f->kind != TEXT &&
	    element(hdr, f, off, &zero) && !zero)
		snprintf(buf, len, "bytes from offset %" PRIu64 " on (%s), which this module "
			 "does not know", off, name);
	else
		snprintf(buf, len, "field %s = %s", name, val);
	return buf;
}
