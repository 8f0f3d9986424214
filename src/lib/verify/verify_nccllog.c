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
#include <stddef.h>
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
	char first_rank[96];      /* "host:pid [dev]" of the first line: one rank's view */
	int host_of_line;         /* index in hosts of the record being read, -1 none */
	int last_host;            /* the host of the last record that named one, -1 none */
	char last_prefix[128];    /* the last record's bytes before its NCCL INFO marker */
	size_t last_plen, last_hn;
	ptrdiff_t last_hoff;      /* its host's offset in them, -1 none */
	unsigned char rank0[MAX_HOSTS];   /* hosts with a rank-0 communicator init */
	unsigned char header[MAX_HOSTS];  /* hosts that printed "NCCL version" */
	long rank0_line[MAX_HOSTS];
	char pending[NICFIT__VLINE_MAX + 1];   /* a record cut after "via" at a line's end */
	long pending_line;
	int ring_ranks;           /* the ranks a whole ring line lists, 0 none */
};

/* Characters of a host name in NCCL's prefix (gethostname, cut at the first '.'). */
static int host_char(char ch)
{
	/* a bit a byte: '-', '.', '0'-'9' (word 0); 'A'-'Z', '_', 'a'-'z' (word 1) */
	static const unsigned long long set[4] = {
		0x03ff600000000000ULL, 0x07fffffe87fffffeULL, 0, 0
	};
	unsigned char u = (unsigned char)ch;

	return (int)((set[u >> 6] >> (u & 63)) & 1);
}

/* "INFO " or "WARN " at p (a NUL ends the test): what follows "NCCL " in a record. */
static int info_or_warn(const char *p)
{
	return (p[0] == 'I' && p[1] == 'N' && p[2] == 'F' && p[3] == 'O' && p[4] == ' ') ||
	       (p[0] == 'W' && p[1] == 'A' && p[2] == 'R' && p[3] == 'N' && p[4] == ' ');
}

/* The next "NCCL " at or after s: by its 'N', rarer in a line than a blank. */
static char *nccl_word(char *s)
{
	while ((s = strchr(s, 'N')) != NULL) {
		if (s[1] == 'C' && s[2] == 'C' && s[3] == 'L' && s[4] == ' ')
			return s;
		s++;
	}
	return NULL;
}

/*
 * The longest host name NCCL prints: gethostname() cut at the first '.',
 * one DNS label, which RFC 1035 (section 2.3.4) holds to 63 octets.
 */
#define HOST_MAX 63

/*
 * What may stand right before a host name in a pasted prefix: the start
 * of the record, a blank, a Markdown quote or code mark ('>', '`', '*',
 * '|' of a table), a quote, or the ':' of a "[default0]:" label that
 * torchrun --tee and PyTorch's launchers put in front. Anything else (an
 * escape sequence's last byte, a letter past the 63 of a label, a byte
 * that is not ASCII) means the name read backwards is the tail of
 * something that is not a host name.
 */
static int host_boundary(const char *line, const char *q)
{
	if (q == line)
		return 1;
	if (q[-1] == ':')
		return q - 1 > line && q[-2] == ']';
	return strchr(" \t>`*|\"'", q[-1]) != NULL;
}

/*
 * NCCL's own prefix before "NCCL INFO" at m: "host:pid:tid [dev] "
 * (src/debug.cc, every era). Reads backwards from m so that whatever is
 * in front (a launcher's "[3] ", a Markdown "> ", a backtick, the record
 * before it on a line that lost its newline) is left out, and a word of
 * prose never passes for a host; a name that does not start at a
 * boundary (host_boundary) or is longer than a host name is none.
 * Returns the start of the host (NULL when the prefix is not NCCL's),
 * its length in *n.
 */
