/*
 * dump_cpu.c - NUMA nodes and sockets from numactl -H, lscpu (plain, -e,
 * -p) and /proc/cpuinfo (see dump_int.h).
 *
 * lspci names the NUMA node of each function but not the socket of each
 * node, and the audit lays devices out and counts cross-socket traffic
 * by socket. A support engineer reads the socket of a node off the CPUs
 * it holds: numactl -H and lscpu list each node's CPUs; lscpu -e and -p
 * give each CPU's node and socket, /proc/cpuinfo each CPU's "physical
 * id". A node's socket is that of its lowest CPU, as sysfs discovery
 * takes the physical_package_id of the node's first CPU. Where only
 * lscpu's counts are there, one socket means every node is on it, and as
 * many sockets as nodes with CPUs means each such node is a socket of
 * its own (numbered in node order, which the reader is told). Nothing
 * else is inferred: a node whose socket no line gives stays unknown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dump/dump_int.h"
#include "nicfit/units.h"

#define CPU_MAX_ID (DUMP_MAX_CPUS - 1)

enum { CPU_NONE, CPU_DIST_HEAD, CPU_DIST, CPU_TABLE_E, CPU_TABLE_P };

static struct dump_node *node_of(struct nicfit_dump *d, long id, struct dump_at at)
{
	struct dump_cpu *c = &d->cpu;
	int i;

	if (id < 0 || id >= NICFIT_TOPO_MAX_NUMA)
		return NULL;
	for (i = 0; i < c->nnodes; i++)
		if (c->node[i].id == id)
			return &c->node[i];
	if (c->nnodes >= NICFIT_TOPO_MAX_NUMA)
		return NULL;
	memset(&c->node[c->nnodes], 0, sizeof(c->node[0]));
	c->node[c->nnodes].id = (int)id;
	c->node[c->nnodes].first_cpu = -1;
	c->node[c->nnodes].socket = -1;
	c->node[c->nnodes].sock_cpu = -1;
	c->node[c->nnodes].at = at;
	return &c->node[c->nnodes++];
}

/* The decimal number at s (after blanks); -1 none. */
static long dec_at(const char *s, const char **end)
{
	long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (nicfit_scan_dec(s, 0, CPU_MAX_ID, &v, end) != NICFIT_DEC_OK)
		return -1;
	return v;
}

/* The socket of one CPU, from a per-CPU listing. */
static void cpu_socket(struct nicfit_dump *d, long cpu, long sock)
{
	struct dump_cpu *c = &d->cpu;
	long i;

	if (cpu < 0 || cpu > CPU_MAX_ID || sock < 0 || sock > DUMP_MAX_SOCKET)
		return;
	if (!c->cpu_sock) {
		c->cpu_sock = malloc(DUMP_MAX_CPUS * sizeof(*c->cpu_sock));
		if (!c->cpu_sock) {
			d->oom = 1;
			return;
		}
		for (i = 0; i < DUMP_MAX_CPUS; i++)
			c->cpu_sock[i] = -1;
	}
	c->cpu_sock[cpu] = (short)sock;
}

/* A node's CPUs as numactl lists them ("0 1 2 3 8"), kept as a list of ranges. */
static void numactl_cpus(struct dump_node *n, const char *s)
{
	size_t len = 0;
	long prev = -2, start = -1, v;
	const char *e;
	int over = 0;

	n->have_cpus = 1;
	for (;;) {
		v = dec_at(s, &e);
		if (v < 0 || v <= prev) {
			v = -1;
		} else if (v == prev + 1) {
			prev = v;
			s = e;
			continue;
		}
		if (start >= 0) {
			int k = start == prev ? snprintf(n->cpulist + len, sizeof(n->cpulist) - len,
							 "%s%ld", len ? "," : "", start)
					      : snprintf(n->cpulist + len, sizeof(n->cpulist) - len,
							 "%s%ld-%ld", len ? "," : "", start, prev);

			if (k < 0 || (size_t)k >= sizeof(n->cpulist) - len)
				over = 1;
			else
				len += (size_t)k;
		}
		if (v < 0)
			break;
		if (n->first_cpu < 0)
			n->first_cpu = (int)v;
		start = prev = v;
		s = e;
	}
	if (over)
		n->cpulist[0] = '\0'; /* too long to keep whole: the first CPU is still known */
}

/* lscpu's "NUMA node0 CPU(s): 0-11,24-35" (an empty list is a node without CPUs). */
static void lscpu_cpus(struct dump_node *n, const char *s)
{
	unsigned long count;
	long first;

	while (*s == ' ' || *s == '\t')
		s++;
	n->have_cpus = 1;
	if (strlen(s) >= sizeof(n->cpulist) || nicfit_parse_cpulist(s, &count, &first))
		return;
	snprintf(n->cpulist, sizeof(n->cpulist), "%s", s);
	n->first_cpu = count ? (int)first : -1;
}

