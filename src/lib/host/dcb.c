/*
 * dcb.c - PFC settings over DCB netlink (see nicfit/dcb.h): one
 * RTM_GETDCB / DCB_CMD_IEEE_GET request, and a bounded walk of the reply's
 * attributes down to DCB_ATTR_IEEE_PFC (struct ieee_pfc).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nicfit/dcb.h"

#define NLA_HDR ((size_t)NLA_ALIGN(sizeof(struct nlattr)))

/* The attribute of type `type` among [p, p+len), or NULL. */
static const struct nlattr *find_attr(const unsigned char *p, size_t len, unsigned type,
				      size_t *plen)
{
	size_t off = 0;

	while (off + sizeof(struct nlattr) <= len) {
		const struct nlattr *a = (const struct nlattr *)(const void *)(p + off);
		size_t alen = a->nla_len;

		if (alen < sizeof(struct nlattr) || off + alen > len)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type) {
			*plen = alen - NLA_HDR;
			return a;
		}
		off += NLA_ALIGN(alen);
	}
	return NULL;
}

int nicfit_dcb_parse_reply(const void *msg, size_t len, struct nicfit_pfc *out)
{
	const unsigned char *p = msg;
	const struct nlmsghdr *h = msg;
	const struct nlattr *ieee, *pfc;
	struct ieee_pfc v;
	size_t alen, ilen;

	memset(out, 0, sizeof(*out));
	if (len < NLMSG_HDRLEN || h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > len)
		return -1;
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = (const struct nlmsgerr *)(const void *)(p + NLMSG_HDRLEN);

		if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
			return -1;
		if (e->error == -EOPNOTSUPP || e->error == -ENODEV || e->error == -EINVAL) {
			out->state = NICFIT_PFC_UNSUPPORTED;
			return 0;
		}
		return -1;
	}
	if (h->nlmsg_type != RTM_GETDCB || h->nlmsg_len < NLMSG_HDRLEN + sizeof(struct dcbmsg))
		return -1;
	p += NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct dcbmsg));
	len = h->nlmsg_len - NLMSG_HDRLEN - NLMSG_ALIGN(sizeof(struct dcbmsg));
	ieee = find_attr(p, len, DCB_ATTR_IEEE, &ilen);
	if (!ieee) {
		out->state = NICFIT_PFC_UNSUPPORTED;
		return 0;
	}
	pfc = find_attr((const unsigned char *)ieee + NLA_HDR, ilen, DCB_ATTR_IEEE_PFC, &alen);
	if (!pfc) {
		out->state = NICFIT_PFC_UNSUPPORTED; /* the driver has no ieee_getpfc */
		return 0;
	}
	if (alen < offsetof(struct ieee_pfc, mbc))
		return -1;
	memset(&v, 0, sizeof(v));
	memcpy(&v, (const unsigned char *)pfc + NLA_HDR, alen < sizeof(v) ? alen : sizeof(v));
	out->state = NICFIT_PFC_READ;
	out->pfc_cap = v.pfc_cap;
	out->pfc_en = v.pfc_en;
	return 0;
}

int nicfit_dcb_pfc(const char *ifname, struct nicfit_pfc *out, struct nicfit_error *err)
{
	struct {
		struct nlmsghdr h;
		struct dcbmsg d;
		unsigned char attrs[64];
	} req;
	unsigned char buf[16384];
	struct sockaddr_nl sa;
	struct timeval tv = { 1, 0 };
	struct nlattr *a;
	size_t nl = strlen(ifname) + 1;
	ssize_t n;
	int fd, rc = -1;

	memset(out, 0, sizeof(*out));
	if (nl > 16)
		return nicfit_error_set(err, NICFIT_E_USAGE, "interface name too long");
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return nicfit_error_set(err, NICFIT_E_IO, "netlink: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_type = RTM_GETDCB;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.h.nlmsg_seq = 1;
	req.d.dcb_family = AF_UNSPEC;
	req.d.cmd = DCB_CMD_IEEE_GET;
	a = (struct nlattr *)(void *)req.attrs;
	a->nla_type = DCB_ATTR_IFNAME;
	a->nla_len = (unsigned short)(NLA_HDR + nl);
	memcpy(req.attrs + NLA_HDR, ifname, nl);
	req.h.nlmsg_len = (unsigned)(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct dcbmsg)) +
				     NLA_ALIGN(a->nla_len));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = nicfit_error_set(err, NICFIT_E_IO, "netlink: %s", strerror(errno));
		goto out;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		rc = nicfit_error_set(err, NICFIT_E_IO, "netlink: %s", strerror(errno));
		goto out;
	}
	if (nicfit_dcb_parse_reply(buf, (size_t)n, out)) {
		rc = nicfit_error_set(err, NICFIT_E_IO, "netlink: unexpected DCB reply for %s", ifname);
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

int nicfit_dcb_format(const struct nicfit_pfc *p, char *out, size_t cap)
{
	int n;

	if (p->state == NICFIT_PFC_UNSUPPORTED)
		n = snprintf(out, cap, "unsupported\n");
	else if (p->state == NICFIT_PFC_READ)
		n = snprintf(out, cap, "pfc_cap=%u pfc_en=0x%02x\n", p->pfc_cap & 0xff, p->pfc_en & 0xff);
	else
		return -1;
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int nicfit_dcb_parse_file(const char *text, struct nicfit_pfc *out)
{
	unsigned cap, en;
	int used = 0;

	memset(out, 0, sizeof(*out));
	if (!strcmp(text, "unsupported") || !strcmp(text, "unsupported\n")) {
		out->state = NICFIT_PFC_UNSUPPORTED;
		return 0;
	}
	if (sscanf(text, "pfc_cap=%u pfc_en=0x%2x%n", &cap, &en, &used) != 2 || cap > 8 ||
	    (text[used] && strcmp(text + used, "\n")))
		return -1;
	out->state = NICFIT_PFC_READ;
	out->pfc_cap = cap;
	out->pfc_en = en;
	return 0;
}
