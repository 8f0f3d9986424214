/*
 * verify_nccllog.c - NCCL_DEBUG=INFO logs, from NCCL 2.4 on: each line
 * "host:pid:tid [dev] NCCL INFO message" (any launcher tag in front), and
 * the messages that say which network NCCL chose and why: the plugin, the
 * NET/IB device list with ports, link layers and [RO], "No device found",
 * NET/Socket and NET/OFI, GPUDirect RDMA per HCA, every channel's
 * transport (NET with or without /GDRDMA, P2P, SHM, NVLS), rings, trees
 * and channel counts, the version, what users set in the environment, and
 * WARN lines and error codes. The judgement is elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "verify/verify_int.h"

#define MAX_HOSTS 256
/* Distinct WARN/error lines kept; a log of a failed job repeats one per rank. */
#define MAX_NOTES 64

struct ctx {
	struct nicfit__vlines l;
	char hosts[MAX_HOSTS][64];
	size_t nhosts;
	char first_prefix[96];    /* "host:pid:tid [dev]" of the first line: one rank's view */
};

static void note_host(struct ctx *c, const char *p, const char *msg)
{
	size_t n = strcspn(p, ":"), i;

	if (p + n >= msg || !n)
		return;
	for (i = 0; i < c->nhosts; i++)
		if (strlen(c->hosts[i]) == n && !strncmp(c->hosts[i], p, n))
			return;
	if (c->nhosts < MAX_HOSTS)
		nicfit__vcopy(c->hosts[c->nhosts++], 64, p, n);
}

static struct nicfit_nccl_hca *hca_at(struct nicfit_nccl_log *g, size_t idx, int *oom)
{
	while (g->nhcas <= idx) {
		struct nicfit_nccl_hca *h;

		if (NICFIT_ALLOC_GROW(g->hcas, g->nhcas + 1, g->hcas_alloc)) {
			*oom = 1;
			return NULL;
		}
		h = &g->hcas[g->nhcas];
		memset(h, 0, sizeof(*h));
		h->gdr = -1;
		g->nhcas++;
	}
	return &g->hcas[idx];
}

/* "Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ib0:..." (first time only) */
static void read_ib_using(struct nicfit_nccl_log *g, const char *p, long line, int *oom)
{
	const char *end = strstr(p, "; OOB");

	if (strstr(p, "[RO]"))
		g->relaxed_ordering = 1;
	if (g->nhcas && g->hcas[0].line)
		return;
	while ((p = strchr(p, '[')) != NULL && (!end || p < end)) {
		const char *q;
		long idx = nicfit__vint(p + 1, &q);
		struct nicfit_nccl_hca *h;
		size_t n;

		if (idx < 0 || idx > 1024 || *q != ']') {
			p++;
			continue;
		}
		q++;
		h = hca_at(g, (size_t)idx, oom);
		if (!h)
			return;
		n = strcspn(q, ":/ ;");
		nicfit__vcopy(h->name, sizeof(h->name), q, n);
		q += n;
		if (*q == ':') {
			long port = nicfit__vint(q + 1, &q);

			h->port = port > 0 && port < 256 ? (int)port : 0;
		}
		if (*q == '/')
			nicfit__vcopy(h->link, sizeof(h->link), q + 1, strcspn(q + 1, " ;["));
		h->line = line;
		p = q;
	}
}

/* "GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)" and 2.4's "... for GPU 0[0] / HCA 0 (distance 4 > 2)" */
static void read_gdr(struct nicfit_nccl_log *g, const char *p, long line, int *oom)
{
	int on = strstr(p, "RDMA Enabled") != NULL;
	const char *q = strstr(p, "HCA ");
	struct nicfit_nccl_hca *h;
	const char *r;
	long idx;

	if (!q)
		return;
	idx = nicfit__vint(q + 4, &r);
	if (idx < 0 || idx > 1024)
		return;
	h = hca_at(g, (size_t)idx, oom);
	if (!h)
		return;
	if (*r == ' ' && r[1] == '\'') {
		size_t n = strcspn(r + 2, "'");

		if (!h->line)
			nicfit__vcopy(h->name, sizeof(h->name), r + 2, n);
	}
	/* every rank says it: the first disabled wins, as one rank without GDR slows all */
	if (h->gdr == 0)
		return;
	h->gdr = on;
	h->gdr_line = line;
	h->gdr_reason[0] = '\0';
	if ((r = strchr(r, '(')) != NULL)
		nicfit__vcopy(h->gdr_reason, sizeof(h->gdr_reason), r + 1, strcspn(r + 1, ")"));
}

