/*
 * test_dump.c - the dump reader: lspci -vvv blocks (as root and not, with
 * and without -nn and -D, wrapped and prompted), lspci -t trees,
 * nvidia-smi's matrix and bus ids, and the audit additions (the matrix
 * against the tree, facts the dump lacks). The inline texts are written
 * for these tests in the layout pciutils 3.9 and nvidia-smi print; the
 * real pastes are under tests/fixtures/dumps/public (see its README).
 */
#include "unit.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"
#include "nicfit/file.h"

/* A root listing with -nn -D -k: a root port, a switch and a GPU, pasted after a prompt. */
static const char root_vvv[] =
	"user@gpu07:~$ sudo lspci -vvv -nn -D -k\n"
	"[sudo] password for user:\n"
	"0000:16:01.0 PCI bridge [0604]: Intel Corporation Device [8086:352a] (rev 04) (prog-if 00 [Normal decode])\n"
	"\tNUMA node: 0\n"
	"\tBus: primary=16, secondary=17, subordinate=1b, sec-latency=0\n"
	"\tCapabilities: [40] Express (v2) Root Port (Slot+), MSI 00\n"
	"\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
	"\t\tLnkSta:\tSpeed 16GT/s, Width x16\n"
	"\tKernel driver in use: pcieport\n"
	"\n"
	"0000:17:00.0 PCI bridge [0604]: Broadcom / LSI PEX88096 PCIe Gen 4 Switch [1000:c010] (rev b0)\n"
	"\tBus: primary=17, secondary=18, subordinate=1b, sec-latency=0\n"
	"\tCapabilities: [68] Express (v2) Upstream Port, MSI 00\n"
	"\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM L1, Exit Latency L1 <4us\n"
	"\t\tLnkSta:\tSpeed 16GT/s, Width x16\n"
	"\tCapabilities: [100 v1] Access Control Services\n"
	"\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+\n"
	"\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd- EgressCtrl- DirectTrans-\n"
	"\n"
	"0000:18:08.0 PCI bridge [0604]: Broadcom / LSI PEX88096 PCIe Gen 4 Switch [1000:c010] (rev b0)\n"
	"\tBus: primary=18, secondary=19, subordinate=19, sec-latency=0\n"
	"\tCapabilities: [68] Express (v2) Downstream Port (Slot+), MSI 00\n"
	"\t\tLnkCap:\tPort #8, Speed 16GT/s, Width x16, ASPM L1, Exit Latency L1 <4us\n"
	"\t\tLnkSta:\tSpeed 2.5GT/s (downgraded), Width x16 (ok)\n"
	"\n"
	"0000:19:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 PCIe 40GB]\n"
	"[10de:20f1] (rev a1)\n"
	"\tSubsystem: NVIDIA Corporation Device [10de:145f]\n"
	"\tPhysical Slot: 3\n"
	"\tNUMA node: 0\n"
	"\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
	"\t\tDevCap:\tMaxPayload 256 bytes, PhantFunc 0, Latency L0s unlimited, L1 64us\n"
	"\t\tDevCtl:\tCorrErr- NonFatalErr+ FatalErr+ UnsupReq-\n"
	"\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+ FLReset-\n"
	"\t\t\tMaxPayload 256 bytes, MaxReadReq 512 bytes\n"
	"\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
	"\t\tLnkSta:\tSpeed 2.5GT/s (downgraded), Width x16 (ok)\n"
	"\t\tLnkCap2: Supported Link Speeds: 2.5-16GT/s, Crosslink- Retimer+ 2Retimers+ DRS-\n"
	"\tCapabilities: [bcc v1] Single Root I/O Virtualization (SR-IOV)\n"
	"\t\tIOVCap:\tMigration-, Interrupt Message Number: 000\n"
	"\t\tInitial VFs: 16, Total VFs: 16, Number of VFs: 0, Function Dependency Link: 00\n"
	"\tKernel driver in use: nvidia\n"
	"\tKernel modules: nvidiafb, nouveau, nvidia_drm, nvidia\n";

static struct nicfit_topo *read_text(const char *text, struct nicfit_dump **out)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "paste", text, strlen(text), &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), 0);
	*out = d;
	return t;
}

