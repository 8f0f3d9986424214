/*
 * test_topo.c - discovery on the fixture trees: the PCI tree from the
 * directory structure (bridges missing from the listing, VMD domains),
 * every link format, NUMA, class devices, damage survived, and the
 * built-in PCI ID table.
 */
#include "unit.h"

#include "fixtures.h"
#include "core/pciids_int.h"
#include "core/file_int.h"
#include "host/sysfs_int.h"
#include "host/topo_int.h"
#include "nicfit/topo.h"

static struct nicfit_topo *load(const char *name)
{
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;
	char root[256];

	nicfit_error_clear(&err);
	if (nicfit_topo_discover(fixture(name, root, sizeof(root)), &t, &err))
		fail_msg("%s: %s", root, err.msg);
	return t;
}

static const struct nicfit_pcidev *dev(const struct nicfit_topo *t, const char *bdf)
{
	int i = nicfit_topo_find(t, bdf);

	if (i < 0)
		fail_msg("%s not found", bdf);
	return &t->pci[i];
}

static int net(const struct nicfit_topo *t, const char *name)
{
	int i;

	for (i = 0; i < t->nnet; i++)
		if (!strcmp(t->net[i].name, name))
			return i;
	return -1;
}

static void r740xd(void **state)
{
	struct nicfit_topo *t = load("r740xd");
	const struct nicfit_pcidev *d;
	int n;

	(void)state;
	assert_string_equal(t->hostname, "r740xd-gpu01");
	assert_string_equal(t->product, "PowerEdge R740xd");
	assert_int_equal(t->nnuma, 2);
	assert_int_equal(t->npackages, 2);
	assert_int_equal(t->numa[1].ncpus, 16);
	assert_int_equal(t->numa[0].distance[1], 21);
	assert_false(t->is_virtual);
	assert_false(t->privileged);
	/* a bridge absent from /sys/bus/pci/devices is still in the tree */
	d = dev(t, "0000:5d:02.0");
	assert_false(d->in_bus_list);
	assert_int_equal(d->kind, NICFIT_DEV_BRIDGE);
	d = dev(t, "0000:5f:00.0");
	assert_true(d->in_bus_list);
	assert_string_equal(t->pci[d->parent].bdf, "0000:5d:02.0");
	assert_int_equal(d->kind, NICFIT_DEV_STORAGE);
	/* links in the new format, the idle GPU */
	d = dev(t, "0000:af:00.0");
	assert_int_equal(d->kind, NICFIT_DEV_GPU);
	assert_near(d->cur_gts, 2.5, 0);
	assert_near(d->max_gts, 16, 0);
	assert_int_equal(d->max_width, 16);
	assert_string_equal(d->driver, "nvidia");
	assert_string_equal(d->iommu_type, "DMA-FQ");
	assert_string_equal(d->slot, "4");
	assert_int_equal(d->port_type, NICFIT_PORT_ENDPOINT);
	assert_int_equal(t->pci[d->parent].port_type, NICFIT_PORT_ROOT);
	/* BMC VGA is a display, not a GPU */
	assert_int_equal(dev(t, "0000:03:00.0")->kind, NICFIT_DEV_DISPLAY);
	/* empty slot: found through the port whose secondary bus it is */
	for (n = 0; n < t->nslots; n++)
		if (!strcmp(t->slots[n].name, "5"))
			break;
	assert_true(n < t->nslots);
	assert_int_equal(t->slots[n].pci, -1);
	assert_string_equal(t->pci[t->slots[n].bridge].bdf, "0000:85:02.0");
	/* class devices */
	n = net(t, "ens3f0");
	assert_true(n >= 0);
	assert_string_equal(t->pci[t->net[n].pci].bdf, "0000:3b:00.0");
	assert_int_equal(t->net[n].speed_mbps, 100000);
	assert_int_equal(t->net[n].mtu, 1500);
	n = net(t, "eno2");
	assert_int_equal(t->net[n].speed_mbps, -1);
	assert_int_equal(t->net[n].carrier, 0);
	assert_true(t->net[net(t, "lo")].is_virtual);
	assert_int_equal(t->nrdma, 2);
	assert_string_equal(t->rdma[0].board_id, "MT_0000000008");
	assert_int_equal(t->rdma[0].ports[0].state, 4);
	assert_string_equal(t->rdma[0].ports[0].link_layer, "Ethernet");
	assert_int_equal(t->rdma[0].ports[0].ngid_v2, 2);
	assert_int_equal(t->rdma[0].ports[0].ngid_v2_routable, 1);
	assert_int_equal(t->rdma[0].ports[0].gid_v2_index, 3);
	assert_near(t->rdma[0].ports[0].rate.gbps, 100, 0);
	assert_true(t->nvidia_peermem);
	assert_false(t->nv_mem);
	assert_string_equal(t->nvidia_version, "535.129.03");
	assert_int_equal(t->iommu, 1);
	assert_int_equal(t->problems_total, 0);
	assert_int_equal(nicfit_topo_numa_of(t, nicfit_topo_find(t, "0000:3b:00.1")), 0);
	assert_int_equal(nicfit_topo_socket_of_node(t, 1), 1);
	nicfit_topo_free(t);
}

