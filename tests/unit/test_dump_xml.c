/*
 * test_dump_xml.c - hwloc and NCCL topology XML in the dump reader
 * (dump_xml.c): multi-word and infinite cpusets, nodes' sockets from
 * their packages, the tree from nesting and bus ranges, NUMA placement
 * from an object's nodeset, OS devices (interfaces, RDMA devices and port
 * states, NVML indices), a document inside a paste with text around it,
 * a cut document, and one that defines entities. The inline documents
 * are written for these tests in the layouts hwloc 2.x and NCCL write;
 * the real ones are under tests/fixtures/dumps/xml (see its README).
 */
#include "unit.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"

/* hwloc 2.x: two packages of 36 CPUs (cpusets over two words), an infinite set, a switch. */
static const char hwloc2[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
	"<topology version=\"2.0\">\n"
	"  <object type=\"Machine\" os_index=\"0\" cpuset=\"0x000000ff,0xffffffff,0xffffffff\" nodeset=\"0x00000003\">\n"
	"    <object type=\"Package\" os_index=\"0\" cpuset=\"0x0000000f,0xffffffff\" nodeset=\"0x00000001\">\n"
	"      <object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x0000000f,0xffffffff\" nodeset=\"0x00000001\"/>\n"
	"      <object type=\"Bridge\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[16-1b]\">\n"
	"        <object type=\"Bridge\" bridge_type=\"1-1\" depth=\"1\" bridge_pci=\"0000:[17-1b]\" pci_busid=\"0000:16:01.0\" pci_type=\"0604 [8086:352a] [0000:0000] 04\" pci_link_speed=\"31.507692\">\n"
	"          <object type=\"Bridge\" bridge_type=\"1-1\" depth=\"2\" bridge_pci=\"0000:[18-1b]\" pci_busid=\"0000:17:00.0\" pci_type=\"0604 [1000:c010] [1000:a096] b0\">\n"
	"            <object type=\"Bridge\" bridge_type=\"1-1\" depth=\"3\" bridge_pci=\"0000:[19-19]\" pci_busid=\"0000:18:00.0\" pci_type=\"0604 [1000:c010] [1000:a096] b0\">\n"
	"              <object type=\"PCIDev\" pci_busid=\"0000:19:00.0\" pci_type=\"0302 [10de:20b0] [10de:134f] a1\">\n"
	"                <info name=\"PCISlot\" value=\"3\"/>\n"
	"                <object type=\"OSDev\" name=\"nvml1\" osdev_type=\"1\"/>\n"
	"              </object>\n"
	"            </object>\n"
	"            <object type=\"Bridge\" bridge_type=\"1-1\" depth=\"3\" bridge_pci=\"0000:[1a-1a]\" pci_busid=\"0000:18:01.0\" pci_type=\"0604 [1000:c010] [1000:a096] b0\">\n"
	"              <object type=\"PCIDev\" pci_busid=\"0000:1a:00.0\" pci_type=\"0207 [15b3:101b] [15b3:0007] 00\">\n"
	"                <object type=\"OSDev\" name=\"ibp26s0\" osdev_type=\"2\"/>\n"
	"                <object type=\"OSDev\" name=\"mlx5_0\" osdev_type=\"3\">\n"
	"                  <info name=\"NodeGUID\" value=\"b859:9f03:00d4:9a02\"/>\n"
	"                  <info name=\"Port1State\" value=\"4\"/>\n"
	"                </object>\n"
	"              </object>\n"
	"            </object>\n"
	"          </object>\n"
	"        </object>\n"
	"      </object>\n"
	"    </object>\n"
	"    <object type=\"Package\" os_index=\"1\" cpuset=\"0xf...f,0xfffffff0,0x00000000\" nodeset=\"0x00000002\">\n"
	"      <object type=\"NUMANode\" os_index=\"1\" cpuset=\"0x000000ff,0xfffffff0,0x00000000\" nodeset=\"0x00000002\"/>\n"
	"    </object>\n"
	"    <object type=\"Bridge\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[00-00]\">\n"
	"      <object type=\"PCIDev\" pci_busid=\"0000:00:1f.6\" pci_type=\"0200 [8086:15b9] [1028:07a1] 10\">\n"
	"        <object type=\"OSDev\" name=\"eno1\" osdev_type=\"2\"/>\n"
	"      </object>\n"
	"    </object>\n"
	"  </object>\n"
	"</topology>\n";

/* NCCL: a switch holding a GPU and a second switch with a dual-port NIC. */
static const char nccl[] =
	"<system version=\"1\">\n"
	"  <cpu numaid=\"1\" affinity=\"0000000f,ffffffff\" arch=\"x86_64\" vendor=\"GenuineIntel\" familyid=\"6\" modelid=\"143\">\n"
	"    <pci busid=\"0000:17:00.0\" class=\"0x060400\" vendor=\"0x1000\" device=\"0xc010\" subsystem_vendor=\"0x1000\" subsystem_device=\"0xa096\" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\">\n"
	"      <pci busid=\"0000:19:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x20b0\" subsystem_vendor=\"0x10de\" subsystem_device=\"0x134f\" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\">\n"
	"        <gpu dev=\"2\" sm=\"80\" rank=\"0\" gdr=\"1\">\n"
	"          <nvlink target=\"0000:c7:00.0\" count=\"2\" tclass=\"0x068000\"/>\n"
	"        </gpu>\n"
	"      </pci>\n"
	"      <pci busid=\"0000:1c:00.0\" class=\"0x060400\" vendor=\"0x1000\" device=\"0xc010\" subsystem_vendor=\"0x1000\" subsystem_device=\"0xa096\" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\">\n"
	"        <pci busid=\"0000:1e:00.0\" class=\"0x020700\" vendor=\"0x15b3\" device=\"0x101b\" subsystem_vendor=\"0x15b3\" subsystem_device=\"0x0007\" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\">\n"
	"          <nic>\n"
	"            <net name=\"mlx5_4\" dev=\"4\" speed=\"200000\" port=\"1\" latency=\"0.000000\" guid=\"0x64774a0003a1420c\" maxconn=\"131072\" gdr=\"1\"/>\n"
	"            <net name=\"mlx5_4\" dev=\"5\" speed=\"100000\" port=\"2\" latency=\"0.000000\" guid=\"0x64774a0003a1420c\" maxconn=\"131072\" gdr=\"1\"/>\n"
	"            <net name=\"ens1f0np0\" dev=\"6\" speed=\"100000\" port=\"0\"/>\n"
	"          </nic>\n"
	"        </pci>\n"
	"      </pci>\n"
	"    </pci>\n"
	"  </cpu>\n"
	"</system>\n";

static struct nicfit_topo *read_text(const char *text, struct nicfit_dump **out)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "topo.xml", text, strlen(text), &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), 0);
	*out = d;
	return t;
}

