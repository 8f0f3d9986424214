/*
 * test_audit.c - the judgement on hand-built models (path classes, the
 * GPUDirect default, idle versus downtrained links, PCIe-starved cards,
 * chipset-integrated functions, what counts as a GPU) and on every fixture
 * (the findings and exit status each machine must produce).
 */
#include "unit.h"

#include "fixtures.h"
#include "nicfit/audit.h"
#include "nicfit/catalog.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"
#include "nicfit/topo.h"

#include "catalog_fixture.h"

/* A function with IDs, class and link figures (gen 0: no link files). */
static int fn(struct nicfit_topo *t, const char *bdf, int parent, int hb, unsigned cls,
	      unsigned vendor, unsigned device, int numa, int cg, int cw, int mg, int mw)
{
	int i = nicfit_topo_add_pci(t, bdf, parent, hb);
	struct nicfit_pcidev *p = &t->pci[i];

	p->class_code = cls;
	p->vendor = vendor;
	p->device = device;
	p->have = NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS | NICFIT_HAVE_NUMA;
	p->numa_node = numa;
	if (cg || mg)
		p->have |= NICFIT_HAVE_LINK_FILES;
	p->cur_gts = nicfit_pcie_gts(cg);
	p->max_gts = nicfit_pcie_gts(mg);
	p->cur_width = cw;
	p->max_width = mw;
	if (cg)
		p->have |= NICFIT_HAVE_CUR_SPEED | NICFIT_HAVE_CUR_WIDTH;
	if (mg)
		p->have |= NICFIT_HAVE_MAX_SPEED | NICFIT_HAVE_MAX_WIDTH;
	snprintf(p->driver, sizeof(p->driver), "%s", vendor == 0x10de ? "nvidia" :
		 vendor == 0x15b3 ? "mlx5_core" : "x");
	return i;
}

static void rdma(struct nicfit_topo *t, const char *name, int pci, const char *layer, int state,
		 double gbps)
{
	int r = nicfit_topo_add_rdma(t, name, pci);

	t->rdma[r].nports = 1;
	t->rdma[r].ports[0].num = 1;
	t->rdma[r].ports[0].state = state;
	t->rdma[r].ports[0].gid_v2_index = -1;
	t->rdma[r].ports[0].have_rate = gbps > 0;
	t->rdma[r].ports[0].rate.gbps = gbps;
	t->rdma[r].ports[0].rate.width = 4;
	snprintf(t->rdma[r].ports[0].link_layer, sizeof(t->rdma[0].ports[0].link_layer), "%s", layer);
}

static struct nicfit_audit *run(struct nicfit_topo *t, const char *const *ignore, int nignore)
{
	struct nicfit_audit_opts o;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;

	memset(&o, 0, sizeof(o));
	o.ignore = ignore;
	o.nignore = nignore;
	nicfit_error_clear(&err);
	if (nicfit_audit_judge(t, cat, &o, &a, &err))
		fail_msg("audit: %s", err.msg);
	return a;
}

static int has(const struct nicfit_audit *a, const char *code, enum nicfit_severity sev)
{
	size_t i;

	for (i = 0; i < a->findings.n; i++)
		if (!strcmp(a->findings.v[i].code, code) && a->findings.v[i].severity == sev)
			return 1;
	return 0;
}

static int count(const struct nicfit_audit *a, const char *code)
{
	size_t i;
	int n = 0;

	for (i = 0; i < a->findings.n; i++)
		n += !strcmp(a->findings.v[i].code, code);
	return n;
}

static int nignored(const struct nicfit_audit *a)
{
	size_t i;
	int n = 0;

	for (i = 0; i < a->findings.n; i++)
		n += a->findings.v[i].ignored != 0;
	return n;
}

static const struct nicfit_audit_pair *pair(const struct nicfit_audit *a, const char *g,
					    const char *n)
{
	int i;

	for (i = 0; i < a->npairs; i++)
		if (!strcmp(a->devs[a->pairs[i].gpu].label, g) && !strcmp(a->devs[a->pairs[i].nic].label, n))
			return &a->pairs[i];
	fail_msg("no pair %s-%s", g, n);
	return NULL;
}

/*
 * Socket 0: host bridge A with a switch (GPU0 and mlx5_0 on it, mlx5_1 one
 * switch deeper), a root port with mlx5_2; host bridge B with GPU1.
 * Socket 1: host bridge C with GPU2.
 */
static struct nicfit_topo *switch_box(int peermem)
{
	struct nicfit_topo *t = nicfit_topo_new();
	int a, b, c, rp, up, dp1, dp2, dp3, up2, dp4, rp2, rpb, rpc, x;

