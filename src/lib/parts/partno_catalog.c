/*
 * partno_catalog.c - part numbers the catalog knows (see partno_int.h).
 *
 * When the catalog has the part (by id, by vendor part number, or as the
 * OPN a firmware tool prints without its bracket letter), its facts win:
 * they are copied into the result, and where the rules read a fact
 * differently a note says so. Entries that are not NICs (a cable, a
 * switch) are named, with a pointer to `nicfit catalog show`.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parts/partno_int.h"

/* ---- the catalog ---------------------------------------------------------- */

void nicfit__part_take_facts(struct facts *f, const struct nicfit_part *p)
{
	memset(f, 0, sizeof(*f));
	setstr(f->family, sizeof(f->family), p->family);
	setstr(f->protocol, sizeof(f->protocol), p->protocol);
	setstr(f->cage, sizeof(f->cage), p->cage);
	setstr(f->ib_rate, sizeof(f->ib_rate), p->ib_rate);
	setstr(f->form_factor, sizeof(f->form_factor), p->form_factor);
	setstr(f->bracket, sizeof(f->bracket), p->bracket);
	f->ports = p->ports;
	f->pcie_gen = p->pcie_gen;
	f->pcie_width = p->pcie_width;
	f->socket_direct = p->socket_direct;
	f->port_gbps = p->port_gbps;
}

static void differ_s(struct nicfit_part *p, const char *field, const char *rule,
		     const char *cat)
{
	if (rule[0] && cat[0] && strcasecmp(rule, cat))
		note(p, "The part-number rules read %s as %s; the catalog says %s (the catalog "
			"wins).", field, rule, cat);
}

static void differ_i(struct nicfit_part *p, const char *field, double rule, double cat)
{
	if (rule > 0 && cat > 0 && rule != cat)
		note(p, "The part-number rules read %s as %g; the catalog says %g (the catalog "
			"wins).", field, rule, cat);
}

void nicfit__part_compare(struct nicfit_part *p, const struct facts *r)
{
	differ_s(p, "family", r->family, p->family);
	differ_s(p, "protocol", r->protocol, p->protocol);
	differ_i(p, "ports", r->ports, p->ports);
	differ_s(p, "cage", r->cage, p->cage);
	differ_i(p, "port_gbps", r->port_gbps, p->port_gbps);
	if (r->ib_rate[0] != p->ib_rate[0] || strcmp(r->ib_rate, p->ib_rate))
		if (r->protocol[0] && p->protocol[0])
			note(p, "The part-number rules read ib_rate as %s; the catalog says %s (the "
				"catalog wins).", r->ib_rate[0] ? r->ib_rate : "none",
			     p->ib_rate[0] ? p->ib_rate : "none");
	differ_i(p, "pcie_gen", r->pcie_gen, p->pcie_gen);
	differ_i(p, "pcie_width", r->pcie_width, p->pcie_width);
	differ_s(p, "form_factor", r->form_factor, p->form_factor);
	differ_s(p, "bracket", r->bracket, p->bracket);
	if (r->socket_direct != p->socket_direct && r->ports)
		note(p, "The part-number rules read socket_direct as %s; the catalog says %s.",
		     r->socket_direct ? "true" : "false", p->socket_direct ? "true" : "false");
}

