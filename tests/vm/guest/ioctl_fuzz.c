// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_fuzz NAME [N]: bad ioctls against /dev/ptscope (run as root,
 * module loaded with simulate=1). Prints one RESULT line.
 *
 * 1. Deterministic refusals, each checked against the rule written in
 *    include/uapi/ptscope.h: too-small size -> EINVAL/BAD_SIZE, non-zero
 *    bytes past the module's size -> E2BIG (copy_struct_from_user),
 *    reserved fields -> RESERVED_NONZERO (also those of the structs the
 *    module only fills: GET_CAPS, GET_STATE, GET_CPU_STATUS, GET_TRIGGER,
 *    with reason_arg the field's offset, or its first non-zero byte's in
 *    a reserved array), unknown flag bits -> BAD_FLAGS,
 *    bad scope/mode/buffer size, features the simulated CPU lacks
 *    (CPUID.14H bits) -> the matching NO_* reason, unknown command ->
 *    ENOTTY, bad pointer -> EFAULT, START before CONFIGURE.
 * 2. N (default 20000) random calls: random and mutated structs, sizes,
 *    command numbers. Every call must return 0 or -1 with an errno from
 *    the expected set, and a reason below PTSCOPE_R_COUNT.
 * 3. Afterwards the module still answers GET_CAPS and returns to IDLE.
 * An oops would end the VM (oops=panic), which the host reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "guest.h"

static const char *g_name;
static int g_fd = -1;
static int g_ok = 1;

/* xorshift64*: reproducible from the seed printed in the detail. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static int call(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* One deterministic case: expect errno err (or err2) and reason. */
static void expect(const char *what, int got, const struct ptscope_hdr *h, int err, int err2,
		   int reason)
{
	if ((got == err || (err2 && got == err2)) && (reason < 0 || h->reason == (uint32_t)reason))
		return;
	detail("%s:got %s reason %u (want %s reason %d)", what, got ? strerror(got) : "success",
	       h->reason, strerror(err), reason);
	g_ok = 0;
	if (!got && g_fd >= 0) {
		/* Accepted by mistake: undo, so later cases start from IDLE. */
		struct ptscope_cmd cm;

		memset(&cm, 0, sizeof(cm));
		cm.hdr.size = sizeof(cm);
		ioctl(g_fd, PTSCOPE_IOC_UNCONFIGURE, &cm);
	}
}

/* As expect(), and reason_arg must be arg. */
static void expect_at(const char *what, int got, const struct ptscope_hdr *h, int err,
		      int reason, uint64_t arg)
{
	expect(what, got, h, err, 0, reason);
	if (got == err && h->reason_arg != arg) {
		detail("%s:reason_arg %llu (want %llu)", what,
		       (unsigned long long)h->reason_arg, (unsigned long long)arg);
		g_ok = 0;
	}
}

/*
 * The structs the module only fills have reserved fields too: zero in,
 * or EINVAL RESERVED_NONZERO (docs/abi.md, "Rules"), so that a later ABI
 * may read them.
 */