static void read_channel(struct nicfit_nccl_log *g, struct ctx *c, const char *p, long line,
			 const char *prefix, size_t plen)
{
	const char *via = strstr(p, " via ");
	const char *q;

	if (via) {
		via += 5;
		if (!strncmp(via, "NET/", 4)) {
			if (!strncmp(via, "NET/Socket", 10) && !g->network[0]) {
				snprintf(g->network, sizeof(g->network), "Socket");
				g->network_line = line;
			}
			g->chan_net++;
			if (!g->chan_net_line)
				g->chan_net_line = line;
			if (strstr(via, "/GDRDMA"))
				g->chan_gdr++;
			else if (!g->chan_nogdr_line)
				g->chan_nogdr_line = line;
		} else if (!strncmp(via, "P2P", 3)) {
			if (!g->chan_p2p++)
				g->p2p_line = line;
		} else if (!strncmp(via, "SHM", 3)) {
			if (!g->chan_shm++)
				g->shm_line = line;
		} else if (!strncmp(via, "NVLS", 4)) {
			if (!g->chan_nvls++)
				g->nvls_line = line;
		}
		return;
	}
	/* "Channel 00/24 :    0   1 ..." from the first rank only: the rings */
	if (plen && strncmp(prefix, c->first_prefix, plen))
		return;
	q = strchr(p, '/');
	if (q && q < p + 12) {
		long total = nicfit__vint(q + 1, NULL);

		if (total > 0 && total < 1024) {
			g->nrings = (int)total;
			if (!g->channels_line)
				g->channels_line = line;
		}
	}
}

static int add_env(struct nicfit_nccl_log *g, const char *name, size_t n, const char *value,
		   long line)
{
	struct nicfit_nccl_kv *kv;
	size_t i, vn = strcspn(value, "\n");
	char nm[96], val[256];

	nicfit__vcopy(nm, sizeof(nm), name, n);
	nicfit__vcopy(val, sizeof(val), value, vn);
	vn = strlen(val);
	while (vn && (val[vn - 1] == '.' || val[vn - 1] == ' '))
		val[--vn] = '\0';
	for (i = 0; i < g->nenv; i++)
		if (!strcmp(g->env[i].name, nm))
			return 0;
	if (NICFIT_ALLOC_GROW(g->env, g->nenv + 1, g->env_alloc))
		return -1;
	kv = &g->env[g->nenv];
	kv->name = nicfit__vstrdup(nm);
	kv->value = nicfit__vstrdup(val);
	kv->line = line;
	if (!kv->name || !kv->value) {
		free(kv->name);
		free(kv->value);
		return -1;
	}
	g->nenv++;
	return 0;
}

/* "NCCL_IB_HCA set by environment to mlx5" (2.x) and "NCCL_SOCKET_IFNAME set to en" */
static int read_env(struct nicfit_nccl_log *g, const char *p, long line)
{
	const char *q;
	size_t n;

	if (strncmp(p, "NCCL_", 5))
		return 0;
	n = strcspn(p, " ");
	q = p + n;
	if (!strncmp(q, " set by environment to ", 23))
		return add_env(g, p, n, q + 23, line);
	if (!strncmp(q, " set to ", 8))
		return add_env(g, p, n, q + 8, line);
	return 0;
}

static int add_note(struct nicfit_nccl_log *g, const char *text, const char *msg, long line)
{
	size_t i, ml = strlen(msg);

	for (i = 0; i < g->nwarns; i++) {
		const char *t = g->warns[i].text;
		size_t tl = strlen(t);

		if (tl >= ml && !strcmp(t + tl - ml, msg))
			return 0;
	}
	if (g->nwarns >= MAX_NOTES)
		return 0;
	if (NICFIT_ALLOC_GROW(g->warns, g->nwarns + 1, g->warns_alloc))
		return -1;
	g->warns[g->nwarns].text = nicfit__vstrdup(text);
	if (!g->warns[g->nwarns].text)
		return -1;
	g->warns[g->nwarns++].line = line;
	return 0;
}

/* A name as printed, kept to the characters names have ("verbs;ofi_rxm", "10.0.0.0/16"). */
static void copy_name(char *dst, size_t size, const char *p)
{
	nicfit__vcopy(dst, size, p,
		      strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			     "._-;/:"));
}