static void el7_old_formats_and_damage(void **state)
{
	struct nicfit_topo *t = load("el7-v100");
	const struct nicfit_pcidev *d;
	size_t i;
	int loop = 0, fifo = 0, junk = 0;

	(void)state;
	d = dev(t, "0000:04:00.0");
	assert_near(d->cur_gts, 8, 0);
	assert_string_equal(d->cur_speed_text, "8 GT/s");
	assert_int_equal(d->numa_node, -1);
	assert_true(d->have & NICFIT_HAVE_NUMA);
	d = dev(t, "0000:82:00.0");
	assert_near(d->cur_gts, 2.5, 0);
	assert_false(d->have & NICFIT_HAVE_NUMA); /* a FIFO in its place */
	d = dev(t, "0000:80:02.0");
	assert_true(d->have & NICFIT_HAVE_CUR_SPEED);
	assert_false(d->have & NICFIT_HAVE_MAX_SPEED);
	d = dev(t, "0000:00:01.0");
	assert_true(d->have & NICFIT_HAVE_LINK_FILES);
	assert_false(d->have & NICFIT_HAVE_CUR_SPEED); /* "Unknown speed" */
	assert_string_equal(d->cur_speed_text, "Unknown speed");
	/* binary junk in uevent: reported, and the IDs come from the single files */
	d = dev(t, "0000:05:00.0");
	assert_true(d->have & NICFIT_HAVE_SUBSYS);
	assert_true(d->have & NICFIT_HAVE_IDS);
	assert_int_equal(d->subdevice, 0x0006);
	assert_string_equal(d->driver, "mlx4_core");
	/* mlx4: two ports on one function, no GID types on this kernel */
	assert_int_equal(t->nrdma, 1);
	assert_int_equal(t->rdma[0].nports, 2);
	assert_false(t->rdma[0].ports[0].gid_types_known);
	assert_int_equal(t->rdma[0].ports[1].phys_state, 2);
	/* the interface whose path loops is not an interface */
	assert_int_equal(net(t, "ib9"), -1);
	for (i = 0; i < (size_t)t->nproblems; i++) {
		loop += t->problems[i].st == NICFIT_SYSFS_LOOP;
		fifo += t->problems[i].st == NICFIT_SYSFS_NOT_FILE;
		junk += t->problems[i].st == NICFIT_SYSFS_MALFORMED;
	}
	assert_int_equal(loop, 1);
	assert_int_equal(fifo, 1);
	assert_int_equal(junk, 1);
	assert_int_equal(nicfit_topo_numa_of(t, nicfit_topo_find(t, "0000:04:00.0")), -1);
	nicfit_topo_free(t);
}

/*
 * AMD's MI300X node tree: the amdgpu driver's peer-memory client is read
 * where RCCL looks for it (memory_peers/amdkfd), GPUs are processing
 * accelerators of vendor 1002 under a switch shared with their NIC.
 */
static void amd_mi300x_node(void **state)
{
	struct nicfit_topo *t = load("mi300x-thor2");
	const struct nicfit_pcidev *g, *n;
	int known = 0, lca = -1;

	(void)state;
	assert_true(t->amdkfd_peer);
	assert_false(t->nv_mem);
	g = dev(t, "0000:05:00.0");
	n = dev(t, "0000:09:00.0");
	assert_int_equal(g->vendor, 0x1002);
	assert_int_equal(g->class_code >> 16, 0x12);
	assert_string_equal(g->driver, "amdgpu");
	assert_int_equal(n->vendor, 0x14e4);
	assert_int_equal(nicfit_topo_path(t, nicfit_topo_find(t, "0000:05:00.0"),
					  nicfit_topo_find(t, "0000:09:00.0"), &known, &lca),
			 NICFIT_PATH_PXB);
	assert_true(known);
	assert_string_equal(t->pci[lca].bdf, "0000:01:00.0");
	nicfit_topo_free(t);
}

