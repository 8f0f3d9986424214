/*
 * accept_script.c - the runbook as a bash script: one command per step,
 * run over ssh on the step's host (the all-reduce from where the script
 * runs, through its launcher), each output kept as RESULTS/NAME.txt,
 * which is what `nicfit accept --results RESULTS` reads back.
 *
 * A two-node step starts its server in the background under timeout(1)
 * (a client that never connects must not hang the run), waits for it to
 * listen, runs the client and waits for the server. Every name in a
 * command was checked (nicfit__accept_name_ok) and the commands hold no
 * quote, so they go between double quotes as they are; the title, which
 * may carry a host's own name, is written into a comment with anything
 * but printable ASCII replaced. The script passes shellcheck; SC2029
 * (a variable expanded before ssh sends the command) is what is meant:
 * $TESTS names the folder on the nodes.
 */
#include <stdio.h>
#include <string.h>

#include "nicfit/version.h"
#include "accept/accept_int.h"

/* Seconds a server waits for its client at most, and before the client starts. */
#define SERVER_TIMEOUT_S 120
#define SERVER_START_S 2

static void comment_text(struct nicfit_buf *b, const char *s)
{
	for (; *s; s++)
		nicfit_buf_addf(b, "%c", *s >= ' ' && *s <= '~' ? *s : '?');
}

static int has_storage(const struct nicfit_accept *a)
{
	size_t i;

	for (i = 0; i < a->nstages; i++)
		if (a->stages[i].kind == NICFIT_ACCEPT_STORAGE)
			return 1;
	return 0;
}

static void header(const struct nicfit_accept *a, struct nicfit_buf *b)
{
	nicfit_buf_puts(b, "#!/bin/bash\n# shellcheck disable=SC2029\n");
	nicfit_buf_puts(b, "# Acceptance runbook: ");
	comment_text(b, a->sys.title);
	nicfit_buf_addf(b, "\n# Written by nicfit %s (nicfit accept). Run it from a host that reaches "
			"every node by\n# ssh without a password; each step's output goes to "
			"RESULTS/NAME.txt. Then judge\n# them: nicfit accept (the same options) "
			"--results RESULTS\n", NICFIT_VERSION);
	nicfit_buf_puts(b, "set -u\nRESULTS=${1:-nicfit-accept-results}\n");
	nicfit_buf_addf(b, "# the folder of the %s binaries on the nodes\n",
			a->sys.amd ? "rccl-tests" : "nccl-tests");
	nicfit_buf_addf(b, "TESTS=${TESTS:-%s/build}\n", a->sys.amd ? "rccl-tests" : "nccl-tests");
	if (has_storage(a))
		nicfit_buf_puts(b, "# a directory on the storage under test, as every node mounts it "
				"(the GPUDirect\n# Storage steps are left out while it is unset)\n"
				"GDS_DIR=${GDS_DIR:-}\n");
	nicfit_buf_puts(b, "mkdir -p \"$RESULTS\"\n");
}

static void step(const struct nicfit_accept *a, const struct nicfit_accept_step *s,
		 struct nicfit_buf *b)
{
	nicfit_buf_addf(b, "\n# step %zu: %s\n", (size_t)(s - a->steps) + 1, s->name);
	if (s->a < 0) {
		nicfit__accept_command(a, s, 0, "\"$TESTS\"/", b);
		nicfit_buf_addf(b, " >\"$RESULTS/%s.txt\" 2>&1\n", s->name);
		return;
	}
	if (s->b < 0) {
		int gds = a->stages[s->stage].kind == NICFIT_ACCEPT_STORAGE;

		nicfit_buf_addf(b, "%sssh %s \"", gds ? "[ -n \"$GDS_DIR\" ] && " : "",
				a->hosts[s->a]);
		nicfit__accept_command(a, s, 0, "$TESTS/", b);
		nicfit_buf_addf(b, "\" >\"$RESULTS/%s.txt\" 2>&1\n", s->name);
		return;
	}
	nicfit_buf_addf(b, "ssh %s \"timeout %d ", a->hosts[s->a], SERVER_TIMEOUT_S);
	nicfit__accept_command(a, s, 1, "$TESTS/", b);
	nicfit_buf_addf(b, "\" >\"$RESULTS/%s.server.txt\" 2>&1 &\nsleep %d\n", s->name,
			SERVER_START_S);
	nicfit_buf_addf(b, "ssh %s \"", a->hosts[s->b]);
	nicfit__accept_command(a, s, 0, "$TESTS/", b);
	nicfit_buf_addf(b, "\" >\"$RESULTS/%s.txt\" 2>&1\nwait\n", s->name);
}

int nicfit_accept_script(const struct nicfit_accept *a, struct nicfit_buf *out)
{
	size_t i, k;

	header(a, out);
	for (i = 0; i < a->nstages; i++) {
		const struct nicfit_accept_stage *st = &a->stages[i];

		nicfit_buf_addf(out, "\n# ---- stage %zu: %s\n", i + 1, st->title);
		for (k = 0; k < st->nsteps; k++) {
			const struct nicfit_accept_step *s = &a->steps[st->first + k];

			/* the rounds' names and what each isolates are plain ASCII constants */
			if (s->round == 2 && a->steps[s - a->steps - 1].round != 2)
				nicfit_buf_puts(out, "\n# round 2, bisection: each node with the node "
						"half the ring away; a ring pair that failed alone\n"
						"# is decided here: the node that fails again is the "
						"culprit, neither: the route between them\n");
			else if (s->round == 1 && k == 0 &&
				 a->steps[st->first + st->nsteps - 1].round == 2)
				nicfit_buf_puts(out, "# round 1, ring: each node with the next; a node "
						"failing both its pairs is the culprit\n");
			step(a, s, out);
		}
	}
	nicfit_buf_puts(out, "\necho \"results in $RESULTS\"\n");
	return nicfit_buf_error(out) ? NICFIT_E_NOMEM : 0;
}
