/*
 * audit_render.c - the audit as text, JSON, Markdown and CSV (see
 * nicfit/audit.h; the SVG picture is audit_svg.c). One pass describes the
 * result: JSON values for JSON, prose and tables for people.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/fmt_int.h"
#include "nicfit/audit.h"
#include "nicfit/emit.h"
#include "nicfit/version.h"


/* A finding's device and fix as printed: every audit finding has both. */
#define DEVICE(f) ((f)->device ? (f)->device : "host")
#define FIX(f) ((f)->fix ? (f)->fix : "")

static size_t count(const struct nicfit_audit *a, enum nicfit_severity s)
{
	return nicfit_findings_count(&a->findings, s);
}

static const struct nicfit_pcidev *PD(const struct nicfit_audit *a, int i)
{
	return &a->topo->pci[a->devs[i].pci];
}

static const char *gen_text(char *b, size_t n, double gts, int w, int idle)
{
	int g = nicfit_pcie_gen_from_gts(gts);

	if (!g && !w)
		nicfit__fmt(b, n, "-");
	else if (!g)
		nicfit__fmt(b, n, "x%d", w);
	else if (!w)
		nicfit__fmt(b, n, "Gen%d%s", g, idle ? " idle" : "");
	else
		nicfit__fmt(b, n, "Gen%d x%d%s", g, w, idle ? " idle" : "");
	return b;
}

static void num_or_null(struct nicfit_emit *e, const char *key, double v)
{
	if (v < 0 || !isfinite(v))
		nicfit_emit_null(e, key);
	else
		nicfit_emit_number(e, key, v);
}

/*
 * An RDMA port's state as the kernel names it (ib_port_state, in
 * drivers/infiniband/core/sysfs.c state_show: "4: ACTIVE"), or NULL when
 * the file holds another number or another name for it: the JSON field is
 * one of these words or null, never what a damaged file said.
 */
static const char *ib_state(int num, const char *name)
{
	static const char *const names[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE",
					     "ACTIVE_DEFER" };

	if (num < 0 || num >= (int)(sizeof(names) / sizeof(names[0])) || strcmp(name, names[num]))
		return NULL;
	return names[num];
}

/* A boolean that may be unknown: v < 0 is null. */
static void bool_or_null(struct nicfit_emit *e, const char *key, int v)
{
	if (v < 0)
		nicfit_emit_null(e, key);
	else
		nicfit_emit_bool(e, key, v);
}

