/*
 * partno.c - explain a network-adapter part number (see nicfit/partno.h):
 * the entry point and what is made of a reading (the card in common slots,
 * the summary line). The recorders the readers share are in
 * partno_record.c, so that no reader calls back into this dispatcher.
 *
 * Three readers share one result struct: the ConnectX OPN rules
 * (partno_cx*.c; docs/reference/nic-identity.md section 1, "MCX <gen> <digits>
 * <letters> - <speed><host interface><option><bracket>"), a table of Intel
 * adapter names (partno_intel.c; section 2) and the catalog
 * (partno_catalog.c). The catalog is asked first; the rules run anyway so
 * that their reading of each position is shown and any disagreement with
 * the catalog becomes a note. Rendering is in partno_render.c.
 *
 * The input is measured once (strnlen, at most NICFIT_PART_SCAN_MAX
 * bytes) and copied into a fixed buffer of NICFIT_PART_MAX characters;
 * everything after that walks that buffer, so the work is bounded for
 * any input. Nothing here allocates.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nicfit/link.h"
#include "nicfit/partno.h"
#include "nicfit/pcie.h"
#include "nicfit/spec.h"
#include "parts/partno_int.h"

#define REF1 "docs/reference/nic-identity.md \xc2\xa7" "1"

const char *nicfit_confidence_name(enum nicfit_confidence c)
{
	return c == NICFIT_CONF_CATALOG ? "catalog" : "rule";
}


/* ---- planning: the card in common slots ----------------------------------- */

static void plan_slots(struct nicfit_part *p)
{
	struct nicfit_pcie_params pp;
	struct nicfit_link_params lp;
	struct nicfit_card card;
	enum nicfit_proto proto;
	int gens[NICFIT_PART_SLOTS], n = 0, i;

	if (nicfit_part_card(p, &card))
		return;
	nicfit_pcie_params_default(&pp);
	nicfit_link_params_default(&lp);
	proto = (p->rdma & NICFIT_RDMA_ROCE) ? NICFIT_PROTO_ROCE :
		!strcmp(p->protocol, "IB") ? NICFIT_PROTO_IB : NICFIT_PROTO_TCP;
	gens[n++] = p->pcie_gen;
	if (p->pcie_gen >= 6)
		gens[n++] = 5;
	if (p->pcie_gen >= 5)
		gens[n++] = 4;
	/* three generations at most: the last row is kept for Socket Direct below */
	if (p->pcie_gen >= 4 && n < NICFIT_PART_SLOTS - 1)
		gens[n++] = 3;
	/* a Socket Direct card is installed with both links, each in such a slot */
	for (i = 0; i < n; i++) {
		struct nicfit_nic_fit r;
		struct nicfit_part_slot *s;

		if (nicfit_calc_nic(&card, gens[i], card.pcie_width, 0, proto, &pp, &lp, &r, NULL))
			continue;
		s = &p->slots[p->nslots++];
		s->gen = gens[i];
		s->links = r.links;
		s->width = card.pcie_width;
		s->link_gen = r.link_gen;
		s->link_width = r.link_width;
		s->ports_gbps = r.ports_gbps;
		s->pcie_gbps = r.pcie_gbps;
		s->effective_gbps = r.effective_gbps;
		s->limited_by = r.limited_by;
	}
	/*
	 * Socket Direct as an option (ConnectX-8's auxiliary kit): the card
	 * over two links of the generation below its own, the form that
	 * brings a Gen6 card to its line rate in a Gen5 host (NVIDIA's DOCA
	 * notes: 800 Gb/s over two Gen5 x16 links)
	 */
	if (p->socket_direct_option && !p->socket_direct && p->pcie_gen >= 5 &&
	    p->nslots < NICFIT_PART_SLOTS) {
		struct nicfit_nic_fit r;
		struct nicfit_part_slot *s;

		card.pcie_links = 2;
		if (nicfit_calc_nic(&card, p->pcie_gen - 1, card.pcie_width, 0, proto, &pp, &lp, &r,
				    NULL))
			return;
		s = &p->slots[p->nslots++];
		s->gen = p->pcie_gen - 1;
		s->links = r.links;
		s->width = card.pcie_width;
		s->link_gen = r.link_gen;
		s->link_width = r.link_width;
		s->ports_gbps = r.ports_gbps;
		s->pcie_gbps = r.pcie_gbps;
		s->effective_gbps = r.effective_gbps;
		s->limited_by = r.limited_by;
	}
}

