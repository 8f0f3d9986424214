/*
 * test_dcb.c - PFC from DCB netlink: replies built byte by byte as the
 * kernel sends them (dcbnl_ieee_fill), error replies, junk, the snapshot
 * file form, and one real query (a loopback interface has no DCB).
 */
#include "unit.h"

#include <errno.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nicfit/dcb.h"

static size_t put_attr(unsigned char *p, unsigned type, const void *data, size_t len)
{
	struct nlattr a;

	a.nla_type = (unsigned short)type;
	a.nla_len = (unsigned short)(NLA_HDRLEN + len);
	memcpy(p, &a, sizeof(a));
	if (len)
		memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, NLA_ALIGN(a.nla_len) - a.nla_len);
	return NLA_ALIGN(a.nla_len);
}

/* A DCB_CMD_IEEE_GET reply; with_pfc 0 leaves DCB_ATTR_IEEE_PFC out. */
static size_t reply(unsigned char *buf, int with_pfc, unsigned en)
{
	struct nlmsghdr h;
	struct dcbmsg d;
	struct ieee_pfc pfc;
	struct ieee_ets ets;
	unsigned char nest[512];
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(d)), n = 0;

	memset(&d, 0, sizeof(d));
	d.cmd = DCB_CMD_IEEE_GET;
	memcpy(buf + NLMSG_HDRLEN, &d, sizeof(d));
	off += put_attr(buf + off, DCB_ATTR_IFNAME, "ens3f0", 7);
	memset(&ets, 0, sizeof(ets));
	n += put_attr(nest + n, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
	if (with_pfc) {
		memset(&pfc, 0, sizeof(pfc));
		pfc.pfc_cap = 8;
		pfc.pfc_en = (unsigned char)en;
		n += put_attr(nest + n, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
	}
	off += put_attr(buf + off, DCB_ATTR_IEEE | NLA_F_NESTED, nest, n);
	memset(&h, 0, sizeof(h));
	h.nlmsg_type = RTM_GETDCB;
	h.nlmsg_len = (unsigned)off;
	memcpy(buf, &h, sizeof(h));
	return off;
}

static void replies(void **state)
{
	unsigned char buf[2048];
	struct nicfit_pfc p;
	size_t n, cut;

	(void)state;
	n = reply(buf, 1, 0x08);
	assert_int_equal(nicfit_dcb_parse_reply(buf, n, &p), 0);
	assert_int_equal(p.state, NICFIT_PFC_READ);
	assert_int_equal(p.pfc_cap, 8);
	assert_int_equal(p.pfc_en, 0x08);
	n = reply(buf, 1, 0);
	assert_int_equal(nicfit_dcb_parse_reply(buf, n, &p), 0);
	assert_int_equal(p.pfc_en, 0);
	n = reply(buf, 0, 0);
	assert_int_equal(nicfit_dcb_parse_reply(buf, n, &p), 0);
	assert_int_equal(p.state, NICFIT_PFC_UNSUPPORTED);
	/* every truncation is refused or read safely, never past the end */
	n = reply(buf, 1, 0x08);
	for (cut = 0; cut < n; cut++)
		if (nicfit_dcb_parse_reply(buf, cut, &p) == 0)
			assert_true(p.state != NICFIT_PFC_READ || p.pfc_en == 0x08);
}

static void errors(void **state)
{
	unsigned char buf[64];
	struct nlmsghdr h;
	struct nlmsgerr e;
	struct nicfit_pfc p;

	(void)state;
	memset(&h, 0, sizeof(h));
	memset(&e, 0, sizeof(e));
	h.nlmsg_type = NLMSG_ERROR;
	h.nlmsg_len = (unsigned)(NLMSG_HDRLEN + sizeof(e));
	e.error = -EOPNOTSUPP;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + NLMSG_HDRLEN, &e, sizeof(e));
	assert_int_equal(nicfit_dcb_parse_reply(buf, h.nlmsg_len, &p), 0);
	assert_int_equal(p.state, NICFIT_PFC_UNSUPPORTED);
	e.error = -EPERM;
	memcpy(buf + NLMSG_HDRLEN, &e, sizeof(e));
	assert_int_equal(nicfit_dcb_parse_reply(buf, h.nlmsg_len, &p), -1);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(nicfit_dcb_parse_reply(buf, sizeof(buf), &p), -1);
	assert_int_equal(nicfit_dcb_parse_reply(buf, 3, &p), -1);
}

static void file_form(void **state)
{
	struct nicfit_pfc p = { NICFIT_PFC_READ, 8, 0x08 }, q;
	char s[64];

	(void)state;
	assert_int_equal(nicfit_dcb_format(&p, s, sizeof(s)), 0);
	assert_string_equal(s, "pfc_cap=8 pfc_en=0x08\n");
	assert_int_equal(nicfit_dcb_parse_file(s, &q), 0);
	assert_int_equal(q.pfc_en, 0x08);
	assert_int_equal(nicfit_dcb_parse_file("pfc_cap=8 pfc_en=0x08", &q), 0);
	assert_int_equal(nicfit_dcb_parse_file("unsupported", &q), 0);
	assert_int_equal(q.state, NICFIT_PFC_UNSUPPORTED);
	assert_int_equal(nicfit_dcb_parse_file("pfc_en=0x08", &q), -1);
	assert_int_equal(nicfit_dcb_parse_file("pfc_cap=9 pfc_en=0x08", &q), -1);
	assert_int_equal(nicfit_dcb_parse_file("pfc_cap=8 pfc_en=0x08 extra", &q), -1);
	p.state = NICFIT_PFC_UNKNOWN;
	assert_int_equal(nicfit_dcb_format(&p, s, sizeof(s)), -1);
}

static void live_loopback(void **state)
{
	struct nicfit_pfc p;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	/* a loopback device has no DCB: the kernel says so (or netlink is closed to us) */
	if (nicfit_dcb_pfc("lo", &p, &err) == 0)
		assert_int_equal(p.state, NICFIT_PFC_UNSUPPORTED);
	else
		assert_int_equal(err.code, NICFIT_E_IO);
	assert_int_equal(nicfit_dcb_pfc("an-interface-name-far-too-long", &p, &err), NICFIT_E_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replies),
		cmocka_unit_test(errors),
		cmocka_unit_test(file_form),
		cmocka_unit_test(live_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