/* Width in columns of UTF-8 text. */
static size_t cols(const char *s, size_t n)
{
	size_t w = 0, i;

	for (i = 0; i < n && s[i]; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

/*
 * Prose indented by ind spaces, wrapped at the terminal's width with the
 * lead's hanging indent; one line when the output is not a terminal, so
 * that grep and diff see a finding whole.
 */
static void wrapped(struct nicfit_emit *e, int ind, const char *lead, const char *s)
{
	char line[1024];
	size_t len = 0, w0 = (size_t)ind + cols(lead, strlen(lead)), wrap = nicfit_emit_width(e);
	int first = 1;

	if (!wrap) {
		nicfit_emit_printf(e, "%*s%s%s\n", ind, "", lead, s);
		return;
	}
	while (*s) {
		size_t wl = strcspn(s, " ");
		size_t wc = cols(s, wl);

		if (len && w0 + cols(line, len) + 1 + wc > wrap) {
			line[len] = '\0';
			nicfit_emit_printf(e, "%*s%s%s\n", ind, "", first ? lead : "", line);
			if (first) {
				first = 0;
				w0 = (size_t)ind + cols(lead, strlen(lead));
				ind += (int)cols(lead, strlen(lead));
			}
			len = 0;
		}
		if (len && len + 1 < sizeof(line))
			line[len++] = ' ';
		if (len + wl < sizeof(line)) {
			memcpy(line + len, s, wl);
			len += wl;
		}
		s += wl;
		while (*s == ' ')
			s++;
	}
	line[len] = '\0';
	if (len || first)
		nicfit_emit_printf(e, "%*s%s%s\n", ind, "", first ? lead : "", line);
}

/* ---- JSON --------------------------------------------------------------------- */

static const char *net_type(int t)
{
	return t == 1 ? "ethernet" : t == 32 ? "infiniband" : t == 772 ? "loopback" : NULL;
}

static void json_netdevs(const struct nicfit_audit *a, struct nicfit_emit *e, int pci)
{
	const struct nicfit_topo *t = a->topo;
	int i;

	nicfit_emit_begin_array(e, "netdevs");
	for (i = 0; i < t->nnet; i++) {
		const struct nicfit_netdev *n = &t->net[i];

		if (n->pci != pci)
			continue;
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "name", n->name);
		if (net_type(n->type))
			nicfit_emit_string(e, "type", net_type(n->type));
		else if (n->type >= 0)
			nicfit_emit_stringf(e, "type", "arphrd-%d", n->type);
		else
			nicfit_emit_null(e, "type");
		num_or_null(e, "speed_gbps", n->speed_mbps > 0 ? n->speed_mbps / 1000.0 : -1);
		nicfit__audit_str_or_null(e, "operstate", n->operstate);
		if (n->carrier < 0)
			nicfit_emit_null(e, "carrier");
		else
			nicfit_emit_bool(e, "carrier", n->carrier);
		if (n->mtu > 0)
			nicfit_emit_int(e, "mtu", n->mtu);
		else
			nicfit_emit_null(e, "mtu");
		if (n->pfc.state == NICFIT_PFC_UNKNOWN) {
			nicfit_emit_null(e, "pfc");
		} else {
			int k;

			nicfit_emit_begin_object(e, "pfc");
			nicfit_emit_string(e, "state", n->pfc.state == NICFIT_PFC_READ ? "read"
										   : "unsupported");
			nicfit_emit_begin_array(e, "enabled_priorities");
			for (k = 0; k < 8; k++)
				if (n->pfc.pfc_en & (1u << k))
					nicfit_emit_int(e, NULL, k);
			nicfit_emit_end_array(e);
			nicfit_emit_end_object(e);
		}
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void json_rdma(const struct nicfit_audit *a, struct nicfit_emit *e,
		      const struct nicfit_audit_dev *d)
{
	const struct nicfit_topo *t = a->topo;
	int i, k, pci = d->pci;

	if (d->rdma_unknown) {
		nicfit_emit_null(e, "rdma");
		return;
	}
	nicfit_emit_begin_array(e, "rdma");
	for (i = 0; i < t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &t->rdma[i];

		if (r->pci != pci)
			continue;
		for (k = 0; k < r->nports; k++) {
			const struct nicfit_rdma_port *pt = &r->ports[k];

			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_string(e, "name", r->name);
			nicfit_emit_int(e, "port", pt->num);
			nicfit_emit_string(e, "state", ib_state(pt->state, pt->state_name));
			nicfit__audit_str_or_null(e, "phys_state", pt->phys_name);
			nicfit__audit_str_or_null(e, "link_layer", pt->link_layer);
			num_or_null(e, "rate_gbps", pt->have_rate ? pt->rate.gbps : -1);
			if (pt->have_rate)
				nicfit_emit_stringf(e, "rate", "%dX%s%s", pt->rate.width,
						    pt->rate.speed[0] ? " " : "", pt->rate.speed);
			else
				nicfit_emit_null(e, "rate");
			nicfit_emit_int(e, "gids", pt->ngids);
			if (pt->gid_types_known) {
				nicfit_emit_int(e, "roce_v1_gids", pt->ngid_v1);
				nicfit_emit_int(e, "roce_v2_gids", pt->ngid_v2);
				nicfit_emit_int(e, "roce_v2_routable_gids", pt->ngid_v2_routable);
			} else {
				nicfit_emit_null(e, "roce_v1_gids");
				nicfit_emit_null(e, "roce_v2_gids");
				nicfit_emit_null(e, "roce_v2_routable_gids");
			}
			if (pt->gid_v2_index >= 0)
				nicfit_emit_int(e, "gid_index_v2", pt->gid_v2_index);
			else
				nicfit_emit_null(e, "gid_index_v2");
			nicfit__audit_str_or_null(e, "hca_type", r->hca_type);
			nicfit__audit_str_or_null(e, "join", nicfit__audit_paste_join(a, r->name));
			nicfit__audit_str_or_null(e, "fw_ver", r->fw_ver);
			nicfit__audit_str_or_null(e, "board_id", r->board_id);
			nicfit_emit_end_object(e);
		}
	}
	nicfit_emit_end_array(e);
}

static const char *vpd_state(int s)
{
	switch (s) {
	case 1: return "read";
	case 2: return "unreadable";
	case 3: return "malformed";
	case 4: return "absent";
	}
	return "not-read";
}

/* A device's link object: its own figures and its path's. */
static void json_link(const struct nicfit_audit *a, struct nicfit_emit *e, int i)
{
	const struct nicfit_pcidev *p = PD(a, i);
	const struct nicfit_audit_link *L = &a->devs[i].link;

	nicfit_emit_begin_object(e, "link");
	num_or_null(e, "current_gts", p->cur_gts > 0 ? p->cur_gts : -1);
	if (p->cur_width > 0)
		nicfit_emit_int(e, "current_width", p->cur_width);
	else
		nicfit_emit_null(e, "current_width");
	num_or_null(e, "max_gts", p->max_gts > 0 ? p->max_gts : -1);
	if (p->max_width > 0)
		nicfit_emit_int(e, "max_width", p->max_width);
	else
		nicfit_emit_null(e, "max_width");
	nicfit__audit_str_or_null(e, "current_speed_text", p->cur_speed_text);
	nicfit__audit_str_or_null(e, "max_speed_text", p->max_speed_text);
	num_or_null(e, "path_gbps", L->path_gbps);
	num_or_null(e, "path_raw_gbps", L->path_raw_gbps);
	num_or_null(e, "path_max_gbps", L->path_max_gbps);
	num_or_null(e, "own_max_gbps", L->own_max_gbps);
	nicfit__audit_str_or_null(e, "limited_by", L->limit_pci >= 0 ? a->topo->pci[L->limit_pci].bdf : NULL);
	nicfit_emit_bool(e, "idle", L->idle);
	nicfit_emit_bool(e, "nominal", L->nominal);
	nicfit_emit_end_object(e);
}

/* The card object, on a card's first network function; else null. */
static void json_card(struct nicfit_emit *e, const struct nicfit_audit_dev *d)
{
	if (d->kind == NICFIT_DEV_NIC && d->card_lead) {
		nicfit_emit_begin_object(e, "card");
		nicfit_emit_int(e, "functions", d->card_functions);
		nicfit_emit_int(e, "ports", d->card_ports);
		num_or_null(e, "port_gbps", d->port_gbps > 0 ? d->port_gbps : -1);
		nicfit_emit_string(e, "port_gbps_source", d->cat_nic ? "catalog" :
				   d->port_gbps_is_family_max ? "family-maximum" : "negotiated");
		if (d->ports_unknown & NICFIT_PORTS_STATE_UNKNOWN)
			nicfit_emit_null(e, "ports_up");
		else
			nicfit_emit_int(e, "ports_up", d->ports_up);
		num_or_null(e, "ports_now_gbps", d->ports_unknown ? -1 : d->ports_now_gbps);
		num_or_null(e, "demand_gbps", d->card_limited_by ? d->demand_gbps : -1);
		num_or_null(e, "supply_gbps", d->card_limited_by ? d->supply_gbps : -1);
		nicfit__audit_str_or_null(e, "limited_by", d->card_limited_by);
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "card");
	}
}

/*
 * A hex member as "%0*x" (after prefix) writes it: at least digits
 * lowercase digits, more when v needs them. A device has up to six such
 * IDs and registers, and vsnprintf() spent over a thousand instructions
 * on each, a tenth of rendering an audit.
 */
static void emit_hex(struct nicfit_emit *e, const char *key, const char *prefix, unsigned v,
		     int digits)
{
	char t[16], *q = t + sizeof(t);
	size_t n = strlen(prefix);

	*--q = '\0';
	do {
		*--q = "0123456789abcdef"[v & 15];
		v >>= 4;
		digits--;
	} while (v || digits > 0);
	q -= n;
	memcpy(q, prefix, n);
	nicfit_emit_string(e, key, q);
}

static void json_device(const struct nicfit_audit *a, struct nicfit_emit *e, int i)
{
	const struct nicfit_audit_dev *d = &a->devs[i];
	const struct nicfit_pcidev *p = PD(a, i);
	const struct nicfit_topo *t = a->topo;

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "bdf", p->bdf);
	nicfit_emit_string(e, "label", d->label);
	nicfit_emit_string(e, "kind", nicfit_dev_kind_name(d->kind));
	if (p->have & NICFIT_HAVE_CLASS)
		emit_hex(e, "class", "0x", p->class_code, 6);
	else
		nicfit_emit_null(e, "class");
	if (p->have & NICFIT_HAVE_IDS) {
		emit_hex(e, "vendor_id", "", p->vendor, 4);
		emit_hex(e, "device_id", "", p->device, 4);
	} else {
		nicfit_emit_null(e, "vendor_id");
		nicfit_emit_null(e, "device_id");
	}
	if (p->have & NICFIT_HAVE_SUBSYS) {
		emit_hex(e, "subsystem_vendor_id", "", p->subvendor, 4);
		emit_hex(e, "subsystem_device_id", "", p->subdevice, 4);
	} else {
		nicfit_emit_null(e, "subsystem_vendor_id");
		nicfit_emit_null(e, "subsystem_device_id");
	}
	nicfit_emit_string(e, "name", d->name);
	nicfit__audit_str_or_null(e, "name_source", d->name_source);
	if (d->numa >= 0)
		nicfit_emit_int(e, "numa_node", d->numa);
	else
		nicfit_emit_null(e, "numa_node");
	if (d->socket >= 0)
		nicfit_emit_int(e, "socket", d->socket);
	else
		nicfit_emit_null(e, "socket");
	nicfit__audit_str_or_null(e, "host_bridge", p->hostbridge >= 0 && p->hostbridge < t->nhb ?
				      t->hb[p->hostbridge].name : NULL);
	nicfit__audit_str_or_null(e, "parent", p->parent >= 0 ? t->pci[p->parent].bdf : NULL);
	nicfit_emit_bool(e, "listed", p->in_bus_list);
	nicfit__audit_str_or_null(e, "slot", p->slot);
	nicfit__audit_str_or_null(e, "driver", p->driver);
	json_link(a, e, i);
	json_netdevs(a, e, d->pci);
	json_rdma(a, e, d);
	nicfit__audit_str_or_null(e, "part", d->part);
	nicfit__audit_str_or_null(e, "part_source", d->part_source);
	nicfit__audit_str_or_null(e, "catalog_id", d->cat_nic ? d->cat_nic->e.id : NULL);
	nicfit_emit_int(e, "vfs", d->vfs);
	nicfit__audit_str_or_null(e, "physfn", p->physfn >= 0 ? t->pci[p->physfn].bdf : NULL);
	json_card(e, d);
	if ((d->kind == NICFIT_DEV_GPU || d->kind == NICFIT_DEV_ACCEL) && d->best_nic >= 0) {
		nicfit_emit_begin_object(e, "best_nic");
		nicfit_emit_string(e, "nic", PD(a, d->best_nic)->bdf);
		nicfit_emit_string(e, "label", a->devs[d->best_nic].label);
		nicfit_emit_string(e, "path", nicfit_path_name(d->best_path));
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "best_nic");
	}
	nicfit__audit_str_or_null(e, "iommu_group_type", p->iommu_type);
	if (d->kind == NICFIT_DEV_NIC && p->physfn < 0 && p->vpd_state) {
		nicfit_emit_begin_object(e, "vpd");
		nicfit_emit_string(e, "state", vpd_state(p->vpd_state));
		nicfit__audit_str_or_null(e, "part", p->vpd_part);
		nicfit__audit_str_or_null(e, "name", p->vpd_name);
		nicfit__audit_str_or_null(e, "pcie", p->vpd_pcie);
		nicfit_emit_string(e, "checksum", p->vpd_checksum == 1 ? "good" :
				   p->vpd_checksum == 2 ? "bad" : "none");
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "vpd");
	}
	if (p->cfg_pcie) {
		nicfit_emit_begin_object(e, "config");
		nicfit_emit_int(e, "mps", p->mps);
		nicfit_emit_int(e, "mps_supported", p->mps_cap);
		nicfit_emit_int(e, "mrrs", p->mrrs);
		if (p->acs)
			emit_hex(e, "acs_ctrl", "0x", p->acs_ctrl, 4);
		else
			nicfit_emit_null(e, "acs_ctrl");
		nicfit_emit_end_object(e);
	} else {
		nicfit_emit_null(e, "config");
	}
	nicfit_emit_end_object(e);
}

