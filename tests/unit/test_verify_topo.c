/*
 * test_verify_topo.c - `nicfit audit --format nccl-topo`: the NCCL
 * topology file of the fixture machines. The XML is walked as NCCL's
 * reader walks it (src/graph/xml.cc: nested <cpu>, <pci>, <nic>, <net>),
 * and each GPU and NIC must sit under the CPU of its NUMA node and under
 * the PCI switch NCCL would put it under; the attributes must be ones
 * NCCL reads, as in the files Azure publishes for its GPU VMs
 * (tests/fixtures/verify/azure-ndv*-topo.xml); and verify must read the
 * file back.
 */
#include "unit.h"

#include "fixtures.h"
#include "nicfit/buf.h"
#include "nicfit/file.h"
#include "nicfit/topo.h"
#include "nicfit/verify.h"

#define MAX_EL 512
#define MAX_DEPTH 16

/* One element of the file: its name, busid/numaid/name attribute, its parent's index. */
struct el {
	char tag[8];
	char key[32];
	char affinity[64];
	char speed[16];
	char port[8];
	int parent;
};

struct doc {
	struct el v[MAX_EL];
	int n;
};

static const char *const known_attrs[] = {
	"version", "numaid", "affinity", "arch", "vendor", "familyid", "modelid", "busid", "class",
	"device", "subsystem_vendor", "subsystem_device", "link_speed", "link_width", "name",
	"speed", "port", NULL
};

static void attr(const char *p, const char *end, const char *a, char *out, size_t size)
{
	size_t al = strlen(a);
	const char *q;

	out[0] = '\0';
	for (q = p + 1; q + al + 2 < end; q++)
		if (q[-1] == ' ' && !strncmp(q, a, al) && q[al] == '=' && q[al + 1] == '"') {
			size_t n = strcspn(q + al + 2, "\"");

			if (n >= size)
				n = size - 1;
			memcpy(out, q + al + 2, n);
			out[n] = '\0';
			return;
		}
}

/* Every attribute name in the tag at p is one NCCL's reader knows. */
static void check_attrs(const char *p, const char *end)
{
	const char *q;

	for (q = p; q < end; q++) {
		char name[32];
		size_t n;
		int i, ok = 0;

		if (*q != ' ')
			continue;
		n = strcspn(q + 1, "=> /");
		if (!n || q[1 + n] != '=')
			continue;
		assert_true(n < sizeof(name));
		memcpy(name, q + 1, n);
		name[n] = '\0';
		for (i = 0; known_attrs[i]; i++)
			ok |= !strcmp(known_attrs[i], name);
		if (!ok)
			fail_msg("attribute %s is not one NCCL's topology reader knows", name);
		q += n;
	}
}

/* Parse the file: well formed (every open tag closed in order), elements with parents. */
static void parse(const char *s, struct doc *d)
{
	int stack[MAX_DEPTH], depth = 0;
	const char *p = s;

	d->n = 0;
	while ((p = strchr(p, '<')) != NULL) {
		const char *end = strchr(p, '>');
		int closing = p[1] == '/', selfclose;
		struct el *e;

		assert_non_null(end);
		selfclose = end[-1] == '/';
		if (closing) {
			assert_true(depth > 0);
			assert_int_equal(strncmp(p + 2, d->v[stack[depth - 1]].tag,
						 strlen(d->v[stack[depth - 1]].tag)), 0);
			depth--;
			p = end + 1;
			continue;
		}
		assert_true(d->n < MAX_EL);
		e = &d->v[d->n];
		memset(e, 0, sizeof(*e));
		snprintf(e->tag, sizeof(e->tag), "%.*s", (int)strcspn(p + 1, " />"), p + 1);
		e->parent = depth ? stack[depth - 1] : -1;
		check_attrs(p, end);
		if (!strcmp(e->tag, "pci"))
			attr(p, end, "busid", e->key, sizeof(e->key));
		else if (!strcmp(e->tag, "cpu"))
			attr(p, end, "numaid", e->key, sizeof(e->key));
		else if (!strcmp(e->tag, "net"))
			attr(p, end, "name", e->key, sizeof(e->key));
		attr(p, end, "affinity", e->affinity, sizeof(e->affinity));
		attr(p, end, "speed", e->speed, sizeof(e->speed));
		attr(p, end, "port", e->port, sizeof(e->port));
		if (!selfclose) {
			assert_true(depth < MAX_DEPTH);
			stack[depth++] = d->n;
		}
		d->n++;
		p = end + 1;
	}
	assert_int_equal(depth, 0);
	assert_true(d->n > 0);
	assert_string_equal(d->v[0].tag, "system");
}

static int el_find(const struct doc *d, const char *tag, const char *key)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].tag, tag) && !strcmp(d->v[i].key, key))
			return i;
	fail_msg("no <%s> %s in the topology", tag, key);
	return -1;
}

