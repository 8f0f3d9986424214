/*
 * test_identity.c - one identity for every part: each catalog NIC and GPU
 * resolves by its PCI ID (the built-in table compiled from
 * data/ids/pci.txt) to a function of the same kind and a name that agrees
 * with the catalog's, and the part-number decoder, reading the catalog
 * NIC's part with its own rules (the ConnectX families, the Intel table of
 * data/ids/intel.txt), gives the same PCI ID and family; pci.ids, for
 * what the table lacks, is searched without being loaded.
 */
#include "unit.h"

#include <unistd.h>

#include "nicfit/catalog.h"
#include "nicfit/partno.h"
#include "parts/partno_int.h"
#include "core/pciids_int.h"

/* a is b, or b followed by more words (or a variant: "E810" of "E810-C"). */
static int word_prefix(const char *a, const char *b)
{
	size_t n = strlen(b);

	return !strncmp(a, b, n) && (a[n] == '\0' || a[n] == ' ' || a[n] == '-');
}

static void catalog_nics_resolve(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	size_t i, checked = 0, decoded = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_NIC); i++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, i);
		const struct nicfit_pci_id *id;
		struct nicfit_part p;

		if (!n->pci_vendor)
			continue;
		id = nicfit__pci_id_find(n->pci_vendor, n->pci_device);
		if (!id)
			fail_msg("nic %s: %04x:%04x is not in data/ids/pci.txt", n->e.id,
				 n->pci_vendor, n->pci_device);
		if (!(id->flags & NICFIT_PCIID_NIC) ||
		    (id->flags & (NICFIT_PCIID_VF | NICFIT_PCIID_RECOVERY | NICFIT_PCIID_GPU)))
			fail_msg("nic %s: %04x:%04x is not a NIC's physical function there",
				 n->e.id, n->pci_vendor, n->pci_device);
		if (!word_prefix(id->name, n->family))
			fail_msg("nic %s: family '%s', but %04x:%04x is '%s'", n->e.id, n->family,
				 n->pci_vendor, n->pci_device, id->name);
		if ((n->rdma & ~id->rdma) != 0)
			fail_msg("nic %s: RDMA %#x beyond its chip's %#x", n->e.id, n->rdma, id->rdma);
		checked++;
		nicfit_error_clear(&err);
		if (!n->part || nicfit_decode(NULL, n->part, &p, &err) || !p.pci_device)
			continue;
		if (p.pci_vendor != n->pci_vendor || p.pci_device != n->pci_device)
			fail_msg("nic %s: the decoder says %04x:%04x, the catalog %04x:%04x", n->e.id,
				 p.pci_vendor, p.pci_device, n->pci_vendor, n->pci_device);
		assert_string_equal(p.family, n->family);
		decoded++;
	}
	assert_true(checked >= 20);
	assert_true(decoded >= 10);
	nicfit_catalog_free(cat);
}

static void catalog_gpus_resolve(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	size_t i, checked = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_GPU); i++) {
		const struct nicfit_gpu *g = nicfit_catalog_gpu(cat, i);
		const struct nicfit_pci_id *id;

		if (!g->pci_vendor)
			continue;
		id = nicfit__pci_id_find(g->pci_vendor, g->pci_device);
		if (!id || !(id->flags & NICFIT_PCIID_GPU))
			fail_msg("gpu %s: %04x:%04x is not a GPU of data/ids/pci.txt", g->e.id,
				 g->pci_vendor, g->pci_device);
		if (!word_prefix(g->e.name, id->name))
			fail_msg("gpu %s: named '%s', but %04x:%04x is '%s'", g->e.id, g->e.name,
				 g->pci_vendor, g->pci_device, id->name);
		checked++;
	}
	assert_true(checked >= 15);
	nicfit_catalog_free(cat);
}

