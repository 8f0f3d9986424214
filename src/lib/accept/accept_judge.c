/*
 * accept_judge.c - a results directory judged: each step's output read by
 * verify (the same readers and the same ceiling as `nicfit verify`, given
 * the step's own expectation: one rail between two nodes, every rail of
 * every node, one node's NVLink, one front-end port) and its figure put
 * against the step's band.
 *
 * verify's verdict uses verify's thresholds; the step's status uses the
 * band the runbook printed, so that what was promised is what is judged
 * (the two agree on the network stages; on NVLink the band's typical line
 * is NVIDIA's ring efficiency, which verify does not claim). verify's
 * findings on the output (GPUDirect disabled, NET/Socket, retransmits,
 * small messages...) are the step's first causes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/num_int.h"
#include "nicfit/file.h"
#include "nicfit/link.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"
#include "accept/accept_int.h"

/* A results directory holds at most this many files (a 4096-node ring is ~70,000). */
#define RESULTS_MAX_FILES 200000

/* The expectation verify judges step s with. */
static int step_expect(const struct nicfit_accept *a, const struct nicfit_accept_step *s,
		       struct nicfit_verify_expect *x)
{
	const struct nicfit_accept_system *sys = &a->sys;
	char sp[32];

	nicfit_verify_expect_init(x);
	x->source = "the acceptance runbook";
	switch (a->stages[s->stage].kind) {
	case NICFIT_ACCEPT_NVLINK:
		x->nodes = 1;
		x->gpus_per_node = sys->gpus_per_node;
		return 0;
	case NICFIT_ACCEPT_RAIL_WRITE:
	case NICFIT_ACCEPT_RAIL_READ:
	case NICFIT_ACCEPT_ALLREDUCE:
		x->link = sys->link;
		x->proto = sys->ib ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
		x->pcie_gbps = sys->rail_pcie_gbps;
		x->nodes = s->rail >= 0 ? 2 : sys->nodes;
		x->gpus_per_node = s->rail >= 0 ? 1 : sys->gpus_per_node;
		x->nics_per_node = s->rail >= 0 ? 1 : sys->rails;
		return 0;
	case NICFIT_ACCEPT_FRONTEND:
		snprintf(sp, sizeof(sp), "%gGbE", sys->fe_port_gbps);
		x->proto = NICFIT_PROTO_TCP;
		x->nodes = 2;
		return nicfit_parse_speed(sp, "front end", &x->link, NULL);
	case NICFIT_ACCEPT_STORAGE:
		break;
	}
	return NICFIT_E_INTERNAL;
}

static int doc_fits(enum nicfit_accept_kind k, const struct nicfit_verify_doc *d)
{
	switch (k) {
	case NICFIT_ACCEPT_NVLINK:
	case NICFIT_ACCEPT_ALLREDUCE:
		return d->kind == NICFIT_VERIFY_NCCL_TESTS;
	case NICFIT_ACCEPT_RAIL_WRITE:
	case NICFIT_ACCEPT_RAIL_READ:
		/* the step's own test: a Send BW or the other direction's figure is not it */
		return d->kind == NICFIT_VERIFY_PERFTEST && !d->u.pt.latency &&
		       (!d->u.pt.test[0] ||
			strstr(d->u.pt.test, k == NICFIT_ACCEPT_RAIL_WRITE ? "Write" : "Read"));
	case NICFIT_ACCEPT_FRONTEND:
		return d->kind == NICFIT_VERIFY_IPERF3 || d->kind == NICFIT_VERIFY_IPERF2;
	case NICFIT_ACCEPT_STORAGE:
		break;
	}
	return 0;
}

