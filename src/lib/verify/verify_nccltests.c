/*
 * verify_nccltests.c - nccl-tests tables: the header lines (ranks, hosts,
 * devices, the collective), the rows (size, count, type, redop, root, and
 * time/algbw/busbw/#wrong out of place and in place), the average and the
 * out-of-bounds lines; and the bus-bandwidth factor nccl-tests multiplies
 * algbw by. Every version's layout is read: with or without the root
 * column, "#wrong" or the older "error" column, in-place columns or not,
 * rows interleaved with rank tags.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/num_int.h"
#include "verify/verify_int.h"

/*
 * nccl-tests' doc/PERFORMANCE.md defines busbw = algbw x factor, the
 * factor making the figure comparable with the hardware's link rate
 * whatever the number of ranks: 2(n-1)/n for AllReduce (every byte is
 * reduced and then gathered), (n-1)/n for ReduceScatter, AllGather and
 * AlltoAll, 1 for Broadcast, Reduce and SendRecv.
 */
double nicfit_nccl_bus_factor(const char *op, int n)
{
	if (!op || n < 1)
		return 0;
	if (!strcmp(op, "allreduce"))
		return 2.0 * (n - 1) / n;
	if (!strcmp(op, "allgather") || !strcmp(op, "reducescatter") || !strcmp(op, "alltoall"))
		return (double)(n - 1) / n;
	if (!strcmp(op, "broadcast") || !strcmp(op, "reduce") || !strcmp(op, "sendrecv") ||
	    !strcmp(op, "hypercube") || !strcmp(op, "gather") || !strcmp(op, "scatter"))
		return 1.0;
	return 0;
}