/* The ConnectX family table names each chip as the PCI ID table does. */
static void connectx_families_resolve(void **state)
{
	int f, checked = 0;

	(void)state;
	for (f = 0; f < FAM_COUNT; f++) {
		const struct nicfit_pci_id *id;

		if (!nicfit__cx_fam[f].device)
			continue;
		id = nicfit__pci_id_find(0x15b3, nicfit__cx_fam[f].device);
		assert_non_null(id);
		assert_string_equal(id->name, nicfit__cx_fam[f].name);
		assert_true(nicfit__cx_fam[f].max_gbps == id->max_port_gbps);
		checked++;
	}
	assert_true(checked >= 10);
}

/* A new file under /tmp from a mkstemp() template, open for writing. */
static FILE *temp_file(char *path)
{
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	return f;
}

/*
 * pci.ids is searched through a window, never loaded whole: names across
 * window boundaries, after a line longer than the window, and nothing from
 * the class list that follows the devices.
 */
static void pciids_window_search(void **state)
{
	char path[] = "/tmp/nicfit-test-pciids-XXXXXX";
	struct nicfit_pciids_query q[3];
	struct nicfit_error err;
	FILE *f;
	int i;

	(void)state;
	f = temp_file(path);
	fprintf(f, "# pci.ids\n15b3  Mellanox Technologies\n\t1017  MT27800 Family [ConnectX-5]\n"
		"\t\t15b3 0007  a subsystem\n");
	for (i = 0; i < 5000; i++)
		fprintf(f, "%04x  Vendor %d\n\t0001  Device %d\n", 0x2000 + i, i, i);
	fputc('#', f);
	for (i = 0; i < 100000; i++)
		fputc('x', f);
	fprintf(f, "\n8086  Intel Corporation\n\t1572  Ethernet Controller X710 for 10GbE SFP+\n"
		"C 02  Network controller\n\t00  Ethernet controller\nabcd  After classes\n"
		"\t0001  Not a device\n");
	assert_int_equal(fclose(f), 0);
	memset(q, 0, sizeof(q));
	q[0].vendor = 0x15b3, q[0].device = 0x1017;
	q[1].vendor = 0x8086, q[1].device = 0x1572;
	q[2].vendor = 0xabcd, q[2].device = 0x0001;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__pciids_lookup(path, q, 3, &err), 0);
	assert_string_equal(q[0].device_name, "MT27800 Family [ConnectX-5]");
	assert_string_equal(q[0].vendor_name, "Mellanox Technologies");
	assert_string_equal(q[1].device_name, "Ethernet Controller X710 for 10GbE SFP+");
	assert_string_equal(q[2].device_name, "");
	unlink(path);
}

/*
 * pci.ids is sorted by vendor: past the last vendor asked about, the scan
 * stops (a section for that vendor out of order further on is not read).
 */
static void pciids_stops_past_vendor(void **state)
{
	char path[] = "/tmp/nicfit-test-pciids-XXXXXX";
	struct nicfit_pciids_query q[2];
	struct nicfit_error err;
	FILE *f;

	(void)state;
	f = temp_file(path);
	fprintf(f, "1000  First\n\t0001  Device one\n2000  Second\n\t0001  Device two\n"
		"1000  First again\n\t0002  Out of order\n");
	assert_int_equal(fclose(f), 0);
	memset(q, 0, sizeof(q));
	q[0].vendor = 0x1000, q[0].device = 0x0002;
	q[1].vendor = 0x1000, q[1].device = 0x0001;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__pciids_lookup(path, q, 2, &err), 0);
	assert_string_equal(q[0].vendor_name, "First");
	assert_string_equal(q[0].device_name, "");
	assert_string_equal(q[1].device_name, "Device one");
	unlink(path);
}

/*
 * A pci.ids of 512 KiB or more is bisected by vendor, not read from its
 * start: every vendor finds its names, wherever its section falls (the
 * first, the last, after a section longer than a probe reads, after a
 * comment longer than a probe), a device or vendor the file lacks stays
 * unnamed, and nothing comes from the class list or what follows it.
 */
