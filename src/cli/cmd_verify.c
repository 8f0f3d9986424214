/*
 * cmd_verify.c - `nicfit verify`: read nccl-tests, NCCL logs, perftest
 * and iperf3 output (and NCCL topology dumps), compare what was measured
 * with what the hardware should carry, name the likely causes.
 *
 *   nicfit verify [--nic PART | --link SPEED] [--proto tcp|roce|ib] [--nodes N]
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
#include "nicfit/calc.h"
#include "nicfit/file.h"
#include "nicfit/link.h"
#include "nicfit/perf.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"

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
	static const struct option opts[] = {
		{ "nic", required_argument, NULL, 'n' },
		{ "link", required_argument, NULL, 'l' },
		{ "proto", required_argument, NULL, 'P' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "gpus-per-node", required_argument, NULL, 'g' },
		{ "nics-per-node", required_argument, NULL, 'k' },
		{ "low-ratio", required_argument, NULL, 'L' },
		{ "far-ratio", required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	struct nicfit_verify_expect x;
	struct nicfit_verify *v;
	struct nicfit_error err;
	const char *nic = NULL;
	struct nicfit_emit *e;
	enum nicfit_proto proto;
	int ch, rc = 0, given = 0;

	nicfit_error_clear(&err);
	nicfit_verify_expect_init(&x);
	optind = 1;
	while ((ch = cli_getopt(argc, argv, "", opts, "verify")) != -1) {
		switch (ch) {
		case 'n':
			nic = optarg;
			break;
		case 'l':
			if (nicfit_parse_speed(optarg, "--link", &x.link, &err))
				return cli_fail(&err);
			given = 1;
			break;
		case 'P':
			if (nicfit_proto_parse(optarg, &proto, &err))
				return cli_fail(&err);
			x.proto = (int)proto;
			break;
		case 'N':
			rc = count_opt("--nodes", optarg, 100000, &x.nodes);
			given = 1;
			break;
		case 'g':
			rc = count_opt("--gpus-per-node", optarg, 1024, &x.gpus_per_node);
			break;
		case 'k':
			rc = count_opt("--nics-per-node", optarg, 1024, &x.nics_per_node);
			break;
		case 'L':
			rc = ratio_opt("--low-ratio", optarg, &x.low_ratio);
			break;
		case 'F':
			rc = ratio_opt("--far-ratio", optarg, &x.far_ratio);
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
	if (given)
		x.source = "the options";
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