static void hgx_config_vmd_vfs(void **state)
{
	struct nicfit_topo *t = load("hgx-h100");
	const struct nicfit_pcidev *d;
	int chain[64], n, i;

	(void)state;
	assert_true(t->privileged);
	d = dev(t, "0000:ba:00.0");
	assert_true(d->port_type_from_config);
	assert_int_equal(d->port_type, NICFIT_PORT_DOWNSTREAM);
	assert_true(d->acs);
	assert_int_equal(d->acs_ctrl, 0x1d);
	d = dev(t, "0000:19:00.0");
	assert_int_equal(d->mps, 256);
	assert_int_equal(d->mrrs, 4096);
	assert_int_equal(d->vpd_state, 1);
	assert_string_equal(d->vpd_part, "MCX75310AAS-NEAT");
	assert_string_equal(d->vpd_pcie, "PCIeGen5 x16");
	assert_int_equal(d->vpd_checksum, 1);
	assert_int_equal(d->lnkcap_gen, 5);
	assert_int_equal(d->lnksta_width, 16);
	/* VMD: a nested domain hangs off its controller */
	i = nicfit_topo_find(t, "10000:01:00.0");
	assert_true(i >= 0);
	n = nicfit_topo_chain(t, i, chain, 64);
	assert_int_equal(n, 3);
	assert_string_equal(t->pci[chain[0]].bdf, "0000:00:0e.0");
	assert_string_equal(t->pci[chain[1]].bdf, "10000:00:02.0");
	assert_string_equal(t->hb[t->pci[i].hostbridge].name, "pci10000:00");
	/* SR-IOV */
	d = dev(t, "0000:5f:00.0");
	assert_int_equal(d->sriov_totalvfs, 8);
	assert_int_equal(d->sriov_numvfs, 4);
	d = dev(t, "0000:5f:00.3");
	assert_string_equal(t->pci[d->physfn].bdf, "0000:5f:00.0");
	assert_int_equal(dev(t, "0000:08:00.0")->kind, NICFIT_DEV_NVSWITCH);
	assert_false(dev(t, "0000:99:02.0")->in_bus_list);
	assert_true(t->nv_mem);
	assert_int_equal(t->iommu, 0);
	nicfit_topo_free(t);
}

/* What one discovery read: of one VF, and of config space. */
struct vf_count {
	int vf_reads;
	size_t cfg_bytes, bridge_cfg_bytes;
};

static void count_reads(void *ctx, int op, const char *path, size_t off, size_t len,
			const char *why)
{
	struct vf_count *c = ctx;

	(void)off;
	(void)why;
	if (strstr(path, "/0000:5f:00.3/"))
		c->vf_reads++;
	if (op == 'P') {
		c->cfg_bytes += len;
		if (strstr(path, "/0000:ba:00.0/config"))
			c->bridge_cfg_bytes += len;
	}
}

/*
 * A VF costs its uevent and its physfn link, nothing more; the kernel's
 * config space is read by the registers used: a switch port's ACS in
 * under 128 bytes (the header, the capability hops, the PCIe capability,
 * Link Capabilities 2, the extended hops and ACS), not 4,096. A copy's is
 * read 256 bytes at once, and says the same.
 */
static void reads_what_facts_need(void **state)
{
	struct nicfit_sysfs *fs;
	struct nicfit_topo *t = NULL, *copy = NULL;
	struct nicfit_error err;
	struct vf_count c = { 0, 0, 0 };
	char root[512];
	int i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_sysfs_open(fixture("hgx-h100", root, sizeof(root)), &fs, &err), 0);
	/* as a live host's config files: a dword costs config cycles */
	fs->config_dwords = 1;
	nicfit_sysfs_trace(fs, count_reads, &c);
	assert_int_equal(nicfit_topo_discover_fs(fs, &t, &err), 0);
	assert_int_equal(c.vf_reads, 2);
	assert_true(c.bridge_cfg_bytes > 64 && c.bridge_cfg_bytes < 128);
	assert_true(c.cfg_bytes <= (size_t)t->npci * 128);
	assert_true(dev(t, "0000:ba:00.0")->acs);
	assert_string_equal(t->pci[dev(t, "0000:5f:00.3")->physfn].bdf, "0000:5f:00.0");
	nicfit_sysfs_close(fs);
	/* a copy's config files: 256 bytes in one read, then a bridge's hops to ACS */
	memset(&c, 0, sizeof(c));
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	nicfit_sysfs_trace(fs, count_reads, &c);
	assert_int_equal(nicfit_topo_discover_fs(fs, &copy, &err), 0);
	assert_int_equal(c.bridge_cfg_bytes, 256 + 8);
	assert_true(c.cfg_bytes <= (size_t)copy->npci * 256);
	/* ... and the same facts */
	assert_int_equal(copy->npci, t->npci);
	assert_int_equal(copy->privileged, t->privileged);
	for (i = 0; i < t->npci; i++) {
		const struct nicfit_pcidev *a = &t->pci[i], *b = &copy->pci[i];

		assert_int_equal(a->cfg_pcie, b->cfg_pcie);
		assert_int_equal(a->port_type, b->port_type);
		assert_int_equal(a->mps * 10000 + a->mrrs, b->mps * 10000 + b->mrrs);
		assert_int_equal(a->acs * 0x10000 + (int)a->acs_ctrl, b->acs * 0x10000 + (int)b->acs_ctrl);
		assert_int_equal(a->lnkcap2_speeds, b->lnkcap2_speeds);
		assert_int_equal(a->cur_width * 100 + a->max_width, b->cur_width * 100 + b->max_width);
		assert_string_equal(a->cur_speed_text, b->cur_speed_text);
		assert_string_equal(a->max_speed_text, b->max_speed_text);
	}
	nicfit_topo_free(copy);
	nicfit_topo_free(t);
	nicfit_sysfs_close(fs);
}

/* Link files discovery read: each speed or width file looked for. */
static void count_link_reads(void *ctx, int op, const char *path, size_t off, size_t len,
			     const char *why)
{
	(void)op;
	(void)off;
	(void)len;
	(void)why;
	if (strstr(path, "_link_speed") || strstr(path, "_link_width"))
		(*(int *)ctx)++;
}

