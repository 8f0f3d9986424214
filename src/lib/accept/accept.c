/*
 * accept.c - the acceptance runbook of a system: its stages in the order
 * a burn-in runs them, and their steps on named hosts.
 *
 * The order is the one that lets each stage trust the ones before it:
 * inside each node first (NVLink needs no network, so a node that fails
 * here is the node's), then each rail alone between pairs of nodes from
 * GPU memory (the cable, the port and GPUDirect RDMA of one rail), then
 * the read direction once when asked (NCCL moves its data with RDMA
 * writes and reads only to flush, so the read test is for storage
 * initiators: NVMe-oF and GPUDirect Storage), then the all-reduce over every node (all rails
 * together, the job's own traffic), then the front end. The bands are
 * accept_band.c's, the command lines accept_cmd.c's; nothing here is a
 * number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "accept/accept_int.h"

const char *nicfit_accept_kind_name(enum nicfit_accept_kind k)
{
	switch (k) {
	case NICFIT_ACCEPT_NVLINK: return "nvlink";
	case NICFIT_ACCEPT_RAIL_WRITE: return "rail-write";
	case NICFIT_ACCEPT_RAIL_READ: return "rail-read";
	case NICFIT_ACCEPT_ALLREDUCE: return "allreduce";
	case NICFIT_ACCEPT_FRONTEND: return "frontend";
	case NICFIT_ACCEPT_STORAGE: return "storage";
	}
	return "?";
}

const char *nicfit_accept_status_name(enum nicfit_accept_status s)
{
	switch (s) {
	case NICFIT_ACCEPT_NOT_JUDGED: return "not judged";
	case NICFIT_ACCEPT_PASS: return "pass";
	case NICFIT_ACCEPT_LOW: return "low";
	case NICFIT_ACCEPT_BROKEN: return "broken";
	case NICFIT_ACCEPT_MISSING: return "missing";
	}
	return "?";
}

static const char *const stage_title[] = {
	[NICFIT_ACCEPT_NVLINK] = "NVLink inside each node",
	[NICFIT_ACCEPT_RAIL_WRITE] = "each rail between two nodes, RDMA write from GPU memory",
	[NICFIT_ACCEPT_RAIL_READ] = "each rail, RDMA read from GPU memory",
	[NICFIT_ACCEPT_ALLREDUCE] = "all-reduce over every node and rail",
	[NICFIT_ACCEPT_FRONTEND] = "front end, TCP between two nodes",
	[NICFIT_ACCEPT_STORAGE] = "GPUDirect Storage read on each node",
};

static const char *const stage_proves[] = {
	[NICFIT_ACCEPT_NVLINK] = "every GPU of the node reaches the others over NVLink through the "
		"NVSwitches (a GPU off the fabric, a link down or P2P disabled halves it)",
	[NICFIT_ACCEPT_RAIL_WRITE] = "the rail's cable, both ports, the switch path and GPUDirect "
		"RDMA from the rail's nearest GPU, one rail at a time so that a fault names its "
		"rail and host",
	[NICFIT_ACCEPT_RAIL_READ] = "the read direction (the responder's PCIe read path, what "
		"GPUDirect RDMA reads use) on each rail",
	[NICFIT_ACCEPT_ALLREDUCE] = "NCCL finds every rail, uses RDMA with GPUDirect on each, and "
		"the fabric carries all rails of all nodes at once (NCCL_ALGO=Ring, so that busbw "
		"measures the network)",
	[NICFIT_ACCEPT_FRONTEND] = "the front-end port carries its rate in TCP with parallel streams",
	[NICFIT_ACCEPT_STORAGE] = "a GPU reads from the storage under test straight into its memory "
		"(GPUDirect Storage, XferType GPUD) at no less than its share of the node's storage "
		"ports; below it the storage, its network or the GPU's path to them is short",
};

static struct nicfit_accept_stage *add_stage(struct nicfit_accept *a, enum nicfit_accept_kind k,
					     int *rc)
{
	struct nicfit_accept_stage *st;

	if (NICFIT_ALLOC_GROW(a->stages, a->nstages + 1, a->stages_alloc)) {
		*rc = NICFIT_E_NOMEM;
		return NULL;
	}
	st = &a->stages[a->nstages++];
	memset(st, 0, sizeof(*st));
	st->kind = k;
	st->title = stage_title[k];
	st->proves = stage_proves[k];
	st->first = a->nsteps;
	*rc = nicfit__accept_band(&a->sys, st);
	return *rc ? NULL : st;
}

/* A step of the last stage; its command lines are filled by fill_commands(). */
static int add_step(struct nicfit_accept *a, int host_a, int host_b, int rail)
{
	struct nicfit_accept_stage *st = &a->stages[a->nstages - 1];
	struct nicfit_accept_step *s;
	const char *kind = nicfit_accept_kind_name(st->kind);

	if (NICFIT_ALLOC_GROW(a->steps, a->nsteps + 1, a->steps_alloc))
		return NICFIT_E_NOMEM;
	s = &a->steps[a->nsteps++];
	memset(s, 0, sizeof(*s));
	s->stage = a->nstages - 1;
	s->a = host_a;
	s->b = host_b;
	s->rail = rail;
	s->gpu = rail >= 0 ? a->sys.rail_gpu[rail] : -1;
	s->measured_gbps = -1;
	if (host_a < 0)
		snprintf(s->name, sizeof(s->name), "%s", kind);
	else if (host_b < 0)
		snprintf(s->name, sizeof(s->name), "%s-%s", kind, a->hosts[host_a]);
	else if (rail < 0)
		snprintf(s->name, sizeof(s->name), "%s-%s-%s", kind, a->hosts[host_a],
			 a->hosts[host_b]);
	else
		snprintf(s->name, sizeof(s->name), "%s-%s-%s-r%d", kind, a->hosts[host_a],
			 a->hosts[host_b], rail);
	st->nsteps++;
	return 0;
}