static void json_host(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_topo *t = a->topo;
	char sig[300];

	nicfit_emit_begin_object(e, "host");
	nicfit__audit_str_or_null(e, "name", t->hostname);
	nicfit__audit_str_or_null(e, "vendor", t->sys_vendor);
	nicfit__audit_str_or_null(e, "product", t->product);
	if (t->product[0])
		nicfit__fmt(sig, sizeof(sig), "%s%s%s", t->sys_vendor, t->sys_vendor[0] ? " " : "",
			 t->product);
	else
		nicfit__fmt(sig, sizeof(sig), "unknown");
	nicfit_emit_string(e, "signature", sig);
	nicfit__audit_str_or_null(e, "kernel", t->kernel);
	nicfit_emit_string(e, "root", t->root);
	nicfit_emit_bool(e, "virtual", t->is_virtual);
	nicfit__audit_str_or_null(e, "virtual_evidence", t->virtual_why);
	nicfit_emit_bool(e, "privileged", t->privileged);
	if (a->nsockets)
		nicfit_emit_int(e, "sockets", a->nsockets);
	else
		nicfit_emit_null(e, "sockets");
	nicfit_emit_int(e, "gpus", a->ngpus);
	nicfit_emit_int(e, "accelerators", a->naccels);
	nicfit_emit_int(e, "nics", a->nnics);
	if (a->nrdma_unknown)
		nicfit_emit_null(e, "rdma_nics");
	else
		nicfit_emit_int(e, "rdma_nics", a->nrdma_nics);
	nicfit_emit_begin_object(e, "gpudirect");
	/* without sys/module a module's absence is no evidence: unknown, not false */
	bool_or_null(e, "kernel_support", a->gdr_kernel);
	bool_or_null(e, "nvidia_peermem", t->nvidia_peermem ? 1 : t->modules_listed ? 0 : -1);
	bool_or_null(e, "nv_peer_mem", t->nv_mem || t->nv_mem_nc || t->nv_peer_mem ? 1
				       : t->modules_listed ? 0 : -1);
	bool_or_null(e, "nvidia_driver", t->nvidia_driver);
	nicfit__audit_str_or_null(e, "nvidia_driver_version", t->nvidia_version);
	nicfit_emit_end_object(e);
	if (t->iommu < 0)
		nicfit_emit_null(e, "iommu");
	else
		nicfit_emit_bool(e, "iommu", t->iommu);
	nicfit_emit_end_object(e);
}

