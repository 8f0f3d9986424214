/*
 * plan_rack.c - a rack-scale system as the unit of a plan: GB200 and
 * GB300 NVL72, whose catalog server is one compute tray and whose rack
 * holds rack_trays of them around one NVLink domain (docs/catalog.md,
 * "rack"). --racks N plans N x rack_trays trays; this file reads that
 * request and says what a rack is made of: its scale-out rails, its
 * north-south and management ports, its power, its NVLink domain and
 * which traffic stays inside it, in text and in the plan's JSON.
 *
 * It decides nothing the other rules do not: the back end, front end and
 * fabric of the trays are R5-R8's, read back here per rack.
 */
#include <string.h>

#include "core/node_kind_int.h"
#include "plan/plan_int.h"

/*
 * --racks N: the trays of N racks. Only a rack-scale server has racks
 * (a server with no "rack" in its catalog entry is refused: its racks
 * would be a guess), and --racks with --servers is one count too many.
 */
int nicfit__plan_read_racks(struct nicfit_reader *r, struct nicfit_plan_input *in)
{
	const struct nicfit_server *sv = in->server;
	long racks;
	int rc;

	if (!nicfit_reader_get(r, "racks"))
		return 0;
	if ((rc = nicfit_reader_long(r, "racks", 0, 1, 1000, &racks)))
		return rc;
	if (!sv->rack_trays)
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						nicfit_reader_opt(r, "racks"), 0, 0,
						"%s is not a rack-scale system (its catalog "
						"entry has no 'rack'): give --servers",
						sv->e.id));
	if (nicfit_reader_get(r, "servers"))
		return nicfit_reader_fail(r, nicfit_error_at(r->err, NICFIT_E_USAGE,
						nicfit_reader_opt(r, "racks"), 0, 0,
						"give --racks or --servers, not both (a rack is "
						"%d x %s)", sv->rack_trays, sv->e.id));
	in->racks = (int)racks;
	in->servers = (int)racks * sv->rack_trays;
	return 0;
}

/* Whole racks of a rack-scale plan, or 0 (a plain server, or trays that fill no whole rack). */
int nicfit__plan_racks(const struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;

	if (!sv->rack_trays || p->in.servers % sv->rack_trays)
		return 0;
	return p->in.servers / sv->rack_trays;
}

static int rack_domain_trays(const struct nicfit_plan *p, int per_server);
static int partial_trays(const struct nicfit_plan *p);

/*
 * The GPUs of the plan's largest NVLink domain: a rack's (a unit's), or
 * all the trays planned when they are part of one rack; 0 when it is no
 * more than one tray.
 */
static int domain_gpus(const struct nicfit_plan *p)
{
	struct nicfit_rack_domains d;

	nicfit_rack_domains(p->in.server, p->in.gpu, p->in.gpus_per_server, p->in.servers, &d);
	return d.largest_gpus;
}

/*
 * Trays that fill no whole rack: the domains they make (the trays of one
 * rack are one domain, the rack's NVLink switch trays join them all) and
 * whether the job needs scale-out; the per-rack lines need whole racks.
 */
static void partial_rack_text(struct nicfit_emit *e, const struct nicfit_plan *p, const char *bold,
			      const char *reset)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_server *sv = in->server;
	int whole = in->servers / sv->rack_trays, part = partial_trays(p);
	int dom = domain_gpus(p), per = in->gpus_per_server;
	const char *u = sv->rack_racks > 1 ? "unit" : "rack";

	if (!whole)
		nicfit_emit_printf(e, "%sRacks%s      %d tray%s of one %s of %d, %d GPUs: a %s is the unit "
				      "(--racks N)\n", bold, reset, in->servers,
				   in->servers == 1 ? "" : "s", u, sv->rack_trays, in->servers * per, u);
	else
		nicfit_emit_printf(e, "%sRacks%s      %d trays: %d whole %s%s of %d and %d trays of one "
				      "more, %d GPUs: a %s is the unit (--racks N)\n", bold, reset,
				   in->servers, whole, u, whole == 1 ? "" : "s", sv->rack_trays, part,
				   in->servers * per, u);
	if (!dom)
		return;
	if (!whole)
		nicfit_emit_printf(e, "           NVLink: the %d trays are one NVLink domain of %d GPUs, "
				      "%g GB/s a GPU through the %s's %d NVLink switch trays\n",
				   in->servers, dom, in->gpu->nvlink_gbs, u, sv->rack_switch_trays);
	else
		nicfit_emit_printf(e, "           NVLink: one domain a %s, %d GPUs in a whole one and %d in "
				      "the partial one, %g GB/s a GPU; the step is worked out over groups "
				      "of %d trays, each inside one domain (R9)\n", u, dom, part * per,
				   in->gpu->nvlink_gbs, nicfit__plan_domain_trays(p, per));
	if (p->domain_only)
		nicfit_emit_printf(e, "           scale-out: none for this job: the NVLink domain carries "
				      "every collective; the trays' built-in ports stay unused (R2)\n");
}