/* "node   0   1" opens numactl's distance table: the column ids. */
static int dist_head(struct dump_cpu *c, const char *s)
{
	const char *e;
	long v;

	if (strncmp(s, "node", 4))
		return 0;
	s += 4;
	c->ndist_ids = 0;
	while ((v = dec_at(s, &e)) >= 0 && c->ndist_ids < NICFIT_TOPO_MAX_NUMA) {
		c->dist_ids[c->ndist_ids++] = (int)v;
		s = e;
	}
	return c->ndist_ids > 0;
}

/* "  0:  10  21": one row of distances. */
static int dist_row(struct nicfit_dump *d, const char *s, struct dump_at at)
{
	struct dump_cpu *c = &d->cpu;
	struct dump_node *n;
	const char *e;
	long id = dec_at(s, &e), v;
	int k = 0;

	if (id < 0 || *e != ':')
		return 0;
	n = node_of(d, id, at);
	if (!n)
		return 1;
	s = e + 1;
	while (k < c->ndist_ids && (v = dec_at(s, &e)) >= 0) {
		n->dist_id[k] = c->dist_ids[k];
		n->dist[k++] = (int)v;
		s = e;
	}
	n->ndist = k;
	return 1;
}

/* The column of name in a header of lscpu -e (blanks) or -p (commas); -1 absent. */
static int column(const char *s, const char *name, char sep)
{
	int col = 0;
	size_t n = strlen(name);

	while (*s) {
		while (*s == sep || (sep == ' ' && *s == '\t'))
			s++;
		if (!*s)
			break;
		if (!strncasecmp(s, name, n) && (!s[n] || s[n] == sep || s[n] == '\t'))
			return col;
		while (*s && *s != sep && !(sep == ' ' && *s == '\t'))
			s++;
		col++;
	}
	return -1;
}

/* Field col of a row; -1 when not a decimal. */
static long field(const char *s, int col, char sep)
{
	const char *e;
	int k = 0;
	long v;

	while (*s == ' ' || *s == '\t')
		s++;
	while (k < col && *s) {
		if (sep == ' ') {
			while (*s && *s != ' ' && *s != '\t')
				s++;
			while (*s == ' ' || *s == '\t')
				s++;
		} else {
			while (*s && *s != sep)
				s++;
			if (*s)
				s++;
		}
		k++;
	}
	if (k < col || !*s || *s == sep)
		return -1;
	v = dec_at(s, &e);
	return v >= 0 && (!*e || *e == sep || *e == ' ' || *e == '\t') ? v : -1;
}

/* A row of lscpu -e or -p: a CPU, its node and its socket. */
static int table_row(struct nicfit_dump *d, const char *s, char sep, struct dump_at at)
{
	struct dump_cpu *c = &d->cpu;
	long cpu = field(s, c->col_cpu, sep);
	long node = c->col_node >= 0 ? field(s, c->col_node, sep) : -1;
	long sock = c->col_sock >= 0 ? field(s, c->col_sock, sep) : -1;
	struct dump_node *n;

	if (cpu < 0)
		return 0;
	if (sock > DUMP_MAX_SOCKET)
		sock = -1;
	cpu_socket(d, cpu, sock);
	if (node >= 0 && (n = node_of(d, node, at)) != NULL && sock >= 0 &&
	    (n->sock_cpu < 0 || cpu < n->sock_cpu)) {
		n->sock_cpu = (int)cpu;
		n->socket = (int)sock;
	}
	return 1;
}

/* A header of lscpu -e ("CPU NODE SOCKET CORE ...") or -p ("# CPU,Core,Socket,Node,..."). */
static int table_head(struct dump_cpu *c, const char *s)
{
	char sep = ' ';

	if (s[0] == '#') {
		s++;
		while (*s == ' ')
			s++;
		sep = ',';
	}
	if (strncmp(s, "CPU", 3) || (s[3] != sep && s[3] != '\t'))
		return 0;
	c->col_cpu = column(s, "CPU", sep);
	c->col_node = column(s, "NODE", sep);
	c->col_sock = column(s, "SOCKET", sep);
	if (c->col_sock < 0)
		return 0;
	c->mode = sep == ',' ? CPU_TABLE_P : CPU_TABLE_E;
	return 1;
}

/* The value after "key:" at s, or NULL when s does not start with key and a colon. */
static const char *after_key(const char *s, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(s, key, n))
		return NULL;
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == ':' ? s + 1 : NULL;
}

/* numactl -H's lines: "available:", "node N cpus|size|free:", "node distances:". */
static int numactl_line(struct nicfit_dump *d, const char *s, struct dump_at at)
{
	struct dump_cpu *c = &d->cpu;
	const char *e, *v;
	long id;

	if ((v = after_key(s, "available")) != NULL) {
		id = dec_at(v, &e);
		if (id < 0 || strncmp(e, " node", 5))
			return 0;
		c->nodes_count = (int)id;
		c->nodes_at = at;
		return 1;
	}
	if (strncmp(s, "node ", 5))
		return 0;
	if (after_key(s, "node distances")) {
		c->mode = CPU_DIST_HEAD;
		return 1;
	}
	id = dec_at(s + 5, &e);
	if (id < 0 || *e != ' ')
		return 0;
	if ((v = after_key(e + 1, "cpus")) != NULL) {
		struct dump_node *n = node_of(d, id, at);

		if (n) {
			n->at = at;
			numactl_cpus(n, v);
		}
		return 1;
	}
	return after_key(e + 1, "size") || after_key(e + 1, "free");
}

