/*
 * audit_mft.c - what NVIDIA's firmware tools say in a paste, judged and
 * kept for the renderers: the adapters of mlxfwmanager --query (mlxup)
 * and flint q with the RDMA devices of their Base GUID, and mlxlink's
 * ports (a port below what it and its cable support, errors FEC did not
 * correct, link downs). The readers are dump/dump_mlxfw.c's; the ties
 * they make (Base GUID, mst status, VPD part number) are dump_build.c's,
 * and nic-fw-mixed, which reads the adapters beside ibv_devinfo, is
 * audit_paste.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_int.h"
#include "core/dump_facts.h"
#include "core/finding_int.h"
#include "nicfit/emit.h"

#define S_MLXLINK "mlxlink (MFT) Operational Info and Supported Info (mstflint " \
	"mlxlink_commander.cpp); the MFT user manual's mlxlink page (-m, -c, --speeds)"
#define S_MLXLINK_BER "mlxlink -c Physical Counters and BER Info; 1E-12: ibdiagnet's default BER " \
	"threshold (NVIDIA ibdiagnet user manual, Bit Error Rate (BER))"

/* What the paste's firmware tools gave, for the renderers. */
struct nicfit_audit_mft {
	struct dump_fwdev *fw;    /* mlxfwmanager's and flint's adapters */
	size_t nfw;
	struct mft_rdma {
		char name[64];    /* an RDMA device whose node GUID or sys_image_guid ... */
		char guid[17];    /* ... is this Base GUID */
	} *fwrdma;
	size_t nfwrdma;
	struct dump_mlxlink *links; /* mlxlink's ports */
	size_t nlinks;
};

void nicfit__audit_mft_free(struct nicfit_audit_mft *m)
{
	if (!m)
		return;
	free(m->fw);
	free(m->fwrdma);
	free(m->links);
	free(m);
}

/*
 * One speed of mlxlink's lists or its Speed line: an InfiniBand
 * generation ("EDR", "IB-HDR") as its lane rate in Gb/s (*ib set: widths
 * are compared apart), an Ethernet speed ("25GbE", "200G", "100G_2X") as
 * the port's Gb/s. 0 for anything else.
 */
static double speed_gbps(const char *s, size_t n, int *ib)
{
	static const struct {
		const char *name;
		double lane;
	} gen[] = { { "SDR", 2.5 }, { "DDR", 5 }, { "QDR", 10 }, { "FDR10", 10 }, { "FDR", 14 },
		    { "EDR", 25 }, { "HDR", 50 }, { "NDR", 100 }, { "XDR", 200 } };
	double v = 0;
	size_t i, k;

	if (n >= 3 && !strncmp(s, "IB-", 3)) {
		s += 3;
		n -= 3;
	}
	*ib = 0;
	for (i = 0; i < sizeof(gen) / sizeof(gen[0]); i++)
		if (strlen(gen[i].name) == n && !strncmp(s, gen[i].name, n)) {
			*ib = 1;
			return gen[i].lane;
		}
	for (k = 0; k < n && s[k] >= '0' && s[k] <= '9' && k < 5; k++)
		v = v * 10 + (s[k] - '0');
	if (!k || k >= n || s[k] != 'G')
		return 0;
	k++;
	if (k + 1 < n + 1 && !strncmp(s + k, "bE", 2))
		k += 2;
	if (k < n && s[k] == '_')
		k = n; /* the lanes it takes: the port's rate is the same */
	return k == n ? v : 0;
}

