/*
 * verify_iperf.c - iperf3 and iperf2 text, and a fragment of iperf3's
 * --json document.
 *
 * The formats are the tools' own (esnet/iperf src/iperf_locale.c:
 * "[ ID] Interval           Transfer     Bitrate", "[ ID][Role] Interval"
 * under --bidir with the roles [TX-C]/[RX-C] (client) and [TX-S]/[RX-S]
 * (server), summary lines ending "sender" or "receiver", "[SUM]" lines
 * only when -P is above 1, "Connecting to host", "Server listening on
 * 5201"; iperf2's Reporter: "Client connecting to", "Server listening on
 * TCP port 5001", result lines "[SUM]  0.0-30.0 sec  337 GBytes  96.4
 * Gbits/sec" with no sender/receiver word, the whole run's line being
 * the one whose interval starts at 0 and ends last). Their headers say
 * which, when no command line or banner does: iperf3 pads "Interval" to
 * 17 columns ("[ ID] Interval           Transfer     Bandwidth" before
 * 3.2 named the column Bitrate), iperf2 to 13 ("[ ID] Interval
 * Transfer     Bandwidth", Locale.c). UDP lines carry the receiver's
 * jitter and lost/total datagrams ("0.017 ms    0/  893 (0%)"; iperf2's
 * client prints them after "Server Report:"), read as the run's loss.
 *
 * One paste may hold both tools (an iperf2 run at line rate and an iperf3
 * run beside it): the lines are given to the tool the last command line,
 * banner or header named, so that neither's figure is read as the other's.
 * A run cut before its summary is read from its interval lines (their
 * mean, per direction under --bidir), and says so.
 */
#include <stdlib.h>
#include <string.h>

#include "core/file_int.h"
#include "verify/verify_int.h"