static void out_structs_reserved(int fd)
{
	struct ptscope_caps caps;
	struct ptscope_state st;
	struct ptscope_cpu_status cs;
	struct ptscope_trigger_info ti;

	memset(&caps, 0, sizeof(caps));
	caps.hdr.size = sizeof(caps);
	caps.reserved[6] = 1ull << 8;
	expect_at("caps-reserved", call(fd, PTSCOPE_IOC_GET_CAPS, &caps), &caps.hdr, EINVAL,
		  PTSCOPE_R_RESERVED_NONZERO, offsetof(struct ptscope_caps, reserved[6]) + 1);
	memset(&st, 0, sizeof(st));
	st.hdr.size = sizeof(st);
	st.reserved[0] = 1;
	expect_at("state-reserved", call(fd, PTSCOPE_IOC_GET_STATE, &st), &st.hdr, EINVAL,
		  PTSCOPE_R_RESERVED_NONZERO, offsetof(struct ptscope_state, reserved));
	memset(&cs, 0, sizeof(cs));
	cs.hdr.size = sizeof(cs);
	cs.reserved0 = 1u << 16;
	expect_at("cpu-status-reserved0", call(fd, PTSCOPE_IOC_GET_CPU_STATUS, &cs), &cs.hdr,
		  EINVAL, PTSCOPE_R_RESERVED_NONZERO, offsetof(struct ptscope_cpu_status, reserved0));
	memset(&cs, 0, sizeof(cs));
	cs.hdr.size = sizeof(cs);
	cs.reserved[4] = 1;
	expect_at("cpu-status-reserved", call(fd, PTSCOPE_IOC_GET_CPU_STATUS, &cs), &cs.hdr,
		  EINVAL, PTSCOPE_R_RESERVED_NONZERO, offsetof(struct ptscope_cpu_status, reserved[4]));
	memset(&ti, 0, sizeof(ti));
	ti.hdr.size = sizeof(ti);
	ti.reserved0 = 1;
	expect_at("trigger-info-reserved0", call(fd, PTSCOPE_IOC_GET_TRIGGER, &ti), &ti.hdr,
		  EINVAL, PTSCOPE_R_RESERVED_NONZERO, offsetof(struct ptscope_trigger_info, reserved0));
	memset(&ti, 0, sizeof(ti));
	ti.hdr.size = sizeof(ti);
	ti.reserved[1] = 1ull << 56;
	expect_at("trigger-info-reserved", call(fd, PTSCOPE_IOC_GET_TRIGGER, &ti), &ti.hdr,
		  EINVAL, PTSCOPE_R_RESERVED_NONZERO,
		  offsetof(struct ptscope_trigger_info, reserved[1]) + 7);
	/* ptscope_cmd's reserved array names its first non-zero byte too. */
	{
		struct ptscope_cmd cm;

		memset(&cm, 0, sizeof(cm));
		cm.hdr.size = sizeof(cm);
		cm.reserved[1] = 1ull << 16;
		expect_at("cmd-reserved", call(fd, PTSCOPE_IOC_STOP, &cm), &cm.hdr, EINVAL,
			  PTSCOPE_R_RESERVED_NONZERO, offsetof(struct ptscope_cmd, reserved[1]) + 2);
	}
	/* The control: the same structs all zero are answered. */
	memset(&cs, 0, sizeof(cs));
	cs.hdr.size = sizeof(cs);
	expect("cpu-status-zero", call(fd, PTSCOPE_IOC_GET_CPU_STATUS, &cs), &cs.hdr, 0, 0, -1);
	memset(&st, 0, sizeof(st));
	st.hdr.size = sizeof(st);
	expect("state-zero", call(fd, PTSCOPE_IOC_GET_STATE, &st), &st.hdr, 0, 0, -1);
}

static const unsigned long cmds[] = {
	PTSCOPE_IOC_GET_CAPS, PTSCOPE_IOC_CONFIGURE, PTSCOPE_IOC_START, PTSCOPE_IOC_STOP,
	PTSCOPE_IOC_TRIGGER, PTSCOPE_IOC_GET_STATE, PTSCOPE_IOC_GET_CPU_STATUS,
	PTSCOPE_IOC_READ_SIDEBAND, PTSCOPE_IOC_UNCONFIGURE,
};
static const size_t sizes[] = {
	sizeof(struct ptscope_caps), sizeof(struct ptscope_config), sizeof(struct ptscope_cmd),
	sizeof(struct ptscope_cmd), sizeof(struct ptscope_cmd), sizeof(struct ptscope_state),
	sizeof(struct ptscope_cpu_status), sizeof(struct ptscope_sideband_read),
	sizeof(struct ptscope_cmd),
};

static void valid_config(struct ptscope_config *c, const struct ptscope_caps *caps)
{
	memset(c, 0, sizeof(*c));
	c->hdr.size = sizeof(*c);
	c->scope = PTSCOPE_SCOPE_USER;
	c->mode = PTSCOPE_MODE_SNAPSHOT;
	c->timing = PTSCOPE_TIMING_TSC;
	c->buffer_size = 16384;
	memcpy(c->cpu_mask, caps->online_mask, sizeof(c->cpu_mask));
}