/* Switches of the plan's fabric, by role "switch" in the bill of materials. */
static int fabric_switches(const struct nicfit_plan *p, const char **id)
{
	size_t i;
	int n = 0;

	*id = NULL;
	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, "switch")) {
			n += p->bom[i].qty;
			*id = p->bom[i].part[0] ? p->bom[i].part : p->bom[i].id;
		}
	return n;
}

void nicfit__plan_rack_text(struct nicfit_emit *e, const struct nicfit_plan *p, const char *bold,
			    const char *reset)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_server *sv = in->server;
	int racks = nicfit__plan_racks(p), dom = domain_gpus(p), nsw;
	int rack_ports = sv->rack_trays * (p->backend_needed ? p->be_cards * p->be_ports : 0);
	const char *swid, *u = sv->rack_racks > 1 ? "unit" : "rack";

	if (!sv->rack_trays)
		return;
	if (!racks) {
		partial_rack_text(e, p, bold, reset);
		return;
	}
	if (sv->rack_racks > 1)
		nicfit_emit_printf(e, "%sRacks%s      %d units of %d racks, %d compute trays a unit (%d in "
				      "all), %d GPUs a unit%s\n", bold, reset, racks, sv->rack_racks,
				   sv->rack_trays, in->servers, sv->rack_trays * in->gpus_per_server,
				   dom ? " in one NVLink domain across its racks" : "");
	else
		nicfit_emit_printf(e, "%sRacks%s      %d x %d compute trays (%d in all), %d GPUs a rack%s\n",
				   bold, reset, racks, sv->rack_trays, in->servers,
				   sv->rack_trays * in->gpus_per_server,
				   dom ? " in one NVLink domain" : "");
	if (dom)
		nicfit_emit_printf(e, "           NVLink: %g GB/s a GPU through %d NVLink switch trays; "
				      "tensor and expert parallel traffic of up to %d GPUs stays "
				      "inside the %s\n", in->gpu->nvlink_gbs, sv->rack_switch_trays, dom, u);
	if (p->backend_needed && p->be_nic)
		nicfit_emit_printf(e, "           scale-out: %d rails a tray, %d x %g G ports a %s, "
				      "%d in all (%s)\n", p->be_cards * p->be_ports, rack_ports,
				   p->be_port_gbps, u, rack_ports * racks,
				   p->fabric == NICFIT_FABRIC_IB ? "InfiniBand" : "RoCE v2");
	else if (p->domain_only)
		nicfit_emit_printf(e, "           scale-out: none for this job: the NVLink domain carries "
				      "every collective; the trays' built-in ports stay unused (R2)\n");
	if (p->st_nic)
		nicfit_emit_printf(e, "           north-south: %d x %s a tray, %d a %s, to two switches\n",
				   p->st_cards, p->st_nic->part, p->st_cards * sv->rack_trays, u);
	nicfit_emit_printf(e, "           management: %d tray BMCs and %d switch-tray BMCs a %s, one "
			      "OOB port each (%d in all)", sv->rack_trays, sv->rack_switch_trays, u,
			   (sv->rack_trays + sv->rack_switch_trays) * racks);
	if (sv->rack_mgmt_switches > 0)
		nicfit_emit_printf(e, "; the %s holds %d management switches\n", u,
				   sv->rack_mgmt_switches);
	else
		nicfit_emit_printf(e, "; its management switches: not in the catalog's source\n");
	if (sv->rack_kw > 0)
		nicfit_emit_printf(e, "           power: %g kW a rack, %g kW in all%s%s\n", sv->rack_kw,
				   sv->rack_kw * racks, sv->rack_cooling ? ", cooling: " : "",
				   sv->rack_cooling ? sv->rack_cooling : "");
	nsw = fabric_switches(p, &swid);
	if (nsw)
		nicfit_emit_printf(e, "           fabric: %d x %s for %d %s%s (bill of materials below)\n",
				   nsw, swid, racks, u, racks == 1 ? "" : "s");
}