static struct nicfit_topo *read_file(const char *path, struct nicfit_dump **out)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_path(d, path, &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), 0);
	*out = d;
	return t;
}

static void lspci_root(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(root_vvv, &d);
	int rp = nicfit_topo_find(t, "0000:16:01.0"), up = nicfit_topo_find(t, "0000:17:00.0");
	int dn = nicfit_topo_find(t, "0000:18:08.0"), g = nicfit_topo_find(t, "0000:19:00.0");
	const struct nicfit_pcidev *p;

	(void)state;
	assert_int_equal(t->npci, 4);
	assert_true(rp >= 0 && up >= 0 && dn >= 0 && g >= 0);
	assert_int_equal(t->pci[rp].parent, -1);
	assert_string_equal(t->hb[t->pci[rp].hostbridge].name, "pci0000:16");
	assert_int_equal(t->pci[up].parent, rp);
	assert_int_equal(t->pci[dn].parent, up);
	assert_int_equal(t->pci[g].parent, dn);
	assert_int_equal(t->pci[up].acs, 1);
	assert_int_equal(t->pci[up].acs_ctrl, 0x0d); /* SrcValid, ReqRedir, CmpltRedir */
	assert_int_equal(t->pci[up].port_type, NICFIT_PORT_UPSTREAM);
	p = &t->pci[g];
	assert_int_equal(p->kind, NICFIT_DEV_GPU);
	/* the header's IDs were on the line the paste wrapped */
	assert_int_equal(p->vendor, 0x10de);
	assert_int_equal(p->device, 0x20f1);
	assert_int_equal(p->class_code, 0x030200);
	assert_int_equal(p->subdevice, 0x145f);
	assert_string_equal(p->slot, "3");
	assert_int_equal(p->numa_node, 0);
	assert_true(p->cur_gts > 2.49 && p->cur_gts < 2.51);
	assert_true(p->max_gts > 15.9 && p->max_gts < 16.1);
	assert_int_equal(p->cur_width, 16);
	assert_int_equal(p->max_width, 16);
	assert_int_equal(p->mps, 256);
	assert_int_equal(p->mps_cap, 256);
	assert_int_equal(p->mrrs, 512);
	assert_int_equal(p->sriov_totalvfs, 16);
	assert_int_equal(p->sriov_numvfs, 0);
	assert_string_equal(p->driver, "nvidia");
	assert_int_equal(t->privileged, 1);
	assert_true(nicfit__dump_find(d, "0000:19:00.0")->downgraded);
	assert_int_equal(nicfit__dump_find(d, "0000:19:00.0")->at.line, 26);
	assert_true(d->nmangled >= 2); /* the prompt and the password line */
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* Without -nn and -D: the class and vendor from their names, no IDs, domain 0000. */
static void lspci_names_only(void **state)
{
	static const char text[] =
		"17:00.0 3D controller: NVIDIA Corporation GA100 [A100 PCIe 40GB] (rev a1)\n"
		"\tNUMA node: 1\n"
		"31:00.1 Ethernet controller: Mellanox Technologies MT28908 Family [ConnectX-6]\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(text, &d);
	int g = nicfit_topo_find(t, "0000:17:00.0"), n = nicfit_topo_find(t, "0000:31:00.1");

	(void)state;
	assert_true(g >= 0 && n >= 0);
	assert_int_equal(t->pci[g].class_code, 0x030200);
	assert_int_equal(t->pci[g].vendor, 0x10de);
	assert_false(t->pci[g].have & NICFIT_HAVE_IDS);
	assert_int_equal(t->pci[g].kind, NICFIT_DEV_GPU);
	assert_int_equal(t->pci[n].kind, NICFIT_DEV_NIC);
	assert_int_equal(t->pci[n].vendor, 0x15b3);
	assert_int_equal(t->pci[g].numa_node, 1);
	assert_false(nicfit__dump_find(d, "0000:17:00.0")->driver_known);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* lspci -n and -vvn: class and IDs in hex, no names. */
static void lspci_numeric(void **state)
{
	static const char text[] =
		"41:00.0 0207: 15b3:1021\n"
		"\tNUMA node: 0\n"
		"17:00.0 0302: 10de:2330 (rev a1)\n"
		"18:00.0 0207: 15b3\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(text, &d);
	int n = nicfit_topo_find(t, "0000:41:00.0"), g = nicfit_topo_find(t, "0000:17:00.0");

	(void)state;
	assert_true(n >= 0 && g >= 0);
	assert_int_equal(t->pci[n].vendor, 0x15b3);
	assert_int_equal(t->pci[n].device, 0x1021);
	assert_int_equal(t->pci[n].class_code, 0x020700);
	assert_true(t->pci[n].have & NICFIT_HAVE_IDS);
	assert_int_equal(t->pci[n].numa_node, 0);
	assert_int_equal(t->pci[g].kind, NICFIT_DEV_GPU);
	assert_int_equal(t->pci[g].device, 0x2330);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* A bare prompt right under a header is the next command, not the header's wrapped end. */
static void lspci_then_prompt(void **state)
{
	static const char text[] =
		"[root@node75 ~]# lspci |grep net\n"
		"86:00.1 Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]\n"
		"[root@node75 ~]# \n"
		"86:00.0 Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]\n"
		"root@h:~/x# ibstatus\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(text, &d);
	int a = nicfit_topo_find(t, "0000:86:00.1"), b = nicfit_topo_find(t, "0000:86:00.0");

	(void)state;
	assert_true(a >= 0 && b >= 0);
	assert_string_equal(nicfit__dump_find(d, "0000:86:00.1")->name, "Mellanox Technologies MT2892 Family [ConnectX-6 Dx]");
	assert_string_equal(nicfit__dump_find(d, "0000:86:00.0")->name, "Mellanox Technologies MT2892 Family [ConnectX-6 Dx]");
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* A real non-root paste: spaces for tabs, a Markdown fence, a cut last line. */
static void lspci_nonroot_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_file("tests/fixtures/dumps/public/fastfetch-1658-lspci-nonroot.txt",
					  &d);
	int p = nicfit_topo_find(t, "0000:79:00.4");

	(void)state;
	assert_int_equal(t->npci, 3);
	assert_true(p >= 0);
	assert_int_equal(t->pci[p].class_code, 0x080700);
	assert_int_equal(t->pci[p].numa_node, 1);
	assert_string_equal(t->pci[p].driver, "pcieport");
	assert_int_equal(t->privileged, 0);
	assert_true(d->any_denied);
	assert_false(d->any_root); /* "<access deni" at the cut still counts as denied */
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* lspci -t: buses from the columns, bridges from their ranges. */
static void tree_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_file("tests/fixtures/dumps/public/club-3090-1229-topo-tree.txt",
					  &d);
	int b = nicfit_topo_find(t, "0000:00:01.1"), f = nicfit_topo_find(t, "0000:01:00.1");
	int b2 = nicfit_topo_find(t, "0000:20:08.1"), f2 = nicfit_topo_find(t, "0000:22:00.4");

	(void)state;
	assert_true(b >= 0 && f >= 0 && b2 >= 0 && f2 >= 0);
	assert_int_equal(t->pci[f].parent, b);
	assert_int_equal(t->pci[f2].parent, b2);
	assert_int_equal(t->pci[b].secondary_bus, 1);
	assert_int_equal(t->pci[b].class_code, 0x060400);
	assert_int_equal(t->nhb, 3); /* root buses 00, 20, 60 */
	assert_true(nicfit_topo_find(t, "0000:60:01.0") >= 0);
	/* the matrix before it: two GPUs, no NICs */
	assert_true(d->smi.present);
	assert_int_equal(d->smi.ngpus, 2);
	assert_int_equal(d->smi.nnics, 0);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* nvidia-smi topo -m as posted: spaces, NIC0.. columns, no legend, last row cut. */
static void smi_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_error err;
	char *text;
	size_t len;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file("tests/fixtures/dumps/public/nccl-933-topo-m.txt", 1 << 20,
					  &text, &len, &err), 0);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "topo", text, len, &err), 0);
	assert_int_equal(d->smi.ngpus, 8);
	assert_int_equal(d->smi.nnics, 9);
	assert_string_equal(d->smi.nic[8], "NIC8");
	assert_string_equal(d->smi.cell[0][2], "PIX");
	assert_string_equal(d->smi.cell[4][1], "PIX");
	assert_string_equal(d->smi.cell[6][8], "SYS");
	assert_int_equal(d->smi.row_line[6], 8);
	assert_int_equal(d->smi.row_line[7], 0); /* cut: nothing to compare */
	/* no lspci: a host of no PCI function, which audit_paste.c judges by the matrix */
	{
		struct nicfit_topo *t = NULL;

		assert_int_equal(nicfit_dump_topo(d, &t, &err), 0);
		assert_int_equal(t->npci, 0);
		nicfit_topo_free(t);
	}
	free(text);
	nicfit_dump_free(d);
}