/* The file name of function p, as the kernel wrote it, into buf ("" when absent). */
static void link_file(struct nicfit_sysfs *fs, const struct nicfit_pcidev *p, const char *name,
		      char *buf, size_t cap)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", p->path, name);
	if (nicfit_sysfs_read_str(fs, path, buf, cap, NICFIT_SYSFS_QUIET) != NICFIT_SYSFS_OK)
		buf[0] = '\0';
}

/*
 * Where config space was read, the link comes from its registers: the
 * widths are the fields, and a speed's words from the first function with
 * that register value. What every function then holds is what its own
 * four files say, with a few of them read instead of four a function.
 */
static void links_from_config(void **state)
{
	struct nicfit_sysfs *fs, *check;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;
	char root[512], text[64];
	int reads = 0, derived = 0, i;

	(void)state;
	nicfit_error_clear(&err);
	fixture("hgx-h100", root, sizeof(root));
	assert_int_equal(nicfit_sysfs_open(root, &fs, &err), 0);
	assert_int_equal(nicfit_sysfs_open(root, &check, &err), 0);
	nicfit_sysfs_trace(fs, count_link_reads, &reads);
	assert_int_equal(nicfit_topo_discover_fs(fs, &t, &err), 0);
	for (i = 0; i < t->npci; i++) {
		const struct nicfit_pcidev *p = &t->pci[i];

		if (!p->cfg_pcie || p->physfn >= 0)
			continue;
		derived++;
		link_file(check, p, "current_link_speed", text, sizeof(text));
		assert_string_equal(p->cur_speed_text, text);
		link_file(check, p, "max_link_speed", text, sizeof(text));
		assert_string_equal(p->max_speed_text, text);
		link_file(check, p, "current_link_width", text, sizeof(text));
		assert_int_equal(p->cur_width, (int)strtol(text, NULL, 10));
		link_file(check, p, "max_link_width", text, sizeof(text));
		assert_int_equal(p->max_width, (int)strtol(text, NULL, 10));
		assert_true(p->have & NICFIT_HAVE_LINK_FILES);
	}
	assert_true(derived > 40);
	/* 4 a function without config (7 here), and one per speed value met */
	assert_true(reads < 4 * (t->npci - derived) + 16);
	nicfit_topo_free(t);
	nicfit_sysfs_close(check);
	nicfit_sysfs_close(fs);
}

static void x11_chipset_and_legacy(void **state)
{
	struct nicfit_topo *t = load("x11-200g");
	const struct nicfit_pcidev *d;

	(void)state;
	/* config space is read along the paths of GPUs, accelerators and NICs */
	d = dev(t, "0000:18:03.0");
	assert_true(d->port_type_from_config);
	assert_int_equal(d->port_type, NICFIT_PORT_DOWNSTREAM);
	assert_int_equal(dev(t, "0000:17:00.0")->port_type, NICFIT_PORT_UPSTREAM);
	/* ... not for the BMC's VGA, whose bridge is inferred from the tree */
	d = dev(t, "0000:04:00.0");
	assert_false(d->port_type_from_config);
	assert_int_equal(d->kind, NICFIT_DEV_DISPLAY);
	assert_int_equal(dev(t, "0000:86:00.0")->kind, NICFIT_DEV_ACCEL);
	d = dev(t, "0000:5e:00.0");
	assert_int_equal(d->mps, 128);
	assert_int_equal(d->mrrs, 512);
	assert_string_equal(d->vpd_part, "MCX653105A-HDAT");
	assert_int_equal(t->net[net(t, "ib0")].type, 32);
	nicfit_topo_free(t);
}

static void vm_and_old_kernel(void **state)
{
	struct nicfit_topo *t = load("kvm-vm");
	int n;

	(void)state;
	assert_true(t->is_virtual);
	assert_non_null(strstr(t->virtual_why, "hypervisor"));
	assert_int_equal(t->nnuma, 1);
	/* numa_node -1 on a one-node host means that node */
	assert_int_equal(nicfit_topo_numa_of(t, nicfit_topo_find(t, "0000:02:00.0")), 0);
	/* a netdev below an intermediate directory (virtio) belongs to the function */
	n = net(t, "enp1s0");
	assert_string_equal(t->pci[t->net[n].pci].bdf, "0000:01:00.0");
	assert_int_equal(dev(t, "0000:03:00.0")->kind, NICFIT_DEV_NIC);
	assert_int_equal(dev(t, "0000:00:01.0")->kind, NICFIT_DEV_DISPLAY);
	nicfit_topo_free(t);

	t = load("xenial-k44");
	assert_false(dev(t, "0000:02:00.0")->have & NICFIT_HAVE_LINK_FILES);
	assert_near(dev(t, "0000:02:00.0")->cur_gts, 0, 0);
	assert_true(t->nv_mem);
	nicfit_topo_free(t);
}