void nicfit__plan_rack_json(struct nicfit_emit *e, const struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_server *sv = in->server;
	int racks = nicfit__plan_racks(p), dom = domain_gpus(p), nsw;
	const char *swid;

	if (!sv->rack_trays)
		return;
	nicfit_emit_begin_object(e, "rack");
	nicfit_emit_int(e, "racks", racks);
	nicfit_emit_int(e, "trays_per_rack", sv->rack_trays);
	nicfit_emit_int(e, "racks_per_unit", sv->rack_racks > 1 ? sv->rack_racks : 1);
	nicfit_emit_int(e, "gpus_per_rack", sv->rack_trays * in->gpus_per_server);
	nicfit_emit_int(e, "switch_trays_per_rack", sv->rack_switch_trays);
	nicfit_emit_int(e, "mgmt_switches_per_rack", sv->rack_mgmt_switches);
	nicfit_emit_int(e, "bmcs_per_rack", sv->rack_trays + sv->rack_switch_trays);
	nicfit_emit_int(e, "scaleout_ports_per_rack",
			p->backend_needed && p->be_nic ? sv->rack_trays * p->be_cards * p->be_ports : 0);
	nicfit_emit_int(e, "northsouth_nics_per_rack", p->st_nic ? p->st_cards * sv->rack_trays : 0);
	if (sv->rack_kw > 0)
		nicfit_emit_number(e, "kw_per_rack", sv->rack_kw);
	else
		nicfit_emit_null(e, "kw_per_rack");
	nicfit_emit_string(e, "cooling", sv->rack_cooling);
	nsw = fabric_switches(p, &swid);
	nicfit_emit_int(e, "fabric_switches", nsw);
	nicfit_emit_begin_object(e, "nvlink_domain");
	nicfit_emit_int(e, "gpus", dom ? dom : in->gpus_per_server);
	nicfit_emit_number(e, "gbs_per_gpu", in->gpu ? in->gpu->nvlink_gbs : 0);
	nicfit_emit_int(e, "trays", dom ? dom / (in->gpus_per_server ? in->gpus_per_server : 1) : 1);
	/* trays past the whole racks: one more, partial domain (27 trays of 18: 9) */
	nicfit_emit_int(e, "partial_trays", dom ? partial_trays(p) : 0);
	/* the trays of each equal group the step is worked out over (R9) */
	nicfit_emit_int(e, "group_trays", nicfit__plan_domain_trays(p, in->gpus_per_server));
	/* R2 domain-only: the whole job is inside, nothing crosses the scale-out fabric */
	nicfit_emit_bool(e, "whole_job", p->domain_only);
	nicfit_emit_begin_array(e, "inside");
	nicfit_emit_string(e, NULL, "tensor parallel");
	nicfit_emit_string(e, NULL, "expert parallel");
	if (p->domain_only) {
		nicfit_emit_string(e, NULL, "pipeline parallel");
		nicfit_emit_string(e, NULL, "data parallel");
	}
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "scale_out");
	if (!p->domain_only) {
		nicfit_emit_string(e, NULL, "data parallel");
		nicfit_emit_string(e, NULL, "pipeline parallel");
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
	nicfit_emit_end_object(e);
}


/*
 * Trays of one NVLink domain: a rack's (a unit's) trays as far as the
 * GPU's domain reaches, else 0 (a plain server, or a domain no larger
 * than one tray). Every tray of a rack is in it, whether the rack is full
 * or not: its NVLink switch trays join all of them.
 */
static int rack_domain_trays(const struct nicfit_plan *p, int per_server)
{
	struct nicfit_rack_domains d;

	nicfit_rack_domains(p->in.server, p->in.gpu, per_server, p->in.servers, &d);
	return d.rack_trays;
}

