/*
 * verify_node.c - a single-node collective: no network link is in its
 * path, so it is judged against the GPUs' NVLink, never against a NIC.
 *
 * The figure is the catalog's per-GPU NVLink bandwidth (data/gpus.json
 * nvlink_gbs: both directions, as NVIDIA's datasheets state it, 900 GB/s
 * for H100 SXM). nccl-tests defines busbw so that a ring all-reduce's
 * busbw is the bandwidth of one GPU's link in one direction (its
 * doc/PERFORMANCE.md), so over NVSwitch (the GPUs of one NVLink domain,
 * nvlink_domain) the ring's ceiling is nvlink_gbs / 2. NVLink SHARP
 * (NVLS, in-switch reduction, NCCL 2.17 on) sends each byte to the switch
 * once and takes the sum back once, so algbw is at most nvlink_gbs / 2 and
 * busbw at most that x 2(n-1)/n: above this nothing can be.
 *
 * AMD's Infinity Fabric (xGMI) joins every pair of GPUs point to point, with
 * no switch: nvlink_gbs there is the sum of a GPU's links, and no one link
 * bounds a ring, so it is not judged. Nor is a table whose largest size
 * is under the plateau (NICFIT__VPLATEAU_BYTES): latency, not NVLink.
 *
 * NVIDIA publishes no efficiency for NVLink all-reduce in a source the
 * catalog holds, so only what is certain is claimed: below half the
 * ring's ceiling (far_ratio) the traffic is not on NVLink as it should be
 * (P2P disabled, a link down); between half and the ceiling the run is
 * "as expected"; "low" is never claimed here.
 */
#include <stdio.h>
#include <string.h>

#include "core/finding_int.h"
#include "core/alloc_int.h"
#include "core/num_int.h"
#include "nicfit/catalog.h"
#include "verify/verify_int.h"

/* A token of s (split at spaces and '-') equal to w, length n. */
static int has_token(const char *s, const char *w, size_t n)
{
	while (*s) {
		size_t k;

		s += strspn(s, " -");
		k = strcspn(s, " -");
		if (k == n && !strncmp(s, w, n))
			return 1;
		s += k;
	}
	return 0;
}

/* The model token of a catalog name: its first word with a letter and a digit ("H100"). */
static size_t model_token(const char *name, const char **w)
{
	const char *s = name;

	while (*s) {
		size_t k, i;
		int alpha = 0, digit = 0;

		s += strspn(s, " -(,)");
		k = strcspn(s, " -(,)");
		for (i = 0; i < k; i++) {
			alpha |= (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z');
			digit |= s[i] >= '0' && s[i] <= '9';
		}
		if (alpha && digit) {
			*w = s;
			return k;
		}
		s += k;
	}
	return 0;
}

/*
 * The catalog GPU a CUDA/HIP device name names ("NVIDIA H100 80GB HBM3"):
 * the one whose model token is a token of the name and whose form agrees
 * (a name says "PCIe" or "NVL" exactly when the entry's does: "NVIDIA H100
 * 80GB HBM3" is the SXM5 module, never the H100 PCIe or NVL). NULL when
 * none or more than one is.
 */
static const struct nicfit_gpu *gpu_of(const struct nicfit_catalog *cat, const char *dev)
{
	const struct nicfit_gpu *found = NULL;
	size_t i, n = nicfit_catalog_count(cat, NICFIT_KIND_GPU);
	int pcie = strstr(dev, "PCIe") != NULL, nvl = has_token(dev, "NVL", 3);

	for (i = 0; i < n; i++) {
		const struct nicfit_gpu *g = nicfit_catalog_gpu(cat, i);
		const char *w = NULL;
		size_t k = model_token(g->e.name, &w);
		int gp = strstr(g->e.name, "PCIe") != NULL, gn = has_token(g->e.name, "NVL", 3);

		if (!k || !has_token(dev, w, k) || pcie != gp || nvl != gn)
			continue;
		if (found)
			return NULL;
		found = g;
	}
	return found;
}

static int not_judged(struct nicfit_verify *v, struct nicfit_verify_doc *d, const char *why)
{
	const struct nicfit_nccl_tests *t = &d->u.t;

	d->verdict_code = "verify-single-node";
	/* AMD's GPUs meet over xGMI (Infinity Fabric), not NVLink */
	if (!nicfit__find(&v->findings, NICFIT_SEV_INFO, NICFIT_CODE_VERIFY_SINGLE_NODE, NULL,
			  "%s: %d rank%s on one node: no network link is in the path, so none "
			  "judges it; not judged against %s either: %s", d->input, t->nranks,
			  t->nranks == 1 ? "" : "s",
			  strncmp(t->gpu, "AMD ", 4) ? "NVLink" : "xGMI (Infinity Fabric)", why))
		return NICFIT_E_NOMEM;
	return 0;
}

/* The verdict of busbw b (GB/s) against the ring's ceiling one and NVLS's nvls. */
static int verdict(struct nicfit_verify *v, struct nicfit_verify_doc *d, double one, double nvls)
{
	const struct nicfit_nccl_tests *t = &d->u.t;
	const struct nicfit_nccl_row *pk = &t->rows[t->peak];
	double b = d->measured_gbps / 8;
	double far = v->expect.far_ratio > 0 ? v->expect.far_ratio : NICFIT_VERIFY_FAR_RATIO;
	char q[NICFIT__VQUOTE_MAX + 1];
	struct nicfit_finding *f;

	nicfit__vline_at(d, pk->line, q, sizeof(q));
	d->ratio = b / one;
	if (b > nvls * 1.01) {
		d->verdict = NICFIT_VERDICT_ABOVE_LINE;
		d->verdict_code = "verify-above-line-rate";
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_ABOVE_LINE_RATE,
				 NULL, "%s: %s is above what NVLink carries even with NVLS (%.1f GB/s "
				 "busbw); line %ld: \"%s\"", d->input, d->what, nvls, pk->line, q);
		return f && !nicfit__finding_fix(&v->findings, f, "Check the GPU the Rank lines "
						 "name and that the table is one run's.") ? 0 :
		       NICFIT_E_NOMEM;
	}
	if (d->ratio + NICFIT_EPS >= far) {
		d->verdict = NICFIT_VERDICT_OK;
		if (b <= one * 1.01)
			return 0;
		d->verdict_code = "verify-above-ring";
		return nicfit__find(&v->findings, NICFIT_SEV_INFO, NICFIT_CODE_VERIFY_ABOVE_RING,
				    NULL, "%s: %s is above a ring's NVLink ceiling (%.1f GB/s): NCCL "
				    "reduced in the NVSwitch (NVLS); line %ld: \"%s\"", d->input,
				    d->what, one, pk->line, q) ? 0 : NICFIT_E_NOMEM;
	}
	d->verdict = NICFIT_VERDICT_FAR_BELOW;
	d->verdict_code = "verify-nvlink-far-below";
	f = nicfit__find(&v->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_VERIFY_NVLINK_FAR_BELOW,
			 NULL, "%s: %s is %.0f %% of the %.1f GB/s NVLink ceiling (%s): under half, "
			 "the traffic does not take NVLink as it should; line %ld: \"%s\"",
			 d->input, d->what, 100 * d->ratio, one, d->arith, pk->line, q);
	if (!f || nicfit__finding_fix(&v->findings, f, "Check that NCCL_P2P_DISABLE and "
				      "NCCL_P2P_LEVEL are unset, that nvidia-smi topo -m shows NV# "
				      "between every pair and nvidia-smi nvlink --status every link "
				      "up; rerun with NCCL_DEBUG=INFO: NVLink shows as 'via P2P', the "
				      "host's memory as 'via SHM'."))
		return NICFIT_E_NOMEM;
	return 0;
}