static void deterministic(int fd, const struct ptscope_caps *caps)
{
	union {
		struct ptscope_caps caps;
		struct ptscope_config cfg;
		struct ptscope_cmd cmd;
		unsigned char raw[8192];
	} u;
	struct ptscope_config *c = &u.cfg;
	uint32_t ebx = caps->cpuid_14_0[1];
	int r;

	/* Below the header itself the reason cannot be copied back. */
	memset(&u, 0, sizeof(u));
	u.caps.hdr.size = 8;
	expect("caps-size8", call(fd, PTSCOPE_IOC_GET_CAPS, &u), &u.caps.hdr, EINVAL, 0, -1);
	memset(&u, 0, sizeof(u));
	u.caps.hdr.size = sizeof(struct ptscope_hdr);
	expect("caps-size16", call(fd, PTSCOPE_IOC_GET_CAPS, &u), &u.caps.hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_SIZE);
	memset(&u, 0, sizeof(u));
	valid_config(c, caps);
	/* struct ptscope_config grew after ABI 1: below its ABI 1 size is short */
	c->hdr.size = PTSCOPE_CONFIG_SIZE_VER0 - 8;
	expect("cfg-size-short", call(fd, PTSCOPE_IOC_CONFIGURE, &u), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_SIZE);

	/* Larger than the module knows, with a non-zero byte past its size. */
	memset(&u, 0, sizeof(u));
	valid_config(c, caps);
	c->hdr.size = sizeof(*c) + 64;
	u.raw[sizeof(*c) + 10] = 1;
	expect("cfg-bigger-nonzero-tail", call(fd, _IOC(_IOC_READ | _IOC_WRITE, PTSCOPE_IOC_MAGIC, 0x02, sizeof(*c)), &u),
	       &c->hdr, E2BIG, EINVAL, -1);

	/* Larger with a zero tail is accepted (then undone). */
	memset(&u, 0, sizeof(u));
	valid_config(c, caps);
	c->hdr.size = sizeof(*c) + 64;
	r = call(fd, PTSCOPE_IOC_CONFIGURE, &u);
	expect("cfg-bigger-zero-tail", r, &c->hdr, 0, 0, -1);
	memset(&u, 0, sizeof(u));
	u.cmd.hdr.size = sizeof(u.cmd);
	call(fd, PTSCOPE_IOC_UNCONFIGURE, &u);

	/*
	 * Larger than a page, even with a zero tail: E2BIG / BAD_SIZE, the
	 * bound openat2() and clone3() put on their extensible structs.
	 */
	memset(&u, 0, sizeof(u));
	valid_config(c, caps);
	c->hdr.size = 4096 + 8;
	expect("cfg-size-over-page", call(fd, PTSCOPE_IOC_CONFIGURE, &u), &c->hdr, E2BIG, 0,
	       PTSCOPE_R_BAD_SIZE);

	/* Sysrq dispatches keys 0-9 a-z A-Z only (sysrq_key_table): '!' never fires. */
	valid_config(c, caps);
	c->trigger.kinds = PTSCOPE_TRIG_HOTKEY;
	c->trigger.hotkey = '!';
	expect("cfg-hotkey-not-alnum", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_TRIGGER);

	valid_config(c, caps);
	c->hdr.reason = 3;
	expect("cfg-reason-in-nonzero", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0, -1);

	valid_config(c, caps);
	c->reserved[3] = 1;
	expect("cfg-reserved", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_RESERVED_NONZERO);
	valid_config(c, caps);
	c->reserved0 = 1;
	expect("cfg-reserved0", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_RESERVED_NONZERO);
	valid_config(c, caps);
	c->trigger.reserved[1] = 1;
	expect("cfg-trigger-reserved", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_RESERVED_NONZERO);
	valid_config(c, caps);
	c->flags = 0x80000000u;
	expect("cfg-flags", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_FLAGS);
	valid_config(c, caps);
	c->trace_flags = 1u << 20;
	expect("cfg-trace-flags", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_FLAGS);
	valid_config(c, caps);
	c->timing = 1u << 7;
	expect("cfg-timing-flags", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_FLAGS);
	valid_config(c, caps);
	c->trigger.kinds = 1u << 9;
	expect("cfg-trigger-kinds", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0, -1);
	valid_config(c, caps);
	c->scope = 0;
	expect("cfg-scope0", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_SCOPE);
	valid_config(c, caps);
	c->scope = 4;
	expect("cfg-scope4", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_SCOPE);
	valid_config(c, caps);
	c->mode = 7;
	expect("cfg-mode", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_MODE);
	valid_config(c, caps);
	c->buffer_size = 12288;
	expect("cfg-bufsize-not-pow2", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_BUFFER_SIZE);
	valid_config(c, caps);
	c->buffer_size = 2048;
	expect("cfg-bufsize-small", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_BUFFER_SIZE);
	valid_config(c, caps);
	c->sideband_size = 3000;
	expect("cfg-sbsize", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_SIDEBAND_SIZE);
	valid_config(c, caps);
	memset(c->cpu_mask, 0, sizeof(c->cpu_mask));
	c->cpu_mask[PTSCOPE_CPU_MASK_WORDS - 1] = 1ull << 63;
	expect("cfg-cpumask", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_BAD_CPU_MASK);
	valid_config(c, caps);
	c->nr_addr_ranges = PTSCOPE_MAX_ADDR_RANGES + 1;
	expect("cfg-nranges", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_TOO_MANY_RANGES);
	valid_config(c, caps);
	c->trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	snprintf(c->trigger.tracepoint, sizeof(c->trigger.tracepoint), "nosuch:tracepoint_xyz");
	r = call(fd, PTSCOPE_IOC_CONFIGURE, c);
	expect("cfg-tp-missing", r, &c->hdr, r == ENOENT ? ENOENT : EINVAL, 0,
	       PTSCOPE_R_TRACEPOINT_NOT_FOUND);
	/* Features per CPUID.14H.0:EBX (SDM 33.3.1): refused when absent. */
	valid_config(c, caps);
	c->trace_flags = PTSCOPE_TRACE_PTWRITE;
	r = call(fd, PTSCOPE_IOC_CONFIGURE, c);
	if (!(ebx & (1u << 4)))
		expect("cfg-ptwrite-unsupported", r, &c->hdr, EINVAL, EOPNOTSUPP, PTSCOPE_R_NO_PTWRITE);
	else if (!r) {
		memset(&u.cmd, 0, sizeof(u.cmd));
		u.cmd.hdr.size = sizeof(u.cmd);
		call(fd, PTSCOPE_IOC_UNCONFIGURE, &u.cmd);
	}
	valid_config(c, caps);
	c->timing = PTSCOPE_TIMING_TSC | PTSCOPE_TIMING_MTC;
	c->mtc_freq = 15;
	r = call(fd, PTSCOPE_IOC_CONFIGURE, c);
	if (!(ebx & (1u << 3)))
		expect("cfg-mtc-unsupported", r, &c->hdr, EINVAL, EOPNOTSUPP, PTSCOPE_R_NO_MTC);
	else if (!(caps->mtc_period_bitmap & (1u << 15)))
		expect("cfg-mtc-period", r, &c->hdr, EINVAL, EOPNOTSUPP, PTSCOPE_R_BAD_MTC_PERIOD);
	valid_config(c, caps);
	c->mtc_freq = 3; /* without PTSCOPE_TIMING_MTC */
	expect("cfg-mtc-without-mtcen", call(fd, PTSCOPE_IOC_CONFIGURE, c), &c->hdr, EINVAL, 0,
	       PTSCOPE_R_TIMING_FLAGS);
	valid_config(c, caps);
	c->nr_addr_ranges = 1;
	/* Not canonical with 48 or with 57 linear address bits (LA57). */
	c->addr[0].start = 0x0100000000000000ull;
	c->addr[0].end = 0x0100000000001000ull;
	c->addr[0].cfg = PTSCOPE_ADDR_FILTER;
	r = call(fd, PTSCOPE_IOC_CONFIGURE, c);
	if (caps->nr_addr_ranges >= 1)
		expect("cfg-addr-noncanonical", r, &c->hdr, EINVAL, 0, PTSCOPE_R_ADDR_NOT_CANONICAL);
	else
		expect("cfg-addr-unsupported", r, &c->hdr, EINVAL, EOPNOTSUPP, PTSCOPE_R_TOO_MANY_RANGES);

	memset(&u.cmd, 0, sizeof(u.cmd));
	u.cmd.hdr.size = sizeof(u.cmd);
	expect("start-unconfigured", call(fd, PTSCOPE_IOC_START, &u.cmd), &u.cmd.hdr, EINVAL,
	       EBUSY, PTSCOPE_R_NOT_CONFIGURED);
	memset(&u.cmd, 0, sizeof(u.cmd));
	u.cmd.hdr.size = sizeof(u.cmd);
	u.cmd.flags = 1;
	r = call(fd, PTSCOPE_IOC_TRIGGER, &u.cmd);
	expect("cmd-flags", r, &u.cmd.hdr, EINVAL, 0, -1);

	/* Unknown command numbers, and a known number with the wrong size. */
	expect("cmd-unknown-nr", call(fd, _IOWR(PTSCOPE_IOC_MAGIC, 0x7f, struct ptscope_cmd), &u),
	       &u.cmd.hdr, ENOTTY, 0, -1);
	memset(&u, 0, sizeof(u));
	expect("cmd-wrong-magic", call(fd, _IOWR('T', 0x01, struct ptscope_caps), &u), &u.caps.hdr,
	       ENOTTY, 0, -1);
	memset(&u, 0, sizeof(u));
	u.caps.hdr.size = sizeof(u.caps);
	/*
	 * A known command number with another encoded size: refused, or
	 * served from hdr.size (structs grow by hdr.size, so a module may
	 * dispatch on the number alone); never a crash.
	 */
	r = call(fd, _IOC(_IOC_READ | _IOC_WRITE, PTSCOPE_IOC_MAGIC, 0x01, 4), &u);
	if (r)
		expect("cmd-wrong-ioc-size", r, &u.caps.hdr, ENOTTY, EINVAL, -1);
	expect("bad-pointer", call(fd, PTSCOPE_IOC_GET_CAPS, (void *)16), &u.caps.hdr, EFAULT, 0, -1);
	out_structs_reserved(fd);
}