static const char *nccl_prefix(const char *line, const char *m, size_t *n)
{
	const char *q = m, *end, *lim;
	int k;

	while (q > line && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	if (q <= line || q[-1] != ']')
		return NULL;
	q--;
	while (q > line && (unsigned char)(q[-1] - '0') < 10)
		q--;
	if (q <= line || q[-1] != '[' || *q == ']')
		return NULL;
	q--;
	while (q > line && q[-1] == ' ')
		q--;
	for (k = 0; k < 2; k++) {
		const char *digits = q;

		while (q > line && (unsigned char)(q[-1] - '0') < 10)
			q--;
		if (q == digits || q <= line || q[-1] != ':')
			return NULL;
		q--;
	}
	end = q;
	/* one byte past a label's 63, to tell a longer name from one that fits */
	lim = end - line > HOST_MAX + 1 ? end - HOST_MAX - 1 : line;
	while (q > lim && host_char(q[-1]))
		q--;
	if (q == end || end - q > HOST_MAX || !host_boundary(line, q))
		return NULL;
	*n = (size_t)(end - q);
	return q;
}

/*
 * A rank's key in a prefix "host:pid:tid [dev] ": "host:pid [dev]". The
 * thread differs between a rank's lines (the version from its main
 * thread, the rings from the one that connects them), the process and
 * device do not. Returns the key's length in out.
 */
static size_t rank_key(const char *prefix, size_t plen, char *out, size_t size)
{
	const char *c1 = memchr(prefix, ':', plen), *c2 = NULL, *dev;
	size_t k;

	if (c1)
		c2 = memchr(c1 + 1, ':', plen - (size_t)(c1 + 1 - prefix));
	dev = memchr(prefix, '[', plen);
	k = c2 ? (size_t)(c2 - prefix) : plen;
	nicfit__vcopy(out, size, prefix, k);
	if (c2 && dev && dev > c2) {
		size_t n = strlen(out);

		nicfit__vcopy(out + n, size - n, dev, plen - (size_t)(dev - prefix));
	}
	return strlen(out);
}

/* The record's prefix is the first record's rank (all of them when there is no prefix). */
static int first_rank(const struct ctx *c, const char *prefix, size_t plen)
{
	char key[96];

	if (!plen)
		return 1;
	rank_key(prefix, plen, key, sizeof(key));
	return !strcmp(key, c->first_rank);
}

/*
 * nccl_prefix() of a record whose bytes up to its marker are those of the
 * record before it (a thread prints its lines in runs): the answer kept.
 */
static const char *prefix_of(struct ctx *c, const char *p, const char *m, size_t *n)
{
	size_t k = (size_t)(m - p);
	const char *host;

	if (k && k == c->last_plen && !memcmp(p, c->last_prefix, k)) {
		*n = c->last_hn;
		return c->last_hoff < 0 ? NULL : p + c->last_hoff;
	}
	host = nccl_prefix(p, m, n);
	if (k < sizeof(c->last_prefix)) {
		memcpy(c->last_prefix, p, k);
		c->last_plen = k;
		c->last_hoff = host ? host - p : -1;
		c->last_hn = host ? *n : 0;
	} else {
		c->last_plen = 0;
	}
	return host;
}

static void note_host(struct ctx *c, const char *p, size_t n)
{
	size_t i;

	c->host_of_line = -1;
	if (!p || !n)
		return;
	/* a rank prints its lines together: the last host is the likely one */
	if (c->last_host >= 0 && !strncmp(c->hosts[c->last_host], p, n) &&
	    !c->hosts[c->last_host][n]) {
		c->host_of_line = c->last_host;
		return;
	}
	for (i = 0; i < c->nhosts; i++)
		if (strlen(c->hosts[i]) == n && !strncmp(c->hosts[i], p, n)) {
			c->host_of_line = c->last_host = (int)i;
			return;
		}
	if (c->nhosts < MAX_HOSTS) {
		c->host_of_line = c->last_host = (int)c->nhosts;
		nicfit__vcopy(c->hosts[c->nhosts++], 64, p, n);
	}
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
	const char *ro = strstr(p, "[RO]");

	/* "Using [RO]; OOB" after "No device found" lists no device: nothing is ordered */
	if (ro && strchr(p, '[') != ro)
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

/* 2.3's one HCA a line: "NET/IB: [0] mlx5_1:1/IB " (net_ib.cu; a TRACE in 2.4) */
static void read_ib_one(struct nicfit_nccl_log *g, const char *p, long line, int *oom)
{
	const char *q;
	long idx = nicfit__vint(p, &q);
	struct nicfit_nccl_hca *h;
	size_t n;

	if (idx < 0 || idx > 1024 || *q != ']')
		return;
	q++;
	while (*q == ' ')
		q++;
	h = hca_at(g, (size_t)idx, oom);
	if (!h || h->line)
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
}

/* "(distance 4 > 2)", "(distance 4 >= 2)", "(distance 3 <= 4)" */
static void read_distance(struct nicfit_nccl_gdr_gpu *x, const char *p)
{
	const char *q = strstr(p, "(distance ");

	x->distance = x->level = -1;
	if (!q)
		return;
	x->distance = (int)nicfit__vint(q + 10, &q);
	while (*q == ' ' || *q == '>' || *q == '<' || *q == '=')
		q++;
	x->level = (int)nicfit__vint(q, NULL);
}

/*
 * NCCL's per-GPU decision, each era: 2.3 "GPU Direct RDMA Disabled for
 * GPU 0 / HCA mlx5_0 (no module)", 2.4 "... for GPU 0[0] / HCA 0 (distance
 * 4 >= 2)", 2.5-2.26 "... for GPU 1b000 / HCA 0 (distance 4 > 2)" and
 * "Enabled ... (distance 3 <= 4), read 0" (src/transport/net.cc, later
 * src/graph/paths.cc). One entry per GPU and HCA: every rank repeats them.
 */
static int read_gdr_gpu(struct nicfit_nccl_log *g, const char *p, long line)
{
	struct nicfit_nccl_gdr_gpu x, *y;
	const char *q = strstr(p, "for GPU ") + 8, *h = strstr(p, " / HCA ");
	size_t i;

	memset(&x, 0, sizeof(x));
	x.on = strstr(p, "RDMA Enabled") != NULL;
	if (!h || h < q)
		return 0;
	nicfit__vcopy(x.gpu, sizeof(x.gpu), q, (size_t)(h - q));
	q = h + 7;
	x.hca = (int)nicfit__vint(q, &h);
	if (x.hca < 0 || (*h && *h != ' ')) {
		x.hca = -1;
		nicfit__vcopy(x.hca_name, sizeof(x.hca_name), q, strcspn(q, " ("));
	} else if (h[0] == ' ' && h[1] == '\'') {
		nicfit__vcopy(x.hca_name, sizeof(x.hca_name), h + 2, strcspn(h + 2, "'"));
	}
	read_distance(&x, p);
	if ((q = strchr(q, '(')) != NULL)
		nicfit__vcopy(x.reason, sizeof(x.reason), q + 1, strcspn(q + 1, ")"));
	x.line = line;
	for (i = 0; i < g->ngdr_gpus; i++) {
		y = &g->gdr_gpus[i];
		if (!strcmp(y->gpu, x.gpu) && y->hca == x.hca && !strcmp(y->hca_name, x.hca_name)) {
			if (y->on && !x.on)
				*y = x;
			return 0;
		}
	}
	if (g->ngdr_gpus >= 4096)
		return 0;
	if (NICFIT_ALLOC_GROW(g->gdr_gpus, g->ngdr_gpus + 1, g->gdr_gpus_alloc))
		return -1;
	g->gdr_gpus[g->ngdr_gpus++] = x;
	return 0;
}

/* "GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)" and 2.4's "... for GPU 0[0] / HCA 0 (distance 4 > 2)" */
static void read_gdr(struct nicfit_nccl_log *g, const char *p, long line, int *oom)
{
	int on = strstr(p, "RDMA Enabled") != NULL;
	const char *q = strstr(p, "HCA ");
	struct nicfit_nccl_hca *h;
	const char *r;
	long idx;

	/* NET/Socket's "HCA" is an interface: GPUDirect RDMA never applies to sockets */
	if (!q || !strncmp(p, "NET/Socket", 10))
		return;
	if (strstr(p, "for GPU ")) {
		if (read_gdr_gpu(g, p, line))
			*oom = 1;
		return;
	}
	idx = nicfit__vint(q + 4, &r);
	if (idx < 0 && q[4] == '\'') {
		/* "for HCA 'name'": the index left out, the device found by name */
		size_t n = strcspn(q + 5, "'"), i;

		for (i = 0; i < g->nhcas; i++)
			if (strlen(g->hcas[i].name) == n && !strncmp(g->hcas[i].name, q + 5, n))
				break;
		if (i == g->nhcas)
			return;
		idx = (long)i;
		r = q + 3;
	}
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

/*
 * The ranks of a ring line "Channel 00/02 :    0   7   6 ... 1" (2.4 to
 * today: rank 0 prints each ring with dumpLine(), src/graph/rings.cc),
 * which lists every rank once, in ring order. dumpLine() stops at 20 ranks
 * (MAXWIDTH, before 2.12) or 128 characters, so only a line that lists
 * fewer than 20 ranks and names each of 0..n-1 exactly once tells nranks.
 */
static int ring_ranks(const char *p)
{
	unsigned seen = 0;
	int n = 0;
	long r;

	p = strstr(p, " : ");
	if (!p)
		return 0;
	for (p += 3;; ) {
		p += strspn(p, " ");
		if (!*p)
			break;
		r = nicfit__vint(p, &p);
		if (r < 0 || r >= 19 || (seen & (1u << r)) || (*p && *p != ' '))
			return 0;
		seen |= 1u << r;
		n++;
	}
	return n >= 2 && seen == (1u << n) - 1 ? n : 0;
}

static void read_channel(struct nicfit_nccl_log *g, struct ctx *c, const char *p, long line,
			 const char *prefix, size_t plen)
{
	const char *via = nicfit__vafter_blank(p, "via ");
	const char *q;

	if (via) {
		/* "Channel 03/0 : 2[2] -> 10[2] [send] via ...": both ranks exist */
		const char *c0 = nicfit__vafter_blank(p, ": "), *arrow = nicfit__vafter_blank(p, "-> ");

		if (c0 && arrow && c0 < arrow && arrow < via) {
			long a = nicfit__vint(c0 + 3 + strspn(c0 + 3, " "), NULL);
			long b = nicfit__vint(arrow + 4, NULL);

			if (a >= 0 && a < 10000000 && a + 1 > g->ranks_at_least)
				g->ranks_at_least = (int)a + 1;
			if (b >= 0 && b < 10000000 && b + 1 > g->ranks_at_least)
				g->ranks_at_least = (int)b + 1;
		}
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
		} else if (!strncmp(via, "SHM", 3) || !strncmp(via, "direct shared memory", 20)) {
			if (!g->chan_shm++)
				g->shm_line = line;
		} else if (!strncmp(via, "NVLS", 4)) {
			if (!g->chan_nvls++)
				g->nvls_line = line;
		}
		return;
	}
	/* "Channel 00/24 :    0   1 ..." from the first rank only: the rings */
	if (!c->ring_ranks)
		c->ring_ranks = ring_ranks(p);
	if (!first_rank(c, prefix, plen))
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

/*
 * Keep a WARN line or a result trace once: a WARN that every rank prints
 * is one line (its message compared); a trace "file.cc:N -> c" is kept for
 * each process that printed it (the whole line compared), so that the
 * judge can count the processes a failure went through.
 */
static int add_note(struct nicfit_nccl_log *g, const char *text, const char *msg, long line,
		    int whole)
{
	size_t i, ml = strlen(msg);

	for (i = 0; i < g->nwarns; i++) {
		const char *t = g->warns[i].text;
		size_t tl = strlen(t);

		if (whole ? !strcmp(t, text) : tl >= ml && !strcmp(t + tl - ml, msg))
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

/* The rest of a line, less the blanks a paste left at its end ("Using network IB   "). */
static void copy_trimmed(char *dst, size_t size, const char *p)
{
	size_t n = strlen(p);

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	nicfit__vcopy(dst, size, p, n);
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
		copy_trimmed(g->plugin, sizeof(g->plugin), m + 30);
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

/*
 * A communicator's init line: "rank 0 nranks 8" (2.3), "comm %p rank %d
 * nranks %d cudaDev ..." (Init START/COMPLETE) and, from 2.19, "comm %p
 * rank %d nRanks %d nNodes %d localRanks %d localRank %d" (src/init.cc).
 * A rank-0 init marks its host, to tell separate jobs apart.
 */
static void read_init(struct nicfit_nccl_log *g, struct ctx *c, const char *m, const char *q,
		      long line)
{
	long n = nicfit__vint(q + 8, NULL), rank = -1;
	const char *r = strstr(m, "rank ");

	if (n > 0 && n < 10000000 && !g->nranks)
		g->nranks = (int)n;
	if (r && r < q)
		rank = nicfit__vint(r + 5, NULL);
	if ((r = strstr(q, " nNodes ")) != NULL) {
		long nn = nicfit__vint(r + 8, NULL);

		if (nn > 0 && nn < 1000000 && nn > g->nnodes) {
			g->nnodes = (int)nn;
			g->nnodes_line = line;
			if ((r = strstr(r, " localRanks ")) != NULL)
				g->local_ranks = (int)nicfit__vint(r + 12, NULL);
		}
	}
	if (rank == 0 && c->host_of_line >= 0 && !c->rank0[c->host_of_line]) {
		c->rank0[c->host_of_line] = 1;
		c->rank0_line[c->host_of_line] = line;
	}
}

/* Append a path class of k bytes at q (SOC, the drivers' old name, as SYS); 0 when it is none. */
static int dist_class(struct nicfit_nccl_nic_dist *x, const char *q, size_t k)
{
	if (k == 3 && !strncmp(q, "SOC", 3)) {
		nicfit__vcopy(x->paths[x->npaths++], sizeof(x->paths[0]), "SYS", 3);
		return 1;
	}
	if ((k == 3 && (!strncmp(q, "PIX", 3) || !strncmp(q, "PXB", 3) || !strncmp(q, "PHB", 3) ||
			!strncmp(q, "SYS", 3))) ||
	    (k == 4 && !strncmp(q, "NODE", 4))) {
		nicfit__vcopy(x->paths[x->npaths++], sizeof(x->paths[0]), q, k);
		return 1;
	}
	return 0;
}

/*
 * "CUDA Dev 0[0], IB NIC distance :  PIX NODE SYS SYS" (2.4), "CUDA Dev 2,
 * IB Ports : mlx5_3/1(SOC) mlx5_1/1(PIX)" (2.3): once per host and GPU
 */
static void read_nic_distance(struct nicfit_nccl_log *g, const char *prefix, size_t plen,
			      const char *m, const char *q, long line)
{
	struct nicfit_nccl_nic_dist *x;
	size_t i, hn = strcspn(prefix, ":");
	long gpu = nicfit__vint(m + 9, NULL);

	if (gpu < 0 || hn > plen)
		return;
	for (i = 0; i < g->nnic_dist; i++)
		if (g->nic_dist[i].gpu == gpu && strlen(g->nic_dist[i].host) == hn &&
		    !strncmp(g->nic_dist[i].host, prefix, hn))
			return;
	if (g->nnic_dist == NICFIT_NCCL_MAX_DIST)
		return;
	x = &g->nic_dist[g->nnic_dist++];
	memset(x, 0, sizeof(*x));
	nicfit__vcopy(x->host, sizeof(x->host), prefix, hn);
	x->gpu = (int)gpu;
	x->line = line;
	for (q = strchr(q, ':') + 1; *q && x->npaths < NICFIT_NCCL_MAX_DIST; ) {
		size_t k;

		q += strspn(q, " ");
		k = strcspn(q, " ");
		if (!k)
			break;
		/* 2.3 "IB Ports : mlx5_3/1(SOC) mlx5_1/1(PIX)": the class in brackets */
		if (memchr(q, '(', k) && q[k - 1] == ')') {
			const char *o = memchr(q, '(', k);

			q += k;
			k = (size_t)(q - 1 - (o + 1));
			if (!dist_class(x, o + 1, k))
				break;
			continue;
		}
		if (!dist_class(x, q, k))
			break;
		q += k;
	}
}

/*
 * AMD's RCCL, which prints NCCL's own lines: its version banner ("RCCL
 * version : 2.21.5-HEAD:9a0e6a1", alone on a line or after "NCCL INFO";
 * "RCCL version 2.6.4+hip3.5" before), the plugin it looks for
 * (librccl-net.so) and the ROCm runtime versions it prints (ROCr, HIP).
 * Returns 1 when m is the banner (its version read).
 */
static int read_rccl(struct nicfit_nccl_log *g, const char *m, long line)
{
	const char *q;

	if (strstr(m, "librccl") || !strncmp(m, "ROCr version", 12) ||
	    !strncmp(m, "Hipruntime version", 18) || !strncmp(m, "HIP version", 11)) {
		if (!g->rccl++)
			g->rccl_line = line;
		return 0;
	}
	if (strncmp(m, "RCCL version", 12))
		return 0;
	if (!g->rccl++)
		g->rccl_line = line;
	q = m + 12;
	q += strspn(q, " :");
	if (!g->version[0] && *q >= '0' && *q <= '9') {
		nicfit__vcopy(g->version, sizeof(g->version), q, strcspn(q, "+- "));
		g->version_line = line;
	}
	return 1;
}

static int read_info(struct nicfit_nccl_log *g, struct ctx *c, const char *m, long line,
		     const char *text, const char *prefix, size_t plen)
{
	const char *q;
	int oom = 0;

	/* what most of a large log is: a channel's connection, and nothing else on the line */
	if (!strncmp(m, "Channel ", 8)) {
		read_channel(g, c, m, line, prefix, plen);
		return 0;
	}
	if ((m[0] == 'R' || m[0] == 'H' || m[0] == 'N') && read_rccl(g, m, line)) {
		if (c->host_of_line >= 0)
			c->header[c->host_of_line] = 1;
	} else if (!strncmp(m, "NCCL version ", 13)) {
		if (c->host_of_line >= 0)
			c->header[c->host_of_line] = 1;
		if (!g->version[0]) {
			nicfit__vcopy(g->version, sizeof(g->version), m + 13, strcspn(m + 13, "+ "));
			g->version_line = line;
		}
	} else if (strstr(m, "GPU Direct RDMA ") && strstr(m, "HCA")) {
		read_gdr(g, m, line, &oom);
	} else if (!strncmp(m, "CUDA Dev ", 9) && ((q = strstr(m, " NIC distance :")) != NULL ||
						    (q = strstr(m, " IB Ports :")) != NULL)) {
		read_nic_distance(g, prefix, plen, m, q, line);
	} else if (!strncmp(m, "NET/", 4) && (strstr(m, " qpn ") || strstr(m, " qp_num "))) {
		if (nicfit__verify_read_qp(g, prefix, plen, m, line))
			return -1;
	} else if (!strncmp(m, "NET/IB: [", 9)) {
		read_ib_one(g, m + 9, line, &oom);
	} else if (!strncmp(m, "NET/", 4)) {
		read_net(g, m, line, &oom);
	} else if ((!strncmp(m, "Bootstrap", 9) && (q = strstr(m, "Using ")) != NULL) ||
		   (!strncmp(m, "NET : Using interface ", 22) && (q = m + 16) != NULL)) {
		/* 2.4-2.7 "Using [0]lo:127.0.0.1<0>", 2.3 "NET : Using interface X:..." */
		if (!g->bootstrap_if[0]) {
			q += 6;
			if (*q == '[' && nicfit__vint(q + 1, NULL) >= 0 && strchr(q, ']'))
				q = strchr(q, ']') + 1;
			nicfit__vcopy(g->bootstrap_if, sizeof(g->bootstrap_if), q, strcspn(q, ":< "));
			g->bootstrap_line = line;
		}
	} else if (!strncmp(m, "Using network ", 14) || !strncmp(m, "Using internal Network ", 23)) {
		/* 2.3 says "Using internal Network IB" */
		q = m + (m[6] == 'n' ? 14 : 23);
		if (!g->network[0]) {
			copy_trimmed(g->network, sizeof(g->network), q);
			g->network_line = line;
		}
		if (!strncmp(q, "Socket", 6) && !g->socket_used++)
			g->socket_line = line;
	} else if (!strncmp(m, "P2P plugin ", 11)) {
		/* the transport the plugin registers ("IBext") names it best */
		copy_trimmed(g->plugin, sizeof(g->plugin), m + 11);
	} else if (strstr(m, "Failed to open libibverbs")) {
		g->no_ibverbs = 1;
		g->no_ibverbs_line = line;
	} else if (!strncmp(m, "Channel ", 8) || !strncmp(m, "Ring ", 5)) {
		if (m[0] == 'R') {
			long r = nicfit__vint(m + 5, NULL);

			if (r >= 0 && r < 1024 && r + 1 > g->nrings && first_rank(c, prefix, plen))
				g->nrings = (int)r + 1;
			/* 2.4: "Ring 00 : 15 -> 0 [send] via NET/Socket/0", "... via P2P/IPC" */
			if (strstr(m, " via "))
				read_channel(g, c, m, line, prefix, plen);
		} else {
			read_channel(g, c, m, line, prefix, plen);
		}
	} else if (!strncmp(m, "Trees ", 6)) {
		if (!g->ntrees && first_rank(c, prefix, plen)) {
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
		if (add_note(g, text, m, line, 1))
			return -1;
	}
	if ((q = strstr(m, " nranks ")) != NULL || (q = strstr(m, " nRanks ")) != NULL)
		read_init(g, c, m, q, line);
	if (strstr(m, "NVLS multicast support is available") && !g->chan_nvls++)
		g->nvls_line = line;
	return oom ? -1 : 0;
}

/* One record: a line as NCCL wrote it (the prefix in front, if any). */
static int read_record(struct nicfit_nccl_log *g, struct ctx *c, char *rec, long lineno)
{
	char *p = nicfit__vskip_tags(rec), *m = NULL, *w = NULL, *q = p;
	const char *host, *prefix = p;
	size_t plen = 0, hn = 0;

	/* the first "NCCL INFO " or "NCCL WARN ", whichever comes first, in one scan */
	while (!m && !w && (q = nccl_word(q)) != NULL) {
		if (q[5] == 'I' && info_or_warn(q + 5))
			m = q;
		else if (info_or_warn(q + 5))
			w = q;
		q += 5;
	}
	c->host_of_line = -1;
	if (!m && !w) {
		/* 2.4 prints "NCCL version 2.4.7+cuda10.0" alone; Python prints "NCCL error" */
		if (!strncmp(p, "NCCL version ", 13)) {
			g->nlines++;
			return read_info(g, c, p, lineno, p, "", 0);
		}
		/* RCCL's banner: "RCCL version : 2.21.5-HEAD:9a0e6a1", "HIP version  : 6.3..." */
		if (!strncmp(p, "RCCL version", 12) || !strncmp(p, "HIP version", 11)) {
			g->nlines++;
			read_rccl(g, p, lineno);
			return 0;
		}
		if (strstr(p, "NCCL error") || strstr(p, "ncclSystemError") ||
		    strstr(p, "ncclInternalError") || strstr(p, "ncclRemoteError") ||
		    strstr(p, "ncclUnhandledCudaError")) {
			g->nlines++;
			return add_note(g, p, p, lineno, 0);
		}
		return 0;
	}
	g->nlines++;
	if (m) {
		host = prefix_of(c, p, m, &hn);
		note_host(c, host, hn);
		if (host)
			prefix = host;
		plen = (size_t)(m - prefix);
		if (!c->first_rank[0])
			rank_key(prefix, plen, c->first_rank, sizeof(c->first_rank));
		return read_info(g, c, m + 10, lineno, p, prefix, plen);
	}
	host = nccl_prefix(p, w, &hn);
	note_host(c, host, hn);
	/* aws-ofi-nccl prints its provider choice as a WARN when it falls back */
	if (!strncmp(w + 10, "NET/OFI", 7)) {
		if (!g->ofi++)
			g->ofi_line = lineno;
		read_ofi(g, w + 10, lineno);
	}
	return add_note(g, host ? host : p, w + 10, lineno, 0);
}

/*
 * Where the next record starts after from, on a line that lost its
 * newlines (runs of spaces between records): the host of an NCCL prefix
 * "host:pid:tid [dev] NCCL INFO" that follows a blank. NULL: none. With
 * quick, a line with one NCCL marker (all but glued ones) is one record,
 * whatever stands before its prefix; without, the record after the rest
 * of a cut one is found behind that rest.
 */
static char *next_record(char *line, char *from, int quick)
{
	char *m = from, *q = from;
	int markers = 0;

	while (quick && markers < 2 && (q = nccl_word(q)) != NULL) {
		markers += info_or_warn(q + 5);
		q += 5;
	}
	if (quick && markers < 2)
		return NULL;

	while ((m = strstr(m, "NCCL ")) != NULL) {
		size_t n;
		const char *h;

		if (!strncmp(m + 5, "INFO ", 5) || !strncmp(m + 5, "WARN ", 5)) {
			h = nccl_prefix(line, m, &n);
			if (h && h > from && (h[-1] == ' ' || h[-1] == '\t'))
				return (char *)h;
		}
		m += 5;
	}
	return NULL;
}

static int ends_in_via(const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n >= 4 && !strncmp(s + n - 4, " via", 4);
}

/*
 * A physical line: one record, or several glued by runs of spaces where a
 * paste lost its newlines; a record cut after "via" at the end of a line
 * is joined with the start of the next ("via\n NET/IBext/4/GDRDMA").
 */
static int read_line(struct nicfit_nccl_log *g, struct ctx *c, char *line, long lineno)
{
	char *rec = line, *next;
	int rc = 0;

	if (c->pending[0]) {
		char *first = strstr(line, "NCCL ") ? next_record(line, line, 0) : NULL;
		size_t k = strlen(c->pending), n = first ? (size_t)(first - line) : strlen(line);
		char *t = line;

		while (n && (*t == ' ' || *t == '\t')) {
			t++;
			n--;
		}
		if (first || !strstr(line, "NCCL ")) {
			nicfit__vcopy(c->pending + k, sizeof(c->pending) - k, " ", 1);
			k = strlen(c->pending);
			nicfit__vcopy(c->pending + k, sizeof(c->pending) - k, t, n);
			rec = first ? first : line + strlen(line);
		}
		rc = read_record(g, c, c->pending, c->pending_line);
		c->pending[0] = '\0';
		if (rc)
			return rc;
	}
	while (*rec) {
		next = next_record(line, rec, 1);
		if (next)
			next[-1] = '\0';
		if (!next && ends_in_via(rec) && strstr(rec, "NCCL INFO ")) {
			nicfit__vcopy(c->pending, sizeof(c->pending), rec, (size_t)-1);
			c->pending_line = lineno;
			return 0;
		}
		if ((rc = read_record(g, c, rec, lineno)) != 0 || !next)
			return rc;
		rec = next;
	}
	return 0;
}

/*
 * Separate jobs in one paste: communicators whose rank 0 sits on
 * different hosts while no init line says a communicator spans nodes
 * (nNodes above 1), or, before 2.19 prints nNodes, rank-0 inits and
 * "NCCL version" headers (rank 0 prints it) on two hosts or more.
 */
static void finish(struct nicfit_nccl_log *g, struct ctx *c)
{
	size_t i, roots = 0, headers = 0;
	int ib = 0, roce = 0;
	long second = 0;

	g->nhosts = c->nhosts;
	for (i = 0; i < c->nhosts; i++) {
		headers += c->header[i];
		if (c->rank0[i] && roots++ == 1)
			second = c->rank0_line[i];
	}
	if (roots >= 2 && g->nnodes <= 1 && (g->nnodes == 1 || headers >= 2)) {
		g->jobs = (int)roots;
		g->jobs_line = second;
	}
	for (i = 0; i < g->nhcas; i++) {
		ib |= !strcmp(g->hcas[i].link, "IB");
		roce |= !strcmp(g->hcas[i].link, "RoCE");
	}
	g->ib_mixed_links = ib && roce;
	if (g->nranks) {
		g->ranks_from = "nranks";
	} else if (c->ring_ranks) {
		g->nranks = c->ring_ranks;
		g->ranks_from = "ring";
	} else if (g->launch.procs) {
		g->nranks = g->launch.procs * (g->launch.gpus_per_proc > 0 ? g->launch.gpus_per_proc : 1);
		g->ranks_from = "launcher";
	}
}

/* One NCCL log read line by line (the single pass of verify.c feeds it). */
struct nicfit__vlog {
	struct ctx c;
	struct nicfit_verify_doc d;
	int rc;
};

struct nicfit__vlog *nicfit__vlog_new(void)
{
	struct nicfit__vlog *s = calloc(1, sizeof(*s));

	if (s) {
		nicfit__verify_doc_init(&s->d, NICFIT_VERIFY_NCCL_LOG);
		s->c.last_host = -1;
	}
	return s;
}

int nicfit__vlog_line(struct nicfit__vlog *s, const char *line, size_t n, long lineno)
{
	if (s->rc)
		return s->rc;
	nicfit__vlines_set(&s->c.l, line, n, lineno);
	/* an NCCL record is never the launcher's command line */
	if (!s->d.u.log.launch.tool[0] && !strstr(s->c.l.buf, "NCCL ") &&
	    nicfit__vlaunch_maybe(s->c.l.buf))
		nicfit__verify_launch_line(&s->d.u.log.launch, s->c.l.buf, lineno);
	if (read_line(&s->d.u.log, &s->c, s->c.l.buf, lineno))
		s->rc = NICFIT_E_NOMEM;
	return s->rc;
}

int nicfit__vlog_record(struct nicfit__vlog *s, const char *line, size_t n, long lineno)
{
	if (s->rc)
		return s->rc;
	nicfit__vlines_set(&s->c.l, line, n, lineno);
	if (read_line(&s->d.u.log, &s->c, s->c.l.buf, lineno))
		s->rc = NICFIT_E_NOMEM;
	return s->rc;
}

int nicfit__vlog_end(struct nicfit__vlog *s, struct nicfit_verify *v, const char *name,
		     struct nicfit_error *err)
{
	int rc;

	if (!s)
		return 0;
	rc = s->rc;
	if (!rc && s->c.pending[0] && read_record(&s->d.u.log, &s->c, s->c.pending,
						  s->c.pending_line))
		rc = NICFIT_E_NOMEM;
	finish(&s->d.u.log, &s->c);
	rc = nicfit__verify_doc_put(v, &s->d, name, rc);
	free(s);
	return rc ? nicfit_error_set(err, rc, "out of memory") : 0;
}

int nicfit__verify_nccl_log(struct nicfit_verify *v, const char *name, const char *text,
			    size_t len, struct nicfit_error *err)
{
	struct nicfit__vlog *s = nicfit__vlog_new();
	struct nicfit__vlines l;
	const char *line;
	size_t n;

	if (!s)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__vlines_init(&l, text, len);
	while (nicfit__vscan_next(&l, &line, &n) && !nicfit__vlog_line(s, line, n, l.lineno))
		;
	return nicfit__vlog_end(s, v, name, err);
}