/* "all_reduce_perf" -> "allreduce". */
static void op_from_binary(const char *bin, char *op, size_t size)
{
	static const struct { const char *bin, *op; } t[] = {
		{ "all_reduce", "allreduce" }, { "all_gather", "allgather" },
		{ "reduce_scatter", "reducescatter" }, { "alltoall", "alltoall" },
		{ "sendrecv", "sendrecv" }, { "broadcast", "broadcast" },
		{ "reduce_perf", "reduce" }, { "hypercube", "hypercube" },
		{ "gather", "gather" }, { "scatter", "scatter" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strstr(bin, t[i].bin)) {
			nicfit__vcopy(op, size, t[i].op, (size_t)-1);
			return;
		}
}

/* "#  Rank  0 Group  0 Pid 313 on host device  0 [0x18] NVIDIA H100 80GB HBM3" */
#define MAX_HOSTS 256
/* Rank numbers kept to tell a rank printed twice (separate jobs). */
#define MAX_RANKS 65536

/* What a parse keeps besides the document: the lines, and the hosts seen. */
struct ctx {
	struct nicfit__vlines l;
	char hosts[MAX_HOSTS][64];
	size_t nhosts;
	int wrong_col;
	unsigned char seen[MAX_RANKS / 8];  /* rank numbers read */
	int max_rank;                       /* the highest, -1 none */
};

static void read_rank(struct nicfit_nccl_tests *t, char *p, struct ctx *c)
{
	char *on = strstr(p, " on "), *br, *h;
	const char *r = p + 5;
	size_t i, n;
	long k;

	t->nranks++;
	/*
	 * Under MPI rank 0 prints one line per rank (nccl-tests src/common.cu);
	 * built without MPI, every process is rank 0 of its own job and prints
	 * its own header and "Rank 0": a rank number twice is separate jobs.
	 */
	r += strspn(r, " ");
	k = nicfit__vint(r, NULL);
	if (k >= 0 && k < MAX_RANKS) {
		if (c->seen[k / 8] & (1u << (k % 8))) {
			if (!t->jobs)
				t->jobs_line = c->l.lineno;
			t->jobs = t->jobs ? t->jobs + (k == 0) : 2;
		}
		c->seen[k / 8] |= (unsigned char)(1u << (k % 8));
		if (k > c->max_rank)
			c->max_rank = (int)k;
	}
	if (!on)
		return;
	h = on + 4;
	while (*h == ' ')
		h++;
	for (n = 0; h[n] && h[n] != ' '; n++)
		;
	for (i = 0; i < c->nhosts; i++)
		if (strlen(c->hosts[i]) == n && !strncmp(c->hosts[i], h, n))
			break;
	if (i == c->nhosts && c->nhosts < MAX_HOSTS) {
		nicfit__vcopy(c->hosts[c->nhosts], 64, h, n);
		c->nhosts++;
	}
	br = strchr(h, ']');
	if (br && !t->gpu[0]) {
		br++;
		while (*br == ' ')
			br++;
		nicfit__vcopy(t->gpu, sizeof(t->gpu), br, (size_t)-1);
	}
}

/*
 * The summary lines, as nccl-tests prints them (src/common.cu, from v2.17.3
 * writeResultFooter() in src/util.cu; with "# " in front from v2.0.0, with
 * one space in v1.0.0):
 *
 *	"# %-20s : %d %s\n", "Out of bounds values", errors, errors ? "FAILED" : "OK"
 *	"# %-20s : %g %s\n", "Avg bus bandwidth", bw, check == -1 ? "" : bw < check * 0.9 ?
 *							  "FAILED" : "OK"
 *
 * so the average is followed by a space and nothing, or by "OK" or "FAILED"
 * when NCCL_TESTS_MIN_BW set the check (nccl-tests then exits with an error
 * on FAILED). Any other word after the number is a paste's and is left.
 */
static int read_summary(struct nicfit_nccl_tests *t, char *p, const struct ctx *c,
			const char *name, struct nicfit_error *err)
{
	long line = c->l.lineno;
	char *q, *w;
	double d;
	size_t n;

	if ((q = strstr(p, "Avg bus bandwidth")) != NULL) {
		q = strchr(q, ':');
		if (!q)
			return 0;
		q += 1 + strspn(q + 1, " \t");
		n = strcspn(q, " \t");
		w = q + n + strspn(q + n, " \t");
		q[n] = '\0';
		if (nicfit__vnum_any(q, &d))
			return 0;
		if (nicfit__vbound(err, name, line, q - c->l.buf + 1, "Avg bus bandwidth", d,
				   NICFIT__VMAX_GBPS / 8, "GB/s") ||
		    nicfit__vnonneg(err, name, line, q - c->l.buf + 1, "Avg bus bandwidth", d, "GB/s"))
			return NICFIT_E_DATA;
		t->avg_busbw = d;
		t->avg_line = line;
		t->avg_ok = !strncmp(w, "OK", 2) ? 1 : !strncmp(w, "FAILED", 6) ? 0 : -1;
	} else if ((q = strstr(p, "Out of bounds values")) != NULL) {
		q = strchr(q, ':');
		if (q) {
			long k = nicfit__vint(q + 1 + strspn(q + 1, " "), NULL);

			if (k > 0 && t->wrong <= 0) {
				t->wrong = k;
				t->wrong_line = line;
			}
		}
	}
	return 0;
}

/* The header and summary lines, which all start with '#'. Returns 0 or NICFIT_E_DATA. */
static int read_comment(struct nicfit_nccl_tests *t, char *p, struct ctx *c, const char *name,
			struct nicfit_error *err)
{
	long line = c->l.lineno;
	char *q;

	p++;
	while (*p == ' ')
		p++;
	if (!strncmp(p, "Rank ", 5)) {
		read_rank(t, p, c);
	} else if (strstr(p, "Avg bus bandwidth") || strstr(p, "Out of bounds values")) {
		return read_summary(t, p, c, name, err);
	} else if ((q = strstr(p, "test starting:")) != NULL) {
		q += 14;
		while (*q == ' ')
			q++;
		nicfit__vcopy(t->collective, sizeof(t->collective), q, strcspn(q, " "));
	} else if (strstr(p, "size") && strstr(p, "count") && strstr(p, "busbw")) {
		c->wrong_col = strstr(p, "#wrong") != NULL;
		t->header_line = line;
	} else if (strstr(p, "out-of-place") && !t->header_line) {
		t->header_line = line;
	}
	return 0;
}

static int is_word(const char *s)
{
	return (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z');
}

/*
 * A row's figures within NICFIT__VMAX_*: sizes, counts and times in
 * microseconds as figures, algbw and busbw (GB/s) as rates; a time or
 * rate that is inf, nan or below 0 is no measurement either. Such a row
 * refuses the input at the figure's line and column, whatever the
 * figure's spelling ("1e308", "inf", "-nan"): dropping it would leave the
 * judgement to the rows around it. Returns 0 or NICFIT_E_DATA.
 */
static int row_bounds(char **tok, int n, const double *v, int base, const struct ctx *c,
		      const char *name, struct nicfit_error *err)
{
	static const char *const what[] = { "time", "algbw", "busbw" };
	double x;
	int i, k;

	for (i = 0; i < 2; i++)
		if (!nicfit__vnum(tok[i], &x) &&
		    nicfit__vbound(err, name, c->l.lineno, tok[i] - c->l.buf + 1,
				   i ? "count" : "size", x, NICFIT__VMAX_FIGURE, i ? "" : "bytes"))
			return NICFIT_E_DATA;
	for (i = base; i < n - 4; i++) {
		k = (i - base) % 4;
		if (k == 3)
			continue;
		if (nicfit__vbound(err, name, c->l.lineno, tok[4 + i] - c->l.buf + 1, what[k], v[i],
				   k ? NICFIT__VMAX_GBPS / 8 : NICFIT__VMAX_FIGURE, k ? "GB/s" : "us") ||
		    nicfit__vnonneg(err, name, c->l.lineno, tok[4 + i] - c->l.buf + 1, what[k], v[i],
				    k ? "GB/s" : "us"))
			return NICFIT_E_DATA;
	}
	return 0;
}

/* One data row, 0 when the line is not one, or a negative status (err set on data). */
static int read_row(struct nicfit_nccl_tests *t, char *p, struct ctx *c, const char *name,
		    struct nicfit_error *err)
{
	char *tok[NICFIT__VTOK_MAX];
	double v[NICFIT__VTOK_MAX];
	int n, i, k, nv = 0, base, wrong_col = c->wrong_col;
	long line = c->l.lineno;
	struct nicfit_nccl_row r;

	nicfit__vblank_rank_tags(p);
	n = nicfit__split_blanks(p, tok, NICFIT__VTOK_MAX);
	if (n < 6 || !is_word(tok[2]) || !is_word(tok[3]))
		return 0;
	memset(&r, 0, sizeof(r));
	if (nicfit__vnum(tok[0], &r.bytes) || nicfit__vnum(tok[1], &r.count) || r.bytes < 0)
		return 0;
	nicfit__vcopy(r.type, sizeof(r.type), tok[2], (size_t)-1);
	nicfit__vcopy(r.redop, sizeof(r.redop), tok[3], (size_t)-1);
	for (i = 4; i < n; i++) {
		/* inf, nan and 1e999 are figures too, refused with their column (row_bounds) */
		if (!strcmp(tok[i], "N/A"))
			v[nv++] = 0;
		else if (!nicfit__vnum_any(tok[i], &v[nv]))
			nv++;
		else
			return 0;
	}
	/* root (when printed) then 4 numbers per column group */
	base = nv % 4;
	if (nv < 4 || base > 1)
		return 0;
	if (row_bounds(tok, n, v, base, c, name, err))
		return NICFIT_E_DATA;
	for (k = 0; k < 2; k++) {
		r.time_us[k] = r.algbw[k] = r.busbw[k] = -1;
		if (base + 4 * k + 3 < nv) {
			r.time_us[k] = v[base + 4 * k];
			r.algbw[k] = v[base + 4 * k + 1];
			r.busbw[k] = v[base + 4 * k + 2];
			if (wrong_col && v[base + 4 * k + 3] > 0) {
				/* a count past 10^15 (no run checks that many elements) counts as 10^15 */
				long w = v[base + 4 * k + 3] < 1e15 ? (long)v[base + 4 * k + 3] :
					 1000000000000000L;

				t->wrong = t->wrong > LONG_MAX - w ? LONG_MAX : t->wrong + w;
				if (!t->wrong_line)
					t->wrong_line = line;
			}
		}
	}
	r.line = line;
	if (NICFIT_ALLOC_GROW(t->rows, t->nrows + 1, t->alloc))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	t->rows[t->nrows++] = r;
	return 1;
}

/*
 * The collective, when the run does not name it: busbw / algbw of the
 * largest row is the factor, which tells AllReduce (above 1) from the
 * (n-1)/n family and from 1, and gives n.
 */
static void infer_op(struct nicfit_nccl_tests *t)
{
	size_t i, best = t->nrows;
	double f;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].algbw[0] > 0.5 &&
		    (best == t->nrows || t->rows[i].algbw[0] > t->rows[best].algbw[0]))
			best = i;
	if (best == t->nrows)
		return;
	f = t->rows[best].busbw[0] / t->rows[best].algbw[0];
	if (!t->op[0]) {
		if (f > 1.0 + 0.02)
			snprintf(t->op, sizeof(t->op), "allreduce");
		else if (f < 1.0 - 0.02)
			snprintf(t->op, sizeof(t->op), "%s",
				 strcmp(t->rows[best].redop, "none") ? "reducescatter" : "allgather");
		/* a factor of 1: AllReduce on 2 ranks, Reduce, Broadcast or SendRecv */
	}
	if (!t->nranks) {
		if (!strcmp(t->op, "allreduce") && f < 2.0 - 0.01)
			t->nranks = (int)lround(2.0 / (2.0 - f));
		else if (f < 1.0 - 0.01)
			t->nranks = (int)lround(1.0 / (1.0 - f));
	}
}

