/*
 * cluster_name.c - the names of endpoints and ports in a port map
 * ("node0007", "be-p1-spine03", "fe-border02", "nic3p1", "swp17s2"),
 * written with the append helpers of cluster_int.h rather than printf,
 * since the port map names two endpoints and two ports a row. The names
 * follow nicfit/cluster.h; the port map itself is cluster_portmap.c's,
 * and the border walk names its switches here too.
 */
#include <stdio.h>

#include "cluster/cluster_int.h"

static const char *const net_prefix[] = { "be", "fe", "oob" };

/* Digits of a storage or border name: as the storage and border walks name them. */
static int name_width(long n)
{
	int d = digits(n > 0 ? n : 1);

	return d < 2 ? 2 : d;
}

/* The name of the j-th switch from xbase (storage leaves, storage spines, border switches)
 * or, past them, of a storage server, as the storage and border walks name them. */
static char *put_extra(const struct nicfit_cluster *c, char *p, long j)
{
	const struct nicfit_cluster_storage *st = &c->storage;
	long nl = st->enabled ? st->leaves : 0, ns = st->enabled ? st->spines : 0;

	if (j < nl)
		return cl_put_num(cl_put(p, "st-leaf"), j + 1, name_width(nl));
	if (j < nl + ns)
		return cl_put_num(cl_put(p, "st-spine"), j - nl + 1, name_width(ns));
	if (j < c->impl->nx)
		return cl_put_num(cl_put(p, "fe-border"), j - nl - ns + 1, name_width(c->border.switches));
	return cl_put_num(cl_put(p, "stor"), j - c->impl->nx + 1, name_width(c->in.storage.servers));
}

/* Write endpoint id's name at p (room for 48 bytes); returns the end. */
char *nicfit__cluster_put_endpoint(const struct nicfit_cluster *c, char *p, long id)
{
	enum nicfit_net n;
	enum nicfit_tier t;
	int plane;
	long idx;

	if (id < c->in.nodes)
		return cl_put_num(cl_put(p, "node"), id + 1, c->impl->node_digits);
	if (cl_is_rackdev(c, id)) {
		long j = id - c->in.nodes - c->impl->xbase - c->impl->nx - c->impl->nservers;

		return cl_put_num(cl_put(p, "nvsw"), j + 1, name_width(c->impl->nrackdev));
	}
	if (cl_is_extra(c, id) || cl_is_server(c, id))
		return put_extra(c, p, id - c->in.nodes - c->impl->xbase);
	nicfit__cluster_switch_of(c, id - c->in.nodes, &n, &plane, &t, &idx);
	p = cl_put(p, net_prefix[n]);
	if (c->net[n].planes > 1) {
		p = cl_put(p, "-p");
		p = cl_put_num(p, plane, 1);
	}
	*p++ = '-';
	p = cl_put(p, nicfit_tier_name(t));
	return cl_put_num(p, idx + 1, c->impl->net[n].digits[t]);
}

char *nicfit__cluster_put_port(const struct nicfit_cluster *c, char *p, enum nicfit_net n, long id,
			       int port, int lane)
{
	if (n == NICFIT_NET_OOB && cl_is_bmc(c, id))
		return cl_put(p, "bmc");
	if (id < c->in.nodes) {
		if (n == NICFIT_NET_OOB)
			return cl_put(p, "bmc");
		if (n == NICFIT_NET_FRONTEND)
			return cl_put_num(cl_put(p, "fe"), port, 1);
		if (c->in.nic_ports > 1) {
			p = cl_put_num(cl_put(p, "nic"), port / c->in.nic_ports, 1);
			return cl_put_num(cl_put(p, "p"), port % c->in.nic_ports, 1);
		}
		return cl_put_num(cl_put(p, "nic"), port, 1);
	}
	if (port < 0)
		return cl_put(p, "mgmt");
	p = cl_put_num(cl_put(p, "swp"), port + 1, 1);
	if (lane >= 0)
		p = cl_put_num(cl_put(p, "s"), lane, 1);
	return p;
}

size_t nicfit_cluster_endpoint_name(const struct nicfit_cluster *c, long id, char *out, size_t n)
{
	char tmp[64], *e;
	size_t len;

	if (!n)
		return 0;
	if (!c || !c->impl || id < 0 ||
	    (id >= c->in.nodes + c->impl->nsw && !cl_is_extra(c, id) && !cl_is_bmc(c, id))) {
		out[0] = '\0';
		return 0;
	}
	e = nicfit__cluster_put_endpoint(c, tmp, id);
	*e = '\0';
	len = (size_t)(e - tmp);
	snprintf(out, n, "%s", tmp);
	return len;
}