static void pciids_bisect_search(void **state)
{
	char path[] = "/tmp/nicfit-test-pciids-XXXXXX";
	static const unsigned vendors[] = { 0x0001, 0x0002, 0x0fff, 0x1000, 0x1001, 0x2000,
					    0x2001, 0x3abc, 0x3fff };
	struct nicfit_pciids_query q[3 * sizeof(vendors) / sizeof(vendors[0]) + 2];
	struct nicfit_error err;
	char want[64];
	size_t k, nq = 0;
	FILE *f;
	int v, d;

	(void)state;
	f = temp_file(path);
	fprintf(f, "# pci.ids\n#\n");
	for (v = 1; v < 0x4000; v++) {
		int ndev = v == 0x1000 ? 900 : v % 7 == 0 ? 3 : 1;

		if (v == 0x2000) {
			fputc('#', f);
			for (d = 0; d < 40000; d++)
				fputc('x', f);
			fputc('\n', f);
		}
		if (v == 0x3000)
			continue; /* a vendor the file lacks */
		fprintf(f, "%04x  Vendor %04x\n", v, v);
		for (d = 1; d <= ndev; d++) {
			fprintf(f, "\t%04x  Device %04x:%04x\n", d * 2, v, d * 2);
			if (v == 0x1000)
				fprintf(f, "\t\t%04x 0001  Subsystem %d\n", v, d);
		}
	}
	fprintf(f, "\nC 02  Network controller\n\t00  Ethernet controller\n"
		"4001  After classes\n\t0002  Not a device\n");
	assert_true(ftell(f) >= 512 * 1024); /* big enough to be bisected */
	assert_int_equal(fclose(f), 0);
	memset(q, 0, sizeof(q));
	for (k = 0; k < sizeof(vendors) / sizeof(vendors[0]); k++) {
		q[nq].vendor = vendors[k], q[nq++].device = 2;
		q[nq].vendor = vendors[k], q[nq++].device = 3; /* odd: no such device */
		q[nq].vendor = vendors[k], q[nq++].device = vendors[k] == 0x1000 ? 1800 : 2;
	}
	q[nq].vendor = 0x3000, q[nq++].device = 2;
	q[nq].vendor = 0x4001, q[nq++].device = 2;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__pciids_lookup(path, q, nq, &err), 0);
	for (k = 0; k + 2 < nq; k++) {
		snprintf(want, sizeof(want), "Vendor %04x", q[k].vendor);
		assert_string_equal(q[k].vendor_name, want);
		snprintf(want, sizeof(want), "Device %04x:%04x", q[k].vendor, q[k].device);
		assert_string_equal(q[k].device_name, q[k].device % 2 ? "" : want);
	}
	assert_string_equal(q[nq - 2].vendor_name, "");
	assert_string_equal(q[nq - 2].device_name, "");
	assert_string_equal(q[nq - 1].vendor_name, "");
	assert_string_equal(q[nq - 1].device_name, "");
	unlink(path);
}

/*
 * The reference for pciids_big_sections: the vendor's and the device's
 * names read the plain way, every line from the start, up to the class
 * list ("" when absent).
 */
static void plain_lookup(const char *path, unsigned vendor, unsigned device, char *vname,
			 char *dname, size_t cap)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	int in = 0;
	unsigned v;

	vname[0] = dname[0] = '\0';
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "C ", 2))
			break;
		if (line[0] == '#' || (line[0] == '\t' && line[1] == '\t'))
			continue;
		if (line[0] != '\t') {
			in = sscanf(line, "%4x", &v) == 1 && strlen(line) > 6 && line[4] == ' ' &&
			     v == vendor;
			if (in)
				snprintf(vname, cap, "%s", line + 6);
		} else if (in && strlen(line) > 7 && line[5] == ' ' &&
			   sscanf(line + 1, "%4x", &v) == 1 && v == device) {
			snprintf(dname, cap, "%s", line + 7);
		}
	}
	fclose(f);
}