static int allowed_errno(int e)
{
	switch (e) {
	case 0: case EINVAL: case ENOTTY: case EFAULT: case E2BIG: case EPERM: case EACCES:
	case ENOMEM: case EBUSY: case ESRCH: case ENOENT: case ENODEV: case EOPNOTSUPP:
	case ERANGE: case EEXIST: case EAGAIN: case EOVERFLOW: case ENOSPC:
	case EBADF:	/* a uprobe trigger's fd that is not open (UPROBE_FILE) */
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[16384];
	struct ptscope_caps caps;
	struct ptscope_state st;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000;
	unsigned long calls = 0, oks = 0, hist[140] = { 0 };
	struct ptscope_cmd cm;
	int fd, r;

	g_name = argc > 1 ? argv[1] : "ioctl_fuzz";
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open("/dev/ptscope", O_RDWR);
	if (fd < 0) {
		printf("RESULT %s FAIL open /dev/ptscope: %s\n", g_name, strerror(errno));
		return 1;
	}
	g_fd = fd;
	memset(&caps, 0, sizeof(caps));
	caps.hdr.size = sizeof(caps);
	if (call(fd, PTSCOPE_IOC_GET_CAPS, &caps)) {
		printf("RESULT %s FAIL GET_CAPS: %s\n", g_name, strerror(errno));
		return 1;
	}
	/* Start from IDLE whatever an earlier scenario left behind. */
	memset(&cm, 0, sizeof(cm));
	cm.hdr.size = sizeof(cm);
	call(fd, PTSCOPE_IOC_STOP, &cm);
	memset(&cm, 0, sizeof(cm));
	cm.hdr.size = sizeof(cm);
	call(fd, PTSCOPE_IOC_UNCONFIGURE, &cm);
	deterministic(fd, &caps);
	detail("deterministic:%s;", g_ok ? "ok" : "FAILED");

	rng_state ^= (uint64_t)getpid() << 17;
	detail("seed=0x%llx", (unsigned long long)rng_state);
	for (unsigned long i = 0; i < n; i++) {
		uint64_t k = rnd();
		unsigned int which = (unsigned int)(k % 9), style = (unsigned int)((k >> 8) % 8);
		unsigned long cmdno = cmds[which];
		size_t size = sizes[which];
		struct ptscope_hdr *h = (void *)buf;
		uint32_t in_reason;
		int e;

		if (style == 0) {
			/* Entirely random bytes. */
			for (size_t j = 0; j < sizeof(buf); j += 8) {
				uint64_t v = rnd();

				memcpy(buf + j, &v, 8);
			}
		} else {
			/* A valid-looking struct with a few fields broken. */
			memset(buf, 0, sizeof(buf));
			if (cmdno == PTSCOPE_IOC_CONFIGURE) {
				valid_config((void *)buf, &caps);
				((struct ptscope_config *)buf)->buffer_size = 4096ull << (rnd() % 8);
			}
			if (cmdno == PTSCOPE_IOC_READ_SIDEBAND) {
				struct ptscope_sideband_read *rd = (void *)buf;

				rd->buf = (rnd() & 1) ? (uint64_t)(uintptr_t)(buf + 8192) : rnd();
				rd->buf_len = (uint32_t)(rnd() % 16384);
			}
			h->size = (uint32_t)size;
			for (unsigned int f = 0; f < style; f++) {
				size_t off = (size_t)(rnd() % (size + 16));

				buf[off] ^= (unsigned char)(1u << (rnd() % 8));
			}
			if (rnd() % 4 == 0)
				h->size = (uint32_t)(rnd() % (size * 2 + 8));
		}
		if (k >> 60 == 0) /* unknown command numbers */
			cmdno = _IOC((unsigned int)(rnd() % 4), PTSCOPE_IOC_MAGIC,
				     (unsigned int)(rnd() % 256), (unsigned int)(rnd() % 2048));
		else if (k >> 60 == 1) /* known number, wrong encoded size */
			cmdno = _IOC(_IOC_READ | _IOC_WRITE, PTSCOPE_IOC_MAGIC, (unsigned int)(which + 1),
				     (unsigned int)(rnd() % 2048));
		in_reason = h->reason;
		r = ioctl(fd, cmdno, buf);
		e = r ? errno : 0;
		calls++;
		if (!r)
			oks++;
		hist[e < 139 ? e : 139]++;
		if (r && !allowed_errno(e)) {
			if (g_ok)
				detail("unexpected errno %s for cmd 0x%lx", strerror(e), cmdno);
			g_ok = 0;
		}
		/*
		 * A refusal of a known command whose input reason was zero
		 * must leave zero or a defined reason there (unknown numbers
		 * never reach the header; a non-zero input reason may be left
		 * as it was).
		 */
		if (r && cmdno == cmds[which] && in_reason == 0 && h->reason >= PTSCOPE_R_COUNT) {
			if (g_ok)
				detail("reason %u out of range for cmd 0x%lx", h->reason, cmdno);
			g_ok = 0;
		}
		/* Keep the module from staying armed with a random config. */
		if ((cmdno == PTSCOPE_IOC_START || cmdno == PTSCOPE_IOC_CONFIGURE) && !r && rnd() % 2) {
			memset(&cm, 0, sizeof(cm));
			cm.hdr.size = sizeof(cm);
			call(fd, PTSCOPE_IOC_STOP, &cm);
			call(fd, PTSCOPE_IOC_UNCONFIGURE, &cm);
		}
	}
	memset(&cm, 0, sizeof(cm));
	cm.hdr.size = sizeof(cm);
	call(fd, PTSCOPE_IOC_STOP, &cm);
	cm.hdr.reason = 0;
	call(fd, PTSCOPE_IOC_UNCONFIGURE, &cm);
	memset(&st, 0, sizeof(st));
	st.hdr.size = sizeof(st);
	r = call(fd, PTSCOPE_IOC_GET_STATE, &st);
	if (r || st.state != PTSCOPE_STATE_IDLE) {
		detail("after fuzzing: GET_STATE %s state %u (want IDLE)", strerror(r), st.state);
		g_ok = 0;
	}
	memset(&caps, 0, sizeof(caps));
	caps.hdr.size = sizeof(caps);
	if (call(fd, PTSCOPE_IOC_GET_CAPS, &caps) || !(caps.flags & PTSCOPE_CAPS_SIMULATED)) {
		detail("after fuzzing: GET_CAPS broken");
		g_ok = 0;
	}
	if (calls < 10000) {
		detail("only %lu calls", calls);
		g_ok = 0;
	}
	detail("random calls=%lu ok=%lu EINVAL=%lu ENOTTY=%lu EFAULT=%lu E2BIG=%lu EPERM=%lu ENOMEM=%lu EBUSY=%lu",
	       calls, oks, hist[EINVAL], hist[ENOTTY], hist[EFAULT], hist[E2BIG], hist[EPERM],
	       hist[ENOMEM], hist[EBUSY]);
	close(fd);
	printf("RESULT %s %s %s\n", g_name, g_ok ? "PASS" : "FAIL", g_detail);
	return g_ok ? 0 : 1;
}