/*
 * The pairs of nodes the two-node stages run on: every pair for small N,
 * else a ring and then a bisection round (see NICFIT__ACCEPT_ALL_PAIRS_MAX):
 * the ring's N pairs (node i with i + 1), then ceil(N/2) pairs of node i
 * with node i + N/2, half the ring away. Pair k is (*i, *j) in *round.
 * Returns the number of pairs.
 */
static size_t pair_count(const struct nicfit_accept *a)
{
	size_t n = (size_t)a->sys.nodes;

	if (n < 2)
		return 0;
	if (n == 2)
		return 1;
	return n <= NICFIT__ACCEPT_ALL_PAIRS_MAX ? n * (n - 1) / 2 : n + (n + 1) / 2;
}

static void pair_at(const struct nicfit_accept *a, size_t k, int *i, int *j, int *round)
{
	int n = a->sys.nodes, x, y;

	*round = 1;
	if (n > NICFIT__ACCEPT_ALL_PAIRS_MAX) {
		if (k < (size_t)n) {
			*i = (int)k;
			*j = (int)((k + 1) % (size_t)n);
		} else {
			*i = (int)(k - (size_t)n);
			*j = (*i + n / 2) % n;
			*round = 2;
		}
		return;
	}
	for (x = 0; x < n; x++)
		for (y = x + 1; y < n; y++)
			if (k-- == 0) {
				*i = x;
				*j = y;
				return;
			}
}

static int pair_steps(struct nicfit_accept *a, enum nicfit_accept_kind k, size_t npairs,
		      int per_rail)
{
	size_t p;
	int i = 0, j = 0, round = 1, r, rc = 0;

	if (!add_stage(a, k, &rc))
		return rc;
	for (p = 0; p < npairs && !rc; p++) {
		pair_at(a, p, &i, &j, &round);
		if (!per_rail) {
			if (!(rc = add_step(a, i, j, -1)))
				a->steps[a->nsteps - 1].round = round;
			continue;
		}
		for (r = 0; r < a->sys.rails && !rc; r++)
			if (!(rc = add_step(a, i, j, r)))
				a->steps[a->nsteps - 1].round = round;
	}
	return rc;
}

static int build(struct nicfit_accept *a)
{
	const struct nicfit_accept_system *sys = &a->sys;
	size_t npairs = pair_count(a);
	int i, rc = 0;

	a->npairs = npairs;
	a->pattern = npairs == 0 ? "none (one node)" : npairs == 1 ? "one pair" :
		     sys->nodes <= NICFIT__ACCEPT_ALL_PAIRS_MAX ? "all pairs" :
		     "ring, then bisection";
	if (npairs > 1 && sys->nodes > NICFIT__ACCEPT_ALL_PAIRS_MAX)
		a->rounds = "round 1, the ring (each node with the next): a node whose port, cable "
			    "or GPUDirect path is bad fails both its pairs, and round 1 names it; "
			    "round 2, the bisection (each node with the node half the ring away, "
			    "through other switch ports): a ring pair that failed alone leaves its "
			    "two nodes as suspects, and round 2 halves them: the one that fails "
			    "again against a third node is the culprit; when neither does, the "
			    "fault is on the route between the two (a leaf or spine port)";
	else if (npairs > 1)
		a->rounds = "one round, all pairs: a node whose port, cable or GPUDirect path is "
			    "bad fails in all its pairs, and a pair that fails alone while both "
			    "its nodes pass with every other is the route between them";
	if (sys->nvswitch && sys->nvlink_gbs > 0 && sys->gpus_per_node >= 2 && !sys->amd) {
		if (!add_stage(a, NICFIT_ACCEPT_NVLINK, &rc))
			return rc;
		for (i = 0; i < sys->nodes && !rc; i++)
			rc = add_step(a, i, -1, -1);
	}
	if (!rc && sys->rails > 0 && sys->link.gbps > 0 && npairs) {
		rc = pair_steps(a, NICFIT_ACCEPT_RAIL_WRITE, npairs, 1);
		if (!rc && sys->read)
			rc = pair_steps(a, NICFIT_ACCEPT_RAIL_READ, 1, 1);
		if (!rc && add_stage(a, NICFIT_ACCEPT_ALLREDUCE, &rc))
			rc = add_step(a, -1, -1, -1);
	}
	if (!rc && sys->fe_port_gbps > 0 && npairs)
		rc = pair_steps(a, NICFIT_ACCEPT_FRONTEND, npairs, 0);
	if (!rc && sys->st_gbps > 0 && sys->gpus_per_node > 0 && !sys->amd) {
		if (!add_stage(a, NICFIT_ACCEPT_STORAGE, &rc))
			return rc;
		for (i = 0; i < sys->nodes && !rc; i++)
			rc = add_step(a, i, -1, -1);
	}
	return rc;
}

