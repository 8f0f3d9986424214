/*
 * cmd_verify.c - `nicfit verify`: read nccl-tests, NCCL logs, perftest
 * and iperf3 output (and NCCL topology dumps), compare what was measured
 * with what the hardware should carry, name the likely causes.
 *
 *   nicfit verify [--nic PART | --link SPEED | --sysfs DIR | --dump PATH... | --plan SPEC]
 *                 [--proto tcp|roce|ib]
 *                 [--nodes N]
 *                 [--gpus-per-node G] [--nics-per-node K] [--low-ratio R]
 *                 [--far-ratio R] FILE... | -
 *
 * Exit status: 0 as expected, 1 low (or warnings), 2 far below or broken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "nicfit/audit.h"
#include "nicfit/calc.h"
#include "nicfit/dump.h"
#include "nicfit/file.h"
#include "nicfit/link.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"
#include "nicfit/perf.h"
#include "nicfit/topo.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"

/* Dumps of the one host --dump takes, at most (a sosreport is one). */
#define VERIFY_MAX_DUMPS 16

/* --nic PART: the card's fastest port (its InfiniBand rate when it has one). */
static int from_nic(struct cli *c, const char *part, struct nicfit_verify_expect *x)
{
	struct nicfit_catalog *cat;
	struct nicfit_card card;
	struct nicfit_error err;
	int rc;

	nicfit_error_clear(&err);
	cat = cli_catalog(c, &rc);
	if (!cat)
		return rc;
	if (nicfit_card_resolve(cat, part, &card, NULL, &err))
		return cli_fail(&err);
	if (card.ib_rate && x->proto != NICFIT_PROTO_TCP && x->proto != NICFIT_PROTO_ROCE) {
		if (nicfit_parse_speed(card.ib_rate, "--nic", &x->link, &err))
			return cli_fail(&err);
	} else {
		char s[32];

		snprintf(s, sizeof(s), "%gGbE", card.port_gbps);
		if (nicfit_parse_speed(s, "--nic", &x->link, &err))
			return cli_fail(&err);
	}
	return 0;
}

/*
 * The host's back end (--sysfs or --dump) as the expectation. The rails
 * are the ACTIVE ports of the RDMA cards at the fastest port rate (slower
 * ones are a front end or storage): NCCL's IB transport makes one net
 * device per active port (net_ib init.cc), so a dual-port card is two
 * rails only when both ports are cabled and up, and its PCIe path is
 * shared between them. The link is their rate, InfiniBand when a port
 * runs it; the GPUs are the ranks of a node, and the
 * worst GPU-to-nearest-NIC path class says whether GPUDirect RDMA is
 * possible by default.
 */
static int expect_from_topo(struct cli *c, const struct nicfit_topo *topo, const char *what,
			    struct nicfit_verify_expect *x, int *family_max)
{
	struct nicfit_catalog *cat;
	struct nicfit_audit *a = NULL;
	struct nicfit_audit_opts ao;
	struct nicfit_error err;
	double best = 0, pcie = 0;
	int i, k = 0, ib = 0, rc = 0, worst = -1;
	char s[32];

	nicfit_error_clear(&err);
	cat = cli_catalog(c, &rc);
	if (!cat)
		return rc;
	memset(&ao, 0, sizeof(ao));
	if (nicfit_audit_judge(topo, cat, &ao, &a, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].rdma && a->devs[i].card_lead && a->devs[i].port_gbps > best)
			best = a->devs[i].port_gbps;
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		int rails;