/* Node lists ending "\n\0" (RHEL 6's kernel) are the kernel's format: four nodes, not one. */
static void nul_terminated_node_lists(void **state)
{
	struct nicfit_topo *t = load("r910-qdr");
	int i;

	(void)state;
	assert_true(t->numa_from_sysfs);
	assert_int_equal(t->nnuma, 4);
	assert_int_equal(t->npackages, 4);
	assert_int_equal(t->numa[3].id, 3);
	assert_int_equal(t->numa[3].package, 3);
	for (i = 0; i < t->nproblems; i++)
		assert_null(strstr(t->problems[i].path, "system/node"));
	/* numa_node -1 on a host of four nodes stays unknown */
	assert_int_equal(nicfit_topo_numa_of(t, nicfit_topo_find(t, "0000:04:00.0")), -1);
	assert_int_equal(nicfit_topo_numa_of(t, nicfit_topo_find(t, "0000:81:00.0")), 2);
	nicfit_topo_free(t);
}

/*
 * A kernel before the node and CPU lists (2.6.18): the nodeN directories
 * and their cpumap masks give the nodes, the cpuN directories and their
 * online files the CPUs, core_siblings masks the packages. The first CPU
 * of node 1 is offline (here and on a current kernel): the node's other
 * CPUs give its package.
 */
static void old_lists_and_offline_cpus(void **state)
{
	struct nicfit_topo *t = load("rhel5-dl385");

	(void)state;
	assert_true(t->numa_from_sysfs);
	assert_int_equal(t->nnuma, 2);
	assert_int_equal(t->numa[0].id, 0);
	assert_string_equal(t->numa[0].cpulist, "0-1");
	assert_string_equal(t->numa[1].cpulist, "2-3");
	assert_true(t->numa[1].cpus_known);
	assert_int_equal(t->numa[1].ncpus, 2);
	assert_int_equal(t->numa[1].ndistance, 2);
	assert_int_equal(t->numa[1].distance[0], 20);
	assert_int_equal(t->npackages, 2);
	assert_int_equal(t->numa[0].package, 0);
	assert_int_equal(t->numa[1].package, 1);
	assert_int_equal(t->nproblems, 0);
	/* no numa_node and every CPU local: unknown on a host of two nodes */
	assert_int_equal(nicfit_topo_numa_of(t, nicfit_topo_find(t, "0000:04:00.0")), -1);
	nicfit_topo_free(t);
	t = load("r630-gather");
	assert_int_equal(t->nnuma, 2);
	assert_string_equal(t->numa[1].cpulist, "1,3,5,7");
	assert_int_equal(t->numa[1].package, 1);
	assert_int_equal(t->npackages, 2);
	nicfit_topo_free(t);
}

/*
 * A copy with proc/version but no proc/sys/kernel, and DMI only under
 * sys/devices/virtual: the release is the version line's third word. Its
 * second directory of one BDF is not a second function.
 */
static void identity_from_copies(void **state)
{
	struct nicfit_topo *t = load("r630-gather");
	int i, n;

	(void)state;
	assert_string_equal(t->kernel, "3.10.0-1160.15.2.el7.x86_64");
	assert_string_equal(t->sys_vendor, "Dell Inc.");
	assert_string_equal(t->product, "PowerEdge R630");
	/* the NIC's second directory, under the other socket's port, is a copy */
	for (i = n = 0; i < t->npci; i++)
		n += !strcmp(t->pci[i].bdf, "0000:81:00.0");
	assert_int_equal(n, 1);
	assert_string_equal(t->pci[dev(t, "0000:81:00.0")->parent].bdf, "0000:80:02.0");
	assert_int_equal(t->nnet, 2);
	nicfit_topo_free(t);
	t = load("r740xd");
	assert_string_equal(t->kernel, "5.15.0-91-generic");
	nicfit_topo_free(t);
}

/* Sockets are packages, not nodes; without numa_node a function is placed by its local CPUs. */
static void packages_and_local_cpus(void **state)
{
	struct nicfit_topo *t = load("r740-interleave");

	(void)state;
	assert_int_equal(t->nnuma, 1);
	assert_int_equal(t->npackages, 2);
	/* the one node is over both packages: on no one socket */
	assert_int_equal(t->numa[0].package, -1);
	assert_int_equal(nicfit_topo_socket_of_node(t, 0), -1);
	nicfit_topo_free(t);
	t = load("nonuma-file");
	assert_false(dev(t, "0000:af:00.0")->have & NICFIT_HAVE_NUMA);
	assert_int_equal(dev(t, "0000:af:00.0")->numa_node, 1);
	assert_int_equal(dev(t, "0000:18:00.0")->numa_node, 0);
	nicfit_topo_free(t);
	/* every CPU local (firmware without locality) places nothing */
	t = load("r910-qdr");
	assert_int_equal(dev(t, "0000:04:00.0")->numa_node, -1);
	nicfit_topo_free(t);
	/* an endpoint missing from sys/bus/pci/devices is found under sys/devices */
	t = load("wrx80-t2l");
	assert_false(dev(t, "0000:21:00.0")->in_bus_list);
	assert_true(dev(t, "0000:03:00.0")->in_bus_list);
	assert_int_equal(dev(t, "0000:21:00.0")->kind, NICFIT_DEV_GPU);
	nicfit_topo_free(t);
}

