/*
 * cluster_portmap.c - the names of endpoints and ports ("be-p1-spine03",
 * "swp17s2") and the port map as CSV, written straight into a large
 * buffer from the walk: a port map of hundreds of thousands of rows is
 * written without a printf per field. Its rows end in LF, as every CSV
 * nicfit writes (docs/formats.md). The walked networks come first, then
 * the storage network's links and the front end's border and MLAG peer
 * links, which are named by count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_int.h"

/* ---- names ------------------------------------------------------------------- */

/* Append s; returns the new end. */
static char *put(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* Append v in decimal, zero-padded to width. */
static char *put_num(char *p, long v, int width)
{
	char tmp[24];
	int n = 0;

	if (v < 0) {
		*p++ = '-';
		v = -v;
	}
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (width-- > n)
		*p++ = '0';
	while (n)
		*p++ = tmp[--n];
	return p;
}

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
		return put_num(put(p, "st-leaf"), j + 1, name_width(nl));
	if (j < nl + ns)
		return put_num(put(p, "st-spine"), j - nl + 1, name_width(ns));
	if (j < c->impl->nx)
		return put_num(put(p, "fe-border"), j - nl - ns + 1, name_width(c->border.switches));
	return put_num(put(p, "stor"), j - c->impl->nx + 1, name_width(c->in.storage.servers));
}

/* Write endpoint id's name at p (room for 48 bytes); returns the end. */
static char *put_endpoint(const struct nicfit_cluster *c, char *p, long id)
{
	enum nicfit_net n;
	enum nicfit_tier t;
	int plane;
	long idx;

	if (id < c->in.nodes)
		return put_num(put(p, "node"), id + 1, c->impl->node_digits);
	if (cl_is_extra(c, id) || cl_is_server(c, id))
		return put_extra(c, p, id - c->in.nodes - c->impl->xbase);
	nicfit__cluster_switch_of(c, id - c->in.nodes, &n, &plane, &t, &idx);
	p = put(p, net_prefix[n]);
	if (c->net[n].planes > 1) {
		p = put(p, "-p");
		p = put_num(p, plane, 1);
	}
	*p++ = '-';
	p = put(p, nicfit_tier_name(t));
	return put_num(p, idx + 1, c->impl->net[n].digits[t]);
}

static char *put_port(const struct nicfit_cluster *c, char *p, enum nicfit_net n, long id,
		      int port, int lane)
{
	if (n == NICFIT_NET_OOB && cl_is_server(c, id))
		return put(p, "bmc");
	if (id < c->in.nodes) {
		if (n == NICFIT_NET_OOB)
			return put(p, "bmc");
		if (n == NICFIT_NET_FRONTEND)
			return put_num(put(p, "fe"), port, 1);
		if (c->in.nic_ports > 1) {
			p = put_num(put(p, "nic"), port / c->in.nic_ports, 1);
			return put_num(put(p, "p"), port % c->in.nic_ports, 1);
		}
		return put_num(put(p, "nic"), port, 1);
	}
	if (port < 0)
		return put(p, "mgmt");
	p = put_num(put(p, "swp"), port + 1, 1);
	if (lane >= 0)
		p = put_num(put(p, "s"), lane, 1);
	return p;
}

size_t nicfit_cluster_endpoint_name(const struct nicfit_cluster *c, long id, char *out, size_t n)
{
	char tmp[64], *e;
	size_t len;

	if (!n)
		return 0;
	if (!c || !c->impl || id < 0 ||
	    (id >= c->in.nodes + c->impl->nsw && !cl_is_extra(c, id) && !cl_is_server(c, id))) {
		out[0] = '\0';
		return 0;
	}
	e = put_endpoint(c, tmp, id);
	*e = '\0';
	len = (size_t)(e - tmp);
	snprintf(out, n, "%s", tmp);
	return len;
}

/* ---- the CSV port map ---------------------------------------------------------- */

/* CSV as docs/formats.md has it for every command: a header row, LF line ends. */

#define CSV_BUF (1u << 20)
/* Room one row needs: two endpoint names (48 bytes each), two ports, a
 * cable label (struct cl_kit's 200 bytes) and four short numbers. */
#define CSV_ROW_MAX 1024

struct csvw {
	const struct nicfit_cluster *c;
	nicfit_cluster_write_fn write;
	void *ctx;
	char *buf;
	size_t len;
	long rows;
	int failed;
};