/* "35.2 Gbits/sec" at tok[i], tok[i+1] -> Gb/s; -1 when not a rate. */
static double rate_gbps(char **tok, int n, int i)
{
	static const struct { const char *u; double f; } units[] = {
		{ "bits/sec", 1e-9 }, { "Kbits/sec", 1e-6 }, { "Mbits/sec", 1e-3 },
		{ "Gbits/sec", 1.0 }, { "Tbits/sec", 1e3 },
	};
	double d;
	size_t k;

	if (i + 1 >= n || nicfit__vnum(tok[i], &d))
		return -1;
	for (k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (!strcmp(tok[i + 1], units[k].u))
			return d * units[k].f;
	return -1;
}

/*
 * A UDP receiver's report after the rate at tok[i]: "0.017 ms  0/  893
 * (0%)" (iperf2's Server Report pads the total), "0.076 ms
 * 88766/106202 (84%)" (iperf3). Returns 1 with the jitter and counts, 0
 * when the line has none.
 */
static int udp_report(char **tok, int n, int i, double *jitter, long *lost, long *total)
{
	const char *q, *slash;
	long a, b;

	if (i + 5 >= n || strcmp(tok[i + 3], "ms") || nicfit__vnum(tok[i + 2], jitter) ||
	    *jitter < 0 || *jitter > NICFIT__VMAX_FIGURE)
		return 0;
	slash = strchr(tok[i + 4], '/');
	if (!slash)
		return 0;
	a = nicfit__vint(tok[i + 4], &q);
	if (a < 0 || q != slash)
		return 0;
	q = slash[1] ? slash + 1 : tok[i + 5];
	b = nicfit__vint(q, &q);
	if (b <= 0 || *q || a > b)
		return 0;
	*lost = a;
	*total = b;
	return 1;
}

/* The mean of the interval lines of one direction, [SUM] lines apart. */
struct acc {
	double sum[2];
	int n[2];
};

/* What is read of one tool's lines in a text. */
struct run {
	struct nicfit_verify_doc *d;
	struct acc dir[2];          /* [0] sending (or no role), [1] receiving ([RX-C]) */
	double best_end;            /* iperf2: the end of the whole-run line kept */
	int best_sum;
	int have_sum;               /* iperf3: a [SUM] summary line was read */
	int streams_given;          /* -P N of the command line */
	long last_interval;         /* the line of the last interval read */
	long last_tx;               /* ... of the sending direction's */
	double last_end;            /* the end of the last interval */
	double last_start;          /* iperf2: the latest start of a TCP line */
	long lost, datagrams;       /* UDP: summed over the interval lines */
	long retr[2];               /* TCP sender: the Retr column summed, [1] over [SUM] lines */
	int nretr[2];               /* ... over how many lines */
	double jitter;              /* ... the highest */
	double worst_loss;          /* ... the worst interval's loss, its line */
	long worst_line;
};

struct ip_state {
	char *name;
	struct run r[2];            /* [0] iperf3, [1] iperf2 */
	struct nicfit_verify_doc docs[2];   /* r[k].d once made */
	int order[2], nmade;        /* which run's document was made first */
	int tool;                   /* 0 or 1: whose lines these are */
	int summary;                /* iperf3: past the "- - -" line before the summary */
	struct nicfit__vlines l;
	struct nicfit_error err;
	int rc;
};

/* The basename of tok is "iperf3" (3), "iperf" (2), else 0. */
static int tool_word(const char *tok)
{
	const char *b = strrchr(tok, '/');

	b = b ? b + 1 : tok;
	if (!strcmp(b, "iperf3") || !strcmp(b, "iperf3.exe"))
		return 3;
	return !strcmp(b, "iperf") || !strcmp(b, "iperf.exe") ? 2 : 0;
}

/* A command line "iperf3 -c HOST -P 16" anywhere in line: its tool, and -P. */
static int command_line(char *line, int *streams)
{
	char buf[NICFIT__VLINE_MAX + 1], *tok[NICFIT__VTOK_MAX];
	int n, i, t = 0;

	*streams = 0;
	/* the tool's word holds "iperf": a line without it is no command line */
	if (!strstr(line, "iperf"))
		return 0;
	nicfit__vcopy(buf, sizeof(buf), line, (size_t)-1);
	n = nicfit__split_blanks(buf, tok, NICFIT__VTOK_MAX);
	for (i = 0; i < n && !t; i++)
		if ((t = tool_word(tok[i])) != 0 && (i + 1 >= n || tok[i + 1][0] != '-'))
			t = 0;
	for (*streams = 0; t && i < n; i++) {
		const char *a = NULL;

		if (!strcmp(tok[i], "-P") || !strcmp(tok[i], "--parallel"))
			a = i + 1 < n ? tok[i + 1] : NULL;
		else if (!strncmp(tok[i], "-P", 2))
			a = tok[i] + 2;
		else if (!strncmp(tok[i], "--parallel=", 11))
			a = tok[i] + 11;
		if (a && nicfit__vint(a, NULL) > 0 && nicfit__vint(a, NULL) < 10000)
			*streams = (int)nicfit__vint(a, NULL);
	}
	return t;
}

/* The run of the current tool, its document made on first use. */
static struct run *run_of(struct ip_state *s)
{
	struct run *r = &s->r[s->tool];

	if (!r->d) {
		r->d = &s->docs[s->tool];
		nicfit__verify_doc_init(r->d, s->tool ? NICFIT_VERIFY_IPERF2 : NICFIT_VERIFY_IPERF3);
		s->order[s->nmade++] = s->tool;
		r->d->u.ip.retransmits = -1;
		r->d->u.ip.sender_gbps = r->d->u.ip.receiver_gbps = -1;
		r->d->u.ip.jitter_ms = -1;
		r->best_end = -1;
		r->jitter = -1;
	}
	return r;
}

/* A UDP interval line's datagrams, summed for a run cut before its summary. */
static void udp_interval(struct run *r, double jit, long lost, long total, long line)
{
	r->d->u.ip.udp = 1;
	r->lost += lost;
	r->datagrams += total;
	if (jit > r->jitter)
		r->jitter = jit;
	if (!r->worst_line || (double)lost / (double)total > r->worst_loss) {
		r->worst_loss = (double)lost / (double)total;
		r->worst_line = line;
	}
}

/*
 * The Retr column of a TCP sender's interval line after the rate at
 * tok[i]: a stream's line goes on with the congestion window ("0  1.53
 * MBytes"), a [SUM] line ends with the count. A receiver's lines have
 * neither. -1 when the line has no Retr column.
 */
static long retr_column(char **tok, int n, int i, int is_sum)
{
	long k;
	size_t w;

	if (i + 2 >= n || (k = nicfit__vint(tok[i + 2], NULL)) < 0)
		return -1;
	if (is_sum)
		return i + 3 == n ? k : -1;
	if (i + 4 >= n || nicfit__vnum(tok[i + 3], &(double){ 0 }))
		return -1;
	w = strlen(tok[i + 4]);
	return w >= 5 && !strcmp(tok[i + 4] + w - 5, "Bytes") ? k : -1;
}

static void add_retr(struct run *r, long k, int is_sum)
{
	if (k >= 0) {
		r->retr[is_sum] += k;
		r->nretr[is_sum]++;
	}
}

/* The interval "0.00-30.00" among the first tokens: its start and end. */
static int interval(char **tok, int n, double *a, double *b)
{
	int i;

	for (i = 1; i < n && i < 4; i++) {
		char *dash = strchr(tok[i], '-');

		if (dash && dash > tok[i]) {
			/* iperf 2.0's "0.0- 1.0 sec": the end is the next token */
			const char *end = dash[1] || i + 1 >= n ? dash + 1 : tok[i + 1];

			*dash = '\0';
			if (!nicfit__vnum(tok[i], a) && !nicfit__vnum(end, b) && *b >= *a) {
				*dash = '-';
				return 1;
			}
			*dash = '-';
		}
	}
	return 0;
}

/* iperf2 -e's Rtry column: after the rate, "Write/Err" ("818/0") then the count; -1 none. */
static long rtry_column(char **tok, int n, int i)
{
	const char *slash;

	if (i + 3 >= n || !(slash = strchr(tok[i + 2], '/')) || slash == tok[i + 2] ||
	    nicfit__vint(slash + 1, NULL) < 0)
		return -1;
	return nicfit__vint(tok[i + 3], NULL);
}

struct ip2_line {
	double a, b, g, jit;
	long lost, total, line;
	int is_sum, udp;
	long rtry;
};

/*
 * An iperf2 line: the whole run is the line from 0 that ends last, [SUM]
 * first, and the Server Report's line of the same interval, with the
 * datagrams. Every TCP line is also summed, with its Rtry (-e): a run cut
 * before its whole-run line (some interval starts where the kept line
 * ends) is read from them (from_intervals).
 */
static void iperf2_line(struct run *r, const struct ip2_line *x)
{
	struct nicfit_iperf3 *ip = &r->d->u.ip;

	if (x->a == 0 && (x->b > r->best_end || (x->b == r->best_end && x->is_sum && !r->best_sum) ||
			  (x->b == r->best_end && x->udp && !ip->datagrams))) {
		r->best_end = x->b;
		r->best_sum = x->is_sum;
		ip->receiver_gbps = x->g;
		ip->duration_s = x->b;
		ip->sum_line = x->line;
		ip->retransmits = x->rtry;
		if (x->udp) {
			ip->udp = 1;
			ip->lost = x->lost;
			ip->datagrams = x->total;
			ip->jitter_ms = x->jit;
			ip->loss_line = x->line;
		}
	}
	if (x->udp)
		return;
	if (x->a > r->last_start)
		r->last_start = x->a;
	r->dir[0].sum[x->is_sum] += x->g;
	r->dir[0].n[x->is_sum]++;
	r->last_interval = x->line;
	if (x->b > r->last_end)
		r->last_end = x->b;
	add_retr(r, x->rtry, x->is_sum);
}

/* One "[..] a-b sec ... N Xbits/sec ..." line of the current tool. */
static int result_line(struct ip_state *s, char *p, const struct nicfit__vlines *l,
		       struct nicfit_error *err)
{
	char *tok[NICFIT__VTOK_MAX];
	int n, i, is_sum = !strncmp(p, "[SUM]", 5), rx = strstr(p, "[RX-") != NULL;
	int sender = 0, receiver = 0, udp;
	double g = -1, a, b, jit = -1;
	long lost = 0, total = 0;
	char *q;
	struct run *r;
	struct nicfit_iperf3 *ip;

	/* Markdown bold around a figure ("**1006 Mbits/sec**") is the paste's, not iperf's */
	for (q = strchr(p, '*'); q; q = strchr(q, '*'))
		*q = ' ';
	n = nicfit__split_blanks(p, tok, NICFIT__VTOK_MAX);
	for (i = 0; i < n - 1; i++)
		if ((g = rate_gbps(tok, n, i)) >= 0)
			break;
	if (g < 0 || !interval(tok, n, &a, &b))
		return 0;
	if (nicfit__vbound(err, s->name, l->lineno, tok[i] - l->buf + 1, "rate", g,
			   NICFIT__VMAX_GBPS, "Gb/s") ||
	    nicfit__vbound(err, s->name, l->lineno, 1, "interval end", b, NICFIT__VMAX_FIGURE, "s"))
		return NICFIT_E_DATA;
	sender = !strcmp(tok[n - 1], "sender");
	receiver = !strcmp(tok[n - 1], "receiver");
	udp = udp_report(tok, n, i, &jit, &lost, &total);
	/*
	 * iperf3 before 3.1 ends a UDP run with "Test Complete. Summary
	 * Results:" and a line with no role word: the receiver's counts
	 */
	if (s->summary && s->tool == 0 && !sender && !receiver) {
		receiver = udp;
		sender = !udp;
	}
	if (sender || receiver)
		s->tool = 0;
	r = run_of(s);
	ip = &r->d->u.ip;
	ip->sum |= is_sum;
	if (strstr(p, "[TX-") || rx)
		ip->bidir = 1;
	if (s->tool == 1) {
		struct ip2_line x = { a, b, g, jit, lost, total, l->lineno, is_sum, udp,
				      rtry_column(tok, n, i) };

		iperf2_line(r, &x);
		return 0;
	}
	if (sender || receiver) {
		if (!is_sum && r->have_sum)
			return 0;
		r->have_sum |= is_sum;
		if (ip->bidir ? !rx : sender) {
			ip->sender_gbps = g;
			if (sender && i + 3 < n && nicfit__vint(tok[i + 2], NULL) >= 0)
				ip->retransmits = nicfit__vint(tok[i + 2], NULL);
			ip->sum_line = l->lineno;
		} else {
			ip->receiver_gbps = g;
			if (!ip->sum_line)
				ip->sum_line = l->lineno;
		}
		ip->duration_s = b;
		ip->intervals = 0;
		/* the receiver's count is the one that saw the loss; a sender's is 0/N */
		if (udp && (receiver || !ip->datagrams || lost > ip->lost)) {
			ip->udp = 1;
			ip->lost = lost;
			ip->datagrams = total;
			ip->jitter_ms = jit;
			ip->loss_line = l->lineno;
		}
		return 0;
	}
	if (udp && !is_sum)
		udp_interval(r, jit, lost, total, l->lineno);
	else if (!udp && !rx)
		add_retr(r, retr_column(tok, n, i, is_sum), is_sum);
	r->dir[rx].sum[is_sum] += g;
	r->dir[rx].n[is_sum]++;
	r->last_interval = l->lineno;
	if (!rx)
		r->last_tx = l->lineno;
	if (b > r->last_end)
		r->last_end = b;
	return 0;
}

/*
 * An iperf2 TCP run cut before its whole-run line: the mean of its interval
 * lines ([SUM] ones when there are, one stream's only when it ran alone)
 * and their Rtry column summed, a partial count.
 */
static void iperf2_cut(struct run *r)
{
	struct nicfit_iperf3 *ip = &r->d->u.ip;
	int w = r->dir[0].n[1] ? 1 : 0;

	ip->receiver_gbps = -1;
	ip->retransmits = -1;
	ip->sum_line = r->last_interval;
	ip->duration_s = r->last_end;
	if (!r->dir[0].n[w] || (!w && ip->streams > 1))
		return;
	ip->receiver_gbps = r->dir[0].sum[w] / r->dir[0].n[w];
	ip->intervals = r->dir[0].n[w];
	if (r->nretr[w]) {
		ip->retransmits = r->retr[w];
		ip->retr_intervals = r->nretr[w];
	}
}

/* No summary: each direction's mean of its interval lines ([SUM] ones when there are). */
static void from_intervals(struct run *r)
{
	struct nicfit_iperf3 *ip = &r->d->u.ip;
	int k;

	if (r->datagrams && !ip->datagrams) {
		ip->lost = r->lost;
		ip->datagrams = r->datagrams;
		ip->jitter_ms = r->jitter;
		ip->loss_line = r->worst_line;
	}
	/* no sender summary: the Retr column of the lines read, [SUM] ones when there are */
	if (ip->retransmits < 0 && ip->sender_gbps < 0 && !ip->udp &&
	    r->d->kind == NICFIT_VERIFY_IPERF3 && (r->nretr[0] || r->nretr[1])) {
		k = r->nretr[1] ? 1 : 0;
		ip->retransmits = r->retr[k];
		ip->retr_intervals = r->nretr[k];
	}
	if (r->d->kind == NICFIT_VERIFY_IPERF2 && !ip->udp && r->last_start > 0 &&
	    r->last_start >= r->best_end) {
		iperf2_cut(r);
		return;
	}
	if (ip->sender_gbps >= 0 || ip->receiver_gbps >= 0 || r->d->kind == NICFIT_VERIFY_IPERF2)
		return;
	for (k = 0; k < 2; k++) {
		int w = r->dir[k].n[1] ? 1 : 0;
		double m;

		/* several streams and no [SUM] lines: one stream's line is not the run's */
		if (!r->dir[k].n[w] || (!w && ip->streams > (ip->bidir ? 2 : 1)))
			continue;
		m = r->dir[k].sum[w] / r->dir[k].n[w];
		ip->intervals += r->dir[k].n[w];
		ip->sum_line = r->last_tx ? r->last_tx : r->last_interval;
		if (ip->duration_s <= 0)
			ip->duration_s = r->last_end;
		if (k == 0 && (ip->bidir || !ip->udp))
			ip->sender_gbps = m;
		else
			ip->receiver_gbps = m;
	}
}

/* Lines that say whose output follows: a command, a banner, a header. */
static void which_tool(struct ip_state *s, char *p, int *streams)
{
	int t = command_line(p, streams);

	if (t) {
		s->tool = t == 2;
		if (*streams)
			s->r[s->tool].streams_given = *streams;
	} else if (strstr(p, "Client connecting to ") || strstr(p, "Server listening on TCP port") ||
		   strstr(p, "Server listening on UDP port") || strstr(p, "] Server Report:") ||
		   strstr(p, "Interval       Transfer     Bandwidth")) {
		s->tool = 1;
	} else if (strstr(p, "Connecting to host ") || strstr(p, "[ ID][Role]") ||
		   strstr(p, "Bitrate") || strstr(p, "iperf 3.") ||
		   strstr(p, "Interval           Transfer")) {
		s->tool = 0;
	}
}

struct nicfit__viperf *nicfit__viperf_new(const char *name)
{
	struct ip_state *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->name = nicfit__vstrdup(name);
	if (!s->name) {
		free(s);
		return NULL;
	}
	nicfit_error_clear(&s->err);
	return (struct nicfit__viperf *)s;
}

int nicfit__viperf_line(struct nicfit__viperf *x, const char *line, size_t n, long lineno)
{
	struct ip_state *s = (struct ip_state *)x;
	char *p, *ver;
	struct run *r;
	int streams;

	if (s->rc)
		return s->rc;
	nicfit__vlines_set(&s->l, line, n, lineno);
	p = nicfit__vskip_tags(s->l.buf);
	p += strspn(p, " >\t");
	which_tool(s, p, &streams);
	if (!strncmp(p, "- - - -", 7) || strstr(p, "Summary Results:"))
		s->summary = 1;
	else if (strstr(p, "Connecting to host ") || strstr(p, "Accepted connection from"))
		s->summary = 0;
	if ((ver = strstr(p, "iperf 3.")) != NULL && (ver == p || ver[-1] == ' ')) {
		r = run_of(s);
		if (!r->d->u.ip.version[0])
			nicfit__vcopy(r->d->u.ip.version, sizeof(r->d->u.ip.version), ver + 6,
				      strcspn(ver + 6, " "));
	} else if (strstr(p, "Server listening on ") || strstr(p, "Connecting to host ") ||
		   strstr(p, "Client connecting to ")) {
		run_of(s);
	} else if (p[0] == '[' && strstr(p, " connected to ")) {
		run_of(s)->d->u.ip.streams++;
	} else if (strstr(p, "Jitter") && (strstr(p, "Lost/Total") || strstr(p, "Lost/ Total"))) {
		run_of(s)->d->u.ip.udp = 1;
	} else if (p[0] == '[' && strstr(p, "bits/sec")) {
		s->rc = result_line(s, p, &s->l, &s->err);
	}
	return s->rc;
}

int nicfit__viperf_end(struct nicfit__viperf *x, struct nicfit_verify *v, const char *name,
		       struct nicfit_error *err)
{
	struct ip_state *s = (struct ip_state *)x;
	int rc, k;

	if (!s)
		return 0;
	rc = s->rc;
	if (rc && err && err->code == NICFIT_OK)
		*err = s->err;
	for (k = 0; k < 2 && !rc; k++) {
		struct run *r = &s->r[k];

		if (!r->d)
			continue;
		if (r->streams_given)
			r->d->u.ip.streams = r->streams_given;
		from_intervals(r);
	}
	if (!rc && !s->nmade) {
		s->tool = 0;
		run_of(s);
	}
	for (k = 0; k < s->nmade; k++) {
		int r2 = nicfit__verify_doc_put(v, &s->docs[s->order[k]], name, rc);

		if (r2 && !rc) {
			rc = r2;
			nicfit_error_set(err, rc, "out of memory");
		}
	}
	free(s->name);
	free(s);
	return rc;
}

int nicfit__verify_iperf3_text(struct nicfit_verify *v, const char *name, const char *text,
			       size_t len, struct nicfit_error *err)
{
	struct nicfit__viperf *s = nicfit__viperf_new(name);
	struct nicfit__vlines l;
	const char *line;
	size_t n;

	if (!s)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__vlines_init(&l, text, len);
	while (nicfit__vscan_next(&l, &line, &n) && !nicfit__viperf_line(s, line, n, l.lineno))
		;
	return nicfit__viperf_end(s, v, name, err);
}

/* ---- a fragment of iperf3 --json -------------------------------------------- */

/* "key":<blanks>value on line: the value's start, or NULL. */
static const char *jmember(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	if (!p)
		return NULL;
	p += strlen(key);
	p += strspn(p, " \t");
	if (*p != ':')
		return NULL;
	p++;
	return p + strspn(p, " \t");
}

/*
 * What a cut iperf3 --json document (no "end" to read, or no start at
 * all) shows line by line: the version, "num_streams", "protocol",
 * "duration" of "test_start". Nothing is measured: it says it is cut.
 */
int nicfit__verify_iperf3_fragment(struct nicfit_verify *v, const char *name, const char *text,
				   size_t len, struct nicfit_error *err)
{
	struct nicfit__vlines *l = malloc(sizeof(*l));
	struct nicfit_verify_doc *d;
	struct nicfit_iperf3 *ip;
	const char *p;
	char *line;

	if (!l)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	d = nicfit__verify_doc_add(v, NICFIT_VERIFY_IPERF3, name);
	if (!d) {
		free(l);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	ip = &d->u.ip;
	ip->json = ip->cut = 1;
	ip->retransmits = -1;
	ip->sender_gbps = ip->receiver_gbps = -1;
	ip->jitter_ms = -1;
	nicfit__vlines_init(l, text, len);
	while ((line = nicfit__vlines_next(l)) != NULL) {
		long k;

		if ((p = jmember(line, "\"version\"")) && !strncmp(p, "\"iperf 3.", 9) &&
		    !ip->version[0])
			nicfit__vcopy(ip->version, sizeof(ip->version), p + 7, strcspn(p + 7, "\""));
		else if ((p = jmember(line, "\"num_streams\"")) && (k = nicfit__vint(p, NULL)) > 0 &&
			 k < 1000000)
			ip->streams = (int)k;
		else if ((p = jmember(line, "\"protocol\"")))
			ip->udp = !strncmp(p, "\"UDP\"", 5);
		else if ((p = jmember(line, "\"duration\"")) && (k = nicfit__vint(p, NULL)) >= 0 &&
			 k < 1000000000)
			ip->duration_s = (double)k;
	}
	free(l);
	return 0;
}
