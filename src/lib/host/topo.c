/*
 * topo.c - the host model of nicfit/topo.h: building it (by discovery or
 * by hand), looking things up in it, and classifying its functions.
 *
 * Nothing here reads a file: discovery is topo_discover.c and the files
 * it drives (topo_int.h lists them). Classification is here because it
 * belongs to the model: a hand-built model in a test is classified by
 * nicfit_topo_finish() exactly as a discovered one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/pciids_int.h"
#include "host/topo_int.h"

/* ---- names ------------------------------------------------------------------ */

const char *nicfit_dev_kind_name(enum nicfit_dev_kind k)
{
	switch (k) {
	case NICFIT_DEV_BRIDGE: return "bridge";
	case NICFIT_DEV_HOST: return "host-bridge";
	case NICFIT_DEV_GPU: return "gpu";
	case NICFIT_DEV_ACCEL: return "accelerator";
	case NICFIT_DEV_NIC: return "nic";
	case NICFIT_DEV_DISPLAY: return "display";
	case NICFIT_DEV_STORAGE: return "storage";
	case NICFIT_DEV_NVSWITCH: return "nvswitch";
	case NICFIT_DEV_OTHER: break;
	}
	return "other";
}

const char *nicfit_pci_class_name(unsigned c)
{
	switch (c >> 8) {
	case 0x0100: return "SCSI";
	case 0x0101: return "IDE";
	case 0x0104: return "RAID";
	case 0x0106: return "SATA";
	case 0x0107: return "SAS";
	case 0x0108: return "NVMe";
	case 0x0200: return "Ethernet";
	case 0x0207: return "InfiniBand";
	case 0x0280: return "network";
	case 0x0300: return "VGA";
	case 0x0302: return "3D controller";
	case 0x0380: return "display";
	case 0x0403: return "audio";
	case 0x0600: return "host bridge";
	case 0x0601: return "ISA bridge";
	case 0x0604: return "PCI bridge";
	case 0x0680: return "bridge";
	case 0x0880: return "system peripheral";
	case 0x0b40: return "co-processor";
	case 0x0c03: return "USB";
	case 0x0c05: return "SMBus";
	case 0x0c06: return "InfiniBand";
	case 0x1200: return "processing accelerator";
	case 0x1300: return "instrumentation";
	}
	switch (c >> 16) {
	case 0x01: return "storage";
	case 0x02: return "network";
	case 0x03: return "display";
	case 0x06: return "bridge";
	case 0x08: return "system peripheral";
	case 0x0c: return "serial bus";
	case 0x12: return "processing accelerator";
	}
	return "other";
}

/* ---- model building ---------------------------------------------------------- */

struct nicfit_topo *nicfit_topo_new(void)
{
	struct nicfit_topo *t = calloc(1, sizeof(*t));

	if (t) {
		snprintf(t->root, sizeof(t->root), "(model)");
		t->iommu = -1;
		t->euid = -1;
	}
	return t;
}

void nicfit_topo_free(struct nicfit_topo *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->npci; i++)
		free(t->pci[i].path);
	for (i = 0; i < t->nhb; i++)
		free(t->hb[i].path);
	for (i = 0; i < t->nproblems; i++) {
		free(t->problems[i].path);
		free(t->problems[i].what);
	}
	free(t->pci);
	free(t->hb);
	free(t->numa);
	free(t->net);
	free(t->rdma);
	free(t->slots);
	free(t->problems);
	free(t);
}

int nicfit_topo_add_hostbridge(struct nicfit_topo *t, const char *name, int numa_node)
{
	struct nicfit_hostbridge *h;

	if (NICFIT_ALLOC_GROW(t->hb, (size_t)t->nhb + 1, t->alloc_hb))
		return -1;
	h = &t->hb[t->nhb];
	memset(h, 0, sizeof(*h));
	nicfit__topo_copy(h->name, sizeof(h->name), name);
	h->parent_pci = -1;
	h->numa_node = numa_node;
	return t->nhb++;
}

int nicfit_topo_add_pci(struct nicfit_topo *t, const char *bdf, int parent, int hb)
{
	struct nicfit_pcidev *d;

	if (t->npci >= NICFIT_TOPO_MAX_PCI ||
	    NICFIT_ALLOC_GROW(t->pci, (size_t)t->npci + 1, t->alloc_pci))
		return -1;
	d = &t->pci[t->npci];
	memset(d, 0, sizeof(*d));
	nicfit__topo_copy(d->bdf, sizeof(d->bdf), bdf);
	if (nicfit_parse_pci_addr(bdf, &d->domain, &d->bus, &d->dev, &d->fn))
		d->domain = d->bus = d->dev = d->fn = 0;
	d->parent = parent;
	d->hostbridge = hb;
	d->depth = parent >= 0 ? t->pci[parent].depth + 1 : 0;
	d->numa_node = -1;
	d->secondary_bus = -1;
	d->physfn = -1;
	d->sriov_numvfs = d->sriov_totalvfs = -1;
	return t->npci++;
}

