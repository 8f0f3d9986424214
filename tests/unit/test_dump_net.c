/*
 * test_dump_net.c - ibstat, ibstatus, `rdma link`, show_gids, ip link, ip -j link, ethtool -i and
 * uname -a in a dump, from the real pastes under
 * tests/fixtures/dumps/public (see its README) and lines written here in
 * the tools' own formats: what lands in the host model, and the findings
 * and not_checked reasons the audit then gives.
 */
#include "unit.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"

#define PUB "tests/fixtures/dumps/public/"

/* Four Mellanox functions (mlx5_0..mlx5_3 in PCI order) and an Intel X710 at d8:00.0. */
static const char lspci[] =
	"0000:3b:00.0 Ethernet controller [0200]: Mellanox Technologies MT2892 Family [ConnectX-6 Dx] [15b3:101d]\n"
	"\n"
	"0000:3b:00.1 Ethernet controller [0200]: Mellanox Technologies MT2892 Family [ConnectX-6 Dx] [15b3:101d]\n"
	"\n"
	"0000:af:00.0 Ethernet controller [0200]: Mellanox Technologies MT27710 Family [ConnectX-4 Lx] [15b3:1015]\n"
	"\n"
	"0000:af:00.1 Ethernet controller [0200]: Mellanox Technologies MT27710 Family [ConnectX-4 Lx] [15b3:1015]\n"
	"\n"
	"0000:d8:00.0 Ethernet controller [0200]: Intel Corporation Ethernet Controller XXV710 for 25GbE SFP28 [8086:158b] (rev 02)\n"
	"\n";

struct run {
	struct nicfit_dump *d;
	struct nicfit_topo *t;
	struct nicfit_audit *a;
};

static void read_all(struct run *r, const char *const *paths, const char *extra)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	memset(r, 0, sizeof(*r));
	assert_int_equal(nicfit_dump_new(&r->d), 0);
	assert_int_equal(nicfit_dump_add_text(r->d, "lspci", lspci, strlen(lspci), &err), 0);
	for (; paths && *paths; paths++)
		assert_int_equal(nicfit_dump_add_path(r->d, *paths, &err), 0);
	if (extra)
		assert_int_equal(nicfit_dump_add_text(r->d, "paste", extra, strlen(extra), &err), 0);
	assert_int_equal(nicfit_dump_topo(r->d, &r->t, &err), 0);
	assert_int_equal(nicfit_audit_judge(r->t, NULL, NULL, &r->a, &err), 0);
	assert_int_equal(nicfit_dump_judge(r->d, r->a, &err), 0);
}

static void done(struct run *r)
{
	nicfit_audit_free(r->a);
	nicfit_topo_free(r->t);
	nicfit_dump_free(r->d);
}

static const struct nicfit_rdmadev *rdma(const struct run *r, const char *name)
{
	int i;

	for (i = 0; i < r->t->nrdma; i++)
		if (!strcmp(r->t->rdma[i].name, name))
			return &r->t->rdma[i];
	return NULL;
}

static const struct nicfit_netdev *net(const struct run *r, const char *name)
{
	int i;

	for (i = 0; i < r->t->nnet; i++)
		if (!strcmp(r->t->net[i].name, name))
			return &r->t->net[i];
	return NULL;
}

static const struct nicfit_finding *finding(const struct run *r, const char *code,
					    const char *device)
{
	size_t i;

	for (i = 0; i < r->a->findings.n; i++)
		if (!strcmp(r->a->findings.v[i].code, code) &&
		    (!device || !strcmp(r->a->findings.v[i].device, device)))
			return &r->a->findings.v[i];
	return NULL;
}

static int not_checked(const struct run *r, const char *check)
{
	size_t i;

	for (i = 0; i < r->a->nnot_checked; i++)
		if (!strcmp(r->a->not_checked[i].check, check))
			return 1;
	return 0;
}