/* verify's findings on the output, the worst first, one a line; the first fix. */
static int verify_causes(struct nicfit_accept_step *s, const struct nicfit_verify *v)
{
	static const enum nicfit_severity order[] = { NICFIT_SEV_CRITICAL, NICFIT_SEV_WARNING,
						      NICFIT_SEV_INFO };
	struct nicfit_buf b;
	size_t i, k;

	nicfit_buf_init(&b, 0);
	for (k = 0; k < 3; k++)
		for (i = 0; i < v->findings.n; i++) {
			const struct nicfit_finding *f = &v->findings.v[i];

			/* the verdict's own finding restates the figure the step shows */
			if (f->severity != order[k] || !strcmp(f->code, "verify-low") ||
			    !strcmp(f->code, "verify-far-below") ||
			    !strcmp(f->code, "verify-nvlink-far-below"))
				continue;
			nicfit_buf_addf(&b, "%s: %s\n", f->code, f->message);
			if (!s->next && f->fix && !(s->next = nicfit__strfmt("%s", f->fix)))
				return NICFIT_E_NOMEM;
		}
	if (nicfit_buf_error(&b)) {
		nicfit_buf_release(&b);
		return NICFIT_E_NOMEM;
	}
	s->causes = b.len ? nicfit_buf_detach(&b, NULL) : NULL;
	nicfit_buf_release(&b);
	return 0;
}

/* The step's status from its figure and band. */
static void classify(struct nicfit_accept_step *s, const struct nicfit_accept_band *band)
{
	s->ratio = band->ceiling_gbps > 0 ? s->measured_gbps / band->ceiling_gbps : 0;
	if (s->measured_gbps + NICFIT_EPS >= band->typical_gbps)
		s->status = NICFIT_ACCEPT_PASS;
	else if (s->measured_gbps + NICFIT_EPS >= band->broken_gbps)
		s->status = NICFIT_ACCEPT_LOW;
	else
		s->status = NICFIT_ACCEPT_BROKEN;
}

/* The perftest a rail step's output holds when it is not the step's own ("Send BW Test"), or NULL. */
static const char *other_test(const struct nicfit_verify *v, enum nicfit_accept_kind k)
{
	const char *own = k == NICFIT_ACCEPT_RAIL_WRITE ? "Write" : "Read";
	size_t i;

	if (k != NICFIT_ACCEPT_RAIL_WRITE && k != NICFIT_ACCEPT_RAIL_READ)
		return NULL;
	for (i = 0; i < v->ndocs; i++)
		if (v->docs[i].kind == NICFIT_VERIFY_PERFTEST && v->docs[i].u.pt.test[0] &&
		    !strstr(v->docs[i].u.pt.test, own))
			return v->docs[i].u.pt.test;
	return NULL;
}