/*
 * Servers each NVLink group of the job spans when a group spans more
 * than one, else 1. Only a rack-scale system's trays share a domain (its
 * NVLink switch trays join them): an HGX or DGX server's NVLink ends at
 * its own baseboard, however few of its GPUs are planned, so two DGX H100
 * with four GPUs each are two domains, not one of eight.
 *
 * nicfit assumes the trays fill whole racks first and the rest sit in one
 * more rack: N trays are N / rack_trays whole domains and one partial
 * domain of the N % rack_trays left (9 trays: one domain of 36 GPUs; 27:
 * one of 72 and one of 36). A job lays its tensor, expert and pipeline
 * groups out alike on every replica, each inside one domain, so its
 * groups are the largest tray count that divides every domain's trays:
 * gcd(rack_trays, N) once the trays spill past one rack (27 trays: 3
 * groups of 9, two in the whole rack, one in the partial one), all N
 * while they fit one rack (9 trays: one group of 9). With the partial
 * rack's trays dividing rack_trays, that is also exactly the partial
 * rack's own share of the exchange between domains, the busiest trays.
 */
int nicfit__plan_domain_trays(const struct nicfit_plan *p, int per_server)
{
	struct nicfit_rack_domains d;

	nicfit_rack_domains(p->in.server, p->in.gpu, per_server, p->in.servers, &d);
	return d.group_trays;
}

/*
 * The trays of the plan's last, partial rack (9 of 27 on an NVL72), 0
 * when the trays fill whole racks or fit one rack.
 */
static int partial_trays(const struct nicfit_plan *p)
{
	struct nicfit_rack_domains d;

	nicfit_rack_domains(p->in.server, p->in.gpu, p->in.gpus_per_server, p->in.servers, &d);
	return d.whole ? d.partial : 0;
}

/*
 * R9 on a rack-scale NVLink domain (nvlink-domain-step): traffic among
 * the GPUs of one NVLink domain never reaches the scale-out NICs (the
 * DGX SuperPOD GB200 RA: the rack's 72 GPUs meet through its NVLink
 * switch trays, the compute fabric joins racks), so the step is worked
 * out with the domain as its node: tensor and expert parallel inside it,
 * the data-parallel (and pipeline) exchange between domains. What leaves
 * a domain goes out through all its trays' NICs at once, so each tray
 * carries its 1/T share: the terms are divided by the T trays a domain
 * spans and stay per server, as every other plan states them. The job in
 * p->step_job stays per tray (placements compare against it); split
 * lays out a decode step over the domain-sized node. Returns 0 when the
 * step is known.
 */
int nicfit__plan_domain_step(struct nicfit_plan *p,
			     void (*split)(struct nicfit_plan *, struct nicfit_step_job *))
{
	struct nicfit_step_job dj = p->step_job;
	int t = nicfit__plan_domain_trays(p, p->step_job.gpus_per_node), i;
	int part = partial_trays(p), r = p->in.server->rack_trays;
	const char *u = p->in.server->rack_racks > 1 ? "unit" : "rack";

	if (t > 1 && dj.nodes % t)
		t = 1;
	if (t > 1) {
		dj.nodes /= t;
		dj.gpus_per_node *= t;
	}
	if (dj.phase != NICFIT_PHASE_TRAIN)
		split(p, &dj);
	if (nicfit_step_calc(&dj, &p->in.step, &p->step, NULL))
		return -1;
	if (t > 1) {
		for (i = 0; i < p->step.nterms; i++) {
			p->step.terms[i].bytes /= t;
			p->step.terms[i].buffer /= t;
		}
		p->step.bytes_per_node /= t;
		if (dj.nodes == 1)
			plan_decide(&p->decisions, "R9", 1,
				    "NVLink domain: all %d GPUs of the job are one NVLink domain over "
				    "%d servers: the step's traffic stays on NVLink and none of it "
				    "reaches the scale-out NICs.", dj.gpus_per_node, t);
		else if (part)
			plan_decide(&p->decisions, "R9", 1,
				    "NVLink domains: %d servers are %d whole %s%s of %d trays and %d "
				    "trays of one more (assumed: whole %ss first), one NVLink domain a %s. "
				    "The job's tensor, expert and pipeline groups are alike on every "
				    "replica and each lies inside one domain, so the step is worked out "
				    "over %d groups of %d GPUs on %d servers each, the largest that "
				    "divides every domain's trays; each server's NICs carry 1/%d of what "
				    "leaves its group.", p->in.servers, p->in.servers / r, u,
				    p->in.servers / r == 1 ? "" : "s", r, part, u, u, dj.nodes,
				    dj.gpus_per_node, t, t);
		else
			plan_decide(&p->decisions, "R9", 1,
				    "NVLink domain: %d GPUs over %d servers; their traffic among "
				    "themselves stays on NVLink, so the step is worked out over %d "
				    "domains and each server's NICs carry 1/%d of what leaves its "
				    "domain.", dj.gpus_per_node, t, dj.nodes, t);
	}
	p->step_job.tp = dj.tp;
	p->step_job.pp = dj.pp;
	p->step_job.ep = dj.ep;
	return 0;
}