/* findings[] and not_checked[]. */
static void json_findings(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	size_t i;

	nicfit_emit_begin_array(e, "findings");
	for (i = 0; i < a->findings.n; i++) {
		const struct nicfit_finding *f = &a->findings.v[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "severity", nicfit_severity_name(f->severity));
		nicfit_emit_string(e, "code", f->code);
		nicfit_emit_string(e, "device", DEVICE(f));
		nicfit_emit_string(e, "message", f->message);
		nicfit_emit_string(e, "fix", FIX(f));
		nicfit__audit_str_or_null(e, "source", f->source);
		nicfit_emit_bool(e, "ignored", f->ignored);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "not_checked");
	for (i = 0; i < a->nnot_checked; i++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "check", a->not_checked[i].check);
		nicfit_emit_string(e, "why", a->not_checked[i].why);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

/* No card of the host is known to have RDMA, and some may: its back end is unknown. */
static int rdma_unknown(const struct nicfit_audit *a)
{
	return !a->nrdma_nics && a->nrdma_unknown;
}

/* plan: the comparison with --plan, null without. */
static void json_plan(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_audit_plan *q = &a->plan;

	if (!a->plan.checked) {
		nicfit_emit_null(e, "plan");
		return;
	}
	nicfit_emit_begin_object(e, "plan");
	nicfit_emit_string(e, "workload", q->workload);
	nicfit_emit_string(e, "verdict", q->verdict);
	nicfit_emit_bool(e, "backend_needed", q->backend_needed);
	nicfit__audit_str_or_null(e, "fabric", q->fabric);
	nicfit__audit_str_or_null(e, "backend_part", q->backend_part);
	nicfit_emit_int(e, "backend_cards", q->backend_cards);
	nicfit_emit_number(e, "backend_gbps", q->backend_gbps);
	if (rdma_unknown(a)) {
		nicfit_emit_null(e, "host_backend_gbps");
		nicfit_emit_null(e, "host_fabric");
	} else {
		nicfit_emit_number(e, "host_backend_gbps", q->host_backend_gbps);
		nicfit__audit_str_or_null(e, "host_fabric", q->host_fabric);
	}
	nicfit_emit_number(e, "frontend_gbps", q->frontend_gbps);
	nicfit_emit_number(e, "host_frontend_gbps", q->host_frontend_gbps);
	bool_or_null(e, "matches", q->matches);
	nicfit_emit_end_object(e);
}

/* The verdict's one word for scripts: critical, warning, no-problem-found, clean, nothing-to-judge. */
static const char *outcome(const struct nicfit_audit *a)
{
	size_t nwarn = count(a, NICFIT_SEV_WARNING);

	if (count(a, NICFIT_SEV_CRITICAL))
		return "critical";
	if (nwarn)
		return "warning";
	if (a->nothing_to_judge)
		return "nothing-to-judge";
	return a->from_dump && a->nnot_checked ? "no-problem-found" : "clean";
}

static void render_json(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_topo *t = a->topo;
	int k, j;

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.audit.v1");
	nicfit_emit_string(e, "nicfit_version", NICFIT_VERSION);
	json_host(a, e);
	nicfit_emit_begin_object(e, "verdict");
	nicfit_emit_int(e, "critical", (long long)count(a, NICFIT_SEV_CRITICAL));
	nicfit_emit_int(e, "warning", (long long)count(a, NICFIT_SEV_WARNING));
	nicfit_emit_int(e, "info", (long long)count(a, NICFIT_SEV_INFO));
	nicfit_emit_int(e, "ignored", (long long)nicfit__audit_nignored(a));
	nicfit_emit_int(e, "exit_code", nicfit_audit_exit_code(a));
	nicfit_emit_string(e, "outcome", outcome(a));
	nicfit_emit_end_object(e);
	nicfit_emit_begin_array(e, "numa_nodes");
	for (k = 0; k < t->nnuma; k++) {
		const struct nicfit_numa *n = &t->numa[k];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_int(e, "id", n->id);
		if (n->package >= 0)
			nicfit_emit_int(e, "socket", n->package);
		else
			nicfit_emit_null(e, "socket");
		nicfit__audit_str_or_null(e, "cpus", n->cpulist);
		if (n->cpus_known)
			nicfit_emit_int(e, "cpu_count", (long long)n->ncpus);
		else
			nicfit_emit_null(e, "cpu_count");
		nicfit_emit_begin_array(e, "distances");
		for (j = 0; j < n->ndistance; j++)
			nicfit_emit_int(e, NULL, n->distance[j]);
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "devices");
	for (k = 0; k < a->ndevs; k++)
		json_device(a, e, k);
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "pairs");
	for (k = 0; k < a->npairs; k++) {
		const struct nicfit_audit_pair *pr = &a->pairs[k];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "gpu", PD(a, pr->gpu)->bdf);
		nicfit_emit_string(e, "gpu_label", a->devs[pr->gpu].label);
		nicfit_emit_string(e, "nic", PD(a, pr->nic)->bdf);
		nicfit_emit_string(e, "nic_label", a->devs[pr->nic].label);
		nicfit_emit_string(e, "path", nicfit_path_name(pr->path));
		nicfit_emit_bool(e, "locality_known", pr->locality_known);
		bool_or_null(e, "gdr_default", pr->gdr_default);
		nicfit_emit_string(e, "gdr_reason", pr->gdr_reason);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit__audit_paste_json(a, e);
	json_findings(a, e);
	json_plan(a, e);
	nicfit_emit_int(e, "read_problems_total", (long long)t->problems_total);
	nicfit_emit_begin_array(e, "read_problems");
	for (k = 0; k < t->nproblems; k++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "path", t->problems[k].path);
		nicfit_emit_string(e, "problem", nicfit__audit_problem_text(&t->problems[k]));
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_param_emit(e, "assumptions", nicfit_pcie_param_table, nicfit_pcie_param_count,
			  &a->pcie);
	nicfit_emit_end_object(e);
}