/* lscpu's "Socket(s):", "NUMA node(s):" and "NUMA nodeN CPU(s):" (indented in newer util-linux). */
static int lscpu_line(struct nicfit_dump *d, const char *s, struct dump_at at)
{
	struct dump_cpu *c = &d->cpu;
	const char *e, *v;
	long id;

	if ((v = after_key(s, "Socket(s)")) != NULL) {
		id = dec_at(v, &e);
		if (id > 0 && !*e) {
			c->sockets = (int)id;
			c->sockets_at = at;
		}
		return 1;
	}
	if ((v = after_key(s, "NUMA node(s)")) != NULL) {
		id = dec_at(v, &e);
		if (id > 0 && !*e) {
			c->nodes_count = (int)id;
			c->nodes_at = at;
		}
		return 1;
	}
	if (strncmp(s, "NUMA node", 9) || (id = dec_at(s + 9, &e)) < 0 ||
	    (v = after_key(e, " CPU(s)")) == NULL)
		return 0;
	{
		struct dump_node *n = node_of(d, id, at);

		if (n) {
			n->at = at;
			lscpu_cpus(n, v);
		}
	}
	return 1;
}

/* /proc/cpuinfo: "processor : N" opens a CPU, "physical id : S" gives its socket. */
static int cpuinfo_line(struct nicfit_dump *d, const char *s)
{
	struct dump_cpu *c = &d->cpu;
	const char *e, *v;
	long n;

	if ((v = after_key(s, "processor")) != NULL) {
		n = dec_at(v, &e);
		if (n < 0 || *e)
			return 0;
		c->cur_cpu = (int)n;
		return 1;
	}
	if ((v = after_key(s, "physical id")) != NULL && c->cur_cpu >= 0) {
		n = dec_at(v, &e);
		if (n >= 0 && !*e) {
			cpu_socket(d, c->cur_cpu, n);
			c->any_cpuinfo = 1;
		}
		return 1;
	}
	return 0;
}

int nicfit__dump_cpu_line(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	struct dump_cpu *c = &d->cpu;
	const char *s = nicfit__dump_skip_blank(line);
	int mode = c->mode, r = 0;

	c->mode = CPU_NONE;
	if (mode == CPU_DIST_HEAD && dist_head(c, s)) {
		c->mode = CPU_DIST;
		r = 1;
	} else if (mode == CPU_DIST && dist_row(d, s, at)) {
		c->mode = CPU_DIST;
		r = 1;
	} else if ((mode == CPU_TABLE_E || mode == CPU_TABLE_P) &&
		   table_row(d, line, mode == CPU_TABLE_P ? ',' : ' ', at)) {
		c->mode = mode;
		r = 1;
	} else if (table_head(c, s) || numactl_line(d, s, at) || lscpu_line(d, s, at) ||
		   cpuinfo_line(d, s)) {
		r = 1;
	}
	if (r)
		d->formats |= NICFIT_DUMP_CPU;
	return r;
}

void nicfit__dump_cpu_break(struct nicfit_dump *d)
{
	d->cpu.mode = CPU_NONE;
	d->cpu.cur_cpu = -1;
}

/* Nodes with CPUs, and the rank of node n among them by id; -1 when n has none. */
static int cpu_rank(const struct dump_cpu *c, const struct dump_node *n, int *count)
{
	int i, rank = 0;

	*count = 0;
	for (i = 0; i < c->nnodes; i++) {
		const struct dump_node *m = &c->node[i];

		if (m->first_cpu < 0)
			continue;
		(*count)++;
		if (m->id < n->id)
			rank++;
	}
	return n->first_cpu >= 0 ? rank : -1;
}

int nicfit__dump_node_socket(const struct nicfit_dump *d, const struct dump_node *n,
			     int *by_count)
{
	const struct dump_cpu *c = &d->cpu;
	int count, rank;

	*by_count = 0;
	if (n->socket >= 0)
		return n->socket;
	/* a node list (lscpu's "NUMA node3 CPU(s): 222222") may name a CPU past the table */
	if (n->first_cpu >= 0 && n->first_cpu <= CPU_MAX_ID && c->cpu_sock &&
	    c->cpu_sock[n->first_cpu] >= 0)
		return c->cpu_sock[n->first_cpu];
	if (c->sockets == 1)
		return 0;
	rank = cpu_rank(c, n, &count);
	if (c->sockets > 1 && count == c->sockets && rank >= 0) {
		*by_count = 1;
		return rank;
	}
	return -1;
}

struct dump_node *nicfit__dump_node_of(struct nicfit_dump *d, long id, struct dump_at at)
{
	return node_of(d, id, at);
}