/*
 * Sections far longer than the scan's window (one of 6,000 devices, each
 * with a run of subsystem lines, a comment and lines that are no device
 * line among them) are crossed without reading a line wrongly: many
 * queries at once for one vendor, the first device, the last, one in
 * each window, one past the last, IDs the section lacks, and the vendors
 * either side, all named as a plain reading of the file names them.
 */
static void pciids_big_sections(void **state)
{
	char path[] = "/tmp/nicfit-test-pciids-XXXXXX";
	struct nicfit_pciids_query q[48];
	struct nicfit_error err;
	char vname[128], dname[128];
	size_t k, nq = 0;
	FILE *f;
	int v, d;

	(void)state;
	f = temp_file(path);
	fprintf(f, "# pci.ids\n");
	for (v = 0x1000; v < 0x4000; v++) {
		int ndev = v == 0x10de ? 6000 : v == 0x10df ? 3000 : 2;

		fprintf(f, "%04x  Vendor %04x\n", v, v);
		for (d = 1; d <= ndev; d++) {
			int sub = v == 0x10de && d % 97 == 0 ? 40 : d % 5 == 0 ? 2 : 0, i;

			fprintf(f, "\t%04x  Device %04x:%04x\n", d * 2, v, d * 2);
			for (i = 0; i < sub; i++)
				fprintf(f, "\t\t%04x %04x  Subsystem %d of %04x\n", v, i, i, d * 2);
			if (d == 1234)
				fprintf(f, "\tzz  not a device line\n\t\n\t0x12 nor this\n");
		}
	}
	fprintf(f, "\nC 02  Network controller\n\t00  Ethernet controller\n");
	assert_true(ftell(f) >= 512 * 1024);
	assert_int_equal(fclose(f), 0);
	memset(q, 0, sizeof(q));
	{
		static const unsigned nv[] = { 2, 3, 4, 2468, 2469, 5000, 7000, 9998, 11998, 12000,
					       12002, 0xffff, 1, 6000, 6002, 8888 };

		for (k = 0; k < sizeof(nv) / sizeof(nv[0]); k++)
			q[nq].vendor = 0x10de, q[nq++].device = nv[k];
	}
	q[nq].vendor = 0x10dd, q[nq++].device = 4;
	q[nq].vendor = 0x10df, q[nq++].device = 5998;
	q[nq].vendor = 0x10df, q[nq++].device = 6000;
	q[nq].vendor = 0x10e0, q[nq++].device = 2;
	q[nq].vendor = 0x3fff, q[nq++].device = 4;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit__pciids_lookup(path, q, nq, &err), 0);
	for (k = 0; k < nq; k++) {
		plain_lookup(path, q[k].vendor, q[k].device, vname, dname, sizeof(vname));
		assert_string_equal(q[k].vendor_name, vname);
		assert_string_equal(q[k].device_name, dname);
	}
	/* one at a time too: each query alone, as audits of one device ask */
	for (k = 0; k < nq; k++) {
		struct nicfit_pciids_query one = q[k];

		assert_int_equal(nicfit__pciids_lookup(path, &one, 1, &err), 0);
		assert_string_equal(one.device_name, q[k].device_name);
	}
	assert_string_equal(q[3].device_name, "Device 10de:09a4");
	assert_string_equal(q[9].device_name, "Device 10de:2ee0");
	assert_string_equal(q[4].device_name, "");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(catalog_nics_resolve),
		cmocka_unit_test(catalog_gpus_resolve),
		cmocka_unit_test(connectx_families_resolve),
		cmocka_unit_test(pciids_window_search),
		cmocka_unit_test(pciids_stops_past_vendor),
		cmocka_unit_test(pciids_bisect_search),
		cmocka_unit_test(pciids_big_sections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