/* No sys/module in the capture: GPUs bound to nvidia still say the driver is loaded. */
static void driver_from_binding(void **state)
{
	struct nicfit_topo *t = load("wrx80-t2l");

	(void)state;
	assert_false(t->modules_listed);
	assert_int_equal(t->nvidia_driver, 1);
	assert_false(t->nvidia_peermem);
	assert_string_equal(t->net[net(t, "enp66s0f1")].operstate, "");
	nicfit_topo_free(t);
	t = load("r910-qdr"); /* no sys/module and no NVIDIA function: unknown */
	assert_int_equal(t->nvidia_driver, -1);
	nicfit_topo_free(t);
	t = load("r740xd");
	assert_true(t->modules_listed);
	assert_int_equal(t->nvidia_driver, 1);
	assert_true(t->rdma_listed);
	nicfit_topo_free(t);
}

/* A copy of fixture name under a new temporary directory, in root (n bytes). */
static void copy_fixture(const char *name, char *root, size_t n)
{
	char src[256], cmd[1024];

	snprintf(root, n, "/tmp/nicfit-test-topo-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "cp -R '%s/.' '%s'", fixture(name, src, sizeof(src)), root);
	assert_int_equal(system(cmd), 0);
}

static void sh_in(const char *root, const char *script)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", root, script);
	assert_int_equal(system(cmd), 0);
}

static void rm_tree(const char *root)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static struct nicfit_topo *load_root(const char *root)
{
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	if (nicfit_topo_discover(root, &t, &err))
		fail_msg("%s: %s", root, err.msg);
	return t;
}

/*
 * Whether a tree shows drivers: a copy without uevent files, driver links
 * and sys/bus/pci/drivers cannot (its empty drivers are unknown); any one
 * of the three is enough, as each is there on a live host.
 */
static void drivers_evidence(void **state)
{
	struct nicfit_topo *t = load("sr665-copy");
	char root[64];

	(void)state;
	assert_false(t->drivers_listed);
	assert_string_equal(dev(t, "0000:01:00.0")->driver, "");
	assert_int_equal(dev(t, "0000:41:00.0")->kind, NICFIT_DEV_NIC);
	assert_int_equal(t->nvidia_driver, -1);
	nicfit_topo_free(t);
	t = load("r740xd");
	assert_true(t->drivers_listed);
	nicfit_topo_free(t);
	copy_fixture("r740xd", root, sizeof(root));
	/* without the drivers' directory: the uevent files' DRIVER= lines */
	sh_in(root, "rm -r sys/bus/pci/drivers");
	t = load_root(root);
	assert_true(t->drivers_listed);
	assert_string_equal(dev(t, "0000:af:00.0")->driver, "nvidia");
	nicfit_topo_free(t);
	/* nor uevent files: the driver links, dangling in a copy, still name them */
	sh_in(root, "find sys/devices -name uevent -exec rm {} +");
	t = load_root(root);
	assert_true(t->drivers_listed);
	assert_string_equal(dev(t, "0000:af:00.0")->driver, "nvidia");
	assert_string_equal(dev(t, "0000:5f:00.0")->driver, "nvme");
	nicfit_topo_free(t);
	/* nor the links: nothing says */
	sh_in(root, "find sys/devices -name driver -type l -exec rm {} +");
	t = load_root(root);
	assert_false(t->drivers_listed);
	assert_string_equal(dev(t, "0000:af:00.0")->driver, "");
	nicfit_topo_free(t);
	/* the drivers' directory alone says a function without a link has none */
	sh_in(root, "mkdir sys/bus/pci/drivers");
	t = load_root(root);
	assert_true(t->drivers_listed);
	nicfit_topo_free(t);
	rm_tree(root);
}

/*
 * local_cpus, the mask, where a tree has no local_cpulist: it places a
 * function without numa_node as the list does; a mask that is no mask is
 * a read problem and places nothing; one whose list is too long to hold
 * places nothing either, quietly, as a list too long does.
 */