/* The chain above element i as "pci 0000:16:00.0 < cpu 0". */
static void chain(const struct doc *d, int i, char *out, size_t size)
{
	size_t k = 0;

	out[0] = '\0';
	for (i = d->v[i].parent; i > 0 && k < size; i = d->v[i].parent)
		k += (size_t)snprintf(out + k, size - k, "%s%s %s", k ? " < " : "", d->v[i].tag,
				      d->v[i].key);
}

static char *write_topo(const char *machine, struct nicfit_topo **tp)
{
	struct nicfit_error err;
	struct nicfit_buf b;
	char root[512];

	nicfit_error_clear(&err);
	if (nicfit_topo_discover(fixture(machine, root, sizeof(root)), tp, &err))
		fail_msg("%s: %s", root, err.msg);
	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_nccl_topo_write(*tp, &b), 0);
	return nicfit_buf_detach(&b, NULL);
}

/* HGX H100: GPUs and NDR NICs under their Gen5 switch, the nested storage NIC under two. */
static void hgx_placement(void **state)
{
	static const struct { const char *bdf, *above; } want[] = {
		{ "0000:18:00.0", "pci 0000:16:00.0 < cpu 0" },   /* GPU */
		{ "0000:19:00.0", "pci 0000:16:00.0 < cpu 0" },   /* its NDR NIC (PIX) */
		{ "0000:1e:00.0", "pci 0000:1c:00.0 < pci 0000:16:00.0 < cpu 0" }, /* nested switch */
		{ "0000:3a:00.0", "pci 0000:38:00.0 < cpu 0" },
		{ "0000:9a:00.0", "pci 0000:98:00.0 < cpu 1" },
		{ "0000:be:00.0", "pci 0000:b9:00.0 < cpu 1" },
		{ "0000:5f:00.0", "cpu 0" },                      /* front end on a root port */
	};
	struct nicfit_topo *t = NULL;
	char *xml = write_topo("hgx-h100", &t), got[256];
	struct doc *d = calloc(1, sizeof(*d));
	size_t i;
	int n;

	(void)state;
	assert_non_null(d);
	parse(xml, d);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		chain(d, el_find(d, "pci", want[i].bdf), got, sizeof(got));
		if (strcmp(got, want[i].above))
			fail_msg("%s is under \"%s\", expected \"%s\"", want[i].bdf, got, want[i].above);
	}
	n = el_find(d, "net", "mlx5_0");
	assert_string_equal(d->v[n].speed, "400000");
	assert_string_equal(d->v[d->v[d->v[n].parent].parent].key, "0000:19:00.0");
	assert_string_equal(d->v[el_find(d, "cpu", "0")].affinity, "0000ffff");
	assert_string_equal(d->v[el_find(d, "cpu", "1")].affinity, "ffff0000");
	/* root and downstream ports never appear, as in NCCL's own files */
	for (n = 0; n < d->n; n++)
		assert_true(strcmp(d->v[n].key, "0000:15:01.0") && strcmp(d->v[n].key, "0000:17:00.0"));
	free(d);
	free(xml);
	nicfit_topo_free(t);
}

/* Function 0 of the device of function i, where NCCL files i's nets; i when none. */
static int fn0(const struct nicfit_topo *t, int i)
{
	size_t n = strlen(t->pci[i].bdf);
	int j;

	if (t->pci[i].kind != NICFIT_DEV_NIC)
		return i;
	for (j = 0; j < t->npci; j++)
		if (strlen(t->pci[j].bdf) == n && t->pci[j].bdf[n - 1] == '0' &&
		    !strncmp(t->pci[j].bdf, t->pci[i].bdf, n - 1))
			return j;
	return i;
}

/*
 * Every fixture: each GPU, and each RDMA NIC with a port NCCL uses (ACTIVE,
 * or of unknown state), under the CPU of its NUMA node, a NIC's ports
 * filed under function 0 of its device as NCCL files them; NICs whose
 * ports are all down are left out, as NCCL leaves them out.
 */
static void every_fixture(void **state)
{
	int m;

	(void)state;
	for (m = 0; fixture_names[m]; m++) {
		struct nicfit_topo *t = NULL;
		char *xml = write_topo(fixture_names[m], &t);
		struct doc *d = calloc(1, sizeof(*d));
		unsigned char *filed = calloc((size_t)t->npci + 1, 1);
		int i, r;

		assert_non_null(d);
		assert_non_null(filed);
		parse(xml, d);
		for (r = 0; r < t->nrdma; r++) {
			int k;

			for (k = 0; t->rdma[r].pci >= 0 && k < t->rdma[r].nports; k++)
				if (t->rdma[r].ports[k].state <= 0 || t->rdma[r].ports[k].state == 4)
					filed[fn0(t, t->rdma[r].pci)] = 1;
		}
		for (i = 0; i < t->npci; i++) {
			int e, c;
			char numa[16];

			if (t->pci[i].kind != NICFIT_DEV_GPU && !filed[i]) {
				if (t->pci[i].kind != NICFIT_DEV_NIC)
					continue;
				for (e = 0; e < d->n; e++)
					if (!strcmp(d->v[e].key, t->pci[i].bdf))
						fail_msg("%s: %s has no port NCCL files under it, yet it is "
							 "listed", fixture_names[m], t->pci[i].bdf);
				continue;
			}
			e = el_find(d, "pci", t->pci[i].bdf);
			for (c = e; strcmp(d->v[c].tag, "cpu"); c = d->v[c].parent)
				assert_true(c > 0);
			for (r = 0; r < t->nnuma && t->numa[r].id != t->pci[i].numa_node; r++)
				;
			snprintf(numa, sizeof(numa), "%d", r < t->nnuma ? t->pci[i].numa_node : -1);
			if (strcmp(d->v[c].key, numa))
				fail_msg("%s: %s sits under cpu %s, its NUMA node is %s", fixture_names[m],
					 t->pci[i].bdf, d->v[c].key, numa);
		}
		free(filed);
		free(d);
		free(xml);
		nicfit_topo_free(t);
	}
}