	nicfit_topo_add_numa(t, 0, "0-7", 0);
	nicfit_topo_add_numa(t, 1, "8-15", 1);
	a = nicfit_topo_add_hostbridge(t, "pci0000:00", -1);
	b = nicfit_topo_add_hostbridge(t, "pci0000:40", -1);
	c = nicfit_topo_add_hostbridge(t, "pci0000:80", -1);
	rp = fn(t, "0000:00:01.0", -1, a, 0x060400, 0x8086, 0x2030, 0, 4, 16, 4, 16);
	up = fn(t, "0000:01:00.0", rp, a, 0x060400, 0x1000, 0xc010, 0, 4, 16, 4, 16);
	dp1 = fn(t, "0000:02:00.0", up, a, 0x060400, 0x1000, 0xc010, 0, 4, 16, 4, 16);
	dp2 = fn(t, "0000:02:01.0", up, a, 0x060400, 0x1000, 0xc010, 0, 4, 16, 4, 16);
	dp3 = fn(t, "0000:02:02.0", up, a, 0x060400, 0x1000, 0xc010, 0, 4, 16, 4, 16);
	fn(t, "0000:03:00.0", dp1, a, 0x030200, 0x10de, 0x20b5, 0, 4, 16, 4, 16);
	x = fn(t, "0000:04:00.0", dp2, a, 0x020700, 0x15b3, 0x101b, 0, 4, 16, 4, 16);
	rdma(t, "mlx5_0", x, "InfiniBand", 4, 200);
	up2 = fn(t, "0000:05:00.0", dp3, a, 0x060400, 0x1000, 0xc010, 0, 4, 16, 4, 16);
	dp4 = fn(t, "0000:06:00.0", up2, a, 0x060400, 0x1000, 0xc010, 0, 4, 16, 4, 16);
	x = fn(t, "0000:07:00.0", dp4, a, 0x020700, 0x15b3, 0x101b, 0, 4, 16, 4, 16);
	rdma(t, "mlx5_1", x, "InfiniBand", 4, 200);
	rp2 = fn(t, "0000:00:02.0", -1, a, 0x060400, 0x8086, 0x2030, 0, 4, 16, 4, 16);
	x = fn(t, "0000:08:00.0", rp2, a, 0x020700, 0x15b3, 0x101b, 0, 4, 16, 4, 16);
	rdma(t, "mlx5_2", x, "InfiniBand", 4, 200);
	rpb = fn(t, "0000:40:01.0", -1, b, 0x060400, 0x8086, 0x2030, 0, 4, 16, 4, 16);
	fn(t, "0000:41:00.0", rpb, b, 0x030200, 0x10de, 0x20b5, 0, 4, 16, 4, 16);
	rpc = fn(t, "0000:80:01.0", -1, c, 0x060400, 0x8086, 0x2030, 1, 4, 16, 4, 16);
	fn(t, "0000:81:00.0", rpc, c, 0x030200, 0x1002, 0x740f, 1, 4, 16, 4, 16);
	t->nvidia_peermem = peermem;
	t->nvidia_driver = 1;
	t->modules_listed = 1;
	t->privileged = 1;
	nicfit_topo_finish(t);
	return t;
}

/* The message of the first finding with code, or "". */
static const char *message_of(const struct nicfit_audit *a, const char *code)
{
	size_t i;

	for (i = 0; i < a->findings.n; i++)
		if (!strcmp(a->findings.v[i].code, code))
			return a->findings.v[i].message;
	return "";
}