/*
 * aws-ofi-nccl's choice of libfabric provider, in each of its forms:
 * "Selected Provider is efa", "... is efa (found 4 nics)" and, from 1.14,
 * "Selected provider is efa, fabric is efa-direct (found 32 nics)". The
 * first rank's line stands for all (ranks of one job pick alike).
 */
static void read_ofi(struct nicfit_nccl_log *g, const char *m, long line)
{
	const char *p = strstr(m, "elected Provider is ");
	const char *q;

	if (!p)
		p = strstr(m, "elected provider is ");
	if (strstr(m, "No eligible providers were found") && !g->ofi_no_provider++)
		g->ofi_no_provider_line = line;
	if (!p || g->ofi_provider[0])
		return;
	copy_name(g->ofi_provider, sizeof(g->ofi_provider), p + 20);
	while (strlen(g->ofi_provider) && g->ofi_provider[strlen(g->ofi_provider) - 1] == ',')
		g->ofi_provider[strlen(g->ofi_provider) - 1] = '\0';
	if (!g->ofi_provider[0])
		return;
	g->ofi_provider_line = line;
	q = strstr(p, ", fabric is ");
	if (q)
		copy_name(g->ofi_fabric, sizeof(g->ofi_fabric), q + 12);
	q = strstr(p, "(found ");
	if (q) {
		long n = strtol(q + 7, NULL, 10);

		g->ofi_nics = n > 0 && n < 100000 ? (int)n : 0;
	}
}

static void read_net(struct nicfit_nccl_log *g, const char *m, long line, int *oom)
{
	if (!strncmp(m, "NET/OFI", 7) || strstr(m, "aws-ofi-nccl")) {
		if (!g->ofi++)
			g->ofi_line = line;
		read_ofi(g, m, line);
	}
	if (!strncmp(m, "NET/Plugin: Loaded net plugin ", 30) && !g->plugin[0])
		nicfit__vcopy(g->plugin, sizeof(g->plugin), m + 30, (size_t)-1);
	if (!strncmp(m, "NET/IB", 6) && strstr(m, "No device found")) {
		g->ib_no_device = 1;
		if (!g->ib_no_device_line)
			g->ib_no_device_line = line;
	} else if (!strncmp(m, "NET/IB", 6) && strstr(m, ": Using")) {
		read_ib_using(g, strstr(m, ": Using") + 7, line, oom);
	} else if (!strncmp(m, "NET/Socket", 10) && strstr(m, ": Using")) {
		const char *p = strstr(m, ": Using") + 7;

		if (!g->socket_used++)
			g->socket_line = line;
		if (!g->socket_ifs[0]) {
			size_t k = 0;

			while ((p = strchr(p, ']')) != NULL && k + 2 < sizeof(g->socket_ifs)) {
				size_t n = strcspn(++p, ":< ");

				k += (size_t)snprintf(g->socket_ifs + k, sizeof(g->socket_ifs) - k,
						      "%s%.*s", k ? ", " : "", (int)n, p);
				if (k >= sizeof(g->socket_ifs))
					k = sizeof(g->socket_ifs) - 1;
			}
		}
	}
}