int nicfit_topo_add_numa(struct nicfit_topo *t, int id, const char *cpulist, int package)
{
	struct nicfit_numa *n;
	long first;

	if (t->nnuma >= NICFIT_TOPO_MAX_NUMA ||
	    NICFIT_ALLOC_GROW(t->numa, (size_t)t->nnuma + 1, t->alloc_numa))
		return -1;
	n = &t->numa[t->nnuma];
	memset(n, 0, sizeof(*n));
	n->id = id;
	n->package = package;
	nicfit__topo_copy(n->cpulist, sizeof(n->cpulist), cpulist ? cpulist : "");
	n->cpus_known = cpulist && !nicfit_parse_cpulist(n->cpulist, &n->ncpus, &first);
	if (!n->cpus_known) {
		n->cpulist[0] = '\0';
		n->ncpus = 0;
	}
	return t->nnuma++;
}

int nicfit_topo_add_netdev(struct nicfit_topo *t, const char *name, int pci)
{
	struct nicfit_netdev *n;

	if (t->nnet >= NICFIT_TOPO_MAX_NET ||
	    NICFIT_ALLOC_GROW(t->net, (size_t)t->nnet + 1, t->alloc_net))
		return -1;
	n = &t->net[t->nnet];
	memset(n, 0, sizeof(*n));
	nicfit__topo_copy(n->name, sizeof(n->name), name);
	n->pci = pci;
	n->type = -1;
	n->speed_mbps = -1;
	n->carrier = -1;
	return t->nnet++;
}

int nicfit_topo_add_rdma(struct nicfit_topo *t, const char *name, int pci)
{
	struct nicfit_rdmadev *r;

	if (t->nrdma >= NICFIT_TOPO_MAX_RDMA ||
	    NICFIT_ALLOC_GROW(t->rdma, (size_t)t->nrdma + 1, t->alloc_rdma))
		return -1;
	r = &t->rdma[t->nrdma];
	memset(r, 0, sizeof(*r));
	nicfit__topo_copy(r->name, sizeof(r->name), name);
	r->pci = pci;
	return t->nrdma++;
}

/* ---- queries ----------------------------------------------------------------- */

int nicfit_topo_find(const struct nicfit_topo *t, const char *bdf)
{
	int i;

	for (i = 0; i < t->npci; i++)
		if (!strcmp(t->pci[i].bdf, bdf))
			return i;
	return -1;
}