/* ---- text, Markdown, CSV ---------------------------------------------------- */

static const struct nicfit_column dev_cols[] = {
	{ "bdf", "device", 0 },
	{ "label", "label", 0 },
	{ "name", "what", 0 },
	{ "numa_node", "NUMA", 1 },
	{ "link_now", "link now", 0 },
	{ "link_capable", "capable", 0 },
	{ "path_gbps", "Gb/s to CPU", 1 },
	{ "limited_by", "limited by", 0 },
};

static void device_rows(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_topo *t = a->topo;
	int i;

	nicfit_emit_table_begin(e, "devices", dev_cols, (int)(sizeof(dev_cols) / sizeof(dev_cols[0])));
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];
		const struct nicfit_pcidev *p = PD(a, i);
		char b[64], what[256];
		double cap_g = p->max_gts;
		int cap_w = p->max_width;

		nicfit_emit_cell_string(e, p->bdf);
		nicfit_emit_cell_string(e, d->label);
		nicfit__fmt(what, sizeof(what), "%s%s", d->name,
			 d->vfs ? "" : "");
		if (d->vfs) {
			char v[32];

			nicfit__fmt(v, sizeof(v), " (+%d VF%s)", d->vfs, d->vfs == 1 ? "" : "s");
			nicfit__fmt(what + strlen(what), sizeof(what) - strlen(what), "%s", v);
		}
		nicfit_emit_cell_string(e, what);
		if (d->numa >= 0)
			nicfit_emit_cell_int(e, d->numa);
		else
			nicfit_emit_cell_null(e, "?");
		if (d->link.nominal) {
			nicfit_emit_cell_string(e, "chipset");
		} else {
			gen_text(b, sizeof(b), p->cur_gts, p->cur_width, d->link.idle);
			nicfit_emit_cell_string(e, b);
		}
		if (d->link.nominal)
			nicfit__fmt(b, sizeof(b), "-");
		else
			gen_text(b, sizeof(b), cap_g, cap_w, 0);
		nicfit_emit_cell_string(e, b);
		if (d->link.path_gbps >= 0) {
			nicfit_emit_cell_number(e, d->link.path_gbps, 0);
		} else {
			nicfit_emit_cell_null(e, t->is_virtual ? "virtual" : "-");
		}
		if (d->link.limit_pci >= 0) {
			const struct nicfit_pcidev *lp = &t->pci[d->link.limit_pci];

			nicfit__fmt(b, sizeof(b), "%s (Gen%d x%d)", lp->bdf, d->link.limit_gen,
				 d->link.limit_width);
			nicfit_emit_cell_string(e, b);
		} else {
			nicfit_emit_cell_null(e, "-");
		}
	}
	nicfit_emit_table_end(e);
}

/*
 * The GPU to NIC table's columns: the GPU, one a NIC (named by its label,
 * the host's device names), the nearest NIC and the GDR ones; the NICs
 * into nics[]. Returns the count of columns, 0 when there is no table
 * (no NIC or no GPU).
 */