static int read_info(struct nicfit_nccl_log *g, struct ctx *c, const char *m, long line,
		     const char *text, const char *prefix, size_t plen)
{
	const char *q;
	int oom = 0;

	if (!strncmp(m, "NCCL version ", 13)) {
		if (!g->version[0]) {
			nicfit__vcopy(g->version, sizeof(g->version), m + 13, strcspn(m + 13, "+ "));
			g->version_line = line;
		}
	} else if (strstr(m, "GPU Direct RDMA ") && strstr(m, "HCA")) {
		read_gdr(g, m, line, &oom);
	} else if (!strncmp(m, "NET/", 4) && (strstr(m, " qpn ") || strstr(m, " qp_num "))) {
		if (nicfit__verify_read_qp(g, prefix, plen, m, line))
			return -1;
	} else if (!strncmp(m, "NET/", 4)) {
		read_net(g, m, line, &oom);
	} else if (!strncmp(m, "Bootstrap", 9) && (q = strstr(m, "Using ")) != NULL) {
		if (!g->bootstrap_if[0]) {
			q += 6;
			nicfit__vcopy(g->bootstrap_if, sizeof(g->bootstrap_if), q, strcspn(q, ":< "));
			g->bootstrap_line = line;
		}
	} else if (!strncmp(m, "Using network ", 14)) {
		if (!g->network[0]) {
			nicfit__vcopy(g->network, sizeof(g->network), m + 14, (size_t)-1);
			g->network_line = line;
		}
		if (!strncmp(m + 14, "Socket", 6) && !g->socket_used++)
			g->socket_line = line;
	} else if (!strncmp(m, "P2P plugin ", 11)) {
		/* the transport the plugin registers ("IBext") names it best */
		nicfit__vcopy(g->plugin, sizeof(g->plugin), m + 11, (size_t)-1);
	} else if (strstr(m, "Failed to open libibverbs")) {
		g->no_ibverbs = 1;
		g->no_ibverbs_line = line;
	} else if (!strncmp(m, "Channel ", 8) || !strncmp(m, "Ring ", 5)) {
		if (m[0] == 'R') {
			long r = nicfit__vint(m + 5, NULL);

			if (r >= 0 && r < 1024 && r + 1 > g->nrings && (!plen ||
			    !strncmp(prefix, c->first_prefix, plen)))
				g->nrings = (int)r + 1;
		} else {
			read_channel(g, c, m, line, prefix, plen);
		}
	} else if (!strncmp(m, "Trees ", 6)) {
		if (!g->ntrees && (!plen || !strncmp(prefix, c->first_prefix, plen))) {
			for (q = m; (q = strchr(q, '[')) != NULL; q++)
				g->ntrees++;
		}
	} else if ((q = strstr(m, " coll channels")) != NULL) {
		const char *s = q;

		while (s > m && s[-1] >= '0' && s[-1] <= '9')
			s--;
		if (s < q && !g->coll_channels)
			g->coll_channels = (int)nicfit__vint(s, NULL);
	} else if (!strncmp(m, "NCCL_", 5)) {
		if (read_env(g, m, line))
			return -1;
	} else if (strstr(m, " -> ") && strstr(m, ".cc:")) {
		if (add_note(g, text, m, line))
			return -1;
	}
	if ((q = strstr(m, " nranks ")) != NULL && !g->nranks) {
		long n = nicfit__vint(q + 8, NULL);

		if (n > 0 && n < 10000000)
			g->nranks = (int)n;
	}
	if (strstr(m, "NVLS multicast support is available") && !g->chan_nvls++)
		g->nvls_line = line;
	return oom ? -1 : 0;
}

static int read_line(struct nicfit_nccl_log *g, struct ctx *c, char *line, long lineno)
{
	char *p = nicfit__vskip_tags(line);
	char *m = strstr(p, "NCCL INFO ");
	char *w = strstr(p, "NCCL WARN ");
	size_t plen = 0;
	const char *prefix = p;

	if (!m && !w) {
		/* 2.4 prints "NCCL version 2.4.7+cuda10.0" alone; Python prints "NCCL error" */
		if (!strncmp(p, "NCCL version ", 13)) {
			g->nlines++;
			return read_info(g, c, p, lineno, p, "", 0);
		}
		if (strstr(p, "NCCL error") || strstr(p, "ncclSystemError") ||
		    strstr(p, "ncclInternalError") || strstr(p, "ncclRemoteError") ||
		    strstr(p, "ncclUnhandledCudaError")) {
			g->nlines++;
			return add_note(g, p, p, lineno);
		}
		return 0;
	}
	g->nlines++;
	if (m && (!w || m < w)) {
		plen = (size_t)(m - p);
		note_host(c, p, m);
		if (!c->first_prefix[0])
			nicfit__vcopy(c->first_prefix, sizeof(c->first_prefix), p, plen);
		return read_info(g, c, m + 10, lineno, p, prefix, plen);
	}
	note_host(c, p, w);
	/* aws-ofi-nccl prints its provider choice as a WARN when it falls back */
	if (!strncmp(w + 10, "NET/OFI", 7)) {
		if (!g->ofi++)
			g->ofi_line = lineno;
		read_ofi(g, w + 10, lineno);
	}
	return add_note(g, p, w + 10, lineno);
}

int nicfit__verify_nccl_log(struct nicfit_verify *v, const char *name, const char *text,
			    size_t len, struct nicfit_error *err)
{
	struct ctx *c = calloc(1, sizeof(*c));
	struct nicfit_verify_doc *d;
	char *line;
	int rc = 0;

	if (!c)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	d = nicfit__verify_doc_add(v, NICFIT_VERIFY_NCCL_LOG, name);
	if (!d) {
		free(c);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	nicfit__vlines_init(&c->l, text, len);
	while ((line = nicfit__vlines_next(&c->l)) != NULL)
		if (read_line(&d->u.log, c, line, c->l.lineno)) {
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
			break;
		}
	d->u.log.nhosts = c->nhosts;
	free(c);
	return rc;
}
