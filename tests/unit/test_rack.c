/*
 * test_rack.c - the 800G generation and rack-scale systems in the
 * planner: built-in compute NICs fixed (a DGX refuses another card), a
 * DGX's default fabric, GB200/GB300 NVL72 racks as the unit (72 and 576
 * scale-out ports, the NVLink domain in the step), DGX B300 on XDR.
 */
#include "unit.h"

#include "nicfit/catalog.h"
#include "nicfit/cluster.h"
#include "nicfit/plan.h"
#include "nicfit/step.h"

#include "plan_fixture.h"
#include "core/node_kind_int.h"
#include "plan/plan_int.h"

/* The input error of a request, or fail. */
static void input_refused(const char *const *kv, const char *words)
{
	struct nicfit_spec spec;
	struct nicfit_plan_input in;
	struct nicfit_error err;
	int i;

	nicfit_spec_init(&spec, "test");
	nicfit_error_clear(&err);
	for (i = 0; kv[i]; i += 2)
		assert_int_equal(nicfit_spec_add(&spec, kv[i], kv[i + 1], &err), 0);
	assert_int_equal(nicfit_plan_input_from_spec(cat, &spec, &in, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, words));
	nicfit_spec_release(&spec);
}

static void done(struct nicfit_plan *p)
{
	nicfit_plan_release(p);
	free(p);
}

static const struct nicfit_finding *finding(const struct nicfit_plan *p, const char *code)
{
	size_t i;

	for (i = 0; i < p->findings.n; i++)
		if (!strcmp(p->findings.v[i].code, code))
			return &p->findings.v[i];
	return NULL;
}

static int bom_qty(const struct nicfit_plan *p, const char *id)
{
	size_t i;
	int n = 0;

	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].id, id))
			n += p->bom[i].qty;
	return n;
}

/* 64 ConnectX-6 for a DGX H100: refused, planned on its built-in ConnectX-7s. */
static void dgx_nic_swap_refused(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "4", "backend_nic",
		"mcx653105a-hdat", "model", "llama-3.1-70b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_finding *f = finding(p, "builtin-nic-fixed");

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_CRITICAL);
	assert_non_null(strstr(f->message, "MCX653105A-HDAT cannot replace them"));
	assert_false(p->buildable);
	assert_string_equal(p->be_nic->e.id, "mcx75310aas-neat");
	assert_int_equal(p->be_cards, 8);
	assert_int_equal(bom_qty(p, "mcx653105a-hdat"), 0);
	done(p);
}

/* The built-in card asked for by name is no swap: no finding. */
static void dgx_builtin_asked_is_fine(void **state)
{
	static const char *const kv[] = { "server", "dgx-h100", "servers", "4", "backend_nic",
		"mcx75310aas-neat", "model", "llama-3.1-70b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_null(finding(p, "builtin-nic-fixed"));
	assert_true(p->buildable);
	done(p);
}

/* InfiniBand by default on a DGX; RoCE when asked or implied by an Ethernet switch. */
static void dgx_default_fabric(void **state)
{
	static const char *const dflt[] = { "server", "dgx-b200", "servers", "4", "model",
		"llama-3.1-70b", "workload", "training", NULL };
	static const char *const roce[] = { "server", "dgx-b200", "servers", "4", "model",
		"llama-3.1-70b", "workload", "training", "fabric", "roce", NULL };
	static const char *const eth[] = { "server", "dgx-b200", "servers", "4", "model",
		"llama-3.1-70b", "workload", "training", "switch", "sn5600", NULL };
	static const char *const generic[] = { "server", "generic-gen5", "servers", "4", "gpu",
		"h100-pcie", "gpus_per_server", "2", "model", "llama-3-70b", "workload", "training",
		NULL };
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(dflt);
	assert_int_equal(p->fabric, NICFIT_FABRIC_IB);
	done(p);
	p = plan_of(roce);
	assert_int_equal(p->fabric, NICFIT_FABRIC_ROCE);
	done(p);
	p = plan_of(eth);
	assert_int_equal(p->fabric, NICFIT_FABRIC_ROCE);
	done(p);
	/* a server without built-in NICs keeps RoCE, and a plain ConnectX before a SuperNIC */
	p = plan_of(generic);
	assert_int_equal(p->fabric, NICFIT_FABRIC_ROCE);
	assert_string_equal(p->be_nic->family, "ConnectX-7");
	done(p);
}

/* The first R2 decision that applied and holds words, or NULL. */
static const char *rule_said(const struct nicfit_plan *p, const char *rule, const char *words)
{
	size_t i;

	for (i = 0; i < p->decisions.n; i++)
		if (!strcmp(p->decisions.v[i].code, rule) && p->decisions.v[i].applied &&
		    strstr(p->decisions.v[i].message, words))
			return p->decisions.v[i].message;
	return NULL;
}

static const char *r2_said(const struct nicfit_plan *p, const char *words)
{
	return rule_said(p, "R2", words);
}

/* Parts of a role in the bill of materials. */
static int bom_role(const struct nicfit_plan *p, const char *role)
{
	size_t i;
	int n = 0;

	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, role))
			n += p->bom[i].qty;
	return n;
}