static const struct nicfit_numa *node(const struct nicfit_topo *t, int id)
{
	int i;

	for (i = 0; i < t->nnuma; i++)
		if (t->numa[i].id == id)
			return &t->numa[i];
	fail_msg("no node %d", id);
	return NULL;
}

static int rdma(const struct nicfit_topo *t, const char *name)
{
	int i;

	for (i = 0; i < t->nrdma; i++)
		if (!strcmp(t->rdma[i].name, name))
			return i;
	return -1;
}

static void hwloc_v2(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(hwloc2, &d);
	int gpu = nicfit_topo_find(t, "0000:19:00.0"), nic = nicfit_topo_find(t, "0000:1a:00.0");
	int eth = nicfit_topo_find(t, "0000:00:1f.6"), r = rdma(t, "mlx5_0"), i;
	const struct dump_fn *f;

	(void)state;
	assert_true(nicfit_dump_formats(d) & NICFIT_DUMP_HWLOC);
	assert_string_equal(node(t, 0)->cpulist, "0-35");
	assert_string_equal(node(t, 1)->cpulist, "36-71");
	assert_int_equal(node(t, 0)->package, 0);
	assert_int_equal(node(t, 1)->package, 1);
	assert_int_equal(t->npackages, 2);
	assert_true(gpu >= 0 && nic >= 0 && eth >= 0);
	assert_int_equal(t->pci[gpu].numa_node, 0);
	assert_int_equal(t->pci[eth].numa_node, -1); /* under the Machine: both nodes */
	assert_int_equal(t->pci[gpu].vendor, 0x10de);
	assert_int_equal(t->pci[gpu].class_code, 0x030200);
	assert_string_equal(t->pci[gpu].slot, "3");
	assert_string_equal(t->pci[t->pci[gpu].parent].bdf, "0000:18:00.0");
	assert_int_equal(t->pci[t->pci[gpu].parent].secondary_bus, 0x19);
	assert_int_equal(t->pci[gpu].depth, t->pci[nic].depth);
	assert_true(r >= 0);
	assert_int_equal(t->rdma[r].pci, nic);
	assert_int_equal(t->rdma[r].nports, 1);
	assert_int_equal(t->rdma[r].ports[0].num, 1);
	assert_int_equal(t->rdma[r].ports[0].state, 4);
	for (i = 0; i < t->nnet && strcmp(t->net[i].name, "eno1"); i++)
		;
	assert_true(i < t->nnet);
	assert_int_equal(t->net[i].pci, eth);
	assert_string_equal(d->gpu_bdf[1], "0000:19:00.0"); /* nvml1 */
	f = nicfit__dump_find(d, "0000:19:00.0");
	assert_non_null(f);
	assert_int_equal(f->at.line, 11); /* its own element's line */
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

static void nccl_topology(void **state)
{
	struct nicfit_dump *d;
	struct nicfit_topo *t = read_text(nccl, &d);
	int gpu = nicfit_topo_find(t, "0000:19:00.0"), nic = nicfit_topo_find(t, "0000:1e:00.0");
	int sw2 = nicfit_topo_find(t, "0000:1c:00.0"), r = rdma(t, "mlx5_4"), i;

	(void)state;
	assert_true(nicfit_dump_formats(d) & NICFIT_DUMP_NCCL);
	assert_string_equal(node(t, 1)->cpulist, "0-35");
	assert_int_equal(node(t, 1)->package, -1); /* NCCL gives no sockets */
	assert_true(gpu >= 0 && nic >= 0 && sw2 >= 0);
	assert_string_equal(t->pci[t->pci[gpu].parent].bdf, "0000:17:00.0");
	assert_int_equal(t->pci[nic].parent, sw2);
	assert_int_equal(t->pci[gpu].numa_node, 1);
	assert_false(t->pci[gpu].have & NICFIT_HAVE_CUR_SPEED); /* not LnkSta */
	assert_string_equal(d->gpu_bdf[2], "0000:19:00.0");
	assert_true(r >= 0);
	assert_int_equal(t->rdma[r].pci, nic);
	/* both ports are read, but NCCL gives no port state: the model claims none */
	assert_int_equal(d->nrdma, 1);
	assert_int_equal(d->rdma[0].nports, 2);
	assert_int_equal(d->rdma[0].ports[1].num, 2);
	assert_int_equal(d->rdma[0].ports[1].state, -1);
	assert_int_equal(t->rdma[r].nports, 0);
	for (i = 0; i < t->nnet && strcmp(t->net[i].name, "ens1f0np0"); i++)
		;
	assert_true(i < t->nnet);
	assert_int_equal(t->net[i].pci, nic);
	assert_true(d->xml->nvlink);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/* Prose and a plain lspci line after the document are read as text, at their own lines. */
static void inside_a_paste(void **state)
{
	char paste[4096];
	struct nicfit_dump *d;
	struct nicfit_topo *t;
	const struct dump_fn *f;

	(void)state;
	snprintf(paste, sizeof(paste), "Here is NCCL_TOPO_DUMP_FILE:\n```xml\n%s```\n"
		 "0000:5e:00.0 Ethernet controller [0200]: Intel Corporation Ethernet Controller "
		 "X710 [8086:1572] (rev 02)\n", nccl);
	t = read_text(paste, &d);
	f = nicfit__dump_find(d, "0000:5e:00.0");
	assert_non_null(f);
	assert_int_equal(f->at.line, 24); /* prose, fence, 20 lines of XML, fence */
	assert_int_equal(nicfit__dump_find(d, "0000:19:00.0")->at.line, 6);
	assert_true(nicfit_dump_formats(d) & NICFIT_DUMP_LSPCI);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

static void cut_and_refused(void **state)
{
	char cut[2048];
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;
	const char *ent = "<?xml version=\"1.0\"?>\n<!DOCTYPE system [\n<!ENTITY a \"x\">\n]>\n"
			  "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"0000:01:00.0\" "
			  "class=\"0x030200\" vendor=\"0x10de\" device=\"0x20b0\"/></cpu></system>\n";
	const char *ent7 = "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n"
			   "+ADw-+ACE-DOCTYPE system +AFs-\n"
			   "+ADw-+ACE-ENTITY a +ACI-x+ACI-+AD4-\n+AF0-+AD4-\n"
			   "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"0000:01:00.0\" "
			   "class=\"0x030200\" vendor=\"0x10de\" device=\"0x20b0\" "
			   "link_speed=\"+ACY-a+ADs-\"/></cpu></system>\n";
	const char *sys = "<?xml version=\"1.0\"?>\n<!DOCTYPE system SYSTEM \"nccl.dtd\">\n"
			  "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"0000:01:00.0\" "
			  "class=\"0x030200\" vendor=\"0x10de\" device=\"0x20b0\"/></cpu></system>\n";

	(void)state;
	snprintf(cut, sizeof(cut), "%.*s", (int)(strstr(nccl, "<nic>") - nccl), nccl);
	t = read_text(cut, &d);
	assert_true(nicfit_topo_find(t, "0000:1e:00.0") >= 0);
	assert_non_null(nicfit__dump_xml_unread(d));
	assert_non_null(strstr(nicfit__dump_xml_unread(d), "topo.xml:1 is cut or damaged"));
	nicfit_topo_free(t);
	nicfit_dump_free(d);

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "ent.xml", ent, strlen(ent), &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "ent.xml:1 has a DTD internal subset"));
	assert_null(t);
	nicfit_dump_free(d);

	/* the same subset in UTF-7: "+ADw-+ACE-ENTITY" holds no "<!ENTITY" byte string */
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_null(strstr(ent7, "<!ENTITY"));
	assert_int_equal(nicfit_dump_add_text(d, "ent7.xml", ent7, strlen(ent7), &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "ent7.xml:1 has a DTD internal subset"));
	assert_null(t);
	nicfit_dump_free(d);

	/* a DOCTYPE naming an external DTD, without a subset, is read (the DTD is not loaded) */
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "sys.xml", sys, strlen(sys), &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), 0);
	assert_true(nicfit_topo_find(t, "0000:01:00.0") >= 0);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
}