static void path_classes(void **state)
{
	struct nicfit_topo *t = switch_box(1);
	struct nicfit_audit *a = run(t, NULL, 0);

	(void)state;
	assert_int_equal(a->ngpus, 3);
	assert_int_equal(a->nrdma_nics, 3);
	assert_int_equal(pair(a, "GPU0", "mlx5_0")->path, NICFIT_PATH_PIX);
	assert_true(pair(a, "GPU0", "mlx5_0")->gdr_default);
	assert_int_equal(pair(a, "GPU0", "mlx5_1")->path, NICFIT_PATH_PXB);
	assert_true(pair(a, "GPU0", "mlx5_1")->gdr_default);
	assert_int_equal(pair(a, "GPU0", "mlx5_2")->path, NICFIT_PATH_PHB);
	assert_false(pair(a, "GPU0", "mlx5_2")->gdr_default);
	assert_string_equal(pair(a, "GPU0", "mlx5_2")->gdr_reason, "distance");
	assert_int_equal(pair(a, "GPU1", "mlx5_0")->path, NICFIT_PATH_NODE);
	assert_int_equal(pair(a, "GPU2", "mlx5_0")->path, NICFIT_PATH_SYS);
	assert_string_equal(pair(a, "GPU2", "mlx5_0")->gdr_reason, "not-nvidia");
	/* nearest NICs and what is said about them */
	assert_string_equal(a->devs[a->devs[0].best_nic].label, "mlx5_0");
	assert_true(has(a, "gpu-nic-no-gdr-path", NICFIT_SEV_INFO));      /* GPU1: NODE */
	assert_true(has(a, "gpu-nic-cross-socket", NICFIT_SEV_WARNING));  /* GPU2: SYS */
	/* GPU2 is AMD's: no NCCL or GPUDirect claims about it */
	assert_null(strstr(message_of(a, "gpu-nic-cross-socket"), "NCCL"));
	assert_null(strstr(message_of(a, "gpu-nic-cross-socket"), "GPUDirect"));
	assert_false(has(a, "gdr-no-peermem", NICFIT_SEV_WARNING));
	assert_int_equal(nicfit_audit_exit_code(a), 1);
	nicfit_audit_free(a);
	nicfit_topo_free(t);

	/* without nvidia_peermem the close pairs lose GPUDirect */
	t = switch_box(0);
	a = run(t, NULL, 0);
	assert_false(pair(a, "GPU0", "mlx5_0")->gdr_default);
	assert_string_equal(pair(a, "GPU0", "mlx5_0")->gdr_reason, "no-kernel-support");
	assert_true(has(a, "gdr-no-peermem", NICFIT_SEV_WARNING));
	assert_non_null(strstr(message_of(a, "gdr-no-peermem"), "is loaded"));
	nicfit_audit_free(a);
	/* a capture without sys/module: GPUs bound to nvidia, the module state unknown */
	t->modules_listed = 0;
	a = run(t, NULL, 0);
	assert_true(has(a, "gdr-no-peermem", NICFIT_SEV_WARNING));
	assert_non_null(strstr(message_of(a, "gdr-no-peermem"), "is unknown"));
	assert_null(strstr(message_of(a, "gdr-no-peermem"), "not loaded"));
	/* so is the kernel's support, and with it a close pair's default; a far one stays no */
	assert_int_equal(a->gdr_kernel, -1);
	assert_int_equal(pair(a, "GPU0", "mlx5_0")->gdr_default, -1);
	assert_string_equal(pair(a, "GPU0", "mlx5_0")->gdr_reason, "kernel-support-unknown");
	assert_int_equal(pair(a, "GPU0", "mlx5_2")->gdr_default, 0);
	assert_string_equal(pair(a, "GPU0", "mlx5_2")->gdr_reason, "distance");
	nicfit_audit_free(a);
	/* nv_peer_mem's peer client proves the support without sys/module */
	t->nv_mem = 1;
	a = run(t, NULL, 0);
	assert_int_equal(a->gdr_kernel, 1);
	assert_int_equal(pair(a, "GPU0", "mlx5_0")->gdr_default, 1);
	assert_false(has(a, "gdr-no-peermem", NICFIT_SEV_WARNING));
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

static void unknown_locality(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	int a0, a1, r0, r1, x;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	nicfit_topo_add_numa(t, 1, "8-15", 1);
	a0 = nicfit_topo_add_hostbridge(t, "pci0000:00", -1);
	a1 = nicfit_topo_add_hostbridge(t, "pci0000:80", -1);
	r0 = fn(t, "0000:00:01.0", -1, a0, 0x060400, 0x8086, 1, -1, 3, 16, 3, 16);
	fn(t, "0000:01:00.0", r0, a0, 0x030200, 0x10de, 0x1db4, -1, 3, 16, 3, 16);
	r1 = fn(t, "0000:80:01.0", -1, a1, 0x060400, 0x8086, 1, -1, 3, 16, 3, 16);
	x = fn(t, "0000:81:00.0", r1, a1, 0x020700, 0x15b3, 0x1017, -1, 3, 16, 3, 16);
	rdma(t, "mlx5_0", x, "InfiniBand", 4, 100);
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	/* never called cross-socket */
	assert_int_equal(pair(a, "GPU0", "mlx5_0")->path, NICFIT_PATH_NODE);
	assert_false(pair(a, "GPU0", "mlx5_0")->locality_known);
	assert_false(has(a, "gpu-nic-cross-socket", NICFIT_SEV_WARNING));
	assert_true(has(a, "gpu-nic-locality-unknown", NICFIT_SEV_INFO));
	assert_true(has(a, "numa-locality-unknown", NICFIT_SEV_WARNING));
	/* no sys/module in this model: the module is not said to be missing */
	assert_true(has(a, "gdr-no-peermem", NICFIT_SEV_INFO));
	assert_non_null(strstr(message_of(a, "gdr-no-peermem"), "is unknown"));
	assert_null(strstr(message_of(a, "gdr-no-peermem"), "not loaded"));
	nicfit_audit_free(a);
	/* the NIC's numa_node file absent, the GPU's -1: each said as it is */
	t->pci[x].have &= ~NICFIT_HAVE_NUMA;
	t->pci[x].absent |= NICFIT_HAVE_NUMA;
	a = run(t, NULL, 0);
	assert_string_equal(message_of(a, "numa-locality-unknown"),
			    "The firmware gives no NUMA locality (numa_node -1) for GPU0, and mlx5_0 "
			    "has no numa_node file on a host with 2 NUMA nodes: NCCL cannot tell which "
			    "socket they belong to.");
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

static void idle_versus_downtrained(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	int h, r0, r1, r2;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r0 = fn(t, "0000:00:01.0", -1, h, 0x060400, 0x8086, 1, 0, 1, 16, 4, 16);
	fn(t, "0000:01:00.0", r0, h, 0x030200, 0x10de, 0x2235, 0, 1, 16, 4, 16);   /* idle */
	r1 = fn(t, "0000:00:02.0", -1, h, 0x060400, 0x8086, 1, 0, 4, 8, 4, 16);
	fn(t, "0000:02:00.0", r1, h, 0x030200, 0x10de, 0x2235, 0, 4, 8, 4, 16);    /* x8 of x16 */
	r2 = fn(t, "0000:00:03.0", -1, h, 0x060400, 0x8086, 1, 0, 3, 16, 4, 16);
	fn(t, "0000:03:00.0", r2, h, 0x020000, 0x8086, 0x1592, 0, 3, 16, 4, 16);   /* NIC at Gen3 */
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	assert_true(has(a, "gpu-link-idle", NICFIT_SEV_INFO));
	assert_true(a->devs[0].link.idle);
	/* an idle GPU is judged at the speed it can run, not the idle one */
	assert_near(a->devs[0].link.path_gbps, a->devs[0].link.own_max_gbps, 0.01);
	assert_int_equal(a->devs[0].link.limit_pci, -1);
	assert_true(has(a, "link-width-downtrained", NICFIT_SEV_WARNING));
	assert_true(has(a, "link-speed-downtrained", NICFIT_SEV_WARNING));
	assert_int_equal(count(a, "link-speed-downtrained"), 1); /* the GPU is idle, not downtrained */
	assert_string_equal(a->topo->pci[a->devs[2].link.limit_pci].bdf, "0000:00:03.0");
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

static void starved_card(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	const char *ign[] = { "nic-pcie-starved@0000:01:00.0" };
	int h, r, x, warnings;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r = fn(t, "0000:00:01.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 16, 3, 16);
	x = fn(t, "0000:01:00.0", r, h, 0x020700, 0x15b3, 0x101b, 0, 3, 16, 4, 16);
	snprintf(t->pci[x].vpd_part, sizeof(t->pci[x].vpd_part), "MCX653105A-HDAT");
	t->pci[x].vpd_state = 1;
	rdma(t, "mlx5_0", x, "InfiniBand", 4, 100); /* a 100G cable on a 200G card */
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	assert_string_equal(a->devs[0].part, "MCX653105A-HDAT");
	assert_non_null(a->devs[0].cat_nic);
	assert_true(has(a, "nic-pcie-starved", NICFIT_SEV_WARNING));
	assert_true(has(a, "nic-port-slow", NICFIT_SEV_WARNING));
	assert_string_equal(a->devs[0].card_limited_by, "pcie");
	assert_true(a->devs[0].supply_gbps < a->devs[0].demand_gbps);
	assert_int_equal(nicfit_audit_exit_code(a), 1); /* it works, at the slot's rate */
	warnings = (int)nicfit_findings_count(&a->findings, NICFIT_SEV_WARNING);
	nicfit_audit_free(a);
	/* ignored findings leave the verdict */
	a = run(t, ign, 1);
	assert_int_equal(nignored(a), 1);
	assert_int_equal(nicfit_findings_count(&a->findings, NICFIT_SEV_WARNING), warnings - 1);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

/* A device named from pci.ids is named so in the findings too, not only in the table. */
static void findings_use_pciids_names(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit_opts o;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	size_t i;
	int h, r, g, found = 0;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r = fn(t, "0000:00:02.0", -1, h, 0x060400, 0x8086, 0x6f04, 0, 3, 16, 3, 16);
	g = fn(t, "0000:02:00.0", r, h, 0x030200, 0x10de, 0x15f8, 0, 3, 16, 3, 16);
	t->pci[g].driver[0] = '\0'; /* gpu-no-driver names it */
	t->drivers_listed = 1;
	nicfit_topo_finish(t);
	memset(&o, 0, sizeof(o));
	o.pci_ids = 1;
	o.pci_ids_path = "tests/fixtures/pci.ids";
	nicfit_error_clear(&err);
	if (nicfit_audit_judge(t, cat, &o, &a, &err))
		fail_msg("audit: %s", err.msg);
	assert_string_equal(a->devs[0].name_source, "pci.ids");
	assert_non_null(strstr(a->devs[0].name, "Tesla P100"));
	for (i = 0; i < a->findings.n; i++)
		if (!strcmp(a->findings.v[i].code, "gpu-no-driver")) {
			assert_non_null(strstr(a->findings.v[i].message, a->devs[0].name));
			found = 1;
		}
	assert_true(found);
	nicfit_audit_free(a);
	/* a pci.ids file named that cannot be read is an error, not generic names */
	o.pci_ids_path = "/nonexistent/pci.ids";
	assert_int_equal(nicfit_audit_judge(t, cat, &o, &a, &err), NICFIT_E_NOTFOUND);
	assert_null(a);
	nicfit_topo_free(t);
}

/* A QDR port's rate file says 40 Gb/s of signal; 8b/10b leaves 32 of data (calc link). */
static void qdr_data_rate(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	int h, r, x, k;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r = fn(t, "0000:00:07.0", -1, h, 0x060400, 0x8086, 0x340e, 0, 2, 8, 2, 8);
	x = fn(t, "0000:04:00.0", r, h, 0x0c0600, 0x1077, 0x7322, 0, 2, 8, 2, 8);
	snprintf(t->pci[x].driver, sizeof(t->pci[x].driver), "ib_qib");
	rdma(t, "qib0", x, "InfiniBand", 4, 40);
	k = t->nrdma - 1;
	assert_int_equal(nicfit_parse_ib_rate("40 Gb/sec (4X QDR)", &t->rdma[k].ports[0].rate), 0);
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	for (k = 0; k < a->ndevs && a->devs[k].pci != x; k++)
		;
	assert_true(k < a->ndevs);
	assert_near(a->devs[k].ports_now_gbps, 32, 1e-9);
	assert_near(a->devs[k].port_gbps, 32, 1e-9);
	assert_non_null(a->devs[k].card_limited_by);
	assert_true(a->devs[k].demand_gbps > 31 && a->devs[k].demand_gbps < 32);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

/* Whether a not_checked entry names check. */
static int not_checked(const struct nicfit_audit *a, const char *check)
{
	size_t i;

	for (i = 0; i < a->nnot_checked; i++)
		if (!strcmp(a->not_checked[i].check, check))
			return 1;
	return 0;
}

/* Whether the audit's JSON holds needle (want 1) or not (want 0). */
static void json_has(const struct nicfit_audit *a, const char *needle, int want)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_audit_render(a, e), 0);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	assert_int_equal(strstr(b.data, needle) != NULL, want);
	nicfit_emit_free(e);
	nicfit_buf_release(&b);
}

/*
 * An InfiniBand ConnectX-4 (15b3:1013, mlx5_core bound) without an RDMA
 * device, beside an accelerator: with neither sys/module nor
 * sys/class/infiniband its RDMA driver may be loaded or not, so neither
 * nic-rdma-not-loaded nor no-rdma-nic is said, and its ports are unknown,
 * not 0 up, and the host's count of RDMA cards is unknown (null in JSON),
 * not 0; with either, the driver is known not to be loaded.
 */
static void rdma_driver_unknown(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	int h, r0, r1, x, k;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r0 = fn(t, "0000:00:01.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 16, 3, 16);
	x = fn(t, "0000:01:00.0", r0, h, 0x020700, 0x15b3, 0x1013, 0, 3, 16, 3, 16);
	r1 = fn(t, "0000:00:02.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 16, 3, 16);
	fn(t, "0000:02:00.0", r1, h, 0x120000, 0x1bcf, 0x001c, 0, 3, 16, 3, 16);
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	assert_int_equal(count(a, "nic-rdma-not-loaded"), 0);
	assert_int_equal(count(a, "no-rdma-nic"), 0);
	assert_true(not_checked(a, "rdma"));
	for (k = 0; k < a->ndevs && a->devs[k].pci != x; k++)
		;
	assert_true(k < a->ndevs && a->devs[k].card_lead);
	assert_true(a->devs[k].ports_unknown & NICFIT_PORTS_STATE_UNKNOWN);
	/* nor is it counted as a card without RDMA: the count is unknown */
	assert_true(a->devs[k].rdma_unknown);
	assert_int_equal(a->nrdma_nics, 0);
	assert_int_equal(a->nrdma_unknown, 1);
	json_has(a, "\"rdma_nics\":null", 1);
	json_has(a, "\"rdma\":null", 1);
	nicfit_audit_free(a);
	/* the module list read: mlx5_ib is not there */
	t->modules_listed = 1;
	a = run(t, NULL, 0);
	assert_false(a->devs[k].rdma_unknown);
	assert_int_equal(a->nrdma_unknown, 0);
	json_has(a, "\"rdma_nics\":0", 1);
	json_has(a, "\"rdma\":null", 0);
	assert_true(has(a, "nic-rdma-not-loaded", NICFIT_SEV_INFO));
	assert_true(has(a, "no-rdma-nic", NICFIT_SEV_INFO));
	assert_false(not_checked(a, "rdma"));
	nicfit_audit_free(a);
	/* or the RDMA class is there (ib_core loaded) without a device of the card */
	t->modules_listed = 0;
	t->rdma_listed = 1;
	a = run(t, NULL, 0);
	assert_true(has(a, "nic-rdma-not-loaded", NICFIT_SEV_INFO));
	assert_false(not_checked(a, "rdma"));
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

/*
 * A GPU and a ConnectX-5 without a driver: in a tree that shows drivers
 * (drivers_listed) none is bound, gpu-no-driver and nic-no-driver; in a
 * copy that cannot show them, neither finding, not_checked "drivers", the
 * JSON driver null with nothing saying "none", and the card's RDMA
 * unknown (its driver may be mlx5_core), not "no RDMA"; with the RDMA
 * class listed the card has none, and nic-rdma-not-loaded, which names a
 * bound driver, is still not said.
 */
static void driver_unknown(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	int h, r0, r1, g, x, k;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r0 = fn(t, "0000:00:01.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 16, 3, 16);
	g = fn(t, "0000:01:00.0", r0, h, 0x030200, 0x10de, 0x1db4, 0, 3, 16, 3, 16);
	r1 = fn(t, "0000:00:02.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 16, 3, 16);
	x = fn(t, "0000:02:00.0", r1, h, 0x020000, 0x15b3, 0x1017, 0, 3, 16, 3, 16);
	t->pci[g].driver[0] = t->pci[x].driver[0] = '\0';
	t->drivers_listed = 1;
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	assert_true(has(a, "gpu-no-driver", NICFIT_SEV_WARNING));
	assert_true(has(a, "nic-no-driver", NICFIT_SEV_WARNING));
	assert_false(not_checked(a, "drivers"));
	/* no driver, so no RDMA: known, whatever the tree lacks */
	for (k = 0; k < a->ndevs && a->devs[k].pci != x; k++)
		;
	assert_true(k < a->ndevs);
	assert_false(a->devs[k].rdma_unknown);
	nicfit_audit_free(a);
	t->drivers_listed = 0;
	a = run(t, NULL, 0);
	assert_int_equal(count(a, "gpu-no-driver"), 0);
	assert_int_equal(count(a, "nic-no-driver"), 0);
	assert_true(not_checked(a, "drivers"));
	json_has(a, "\"check\":\"drivers\"", 1);
	json_has(a, "\"driver\":null", 1);
	json_has(a, "no-driver", 0);
	json_has(a, "\"driver\":\"\"", 0);
	assert_true(a->devs[k].rdma_unknown);
	assert_int_equal(a->nrdma_unknown, 1);
	assert_true(not_checked(a, "rdma"));
	assert_int_equal(count(a, "nic-rdma-not-loaded"), 0);
	nicfit_audit_free(a);
	t->rdma_listed = 1;
	a = run(t, NULL, 0);
	assert_false(a->devs[k].rdma_unknown);
	assert_int_equal(a->nrdma_unknown, 0);
	assert_int_equal(count(a, "nic-rdma-not-loaded"), 0);
	assert_true(not_checked(a, "drivers"));
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

/*
 * One QDR port (32 Gb/s of data) on a link of Gen3 x4 (about 26 Gb/s), the
 * root port's link files missing: even one port cannot run at its rate, so
 * nic-pcie-starved (a warning), not nic-card-pcie-bound's "nothing to fix
 * while one port carries the traffic"; without the card's max_link files
 * the link is not called its own interface. With them (the card is x4) it
 * is, and no slot is offered.
 */
static void one_port_own_link(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	const char *m;
	int h, r, x;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:40", 0);
	r = fn(t, "0000:40:03.0", -1, h, 0x060400, 0x8086, 0x340a, 0, 0, 0, 0, 0);
	x = fn(t, "0000:43:00.0", r, h, 0x0c0600, 0x1077, 0x7322, 0, 3, 4, 0, 0);
	snprintf(t->pci[x].driver, sizeof(t->pci[x].driver), "ib_qib");
	rdma(t, "qib0", x, "InfiniBand", 4, 40);
	assert_int_equal(nicfit_parse_ib_rate("40 Gb/sec (4X QDR)",
					      &t->rdma[t->nrdma - 1].ports[0].rate), 0);
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	assert_true(has(a, "nic-pcie-starved", NICFIT_SEV_WARNING));
	assert_int_equal(count(a, "nic-card-pcie-bound"), 0);
	m = message_of(a, "nic-pcie-starved");
	assert_non_null(strstr(m, "Gen3 x4 link"));
	assert_null(strstr(m, "own interface"));
	assert_int_equal(nicfit_audit_exit_code(a), 1);
	nicfit_audit_free(a);
	/* the card's own interface known to be Gen3 x4 */
	t->pci[x].max_gts = nicfit_pcie_gts(3);
	t->pci[x].max_width = 4;
	t->pci[x].have |= NICFIT_HAVE_MAX_SPEED | NICFIT_HAVE_MAX_WIDTH;
	a = run(t, NULL, 0);
	assert_true(has(a, "nic-pcie-starved", NICFIT_SEV_WARNING));
	assert_non_null(strstr(message_of(a, "nic-pcie-starved"), "the card's own Gen3 x4 interface"));
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

/* --ignore takes only codes audit raises: a typo is named, with the nearest code. */
static void ignore_checked(void **state)
{
	static const char *const typo[] = { "gpu-link-idle", "nic-pcie-starvd@0000:01:00.0" };
	static const char *const other[] = { "fit-not-checked" };
	struct nicfit_topo *t = switch_box(1);
	struct nicfit_audit_opts o;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.ignore = typo;
	o.nignore = 2;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_audit_judge(t, cat, &o, &a, &err), NICFIT_E_USAGE);
	assert_null(a);
	assert_string_equal(err.input, "--ignore");
	assert_non_null(strstr(err.msg, "'nic-pcie-starvd'"));
	assert_non_null(strstr(err.msg, "did you mean 'nic-pcie-starved'"));
	/* a code only plan raises is not one audit can ignore */
	o.ignore = other;
	o.nignore = 1;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_audit_judge(t, cat, &o, &a, &err), NICFIT_E_USAGE);
	nicfit_topo_free(t);
}

/*
 * An X710-T2L (8086:15ff, two functions) the catalog does not know: one
 * port at 1 Gb/s is nic-port-slow against its 10GBASE-T rate, the other
 * at 10 Gb/s is not; a ConnectX-4 Lx (15b3:1015, not BASE-T) at 10 Gb/s
 * is not judged, since its chip's 50 Gb/s is only an upper bound.
 */
static void baset_port_slow(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	int h, r, f0, f1, lx, n;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r = fn(t, "0000:00:01.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 8, 3, 8);
	f0 = fn(t, "0000:01:00.0", r, h, 0x020000, 0x8086, 0x15ff, 0, 3, 8, 3, 8);
	f1 = fn(t, "0000:01:00.1", r, h, 0x020000, 0x8086, 0x15ff, 0, 3, 8, 3, 8);
	r = fn(t, "0000:00:02.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 8, 3, 8);
	lx = fn(t, "0000:02:00.0", r, h, 0x020000, 0x15b3, 0x1015, 0, 3, 8, 3, 8);
	n = nicfit_topo_add_netdev(t, "enp1s0f0", f0);
	t->net[n].speed_mbps = 1000;
	t->net[n].carrier = 1;
	n = nicfit_topo_add_netdev(t, "enp1s0f1", f1);
	t->net[n].speed_mbps = 10000;
	t->net[n].carrier = 1;
	n = nicfit_topo_add_netdev(t, "enp2s0f0np0", lx);
	t->net[n].speed_mbps = 10000;
	t->net[n].carrier = 1;
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	assert_int_equal(count(a, "nic-port-slow"), 1);
	assert_true(has(a, "nic-port-slow", NICFIT_SEV_WARNING));
	assert_string_equal(a->findings.v[0].code, "nic-port-slow");
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

static void chipset_and_classes(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit *a;
	int h, r, ib, dp, x, i;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	h = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	r = fn(t, "0000:00:01.0", -1, h, 0x060400, 0x8086, 0x2030, 0, 3, 8, 3, 8);
	ib = fn(t, "0000:01:00.0", r, h, 0x060400, 0x8086, 0x37c0, 0, 3, 8, 3, 8);
	dp = fn(t, "0000:02:03.0", ib, h, 0x060400, 0x8086, 0x37c5, 0, 1, 1, 3, 1);
	x = fn(t, "0000:03:00.0", dp, h, 0x020000, 0x8086, 0x37d2, 0, 1, 1, 3, 1);
	nicfit_topo_add_netdev(t, "eno1", x);
	fn(t, "0000:00:02.0", -1, h, 0x030000, 0x1a03, 0x2000, 0, 0, 0, 0, 0); /* BMC VGA */
	fn(t, "0000:00:03.0", -1, h, 0x120000, 0x1da3, 0x1020, 0, 0, 0, 0, 0); /* accelerator */
	fn(t, "0000:00:04.0", -1, h, 0x0b4000, 0x1234, 0x0001, 0, 0, 0, 0, 0); /* co-processor */
	fn(t, "0000:00:05.0", -1, h, 0x038000, 0x1002, 0x740f, 0, 0, 0, 0, 0); /* AMD GPU */
	fn(t, "0000:00:06.0", -1, h, 0x030000, 0x8086, 0x0001, 0, 0, 0, 0, 0); /* other VGA */
	nicfit_topo_finish(t);
	a = run(t, NULL, 0);
	assert_int_equal(a->ngpus, 1);
	assert_int_equal(a->naccels, 2);
	for (i = 0; i < a->ndevs; i++)
		assert_int_not_equal(a->devs[i].kind, NICFIT_DEV_DISPLAY);
	/* the X722's nominal 2.5 GT/s x1 is not a fault; its path is the x8 uplink */
	for (i = 0; i < a->ndevs; i++)
		if (!strcmp(a->devs[i].label, "eno1"))
			break;
	assert_true(i < a->ndevs);
	assert_true(a->devs[i].link.nominal);
	assert_false(has(a, "link-speed-downtrained", NICFIT_SEV_WARNING));
	assert_near(a->devs[i].link.path_raw_gbps, 63.0154, 0.01);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

struct expect {
	const char *fixture;
	int exit_code;
	const char *codes[8];
};

static void fixtures(void **state)
{
	static const struct expect ex[] = {
		{ "r740xd", 1, { "gpu-nic-cross-socket", "nic-wrong-socket", "gpu-link-idle",
				 "nic-card-pcie-bound", "roce-mtu", "iommu-translated",
				 "intel-700-no-link", NULL } },
		{ "x11-200g", 1, { "nic-pcie-starved", "gpu-link-idle", "nic-rdma-not-loaded",
				   "pcie-mps-small", "gpu-nic-no-gdr-path", NULL } },
		{ "epyc-gen4", 1, { "link-speed-downtrained", "nic-pcie-starved", "vpi-port-mode",
				    "ib-no-subnet-manager", "nic-card-pcie-bound", NULL } },
		{ "hgx-h100", 1, { "acs-redirect", "gpu-link-idle", NULL } },
		{ "el7-v100", 1, { "numa-locality-unknown", "sysfs-read-problems",
				   "gpu-nic-locality-unknown", "nic-pcie-starved", NULL } },
		{ "xenial-k44", 0, { "gpu-nic-no-gdr-path", NULL } },
		{ "kvm-vm", 0, { "host-virtual", NULL } },
		{ "r910-qdr", 1, { "numa-locality-unknown", NULL } },
		{ "wrx80-t2l", 1, { "gdr-no-peermem", "nic-ports-exceed-pcie", NULL } },
		{ "nonuma-file", 1, { "gpu-nic-cross-socket", NULL } },
		{ "r740-interleave", 0, { "gpu-nic-no-gdr-path", NULL } },
	};
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		struct nicfit_topo *t = NULL;
		struct nicfit_audit *a;
		struct nicfit_error err;
		char root[256];

		nicfit_error_clear(&err);
		if (nicfit_topo_discover(fixture(ex[i].fixture, root, sizeof(root)), &t, &err))
			fail_msg("%s: %s", root, err.msg);
		a = run(t, NULL, 0);
		if (nicfit_audit_exit_code(a) != ex[i].exit_code)
			fail_msg("%s: exit %d, expected %d", ex[i].fixture, nicfit_audit_exit_code(a),
				 ex[i].exit_code);
		for (k = 0; ex[i].codes[k]; k++)
			if (!count(a, ex[i].codes[k]))
				fail_msg("%s: no %s finding", ex[i].fixture, ex[i].codes[k]);
		if (!strcmp(ex[i].fixture, "hgx-h100")) {
			assert_int_equal(pair(a, "GPU0", "mlx5_0")->path, NICFIT_PATH_PIX);
			assert_true(pair(a, "GPU0", "mlx5_0")->gdr_default);
			assert_int_equal(pair(a, "GPU0", "mlx5_2")->path, NICFIT_PATH_PXB);
			assert_int_equal(pair(a, "GPU0", "mlx5_8")->path, NICFIT_PATH_SYS);
			assert_int_equal(pair(a, "GPU0", "mlx5_4")->path, NICFIT_PATH_NODE);
			assert_int_equal(count(a, "acs-redirect"), 1);
			assert_int_equal(count(a, "vpi-port-mode"), 0);
		}
		if (!strcmp(ex[i].fixture, "kvm-vm"))
			for (k = 0; k < a->ndevs; k++)
				assert_true(a->devs[k].link.path_gbps < 0);
		if (!strcmp(ex[i].fixture, "nonuma-file"))
			assert_int_equal(count(a, "numa-locality-unknown"), 0);
		if (!strcmp(ex[i].fixture, "r740-interleave"))
			assert_int_equal(a->nsockets, 2);
		if (!strcmp(ex[i].fixture, "wrx80-t2l")) {
			assert_int_equal(a->ngpus, 2);
			/* no module coding on RJ45, and an unknown operstate is not "no link" */
			assert_int_equal(count(a, "intel-700-no-link"), 0);
			assert_int_equal(count(a, "nic-card-pcie-bound"), 0);
			for (k = 0; k < a->ndevs; k++)
				if (a->topo->pci[a->devs[k].pci].device == 0x15ff)
					assert_string_equal(a->devs[k].name, "Intel X710-T2L 10GBASE-T");
		}
		if (!strcmp(ex[i].fixture, "epyc-gen4"))
			assert_int_equal(pair(a, "GPU1", "mlx5_3")->path, NICFIT_PATH_PHB);
		nicfit_audit_free(a);
		nicfit_topo_free(t);
	}
}

static void render_every_format(void **state)
{
	static const enum nicfit_format f[] = { NICFIT_FMT_TEXT, NICFIT_FMT_JSON, NICFIT_FMT_MD,
						NICFIT_FMT_CSV, NICFIT_FMT_SVG };
	struct nicfit_topo *t = switch_box(1);
	struct nicfit_audit *a = run(t, NULL, 0);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct nicfit_emit *e = nicfit_emit_new(f[i], 0, 0);
		struct nicfit_buf b;

		nicfit_buf_init(&b, 0);
		assert_int_equal(nicfit_audit_render(a, e), 0);
		assert_int_equal(nicfit_emit_finish(e, &b), 0);
		assert_true(b.len > 100);
		if (f[i] == NICFIT_FMT_JSON)
			assert_non_null(strstr(b.data, "\"schema\":\"nicfit.audit.v1\""));
		if (f[i] == NICFIT_FMT_SVG)
			assert_non_null(strstr(b.data, "</svg>"));
		nicfit_emit_free(e);
		nicfit_buf_release(&b);
	}
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

/* Plan with the host as the server, and judge the host against the plan. */
static void against_plan(void **state)
{
	static const char *const train[] = { "workload", "training", "model", "llama-3-8b",
					     "servers", "2", NULL };
	struct nicfit_catalog *c2;
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a;
	struct nicfit_plan *p = calloc(1, sizeof(*p));
	struct nicfit_plan_input in;
	struct nicfit_spec *spec = calloc(1, sizeof(*spec));
	struct nicfit_host_server *h = malloc(sizeof(*h));
	struct nicfit_error err;
	char root[256], *json;
	int i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&c2, &err), 0);
	assert_int_equal(nicfit_topo_discover(fixture("r740xd", root, sizeof(root)), &t, &err), 0);
	a = run(t, NULL, 0);
	/* the host as a server: the firmware's slots, GPUs in two of them, the rNDC onboard */
	nicfit_audit_host_server(a, h);
	assert_int_equal(h->server.nslots, 7);
	assert_int_equal(h->ngpus, 2);
	assert_string_equal(h->gpus[0].catalog_id, "a40");
	assert_int_equal(h->gpus[0].socket, 1);
	assert_int_equal(h->server.slots[h->gpus[0].slot].gpu, NICFIT_GPU_DOUBLE);
	assert_int_equal(h->server.nonboard, 1);
	assert_int_equal(h->nnics, 2);
	json = nicfit_audit_host_catalog_json(a, "this-host");
	assert_non_null(json);
	nicfit_audit_free(a);
	assert_int_equal(nicfit_catalog_overlay(c2, "host", json, strlen(json), &err), 0);
	free(json);
	assert_non_null(nicfit_catalog_find_server(c2, "this-host", NULL, NULL));
	/* sysfs gives no slot's size: each is taken to fit any card, a dual-slot one too */
	for (i = 0; i < nicfit_catalog_find_server(c2, "this-host", NULL, NULL)->nslots; i++) {
		const struct nicfit_slot *s =
			&nicfit_catalog_find_server(c2, "this-host", NULL, NULL)->slots[i];

		assert_true(s->full_height && s->full_length && s->double_room);
	}
	/* plan training for two of these, then check the host against it */
	nicfit_spec_init(spec, "test");
	for (i = 0; train[i]; i += 2)
		assert_int_equal(nicfit_spec_add(spec, train[i], train[i + 1], &err), 0);
	nicfit_spec_add(spec, "server", "this-host", &err);
	nicfit_spec_add(spec, "gpu", "a40", &err);
	nicfit_spec_add(spec, "gpus_per_server", "2", &err);
	if (nicfit_plan_input_from_spec(c2, spec, &in, &err) || nicfit_plan(c2, &in, p, &err))
		fail_msg("plan: %s", err.msg);
	assert_true(p->backend_needed);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_audit_judge(t, c2, NULL, &a, &err), 0);
	assert_int_equal(nicfit_audit_check_plan(a, p, &err), 0);
	assert_true(a->plan.checked);
	assert_true(a->plan.matches);
	assert_string_equal(a->plan.fabric, "roce");
	assert_string_equal(a->plan.host_fabric, "roce");
	assert_near(a->plan.host_backend_gbps, a->devs[2].supply_gbps, 0.01);
	nicfit_audit_free(a);
	/* a host without RDMA against the same plan */
	for (i = 0; i < t->nrdma; i++)
		t->rdma[i].pci = -1;
	a = run(t, NULL, 0);
	assert_int_equal(nicfit_audit_check_plan(a, p, &err), 0);
	assert_false(a->plan.matches);
	assert_true(has(a, "plan-backend-missing", NICFIT_SEV_CRITICAL));
	assert_int_equal(nicfit_audit_exit_code(a), 2);
	nicfit_audit_free(a);
	nicfit_spec_release(spec);
	free(spec);
	nicfit_plan_release(p);
	free(p);
	free(h);
	nicfit_topo_free(t);
	nicfit_catalog_free(c2);
}

/* A card's PSID (board_id, readable without root) names its part from the catalog. */
static void psid_names_part(void **state)
{
	const struct nicfit_nic *n = nicfit_catalog_find_nic_psid(cat, "MT_0000000834");

	(void)state;
	assert_non_null(n);
	assert_string_equal(n->part, "MCX755106AS-HEAT");
	assert_int_equal(n->ports, 2);
	assert_true(n->port_gbps == 200);
	assert_string_equal(nicfit_catalog_find_nic_psid(cat, "MT_0000000008")->part, "MCX556A-ECAT");
	assert_null(nicfit_catalog_find_nic_psid(cat, "MT_9"));
	assert_null(nicfit_catalog_find_nic_psid(cat, ""));
}

/*
 * With --all, a function without a name of its kind is labelled by its BDF
 * as lspci prints it: the domain dropped when it is 0000, kept otherwise
 * (a VMD's 10000, a second segment's 0001), never cut to ":01:00.0".
 */
static void bdf_labels_keep_domains(void **state)
{
	struct nicfit_topo *t = nicfit_topo_new();
	struct nicfit_audit_opts o;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	int hb, vmd, hv, hs, k, seen = 0;

	(void)state;
	nicfit_topo_add_numa(t, 0, "0-7", 0);
	hb = nicfit_topo_add_hostbridge(t, "pci0000:00", 0);
	hs = nicfit_topo_add_hostbridge(t, "pci0001:00", 0);
	fn(t, "0000:00:1f.2", -1, hb, 0x010601, 0x8086, 0xa352, 0, 0, 0, 0, 0);
	vmd = fn(t, "0000:00:0e.0", -1, hb, 0x010400, 0x8086, 0x467f, 0, 0, 0, 0, 0);
	hv = nicfit_topo_add_hostbridge(t, "pci10000:00", 0);
	t->hb[hv].parent_pci = vmd;
	fn(t, "10000:01:00.0", -1, hv, 0x010802, 0x144d, 0xa80a, 0, 4, 4, 4, 4);
	fn(t, "0001:17:00.0", -1, hs, 0x010802, 0x144d, 0xa80a, 0, 4, 4, 4, 4);
	nicfit_topo_finish(t);
	memset(&o, 0, sizeof(o));
	o.all = 1;
	nicfit_error_clear(&err);
	if (nicfit_audit_judge(t, cat, &o, &a, &err))
		fail_msg("audit: %s", err.msg);
	for (k = 0; k < a->ndevs; k++) {
		const char *bdf = t->pci[a->devs[k].pci].bdf;

		if (!strcmp(bdf, "0000:00:1f.2"))
			assert_string_equal(a->devs[k].label, "00:1f.2"), seen |= 1;
		if (!strcmp(bdf, "10000:01:00.0"))
			assert_string_equal(a->devs[k].label, "10000:01:00.0"), seen |= 2;
		if (!strcmp(bdf, "0001:17:00.0"))
			assert_string_equal(a->devs[k].label, "0001:17:00.0"), seen |= 4;
	}
	assert_int_equal(seen, 7);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(psid_names_part),
		cmocka_unit_test(qdr_data_rate),
		cmocka_unit_test(rdma_driver_unknown),
		cmocka_unit_test(driver_unknown),
		cmocka_unit_test(one_port_own_link),
		cmocka_unit_test(findings_use_pciids_names),
		cmocka_unit_test(bdf_labels_keep_domains),
		cmocka_unit_test(path_classes),
		cmocka_unit_test(unknown_locality),
		cmocka_unit_test(idle_versus_downtrained),
		cmocka_unit_test(starved_card),
		cmocka_unit_test(ignore_checked),
		cmocka_unit_test(chipset_and_classes),
		cmocka_unit_test(baset_port_slow),
		cmocka_unit_test(fixtures),
		cmocka_unit_test(render_every_format),
		cmocka_unit_test(against_plan),
	};

	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