static void numa_from_mask(void **state)
{
	struct nicfit_topo *t = load("sr665-copy");
	const struct nicfit_pcidev *d;
	char root[64];
	int i, bad = 0;

	(void)state;
	d = dev(t, "0000:01:00.0"); /* numa_node -1 */
	assert_true(d->have & NICFIT_HAVE_NUMA);
	assert_int_equal(d->numa_node, 0);
	d = dev(t, "0000:81:00.0"); /* no numa_node file */
	assert_false(d->have & NICFIT_HAVE_NUMA);
	assert_int_equal(d->numa_node, 1);
	assert_int_equal(t->nproblems, 0);
	nicfit_topo_free(t);
	copy_fixture("sr665-copy", root, sizeof(root));
	sh_in(root, "printf '0x0000ffff\\n' >sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/local_cpus"
	      " && printf '' >sys/devices/pci0000:80/0000:80:01.1/0000:81:00.0/local_cpus");
	t = load_root(root);
	assert_int_equal(dev(t, "0000:01:00.0")->numa_node, -1);
	assert_int_equal(dev(t, "0000:81:00.0")->numa_node, -1);
	for (i = 0; i < t->nproblems; i++)
		if (strstr(t->problems[i].path, "0000:01:00.0/local_cpus") &&
		    t->problems[i].st == NICFIT_SYSFS_MALFORMED)
			bad++;
	assert_int_equal(bad, 1);
	nicfit_topo_free(t);
	/* every other CPU of 2048: a list of 1024 CPUs, longer than a node's list can be */
	sh_in(root, "m=55555555; i=1; while [ $i -lt 64 ]; do m=$m,55555555; i=$((i + 1)); done; "
	      "echo $m >sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/local_cpus");
	t = load_root(root);
	assert_int_equal(dev(t, "0000:01:00.0")->numa_node, -1);
	for (i = 0; i < t->nproblems; i++)
		assert_null(strstr(t->problems[i].path, "0000:01:00.0/local_cpus"));
	nicfit_topo_free(t);
	/* a local_cpulist beside the mask is what is read */
	sh_in(root, "echo 16-31 >sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/local_cpulist");
	t = load_root(root);
	assert_int_equal(dev(t, "0000:01:00.0")->numa_node, 1);
	nicfit_topo_free(t);
	rm_tree(root);
}

static void every_fixture_loads(void **state)
{
	int i;

	(void)state;
	for (i = 0; fixture_names[i]; i++) {
		struct nicfit_topo *t = load(fixture_names[i]);

		assert_true(t->npci > 0);
		assert_true(t->nnuma >= 1);
		nicfit_topo_free(t);
	}
}

static void hand_built(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	int hb, rp, ep;

	(void)state;
	assert_non_null(t);
	hb = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	rp = nicfit_topo_add_pci(t, "0000:00:01.0", -1, hb);
	ep = nicfit_topo_add_pci(t, "0000:01:00.0", rp, hb);
	t->pci[rp].class_code = 0x060400;
	t->pci[ep].class_code = 0x030200;
	t->pci[rp].have = t->pci[ep].have = NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS;
	t->pci[ep].vendor = 0x1002;
	nicfit_topo_finish(t);
	assert_int_equal(t->pci[rp].port_type, NICFIT_PORT_ROOT);
	assert_int_equal(t->pci[ep].kind, NICFIT_DEV_GPU);
	assert_int_equal(t->pci[ep].depth, 1);
	assert_int_equal(nicfit_topo_numa_of(t, ep), 0);
	nicfit_topo_free(t);
}

/*
 * The add functions grow their arrays as they go: indexes stay valid
 * across growth, capacity keeps up with the count, and each array stops
 * at its NICFIT_TOPO_MAX_* limit with -1.
 */
static void hand_built_grows(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	char bdf[16], name[16];
	int hb, i, idx, parent = -1;

	(void)state;
	assert_non_null(t);
	hb = nicfit_topo_add_hostbridge(t, "pci0000:00", -1);
	for (i = 0; i < NICFIT_TOPO_MAX_PCI; i++) {
		snprintf(bdf, sizeof(bdf), "0000:%02x:%02x.%x", (i >> 8) & 0xff, (i >> 3) & 0x1f,
			 i & 7);
		idx = nicfit_topo_add_pci(t, bdf, i % 7 ? parent : -1, hb);
		assert_int_equal(idx, i);
		if (i % 7 == 0)
			parent = idx;
	}
	assert_true(t->alloc_pci >= (size_t)t->npci);
	assert_int_equal(nicfit_topo_add_pci(t, "0000:ff:1f.7", -1, hb), -1);
	assert_int_equal(nicfit_topo_find(t, "0000:01:00.0"), 256);
	assert_int_equal(t->pci[13].parent, 7);
	assert_int_equal(t->pci[13].depth, 1);
	for (i = 0; i < NICFIT_TOPO_MAX_NUMA; i++)
		assert_int_equal(nicfit_topo_add_numa(t, i, "0-1", i / 2), i);
	assert_int_equal(nicfit_topo_add_numa(t, 99, "", -1), -1);
	for (i = 0; i < NICFIT_TOPO_MAX_RDMA; i++) {
		snprintf(name, sizeof(name), "mlx5_%d", i);
		assert_int_equal(nicfit_topo_add_rdma(t, name, i), i);
	}
	assert_int_equal(nicfit_topo_add_rdma(t, "one_more", -1), -1);
	assert_string_equal(t->rdma[1000].name, "mlx5_1000");
	nicfit_topo_finish(t);
	assert_int_equal(t->npackages, NICFIT_TOPO_MAX_NUMA / 2);
	nicfit_topo_free(t);
}