/* Parts of a role to buy: the bill's lines less those included with the server. */
static int bom_bought(const struct nicfit_plan *p, const char *role)
{
	size_t i;
	int n = 0;

	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, role) && !p->bom[i].included)
			n += p->bom[i].qty;
	return n;
}

/* Built-in NICs a plan lists as idle: its included back-end line and slot rows. */
static void idle_builtin(const struct nicfit_plan *p, const char *part, int qty, int rows)
{
	size_t i;
	int k, n = 0, lines = 0;

	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, "backend")) {
			lines++;
			assert_true(p->bom[i].included);
			assert_false(p->bom[i].priced);
			assert_true(p->bom[i].total_usd == 0);
			assert_string_equal(p->bom[i].part, part);
			assert_int_equal(p->bom[i].qty, qty);
			assert_non_null(strstr(p->bom[i].description, "unused by this job"));
		}
	assert_int_equal(lines, 1);
	for (k = 0; k < p->nslots; k++)
		n += strstr(p->slots[k].what, "built in, unused by this job") != NULL &&
		     strstr(p->slots[k].what, part) != NULL;
	assert_int_equal(n, rows);
}

/*
 * One GB200 NVL72 rack training: 18 trays, one 72-GPU NVLink domain, and
 * the whole job inside it, so no scale-out fabric (R2 domain-only): the
 * rack's 72 built-in ConnectX-7 ports stay, nothing is bought for them;
 * they are listed, a tray's four compute slots in the slots table and 72
 * in the bill, as included with the server and unused by this job.
 */
static void gb200_one_rack(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl72", "racks", "1", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->in.racks, 1);
	assert_int_equal(p->in.servers, 18);
	assert_int_equal(nicfit__plan_racks(p), 1);
	assert_int_equal(nicfit__plan_domain_trays(p, 4), 18);
	assert_int_equal(nicfit__plan_builtin_count(p->in.server) * p->in.server->rack_trays, 72);
	assert_false(p->backend_needed);
	assert_null(p->be_nic);
	assert_int_equal(bom_role(p, "switch") + bom_bought(p, "backend"), 0);
	idle_builtin(p, "MCX75310AAS-NEAT", 72, 4);
	assert_non_null(r2_said(p, "one NVLink domain"));
	assert_non_null(r2_said(p, "72 built-in 400 G ports"));
	assert_non_null(strstr(p->verdict, "no back-end fabric needed (the job is one NVLink domain"));
	/* R9 agrees: the step over the domain sends 0 B out of it */
	assert_true(p->traffic_known);
	assert_true(p->step.bytes_per_node == 0);
	done(p);
}

/*
 * The same for GB300 NVL72, a GB200 NVL36x2 unit (two racks, one domain)
 * and fine-tuning and multi-node inference; a job over two domains
 * exchanges between them and keeps its fabric, and RDMA storage is a
 * fabric of its own.
 */