/* l2fwd-nv#6: two active RoCE ports, their CA type and firmware; no GIDs, no MTU. */
static void ibstat_public(void **state)
{
	const char *const p[] = { PUB "l2fwd-nv-6-ibstat.txt", NULL };
	const struct nicfit_rdmadev *m;
	struct run r;

	(void)state;
	read_all(&r, p, NULL);
	assert_true(nicfit_dump_formats(r.d) & NICFIT_DUMP_RDMA);
	m = rdma(&r, "mlx5_1");
	assert_non_null(m);
	assert_string_equal(r.t->pci[m->pci].bdf, "0000:3b:00.1");
	assert_string_equal(m->hca_type, "MT4125");
	assert_string_equal(m->fw_ver, "22.32.2004");
	assert_int_equal(m->nports, 1);
	assert_int_equal(m->ports[0].state, 4);
	assert_string_equal(m->ports[0].state_name, "ACTIVE");
	assert_int_equal(m->ports[0].phys_state, 5);
	assert_string_equal(m->ports[0].link_layer, "Ethernet");
	assert_false(m->ports[0].have_rate); /* "Rate: 100" has no width */
	assert_true(not_checked(&r, "roce_gids"));
	assert_true(not_checked(&r, "roce_mtu"));
	assert_false(not_checked(&r, "rdma_ports"));
	assert_false(not_checked(&r, "ib_rate")); /* Ethernet ports */
	done(&r);
}

/* network-operator#249: an InfiniBand port Down with its link up, cited at its CA line. */
static void ibstat_down_public(void **state)
{
	const char *const p[] = { PUB "network-operator-249-ibstat.txt", NULL };
	const char *text = "CA 'mlx5_0'\n\tCA type: MT4123\n\tPort 1:\n\t\tState: Down\n"
			   "\t\tPhysical state: Polling\n\t\tRate: 10\n\t\tLink layer: InfiniBand\n";
	const struct nicfit_finding *f;
	struct run r;

	(void)state;
	read_all(&r, p, text);
	/* mlx5_7: no eighth Mellanox function here, so in the records only */
	assert_null(rdma(&r, "mlx5_7"));
	assert_string_equal(r.d->rdma[0].name, "mlx5_7");
	assert_int_equal(r.d->rdma[0].ports[0].state, 1);
	assert_int_equal(r.d->rdma[0].ports[0].phys, 5);
	assert_int_equal(r.d->rdma[0].ports[0].ibstat_rate, 200);
	f = finding(&r, "rdma-port-down", "mlx5_0");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "no link partner"));
	assert_non_null(strstr(f->message, "(from paste:1)"));
	assert_true(not_checked(&r, "ib_rate"));
	done(&r);
}

/* nccl#1573: GIDs 4-7 per port; v2 at 7 routable; the table's interface names. */
static void gids_public(void **state)
{
	const char *const p[] = { PUB "nccl-1573-show-gids.txt", PUB "l2fwd-nv-6-ibstat.txt", NULL };
	const struct nicfit_rdma_port *pt;
	struct run r;

	(void)state;
	read_all(&r, p, NULL);
	pt = &rdma(&r, "mlx5_0")->ports[0];
	assert_int_equal(pt->ngids, 4);
	assert_int_equal(pt->ngid_v1, 2);
	assert_int_equal(pt->ngid_v2, 2);
	assert_int_equal(pt->ngid_v2_routable, 1);
	assert_int_equal(pt->gid_v2_index, 7);
	assert_true(pt->gid_types_known);
	assert_int_equal(pt->state, 4); /* ibstat, read after */
	assert_non_null(net(&r, "net2"));
	assert_int_equal(net(&r, "net2")->pci, rdma(&r, "mlx5_1")->pci);
	assert_null(finding(&r, "roce-no-routable-gid", NULL));
	assert_false(not_checked(&r, "roce_gids"));
	done(&r);
}