int nicfit_topo_chain(const struct nicfit_topo *t, int pci, int *out, int max)
{
	int tmp[NICFIT_TOPO_MAX_DEPTH * 2], n = 0, i, cur = pci;

	if (pci < 0 || pci >= t->npci || max <= 0)
		return 0;
	while (cur >= 0 && n < (int)(sizeof(tmp) / sizeof(tmp[0]))) {
		const struct nicfit_pcidev *d = &t->pci[cur];

		tmp[n++] = cur;
		if (d->parent >= 0)
			cur = d->parent;
		else if (d->hostbridge >= 0 && d->hostbridge < t->nhb)
			cur = t->hb[d->hostbridge].parent_pci;
		else
			cur = -1;
	}
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

int nicfit_topo_numa_of(const struct nicfit_topo *t, int pci)
{
	int cur = pci, guard = 0;

	while (cur >= 0 && cur < t->npci && guard++ < 2 * NICFIT_TOPO_MAX_DEPTH) {
		const struct nicfit_pcidev *d = &t->pci[cur];

		if (d->numa_node >= 0)
			return d->numa_node;
		if (d->parent >= 0) {
			cur = d->parent;
			continue;
		}
		if (d->hostbridge >= 0 && d->hostbridge < t->nhb) {
			if (t->hb[d->hostbridge].numa_node >= 0)
				return t->hb[d->hostbridge].numa_node;
			cur = t->hb[d->hostbridge].parent_pci;
			continue;
		}
		break;
	}
	return t->nnuma == 1 ? t->numa[0].id : -1;
}

double nicfit_rdma_port_gbps(const struct nicfit_rdma_port *pt)
{
	return pt->rate.data_gbps > 0 ? pt->rate.data_gbps : pt->rate.gbps;
}

int nicfit_topo_socket_of_node(const struct nicfit_topo *t, int node)
{
	int i;

	for (i = 0; i < t->nnuma; i++)
		if (t->numa[i].id == node)
			return t->numa[i].package;
	return -1;
}

/* ---- classification --------------------------------------------------------- */

static enum nicfit_dev_kind classify(const struct nicfit_pcidev *d, int has_net)
{
	const struct nicfit_pci_id *id = (d->have & NICFIT_HAVE_IDS) ?
		nicfit__pci_id_find(d->vendor, d->device) : NULL;
	unsigned base = d->class_code >> 16, sub = (d->class_code >> 8) & 0xff;
	int gpu_vendor = d->vendor == 0x10de || d->vendor == 0x1002;

	if (id && (id->flags & NICFIT_PCIID_GPU))
		return NICFIT_DEV_GPU;
	if (id && (id->flags & NICFIT_PCIID_NIC))
		return NICFIT_DEV_NIC;
	if (!(d->have & NICFIT_HAVE_CLASS))
		return has_net ? NICFIT_DEV_NIC : NICFIT_DEV_OTHER;
	switch (base) {
	case 0x06:
		if (sub == 0x04 || sub == 0x09)
			return NICFIT_DEV_BRIDGE;
		if (sub == 0x00)
			return NICFIT_DEV_HOST;
		if (sub == 0x80 && d->vendor == 0x10de)
			return NICFIT_DEV_NVSWITCH;
		break;
	case 0x03:
		return gpu_vendor ? NICFIT_DEV_GPU : NICFIT_DEV_DISPLAY;
	case 0x12:
		return gpu_vendor ? NICFIT_DEV_GPU : NICFIT_DEV_ACCEL;
	case 0x0b:
		if (sub == 0x40)
			return NICFIT_DEV_ACCEL;
		break;
	case 0x02:
		return NICFIT_DEV_NIC;
	case 0x0c:
		if (sub == 0x06)
			return NICFIT_DEV_NIC;
		break;
	case 0x01:
		return has_net ? NICFIT_DEV_NIC : NICFIT_DEV_STORAGE;
	}
	return has_net ? NICFIT_DEV_NIC : NICFIT_DEV_OTHER;
}

static void infer_port_type(struct nicfit_topo *t, int i)
{
	struct nicfit_pcidev *d = &t->pci[i];
	int bridge = d->kind == NICFIT_DEV_BRIDGE;
	enum nicfit_port_type up;

	if (d->port_type_from_config)
		return;
	if (d->parent < 0) {
		d->port_type = bridge ? NICFIT_PORT_ROOT : NICFIT_PORT_RCIEP;
		return;
	}
	up = t->pci[d->parent].port_type;
	switch (up) {
	case NICFIT_PORT_ROOT:
	case NICFIT_PORT_DOWNSTREAM:
		d->port_type = bridge ? NICFIT_PORT_UPSTREAM : NICFIT_PORT_ENDPOINT;
		break;
	case NICFIT_PORT_UPSTREAM:
		d->port_type = bridge ? NICFIT_PORT_DOWNSTREAM : NICFIT_PORT_RCIEP;
		break;
	case NICFIT_PORT_PCIE_TO_PCI:
	case NICFIT_PORT_LEGACY:
		d->port_type = NICFIT_PORT_LEGACY;
		break;
	default:
		d->port_type = NICFIT_PORT_UNKNOWN;
		break;
	}
}

void nicfit__topo_infer_ports(struct nicfit_topo *t)
{
	int i;

	/* Parents come before children in the array, so one pass infers all. */
	for (i = 0; i < t->npci; i++)
		infer_port_type(t, i);
}

void nicfit_topo_finish(struct nicfit_topo *t)
{
	int i, j, *hasnet;
	int pk[NICFIT_TOPO_MAX_NUMA], npk = 0;

	hasnet = calloc((size_t)(t->npci ? t->npci : 1), sizeof(*hasnet));
	for (i = 0; hasnet && i < t->nnet; i++)
		if (t->net[i].pci >= 0 && t->net[i].pci < t->npci)
			hasnet[t->net[i].pci] = 1;
	for (i = 0; hasnet && i < t->nrdma; i++)
		if (t->rdma[i].pci >= 0 && t->rdma[i].pci < t->npci)
			hasnet[t->rdma[i].pci] = 1;
	for (i = 0; i < t->npci; i++)
		t->pci[i].kind = classify(&t->pci[i], hasnet ? hasnet[i] : 0);
	free(hasnet);
	nicfit__topo_infer_ports(t);
	for (i = 0; i < t->nhb; i++) {
		if (t->hb[i].numa_node >= 0)
			continue;
		for (j = 0; j < t->npci; j++)
			if (t->pci[j].hostbridge == i && t->pci[j].numa_node >= 0) {
				t->hb[i].numa_node = t->pci[j].numa_node;
				break;
			}
	}
	/* Discovery counted the CPUs' packages; a model built by hand has its nodes' only. */
	if (t->npackages > 0)
		return;
	for (i = 0; i < t->nnuma; i++) {
		if (t->numa[i].package < 0)
			continue;
		for (j = 0; j < npk; j++)
			if (pk[j] == t->numa[i].package)
				break;
		if (j == npk)
			pk[npk++] = t->numa[i].package;
	}
	t->npackages = npk;
}