int nicfit_part_card(const struct nicfit_part *p, struct nicfit_card *card)
{
	static const char *const ib[] = { "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR",
		"HDR100", "HDR", "NDR200", "NDR", "XDR", NULL };
	size_t i;

	memset(card, 0, sizeof(*card));
	if (p->kind != NICFIT_PART_NIC || p->ports < 1 || p->port_gbps <= 0 ||
	    p->pcie_gen < 1 || p->pcie_width < 1)
		return NICFIT_E_DATA;
	card->pcie_gen = p->pcie_gen;
	card->pcie_width = p->pcie_width;
	card->ports = p->ports;
	card->port_gbps = p->port_gbps;
	card->card_gbps = p->card_gbps;
	card->rdma = p->rdma;
	card->vpi = !strcmp(p->protocol, "VPI");
	card->pcie_links = p->socket_direct ? 2 : 1;
	for (i = 0; p->ib_rate[0] && ib[i]; i++)
		if (!strcasecmp(ib[i], p->ib_rate))
			card->ib_rate = ib[i];
	return 0;
}

/* ---- the summary line ------------------------------------------------------ */

static void make_summary(struct nicfit_part *p)
{
	char buf[256], pcie[48];
	size_t n;

	if (p->kind == NICFIT_PART_OTHER) {
		setstr(p->summary, sizeof(p->summary), p->name);
		return;
	}
	if (p->kind == NICFIT_PART_DPU && !p->ports) {
		snprintf(p->summary, sizeof(p->summary), "%s DPU (ports, speed and PCIe not decoded)",
			 p->family);
		return;
	}
	n = (size_t)snprintf(buf, sizeof(buf), "%s%s%s", p->family,
			     !strcmp(p->protocol, "VPI") || (!strcmp(p->protocol, "EN") &&
			     !strcmp(p->vendor, "NVIDIA")) ? " " : "",
			     !strcmp(p->protocol, "VPI") || (!strcmp(p->protocol, "EN") &&
			     !strcmp(p->vendor, "NVIDIA")) ? p->protocol : "");
	if (p->ports && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %d x %s", p->ports, p->cage);
	if (p->port_gbps > 0 && n < sizeof(buf)) {
		if (!strcmp(p->ib_rate, "XDR") && p->port_gbps > 400)
			/* XDR runs one 800G port; Ethernet splits the cage (ConnectX-8 fw notes) */
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", XDR InfiniBand or "
					      "2 x %gGbE", p->port_gbps / 2);
		else if (p->ib_rate[0])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s InfiniBand or %gGbE",
					      p->ib_rate, p->port_gbps);
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %gGbE", p->port_gbps);
	}
	if (p->pcie_gen && n < sizeof(buf)) {
		if (p->pcie_gen_min && p->pcie_gen_min < p->pcie_gen)
			snprintf(pcie, sizeof(pcie), "PCIe %d.0/%d.0", p->pcie_gen_min, p->pcie_gen);
		else
			snprintf(pcie, sizeof(pcie), "PCIe %d.0", p->pcie_gen);
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s%s x%d",
				      p->socket_direct ? "Socket Direct 2 x " : "", pcie,
				      p->pcie_width);
	}
	if (p->form_factor[0] && strncmp(p->form_factor, "pcie", 4) && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s",
				      !strcmp(p->form_factor, "ocp3") ? "OCP 3.0" :
				      !strcmp(p->form_factor, "ocp2") ? "OCP 2.0" : p->form_factor);
	if ((!strcmp(p->bracket, "tall") || !strcmp(p->bracket, "short")) && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s bracket", p->bracket);
	if (!strcmp(p->slot_width, "double") && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ", dual-slot");
	setstr(p->summary, sizeof(p->summary), buf);
}

/* ---- the entry point -------------------------------------------------------- */

static int allowed(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == ' ' || c == '.' || c == '+' ||
	       c == '/' || c == '(' || c == ')';
}