static void pci_ids(void **state)
{
	const struct nicfit_pci_id *id;
	struct nicfit_pciids_query q[3];
	struct nicfit_error err;

	(void)state;
	id = nicfit__pci_id_find(0x10de, 0x26b9);
	assert_non_null(id);
	assert_string_equal(id->name, "NVIDIA L40S");
	assert_true(id->flags & NICFIT_PCIID_GPU);
	id = nicfit__pci_id_find(0x15b3, 0x101b);
	assert_near(id->max_port_gbps, 200, 0);
	assert_true(id->rdma & NICFIT_PCIID_IB);
	assert_true(nicfit__pci_id_find(0x15b3, 0x0218)->flags & NICFIT_PCIID_RECOVERY);
	assert_true(nicfit__pci_id_find(0x8086, 0x37d2)->flags & NICFIT_PCIID_INTERNAL);
	assert_true(nicfit__pci_id_find(0x1000, 0xc010)->flags & NICFIT_PCIID_SWITCH);
	assert_non_null(nicfit__pci_id_find(0x1000, 0xc010));
	assert_non_null(nicfit__pci_id_find(0x8086, 0x37d4));
	assert_null(nicfit__pci_id_find(0x10de, 0x0001));
	assert_null(nicfit__pci_id_find(0xffff, 0xffff));
	assert_true(nicfit__pci_vendor_is_bmc_vga(0x1a03));
	memset(q, 0, sizeof(q));
	q[0].vendor = 0x1da3;
	q[0].device = 0x1020;
	q[1].vendor = 0x10de;
	q[1].device = 0x15f8;
	q[2].vendor = 0x1234;
	q[2].device = 0x5678;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__pciids_lookup("tests/fixtures/pci.ids", q, 3, &err), 0);
	assert_string_equal(q[0].vendor_name, "Habana Labs Ltd.");
	assert_string_equal(q[0].device_name, "Gaudi2 AI Training Accelerator");
	assert_string_equal(q[1].device_name, "GP100GL [Tesla P100 PCIe 16GB]");
	assert_string_equal(q[2].device_name, "");
	assert_int_equal(nicfit__pciids_lookup("/nonexistent.ids", q, 3, &err), NICFIT_E_NOTFOUND);
}

/*
 * A link joined to a function's directory: the one-copy way for the
 * kernel's "../../x/y" gives what nicfit__path_join() gives, result and
 * return, at every capacity; the rest is left to it.
 */
static void link_join(void **state)
{
	static const struct {
		const char *dir, *link;
	} c[] = {
		{ "sys/bus/pci/devices", "../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0" },
		{ "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.2", "../0000:01:00.0" },
		{ "sys/devices/pci0000:00/0000:00:01.0", "../../../bus/pci/drivers/mlx5_core" },
		{ "a/b", "../../c" },          /* up to the root: left to path_join */
		{ "a/b", "../../../c" },       /* above it */
		{ "a/b/c", "../x/../y" },      /* ".." further on */
		{ "a/b/c", "../x/./y" },       /* "." */
		{ "a/b/c", "..//x" },          /* an empty component */
		{ "a/b/c", "../x/" },          /* a trailing '/' */
		{ "a/b/c", "../..x/.y" },      /* names that start with dots */
		{ "a/b/c", "../.." },
		{ "a/b/c", "x/y" },            /* no "../" */
		{ "a/b/c", "/x/y" },           /* absolute */
		{ "a/b/c", "../" },
		{ "a/b/c", "" },
	};
	char want[80], got[80];
	size_t i, cap;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (cap = 1; cap <= sizeof(got); cap++) {
			int rw, rg;

			memset(want, 'w', sizeof(want));
			memset(got, 'g', sizeof(got));
			rw = nicfit__path_join(want, cap, c[i].dir, c[i].link);
			rg = nicfit__topo_link_join(got, cap, c[i].dir, c[i].link);
			if (rw != rg || (!rw && strcmp(want, got)))
				fail_msg("%s + %s, cap %zu: %d \"%.*s\" for %d \"%.*s\"", c[i].dir,
					 c[i].link, cap, rg, (int)cap, got, rw, (int)cap, want);
		}
	assert_int_equal(nicfit__topo_link_join(got, sizeof(got), "sys/bus/pci/devices",
						"../../../devices/pci0000:00/0000:00:01.0"), 0);
	assert_string_equal(got, "sys/devices/pci0000:00/0000:00:01.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(r740xd),
		cmocka_unit_test(el7_old_formats_and_damage),
		cmocka_unit_test(hgx_config_vmd_vfs),
		cmocka_unit_test(reads_what_facts_need),
		cmocka_unit_test(links_from_config),
		cmocka_unit_test(amd_mi300x_node),
		cmocka_unit_test(x11_chipset_and_legacy),
		cmocka_unit_test(vm_and_old_kernel),
		cmocka_unit_test(nul_terminated_node_lists),
		cmocka_unit_test(driver_from_binding),
		cmocka_unit_test(packages_and_local_cpus),
		cmocka_unit_test(old_lists_and_offline_cpus),
		cmocka_unit_test(identity_from_copies),
		cmocka_unit_test(drivers_evidence),
		cmocka_unit_test(numa_from_mask),
		cmocka_unit_test(every_fixture_loads),
		cmocka_unit_test(hand_built),
		cmocka_unit_test(hand_built_grows),
		cmocka_unit_test(pci_ids),
		cmocka_unit_test(link_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