/* Whether the comma list holds a speed equal to v of the same kind. */
static int in_list(const char *list, double v, int ib)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		int kind;

		if (speed_gbps(p, n, &kind) == v && kind == ib)
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* The fastest speed of the same kind in both lists (enabled and the cable's), 0 none. */
static double best_common(const char *enabled, const char *cable, int ib)
{
	const char *p = enabled;
	double best = 0;

	while (*p) {
		size_t n = strcspn(p, ",");
		int kind;
		double v = speed_gbps(p, n, &kind);

		if (v > best && kind == ib && in_list(cable, v, ib))
			best = v;
		p += n + (p[n] == ',');
	}
	return best;
}

static const char *link_label(const struct dump_mlxlink *x, char *buf, size_t n)
{
	if (x->dev[0] && x->port)
		snprintf(buf, n, "%s port %d", x->dev, x->port);
	else if (x->dev[0])
		snprintf(buf, n, "%s", x->dev);
	else
		snprintf(buf, n, "(unnamed mlxlink port)");
	return buf;
}

/*
 * mlxlink's ports. A link below the fastest speed that both the port has
 * enabled and its cable supports trained down or is held down by its far
 * end (nic-port-slow, as for an ethtool speed below the card's rate):
 * InfiniBand generations compare lane rates, Ethernet speeds the port's
 * rate. Effective Physical Errors above 0, or an Effective Physical BER
 * above 1E-12, are errors FEC did not correct (link-ber-high): 1E-12 is
 * the BER threshold NVIDIA's ibdiagnet applies by default. The Raw
 * Physical BER is shown, not judged: it is the rate before FEC, which
 * PAM4 links run well above 1E-12 by design, and no NVIDIA document the
 * project found gives one raw threshold for every speed. A Link Down
 * Counter above 0 is noted (link-down-counted). Returns ports judged.
 */
static int judge_mlxlink(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	size_t i;
	int judged = 0;

	for (i = 0; i < d->nlinks; i++) {
		const struct dump_mlxlink *x = &d->links[i];
		const char *file = d->texts[x->at.text].name;
		char dev[96], devq[80];
		struct nicfit_finding *f;
		int ib = 0;
		double oper = x->speed[0] ? speed_gbps(x->speed, strlen(x->speed), &ib) : 0;
		double best = oper > 0 ? best_common(x->enabled, x->cable, ib) : 0;

		link_label(x, dev, sizeof(dev));
		snprintf(devq, sizeof(devq), "%s", x->dev[0] ? x->dev : "DEV");
		judged += best > 0 || x->eff_errors >= 0 || x->eff_ber >= 0 || x->link_down >= 0;
		if (oper > 0 && best > oper && !strcmp(x->state, "Active")) {
			f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_PORT_SLOW, dev,
					 "%s runs at %s (%s:%d) although the port enables and its cable "
					 "supports %g Gb/s%s: the link trained down (cable, connector, "
					 "optic) or its far end is capped below that.", dev, x->speed, file,
					 x->at.line, best, ib ? " a lane" : "");
			if (!f || nicfit__finding_fix(&a->findings, f, "Check the cable or optic "
						      "(`mlxlink -d %s -m` shows the module and what it "
						      "supports) and the far end's port speed; `mlxlink -d %s "
						      "--speeds` sets the speeds the port enables.", devq, devq))
				return -1;
			f->source = S_MLXLINK;
		}
		if (x->eff_errors > 0 || x->eff_ber > 1e-12) {
			char what[96];

			if (x->eff_errors > 0)
				snprintf(what, sizeof(what), "%lld effective physical errors", x->eff_errors);
			else
				snprintf(what, sizeof(what), "an effective physical BER of %.3g",
					 x->eff_ber);
			f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_LINK_BER_HIGH, dev,
					 "%s counts %s (%s:%d): errors that FEC did not correct reach "
					 "the traffic as drops and retransmissions.", dev, what, file,
					 x->at.line);
			if (!f || nicfit__finding_fix(&a->findings, f, "Reseat or replace the cable or "
						      "optic (`mlxlink -d %s -m` shows the module, its "
						      "temperature and power), then read `mlxlink -d %s -c` "
						      "again under traffic.", devq, devq))
				return -1;
			f->source = S_MLXLINK_BER;
		}
		if (x->link_down > 0) {
			f = nicfit__find(&a->findings, NICFIT_SEV_INFO, NICFIT_CODE_LINK_DOWN_COUNTED,
					 dev, "%s went down %lld time%s since its counters were "
					 "cleared (%s:%d).", dev, x->link_down,
					 x->link_down == 1 ? "" : "s", file, x->at.line);
			if (!f || nicfit__finding_fix(&a->findings, f, "If the count grows, check the "
						      "cable or optic (`mlxlink -d %s -m`) and the far "
						      "end's log.", devq))
				return -1;
			f->source = S_MLXLINK_BER;
		}
	}
	return judged;
}