/* Trim, check and upper-case text into d->s (p->input). */
static int normalize(struct dec *d, const char *text)
{
	size_t len, start = 0, i;

	d->s = d->buf;
	d->buf[0] = '\0';
	if (!text)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, 0,
				       "no part number given");
	len = strnlen(text, NICFIT_PART_SCAN_MAX + 1);
	while (start < len && isspace((unsigned char)text[start]))
		start++;
	if (len > NICFIT_PART_SCAN_MAX)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, (long)start + 1,
				       "not a part number: more than %d characters (a part number "
				       "has at most %d)", NICFIT_PART_SCAN_MAX, NICFIT_PART_MAX);
	while (len > start && isspace((unsigned char)text[len - 1]))
		len--;
	d->lead = (long)start;
	if (len == start)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, 0,
				       "empty part number");
	for (i = start; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c >= 0x80 || !allowed(c))
			return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, (long)i + 1,
					       "not a part number: %s 0x%02x at column %ld",
					       isprint(c) ? "character" : "byte", c, (long)i + 1);
	}
	if (len - start > NICFIT_PART_MAX)
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0,
				       (long)start + NICFIT_PART_MAX + 1,
				       "'%.20s...': too long for a part number (%zu characters; "
				       "at most %d)", text + start, len - start, NICFIT_PART_MAX);
	for (i = start; i < len; i++)
		d->buf[i - start] = (char)toupper((unsigned char)text[i]);
	d->buf[len - start] = '\0';
	d->len = len - start;
	return 0;
}

/* The catalog's nearest NIC id, for "did you mean". */
static const char *nearest(const struct nicfit_catalog *cat, const char *s)
{
	const char *ids[257];
	char low[NICFIT_PART_MAX + 1];
	size_t i, n = cat ? nicfit_catalog_count(cat, NICFIT_KIND_NIC) : 0;

	if (n > 256)
		n = 256;
	for (i = 0; i < n; i++)
		ids[i] = nicfit_catalog_entry(cat, NICFIT_KIND_NIC, i)->id;
	ids[n] = NULL;
	for (i = 0; s[i] && i < NICFIT_PART_MAX; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	return n ? nicfit_suggest(low, ids) : NULL;
}

/* Run the rules: 0 decoded, <0 error, 1 no scheme matched (no error set). */
static int rules(struct dec *d)
{
	const char *s = d->s;
	int rc;

	if (!strncmp(s, "MCX", 3))
		return nicfit__cx_decode(d, 3);
	if (!strncmp(s, "MBF", 3))
		return nicfit__bf_decode(d);
	if (s[0] == 'C' && s[1] == 'X' && s[2] >= '0' && s[2] <= '9')
		return nicfit__cx_decode(d, 2);
	rc = nicfit__sku_decode(d);
	if (rc <= 0)
		return rc;
	rc = nicfit__linkx_decode(d);
	if (rc <= 0)
		return rc;
	rc = nicfit__intel_decode(d);
	if (rc <= 0)
		return rc;
	rc = nicfit__bcm_decode(d);
	if (rc <= 0)
		return rc;
	return nicfit__intel_family_error(d);
}

/*
 * RDMA by generation: a ConnectX-3 does RoCE v1 only (an Ethernet
 * link-layer protocol, ethertype 0x8915, confined to one broadcast
 * domain); RoCE v2 (UDP port 4791, routable) starts with the ConnectX-3
 * Pro (Red Hat Enterprise Linux 7 Networking Guide 13.2, "Transferring
 * Data Using RoCE"). NVIDIA's driver stack dropped both from MLNX_OFED
 * 5.1-0.6.6.0; 4.9 LTS is the last that supports them (MLNX_OFED 5.4 LTS
 * release notes); nvidia-peermem (GPUDirect RDMA) builds against MLNX_OFED.
 */
int nicfit_family_roce_v1_only(const char *family)
{
	return family && !strcmp(family, "ConnectX-3");
}

int nicfit_family_past_driver_support(const char *family)
{
	/* "ConnectX-3" or "ConnectX-3 Pro": one prefix test, then the tail */
	return family && !strncmp(family, "ConnectX-3", 10) &&
	       (!family[10] || !strcmp(family + 10, " Pro"));
}

static void rdma_generation(struct nicfit_part *p)
{
	if (p->kind != NICFIT_PART_NIC || !nicfit_family_past_driver_support(p->family))
		return;
	if (!nicfit_family_roce_v1_only(p->family))
		note(p, "RDMA: RoCE v1 and RoCE v2 (ConnectX-3 Pro is the first generation with v2).");
	else
		note(p, "RDMA: RoCE v1 only, confined to one Ethernet broadcast domain; RoCE v2 "
			"(routable, UDP 4791) needs a ConnectX-3 Pro or later.");
	note(p, "Drivers: MLNX_OFED 4.9 LTS is the last NVIDIA stack for ConnectX-3 and ConnectX-3 "
		"Pro (dropped from 5.1); GPUDirect RDMA through nvidia-peermem needs MLNX_OFED, not the "
		"inbox mlx4 stack.");
}

static void reset(struct nicfit_part *p)
{
	memset(p, 0, sizeof(*p));
	p->crypto = -1;
	p->secure_boot = -1;
	p->catalog_kind = NICFIT_KIND_NIC;
}

static int not_a_part(const struct nicfit_catalog *cat, struct dec *d)
{
	const char *near = nearest(cat, d->s);
	char shown[24];

	snprintf(shown, sizeof(shown), "%.20s", d->s);
	if (!strncmp(d->s, "900-", 4))
		return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, d->lead + 1,
				       "'%s': this NVIDIA 900-... SKU is not in nicfit's table "
				       "(ConnectX-8 and BlueField-3 SKUs are); give the MCX "
				       "ordering part number (card label, lspci -vv [PN]) (at column "
				       "%ld)", shown, d->lead + 1);
	return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, d->lead + 1,
			       "'%s' is not a part number nicfit can read: expected a ConnectX OPN "
			       "(MCX...), a LinkX cable OPN (MCP1600-C003 ...), an Intel adapter name "
			       "(X710-DA2, E810-CQDA2 ...) or a "
			       "catalog id%s%s%s (at column %ld)", shown,
			       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
			       d->lead + 1);
}