/* Only link-local and v1 GIDs on an active RoCE port: roce-no-routable-gid; a table pasted twice counts once. */
static void gids_not_routable(void **state)
{
	const char *text =
		"CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tLink layer: Ethernet\n"
		"DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
		"---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n"
		"mlx5_0\t1\t0\tfe80:0000:0000:0000:a4ed:ccff:fe8b:1994\t\t\tv1\tens1f0\n"
		"mlx5_0\t1\t1\tfe80:0000:0000:0000:a4ed:ccff:fe8b:1994\t\t\tv2\tens1f0\n"
		"mlx5_0\t1\t2\t0000:0000:0000:0000:0000:ffff:0a98:000c\t10.152.0.12  \tv1\tens1f0\n"
		"n_gids_found=3\n"
		"\n"
		"DEV PORT INDEX GID IPv4 VER DEV\n"
		"mlx5_0 1 1 fe80:0000:0000:0000:a4ed:ccff:fe8b:1994 v2 ens1f0\n";
	const struct nicfit_rdma_port *pt;
	const struct nicfit_finding *f;
	struct run r;

	(void)state;
	read_all(&r, NULL, text);
	pt = &rdma(&r, "mlx5_0")->ports[0];
	assert_int_equal(pt->ngids, 3);
	assert_int_equal(pt->ngid_v2, 1);
	assert_int_equal(pt->ngid_v2_routable, 0);
	f = finding(&r, "roce-no-routable-gid", "mlx5_0");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "(from paste:1)"));
	done(&r);
}

/* ucx#9484: spaces for tabs, a bond's device name, two interfaces on one port (the first kept). */
static void gids_bond_public(void **state)
{
	const char *const p[] = { PUB "ucx-9484-show-gids.txt", NULL };
	struct nicfit_dump *d;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_path(d, p[0], &err), 0);
	assert_int_equal(d->nrdma, 1);
	assert_string_equal(d->rdma[0].name, "mlx5_bond_0");
	assert_int_equal(d->rdma[0].ports[0].ngids, 6);
	assert_int_equal(d->rdma[0].ports[0].ngid_v2_routable, 2);
	assert_int_equal(d->rdma[0].ports[0].gid_v2_index, 3);
	assert_string_equal(d->rdma[0].netdev[0], "bond1");
	nicfit_dump_free(d);
}

/* ip link of netlab#1750: MTU, state, carrier, types; lo is virtual. */
static void ip_link_public(void **state)
{
	const char *const p[] = { PUB "netlab-1750-ip-link.txt", NULL };
	struct run r;

	(void)state;
	read_all(&r, p, NULL);
	assert_true(nicfit_dump_formats(r.d) & NICFIT_DUMP_NET);
	assert_int_equal(net(&r, "swp1")->mtu, 9216);
	assert_string_equal(net(&r, "swp1")->operstate, "up");
	assert_int_equal(net(&r, "swp1")->carrier, 1);
	assert_int_equal(net(&r, "swp1")->type, 1);
	assert_int_equal(net(&r, "swp1")->pci, -1);
	assert_true(net(&r, "lo")->is_virtual);
	assert_int_equal(net(&r, "lo")->type, 772);
	assert_true(not_checked(&r, "interfaces"));
	done(&r);
}

/* Old iproute (trinity#187) and `ip link | grep mtu` (kube-ovn#4254): no link/ lines, NO-CARRIER. */
static void ip_link_short_public(void **state)
{
	const char *const p[] = { PUB "trinity-187-ip-link.txt", PUB "kube-ovn-4254-ip-link.txt",
				  NULL };
	struct run r;

	(void)state;
	read_all(&r, p, NULL);
	assert_int_equal(net(&r, "ib0")->mtu, 4092);
	assert_string_equal(net(&r, "ib0")->operstate, "down");
	assert_int_equal(net(&r, "ib0")->carrier, -1); /* admin down: no carrier to read */
	assert_int_equal(net(&r, "eno8303")->carrier, 0);
	assert_int_equal(net(&r, "ens6f1")->carrier, 1);
	assert_string_equal(r.d->net[1].name, "eno1");
	assert_int_equal(r.d->net[1].at.line, 4);
	done(&r);
}