/*
 * R2 on a rack-scale NVLink domain (domain-only): a job whose servers
 * are all the trays of one NVLink domain (one NVL72 rack, one NVL36x2
 * unit) keeps every collective on NVLink - its tensor, expert, pipeline
 * and data-parallel groups all lie inside the domain, which the rack's
 * NVLink switch trays join (DGX SuperPOD GB200 RA: the compute fabric
 * joins racks, not the GPUs of one rack). No byte of it reaches the
 * scale-out NICs (R9 works the step out over the domain and finds 0 B),
 * so no back-end fabric is planned: the seed's rule, no back end where
 * none is needed. The trays' built-in ConnectX ports stay where they are,
 * unused by this job; nicfit buys no switch, optic or cable for them, as
 * it buys none for a DGX's compute ports when one DGX trains alone. More
 * than one domain (--racks N) exchanges between domains and plans the
 * fabric for it. what names the job ("Training"), servers the trays it
 * uses. Returns 1 when it applied (p->backend_needed is then 0).
 */
int nicfit__plan_rule_domain_only(const struct nicfit_catalog *cat, struct nicfit_plan *p,
				  const char *what, int servers)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_server *sv = in->server;
	const struct nicfit_nic *builtin;
	const char *u = sv->rack_racks > 1 ? "unit" : "rack";
	char ports[200];
	int t, nports;

	if (!sv->rack_trays || servers < 2 || servers != in->servers || !in->gpu)
		return 0;
	t = nicfit__plan_domain_trays(p, in->gpus_per_server);
	if (t != servers)
		return 0;
	p->backend_needed = 0;
	p->domain_only = 1;
	builtin = nicfit__plan_builtin_nic(cat, sv);
	nports = builtin ? nicfit__plan_builtin_count(sv) * builtin->ports : 0;
	ports[0] = '\0';
	if (nports > 0)
		plan_fmt(ports, sizeof(ports), " The trays' %d built-in %g G ports (%d x %s a tray) "
			 "stay, unused by this job: nicfit plans no switch, optic or cable for them.",
			 nports * servers, builtin->port_gbps, nicfit__plan_builtin_count(sv),
			 builtin->part);
	plan_decide(&p->decisions, "R2", 1,
		    "%s on %d servers that are one NVLink domain: %d x %s joined by %d NVLink switch "
		    "trays at %g GB/s a GPU, so every collective of the job (tensor, expert, pipeline "
		    "and data parallel) stays on NVLink and 0 B a step reaches the scale-out NICs: no "
		    "scale-out fabric is needed for this job.%s More than one %s (--racks N) exchanges "
		    "between domains and plans the fabric for it.", what, servers,
		    servers * in->gpus_per_server, in->gpu->e.name, sv->rack_switch_trays,
		    in->gpu->nvlink_gbs, ports, u);
	return 1;
}

/*
 * R9 for a model split over a rack-scale NVLink domain (split-in-domain):
 * a plain server's advice, tensor parallel inside a server and pipeline
 * across servers, is wrong inside a domain, whose trays meet over the
 * NVLink switch trays at the GPU's NVLink bandwidth. On one domain every
 * all-reduce and every stage boundary stays on NVLink; over several the
 * boundary is the domain's (or the equal group's, nicfit__plan_domain_trays),
 * and what crosses it is counted per domain and shared by its trays'
 * NICs. pp is one token's hidden state (bytes), toks the tokens a second.
 * Returns 1 when it said it, 0 when the plan has no such domain.
 */