/*
 * The launcher's counts where the Rank lines give none: nccl-tests runs
 * nthreads x ngpus ranks a process (nranks = nProcs * nThreads * nGpus in
 * src/common.cu), so ranks = processes x -t x -g and the GPUs a node are
 * the processes a node x -t x -g; nodes = ranks / GPUs a node.
 */
static void from_launcher(struct nicfit_nccl_tests *t)
{
	const struct nicfit_launch *L = &t->launch;
	int g = L->gpus_per_proc > 0 ? L->gpus_per_proc : 1;

	if (!L->tool[0])
		return;
	if (!t->nranks && L->procs) {
		t->nranks = L->procs * g;
		t->ranks_from = "launcher";
	}
	if (!t->nodes && L->nodes) {
		t->nodes = L->nodes;
		t->nodes_from = "launcher";
	} else if (!t->nodes && t->nranks && L->per_node && t->nranks % (L->per_node * g) == 0) {
		t->nodes = t->nranks / (L->per_node * g);
		t->nodes_from = "ranks / per node";
	}
}

static void find_peak(struct nicfit_nccl_tests *t)
{
	size_t i;
	int k;
	double best = -1;

	for (i = 0; i < t->nrows; i++)
		for (k = 0; k < 2; k++)
			if (t->rows[i].busbw[k] > best + NICFIT_EPS) {
				best = t->rows[i].busbw[k];
				t->peak = i;
				t->peak_inplace = k;
			}
}