/*
 * The adapters of mlxfwmanager and flint, and the RDMA devices whose node
 * GUID or sys_image_guid is an adapter's Base GUID (the same card: see
 * dump/dump_build.c's by_base_guid), so that the paste's table and JSON
 * say which device is on which card even without a PCI listing.
 */
static int keep(const struct nicfit_dump *d, struct nicfit_audit_mft *p)
{
	size_t i, k;

	if (d->nlinks) {
		p->links = calloc(d->nlinks, sizeof(*p->links));
		if (!p->links)
			return NICFIT_E_NOMEM;
		memcpy(p->links, d->links, d->nlinks * sizeof(*p->links));
		p->nlinks = d->nlinks;
	}
	if (!d->nfwdevs)
		return 0;
	p->fw = calloc(d->nfwdevs, sizeof(*p->fw));
	p->fwrdma = d->nrdma ? calloc(d->nrdma, sizeof(*p->fwrdma)) : NULL;
	if (!p->fw || (d->nrdma && !p->fwrdma))
		return NICFIT_E_NOMEM;
	memcpy(p->fw, d->fwdevs, d->nfwdevs * sizeof(*p->fw));
	p->nfw = d->nfwdevs;
	for (i = 0; i < d->nrdma; i++) {
		const struct dump_rdma *x = &d->rdma[i];

		for (k = 0; k < d->nfwdevs && x->name[0]; k++) {
			const char *g = d->fwdevs[k].base_guid;

			if (!g[0] || (strcmp(g, x->node_guid) && strcmp(g, x->sys_guid)))
				continue;
			snprintf(p->fwrdma[p->nfwrdma].name, sizeof(p->fwrdma[0].name), "%s", x->name);
			snprintf(p->fwrdma[p->nfwrdma++].guid, sizeof(p->fwrdma[0].guid), "%s", g);
			break;
		}
	}
	return 0;
}

static const char *fw_tool(const struct dump_fwdev *x)
{
	return x->tool == DUMP_FW_FLINT ? "flint" : "mlxfwmanager";
}

static const char *fw_bdf_how(const struct dump_fwdev *x)
{
	static const char *const how[] = { NULL, "named", "mst status", "vpd part number" };

	return how[x->bdf_how];
}

/* The RDMA devices on the card of Base GUID g, ", "-separated, into out ("" none). */
static void fw_devices(const struct nicfit_audit_mft *p, const char *g, char *out, size_t n)
{
	size_t i, l = 0;

	out[0] = '\0';
	for (i = 0; g[0] && i < p->nfwrdma && l < n; i++)
		if (!strcmp(p->fwrdma[i].guid, g))
			l += (size_t)snprintf(out + l, n - l, "%s%s", l ? ", " : "", p->fwrdma[i].name);
}