static int pair_columns(const struct nicfit_audit *a, struct nicfit_column *cols, int *nics)
{
	int nn = 0, i, k;
	int rdma_only = a->nrdma_nics > 0;

	for (i = 0; i < a->ndevs && nn < 36; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (d->kind == NICFIT_DEV_NIC && PD(a, i)->physfn < 0 && (!rdma_only || d->rdma))
			nics[nn++] = i;
	}
	if (!nn || !(a->ngpus + a->naccels))
		return 0;
	cols[0].key = "gpu";
	cols[0].title = "";
	cols[0].right = 0;
	for (k = 0; k < nn; k++) {
		cols[k + 1].key = a->devs[nics[k]].label;
		cols[k + 1].title = a->devs[nics[k]].label;
		cols[k + 1].right = 0;
	}
	cols[nn + 1].key = "nearest";
	cols[nn + 1].title = "nearest";
	cols[nn + 1].right = 0;
	cols[nn + 2].key = "gdr";
	cols[nn + 2].title = "GDR";
	cols[nn + 2].right = 0;
	return nn + 3;
}

/* The pair table's columns that every host's has, whatever its NICs. */
static const struct nicfit_column pair_cols[] = {
	{ "gpu", "", 0 }, { "nearest", "nearest", 0 }, { "gdr", "GDR", 0 },
};

/*
 * Every column of the text tables, in every format, whether they are
 * shown or not (the device table needs a device, the pair table a GPU
 * and a NIC): -o is checked against these. The NICs' columns are named
 * by the host's devices, so only those are host-dependent.
 */
static void declare_columns(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	struct nicfit_column cols[40];
	int nics[36], ncol = pair_columns(a, cols, nics);

	nicfit_emit_columns(e, dev_cols, (int)(sizeof(dev_cols) / sizeof(dev_cols[0])));
	nicfit_emit_columns(e, pair_cols, (int)(sizeof(pair_cols) / sizeof(pair_cols[0])));
	nicfit__audit_paste_columns(e);
	if (ncol)
		nicfit_emit_columns(e, cols, ncol);
}

/*
 * The collective library the GDR column speaks for: the GPUs' makers'
 * (NCCL for NVIDIA, RCCL for AMD Instinct); NCCL when there is none of
 * either, as before nicfit knew others.
 */
static const char *gdr_library(const struct nicfit_audit *a)
{
	int i, nv = 0, amd = 0;

	for (i = 0; i < a->ndevs; i++) {
		if (a->devs[i].kind != NICFIT_DEV_GPU && a->devs[i].kind != NICFIT_DEV_ACCEL)
			continue;
		nv |= a->topo->pci[a->devs[i].pci].vendor == 0x10de;
		amd |= nicfit__audit_amd_instinct(&a->topo->pci[a->devs[i].pci]);
	}
	return amd && nv ? "NCCL (NVIDIA) or RCCL (AMD)" : amd ? "RCCL" : "NCCL";
}

static void pair_matrix(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	struct nicfit_column cols[40];
	int nics[36], nn, i, j, k, ncol = pair_columns(a, cols, nics);
	int rdma_only = a->nrdma_nics > 0, gdr_unknown = 0;

	if (!ncol)
		return;
	nn = ncol - 3;
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, rdma_only ? "GPU to RDMA NIC paths" : "GPU to NIC paths");
	nicfit_emit_table_begin(e, "pairs", cols, ncol);
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *g = &a->devs[i];
		char near[64], gdr[128];
		size_t gl = 0;

		if (g->kind != NICFIT_DEV_GPU && g->kind != NICFIT_DEV_ACCEL)
			continue;
		nicfit_emit_cell_string(e, g->label);
		gdr[0] = '\0';
		for (k = 0; k < nn; k++) {
			const char *cell = "?";

			for (j = 0; j < a->npairs; j++) {
				const struct nicfit_audit_pair *pr = &a->pairs[j];

				if (pr->gpu != i || pr->nic != nics[k])
					continue;
				cell = pr->locality_known ? nicfit_path_name(pr->path) : "NODE?";
				if (pr->gdr_default && gl < sizeof(gdr))
					gl += (size_t)nicfit__fmt(gdr + gl, sizeof(gdr) - gl, "%s%s%s",
							       gl ? " " : "", a->devs[nics[k]].label,
							       pr->gdr_default < 0 ? "?" : "");
				gdr_unknown |= pr->gdr_default < 0;
			}
			nicfit_emit_cell_string(e, cell);
		}
		if (g->best_nic >= 0) {
			int known = 1;

			for (j = 0; j < a->npairs; j++)
				if (a->pairs[j].gpu == i && a->pairs[j].nic == g->best_nic)
					known = a->pairs[j].locality_known;
			nicfit__fmt(near, sizeof(near), "%s %s%s", a->devs[g->best_nic].label,
				 nicfit_path_name(g->best_path), known ? "" : "?");
		}
		else
			nicfit__fmt(near, sizeof(near), "-");
		nicfit_emit_cell_string(e, near);
		nicfit_emit_cell_string(e, gdr[0] ? gdr : "-");
	}
	nicfit_emit_table_end(e);
	nicfit_emit_printf(e, "  PIX one switch, PXB several switches, PHB the CPU's host bridge, NODE two "
			   "host bridges of one\n  NUMA node, SYS across sockets. GDR: NICs %s would use "
			   "GPUDirect RDMA with by default.\n", gdr_library(a));
	if (gdr_unknown)
		nicfit_emit_printf(e, "  NIC?: close enough, but whether the kernel's GPUDirect RDMA "
				   "support is loaded is unknown.\n");
}

