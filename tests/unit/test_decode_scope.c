// SPDX-License-Identifier: GPL-2.0
/*
 * The scope a raw trace shows (decode/scope_infer.h), from libipt-encoded
 * packet streams. Answers by hand from the SDM's IP compression rules
 * (§33.4.2.2: IPBytes 001b/010b/100b replace the low 16/32/48 bits of the
 * last IP, 011b is a sign-extended 48-bit IP, 110b a full one; PSB resets
 * the last IP) and the canonical halves (bit 63 set: kernel).
 */
#include "unit.h"
#include "pt_gen.h"
#include "decode/scope_infer.h"

#define KERNEL_IP 0xffffffff81000000ULL
#define USER_IP 0x401000ULL

static void scan(struct pt_gen *g, struct pts_scope_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	CU_ASSERT_EQUAL(pts_scope_scan(g->buf, gen_len(g), NULL, ev), 0);
	gen_done(g);
}

/*
 * FUP at a kernel IP, then a TIP whose 16-bit update keeps the upper bits
 * of that IP: 0xffffffff81001234, kernel. Read as a bare IP (0x1234) it
 * would be user space.
 */
static void compressed_ips_keep_the_upper_bits_of_the_last_ip(void)
{
	struct pts_scope_evidence ev;
	struct pt_gen g;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_fup, KERNEL_IP);
	gen_ip_ipc(&g, ppt_tip, pt_ipc_update_16, 0x1234);
	gen_ip_ipc(&g, ppt_tip, pt_ipc_update_32, 0x81005678);
	scan(&g, &ev);
	CU_ASSERT_EQUAL(ev.kernel_ips, 3);
	CU_ASSERT_EQUAL(ev.user_ips, 0);
	CU_ASSERT_EQUAL(ev.psbs, 1);
}

/*
 * A TIP.PGD's IP is where tracing went off (code not traced): a user-only
 * trace whose disable names a kernel address is still user only.
 */
static void disable_target_is_not_traced_code(void)
{
	struct pts_scope_evidence ev;
	enum pts_scope scope;
	char why[128];
	struct pt_gen g;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, USER_IP);
	gen_ip(&g, ppt_tip_pgd, KERNEL_IP);
	gen_ip(&g, ppt_tip_pge, USER_IP + 0x10);
	scan(&g, &ev);
	CU_ASSERT_EQUAL(ev.user_ips, 2);
	CU_ASSERT_EQUAL(ev.kernel_ips, 0);
	CU_ASSERT_EQUAL(ev.pge, 2);
	CU_ASSERT_EQUAL(ev.pgd, 1);
	CU_ASSERT_TRUE(pts_scope_decide(&ev, &scope, why, sizeof(why)));
	CU_ASSERT_EQUAL(scope, PTS_SCOPE_USER);
}

/* After a PSB the last IP is gone: an update then has no base and counts for nothing. */
static void update_without_a_base_after_psb_counts_for_nothing(void)
{
	struct pts_scope_evidence ev;
	struct pt_gen g;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_fup, KERNEL_IP);
	gen_psb_plus(&g, 0x2000);
	gen_ip_ipc(&g, ppt_tip, pt_ipc_update_16, 0x1234);
	scan(&g, &ev);
	CU_ASSERT_EQUAL(ev.kernel_ips, 1);
	CU_ASSERT_EQUAL(ev.user_ips, 0);
	CU_ASSERT_EQUAL(ev.psbs, 2);
}

/* Bytes before the first PSB are not read (a wrapped ring starts mid-packet). */
static void bytes_before_the_first_psb_are_not_read(void)
{
	struct pts_scope_evidence ev;
	struct pt_gen g;

	gen_init(&g);
	gen_ip(&g, ppt_tip, KERNEL_IP);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, USER_IP);
	scan(&g, &ev);
	CU_ASSERT_EQUAL(ev.kernel_ips, 0);
	CU_ASSERT_EQUAL(ev.user_ips, 1);
}

/* No IP of traced code: nothing decodes in any scope; user, and why names --scope. */
static void trace_without_addresses_shows_no_scope(void)
{
	struct pts_scope_evidence ev;
	enum pts_scope scope = 0;
	char why[128];
	struct pt_gen g;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	scan(&g, &ev);
	CU_ASSERT_FALSE(pts_scope_decide(&ev, &scope, why, sizeof(why)));
	CU_ASSERT_EQUAL(scope, PTS_SCOPE_USER);
	CU_ASSERT_STRING_EQUAL(why, "no address of traced code in the trace: user assumed, "
			       "give --scope to say otherwise");
	memset(&ev, 0, sizeof(ev));
	CU_ASSERT_FALSE(pts_scope_decide(&ev, &scope, why, sizeof(why)));
	CU_ASSERT_STRING_EQUAL(why, "no PSB in the trace: user assumed, give --scope to say "
			       "otherwise");
}

PTS_SUITE(decode_scope, NULL, NULL,
	  PTS_TEST(compressed_ips_keep_the_upper_bits_of_the_last_ip),
	  PTS_TEST(disable_target_is_not_traced_code),
	  PTS_TEST(update_without_a_base_after_psb_counts_for_nothing),
	  PTS_TEST(bytes_before_the_first_psb_are_not_read),
	  PTS_TEST(trace_without_addresses_shows_no_scope));