static int csv_flush(struct csvw *w)
{
	if (w->len && !w->failed && w->write(w->ctx, w->buf, w->len))
		w->failed = 1;
	w->len = 0;
	return w->failed;
}

static int csv_row(void *ctx, const struct nicfit_cluster_link *l)
{
	struct csvw *w = ctx;
	char *p;
	long tenths;

	if (w->len > CSV_BUF - CSV_ROW_MAX && csv_flush(w))
		return NICFIT_E_IO;
	p = w->buf + w->len;
	p = put(p, nicfit_net_name(l->net));
	*p++ = '-';
	switch (l->level) {
	case NICFIT_LINK_HOST:
		p = put(p, l->net == NICFIT_NET_OOB ? "bmc" : "host");
		break;
	case NICFIT_LINK_MGMT:
		p = put(p, "mgmt");
		break;
	default:
		p = put(p, nicfit_link_level_name(l->level));
		break;
	}
	*p++ = ',';
	p = put_endpoint(w->c, p, l->a);
	*p++ = ',';
	p = put_port(w->c, p, l->net, l->a, l->port_a, l->lane_a);
	*p++ = ',';
	p = put_endpoint(w->c, p, l->b);
	*p++ = ',';
	p = put_port(w->c, p, l->net, l->b, l->port_b, l->lane_b);
	*p++ = ',';
	p = put(p, l->cable);
	*p++ = ',';
	tenths = lround(l->length_m * 10);
	p = put_num(p, tenths / 10, 1);
	*p++ = '.';
	p = put_num(p, tenths % 10, 1);
	*p++ = ',';
	if (l->plane >= 0)
		p = put_num(p, l->plane, 1);
	*p++ = ',';
	if (l->rail >= 0)
		p = put_num(p, l->rail, 1);
	*p++ = '\n';
	w->len = (size_t)(p - w->buf);
	w->rows++;
	return 0;
}

/* A row of the storage network or the border (cluster_storage.c, cluster_border.c), named
 * by count. */
static int csv_storage_row(void *ctx, const struct cl_slink *l)
{
	struct csvw *w = ctx;
	char *p;
	long tenths;
	int host = l->level == NICFIT_LINK_HOST;

	if (w->len > CSV_BUF - CSV_ROW_MAX && csv_flush(w))
		return NICFIT_E_IO;
	p = w->buf + w->len;
	p = put(p, l->type);
	*p++ = ',';
	p = put(p, l->a);
	*p++ = ',';
	p = host ? put_num(put(p, "st"), l->port_a, 1) : put_num(put(p, "swp"), l->port_a + 1, 1);
	*p++ = ',';
	p = put(p, l->b);
	*p++ = ',';
	p = put_num(put(p, "swp"), l->port_b + 1, 1);
	if (l->lane_b >= 0)
		p = put_num(put(p, "s"), l->lane_b, 1);
	*p++ = ',';
	p = put(p, l->cable);
	*p++ = ',';
	tenths = lround(l->length_m * 10);
	p = put_num(p, tenths / 10, 1);
	*p++ = '.';
	p = put_num(p, tenths % 10, 1);
	p = put(p, ",,\n");
	w->len = (size_t)(p - w->buf);
	w->rows++;
	return 0;
}

int nicfit_cluster_write_port_map(const struct nicfit_cluster *c, nicfit_cluster_write_fn write,
				  void *ctx, long *rows, struct nicfit_error *err)
{
	static const char header[] =
		"link_type,endpoint_a,port_a,endpoint_b,port_b,cable,length_m,plane,rail\n";
	struct csvw w;
	int rc;

	memset(&w, 0, sizeof(w));
	w.c = c;
	w.write = write;
	w.ctx = ctx;
	w.buf = malloc(CSV_BUF);
	if (!w.buf)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	memcpy(w.buf, header, sizeof(header) - 1);
	w.len = sizeof(header) - 1;
	rc = nicfit_cluster_walk(c, csv_row, &w);
	if (!rc)
		rc = nicfit__cluster_storage_walk(c, csv_storage_row, &w);
	if (!rc)
		rc = nicfit__cluster_border_walk(c, csv_storage_row, &w);
	if (!rc)
		csv_flush(&w);
	free(w.buf);
	if (rows)
		*rows = w.rows;
	if (rc == NICFIT_E_NOMEM)
		return nicfit_error_set(err, rc, "out of memory");
	if (rc || w.failed)
		return nicfit_error_set(err, NICFIT_E_IO, "cannot write the port map");
	return 0;
}
