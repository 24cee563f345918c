// SPDX-License-Identifier: GPL-2.0
/*
 * A refused ioctl says the value the module refused only where the module
 * sets one (docs/abi.md: reason_arg is "the refused value, or the CPU
 * concerned", for some reasons only). Before, every refusal printed
 * reason_arg as "value N", so most read "(value 0, Invalid argument)".
 * The options a refused CONFIGURE names: test_cli_options.c.
 */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "capture/device.h"
#include "capture/reason_value.h"

static struct pts_err err;

static const char *refused(const char *what, int e, uint32_t reason, uint64_t arg)
{
	struct ptscope_hdr hdr = { .reason = reason, .reason_arg = arg };

	pts_err_clear(&err);
	pts_dev_refusal(what, e, &hdr, &err);
	return err.msg;
}

#define HAS(msg, s) CU_ASSERT_PTR_NOT_NULL(strstr((msg), (s)))
#define HASNT(msg, s) CU_ASSERT_PTR_NULL(strstr((msg), (s)))

static void reasons_without_a_value_print_none(void)
{
	/* the module sets no reason_arg for these: "value 0" was nobody's value */
	HASNT(refused("TRIGGER", EINVAL, PTSCOPE_R_NOT_ARMED, 0), "value");
	HAS(err.msg, "TRIGGER refused: not armed (Invalid argument);");
	HASNT(refused("CONFIGURE", EOPNOTSUPP, PTSCOPE_R_NO_MTC, 0), "value");
	HASNT(refused("CONFIGURE", EPERM, PTSCOPE_R_NEED_CAP_ADMIN, 0), "value");
	HASNT(refused("CONFIGURE", EINVAL, PTSCOPE_R_TRACEPOINT_NOT_FOUND, 0), "value");
	HASNT(refused("START", EBUSY, PTSCOPE_R_ARMED, 0), "value");
	/* CONFIGURE's "no online CPU" has 0, which is no CPU (CPU 0 always exists) */
	HASNT(refused("CONFIGURE", EINVAL, PTSCOPE_R_BAD_CPU_MASK, 0), "0");
}

static void reasons_with_a_value_say_what_it_is(void)
{
	HAS(refused("CONFIGURE", EINVAL, PTSCOPE_R_BAD_CPU_MASK, 7), "(CPU 7, Invalid argument)");
	/* START's is the CPU that went offline, CPU 0 included */
	HAS(refused("START", EINVAL, PTSCOPE_R_BAD_CPU_MASK, 0), "(CPU 0, Invalid argument)");
	HAS(refused("START", EBUSY, PTSCOPE_R_TRACE_EN_BUSY, 3), "(CPU 3, Device or resource busy)");
	HAS(refused("START", EBUSY, PTSCOPE_R_LBR_ACTIVE, 1), "(CPU 1, Device or resource busy)");
	HAS(refused("START", EBUSY, PTSCOPE_R_LBR_ACTIVE, 1), "IA32_DEBUGCTL.LBR is set");
	HAS(refused("START", EBUSY, PTSCOPE_R_BTS_ACTIVE, 0), "(CPU 0, Device or resource busy)");
	HAS(refused("START", EBUSY, PTSCOPE_R_BTS_ACTIVE, 0), "-C/--cpus");
	HAS(refused("CONFIGURE", ESRCH, PTSCOPE_R_NO_SUCH_PID, 4242), "(pid 4242,");
	HAS(refused("CONFIGURE", EPERM, PTSCOPE_R_BUFFER_LIMIT, 1 << 20), "(limit 1 MiB,");
	HAS(refused("CONFIGURE", EBUSY, PTSCOPE_R_HOTKEY_UNAVAILABLE, 'x'), "(key x,");
	HAS(refused("CONFIGURE", EINVAL, PTSCOPE_R_BAD_FLAGS, 0x40), "(bits 0x40,");
	/* the kernel's ENOTSUPP has no strerror text in user space */
	HAS(refused("CONFIGURE", EINVAL, PTSCOPE_R_UPROBE_REFUSED, 524), "(errno 524, ENOTSUPP,");
}

PTS_SUITE(capture_reason_value, NULL, NULL,
	  PTS_TEST(reasons_without_a_value_print_none),
	  PTS_TEST(reasons_with_a_value_say_what_it_is))
