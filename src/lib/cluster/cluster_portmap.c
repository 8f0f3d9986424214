/*
 * cluster_portmap.c - the port map as CSV, written straight into a large
 * buffer from the walk, with the endpoint and port names of
 * cluster_name.c: a port map of hundreds of thousands of rows is written
 * without a printf per field. Its rows end in LF, as every CSV
 * nicfit writes (docs/formats.md). The walked networks come first, then
 * the storage network's links and the front end's border and MLAG peer
 * links, which are named by count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_int.h"

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
	p = cl_put(p, nicfit_net_name(l->net));
	*p++ = '-';
	switch (l->level) {
	case NICFIT_LINK_HOST:
		p = cl_put(p, l->net == NICFIT_NET_OOB ? "bmc" : "host");
		break;
	case NICFIT_LINK_MGMT:
		p = cl_put(p, "mgmt");
		break;
	default:
		p = cl_put(p, nicfit_link_level_name(l->level));
		break;
	}
	*p++ = ',';
	p = nicfit__cluster_put_endpoint(w->c, p, l->a);
	*p++ = ',';
	p = nicfit__cluster_put_port(w->c, p, l->net, l->a, l->port_a, l->lane_a);
	*p++ = ',';
	p = nicfit__cluster_put_endpoint(w->c, p, l->b);
	*p++ = ',';
	p = nicfit__cluster_put_port(w->c, p, l->net, l->b, l->port_b, l->lane_b);
	*p++ = ',';
	p = cl_put(p, l->cable);
	*p++ = ',';
	tenths = lround(l->length_m * 10);
	p = cl_put_num(p, tenths / 10, 1);
	*p++ = '.';
	p = cl_put_num(p, tenths % 10, 1);
	*p++ = ',';
	if (l->plane >= 0)
		p = cl_put_num(p, l->plane, 1);
	*p++ = ',';
	if (l->rail >= 0)
		p = cl_put_num(p, l->rail, 1);
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
	p = cl_put(p, l->type);
	*p++ = ',';
	p = cl_put(p, l->a);
	*p++ = ',';
	p = host ? cl_put_num(cl_put(p, "st"), l->port_a, 1) : cl_put_num(cl_put(p, "swp"), l->port_a + 1, 1);
	*p++ = ',';
	p = cl_put(p, l->b);
	*p++ = ',';
	p = cl_put_num(cl_put(p, "swp"), l->port_b + 1, 1);
	if (l->lane_b >= 0)
		p = cl_put_num(cl_put(p, "s"), l->lane_b, 1);
	*p++ = ',';
	p = cl_put(p, l->cable);
	*p++ = ',';
	tenths = lround(l->length_m * 10);
	p = cl_put_num(p, tenths / 10, 1);
	*p++ = '.';
	p = cl_put_num(p, tenths % 10, 1);
	p = cl_put(p, ",,\n");
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