/*
 * The matrix against the tree: one cell fits the one ConnectX, which places
 * mlx5_0 there (so the cell is not compared with itself); the same with another class
 * where only name order tied mlx5_0 to its function is a note on that tie
 * (dump-join-guess), never a warning that blames the dumps; with
 * ibdev2netdev -v placing it, the difference is dump-topo-mismatch.
 */
static void smi_against_tree(void **state)
{
	static const char smi[] =
		"\n\t\033[4mGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\033[0m\n"
		"GPU0\t X \tPIX\t0-19\t0\n"
		"NIC0\tPIX\t X \n\n"
		"NIC Legend:\n\n  NIC0: mlx5_0\n\n"
		"index, pci.bus_id\n0, 00000000:19:00.0\n";
	static const char nic[] =
		"0000:18:10.0 PCI bridge [0604]: Broadcom / LSI PEX88096 PCIe Gen 4 Switch [1000:c010] (rev b0)\n"
		"\tBus: primary=18, secondary=1b, subordinate=1b, sec-latency=0\n"
		"\n"
		"0000:1b:00.0 Infiniband controller [0207]: Mellanox Technologies MT28908 Family [ConnectX-6] [15b3:101b]\n"
		"\tKernel driver in use: mlx5_core\n";
	const char *cells[] = { "PIX", "PXB" };
	int k;

	(void)state;
	for (k = 0; k < 3; k++) {
		char text[8192];
		struct nicfit_dump *d;
		struct nicfit_topo *t;
		struct nicfit_audit *a = NULL;
		struct nicfit_error err;
		size_t i, mism = 0, agree = 0, idle = 0, guess = 0;

		snprintf(text, sizeof(text), "%s\n%s%s%s", root_vvv, nic, smi,
			 k == 2 ? "\n0000:1b:00.0 mlx5_0 port 1 ==> ib0 (Up)\n" : "");
		if (k) { /* "PIX" of the GPU row (one switch joins them) becomes "PXB" */
			char *p = strstr(text, "GPU0\t X \tPIX");

			memcpy(p + 9, cells[1], 3);
		}
		t = read_text(text, &d);
		nicfit_error_clear(&err);
		assert_int_equal(t->nrdma, 1);
		assert_string_equal(t->rdma[0].name, "mlx5_0");
		assert_int_equal(t->rdma[0].pci, nicfit_topo_find(t, "0000:1b:00.0"));
		assert_string_equal(d->gpu_bdf[0], "0000:19:00.0");
		assert_int_equal(nicfit_audit_judge(t, NULL, NULL, &a, &err), 0);
		assert_int_equal(nicfit_dump_judge(d, a, &err), 0);
		for (i = 0; i < a->findings.n; i++) {
			const struct nicfit_finding *f = &a->findings.v[i];

			mism += !strcmp(f->code, "dump-topo-mismatch");
			guess += !strcmp(f->code, "dump-join-guess");
			agree += !strcmp(f->code, "dump-topo-agrees");
			/* the idle GPU: a note, never a fault */
			if (!strcmp(f->code, "gpu-link-idle")) {
				assert_int_equal(f->severity, NICFIT_SEV_INFO);
				idle++;
			}
			assert_string_not_equal(f->code, "link-speed-downtrained");
			if (f->device && !strcmp(f->device, "0000:19:00.0") &&
			    strcmp(f->code, "dump-topo-mismatch"))
				assert_non_null(strstr(f->message, "(from paste:26)"));
		}
		assert_int_equal(idle, 1); /* LnkSta 2.5GT/s (downgraded) of a 16GT/s GPU */
		assert_int_equal(mism, (size_t)(k == 2));
		assert_int_equal(guess, (size_t)(k == 1));
		/* k 0: the matrix's cells placed mlx5_0, so they are not compared with themselves */
		assert_int_equal(agree, 0);
		assert_int_equal(d->smi.nic_join[0], k == 0 ? DUMP_JOIN_MATRIX
						 : k == 1 ? DUMP_JOIN_ORDER : DUMP_JOIN_IBDEV);
		nicfit_audit_free(a);
		nicfit_topo_free(t);
		nicfit_dump_free(d);
	}
}