/* The <pci> a net hangs under (net < nic < pci), and the net's port. */
static void net_at(const struct doc *d, const char *name, const char *bdf, const char *port,
		   const char *speed)
{
	int n = el_find(d, "net", name), nic = d->v[n].parent;

	assert_string_equal(d->v[nic].tag, "nic");
	assert_string_equal(d->v[d->v[nic].parent].key, bdf);
	assert_string_equal(d->v[n].port, port);
	assert_string_equal(d->v[n].speed, speed);
}

static int count_el(const struct doc *d, const char *tag, const char *key)
{
	int i, n = 0;

	for (i = 0; i < d->n; i++)
		n += !strcmp(d->v[i].tag, tag) && !strcmp(d->v[i].key, key);
	return n;
}

/*
 * Multi-port cards as NCCL files them: the dual-port ConnectX-6 Dx of
 * epyc-gen4 (c3:00.0 mlx5_3 and c3:00.1 mlx5_4, both ACTIVE at 100G) is
 * one <pci> with two nets, ports 1 and 2 (verbs port + realPort), as in
 * NCCL's own dumps; the ConnectX-6 VPI at 42:00.x has one port up, so one
 * net; el7-v100's mlx4_0 is one function with two ports, one DOWN.
 */
static void multi_port(void **state)
{
	struct nicfit_topo *t = NULL;
	char *xml = write_topo("epyc-gen4", &t);
	struct doc *d = calloc(1, sizeof(*d));

	(void)state;
	assert_non_null(d);
	parse(xml, d);
	net_at(d, "mlx5_3", "0000:c3:00.0", "1", "100000");
	net_at(d, "mlx5_4", "0000:c3:00.0", "2", "100000");
	assert_int_equal(count_el(d, "pci", "0000:c3:00.1"), 0);
	net_at(d, "mlx5_0", "0000:42:00.0", "1", "200000");
	assert_int_equal(count_el(d, "net", "mlx5_1"), 0);
	free(xml);
	nicfit_topo_free(t);
	xml = write_topo("el7-v100", &t);
	parse(xml, d);
	assert_int_equal(count_el(d, "net", "mlx4_0"), 1);
	net_at(d, "mlx4_0", "0000:05:00.0", "1", "56000");
	free(d);
	free(xml);
	nicfit_topo_free(t);
}

/* verify reads NCCL topology files: the one nicfit writes, and Azure's. */
static void read_back(void **state)
{
	struct nicfit_topo *t = NULL;
	char *xml = write_topo("hgx-h100", &t), *az = NULL;
	struct nicfit_verify *v = nicfit_verify_new();
	struct nicfit_error err;
	struct doc *d = calloc(1, sizeof(*d));
	size_t len;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_verify_add_text(v, "hgx.xml", xml, strlen(xml), &err), 0);
	assert_int_equal(v->docs[0].kind, NICFIT_VERIFY_NCCL_TOPO);
	assert_int_equal(v->docs[0].u.topo.cpus, 2);
	assert_int_equal(v->docs[0].u.topo.gpus, 8);
	assert_int_equal(v->docs[0].u.topo.nets, 12);
	assert_near(v->docs[0].u.topo.net_speed_mbps, 400000, 0);
	assert_int_equal(nicfit_read_file("tests/fixtures/verify/azure-ndv5-topo.xml", 1 << 20, &az,
					  &len, &err), 0);
	assert_int_equal(nicfit_verify_add_text(v, "ndv5", az, len, &err), 0);
	assert_int_equal(v->docs[1].u.topo.gpus, 8);
	assert_int_equal(v->docs[1].u.topo.nics, 8);
	/* Azure's file uses only attributes NCCL's reader knows, as nicfit's does */
	parse(az, d);
	free(az);
	free(d);
	free(xml);
	nicfit_verify_free(v);
	nicfit_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hgx_placement),
		cmocka_unit_test(every_fixture),
		cmocka_unit_test(multi_port),
		cmocka_unit_test(read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