static int fill_commands(struct nicfit_accept *a)
{
	struct nicfit_buf b;
	size_t i;

	for (i = 0; i < a->nsteps; i++) {
		struct nicfit_accept_step *s = &a->steps[i];

		nicfit_buf_init(&b, 0);
		nicfit__accept_command(a, s, 0, "", &b);
		if (nicfit_buf_error(&b))
			return NICFIT_E_NOMEM;
		s->command = nicfit_buf_detach(&b, NULL);
		if (s->b < 0)
			continue;
		nicfit_buf_init(&b, 0);
		nicfit__accept_command(a, s, 1, "", &b);
		if (nicfit_buf_error(&b))
			return NICFIT_E_NOMEM;
		s->server = nicfit_buf_detach(&b, NULL);
	}
	return 0;
}

int nicfit_accept_new(const struct nicfit_accept_system *sys, struct nicfit_accept **out,
		      struct nicfit_error *err)
{
	struct nicfit_accept *a;
	int rc;

	*out = NULL;
	if (sys->nodes < 1 || sys->nodes > NICFIT_ACCEPT_MAX_NODES || !sys->hosts)
		return nicfit_error_set(err, NICFIT_E_USAGE, "accept: %d nodes: give 1 to %d",
					sys->nodes, NICFIT_ACCEPT_MAX_NODES);
	if (sys->rails > NICFIT_ACCEPT_MAX_RAILS)
		return nicfit_error_set(err, NICFIT_E_DATA, "accept: %d rails a node: at most %d",
					sys->rails, NICFIT_ACCEPT_MAX_RAILS);
	a = calloc(1, sizeof(*a));
	if (!a)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	a->sys = *sys;
	a->hosts = calloc((size_t)sys->nodes, sizeof(*a->hosts));
	if (!a->hosts) {
		free(a);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	memcpy(a->hosts, sys->hosts, (size_t)sys->nodes * sizeof(*a->hosts));
	a->sys.hosts = a->hosts;
	rc = build(a);
	if (!rc)
		rc = fill_commands(a);
	if (!rc && !a->nsteps)
		rc = nicfit_error_set(err, NICFIT_E_DATA, "accept: nothing to test: %s has no "
				      "NVLink switch, no back-end rail between two nodes and no "
				      "front end between two nodes", sys->title);
	else if (rc)
		nicfit_error_set(err, rc, rc == NICFIT_E_NOMEM ? "out of memory" :
				 "accept: the system's figures give no band (a link rate nicfit "
				 "cannot compute)");
	if (rc) {
		nicfit_accept_free(a);
		return rc;
	}
	*out = a;
	return 0;
}

void nicfit_accept_free(struct nicfit_accept *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nstages; i++)
		free(a->stages[i].band.formula);
	for (i = 0; i < a->nsteps; i++) {
		free(a->steps[i].server);
		free(a->steps[i].command);
		free(a->steps[i].what);
		free(a->steps[i].causes);
		free(a->steps[i].next);
	}
	free(a->stages);
	free(a->steps);
	free(a->hosts);
	free(a->results);
	free(a->odd_hosts);
	free(a->isolated);
	free(a->audit_causes);
	free(a);
}

int nicfit_accept_exit_code(const struct nicfit_accept *a)
{
	if (!a->judged)
		return 0;
	if (a->counts[NICFIT_ACCEPT_BROKEN])
		return 2;
	if (a->counts[NICFIT_ACCEPT_LOW] || a->counts[NICFIT_ACCEPT_MISSING])
		return 1;
	return 0;
}