static void read_version(struct nicfit_nccl_tests *t, const char *p)
{
	const char *q = strstr(p, "NCCL version ");
	const char *b = strstr(p, "_perf");

	/* the command line or "test starting" names the binary: ./build/all_reduce_perf */
	if (b && !t->collective[0]) {
		const char *s = b;

		while (s > p && s[-1] != '/' && s[-1] != ' ' && s[-1] != ':')
			s--;
		nicfit__vcopy(t->collective, sizeof(t->collective), s, (size_t)(b - s) + 5);
	}

	if (q && !t->version[0]) {
		q += 13;
		nicfit__vcopy(t->version, sizeof(t->version), q, strcspn(q, "+ "));
	}
}

/* One nccl-tests output read line by line (the single pass of verify.c feeds it). */
struct nicfit__vtests {
	struct ctx c;
	struct nicfit_verify_doc d;
	struct nicfit_error err;
	char *name;
	int rc;
};

struct nicfit__vtests *nicfit__vtests_new(const char *name)
{
	struct nicfit__vtests *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->name = nicfit__vstrdup(name);
	if (!s->name) {
		free(s);
		return NULL;
	}
	nicfit__verify_doc_init(&s->d, NICFIT_VERIFY_NCCL_TESTS);
	nicfit_error_clear(&s->err);
	s->d.u.t.avg_busbw = -1;
	s->d.u.t.avg_ok = -1;
	s->c.wrong_col = 1;
	s->c.max_rank = -1;
	return s;
}