int nicfit_decode(const struct nicfit_catalog *cat, const char *text,
		  struct nicfit_part *out, struct nicfit_error *err)
{
	char norm[NICFIT_PART_MAX + 1];
	struct nicfit_error rerr;
	struct dec d;
	struct facts rf;
	const struct nicfit_nic *nic = NULL;
	const struct nicfit_entry *other = NULL;
	enum nicfit_kind kind = NICFIT_KIND_NIC;
	int rc;

	reset(out);
	memset(&d, 0, sizeof(d));
	d.p = out;
	d.err = err;
	d.buf = norm;
	rc = normalize(&d, text);
	if (rc)
		return rc;
	/* the rules first, so that their reading is there to compare */
	nicfit_error_clear(&rerr);
	d.err = &rerr;
	rc = rules(&d);
	d.err = err;
	if (rc != 0)
		reset(out);
	if (cat) {
		nic = nicfit_catalog_find_nic(cat, norm, "part", NULL);
		if (!nic && rc == 0 && out->part[0])
			nic = nicfit_catalog_find_nic(cat, out->part, "part", NULL);
		if (!nic) {
			other = nicfit_catalog_lookup(cat, norm, &kind);
			if (other && kind == NICFIT_KIND_NIC) {
				nic = (const struct nicfit_nic *)(const void *)other;
				other = NULL;
			}
		}
		if (!nic && !other)
			nic = nicfit__part_tool_match(cat, out, norm);
	}
	if (other) {
		reset(out);
		nicfit__part_fill_from_entry(out, other, kind);
		if (kind == NICFIT_KIND_CABLE)
			nicfit__linkx_from_catalog(out, (const struct nicfit_cable *)(const void *)other);
	} else if (nic) {
		/* the catalog has it: its facts win, the rules explain and cross-check */
		nicfit__part_take_facts(&rf, out);
		nicfit__part_fill_from_nic(out, nic);
		if (rc == 0)
			nicfit__part_compare(out, &rf);
		else if (rc < 0)
			note(out, "The part-number rules cannot read it: %s", rerr.msg);
	} else if (rc == 0) {
		out->confidence = NICFIT_CONF_RULE;
		if (d.intel)
			nicfit__intel_notes(out, d.intel);
		if (!out->part[0])
			snprintf(out->part, sizeof(out->part), "%.*s", (int)strcspn(norm, "_"), norm);
		if (!out->source[0])
			setstr(out->source, sizeof(out->source), REF1 ", OPN rules");
	} else {
		reset(out);
		if (rc < 0) {
			const char *near = nearest(cat, norm);

			if (err && err->code == NICFIT_OK) {
				*err = rerr;
				if (near) {
					size_t l = strlen(err->msg);

					snprintf(err->msg + l, sizeof(err->msg) - l,
						 "; did you mean '%s'?", near);
				}
			}
			return rerr.code;
		}
		return not_a_part(cat, &d);
	}
	setstr(out->input, sizeof(out->input), norm);
	nicfit__linkx_fits(out, cat);
	rdma_generation(out);
	if (out->kind == NICFIT_PART_NIC)
		plan_slots(out);
	make_summary(out);
	return 0;
}