static void json_adapters(const struct nicfit_audit_mft *p, struct nicfit_emit *e)
{
	size_t i, k;

	nicfit_emit_begin_array(e, "adapters");
	for (i = 0; p && i < p->nfw; i++) {
		const struct dump_fwdev *x = &p->fw[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "tool", fw_tool(x));
		nicfit__audit_str_or_null(e, "device_type", x->type);
		nicfit__audit_str_or_null(e, "part_number", x->part);
		nicfit__audit_str_or_null(e, "description", x->desc);
		nicfit__audit_str_or_null(e, "psid", x->psid);
		nicfit__audit_str_or_null(e, "pci_device_name", x->pci);
		nicfit__audit_str_or_null(e, "bdf", x->bdf);
		nicfit__audit_str_or_null(e, "bdf_from", fw_bdf_how(x));
		nicfit__audit_str_or_null(e, "base_guid", x->base_guid);
		nicfit__audit_str_or_null(e, "base_mac", x->base_mac);
		nicfit__audit_str_or_null(e, "fw_ver", x->fw);
		nicfit__audit_str_or_null(e, "fw_running", x->fw_running);
		nicfit__audit_str_or_null(e, "fw_available", x->fw_avail);
		nicfit__audit_str_or_null(e, "pxe_ver", x->pxe);
		nicfit__audit_str_or_null(e, "uefi_ver", x->uefi);
		nicfit__audit_str_or_null(e, "status", x->status);
		nicfit_emit_begin_array(e, "rdma_devices");
		for (k = 0; x->base_guid[0] && k < p->nfwrdma; k++)
			if (!strcmp(p->fwrdma[k].guid, x->base_guid))
				nicfit_emit_string(e, NULL, p->fwrdma[k].name);
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static void num_or_null(struct nicfit_emit *e, const char *key, double v)
{
	if (v >= 0)
		nicfit_emit_number(e, key, v);
	else
		nicfit_emit_null(e, key);
}

static void json_mlxlink(const struct nicfit_audit_mft *p, struct nicfit_emit *e)
{
	size_t i;

	nicfit_emit_begin_array(e, "mlxlink_ports");
	for (i = 0; p && i < p->nlinks; i++) {
		const struct dump_mlxlink *x = &p->links[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit__audit_str_or_null(e, "device", x->dev);
		if (x->port)
			nicfit_emit_int(e, "port", x->port);
		else
			nicfit_emit_null(e, "port");
		nicfit__audit_str_or_null(e, "state", x->state);
		nicfit__audit_str_or_null(e, "phys_state", x->phys);
		nicfit__audit_str_or_null(e, "speed", x->speed);
		if (x->width)
			nicfit_emit_int(e, "width", x->width);
		else
			nicfit_emit_null(e, "width");
		nicfit__audit_str_or_null(e, "fec", x->fec);
		nicfit__audit_str_or_null(e, "enabled_speeds", x->enabled);
		nicfit__audit_str_or_null(e, "cable_speeds", x->cable);
		if (x->opcode >= 0)
			nicfit_emit_int(e, "status_opcode", x->opcode);
		else
			nicfit_emit_null(e, "status_opcode");
		nicfit__audit_str_or_null(e, "recommendation", x->recommendation);
		num_or_null(e, "effective_errors", (double)x->eff_errors);
		num_or_null(e, "effective_ber", x->eff_ber);
		num_or_null(e, "raw_ber", x->raw_ber);
		num_or_null(e, "link_down_count", (double)x->link_down);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

static const struct nicfit_column fw_cols[] = {
	{ "fw_card", "adapter", 0 },
	{ "fw_tool", "tool", 0 },
	{ "fw_part", "part number", 0 },
	{ "fw_psid", "PSID", 0 },
	{ "fw_bdf", "PCI function", 0 },
	{ "fw_guid", "Base GUID", 0 },
	{ "fw_ver", "firmware", 0 },
	{ "fw_status", "status", 0 },
	{ "fw_rdma", "RDMA devices", 0 },
};

static const struct nicfit_column link_cols[] = {
	{ "mlxlink_port", "mlxlink port", 0 },
	{ "mlxlink_state", "state", 0 },
	{ "mlxlink_phys", "physical", 0 },
	{ "mlxlink_speed", "speed", 0 },
	{ "mlxlink_width", "width", 1 },
	{ "mlxlink_fec", "FEC", 0 },
	{ "mlxlink_errors", "effective errors", 1 },
	{ "mlxlink_ber", "effective BER", 0 },
	{ "mlxlink_raw_ber", "raw BER", 0 },
	{ "mlxlink_down", "link downs", 1 },
};

static void text_fw(const struct nicfit_audit_mft *p, struct nicfit_emit *e)
{
	size_t i;

	nicfit_emit_heading(e, "Adapters as mlxfwmanager or flint list them");
	nicfit_emit_table_begin(e, NULL, fw_cols, (int)(sizeof(fw_cols) / sizeof(fw_cols[0])));
	for (i = 0; i < p->nfw; i++) {
		const struct dump_fwdev *x = &p->fw[i];
		char bdf[48], ver[64], devs[256];

		if (x->bdf[0] && x->bdf_how != DUMP_FW_BDF_NAMED)
			snprintf(bdf, sizeof(bdf), "%s (%s)", x->bdf, fw_bdf_how(x));
		else
			snprintf(bdf, sizeof(bdf), "%s", x->bdf);
		if (x->fw_running[0])
			snprintf(ver, sizeof(ver), "%s (flash %s)", x->fw_running, x->fw);
		else
			snprintf(ver, sizeof(ver), "%s", x->fw);
		fw_devices(p, x->base_guid, devs, sizeof(devs));
		nicfit__audit_cell(e, x->pci[0] ? x->pci : x->type);
		nicfit_emit_cell_string(e, fw_tool(x));
		nicfit__audit_cell(e, x->part);
		nicfit__audit_cell(e, x->psid);
		nicfit__audit_cell(e, bdf);
		nicfit__audit_cell(e, x->base_guid);
		nicfit__audit_cell(e, ver);
		nicfit__audit_cell(e, x->status);
		nicfit__audit_cell(e, devs);
	}
	nicfit_emit_table_end(e);
}

static void ber_cell(struct nicfit_emit *e, double v)
{
	char b[32];

	if (v < 0) {
		nicfit_emit_cell_null(e, "-");
		return;
	}
	snprintf(b, sizeof(b), "%.3g", v);
	nicfit_emit_cell_string(e, b);
}

static void text_mlxlink(const struct nicfit_audit_mft *p, struct nicfit_emit *e)
{
	size_t i;

	nicfit_emit_heading(e, "Ports as mlxlink reports them");
	nicfit_emit_table_begin(e, NULL, link_cols, (int)(sizeof(link_cols) / sizeof(link_cols[0])));
	for (i = 0; i < p->nlinks; i++) {
		const struct dump_mlxlink *x = &p->links[i];
		char dev[96];

		nicfit_emit_cell_string(e, link_label(x, dev, sizeof(dev)));
		nicfit__audit_cell(e, x->state);
		nicfit__audit_cell(e, x->phys);
		nicfit__audit_cell(e, x->speed);
		if (x->width)
			nicfit_emit_cell_int(e, x->width);
		else
			nicfit_emit_cell_null(e, "-");
		nicfit__audit_cell(e, x->fec);
		if (x->eff_errors >= 0)
			nicfit_emit_cell_number(e, (double)x->eff_errors, 0);
		else
			nicfit_emit_cell_null(e, "-");
		ber_cell(e, x->eff_ber);
		ber_cell(e, x->raw_ber);
		if (x->link_down >= 0)
			nicfit_emit_cell_number(e, (double)x->link_down, 0);
		else
			nicfit_emit_cell_null(e, "-");
	}
	nicfit_emit_table_end(e);
}


int nicfit__audit_mft(const struct nicfit_dump *d, struct nicfit_audit *a,
		      struct nicfit_audit_mft **out)
{
	struct nicfit_audit_mft *m;

	*out = NULL;
	if (!d->nfwdevs && !d->nlinks)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m || keep(d, m)) {
		nicfit__audit_mft_free(m);
		return -1;
	}
	*out = m;
	return judge_mlxlink(d, a);
}

void nicfit__audit_mft_json(const struct nicfit_audit_mft *m, struct nicfit_emit *e)
{
	json_adapters(m, e);
	json_mlxlink(m, e);
}

void nicfit__audit_mft_text(const struct nicfit_audit_mft *m, struct nicfit_emit *e)
{
	if (m && m->nfw)
		text_fw(m, e);
	if (m && m->nlinks)
		text_mlxlink(m, e);
}

void nicfit__audit_mft_columns(struct nicfit_emit *e)
{
	nicfit_emit_columns(e, fw_cols, (int)(sizeof(fw_cols) / sizeof(fw_cols[0])));
	nicfit_emit_columns(e, link_cols, (int)(sizeof(link_cols) / sizeof(link_cols[0])));
}

size_t nicfit__audit_mft_counts(const struct nicfit_audit_mft *m, char *out, size_t n, int sep)
{
	size_t l = 0;

	if (!m || !n)
		return 0;
	if (m->nlinks)
		l += (size_t)snprintf(out, n, "%s%zu mlxlink port%s", sep ? ", " : "", m->nlinks,
				      m->nlinks == 1 ? "" : "s");
	if (m->nfw && l < n)
		l += (size_t)snprintf(out + l, n - l, "%s%zu adapter%s in mlxfwmanager or flint",
				      sep || l ? ", " : "", m->nfw, m->nfw == 1 ? "" : "s");
	return l < n ? l : n - 1;
}