static void one_domain_no_backend(void **state)
{
	static const char *const gb300[] = { "server", "gb300-nvl72", "racks", "1", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	static const char *const nvl36[] = { "server", "gb200-nvl36x2", "racks", "1", "model",
		"llama-3.1-405b", "workload", "fine-tuning", NULL };
	static const char *const split[] = { "server", "gb300-nvl72", "racks", "1", "model",
		"llama-3.1-405b", "workload", "multi-node-inference", NULL };
	static const char *const two[] = { "server", "gb300-nvl72", "racks", "2", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	static const char *const store[] = { "server", "gb200-nvl72", "racks", "1", "model",
		"llama-3.1-405b", "workload", "rdma-storage", NULL };
	const char *const *none[] = { gb300, nvl36, split };
	struct nicfit_plan *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		p = plan_of(none[i]);
		assert_false(p->backend_needed);
		assert_true(p->domain_only);
		assert_int_equal(bom_role(p, "switch") + bom_bought(p, "backend"), 0);
		assert_int_equal(bom_role(p, "backend"), 4 * p->in.servers);
		assert_non_null(r2_said(p, "no scale-out fabric is needed for this job"));
		done(p);
	}
	p = plan_of(two);
	assert_true(p->backend_needed);
	assert_false(p->domain_only);
	assert_true(bom_qty(p, "q3400") >= 1);
	done(p);
	p = plan_of(store);
	assert_true(p->backend_needed);
	assert_false(p->domain_only);
	done(p);
}

/*
 * Part of a rack: the rack's NVLink switch trays join every tray of it,
 * so 9 trays of one GB200 NVL72 rack are one NVLink domain of 36 GPUs,
 * and a training job on them needs no scale-out fabric, as one whole
 * rack does not: R2 domain-only, and R9's step sends 0 B out of it.
 */
static void partial_rack_one_domain(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl72", "servers", "9", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	static const char *const two[] = { "server", "gb200-nvl72", "servers", "2", "model",
		"llama-3.1-70b", "workload", "fine-tuning", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(nicfit__plan_racks(p), 0);
	assert_int_equal(nicfit__plan_domain_trays(p, 4), 9);
	assert_false(p->backend_needed);
	assert_true(p->domain_only);
	assert_null(p->be_nic);
	assert_int_equal(bom_role(p, "switch") + bom_bought(p, "backend"), 0);
	idle_builtin(p, "MCX75310AAS-NEAT", 36, 4);
	assert_non_null(r2_said(p, "9 servers that are one NVLink domain: 36 x"));
	assert_non_null(r2_said(p, "36 built-in 400 G ports"));
	assert_true(p->traffic_known);
	assert_true(p->step.bytes_per_node == 0);
	assert_non_null(rule_said(p, "R9", "all 36 GPUs of the job are one NVLink domain"));
	done(p);
	p = plan_of(two);
	assert_int_equal(nicfit__plan_domain_trays(p, 4), 2);
	assert_false(p->backend_needed);
	assert_true(p->domain_only);
	done(p);
}

/*
 * A model that needs more trays than asked is planned on the trays it
 * needs, with the critical finding kept; 8 trays of one rack are one
 * domain, so that plan, too, has no back end.
 */
static void too_few_trays_one_domain(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl72", "servers", "2", "model",
		"llama-3.1-405b", "workload", "multi-node-inference", "concurrency", "64", "context",
		"131072", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_non_null(finding(p, "not-enough-servers"));
	assert_false(p->buildable);
	assert_int_equal(p->in.servers, 8);
	assert_true(p->domain_only);
	assert_false(p->backend_needed);
	assert_null(r2_said(p, "back-end RDMA fabric needed"));
	assert_non_null(r2_said(p, "8 servers that are one NVLink domain"));
	done(p);
}

/*
 * 27 trays are a rack and a half: one whole rack (a domain of 72 GPUs)
 * and 9 trays of a second (a domain of 36). nicfit lays the job out in
 * equal groups of 9 trays, each inside one rack's domain, and works the
 * step out over 3 such groups; each tray carries 1/9 of what leaves its
 * group. The back end stays: the two domains exchange over it.
 */
static void rack_and_a_half(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl72", "servers", "27", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	struct nicfit_step_job j = p->step_job;
	struct nicfit_step s;

	(void)state;
	assert_int_equal(nicfit__plan_domain_trays(p, 4), 9);
	assert_true(p->backend_needed);
	assert_false(p->domain_only);
	assert_non_null(p->be_nic);
	assert_true(p->traffic_known);
	j.nodes = 3;
	j.gpus_per_node = 36;
	assert_int_equal(nicfit_step_calc(&j, &p->in.step, &s, NULL), 0);
	assert_true(s.bytes_per_node > 0);
	assert_near(p->step.bytes_per_node, s.bytes_per_node / 9, s.bytes_per_node * 1e-9);
	assert_non_null(rule_said(p, "R9", "1 whole rack of 18 trays and 9 trays of one more"));
	done(p);
}

/*
 * A model split over one rack's NVLink domain: R9 says its tensor and
 * pipeline traffic stays on NVLink, not "keep tensor parallel inside a
 * server", which is a plain server's advice.
 */
static void split_inside_domain(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl72", "racks", "1", "model",
		"llama-3.1-405b", "workload", "multi-node-inference", NULL };
	static const char *const two[] = { "server", "gb200-nvl72", "racks", "2", "model",
		"llama-3.1-405b", "workload", "multi-node-inference", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_true(p->domain_only);
	assert_null(rule_said(p, "R9", "keep tensor parallel inside a server"));
	assert_non_null(rule_said(p, "R9", "one NVLink domain"));
	assert_non_null(rule_said(p, "R9", "none of it reaches the scale-out NICs"));
	done(p);
	p = plan_of(two);
	assert_null(rule_said(p, "R9", "keep tensor parallel inside a server"));
	assert_non_null(rule_said(p, "R9", "inside an NVLink domain of 72 GPUs"));
	done(p);
}

/*
 * Eight racks: 576 scale-out ports; the step's traffic is what leaves each
 * 72-GPU domain, a tray's NICs carrying 1/18 of it: the same step worked
 * out on 8 nodes of 72 GPUs, divided by 18.
 */
static void gb200_eight_racks(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl72", "racks", "8", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);
	struct nicfit_step_job j = p->step_job;
	struct nicfit_step s;

	(void)state;
	assert_int_equal(p->in.servers, 144);
	assert_int_equal(p->be_cards * p->be_ports * p->in.servers, 576);
	assert_true(p->traffic_known);
	assert_int_equal(p->step_job.gpus_per_node, 4);
	j.nodes = 8;
	j.gpus_per_node = 72;
	assert_int_equal(nicfit_step_calc(&j, &p->in.step, &s, NULL), 0);
	assert_near(p->step.bytes_per_node, s.bytes_per_node / 18, s.bytes_per_node * 1e-9);
	assert_int_equal(p->step.gpus, 576);
	done(p);
}

/*
 * plan --racks sizes the racks' fabric as cluster --racks does: the DGX
 * SuperPOD GB200 design's QM9700 with a leaf per rail per rack; 8 racks
 * (one scalable unit) four spine-leaf groups of 8 leaves and 6 spines,
 * 32 + 24, 16 racks the RA's 64 leaf, 48 spine and 18 core switches.
 */
static void gb200_racks_fabric(void **state)
{
	static const char *const one[] = { "server", "gb200-nvl72", "racks", "8", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	static const char *const two[] = { "server", "gb200-nvl72", "racks", "16", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(one);

	(void)state;
	assert_int_equal(bom_qty(p, "qm9700"), 32 + 24);
	done(p);
	p = plan_of(two);
	assert_int_equal(bom_qty(p, "qm9700"), 64 + 48 + 18);
	done(p);
}

/*
 * GB200 NVL36x2 (NVIDIA's multi-node NVLink tuning guide): two racks of 9
 * trays and 9 NVLink switch trays make one 72-GPU domain; --racks counts
 * such pairs, so the domain spans 18 trays over the two racks and the
 * step leaves it through the 18 trays' NICs, as on an NVL72 rack.
 */
static void gb200_nvl36x2(void **state)
{
	static const char *const kv[] = { "server", "gb200-nvl36x2", "racks", "2", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->in.server->rack_racks, 2);
	assert_int_equal(p->in.servers, 36);
	assert_int_equal(nicfit__plan_racks(p), 2);
	assert_int_equal(nicfit__plan_domain_trays(p, 4), 18);
	assert_int_equal(p->be_cards * p->be_ports * p->in.servers, 144);
	done(p);
}

/*
 * GB300 NVL72 on Quantum-X800 at 800G XDR: two racks, whose training
 * exchanges between the two domains (one rack alone needs no fabric).
 */
static void gb300_racks_xdr(void **state)
{
	static const char *const kv[] = { "server", "gb300-nvl72", "racks", "2", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_string_equal(p->be_nic->family, "ConnectX-8");
	assert_true(p->be_port_gbps == 800);
	assert_int_equal(p->fabric, NICFIT_FABRIC_IB);
	assert_int_equal(p->be_cards * p->be_ports * p->in.servers, 144);
	assert_true(bom_qty(p, "q3400") >= 1);
	done(p);
}

/* 32 DGX B300: eight built-in ConnectX-8 a node, 256 XDR ports. */
static void dgx_b300_xdr(void **state)
{
	static const char *const kv[] = { "server", "dgx-b300", "servers", "32", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_string_equal(p->be_nic->e.id, "900-9x81e-00ex-st0");
	assert_int_equal(p->be_cards, 8);
	assert_int_equal(p->rails, 8);
	assert_true(p->be_port_gbps == 800);
	assert_int_equal(p->fabric, NICFIT_FABRIC_IB);
	assert_int_equal(nicfit__plan_domain_trays(p, 8), 1);
	done(p);
}

/*
 * The DGX SuperPOD B300 XDR table (Table 3, "Example Compute Fabric
 * Components"): 1 SU of 72 nodes, 8 leaf and 4 spine; 8 SU of 576 nodes,
 * 64 leaf and 36 spine (https://docs.nvidia.com/dgx-superpod/reference-
 * architecture/scalable-infrastructure-b300-xdr/latest/dgx-superpod-architecture.html).
 */
static void dgx_b300_superpod_xdr_table(void **state)
{
	static const char *const su1[] = { "server", "dgx-b300", "servers", "72", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	static const char *const su8[] = { "server", "dgx-b300", "servers", "576", "model",
		"llama-3.1-405b", "workload", "training", NULL };
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(su1);
	assert_int_equal(bom_qty(p, "q3400"), 8 + 4);
	assert_int_equal(p->be_cards * p->in.servers, 576);
	done(p);
	p = plan_of(su8);
	assert_int_equal(bom_qty(p, "q3400"), 64 + 36);
	assert_int_equal(p->be_cards * p->in.servers, 4608);
	done(p);
}

/*
 * Spectrum-X: SuperNICs only (a BlueField-3 SuperNIC for a Gen5 PCIe
 * server), a DGX H100's built-in ConnectX-7 warned as ECMP RoCE, and 64
 * DGX B300 on SN5600: 16 leaf and 8 spine, the DGX SuperPOD B300 table's
 * first row (1 SU of 64 nodes).
 */
static void spectrum_x(void **state)
{
	static const char *const generic[] = { "server", "generic-gen5", "servers", "32", "gpu",
		"h100-pcie", "gpus_per_server", "4", "model", "llama-3.1-405b", "workload",
		"training", "fabric", "spectrum-x", NULL };
	static const char *const dgx[] = { "server", "dgx-h100", "servers", "32", "model",
		"llama-3.1-405b", "workload", "training", "fabric", "spectrum-x", NULL };
	static const char *const b300[] = { "server", "dgx-b300", "servers", "64", "model",
		"llama-3.1-405b", "workload", "training", "fabric", "spectrum-x", "switch", "sn5600",
		NULL };
	struct nicfit_plan *p;

	(void)state;
	p = plan_of(generic);
	assert_true(p->be_nic->supernic);
	assert_true(p->spectrum_x);
	assert_int_equal(p->fabric, NICFIT_FABRIC_ROCE);
	assert_null(finding(p, "spectrum-x-needs-supernic"));
	done(p);
	p = plan_of(dgx);
	assert_false(p->spectrum_x);
	assert_non_null(finding(p, "spectrum-x-needs-supernic"));
	assert_string_equal(p->be_nic->e.id, "mcx75310aas-neat");
	done(p);
	p = plan_of(b300);
	assert_true(p->spectrum_x);
	assert_int_equal(bom_qty(p, "sn5600"), 16 + 8);
	done(p);
}

/* The switch lines of a plan's bill of materials: the part and how many. */
static const char *plan_switch(const struct nicfit_plan *p, int *qty)
{
	size_t i;

	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].role, "switch")) {
			*qty = p->bom[i].qty;
			return p->bom[i].id;
		}
	*qty = 0;
	return NULL;
}

/* A cluster request (key, value pairs) read as `nicfit cluster` reads it. */
static void cluster_read(const char *const *kv, struct nicfit_spec *spec,
			 struct nicfit_cluster_input *in)
{
	struct nicfit_error err;
	int i;

	nicfit_spec_init(spec, "test");
	nicfit_error_clear(&err);
	for (i = 0; kv[i]; i += 2)
		assert_int_equal(nicfit_spec_add(spec, kv[i], kv[i + 1], &err), 0);
	assert_int_equal(nicfit_cluster_input_from_spec(spec, in, NULL, &err), 0);
	assert_int_equal(nicfit_cluster_input_server(spec, cat, in, &err), 0);
	nicfit_cluster_input_node_defaults(spec, cat, in);
}

/*
 * Trays that fill no whole rack, in plan and cluster alike, from the one
 * place both read (nicfit_rack_domains): whole racks first, the rest one
 * partial domain. 9 trays of an NVL72 are one domain of 36 GPUs; 20 are
 * 72 + 8 in groups of 2; 27 are 72 + 36 in groups of 9; 36 two whole
 * racks. cluster --nodes N says the same in its NVLink decision.
 */
static void partial_racks_shared(void **state)
{
	static const struct {
		const char *nodes;
		long whole;
		int partial, largest, group;
		const char *says;
	} t[] = {
		{ "9", 0, 9, 36, 9, "the 9 trays are one NVLink domain of 36 GPUs" },
		{ "20", 1, 2, 72, 2, "72 GPUs in 1 whole rack and 8 in the partial one" },
		{ "27", 1, 9, 72, 9, "72 GPUs in 1 whole rack and 36 in the partial one" },
		{ "45", 2, 9, 72, 9, "72 GPUs in each of 2 whole racks and 36 in the partial one" },
		{ "36", 2, 0, 72, 18, "72 GPUs at 1800 GB/s a GPU" },
	};
	struct nicfit_rack_domains d0;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *pkv[] = { "server", "gb200-nvl72", "servers", t[i].nodes, "model",
			"llama-3.1-405b", "workload", "training", NULL };
		const char *ckv[] = { "server", "gb200-nvl72", "nodes", t[i].nodes, NULL };
		struct nicfit_plan *p = plan_of(pkv);
		struct nicfit_rack_domains d;
		struct nicfit_spec spec;
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;
		struct nicfit_error err;
		const char *said = NULL;

		nicfit_rack_domains(p->in.server, p->in.gpu, 4, p->in.servers, &d);
		assert_int_equal(d.rack_trays, 18);
		assert_int_equal(d.whole, t[i].whole);
		assert_int_equal(d.partial, t[i].partial);
		assert_int_equal(d.largest_gpus, t[i].largest);
		assert_int_equal(d.partial_gpus, t[i].partial * 4);
		assert_int_equal(d.group_trays, t[i].group);
		/* plan's step groups are the shared answer */
		assert_int_equal(nicfit__plan_domain_trays(p, 4), t[i].group);
		cluster_read(ckv, &spec, &in);
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
		for (k = 0; k < c.decisions.n; k++)
			if (!strcmp(c.decisions.v[k].code, "cluster.nvlink"))
				said = c.decisions.v[k].message;
		assert_non_null(said);
		assert_non_null(strstr(said, t[i].says));
		nicfit_cluster_release(&c);
		nicfit_spec_release(&spec);
		done(p);
	}
	/* no domain past one tray: a plain server, and one tray alone */
	nicfit_rack_domains(nicfit_catalog_find_server(cat, "dgx-h100", NULL, NULL),
			    nicfit_catalog_find_gpu(cat, "h100-sxm5-80gb", NULL, NULL), 8, 4, &d0);
	assert_int_equal(d0.rack_trays + d0.largest_gpus, 0);
	assert_int_equal(d0.group_trays, 1);
}

/*
 * nicfit cluster --server ID --nodes N with no --switch takes the switch
 * nicfit plan takes for the same servers, for 8-GPU baseboard nodes as
 * for racks: a DGX B300's Quantum-X800 (72 of them: 8 leaf and 4 spine,
 * the DGX SuperPOD B300 XDR table's first row, from cluster as from plan),
 * a DGX H100's and a DGX B200's QM9700, an HGX server's SN5600 for the
 * ConnectX-7 given on Ethernet; the same switch count either way. A
 * switch given is kept, and a server whose card is not known (none built
 * in, no --nic, a rate alone) keeps the generic switch.
 */
static void cluster_takes_plans_switch(void **state)
{
	static const struct {
		const char *server, *nodes, *nic, *want;
		int leaf, spine;
	} t[] = {
		{ "dgx-b300", "72", NULL, "q3400", 8, 4 },
		{ "dgx-b300", "32", NULL, "q3400", 4, 2 },
		{ "dgx-h100", "32", NULL, "qm9700", 8, 4 },
		{ "dgx-b200", "16", NULL, "qm9700", 4, 2 },
		{ "sys-821ge-tnhr", "16", "mcx75310aas-neat", "sn5600", 1, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *pkv[] = { "server", t[i].server, "servers", t[i].nodes, "model",
			"llama-3.1-405b", "workload", "training", t[i].nic ? "backend_nic" : NULL,
			t[i].nic, NULL };
		const char *ckv[] = { "server", t[i].server, "nodes", t[i].nodes,
			t[i].nic ? "nic" : NULL, t[i].nic, NULL };
		struct nicfit_plan *p = plan_of(pkv);
		struct nicfit_spec spec;
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;
		struct nicfit_error err;
		const char *psw;
		int pqty;

		psw = plan_switch(p, &pqty);
		assert_non_null(psw);
		assert_string_equal(psw, t[i].want);
		cluster_read(ckv, &spec, &in);
		assert_non_null(in.net[NICFIT_NET_BACKEND].switch_id);
		assert_string_equal(in.net[NICFIT_NET_BACKEND].switch_id, t[i].want);
		assert_non_null(in.switch_from);
		assert_non_null(strstr(in.switch_from, "nicfit plan"));
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
		assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches, t[i].leaf);
		assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_SPINE].switches, t[i].spine);
		assert_int_equal(pqty, t[i].leaf + t[i].spine);
		nicfit_cluster_release(&c);
		nicfit_spec_release(&spec);
		done(p);
	}
	/* a switch given stays; no card known, no catalog default */
	{
		static const char *const given[] = { "server", "dgx-b300", "nodes", "32", "switch",
			"sn5600", NULL };
		static const char *const bare[] = { "server", "sys-821ge-tnhr", "nodes", "16", NULL };
		static const char *const rate[] = { "server", "sys-821ge-tnhr", "nodes", "16",
			"nic_gbps", "400", NULL };
		struct nicfit_spec spec;
		struct nicfit_cluster_input in;

		cluster_read(given, &spec, &in);
		assert_string_equal(in.net[NICFIT_NET_BACKEND].switch_id, "sn5600");
		assert_null(in.switch_from);
		nicfit_spec_release(&spec);
		cluster_read(bare, &spec, &in);
		assert_null(in.net[NICFIT_NET_BACKEND].switch_id);
		assert_null(in.switch_from);
		nicfit_spec_release(&spec);
		cluster_read(rate, &spec, &in);
		assert_null(in.net[NICFIT_NET_BACKEND].switch_id);
		assert_null(in.switch_from);
		nicfit_spec_release(&spec);
	}
}