static const char *sev_word(const struct nicfit_emit *e, enum nicfit_severity s, const char **col)
{
	*col = nicfit_emit_color(e, s == NICFIT_SEV_CRITICAL ? NICFIT_COLOR_RED :
				 s == NICFIT_SEV_WARNING ? NICFIT_COLOR_YELLOW : NICFIT_COLOR_DIM);
	return s == NICFIT_SEV_CRITICAL ? "CRITICAL" : s == NICFIT_SEV_WARNING ? "WARNING" : "INFO";
}

static void findings_text(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	int md = nicfit_emit_format(e) == NICFIT_FMT_MD;
	size_t k;

	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Findings");
	if (!a->findings.n)
		nicfit_emit_printf(e, "  none\n");
	for (k = 0; k < a->findings.n; k++) {
		const struct nicfit_finding *f = &a->findings.v[k];
		const char *col, *w = sev_word(e, f->severity, &col);
		char lead[96];

		if (md) {
			nicfit_emit_printf(e, "- **%s** `%s` %s%s: %s\n  fix: %s\n", w, f->code,
					   DEVICE(f), f->ignored ? " (ignored)" : "", f->message, FIX(f));
			continue;
		}
		nicfit_emit_printf(e, "  %s%-8s%s  %s  %s%s\n", col, w,
				   nicfit_emit_color(e, NICFIT_COLOR_RESET), f->code, DEVICE(f),
				   f->ignored ? "  (ignored)" : "");
		wrapped(e, 12, "", f->message);
		nicfit__fmt(lead, sizeof(lead), "fix: ");
		if (FIX(f)[0])
			wrapped(e, 12, lead, f->fix);
	}
	if (md)
		nicfit_emit_printf(e, "\n");
}

static const struct nicfit_column finding_cols[] = {
	{ "severity", "severity", 0 }, { "code", "code", 0 }, { "device", "device", 0 },
	{ "message", "message", 0 }, { "fix", "fix", 0 },
};

/* CSV: the device table, a blank line, the findings table. */
static void render_csv(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	size_t k;

	device_rows(a, e);
	nicfit_emit_raw(e, "\n", 1);
	nicfit_emit_table_begin(e, "findings", finding_cols, 5);
	for (k = 0; k < a->findings.n; k++) {
		const struct nicfit_finding *f = &a->findings.v[k];

		nicfit_emit_cell_string(e, nicfit_severity_name(f->severity));
		nicfit_emit_cell_string(e, f->code);
		nicfit_emit_cell_string(e, DEVICE(f));
		nicfit_emit_cell_string(e, f->message);
		nicfit_emit_cell_string(e, FIX(f));
	}
	nicfit_emit_table_end(e);
}

/* The first lines: the host, what it holds, the verdict; the kernel and root. */
/*
 * The verdict when no finding was made. A dump that held nothing the checks
 * apply to is "nothing to judge" (exit 3); a dump whose checks could not all
 * be made is "no problem found in what the dumps show" with the checks not
 * made, since "clean" would vouch for what the paste did not show. A live
 * host or a whole snapshot stays "clean".
 */
static void no_problem(const struct nicfit_audit *a, char *out, size_t n)
{
	size_t i, l;

	if (a->nothing_to_judge) {
		nicfit__fmt(out, n, "nothing to judge");
		return;
	}
	if (!a->from_dump || !a->nnot_checked) {
		nicfit__fmt(out, n, "clean");
		return;
	}
	l = (size_t)nicfit__fmt(out, n, "no problem found in what the dumps show; not checked: ");
	for (i = 0; i < a->nnot_checked && l < n; i++)
		l += (size_t)nicfit__fmt(out + l, n - l, "%s%s", i ? ", " : "",
					 a->not_checked[i].check);
}

static void host_lines(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_topo *t = a->topo;
	int md = nicfit_emit_format(e) == NICFIT_FMT_MD;
	size_t ncrit = count(a, NICFIT_SEV_CRITICAL), nwarn = count(a, NICFIT_SEV_WARNING);
	size_t ninfo = count(a, NICFIT_SEV_INFO), nignored = nicfit__audit_nignored(a);
	char verdict[512], rdma[96];
	size_t vl = 0;

	verdict[0] = '\0';
	if (ncrit)
		vl += (size_t)nicfit__fmt(verdict + vl, sizeof(verdict) - vl, "%zu critical", ncrit);
	if (nwarn)
		vl += (size_t)nicfit__fmt(verdict + vl, sizeof(verdict) - vl, "%s%zu warning%s",
				       vl ? ", " : "", nwarn, nwarn == 1 ? "" : "s");
	if (ninfo)
		vl += (size_t)nicfit__fmt(verdict + vl, sizeof(verdict) - vl, "%s%zu note%s",
				       vl ? ", " : "", ninfo, ninfo == 1 ? "" : "s");
	if (!vl)
		no_problem(a, verdict, sizeof(verdict));
	if (md)
		nicfit_emit_printf(e, "# ");
	nicfit_emit_printf(e, "%sHost %s%s%s%s%s%s — ", nicfit_emit_color(e, NICFIT_COLOR_BOLD),
			   t->hostname[0] ? t->hostname : "(unnamed)",
			   t->product[0] ? " (" : "", t->product[0] ? t->sys_vendor : "",
			   t->product[0] && t->sys_vendor[0] ? " " : "",
			   t->product[0] ? t->product : "", t->product[0] ? ")" : "");
	if (a->nsockets)
		nicfit_emit_printf(e, "%d socket%s, ", a->nsockets, a->nsockets == 1 ? "" : "s");
	if (nicfit__audit_paste_counts(a, rdma, sizeof(rdma))) { /* a paste without lspci */
		nicfit_emit_printf(e, "%s: %s%s\n", rdma, verdict,
				   nicfit_emit_color(e, NICFIT_COLOR_RESET));
	} else {
		nicfit_emit_printf(e, "%d GPU%s, ", a->ngpus, a->ngpus == 1 ? "" : "s");
		if (a->naccels)
			nicfit_emit_printf(e, "%d accelerator%s, ", a->naccels,
					   a->naccels == 1 ? "" : "s");
		nicfit_emit_printf(e, "%d NIC%s (%s): %s%s\n", a->nnics, a->nnics == 1 ? "" : "s",
				   nicfit__audit_rdma_count(a, rdma, sizeof(rdma)), verdict,
				   nicfit_emit_color(e, NICFIT_COLOR_RESET));
	}
	if (md)
		nicfit_emit_printf(e, "\n");
	nicfit_emit_printf(e, "%s%s%s · read from %s%s%s%s\n",
			   t->kernel[0] ? "Linux " : "", t->kernel[0] ? t->kernel : "kernel unknown",
			   t->is_virtual ? " · virtual machine" : "", t->root,
			   t->privileged ? " · config space readable" : " · not root: some checks skipped",
			   nignored ? " · " : "", nignored ? "ignored findings not counted" : "");
	if (md)
		nicfit_emit_printf(e, "\n");
}

