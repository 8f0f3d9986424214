/*
 * accept_summary.c - what a judged runbook says beyond each step's
 * figure: the likeliest causes of a failing step (verify's, then the
 * audit's findings on the rail's card or GPU when a host was audited),
 * the next command to run, and the sums per host and per rail that name
 * the odd host out.
 *
 * Naming a host rests on the pattern of the pairs: in all pairs or a
 * ring every host meets at least two others, so a host whose port,
 * cable, GPUDirect path or NVLink is bad fails in two or more steps and
 * its partners each fail in one; the hosts with the most failing steps,
 * two or more, are named. One pair cannot tell its two ends apart, and
 * the summary says so rather than guess.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "accept/accept_int.h"

int nicfit__accept_failed(const struct nicfit_accept_step *s)
{
	return s->status == NICFIT_ACCEPT_LOW || s->status == NICFIT_ACCEPT_BROKEN ||
	       s->status == NICFIT_ACCEPT_MISSING;
}

void nicfit__accept_host_counts(const struct nicfit_accept *a, int h, size_t counts[5])
{
	size_t i;

	memset(counts, 0, 5 * sizeof(*counts));
	for (i = 0; i < a->nsteps; i++)
		if (a->steps[i].a == h || a->steps[i].b == h)
			counts[a->steps[i].status]++;
}

void nicfit__accept_rail_counts(const struct nicfit_accept *a, int r, size_t counts[5])
{
	size_t i;

	memset(counts, 0, 5 * sizeof(*counts));
	for (i = 0; i < a->nsteps; i++)
		if (a->steps[i].rail == r)
			counts[a->steps[i].status]++;
}

/* The first word of a line (dl bytes) is w, a non-empty name. */
static int word_is(const char *p, size_t dl, const char *w)
{
	size_t n = strlen(w);

	return n && dl == n && !strncmp(p, w, n);
}

/* The audit's lines about this step's card or GPU (by name or PCI address), or the host. */
static void audit_lines(const struct nicfit_accept *a, const struct nicfit_accept_step *s,
			const char *causes, struct nicfit_buf *b)
{
	const char *p = causes;
	char gpu[16] = "";

	if (s->gpu >= 0)
		snprintf(gpu, sizeof(gpu), "GPU%d ", s->gpu);
	while (p && *p) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		size_t dl = strcspn(p, " ");
		int hit = !strncmp(p, "host ", 5);

		if (s->rail >= 0) {
			hit |= word_is(p, dl, a->sys.hca[s->rail]);
			hit |= word_is(p, dl, a->sys.rail_bdf[s->rail]);
			hit |= word_is(p, dl, a->sys.rail_gpu_bdf[s->rail]);
			hit |= gpu[0] && !strncmp(p, gpu, strlen(gpu));
		} else if (a->stages[s->stage].kind != NICFIT_ACCEPT_FRONTEND) {
			hit = 1;  /* the all-reduce and NVLink use every card and GPU */
		}
		if (hit)
			nicfit_buf_addf(b, "audit %.*s\n", (int)n, p);
		p = end ? end + 1 : NULL;
	}
}