/* Read and judge one step's output (text of len bytes, named path). */
static int judge_text(const struct nicfit_accept *a, struct nicfit_accept_step *s,
		      const char *path, const char *text, size_t len, struct nicfit_error *err)
{
	const struct nicfit_accept_stage *st = &a->stages[s->stage];
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_verify_expect x;
	struct nicfit_error e2;
	const struct nicfit_verify_doc *d = NULL;
	size_t i;
	int rc;

	if (!v)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit_error_clear(&e2);
	rc = nicfit_verify_add_text(v, path, text, len, &e2);
	if (rc == NICFIT_E_DATA) {
		/* the tool printed no result: an error, a hang cut short, the wrong host */
		s->status = NICFIT_ACCEPT_BROKEN;
		s->what = nicfit__strfmt("no result: %s", e2.msg);
		nicfit_verify_free(v);
		return s->what ? 0 : nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	if (!rc)
		rc = step_expect(a, s, &x);
	if (!rc)
		rc = nicfit_verify_judge(v, &x, &e2);
	if (rc) {
		nicfit_verify_free(v);
		return rc == NICFIT_E_NOMEM ? nicfit_error_set(err, rc, "out of memory") :
		       nicfit_error_set(err, rc, "%s", e2.msg);
	}
	for (i = 0; i < v->ndocs; i++)
		if (doc_fits(st->kind, &v->docs[i]) && v->docs[i].measured_gbps >= 0 &&
		    (!d || v->docs[i].measured_gbps > d->measured_gbps))
			d = &v->docs[i];
	if (d) {
		s->measured_gbps = d->measured_gbps;
		s->what = nicfit__strfmt("%s", d->what ? d->what : "");
		classify(s, &st->band);
	} else {
		const char *other = other_test(v, st->kind);

		s->status = NICFIT_ACCEPT_BROKEN;
		s->what = nicfit__strfmt("no figure: the output holds no %s result%s%s%s",
					 st->kind == NICFIT_ACCEPT_FRONTEND ? "iperf" :
					 st->kind == NICFIT_ACCEPT_RAIL_WRITE ? "RDMA_Write bandwidth" :
					 st->kind == NICFIT_ACCEPT_RAIL_READ ? "RDMA_Read bandwidth" :
					 "nccl-tests", other ? " (its test is " : "", other ? other : "",
					 other ? ", not the step's)" : "");
	}
	rc = s->what ? verify_causes(s, v) : NICFIT_E_NOMEM;
	nicfit_verify_free(v);
	return rc ? nicfit_error_set(err, rc, "out of memory") : 0;
}

/*
 * gdsio's result line (NVIDIA's GPUDirect Storage tools): "IoType: READ
 * XferType: GPUD Threads: 8 DataSetSize: ... IOSize: 1024(KiB)
 * Throughput: 6.524658 GiB/sec, Avg_Latency: ..." (the line may wrap
 * before Throughput). The best READ throughput, in Gb/s, and whether its
 * transfer was GPUDirect (GPUD): gdsio -x 0 falls back to other paths
 * only when asked, but a copy of the command with -x 1 or 2 would measure
 * the CPU's bounce buffer instead. Returns 1 with a figure, 0 none.
 */
static int gdsio_figure(const char *text, size_t len, double *gbps, int *gpud, long *line)
{
	const char *p = text, *end = text + len;
	int read = 0, xfer_gpud = 0, found = 0;
	long no = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char buf[512], *t, *u;
		double v;

		no++;
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), p);
		p += n + 1;
		if ((t = strstr(buf, "IoType: ")) != NULL) {
			read = !strncmp(t + 8, "READ", 4);
			xfer_gpud = strstr(buf, "XferType: GPUD ") != NULL;
		}
		t = strstr(buf, "Throughput: ");
		if (!t || !read)
			continue;
		t += 12;
		u = strstr(t, " GiB/sec");
		if (!u || u == t || (size_t)(u - t) > 24)
			continue;
		*u = '\0';
		if (nicfit_parse_double(t, "gdsio", 0, 1e6, &v, NULL))
			continue;
		v *= 1024.0 * 1024 * 1024 * 8 / 1e9;
		if (!found || v > *gbps) {
			*gbps = v;
			*gpud = xfer_gpud;
			*line = no;
		}
		found = 1;
	}
	return found;
}