/*
 * One bad element is a read problem, not a lost subtree: a <pci> whose
 * busid is no PCI address keeps the switch and devices under it, a <cpu>
 * numaid past any machine's keeps its devices (NUMA unknown); a VMD
 * domain (10000 and up) is read as lspci's is; an XML whose one function
 * is unreadable is refused naming the element's line.
 */
static void bad_elements(void **state)
{
	static const char doc[] =
		"<system version=\"1\">\n"
		"  <cpu numaid=\"99999999999999999999\" affinity=\"ff\">\n"
		"    <pci busid=\"ffffffff:ff:1f.7\" class=\"0x060400\" vendor=\"0x1000\" device=\"0xc010\">\n"
		"      <pci busid=\"0000:19:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x2330\"/>\n"
		"    </pci>\n"
		"    <pci busid=\"10000:e1:00.0\" class=\"0x020700\" vendor=\"0x15b3\" device=\"0x1021\"/>\n"
		"  </cpu>\n"
		"</system>\n";
	static const char only[] = "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"ffffffff:ff:1f.7\" "
				   "class=\"0x030200\" vendor=\"0x10de\" device=\"0x2330\"/></cpu></system>\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t;
	struct nicfit_error err;
	int gpu;

	(void)state;
	t = read_text(doc, &d);
	gpu = nicfit_topo_find(t, "0000:19:00.0");
	assert_true(gpu >= 0);
	assert_int_equal(t->pci[gpu].numa_node, -1);
	assert_true(nicfit_topo_find(t, "10000:e1:00.0") >= 0);
	assert_int_equal(t->problems_total, 2);
	assert_string_equal(t->problems[0].path, "topo.xml:2");
	assert_non_null(strstr(t->problems[0].what, "<cpu numaid=\"99999999999999999999\">"));
	assert_string_equal(t->problems[1].path, "topo.xml:3");
	assert_non_null(strstr(t->problems[1].what, "<pci busid=\"ffffffff:ff:1f.7\">"));
	nicfit_topo_free(t);
	nicfit_dump_free(d);

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "one.xml", only, strlen(only), &err), 0);
	t = NULL;
	assert_int_equal(nicfit_dump_topo(d, &t, &err), NICFIT_E_DATA);
	assert_null(t);
	assert_non_null(strstr(err.msg, "one.xml:1: <pci busid=\"ffffffff:ff:1f.7\">"));
	assert_null(strstr(err.msg, "no lspci listing"));
	nicfit_dump_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hwloc_v2),
		cmocka_unit_test(nccl_topology),
		cmocka_unit_test(inside_a_paste),
		cmocka_unit_test(cut_and_refused),
		cmocka_unit_test(bad_elements),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