/* ip -j addr of pocframe's test: JSON over several lines; linked (veth) and loopback are virtual. */
static void ip_json_public(void **state)
{
	const char *const p[] = { PUB "pocframe-ip-j-addr.txt", NULL };
	const char *one = "$ ip -j link\n[{\"ifindex\":2,\"ifname\":\"enp175s0f1np1\",\"flags\":"
			  "[\"BROADCAST\",\"MULTICAST\",\"UP\",\"LOWER_UP\"],\"mtu\":1500,"
			  "\"operstate\":\"UP\",\"link_type\":\"ether\"}]\n";
	struct run r;

	(void)state;
	read_all(&r, p, one);
	assert_true(net(&r, "veth0")->is_virtual);
	assert_true(net(&r, "lo")->is_virtual);
	assert_string_equal(net(&r, "lo")->operstate, "down");
	assert_int_equal(net(&r, "veth0-peer")->mtu, 1500);
	assert_int_equal(r.d->net[2].at.line, 4);
	/* systemd's name: bus 175 = 0xaf, function 1 */
	assert_string_equal(r.t->pci[net(&r, "enp175s0f1np1")->pci].bdf, "0000:af:00.1");
	assert_int_equal(net(&r, "enp175s0f1np1")->carrier, 1);
	assert_false(not_checked(&r, "interfaces"));
	done(&r);
}

/* ethq#8 and openshift-checks#22: the prompt names the interface, bus-info places it. */
static void ethtool_public(void **state)
{
	const char *const p[] = { PUB "ethq-8-ethtool-i.txt", PUB "openshift-checks-22-ethtool-i.txt",
				  PUB "k8s-sriov-30-ethtool-veth.txt", NULL };
	const char *ib = "CA 'mlx5_2'\n\tFirmware version: \n\tPort 1:\n\t\tState: Down\n";
	struct run r;
	int pci;

	(void)state;
	read_all(&r, p, ib);
	pci = net(&r, "p3p1")->pci;
	assert_string_equal(r.t->pci[pci].bdf, "0000:af:00.0");
	assert_string_equal(r.t->pci[pci].driver, "mlx5_core");
	assert_string_equal(rdma(&r, "mlx5_2")->fw_ver, "14.23.1020");
	assert_string_equal(r.t->pci[net(&r, "ens3f0")->pci].driver, "i40e");
	assert_true(net(&r, "eth0")->is_virtual);
	assert_int_equal(net(&r, "eth0")->pci, -1);
	assert_int_equal(r.d->net[0].at.line, 5);
	done(&r);
}

/* A sosreport names the file after the command; the PSID in firmware-version is the board id. */
static void ethtool_sos_name(void **state)
{
	const char *text = "driver: mlx5_core\nversion: 5.0-0\n"
			   "firmware-version: 16.27.2008 (MT_0000000012)\n"
			   "bus-info: 0000:3b:00.0\nsupports-statistics: yes\n";
	struct nicfit_error err;
	struct run r;

	(void)state;
	nicfit_error_clear(&err);
	memset(&r, 0, sizeof(r));
	assert_int_equal(nicfit_dump_new(&r.d), 0);
	assert_int_equal(nicfit_dump_add_text(r.d, "lspci", lspci, strlen(lspci), &err), 0);
	assert_int_equal(nicfit_dump_add_text(r.d, "sos/sos_commands/ibstat", "CA 'mlx5_0'\n", 12,
					      &err), 0);
	assert_int_equal(nicfit_dump_add_text(r.d, "sos_commands/networking/ethtool_-i_ens1f0np0",
					      text, strlen(text), &err), 0);
	assert_int_equal(nicfit_dump_topo(r.d, &r.t, &err), 0);
	assert_int_equal(net(&r, "ens1f0np0")->pci, rdma(&r, "mlx5_0")->pci);
	assert_string_equal(rdma(&r, "mlx5_0")->fw_ver, "16.27.2008");
	assert_string_equal(rdma(&r, "mlx5_0")->board_id, "MT_0000000012");
	nicfit_topo_free(r.t);
	nicfit_dump_free(r.d);
}

