// SPDX-License-Identifier: GPL-2.0
/*
 * BAD_TRIGGER and RESERVED_NONZERO refusals name the field and the value
 * sent (docs/abi.md, "reason_arg": the module gives the field's byte
 * offset in the struct passed). Before, both printed no value at all: the
 * module's reason_arg meant something else for each check that refused.
 */
#include "unit.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "capture/device.h"

#define HAS(msg, s) CU_ASSERT_PTR_NOT_NULL(strstr((msg), (s)))
#define HASNT(msg, s) CU_ASSERT_PTR_NULL(strstr((msg), (s)))

/* A configuration as ptscope sends it, refused as the module refuses it. */
static const char *refuse_cfg(struct ptscope_config *c, int e, uint32_t reason, uint64_t arg,
			      struct pts_err *err)
{
	c->hdr.size = sizeof(*c);
	c->hdr.reason = reason;
	c->hdr.reason_arg = arg;
	pts_err_clear(err);
	pts_dev_refusal("CONFIGURE", e, &c->hdr, err);
	return err->msg;
}

static void bad_trigger_names_the_field_and_the_value_sent(void)
{
	struct ptscope_config c;
	struct pts_err err;

	memset(&c, 0, sizeof(c));
	c.trigger.kinds = PTSCOPE_TRIG_HOTKEY;
	c.trigger.hotkey = '!';
	refuse_cfg(&c, EINVAL, PTSCOPE_R_BAD_TRIGGER,
		   offsetof(struct ptscope_config, trigger.hotkey), &err);
	HAS(err.msg, "CONFIGURE refused: ");
	HAS(err.msg, "(field trigger.hotkey = '!', Invalid argument)");
	/* and what to do: the options check the rest, so the module differs */
	HAS(err.msg, "load the module built with it");
	c.trigger.hotkey = 0;
	c.trigger.post_trigger_us = 20000000;
	refuse_cfg(&c, EINVAL, PTSCOPE_R_BAD_TRIGGER,
		   offsetof(struct ptscope_config, trigger.post_trigger_us), &err);
	HAS(err.msg, "(field trigger.post_trigger_us = 20000000, ");
	c.trigger.tracepoint_pid = -5;
	refuse_cfg(&c, EINVAL, PTSCOPE_R_BAD_TRIGGER,
		   offsetof(struct ptscope_config, trigger.tracepoint_pid), &err);
	HAS(err.msg, "(field trigger.tracepoint_pid = -5, ");
	strcpy(c.trigger.tracepoint, "sched:sched_stat_runtime");
	refuse_cfg(&c, EOPNOTSUPP, PTSCOPE_R_BAD_TRIGGER,
		   offsetof(struct ptscope_config, trigger.tracepoint), &err);
	HAS(err.msg, "(field trigger.tracepoint = \"sched:sched_stat_runtime\", ");
	c.uprobe.fd = -1;
	refuse_cfg(&c, EINVAL, PTSCOPE_R_BAD_TRIGGER,
		   offsetof(struct ptscope_config, uprobe.fd), &err);
	HAS(err.msg, "(field uprobe.fd = -1, ");
	/* an offset that is no trigger field (a module of the old rule): nothing */
	refuse_cfg(&c, EINVAL, PTSCOPE_R_BAD_TRIGGER, 3, &err);
	HASNT(err.msg, "field");
}

static void reserved_nonzero_names_the_field_or_the_bytes_the_module_does_not_know(void)
{
	struct ptscope_config c;
	struct ptscope_cmd cmd;
	struct pts_err err;

	memset(&c, 0, sizeof(c));
	c.reserved[3] = 0x40;
	refuse_cfg(&c, EINVAL, PTSCOPE_R_RESERVED_NONZERO,
		   offsetof(struct ptscope_config, reserved[3]), &err);
	HAS(err.msg, "(field reserved[3] = 0x40, Invalid argument)");
	HAS(err.msg, "not the one built with this ptscope");
	/* the first non-zero byte of an element names the element */
	c.reserved[3] = 0;
	c.trigger.reserved[1] = 0x100;
	refuse_cfg(&c, EINVAL, PTSCOPE_R_RESERVED_NONZERO,
		   offsetof(struct ptscope_config, trigger.reserved[1]) + 1, &err);
	HAS(err.msg, "(field trigger.reserved[1] = 0x100, ");
	c.trigger.reserved[1] = 0;
	c.cr3_pid = 4242;
	refuse_cfg(&c, EINVAL, PTSCOPE_R_RESERVED_NONZERO,
		   offsetof(struct ptscope_config, cr3_pid), &err);
	HAS(err.msg, "(field cr3_pid = 4242, ");
	c.cr3_pid = 0;
	/* an older module: the bytes past its struct, where ptscope sent 0 */
	refuse_cfg(&c, EINVAL, PTSCOPE_R_RESERVED_NONZERO, PTSCOPE_CONFIG_SIZE_VER0, &err);
	HAS(err.msg, "(bytes from offset 456 on (uprobe.fd), which this module does not know, ");
	refuse_cfg(&c, EINVAL, PTSCOPE_R_RESERVED_NONZERO, PTSCOPE_ARG_NO_FIELD, &err);
	HAS(err.msg, "(the RTIT_CTL the module computed, no field of the call, ");
	refuse_cfg(&c, EINVAL, PTSCOPE_R_RESERVED_NONZERO,
		   offsetof(struct ptscope_hdr, reason_arg), &err);
	HAS(err.msg, "(field hdr.reason_arg, which must be 0 on input, ");
	/* START's struct */
	memset(&cmd, 0, sizeof(cmd));
	cmd.hdr.size = sizeof(cmd);
	cmd.hdr.reason = PTSCOPE_R_RESERVED_NONZERO;
	cmd.hdr.reason_arg = offsetof(struct ptscope_cmd, reserved[1]);
	cmd.reserved[1] = 7;
	pts_dev_refusal("START", EINVAL, &cmd.hdr, &err);
	HAS(err.msg, "START refused: ");
	HAS(err.msg, "(field reserved[1] = 0x7, ");
	/* an offset past the struct sent names nothing */
	cmd.hdr.reason_arg = sizeof(cmd) + 8;
	pts_dev_refusal("START", EINVAL, &cmd.hdr, &err);
	HASNT(err.msg, "(field");
	HASNT(err.msg, "offset");
}

PTS_SUITE(capture_reason_field, NULL, NULL,
	  PTS_TEST(bad_trigger_names_the_field_and_the_value_sent),
	  PTS_TEST(reserved_nonzero_names_the_field_or_the_bytes_the_module_does_not_know))