static const char *match_words(int matches)
{
	return matches < 0 ? "Whether the host matches the plan is unknown until its RDMA is."
	       : matches ? "The host matches the plan." : "See the plan-* findings.";
}

/* "Against the plan": the plan's verdict, back end and front end against the host's. */
static void plan_text(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_audit_plan *q = &a->plan;
	char line[1200];

	if (!q->checked)
		return;
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Against the plan");
	wrapped(e, 2, "plan: ", q->verdict);
	if (q->backend_needed && !q->backend_cards) /* the plan could place no card here */
		nicfit__fmt(line, sizeof(line), "back end: the plan wants a %s back end, but no RDMA "
			 "card of the catalog fits a free slot of this host; it has ≈ %.0f Gb/s of "
			 "RDMA (%s).", q->fabric, q->host_backend_gbps,
			 q->host_fabric[0] ? q->host_fabric : "none");
	else if (q->backend_needed)
		nicfit__fmt(line, sizeof(line), "back end: the plan wants %s, %d x %s, ≈ %.0f Gb/s per "
			 "server; this host has ≈ %.0f Gb/s of RDMA (%s).", q->fabric,
			 q->backend_cards, q->backend_part, q->backend_gbps, q->host_backend_gbps,
			 q->host_fabric[0] ? q->host_fabric : "none");
	else
		nicfit__fmt(line, sizeof(line), "back end: none needed; this host has ≈ %.0f Gb/s of "
			 "RDMA.", q->host_backend_gbps);
	if (rdma_unknown(a)) /* the figure above would be a 0 that is not known */
		nicfit__fmt(line + strcspn(line, ";"), sizeof(line) - strcspn(line, ";"),
			 "; whether this host's cards have RDMA is unknown (Not checked: rdma).");
	wrapped(e, 2, "", line);
	if (q->host_frontend_gbps > 0)
		nicfit__fmt(line, sizeof(line), "front end: the plan wants %.0f Gb/s ports; this "
			 "host's fastest %s does %.0f Gb/s. %s", q->frontend_gbps,
			 a->nrdma_unknown ? "port not known to have RDMA" : "non-RDMA port",
			 q->host_frontend_gbps, match_words(q->matches));
	else if (a->nrdma_nics)
		nicfit__fmt(line, sizeof(line), "front end: the plan wants %.0f Gb/s ports; this "
			 "host has no NIC besides its RDMA cards, which then carry the front-end "
			 "traffic too. %s", q->frontend_gbps,
			 match_words(q->matches));
	else
		nicfit__fmt(line, sizeof(line), "front end: the plan wants %.0f Gb/s ports; this "
			 "host has no NIC whose speed is known. %s", q->frontend_gbps,
			 match_words(q->matches));
	wrapped(e, 2, "", line);
}

/* "Not checked": each check and why. */
static void not_checked_text(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	size_t k;

	if (!a->nnot_checked)
		return;
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Not checked");
	for (k = 0; k < a->nnot_checked; k++) {
		char lead[48];

		nicfit__fmt(lead, sizeof(lead), "%-13s", a->not_checked[k].check);
		if (nicfit_emit_format(e) == NICFIT_FMT_MD)
			nicfit_emit_printf(e, "- `%s`: %s\n", a->not_checked[k].check,
					   a->not_checked[k].why);
		else
			wrapped(e, 2, lead, a->not_checked[k].why);
	}
}

static void render_people(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	if (nicfit_emit_format(e) == NICFIT_FMT_CSV) {
		render_csv(a, e);
		return;
	}
	host_lines(a, e);
	nicfit_emit_printf(e, "\n");
	nicfit_emit_heading(e, "Devices");
	if (a->ndevs)
		device_rows(a, e);
	else if (a->from_dump && !a->topo->npci)
		nicfit_emit_printf(e, "  no PCI listing in the dumps: findings name devices as the "
				   "paste does\n");
	else
		nicfit_emit_printf(e, "  no GPUs, accelerators or network cards found\n");
	pair_matrix(a, e);
	nicfit__audit_paste_text(a, e);
	plan_text(a, e);
	findings_text(a, e);
	not_checked_text(a, e);
}

int nicfit_audit_render(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	declare_columns(a, e);
	switch (nicfit_emit_format(e)) {
	case NICFIT_FMT_JSON:
		render_json(a, e);
		return 0;
	case NICFIT_FMT_SVG:
		return nicfit__audit_render_svg(a, e);
	default:
		render_people(a, e);
		return 0;
	}
}