/* uname -a: kernel release and host name; other "Linux" lines are not it. */
static void uname_lines(void **state)
{
	const char *text = "Linux version 5.15.0-91-generic (buildd@lcy02) #101-Ubuntu SMP\n"
			   "Linux gpu-07 5.15.0-91-generic #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC "
			   "2023 x86_64 x86_64 x86_64 GNU/Linux\n";
	struct run r;

	(void)state;
	read_all(&r, NULL, text);
	assert_true(nicfit_dump_formats(r.d) & NICFIT_DUMP_HOST);
	assert_string_equal(r.t->kernel, "5.15.0-91-generic");
	assert_string_equal(r.t->hostname, "gpu-07");
	assert_int_equal(r.d->kernel_at.line, 2);
	done(&r);
}

/* Two GPUs under one switch, a third on the other socket (PCIe only, no NVLink). */
static const char gpus[] =
	"0000:16:01.0 PCI bridge [0604]: Intel Corporation Device [8086:352a] (rev 04)\n"
	"\tBus: primary=16, secondary=17, subordinate=1a, sec-latency=0\n"
	"\tNUMA node: 0\n"
	"\n"
	"0000:17:00.0 PCI bridge [0604]: Broadcom / LSI PEX890xx PCIe Gen 5 Switch [1000:c030] (rev b0)\n"
	"\tBus: primary=17, secondary=18, subordinate=1a, sec-latency=0\n"
	"\n"
	"0000:18:00.0 PCI bridge [0604]: Broadcom / LSI PEX890xx PCIe Gen 5 Switch [1000:c030] (rev b0)\n"
	"\tBus: primary=18, secondary=19, subordinate=19, sec-latency=0\n"
	"\n"
	"0000:18:01.0 PCI bridge [0604]: Broadcom / LSI PEX890xx PCIe Gen 5 Switch [1000:c030] (rev b0)\n"
	"\tBus: primary=18, secondary=1a, subordinate=1a, sec-latency=0\n"
	"\n"
	"0000:19:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)\n"
	"\tNUMA node: 0\n"
	"\n"
	"0000:1a:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)\n"
	"\tNUMA node: 0\n"
	"\n"
	"0000:98:01.0 PCI bridge [0604]: Intel Corporation Device [8086:352a] (rev 04)\n"
	"\tBus: primary=98, secondary=99, subordinate=99, sec-latency=0\n"
	"\tNUMA node: 1\n"
	"\n"
	"0000:99:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)\n"
	"\tNUMA node: 1\n"
	"\n";

static void smi_run(struct run *r, const char *matrix)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	memset(r, 0, sizeof(*r));
	assert_int_equal(nicfit_dump_new(&r->d), 0);
	assert_int_equal(nicfit_dump_add_text(r->d, "lspci", gpus, strlen(gpus), &err), 0);
	assert_int_equal(nicfit_dump_add_text(r->d, "topo", matrix, strlen(matrix), &err), 0);
	assert_int_equal(nicfit_dump_topo(r->d, &r->t, &err), 0);
	assert_int_equal(nicfit_audit_judge(r->t, NULL, NULL, &r->a, &err), 0);
	assert_int_equal(nicfit_dump_judge(r->d, r->a, &err), 0);
}

/* nvidia-smi's GPU-GPU cells against the PCI tree: agreeing, differing, NVLink apart. */
static void smi_gpu_cells(void **state)
{
	const char *same = "\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\n"
			   "GPU0\t X \tPIX\tSYS\t0-15\t0\n"
			   "GPU1\tPIX\t X \tSYS\t0-15\t0\n"
			   "GPU2\tSYS\tSYS\t X \t16-31\t1\n";
	const char *differ = "\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\n"
			     "GPU0\t X \tPXB\tSYS\t0-15\t0\n"
			     "GPU1\tPXB\t X \tSYS\t0-15\t0\n"
			     "GPU2\tSYS\tSYS\t X \t16-31\t1\n";
	const char *nvlink = "\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\n"
			     "GPU0\t X \tNV4\tSYS\t0-15\t0\n"
			     "GPU1\tNV4\t X \tSYS\t0-15\t0\n"
			     "GPU2\tSYS\tSYS\t X \t16-31\t1\n";
	const struct nicfit_finding *f;
	struct run r;

	(void)state;
	smi_run(&r, same);
	f = finding(&r, "dump-topo-agrees", NULL);
	assert_non_null(f);
	assert_non_null(strstr(f->message, "agree on all 3 GPU-GPU pairs."));
	assert_null(finding(&r, "dump-topo-mismatch", NULL));
	done(&r);

	smi_run(&r, differ);
	f = finding(&r, "dump-topo-mismatch", "0000:19:00.0");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "(topo:2) puts GPU0 and GPU1 at PXB"));
	assert_non_null(strstr(f->message, "puts 0000:19:00.0 and 0000:1a:00.0 at PIX"));
	assert_null(finding(&r, "dump-topo-agrees", NULL));
	done(&r);

	smi_run(&r, nvlink);
	f = finding(&r, "dump-topo-agrees", NULL);
	assert_non_null(f);
	assert_non_null(strstr(f->message, "2 GPU-GPU pairs")); /* the NV4 pair is not counted */
	assert_true(not_checked(&r, "nvlink"));
	done(&r);
}