/* What to run next when verify's findings give no fix. */
static char *next_command(const struct nicfit_accept *a, const struct nicfit_accept_step *s)
{
	const char *ha = s->a >= 0 ? a->hosts[s->a] : NULL;
	const char *hb = s->b >= 0 ? a->hosts[s->b] : NULL;

	if (s->status == NICFIT_ACCEPT_MISSING)
		return nicfit__strfmt("Run the step (the script writes its output to %s.txt), "
				      "then judge again.", s->name);
	switch (a->stages[s->stage].kind) {
	case NICFIT_ACCEPT_NVLINK:
		return nicfit__strfmt("On %s: nvidia-smi nvlink --status (every link up) and "
				      "nvidia-smi topo -m (NV# between every pair of GPUs).", ha);
	case NICFIT_ACCEPT_RAIL_WRITE:
	case NICFIT_ACCEPT_RAIL_READ:
		return nicfit__strfmt("On %s and %s: ibstat %s (State: Active, the Rate the "
				      "rail should have) and nvidia-smi topo -m (the GPU and %s "
				      "under one PCIe switch); then nicfit audit on the host whose "
				      "port or path differs.", ha, hb, a->sys.hca[s->rail],
				      a->sys.hca[s->rail]);
	case NICFIT_ACCEPT_ALLREDUCE:
		return nicfit__strfmt("Read the run's NCCL lines with nicfit verify (NET/IB, "
				      "GPUDirect RDMA per HCA), and judge the rail steps first: a "
				      "rail that fails there fails here.");
	case NICFIT_ACCEPT_FRONTEND:
		return nicfit__strfmt("On %s and %s: ip -s link (errors and drops on the "
				      "front-end port) and ethtool on it (Speed).", ha, hb);
	case NICFIT_ACCEPT_STORAGE:
		return nicfit__strfmt("On %s: /usr/local/cuda/gds/tools/gdscheck.py -p (GPUDirect "
				      "Storage supported by the file system and the driver), then the "
				      "same gdsio with -x 1 (through the CPU): as low, the storage or "
				      "its network is the limit; far faster, the GPUDirect path.", ha);
	}
	return NULL;
}

static int step_summary(struct nicfit_accept *a, struct nicfit_accept_step *s, const char *causes)
{
	struct nicfit_buf b;

	if (!nicfit__accept_failed(s))
		return 0;
	if (causes && s->status != NICFIT_ACCEPT_MISSING) {
		nicfit_buf_init(&b, 0);
		if (s->causes)
			nicfit_buf_puts(&b, s->causes);
		audit_lines(a, s, causes, &b);
		if (nicfit_buf_error(&b)) {
			nicfit_buf_release(&b);
			return NICFIT_E_NOMEM;
		}
		free(s->causes);
		s->causes = b.len ? nicfit_buf_detach(&b, NULL) : NULL;
		nicfit_buf_release(&b);
	}
	if (!s->next && !(s->next = next_command(a, s)))
		return NICFIT_E_NOMEM;
	return 0;
}

/* The hosts with the most failing steps, two or more; NULL none. */
static int odd_hosts(struct nicfit_accept *a)
{
	struct nicfit_buf b;
	size_t c[5], most = 0, f;
	int h, pass;

	nicfit_buf_init(&b, 0);
	for (pass = 0; pass < 2; pass++)
		for (h = 0; h < a->sys.nodes; h++) {
			nicfit__accept_host_counts(a, h, c);
			f = c[NICFIT_ACCEPT_LOW] + c[NICFIT_ACCEPT_BROKEN];
			if (!pass && f > most)
				most = f;
			else if (pass && most >= 2 && f == most)
				nicfit_buf_addf(&b, "%s%s", b.len ? ", " : "", a->hosts[h]);
		}
	if (nicfit_buf_error(&b)) {
		nicfit_buf_release(&b);
		return NICFIT_E_NOMEM;
	}
	free(a->odd_hosts);
	a->odd_hosts = b.len ? nicfit_buf_detach(&b, NULL) : NULL;
	nicfit_buf_release(&b);
	return 0;
}

int nicfit__accept_summarise(struct nicfit_accept *a, const char *causes)
{
	size_t i;
	int rc = 0;

	free(a->audit_causes);
	a->audit_causes = NULL;
	if (causes && !(a->audit_causes = nicfit__strfmt("%s", causes)))
		return NICFIT_E_NOMEM;
	for (i = 0; i < a->nsteps && !rc; i++)
		rc = step_summary(a, &a->steps[i], causes);
	if (!rc)
		rc = odd_hosts(a);
	return rc ? rc : nicfit__accept_isolate(a);
}