static void racks_refused(void **state)
{
	static const char *const plain[] = { "server", "dgx-h100", "racks", "2", NULL };
	static const char *const both[] = { "server", "gb200-nvl72", "racks", "2", "servers", "36",
		NULL };

	(void)state;
	input_refused(plain, "not a rack-scale system");
	input_refused(both, "not both");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dgx_nic_swap_refused),
		cmocka_unit_test(dgx_builtin_asked_is_fine),
		cmocka_unit_test(dgx_default_fabric),
		cmocka_unit_test(gb200_one_rack),
		cmocka_unit_test(one_domain_no_backend),
		cmocka_unit_test(partial_rack_one_domain),
		cmocka_unit_test(too_few_trays_one_domain),
		cmocka_unit_test(rack_and_a_half),
		cmocka_unit_test(split_inside_domain),
		cmocka_unit_test(gb200_eight_racks),
		cmocka_unit_test(gb200_racks_fabric),
		cmocka_unit_test(gb200_nvl36x2),
		cmocka_unit_test(gb300_racks_xdr),
		cmocka_unit_test(dgx_b300_xdr),
		cmocka_unit_test(dgx_b300_superpod_xdr_table),
		cmocka_unit_test(spectrum_x),
		cmocka_unit_test(partial_racks_shared),
		cmocka_unit_test(cluster_takes_plans_switch),
		cmocka_unit_test(racks_refused),
	};

	return cmocka_run_group_tests_name("rack", tests, catalog_setup, catalog_teardown);
}