/* ibstatus: the sysfs texts "4: ACTIVE" and "100 Gb/sec (4X EDR)", one block a port. */
static void ibstatus_lines(void **state)
{
	const char *text =
		"Infiniband device 'mlx5_0' port 1 status:\n"
		"        default gid:     fe80:0000:0000:0000:0202:c9ff:fe00:0001\n"
		"        base lid:        0x0\n"
		"        sm lid:          0x0\n"
		"        state:           4: ACTIVE\n"
		"        phys state:      5: LinkUp\n"
		"        rate:            100 Gb/sec (4X EDR)\n"
		"        link_layer:      Ethernet\n"
		"\n"
		"Infiniband device 'mlx5_2' port 1 status:\n"
		"        state:           1: DOWN\n"
		"        phys state:      2: Polling\n"
		"        rate:            200 Gb/sec (4X HDR)\n"
		"        link_layer:      InfiniBand\n"
		"\n"
		"Infiniband device 'rxe0' port 1 status:\n"
		"        rate:            2.5 Gb/sec (1X SDR)\n"
		"        b\n";
	const struct nicfit_rdmadev *m;
	struct run r;

	(void)state;
	read_all(&r, NULL, text);
	assert_true(nicfit_dump_formats(r.d) & NICFIT_DUMP_RDMA);
	m = rdma(&r, "mlx5_0");
	assert_non_null(m);
	assert_string_equal(r.t->pci[m->pci].bdf, "0000:3b:00.0"); /* by name order */
	assert_int_equal(m->nports, 1);
	assert_int_equal(m->ports[0].state, 4);
	assert_int_equal(m->ports[0].phys_state, 5);
	assert_string_equal(m->ports[0].link_layer, "Ethernet");
	assert_true(m->ports[0].have_rate);
	m = rdma(&r, "mlx5_2");
	assert_non_null(m);
	assert_int_equal(m->ports[0].state, 1);
	assert_int_equal(m->ports[0].phys_state, 2);
	assert_true(m->ports[0].have_rate);
	assert_non_null(finding(&r, "rdma-port-down", NULL));
	assert_int_equal(r.d->rdma[2].ports[0].width, 1); /* rxe0: 2.5 Gb/s on one lane */
	assert_int_equal(r.d->rdma[2].ports[0].state, -1); /* the block was cut */
	assert_true(r.d->rdma[2].from_ibstatus);
	done(&r);
}

/* iproute2's `rdma link`: states in its own names, the netdev, words it does not need. */
static void rdmatool_lines(void **state)
{
	const char *text =
		"link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 3403 sm_lid 1 lmc 0 "
		"state DOWN physical_state POLLING\n"
		"link mlx5_1/1 state ACTIVE physical_state LINK_UP netdev p1p2 \n"
		"link mlx5_1/x state DOWN\n"   /* not a port: not a line of rdma link */
		"link/ether 9c:63:c0:c5:47:a4 brd ff:ff:ff:ff:ff:ff\n";
	const struct nicfit_rdmadev *m;
	struct run r;

	(void)state;
	read_all(&r, NULL, text);
	m = rdma(&r, "mlx5_0");
	assert_non_null(m);
	assert_int_equal(m->ports[0].state, 1);
	assert_int_equal(m->ports[0].phys_state, 2);
	assert_false(m->ports[0].have_rate);
	m = rdma(&r, "mlx5_1");
	assert_non_null(m);
	assert_int_equal(m->nports, 1);
	assert_int_equal(m->ports[0].state, 4);
	assert_int_equal(m->ports[0].phys_state, 5);
	assert_string_equal(r.d->rdma[1].netdev[0], "p1p2");
	assert_true(r.d->rdma[1].from_rdmatool);
	assert_int_equal((int)r.d->nrdma, 2);
	done(&r);
}