/* ibv_devinfo as posted (spaces, no -v, the second block cut before its ports). */
static void ibv_public(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_error err;
	char *text;
	size_t len;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_read_file("tests/fixtures/dumps/public/deepep-60-ibv-devinfo.txt",
					  1 << 20, &text, &len, &err), 0);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "ibv", text, len, &err), 0);
	assert_int_equal(d->nrdma, 2);
	assert_string_equal(d->rdma[0].name, "mlx5_12");
	assert_string_equal(d->rdma[0].fw, "22.38.1900");
	assert_string_equal(d->rdma[0].board, "MT_0000000436");
	assert_int_equal(d->rdma[0].nports, 1);
	assert_int_equal(d->rdma[0].ports[0].state, 1);
	assert_string_equal(d->rdma[0].ports[0].link_layer, "Ethernet");
	assert_int_equal(d->rdma[1].nports, 0);
	free(text);
	nicfit_dump_free(d);
}

/* ibdev2netdev -v places a device; ibv_devinfo -v gives its port, judged as a live one. */
static void rdma_on_tree(void **state)
{
	static const char ib_nic[] =
		"\n0000:18:10.0 PCI bridge [0604]: Broadcom / LSI PEX88096 PCIe Gen 4 Switch [1000:c010] (rev b0)\n"
		"\tBus: primary=18, secondary=1b, subordinate=1b, sec-latency=0\n"
		"\n"
		"0000:1b:00.0 Infiniband controller [0207]: Mellanox Technologies MT28908 Family [ConnectX-6] [15b3:101b]\n"
		"\tKernel driver in use: mlx5_core\n"
		"\n$ ibdev2netdev -v\n"
		"0000:1b:00.0 mlx5_7 (MT4123 - MCX653105A-HDAT) ConnectX-6 VPI adapter card fw 20.31.1014 port 1 (DOWN ) ==> ib0 (Down)\n"
		"$ ibv_devinfo -v\n"
		"hca_id:\tmlx5_7\n"
		"\tfw_ver:\t\t\t\t20.31.1014\n"
		"\tboard_id:\t\t\tMT_0000000223\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_DOWN (1)\n"
		"\t\t\tphys_state:\t\tPOLLING (2)\n"
		"\t\t\tactive_width:\t\t4X (2)\n"
		"\t\t\tactive_speed:\t\t50.0 Gbps (64)\n"
		"\t\t\tlink_layer:\t\tInfiniBand\n";
	char text[8192];
	struct nicfit_dump *d;
	struct nicfit_topo *t;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	size_t i, down = 0;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", root_vvv, ib_nic);
	t = read_text(text, &d);
	nicfit_error_clear(&err);
	assert_int_equal(t->nrdma, 1);
	assert_string_equal(t->rdma[0].name, "mlx5_7"); /* not the first mlx5 function's name */
	assert_int_equal(t->rdma[0].pci, nicfit_topo_find(t, "0000:1b:00.0"));
	assert_int_equal(t->rdma[0].nports, 1);
	assert_int_equal(t->rdma[0].ports[0].state, 1);
	assert_int_equal(t->rdma[0].ports[0].phys_state, 2);
	assert_true(t->rdma[0].ports[0].have_rate);
	assert_true(t->rdma[0].ports[0].rate.gbps > 199 && t->rdma[0].ports[0].rate.gbps < 201);
	assert_int_equal(t->nnet, 1);
	assert_string_equal(t->net[0].name, "ib0");
	assert_int_equal(nicfit_audit_judge(t, NULL, NULL, &a, &err), 0);
	assert_int_equal(nicfit_dump_judge(d, a, &err), 0);
	for (i = 0; i < a->findings.n; i++)
		down += !strcmp(a->findings.v[i].code, "rdma-port-down");
	assert_int_equal(down, 1);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* Hostile shapes: a bridge that claims its own bus, huge domains, bare labels. */
static void hostile(void **state)
{
	static const char text[] =
		"00:01.0 PCI bridge [0604]: x [8086:0001]\n"
		"\tBus: primary=00, secondary=00, subordinate=ff, sec-latency=0\n"
		"00:02.0 PCI bridge [0604]: y [8086:0001]\n"
		"\tBus: primary=00, secondary=00, subordinate=ff, sec-latency=0\n"
		"ffffffff:00:00.0 Host bridge: too wide a domain\n"
		"\tLnkSta:\tSpeed 9999999999GT/s, Width x99999\n"
		"-[\n +-\n \\-zz.9\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(text, &d);

	(void)state;
	assert_int_equal(t->npci, 2);
	assert_int_equal(t->pci[0].parent, -1);
	assert_int_equal(t->pci[1].parent, -1);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/*
 * A function's parent is the bridge of its domain whose range holds its
 * bus most narrowly (the larger secondary, then the smaller subordinate),
 * the first in address order of equally narrow ones; never a bridge on
 * its own bus, nor one of another domain (the table made per domain
 * answers as a scan of every function did).
 */
static void bridges_narrowest(void **state)
{
	static const char text[] =
		"0000:00:01.0 PCI bridge [0604]: a [8086:0001]\n"
		"\tBus: primary=00, secondary=01, subordinate=0f, sec-latency=0\n"
		"0000:00:02.0 PCI bridge [0604]: b [8086:0001]\n"
		"\tBus: primary=00, secondary=01, subordinate=0f, sec-latency=0\n"
		"0000:00:03.0 PCI bridge [0604]: c [8086:0001]\n"
		"\tBus: primary=00, secondary=01, subordinate=05, sec-latency=0\n"
		"0000:01:00.0 PCI bridge [0604]: d [8086:0001]\n"
		"\tBus: primary=01, secondary=02, subordinate=02, sec-latency=0\n"
		"0000:02:00.0 Ethernet controller [0200]: e [15b3:1021]\n"
		"0000:03:00.0 Ethernet controller [0200]: f [15b3:1021]\n"
		"0000:08:00.0 Ethernet controller [0200]: g [15b3:1021]\n"
		"0000:10:00.0 PCI bridge [0604]: h [8086:0001]\n"
		"\tBus: primary=10, secondary=10, subordinate=12, sec-latency=0\n"
		"0000:11:00.0 Ethernet controller [0200]: i [15b3:1021]\n"
		"0001:03:00.0 Ethernet controller [0200]: j [15b3:1021]\n";
	static const struct {
		const char *fn, *parent;
	} want[] = {
		{ "0000:00:01.0", NULL }, { "0000:01:00.0", "0000:00:03.0" },
		{ "0000:02:00.0", "0000:01:00.0" }, { "0000:03:00.0", "0000:00:03.0" },
		{ "0000:08:00.0", "0000:00:01.0" }, { "0000:10:00.0", NULL },
		{ "0000:11:00.0", "0000:10:00.0" }, { "0001:03:00.0", NULL },
	};
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(text, &d);
	size_t i;

	(void)state;
	assert_int_equal(t->npci, 10);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int f = nicfit_topo_find(t, want[i].fn);

		assert_true(f >= 0);
		if (want[i].parent)
			assert_int_equal(t->pci[f].parent, nicfit_topo_find(t, want[i].parent));
		else
			assert_int_equal(t->pci[f].parent, -1);
	}
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/*
 * Values no lspci prints are read problems naming their line, not silent
 * drops: a negative speed and width, an exponent, x99999, a NUMA node past
 * any machine's. lspci's own "unknown" speed and a link down's x0 are not.
 */
static void damaged_values(void **state)
{
	static const char text[] =
		"0000:3b:00.0 Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]\n"
		"\tNUMA node: 99999999999999999999\n"
		"\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
		"\t\tLnkCap:\tPort #0, Speed 1e308GT/s, Width x99999, ASPM not supported\n"
		"\t\tLnkSta:\tSpeed -8GT/s, Width x-16\n"
		"\n"
		"0000:af:00.0 3D controller [0302]: NVIDIA Corporation GA102GL [A40] [10de:2235]\n"
		"\tFlags: bus master, fast devsel, latency 0, IRQ 16, NUMA node 1\n"
		"\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
		"\t\tLnkCap:\tPort #0, Speed unknown, Width x16\n"
		"\t\tLnkSta:\tSpeed 2.5GT/s (downgraded), Width x0\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(text, &d);
	int nic = nicfit_topo_find(t, "0000:3b:00.0"), gpu = nicfit_topo_find(t, "0000:af:00.0");

	(void)state;
	assert_true(nic >= 0 && gpu >= 0);
	assert_int_equal(t->pci[nic].numa_node, -1);
	assert_false(t->pci[nic].have & NICFIT_HAVE_NUMA);
	assert_int_equal(t->pci[gpu].numa_node, 1);
	assert_int_equal(t->problems_total, 5);
	assert_int_equal(t->nproblems, 5);
	assert_true(t->problems_in_dump);
	assert_string_equal(t->problems[0].path, "paste:2");
	assert_non_null(strstr(t->problems[0].what, "\"NUMA node: 99999999999999999999\""));
	assert_string_equal(t->problems[1].path, "paste:4");
	assert_non_null(strstr(t->problems[1].what, "LnkCap: \"Speed 1e308GT/s\""));
	assert_non_null(strstr(t->problems[2].what, "LnkCap: \"Width x99999\""));
	assert_string_equal(t->problems[3].path, "paste:5");
	assert_non_null(strstr(t->problems[3].what, "LnkSta: \"Speed -8GT/s\""));
	assert_non_null(strstr(t->problems[4].what, "LnkSta: \"Width x-16\""));
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/*
 * An absurd figure is never read as the small valid one it starts with:
 * "x1e308" is not x1, "x8.5" not x8, "7GT/s" no PCIe rate; the width and
 * speed stay unknown, so no starved-card or narrow-path finding rests on
 * them.
 */
static void absurd_not_small(void **state)
{
	static const char text[] =
		"0000:17:00.0 Ethernet controller [0200]: Mellanox Technologies MT2910 Family [ConnectX-7] [15b3:1021]\n"
		"\tCapabilities: [40] Express (v2) Endpoint, MSI 00\n"
		"\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x1e308, ASPM not supported\n"
		"\t\tLnkSta:\tSpeed 7GT/s, Width x8.5\n"
		"\tKernel driver in use: mlx5_core\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(text, &d);
	int nic = nicfit_topo_find(t, "0000:17:00.0");
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	size_t i;

	(void)state;
	assert_true(nic >= 0);
	assert_int_equal(t->pci[nic].max_width, 0);
	assert_int_equal(t->pci[nic].cur_width, 0);
	assert_true(t->pci[nic].cur_gts == 0);
	assert_true(t->pci[nic].max_gts > 31.9);
	assert_int_equal(t->problems_total, 3);
	assert_non_null(strstr(t->problems[0].what, "LnkCap: \"Width x1e308\""));
	assert_non_null(strstr(t->problems[1].what, "LnkSta: \"Speed 7GT/s\""));
	assert_non_null(strstr(t->problems[2].what, "LnkSta: \"Width x8.5\""));
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_audit_judge(t, NULL, NULL, &a, &err), 0);
	assert_int_equal(nicfit_dump_judge(d, a, &err), 0);
	for (i = 0; i < a->findings.n; i++) {
		assert_string_not_equal(a->findings.v[i].code, "nic-pcie-starved");
		assert_string_not_equal(a->findings.v[i].code, "path-narrower");
		assert_string_not_equal(a->findings.v[i].code, "link-width-downtrained");
	}
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lspci_root),
		cmocka_unit_test(lspci_then_prompt),
		cmocka_unit_test(lspci_numeric),
		cmocka_unit_test(lspci_names_only),
		cmocka_unit_test(lspci_nonroot_public),
		cmocka_unit_test(tree_public),
		cmocka_unit_test(smi_public),
		cmocka_unit_test(smi_against_tree),
		cmocka_unit_test(ibv_public),
		cmocka_unit_test(rdma_on_tree),
		cmocka_unit_test(hostile),
		cmocka_unit_test(bridges_narrowest),
		cmocka_unit_test(damaged_values),
		cmocka_unit_test(absurd_not_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