		if (!d->rdma || !d->card_lead || d->port_gbps < best)
			continue;
		/* a rail per ACTIVE port, as NCCL makes a net per active port; the card's PCIe path is shared */
		rails = d->ports_up > 0 ? d->ports_up : 1;
		if (d->card_ports > 0 && rails > d->card_ports)
			rails = d->card_ports;
		k += rails;
		*family_max += d->port_gbps_is_family_max;
		if (d->supply_gbps > 0 && (pcie <= 0 || d->supply_gbps / rails < pcie))
			pcie = d->supply_gbps / rails;
	}
	for (i = 0; i < topo->nrdma; i++)
		ib |= topo->rdma[i].nports && !strcmp(topo->rdma[i].ports[0].link_layer, "InfiniBand");
	if (!k) {
		rc = cli_error(NICFIT_E_DATA, "verify: %s: no RDMA NIC to take the link from%s", what,
			       strncmp(what, "--dump", 6) ? "" : " (the dump names no RDMA device: "
			       "add ibv_devinfo, ibdev2netdev or nvidia-smi topo -m output)");
		goto out;
	}
	snprintf(s, sizeof(s), ib ? "%gG" : "%gGbE", best);
	/* an InfiniBand port names its rate (FDR, HDR100): the data rate follows from it */
	for (i = 0; ib && i < topo->nrdma; i++) {
		const struct nicfit_rdma_port *pt = &topo->rdma[i].ports[0];

		if (topo->rdma[i].nports && pt->have_rate && pt->rate.speed[0] &&
		    pt->rate.gbps + 0.5 >= best) {
			if (pt->rate.width == 2)
				snprintf(s, sizeof(s), "%s%g", pt->rate.speed, pt->rate.gbps);
			else
				snprintf(s, sizeof(s), "%s", pt->rate.speed);
			break;
		}
	}
	if (nicfit_parse_speed(s, what, &x->link, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	if (x->proto < 0)
		x->proto = ib ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
	if (!x->nics_per_node)
		x->nics_per_node = k;
	if (!x->gpus_per_node && a->ngpus)
		x->gpus_per_node = a->ngpus;
	x->pcie_gbps = pcie;
	for (i = 0; i < a->ndevs; i++)
		if (a->devs[i].kind == NICFIT_DEV_GPU && a->devs[i].best_nic >= 0) {
			if ((int)a->devs[i].best_path > worst)
				worst = (int)a->devs[i].best_path;
			/* NCCL's default GDR level is PXB (docs/reference/topology.md) */
			x->gpus_without_gdr += a->devs[i].best_path > NICFIT_PATH_PXB;
		}
	if (worst >= 0)
		snprintf(x->path, sizeof(x->path), "%s", nicfit_path_name((enum nicfit_path)worst));
out:
	nicfit_audit_free(a);
	return rc;
}

static int from_sysfs(struct cli *c, const char *root, struct nicfit_verify_expect *x)
{
	struct nicfit_topo *topo = NULL;
	struct nicfit_error err;
	char what[320];
	int rc, family_max = 0;

	nicfit_error_clear(&err);
	if (nicfit_topo_discover(root, &topo, &err))
		return cli_fail(&err);
	snprintf(what, sizeof(what), "--sysfs %s", root);
	rc = expect_from_topo(c, topo, what, x, &family_max);
	nicfit_topo_free(topo);
	return rc;
}

/*
 * --dump PATH (repeatable): the host as its pasted lspci, nvidia-smi and
 * ibv_devinfo output (or a sosreport) describes it, read by the dump
 * reader into the model --sysfs builds, so the same rails, rate, PCIe
 * caps, GPUs and worst path follow. All dumps are one host: the hosts of
 * a run are alike, and --nodes says how many there are.
 */
static int from_dumps(struct cli *c, const char *const *paths, int n,
		      struct nicfit_verify_expect *x)
{
	struct nicfit_dump *d = NULL;
	struct nicfit_topo *topo = NULL;
	struct nicfit_error err;
	char what[320];
	int i, rc = 0, family_max = 0;

	nicfit_error_clear(&err);
	if (nicfit_dump_new(&d))
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	for (i = 0; i < n && !rc; i++)
		if (nicfit_dump_add_path(d, paths[i], &err))
			rc = cli_fail(&err);
	if (!rc && nicfit_dump_topo(d, &topo, &err))
		rc = cli_fail(&err);
	if (!rc) {
		snprintf(what, sizeof(what), "--dump %s%s", paths[0], n > 1 ? " ..." : "");
		rc = expect_from_topo(c, topo, what, x, &family_max);
	}
	/*
	 * Without a part number (VPD) or a port rate (ibv_devinfo -v) a card
	 * is known by its family alone, taken at the family's fastest port:
	 * the ceiling is then an upper bound, and the reader is told so.
	 */
	x->source = family_max ? "the host's dump (--dump; a card without part number or "
				 "port rate in it taken at its family's fastest port)"
			       : "the host's dump (--dump)";
	nicfit_topo_free(topo);
	nicfit_dump_free(d);
	return rc;
}

/* What a plan gives: its back end, per server, over its servers. */
static int expect_from_plan(const struct nicfit_plan *pl, struct nicfit_verify_expect *x)
{
	struct nicfit_error err;
	char sp[32];
	int i, worst = -1;

	nicfit_error_clear(&err);
	if (!pl->backend_needed || !pl->be_cards)
		return cli_error(NICFIT_E_DATA, "verify: --plan: the plan needs no back-end fabric, "
				 "so there is no network to measure against");
	if (pl->fabric == NICFIT_FABRIC_IB && pl->be_card.ib_rate)
		snprintf(sp, sizeof(sp), "%s", pl->be_card.ib_rate);
	else
		snprintf(sp, sizeof(sp), "%gGbE", pl->be_port_gbps);
	if (nicfit_parse_speed(sp, "--plan", &x->link, &err))
		return cli_fail(&err);
	if (x->proto < 0)
		x->proto = pl->fabric == NICFIT_FABRIC_IB ? NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;
	if (!x->nodes)
		x->nodes = pl->in.servers > pl->servers_needed ? pl->in.servers : pl->servers_needed;
	if (!x->gpus_per_node)
		x->gpus_per_node = pl->in.gpus_per_server;
	if (!x->nics_per_node)
		x->nics_per_node = pl->be_cards * (pl->be_ports > 0 ? pl->be_ports : 1);
	if (pl->be_limited_by && !strcmp(pl->be_limited_by, "pcie") && pl->be_ports > 0)
		x->pcie_gbps = pl->be_effective_gbps / pl->be_ports;
	for (i = 0; i < pl->gpus_placed && i < NICFIT_PLAN_MAX_GPUS; i++) {
		if (pl->pair_card[i] < 0)
			continue;
		if ((int)pl->pair_path[i] > worst)
			worst = (int)pl->pair_path[i];
		x->gpus_without_gdr += pl->pair_path[i] > NICFIT_PATH_PXB;
	}
	if (worst >= 0)
		snprintf(x->path, sizeof(x->path), "%s", nicfit_path_name((enum nicfit_path)worst));
	return 0;
}

/* --plan SPEC.json: plan the request (plan's --spec format) and expect its back end. */
static int from_plan(struct cli *c, const char *path, struct nicfit_verify_expect *x)
{
	struct nicfit_spec *spec = calloc(1, sizeof(struct nicfit_spec));
	struct nicfit_plan *pl = calloc(1, sizeof(struct nicfit_plan));
	struct nicfit_catalog *cat;
	struct nicfit_plan_input in;
	struct nicfit_error err;
	char *text = NULL;
	size_t len = 0;
	int rc = 0, have_spec = 0;

	nicfit_error_clear(&err);
	if (!spec || !pl) {
		rc = cli_error(NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	cat = cli_catalog(c, &rc);
	if (!cat)
		goto out;
	if (nicfit_read_file(path, NICFIT_SPEC_MAX_BYTES, &text, &len, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	nicfit_spec_init(spec, strcmp(path, "-") ? path : "<stdin>");
	have_spec = 1;
	if (nicfit_spec_parse_json(spec, text, len, &err) ||
	    nicfit_plan_input_from_spec(cat, spec, &in, &err) || nicfit_plan(cat, &in, pl, &err)) {
		rc = cli_fail(&err);
		goto out;
	}
	rc = expect_from_plan(pl, x);
out:
	if (have_spec)
		nicfit_spec_release(spec);
	free(text);
	free(spec);
	if (pl)
		nicfit_plan_release(pl);
	free(pl);
	return rc;
}

static int count_opt(const char *name, const char *s, int max, int *out)
{
	struct nicfit_error err;
	long v;

	nicfit_error_clear(&err);
	if (nicfit_parse_long(s, name, 1, max, &v, &err))
		return cli_fail(&err);
	*out = (int)v;
	return 0;
}

static int ratio_opt(const char *name, const char *s, double *out)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	if (nicfit_parse_double(s, name, 0.01, 1.0, out, &err))
		return cli_fail(&err);
	return 0;
}

static int read_inputs(struct nicfit_verify *v, int argc, char **argv)
{
	struct nicfit_error err;
	int i, rc = 0;

	for (i = 0; i < argc && !rc; i++) {
		const char *name = strcmp(argv[i], "-") ? argv[i] : "<stdin>";
		char *text = NULL;
		size_t len = 0;

		nicfit_error_clear(&err);
		if (nicfit_read_file(argv[i], NICFIT_VERIFY_MAX_BYTES, &text, &len, &err) ||
		    nicfit_verify_add_text(v, name, text, len, &err))
			rc = cli_fail(&err);
		free(text);
	}
	return rc;
}

int cmd_verify(struct cli *c, int argc, char **argv)
{
	struct nicfit_verify_expect x;
	struct nicfit_verify *v;
	struct nicfit_error err;
	const char *nic = NULL, *sysfs = NULL, *plan = NULL;
	const char *dumps[VERIFY_MAX_DUMPS];
	int ndumps = 0;
	struct nicfit_emit *e;
	enum nicfit_proto proto;
	int ch, rc = 0, given = 0;

	nicfit_error_clear(&err);
	nicfit_verify_expect_init(&x);
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "verify")) != -1) {
		switch (ch) {
		case CLI_OPT_NIC:
			nic = optarg;
			break;
		case CLI_OPT_LINK:
			if (nicfit_parse_speed(optarg, "--link", &x.link, &err))
				return cli_fail(&err);
			given = 1;
			break;
		case CLI_OPT_PROTO:
			if (nicfit_proto_parse(optarg, &proto, &err))
				return cli_fail(&err);
			x.proto = (int)proto;
			break;
		case CLI_OPT_NODES:
			rc = count_opt("--nodes", optarg, 100000, &x.nodes);
			given = 1;
			break;
		case CLI_OPT_GPUS_PER_NODE:
			rc = count_opt("--gpus-per-node", optarg, 1024, &x.gpus_per_node);
			break;
		case CLI_OPT_NICS_PER_NODE:
			rc = count_opt("--nics-per-node", optarg, 1024, &x.nics_per_node);
			break;
		case CLI_OPT_LOW_RATIO:
			rc = ratio_opt("--low-ratio", optarg, &x.low_ratio);
			break;
		case CLI_OPT_FAR_RATIO:
			rc = ratio_opt("--far-ratio", optarg, &x.far_ratio);
			break;
		case CLI_OPT_PLAN:
			plan = optarg;
			break;
		case CLI_OPT_DUMP:
			if (!*optarg)
				return cli_error(NICFIT_E_USAGE, "verify: --dump: empty path");
			if (ndumps == VERIFY_MAX_DUMPS)
				return cli_error(NICFIT_E_USAGE, "verify: at most %d --dump",
						 VERIFY_MAX_DUMPS);
			dumps[ndumps++] = optarg;
			break;
		case CLI_OPT_SYSFS:
			if (!*optarg)
				return cli_error(NICFIT_E_USAGE, "verify: --sysfs: empty path");
			sysfs = optarg;
			break;
		default:
			return 64;
		}
		if (rc)
			return rc;
	}
	if (x.low_ratio > 0 && x.far_ratio > 0 && x.far_ratio > x.low_ratio)
		return cli_error(NICFIT_E_USAGE, "verify: --far-ratio %g is above --low-ratio %g",
				 x.far_ratio, x.low_ratio);
	if (optind >= argc) {
		cli_error(NICFIT_E_USAGE, "verify: no input (give FILE... or - for stdin)");
		return cli_usage("verify");
	}
	if (nic) {
		if (x.link.gbps > 0)
			return cli_error(NICFIT_E_USAGE, "verify: --nic and --link both give the link; "
					 "choose one");
		rc = from_nic(c, nic, &x);
		if (rc)
			return rc;
		given = 1;
	}
	if (sysfs && ndumps)
		return cli_error(NICFIT_E_USAGE, "verify: --sysfs and --dump both describe the "
				 "host; choose one");
	if (plan && (sysfs || ndumps || x.link.gbps > 0))
		return cli_error(NICFIT_E_USAGE, "verify: --plan gives the link; leave out --nic, "
				 "--link, --sysfs and --dump");
	if (plan) {
		rc = from_plan(c, plan, &x);
		if (rc)
			return rc;
		x.source = "the plan (--plan)";
	} else if (sysfs) {
		if (x.link.gbps > 0)
			return cli_error(NICFIT_E_USAGE, "verify: --sysfs and --nic/--link both give "
					 "the link; choose one");
		rc = from_sysfs(c, sysfs, &x);
		if (rc)
			return rc;
		x.source = "the host (--sysfs)";
	} else if (ndumps) {
		if (x.link.gbps > 0)
			return cli_error(NICFIT_E_USAGE, "verify: --dump and --nic/--link both give "
					 "the link; choose one");
		rc = from_dumps(c, dumps, ndumps, &x);
		if (rc)
			return rc;
	} else if (given) {
		x.source = "the options";
	}
	v = nicfit_verify_new();
	if (!v)
		return cli_error(NICFIT_E_NOMEM, "out of memory");
	rc = read_inputs(v, argc - optind, argv + optind);
	if (!rc && nicfit_verify_judge(v, &x, &err))
		rc = cli_fail(&err);
	if (!rc) {
		e = cli_emitter(c);
		rc = nicfit_verify_render(v, e);
		if (rc) {
			nicfit_emit_free(e);
			rc = cli_error(rc, "verify: cannot render: %s", nicfit_strerror(rc));
		} else {
			rc = cli_emit_done(c, e);
			if (!rc)
				rc = nicfit_verify_exit_code(v);
		}
	}
	nicfit_verify_free(v);
	return rc;
}