/* MFT's mst status -v: each RDMA device on its function, its interface; a row without one. */
static void mst_rows(void **state)
{
	const char *text =
		"DEVICE_TYPE             MST                           PCI       RDMA            NET                       NUMA  \n"
		"ConnectX6DX(rev:0)      /dev/mst/mt4125_pciconf0      af:00.0   mlx5_0          net-ens1f0np0             1  \n"
		"ConnectX6DX(rev:0)      /dev/mst/mt4125_pciconf0.1    3b:00.1   mlx5_1          net-ens2f1np1             0\n"
		"ConnectX7(rev:0)        /dev/mst/mt4129_pciconf1      d8:00.0                                             1\n";
	const struct nicfit_rdmadev *m;
	struct run r;

	(void)state;
	read_all(&r, NULL, text);
	m = rdma(&r, "mlx5_0");
	assert_non_null(m);
	assert_string_equal(r.t->pci[m->pci].bdf, "0000:af:00.0"); /* not by name order */
	m = rdma(&r, "mlx5_1");
	assert_non_null(m);
	assert_string_equal(r.t->pci[m->pci].bdf, "0000:3b:00.1");
	assert_string_equal(r.d->rdma[0].netdev[0], "ens1f0np0");
	assert_int_equal((int)r.d->nrdma, 2);
	done(&r);
}

/* ethtool IF: the negotiated speed and the link, from a ConnectX-6 Dx port at 25 GbE. */
static void ethtool_settings(void **state)
{
	const char *text =
		"# ethtool enp59s0f0np0\n"
		"Settings for enp59s0f0np0:\n"
		"\tSupported ports: [ Backplane ]\n"
		"\tSupported link modes:   1000baseKX/Full\n"
		"\t                        100000baseCR4/Full\n"
		"\tSpeed: 25000Mb/s\n"
		"\tDuplex: Full\n"
		"\tLink detected: yes\n"
		"Settings for enp59s0f1np1:\n"
		"\tSpeed: Unknown!\n"
		"\tLink detected: no\n";
	const struct nicfit_netdev *n;
	struct run r;

	(void)state;
	read_all(&r, NULL, text);
	n = net(&r, "enp59s0f0np0");
	assert_non_null(n);
	assert_int_equal(n->speed_mbps, 25000);
	assert_int_equal(n->carrier, 1);
	assert_string_equal(r.t->pci[n->pci].bdf, "0000:3b:00.0"); /* by its predictable name */
	n = net(&r, "enp59s0f1np1");
	assert_non_null(n);
	assert_true(n->speed_mbps <= 0);
	assert_int_equal(n->carrier, 0);
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ibstat_public),
		cmocka_unit_test(ibstat_down_public),
		cmocka_unit_test(ibstatus_lines),
		cmocka_unit_test(rdmatool_lines),
		cmocka_unit_test(mst_rows),
		cmocka_unit_test(ethtool_settings),
		cmocka_unit_test(gids_public),
		cmocka_unit_test(gids_not_routable),
		cmocka_unit_test(gids_bond_public),
		cmocka_unit_test(ip_link_public),
		cmocka_unit_test(ip_link_short_public),
		cmocka_unit_test(ip_json_public),
		cmocka_unit_test(ethtool_public),
		cmocka_unit_test(ethtool_sos_name),
		cmocka_unit_test(uname_lines),
		cmocka_unit_test(smi_gpu_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