void nicfit__part_fill_from_nic(struct nicfit_part *p, const struct nicfit_nic *n)
{
	int i;

	p->kind = NICFIT_PART_NIC;
	p->confidence = NICFIT_CONF_CATALOG;
	p->catalog_kind = NICFIT_KIND_NIC;
	setstr(p->catalog_id, sizeof(p->catalog_id), n->e.id);
	setstr(p->name, sizeof(p->name), n->e.name);
	setstr(p->source, sizeof(p->source), n->e.source);
	setstr(p->part, sizeof(p->part), n->part ? n->part : n->e.id);
	p->card_gbps = n->card_gbps;
	setstr(p->vendor, sizeof(p->vendor), n->vendor);
	setstr(p->family, sizeof(p->family), n->family);
	setstr(p->protocol, sizeof(p->protocol), n->protocol);
	p->ports = n->ports;
	setstr(p->cage, sizeof(p->cage), n->cage);
	p->port_gbps = n->port_gbps;
	setstr(p->ib_rate, sizeof(p->ib_rate), n->ib_rate);
	p->pcie_gen = n->pcie_gen;
	p->pcie_gen_min = n->pcie_gen_min;
	p->pcie_width = n->pcie_width;
	p->socket_direct = n->socket_direct;
	p->socket_direct_option = n->sd_option;
	p->rdma = n->rdma;
	setstr(p->form_factor, sizeof(p->form_factor), n->form_factor);
	/* the catalog's slot_width, "single" unless it says otherwise, is a PCIe card's */
	if (n->form_factor && !strncmp(n->form_factor, "pcie", 4))
		setstr(p->slot_width, sizeof(p->slot_width), n->double_width ? "double" : "single");
	if (n->bracket)
		setstr(p->bracket, sizeof(p->bracket), n->bracket);
	if (n->driver)
		setstr(p->driver, sizeof(p->driver), n->driver);
	if (n->pci_vendor) {
		p->pci_vendor = n->pci_vendor;
		p->pci_device = n->pci_device;
	}
	p->nunverified = 0;
	for (i = 0; i < n->e.nunverified; i++)
		unverified(p, n->e.unverified[i]);
	for (i = 0; i < n->e.nnotes; i++)
		note(p, "%s", n->e.notes[i]);
}

void nicfit__part_fill_from_entry(struct nicfit_part *p, const struct nicfit_entry *e,
					 enum nicfit_kind k)
{
	int i;

	p->kind = NICFIT_PART_OTHER;
	p->confidence = NICFIT_CONF_CATALOG;
	p->catalog_kind = k;
	setstr(p->catalog_id, sizeof(p->catalog_id), e->id);
	setstr(p->name, sizeof(p->name), e->name);
	setstr(p->source, sizeof(p->source), e->source);
	setstr(p->part, sizeof(p->part), e->id);
	if (k == NICFIT_KIND_CABLE) {
		const struct nicfit_cable *c = (const struct nicfit_cable *)(const void *)e;

		if (c->part)
			setstr(p->part, sizeof(p->part), c->part);
	}
	for (i = 0; i < e->nunverified; i++)
		unverified(p, e->unverified[i]);
	for (i = 0; i < e->nnotes; i++)
		note(p, "%s", e->notes[i]);
	note(p, "This is a catalog %s, not a network card: 'nicfit catalog show %s' has its "
		"facts.", nicfit_kind_name(k), e->id);
}

/*
 * A firmware-tool string ("MCX623106AN-CDA_Ax") names the OPN without its
 * bracket letter: the catalog NIC whose part is that plus one letter.
 */
const struct nicfit_nic *nicfit__part_tool_match(const struct nicfit_catalog *cat,
							struct nicfit_part *p, const char *s)
{
	const struct nicfit_nic *hit = NULL;
	char base[NICFIT_PART_MAX + 1];
	size_t i, n = strcspn(s, "_"), count = nicfit_catalog_count(cat, NICFIT_KIND_NIC);
	int matches = 0;

	if (!s[n] || n == 0)
		return NULL;
	snprintf(base, sizeof(base), "%.*s", (int)n, s);
	for (i = 0; i < count; i++) {
		const struct nicfit_nic *c = nicfit_catalog_nic(cat, i);

		if (!c->part)
			continue;
		if (!strcasecmp(c->part, base)) {
			return c;
		}
		if (strlen(c->part) == n + 1 && !strncasecmp(c->part, base, n)) {
			matches++;
			hit = c;
		}
	}
	if (matches == 1) {
		note(p, "Matched catalog part %s: firmware tools drop the bracket letter.", hit->part);
		return hit;
	}
	if (matches > 1)
		note(p, "Several catalog parts differ only in the bracket letter; none was chosen.");
	return NULL;
}