int nicfit__plan_split_domain(struct nicfit_plan *p, double pp, double toks)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_model *m = in->model;
	const struct nicfit_server *sv = in->server;
	int t = nicfit__plan_domain_trays(p, in->gpus_per_server), d, g;
	const char *u = sv->rack_racks > 1 ? "unit" : "rack";
	char b1[32], b2[32], where[96];
	double tp;

	if (t < 2 || !m || !in->gpu || in->servers < 2 || in->servers % t)
		return 0;
	d = in->servers / t;
	g = t * in->gpus_per_server;
	if (d == 1) {
		plan_decide(&p->decisions, "R9", 1,
			    "Splitting %s across %d servers that are one NVLink domain (%d x %s, "
			    "%g GB/s a GPU through the %s's %d NVLink switch trays): its tensor "
			    "parallel all-reduces (%d a token) and pipeline hand-offs (%s a token at "
			    "each stage boundary) all stay on NVLink, so tensor parallel may span "
			    "trays and none of it reaches the scale-out NICs.",
			    m->e.name, in->servers, g, in->gpu->e.name, in->gpu->nvlink_gbs, u,
			    sv->rack_switch_trays, 2 * m->arch.layers,
			    nicfit_fmt_bytes(pp, b1, sizeof(b1)));
		return 1;
	}
	/* what crosses d domains, shared by each domain's t trays */
	tp = 2.0 * m->arch.layers * 2.0 * (d - 1) / d * m->arch.hidden * 2 / t;
	if (partial_trays(p))
		plan_fmt(where, sizeof(where), "an NVLink group of %d GPUs (%d trays of one %s's domain)",
			 g, t, u);
	else
		plan_fmt(where, sizeof(where), "an NVLink domain of %d GPUs", g);
	plan_decide(&p->decisions, "R9", 1,
		    "Splitting %s across %d servers in %d NVLink %s of %d GPUs: pipeline parallel "
		    "sends %s per token across each boundary between them; tensor parallel across "
		    "them would send %s per token per server and wait on %d all-reduces per token. "
		    "At %.0f tokens/s that is %.3f vs %.2f Gb/s: keep tensor parallel inside %s "
		    "and pipeline parallel across them.", m->e.name, in->servers, d,
		    partial_trays(p) ? "groups" : "domains", g,
		    nicfit_fmt_bytes(pp, b1, sizeof(b1)), nicfit_fmt_bytes(tp, b2, sizeof(b2)),
		    2 * m->arch.layers, toks, pp * toks * 8 / 1e9, tp * toks * 8 / 1e9, where);
	return 1;
}

/*
 * Replicas of k trays the plan's NVLink domains hold, each inside one
 * domain: k-tray replicas of every whole rack's domain and of the
 * partial rack's (27 trays, k = 2: 9 + 4 = 13). *largest is the trays of
 * its largest domain, *part those of the partial one past whole racks (0
 * when none). A plain server is its own domain: one replica of k servers.
 */
int nicfit__plan_domain_replicas(const struct nicfit_plan *p, int k, int *largest, int *part)
{
	int r = rack_domain_trays(p, p->in.gpus_per_server), n = p->in.servers;

	*part = 0;
	if (k < 1)
		k = 1;
	if (r < 2) {
		*largest = 1;
		return n / k;
	}
	if (n <= r) {
		*largest = n;
		return n / k;
	}
	*largest = r;
	*part = n % r;
	return n / r * (r / k) + *part / k;
}

/*
 * R2 domain-only for a model split over trays (inference): on the trays
 * asked when they hold it (1 when it applied, p->backend_needed then 0).
 * When the model needs more trays than asked, the plan is made for those
 * it needs (not-enough-servers, nicfit__plan_rule_backend_needed), and
 * when they are one NVLink domain R2 says so there: 1 then too, with
 * nothing said yet and p->backend_needed left as it was.
 */
int nicfit__plan_split_domain_only(const struct nicfit_catalog *cat, struct nicfit_plan *p,
				   const char *what)
{
	int n = p->servers_needed;

	if (p->fit_known && n > p->in.servers)
		return n >= 2 && n <= rack_domain_trays(p, p->in.gpus_per_server);
	return nicfit__plan_rule_domain_only(cat, p, what, p->in.servers);
}