static int judge_gdsio(const struct nicfit_accept *a, struct nicfit_accept_step *s,
		       const char *text, size_t len, struct nicfit_error *err)
{
	const struct nicfit_accept_band *band = &a->stages[s->stage].band;
	double gbps = 0;
	long line = 0;
	int gpud = 0;

	if (!gdsio_figure(text, len, &gbps, &gpud, &line)) {
		s->status = NICFIT_ACCEPT_BROKEN;
		s->what = nicfit__strfmt("no figure: the output holds no gdsio READ line with its "
					 "Throughput");
		return s->what ? 0 : nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	s->measured_gbps = gbps;
	s->what = nicfit__strfmt("gdsio READ %.2f GiB/s (line %ld)", gbps * 1e9 / 8 /
				 (1024.0 * 1024 * 1024), line);
	classify(s, band);
	if (!gpud && nicfit__accept_failed(s))
		s->causes = nicfit__strfmt("gdsio: the transfer was not GPUDirect (its XferType is "
					   "not GPUD, line %ld): the data went through the CPU", line);
	return s->what ? 0 : nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
}

static int cmp_name(const void *k, const void *e)
{
	return strcmp((const char *)k, *(char *const *)e);
}

/* Judge step s on its output (text, named path), by its stage's reader. */
static int judge_step(const struct nicfit_accept *a, struct nicfit_accept_step *s,
		      const char *path, const char *text, size_t len, struct nicfit_error *err)
{
	return a->stages[s->stage].kind == NICFIT_ACCEPT_STORAGE ?
	       judge_gdsio(a, s, text, len, err) : judge_text(a, s, path, text, len, err);
}

/* The counts and the summary once every step has its status; label names the results. */
static int judged(struct nicfit_accept *a, const char *label, const char *causes,
		  struct nicfit_error *err)
{
	size_t i;
	int rc;

	free(a->results);
	a->results = nicfit__strfmt("%s", label);
	if (!a->results)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	a->judged = 1;
	memset(a->counts, 0, sizeof(a->counts));
	for (i = 0; i < a->nsteps; i++)
		a->counts[a->steps[i].status]++;
	rc = nicfit__accept_summarise(a, causes);
	return rc ? nicfit_error_set(err, rc, "out of memory") : 0;
}

int nicfit_accept_judge(struct nicfit_accept *a, const char *dir, const char *causes,
			struct nicfit_error *err)
{
	char **names = NULL, file[200], *path;
	size_t n = 0, i;
	int rc;

	rc = nicfit_dir_list(dir, 1, RESULTS_MAX_FILES, &names, &n);
	if (rc)
		return nicfit_error_set(err, rc == NICFIT_E_LIMIT ? rc : NICFIT_E_NOTFOUND,
					"%s: %s", dir, rc == NICFIT_E_LIMIT ? "more than 200000 "
					"files" : "not a results directory that can be listed");
	for (i = 0; i < a->nsteps && !rc; i++) {
		struct nicfit_accept_step *s = &a->steps[i];
		char *text = NULL;
		size_t len = 0;

		snprintf(file, sizeof(file), "%s.txt", s->name);
		if (!names || !bsearch(file, names, n, sizeof(*names), cmp_name)) {
			s->status = NICFIT_ACCEPT_MISSING;
			continue;
		}
		path = nicfit__strfmt("%s/%s", dir, file);
		if (!path)
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		else if (!(rc = nicfit_read_file(path, NICFIT_VERIFY_MAX_BYTES, &text, &len, err)))
			rc = judge_step(a, s, path, text, len, err);
		free(text);
		free(path);
	}
	nicfit_dir_names_free(names, n);
	return rc ? rc : judged(a, dir, causes, err);
}

static int cmp_result(const void *x, const void *y)
{
	return strcmp(((const struct nicfit__accept_result *)x)->name,
		      ((const struct nicfit__accept_result *)y)->name);
}

int nicfit__accept_judge_results(struct nicfit_accept *a, const char *label,
				 struct nicfit__accept_result *r, size_t n, struct nicfit_error *err)
{
	struct nicfit__accept_result key;
	size_t i;
	int rc = 0;

	qsort(r, n, sizeof(*r), cmp_result);
	for (i = 1; i < n; i++)
		if (!strcmp(r[i].name, r[i - 1].name))
			return nicfit_error_set(err, NICFIT_E_DATA, "%s: %s.txt given twice", label,
						r[i].name);
	for (i = 0; i < a->nsteps && !rc; i++) {
		struct nicfit_accept_step *s = &a->steps[i];
		const struct nicfit__accept_result *hit;
		char *path;

		key.name = s->name;
		hit = n ? bsearch(&key, r, n, sizeof(*r), cmp_result) : NULL;
		if (!hit) {
			s->status = NICFIT_ACCEPT_MISSING;
			continue;
		}
		path = nicfit__strfmt("%s.txt", s->name);
		rc = path ? judge_step(a, s, path, hit->text, hit->len, err) :
		     nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		free(path);
	}
	return rc ? rc : judged(a, label, NULL, err);
}