int nicfit__verify_judge_node(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_tests *t = &d->u.t;
	struct nicfit_catalog *cat = NULL;
	const struct nicfit_gpu *g;
	struct nicfit_error err;
	char why[200];
	double one, nvls, maxb = 0;
	size_t i;
	int n = t->nranks, rc;

	if (strcmp(t->op, "allreduce"))
		return not_judged(v, d, "only an all-reduce has a ceiling here");
	if (!t->gpu[0])
		return not_judged(v, d, "the Rank lines name no GPU");
	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].bytes > maxb)
			maxb = t->rows[i].bytes;
	if (maxb < NICFIT__VPLATEAU_BYTES)
		return not_judged(v, d, "its largest size is under the 1 GiB plateau (see "
				  "verify-latency-bound)");
	nicfit_error_clear(&err);
	if (nicfit_catalog_new(&cat, &err))
		return NICFIT_E_NOMEM;
	g = gpu_of(cat, t->gpu);
	if (!g || g->nvlink_gbs <= 0 || g->nvlink_domain < n || n < 2 ||
	    strcmp(g->vendor, "NVIDIA")) {
		snprintf(why, sizeof(why), !g ? "the catalog has no single entry for '%s'" :
			 g->nvlink_gbs <= 0 ? "%s has no NVLink (the GPUs meet over PCIe)" :
			 strcmp(g->vendor, "NVIDIA") ? "%s's Infinity Fabric joins each pair of "
			 "GPUs by its own links, no switch, so no one link bounds a ring" :
			 n < 2 ? "%s: fewer than 2 ranks" :
			 "%s: its NVLink domain (nvlink_domain) joins fewer GPUs than the ranks",
			 g ? g->e.id : t->gpu);
		nicfit_catalog_free(cat);
		return not_judged(v, d, why);
	}
	one = g->nvlink_gbs / 2;
	nvls = one * 2.0 * (n - 1) / n;
	d->expected_gbps = one * 8;
	d->arith = nicfit__strfmt("NVLink %.0f GB/s a GPU, both directions (catalog %s) / 2 = "
				  "%.1f GB/s one direction: a ring's busbw over NVSwitch; NVLS at "
				  "most x 2(n-1)/n, n = %d: %.1f GB/s", g->nvlink_gbs, g->e.id, one,
				  n, nvls);
	nicfit_catalog_free(cat);
	if (!d->arith)
		return NICFIT_E_NOMEM;
	rc = verdict(v, d, one, nvls);
	return rc;
}