int nicfit__vtests_line(struct nicfit__vtests *s, const char *line, size_t n, long lineno)
{
	struct nicfit_nccl_tests *t = &s->d.u.t;
	struct ctx *c = &s->c;
	char *p;
	int r;

	if (s->rc)
		return s->rc;
	nicfit__vlines_set(&c->l, line, n, lineno);
	p = nicfit__vskip_tags(c->l.buf);
	if (!t->launch.tool[0] && nicfit__vlaunch_maybe(p))
		nicfit__verify_launch_line(&t->launch, p, lineno);
	read_version(t, p);
	if (*p == '#') {
		s->rc = read_comment(t, p, c, s->name, &s->err);
	} else if (!strncmp(p + strspn(p, " "), "Rank ", 5)) {
		read_rank(t, p, c);
	} else if (!strncmp(p, "Avg bus bandwidth", 17) ||
		   !strncmp(p, "Out of bounds values", 20)) {
		s->rc = read_summary(t, p, c, s->name, &s->err);
	} else if (strstr(p, "NCCL INFO") || strstr(p, "NCCL WARN")) {
		return 0;
	} else if ((r = read_row(t, p, c, s->name, &s->err)) < 0) {
		s->rc = r;
	}
	return s->rc;
}

int nicfit__vtests_record(struct nicfit__vtests *s, const char *line, size_t n, long lineno)
{
	/* of an NCCL record, a table's reader takes the version and the binary's name */
	const struct nicfit_nccl_tests *t = &s->d.u.t;

	/* read_version keeps the first of each: once both are known, nothing to look for */
	if (s->rc || ((t->version[0] || !nicfit__vmemmem(line, n, "version ", 8)) &&
		      (t->collective[0] || !nicfit__vmemmem(line, n, "_perf", 5))))
		return s->rc;
	nicfit__vlines_set(&s->c.l, line, n, lineno);
	read_version(&s->d.u.t, nicfit__vskip_tags(s->c.l.buf));
	return 0;
}

/* What the table says once read whole: nodes, ranks and where from, the collective, the peak. */
static void tests_finish(struct nicfit_nccl_tests *t, const struct ctx *c)
{
	t->nodes = (int)c->nhosts;
	if (t->nranks)
		t->ranks_from = "rank lines";
	if (t->nodes)
		t->nodes_from = "rank lines";
	if (t->jobs > 1) {
		/* each job's ranks are 0..max_rank; a one-rank job runs on one node */
		t->nranks = c->max_rank + 1;
		t->nodes = t->nranks == 1 ? 1 : 0;
		t->nodes_from = t->nodes ? "rank lines" : NULL;
	} else {
		/*
		 * A paste that starts inside the Rank list ("Rank 15" alone): rank
		 * 15 means 16 ranks, and the hosts of the lines shown are not all
		 */
		if (c->max_rank + 1 > t->nranks) {
			t->nranks = c->max_rank + 1;
			t->nodes = 0;
			t->nodes_from = NULL;
		}
		from_launcher(t);
	}
	if (t->collective[0])
		op_from_binary(t->collective, t->op, sizeof(t->op));
	infer_op(t);
	if (t->nranks && !t->ranks_from)
		t->ranks_from = "bus factor";
	find_peak(t);
	t->truncated = t->nrows && t->avg_busbw < 0;
	t->bus_factor = nicfit_nccl_bus_factor(t->op, t->nranks);
}

int nicfit__vtests_end(struct nicfit__vtests *s, struct nicfit_verify *v, const char *name,
		       struct nicfit_error *err)
{
	int rc;

	if (!s)
		return 0;
	rc = s->rc;
	if (rc && err && err->code == NICFIT_OK)
		*err = s->err;
	if (!rc)
		tests_finish(&s->d.u.t, &s->c);
	rc = nicfit__verify_doc_put(v, &s->d, name, rc);
	if (rc && !s->rc)
		nicfit_error_set(err, rc, "out of memory");
	free(s->name);
	free(s);
	return rc;
}

int nicfit__verify_nccl_tests(struct nicfit_verify *v, const char *name, const char *text,
			      size_t len, struct nicfit_error *err)
{
	struct nicfit__vtests *s = nicfit__vtests_new(name);
	struct nicfit__vlines l;
	const char *line;
	size_t n;

	if (!s)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__vlines_init(&l, text, len);
	while (nicfit__vscan_next(&l, &line, &n) && !nicfit__vtests_line(s, line, n, l.lineno))
		;
	return nicfit__vtests_end(s, v, name, err);
}
