/*
 * test_fleet.c - nicfit fleet on generated fleets.
 *
 * Fleets of 1,000 hosts are built from the audits of the fixture machines
 * (the library's audit of each sysfs tree `make tests` generates, rendered
 * as `nicfit audit --json` renders it): each
 * host is a copy of one machine's audit under its own name, and a few hosts
 * get one injected anomaly each (a link at half width, a port left in
 * InfiniBand mode, nvidia_peermem missing, a GPU gone, ...). The report
 * must name exactly the injected hosts with exactly the injected codes:
 * every anomaly found, none invented. The same fleets are then written as
 * pdsh, srun, clush, Ansible would print them, and must read the same.
 */
#include "unit.h"

#include <jansson.h>

#include "fixtures.h"
#include "core/jscan_int.h"
#include "nicfit/audit.h"
#include "nicfit/buf.h"
#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/fleet.h"
#include "nicfit/topo.h"

#define NTMPL 7
static const char *const tmpl_names[NTMPL] = {
	"el7-v100", "epyc-gen4", "hgx-h100", "kvm-vm", "r740xd", "x11-200g", "xenial-k44",
};
static json_t *tmpl[NTMPL];

/* ---- helpers ------------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* What `nicfit audit --sysfs FIXTURE --json` prints, from the library. */
static json_t *audit_fixture(const char *name, const struct nicfit_catalog *cat)
{
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	struct nicfit_emit *e;
	struct nicfit_buf out;
	json_error_t jerr;
	json_t *doc = NULL;
	char root[512];

	nicfit_error_clear(&err);
	if (nicfit_topo_discover(fixture(name, root, sizeof(root)), &t, &err)) {
		fprintf(stderr, "# %s: %s (run make tests)\n", root, err.msg);
		return NULL;
	}
	if (nicfit_audit_judge(t, cat, NULL, &a, &err)) {
		fprintf(stderr, "# audit %s: %s\n", name, err.msg);
		nicfit_topo_free(t);
		return NULL;
	}
	nicfit_error_clear(&err);
	nicfit_audit_name_from_pciids(a, "tests/fixtures/pci.ids", &err);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_buf_init(&out, 0);
	if (e && !nicfit_audit_render(a, e) && !nicfit_emit_finish(e, &out))
		doc = json_loads(out.data, 0, &jerr);
	nicfit_buf_release(&out);
	nicfit_emit_free(e);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	return doc;
}

static int load_templates(void **state)
{
	struct nicfit_catalog *cat = NULL;
	int i;

	(void)state;
	if (nicfit_catalog_new(&cat, NULL))
		return -1;
	for (i = 0; i < NTMPL; i++) {
		tmpl[i] = audit_fixture(tmpl_names[i], cat);
		if (!tmpl[i]) {
			nicfit_catalog_free(cat);
			return -1;
		}
	}
	nicfit_catalog_free(cat);
	return 0;
}

static int free_templates(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < NTMPL; i++)
		json_decref(tmpl[i]);
	return 0;
}

static void set_name(json_t *doc, const char *name)
{
	json_object_set_new(json_object_get(doc, "host"), "name", json_string(name));
}

/* The nth device of kind (or any kind when NULL) matching pred, or NULL. */
static json_t *device(json_t *doc, const char *kind, int (*pred)(json_t *d), int nth)
{
	json_t *devs = json_object_get(doc, "devices"), *d;
	size_t i;

	json_array_foreach(devs, i, d) {
		const char *k = json_string_value(json_object_get(d, "kind"));

		if (kind && (!k || strcmp(k, kind)))
			continue;
		if (pred && !pred(d))
			continue;
		if (nth-- == 0)
			return d;
	}
	return NULL;
}

static const char *bdf(json_t *d)
{
	return json_string_value(json_object_get(d, "bdf"));
}

static int has_width(json_t *d)
{
	json_t *w = json_object_get(json_object_get(d, "link"), "current_width");

	return json_is_integer(w) && json_integer_value(w) >= 2;
}

static int has_gts(json_t *d)
{
	json_t *g = json_object_get(json_object_get(d, "link"), "current_gts");

	return json_is_number(g) && json_number_value(g) > 2.5;
}

static int has_path(json_t *d)
{
	json_t *g = json_object_get(json_object_get(d, "link"), "path_gbps");

	return json_is_number(g) && json_number_value(g) > 1;
}

static int has_up_netdev(json_t *d)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(d, "netdevs"), i, n) {
		const char *s = json_string_value(json_object_get(n, "operstate"));

		if (s && !strcmp(s, "up"))
			return 1;
	}
	return 0;
}

static int has_netdevs(json_t *d)
{
	return json_array_size(json_object_get(d, "netdevs")) > 0;
}

static int has_rdma(json_t *d)
{
	return json_array_size(json_object_get(d, "rdma")) > 0;
}

static int has_rdma_rate(json_t *d)
{
	json_t *r = json_array_get(json_object_get(d, "rdma"), 0);

	return r && json_number_value(json_object_get(r, "rate_gbps")) > 1;
}

static int has_mtu(json_t *d)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(d, "netdevs"), i, n)
		if (json_is_integer(json_object_get(n, "mtu")))
			return 1;
	return 0;
}

static int has_part(json_t *d)
{
	return json_is_string(json_object_get(d, "part"));
}

static int has_mps(json_t *d)
{
	return json_is_integer(json_object_get(json_object_get(d, "config"), "mps"));
}

static int has_numa(json_t *d)
{
	return json_is_integer(json_object_get(d, "numa_node")) &&
	       json_integer_value(json_object_get(d, "numa_node")) >= 0;
}

static int has_max_width(json_t *d)
{
	json_t *w = json_object_get(json_object_get(d, "link"), "max_width");

	return json_is_integer(w) && json_integer_value(w) >= 2;
}

static void link_set(json_t *d, const char *key, json_t *v)
{
	json_object_set_new(json_object_get(d, "link"), key, v);
}

static double link_num(json_t *d, const char *key)
{
	return json_number_value(json_object_get(json_object_get(d, "link"), key));
}

/* Remove every pair and finding that names bdf (as if the device were gone). */
static void forget_device(json_t *doc, const char *b)
{
	json_t *pairs = json_object_get(doc, "pairs"), *finds = json_object_get(doc, "findings");
	size_t i;

	for (i = json_array_size(pairs); i-- > 0;) {
		json_t *p = json_array_get(pairs, i);
		const char *g = json_string_value(json_object_get(p, "gpu"));
		const char *n = json_string_value(json_object_get(p, "nic"));

		if ((g && !strcmp(g, b)) || (n && !strcmp(n, b)))
			json_array_remove(pairs, i);
	}
	for (i = json_array_size(finds); i-- > 0;) {
		const char *d = json_string_value(json_object_get(json_array_get(finds, i), "device"));

		if (d && !strcmp(d, b))
			json_array_remove(finds, i);
	}
}

/* ---- injections ------------------------------------------------------------------ */

/*
 * An injection changes one host's audit and says which anomaly that must
 * give: code, device (NULL when not about one BDF) and the host.
 */
struct expect {
	char code[48];
	char device[32];
	char host[32];
	int severity;         /* 0: not checked */
	int found;
};

typedef int (*inject_fn)(json_t *doc, struct expect *x);

static void want(struct expect *x, const char *code, const char *dev, int sev)
{
	snprintf(x->code, sizeof(x->code), "%s", code);
	snprintf(x->device, sizeof(x->device), "%s", dev ? dev : "");
	x->severity = sev;
}

static int inj_link_width(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_width, 0);

	if (!d)
		return 0;
	link_set(d, "current_width",
		 json_integer(json_integer_value(json_object_get(json_object_get(d, "link"),
								 "current_width")) / 2));
	if (has_path(d))
		link_set(d, "path_gbps", json_real(link_num(d, "path_gbps") / 2));
	want(x, "link-width", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_nic_speed(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_gts, 0);

	if (!d)
		return 0;
	link_set(d, "current_gts", json_real(2.5));
	if (has_path(d))
		link_set(d, "path_gbps", json_real(link_num(d, "path_gbps") / 3));
	want(x, "link-speed", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_gpu_idle(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "gpu", has_gts, 0);

	if (!d)
		return 0;
	link_set(d, "current_gts", json_real(2.5));
	want(x, "link-speed", bdf(d), NICFIT_SEV_INFO);
	return 1;
}

static int inj_path(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_path, 0);

	if (!d)
		return 0;
	link_set(d, "path_gbps", json_real(link_num(d, "path_gbps") * 0.75));
	want(x, "path-bandwidth", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int inj_capability(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_max_width, 0);

	if (!d)
		return 0;
	link_set(d, "max_width", json_integer(1));
	want(x, "link-capability", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int inj_numa(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "gpu", has_numa, 0);

	if (!d || json_array_size(json_object_get(doc, "numa_nodes")) < 2)
		return 0;
	json_object_set_new(d, "numa_node",
			    json_integer(1 - json_integer_value(json_object_get(d, "numa_node"))));
	want(x, "numa-node", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int inj_port_down(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_up_netdev, 0), *n;
	size_t i;

	if (!d)
		return 0;
	json_array_foreach(json_object_get(d, "netdevs"), i, n) {
		const char *s = json_string_value(json_object_get(n, "operstate"));

		if (s && !strcmp(s, "up")) {
			json_object_set_new(n, "operstate", json_string("down"));
			break;
		}
	}
	want(x, "port-down", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_link_layer(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_rdma, 0), *r = json_array_get(json_object_get(d, "rdma"), 0);
	const char *ll = json_string_value(json_object_get(r, "link_layer"));

	if (!d || !ll)
		return 0;
	json_object_set_new(r, "link_layer",
			    json_string(!strcmp(ll, "Ethernet") ? "InfiniBand" : "Ethernet"));
	want(x, "link-layer", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_rdma_missing(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_rdma, 0);

	if (!d)
		return 0;
	json_object_set_new(d, "rdma", json_array());
	want(x, "rdma-missing", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_netdev_missing(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_netdevs, 0);

	if (!d)
		return 0;
	json_object_set_new(d, "netdevs", json_array());
	want(x, "netdev-missing", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_peermem(json_t *doc, struct expect *x)
{
	json_t *g = json_object_get(json_object_get(doc, "host"), "gpudirect");

	if (!json_is_true(json_object_get(g, "nvidia_peermem")))
		return 0;
	json_object_set_new(g, "nvidia_peermem", json_false());
	want(x, "peermem", NULL, NICFIT_SEV_WARNING);
	return 1;
}

static int inj_gpu_driver(json_t *doc, struct expect *x)
{
	json_t *g = json_object_get(json_object_get(doc, "host"), "gpudirect");

	if (!json_is_string(json_object_get(g, "nvidia_driver_version")))
		return 0;
	json_object_set_new(g, "nvidia_driver_version", json_string("535.54.03"));
	want(x, "gpu-driver", NULL, NICFIT_SEV_WARNING);
	return 1;
}

static int inj_kernel(json_t *doc, struct expect *x)
{
	json_t *h = json_object_get(doc, "host");

	if (!json_is_string(json_object_get(h, "kernel")))
		return 0;
	json_object_set_new(h, "kernel", json_string("9.9.9-test"));
	want(x, "kernel", NULL, NICFIT_SEV_WARNING);
	return 1;
}

static int inj_firmware(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_rdma, 0), *r;
	size_t i;

	if (!d || !json_is_string(json_object_get(json_array_get(json_object_get(d, "rdma"), 0),
						  "fw_ver")))
		return 0;
	json_array_foreach(json_object_get(d, "rdma"), i, r)
		json_object_set_new(r, "fw_ver", json_string("1.2.3000"));
	want(x, "firmware", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int inj_port_rate(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_rdma_rate, 0);
	json_t *r = json_array_get(json_object_get(d, "rdma"), 0);

	if (!d)
		return 0;
	json_object_set_new(r, "rate_gbps",
			    json_real(json_number_value(json_object_get(r, "rate_gbps")) / 4));
	want(x, "port-rate", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_mtu(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_mtu, 0), *n;
	size_t i;

	if (!d)
		return 0;
	json_array_foreach(json_object_get(d, "netdevs"), i, n)
		if (json_is_integer(json_object_get(n, "mtu"))) {
			json_object_set_new(n, "mtu", json_integer(1500 + 7));
			break;
		}
	want(x, "mtu", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int has_pfc(json_t *d)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(d, "netdevs"), i, n)
		if (json_array_size(json_object_get(json_object_get(n, "pfc"), "enabled_priorities")))
			return 1;
	return 0;
}

/* PFC turned off on one RoCE port: lossless RoCE needs it on every host */
static int inj_pfc(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_pfc, 0), *n;
	size_t i;

	if (!d)
		return 0;
	json_array_foreach(json_object_get(d, "netdevs"), i, n)
		if (json_array_size(json_object_get(json_object_get(n, "pfc"), "enabled_priorities"))) {
			json_object_set_new(json_object_get(n, "pfc"), "enabled_priorities", json_array());
			break;
		}
	want(x, "pfc", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int inj_part(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", has_part, 0);

	if (!d)
		return 0;
	json_object_set_new(d, "part", json_string("MCX000000-TEST"));
	want(x, "part-number", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int inj_mps(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, NULL, has_mps, 0);

	if (!d)
		return 0;
	json_object_set_new(json_object_get(d, "config"), "mps", json_integer(64));
	want(x, "pcie-mps", bdf(d), NICFIT_SEV_WARNING);
	return 1;
}

static int inj_pair_path(json_t *doc, struct expect *x)
{
	json_t *p = json_array_get(json_object_get(doc, "pairs"), 0);
	const char *path = json_string_value(json_object_get(p, "path"));
	int was_sys;

	if (!p || !path)
		return 0;
	/* a worse class is a warning; a better one (SYS to PIX) only info */
	was_sys = !strcmp(path, "SYS");
	json_object_set_new(p, "path", json_string(was_sys ? "PIX" : "SYS"));
	want(x, "pair-path", NULL, was_sys ? NICFIT_SEV_INFO : NICFIT_SEV_WARNING);
	return 1;
}

static int inj_gdr(json_t *doc, struct expect *x)
{
	json_t *pairs = json_object_get(doc, "pairs"), *p;
	size_t i;

	json_array_foreach(pairs, i, p)
		if (json_is_true(json_object_get(p, "gdr_default"))) {
			json_object_set_new(p, "gdr_default", json_false());
			want(x, "gdr", NULL, NICFIT_SEV_WARNING);
			return 1;
		}
	return 0;
}

static int inj_finding(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "gpu", NULL, 0), *f = json_object();

	if (!d) {
		json_decref(f);
		return 0;
	}
	json_object_set_new(f, "severity", json_string("critical"));
	json_object_set_new(f, "code", json_string("test-injected"));
	json_object_set_new(f, "device", json_string(bdf(d)));
	json_object_set_new(f, "message", json_string("injected by the test"));
	json_object_set_new(f, "fix", json_string("none"));
	json_array_append_new(json_object_get(doc, "findings"), f);
	want(x, "test-injected", bdf(d), NICFIT_SEV_CRITICAL);
	return 1;
}

static int inj_gpu_gone(json_t *doc, struct expect *x)
{
	json_t *devs = json_object_get(doc, "devices"), *d;
	size_t i;
	char b[32];

	json_array_foreach(devs, i, d) {
		const char *k = json_string_value(json_object_get(d, "kind"));

		if (k && !strcmp(k, "gpu")) {
			snprintf(b, sizeof(b), "%s", bdf(d));
			json_array_remove(devs, i);
			forget_device(doc, b);
			want(x, "hardware-differs", NULL, NICFIT_SEV_CRITICAL);
			return 1;
		}
	}
	return 0;
}

static int inj_nic_moved(json_t *doc, struct expect *x)
{
	json_t *d = device(doc, "nic", NULL, 0), *p;
	size_t i;
	char old[32];

	if (!d)
		return 0;
	snprintf(old, sizeof(old), "%s", bdf(d));
	json_object_set_new(d, "bdf", json_string("0000:fe:00.0"));
	json_array_foreach(json_object_get(doc, "pairs"), i, p)
		if (!strcmp(json_string_value(json_object_get(p, "nic")), old))
			json_object_set_new(p, "nic", json_string("0000:fe:00.0"));
	forget_device(doc, old);
	want(x, "hardware-differs", NULL, NICFIT_SEV_WARNING);
	return 1;
}

static const struct {
	const char *name;
	inject_fn fn;
} injections[] = {
	{ "link width", inj_link_width },   { "nic speed", inj_nic_speed },
	{ "gpu idle", inj_gpu_idle },       { "path", inj_path },
	{ "capability", inj_capability },   { "numa", inj_numa },
	{ "port down", inj_port_down },     { "link layer", inj_link_layer },
	{ "rdma missing", inj_rdma_missing }, { "netdev missing", inj_netdev_missing },
	{ "peermem", inj_peermem },         { "gpu driver", inj_gpu_driver },
	{ "kernel", inj_kernel },           { "firmware", inj_firmware },
	{ "port rate", inj_port_rate },     { "mtu", inj_mtu },
	{ "part", inj_part },               { "mps", inj_mps },
	{ "pfc", inj_pfc },
	{ "pair path", inj_pair_path },     { "gdr", inj_gdr },
	{ "finding", inj_finding },         { "gpu gone", inj_gpu_gone },
	{ "nic moved", inj_nic_moved },
};
#define NINJ (sizeof(injections) / sizeof(injections[0]))

/* ---- fleets -------------------------------------------------------------------------- */

struct fleet_gen {
	size_t n;
	json_t **docs;
	char (*names)[32];
	struct expect *exp;
	size_t nexp;
};

static void gen_free(struct fleet_gen *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		json_decref(g->docs[i]);
	free(g->docs);
	free(g->names);
	free(g->exp);
	memset(g, 0, sizeof(*g));
}

/*
 * n hosts, round-robin over the templates (or only template t when t >= 0),
 * and ninj injections on distinct random hosts (each kind tried in turn
 * until one applies to the host's machine).
 */
static void gen_fleet(struct fleet_gen *g, size_t n, int t, size_t ninj, uint64_t seed)
{
	size_t i, k;

	memset(g, 0, sizeof(*g));
	rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
	g->n = n;
	g->docs = calloc(n, sizeof(*g->docs));
	g->names = calloc(n, sizeof(*g->names));
	g->exp = calloc(ninj + 1, sizeof(*g->exp));
	assert_non_null(g->docs);
	assert_non_null(g->names);
	assert_non_null(g->exp);
	for (i = 0; i < n; i++) {
		snprintf(g->names[i], sizeof(g->names[i]), "node%04zu", i + 1);
		g->docs[i] = json_deep_copy(tmpl[t >= 0 ? t : (int)(i % NTMPL)]);
		set_name(g->docs[i], g->names[i]);
	}
	for (k = 0; k < ninj; k++) {
		size_t h, tries;
		struct expect *x = &g->exp[g->nexp];

		/* a host not injected yet */
		for (;;) {
			size_t j;

			h = (size_t)(rnd() % n);
			for (j = 0; j < g->nexp; j++)
				if (!strcmp(g->exp[j].host, g->names[h]))
					break;
			if (j == g->nexp)
				break;
		}
		for (tries = 0; tries < NINJ; tries++) {
			size_t which = (k + tries) % NINJ;

			memset(x, 0, sizeof(*x));
			if (injections[which].fn(g->docs[h], x)) {
				snprintf(x->host, sizeof(x->host), "%s", g->names[h]);
				g->nexp++;
				break;
			}
		}
	}
}

enum transport { T_PLAIN, T_PRETTY, T_PDSH, T_SRUN, T_CLUSH_B, T_ANSIBLE_JSON, T_ANSIBLE_ADHOC,
		 T_ANSIBLE_JSONL };

static const char *const transport_names[] = {
	"plain", "pretty", "pdsh", "srun", "clush -b", "ansible json", "ansible ad-hoc", "ansible jsonl",
};

/* Write g as transport t prints it. */
static void write_fleet(const struct fleet_gen *g, enum transport t, struct nicfit_buf *out)
{
	size_t i;
	char **text = calloc(g->n, sizeof(*text));

	assert_non_null(text);
	for (i = 0; i < g->n; i++) {
		int pretty = t != T_PLAIN && t != T_ANSIBLE_JSON && t != T_ANSIBLE_JSONL;

		text[i] = json_dumps(g->docs[i], pretty ? JSON_INDENT(2) : JSON_COMPACT);
		assert_non_null(text[i]);
	}
	if (t == T_PLAIN || t == T_PRETTY) {
		for (i = 0; i < g->n; i++)
			nicfit_buf_addf(out, "%s\n", text[i]);
	} else if (t == T_PDSH || t == T_SRUN) {
		/* interleave the hosts' lines, as pdsh does; srun also cuts long lines */
		char **pos = calloc(g->n, sizeof(*pos));
		size_t left = g->n;

		assert_non_null(pos);
		for (i = 0; i < g->n; i++)
			pos[i] = text[i];
		while (left) {
			for (i = 0; i < g->n; i++) {
				char *nl;
				size_t len;

				if (!pos[i])
					continue;
				nl = strchr(pos[i], '\n');
				len = nl ? (size_t)(nl - pos[i]) : strlen(pos[i]);
				if (t == T_SRUN && len > 23)
					len = 23; /* a piece of a long line, labelled again */
				if (t == T_PDSH)
					nicfit_buf_addf(out, "%s: %.*s\n", g->names[i], (int)len, pos[i]);
				else
					nicfit_buf_addf(out, "%04zu: %.*s\n", i, (int)len, pos[i]);
				pos[i] += len;
				if (*pos[i] == '\n')
					pos[i]++;
				if (!*pos[i]) {
					pos[i] = NULL;
					left--;
				}
			}
		}
		free(pos);
	} else if (t == T_CLUSH_B) {
		for (i = 0; i < g->n; i++)
			nicfit_buf_addf(out, "---------------\n%s\n---------------\n%s\n", g->names[i],
					text[i]);
	} else if (t == T_ANSIBLE_JSONL) {
		/* one event per line: the play, then a result per host, then the stats */
		nicfit_buf_puts(out, "{\"_event\":\"v2_playbook_on_play_start\",\"play\":{\"name\":\"a\"},"
				"\"tasks\":[]}\n");
		for (i = 0; i < g->n; i++) {
			json_t *ev = json_object(), *hosts = json_object(), *r = json_object();
			char *s;

			json_object_set_new(r, "rc", json_integer(0));
			json_object_set_new(r, "stdout", json_string(text[i]));
			json_object_set_new(hosts, g->names[i], r);
			json_object_set_new(ev, "_event", json_string("v2_runner_on_ok"));
			json_object_set_new(ev, "hosts", hosts);
			json_object_set_new(ev, "task", json_pack("{s:s}", "name", "nicfit audit"));
			s = json_dumps(ev, JSON_COMPACT | JSON_SORT_KEYS);
			assert_non_null(s);
			nicfit_buf_addf(out, "%s\n", s);
			free(s);
			json_decref(ev);
		}
		nicfit_buf_puts(out, "{\"_event\":\"v2_playbook_on_stats\",\"stats\":{}}\n");
	} else if (t == T_ANSIBLE_ADHOC) {
		for (i = 0; i < g->n; i++)
			nicfit_buf_addf(out, "%s | %s | rc=%d >>\n%s\n", g->names[i],
					i % 3 ? "CHANGED" : "FAILED", i % 3 ? 0 : 2, text[i]);
	} else {
		json_t *root = json_object(), *plays = json_array(), *play = json_object();
		json_t *tasks = json_array(), *task = json_object(), *hosts = json_object();
		char *s;

		for (i = 0; i < g->n; i++) {
			json_t *r = json_object();

			json_object_set_new(r, "changed", json_true());
			json_object_set_new(r, "cmd", json_string("nicfit audit --json"));
			json_object_set_new(r, "rc", json_integer(1));
			json_object_set_new(r, "stdout", json_string(text[i]));
			json_object_set_new(r, "stderr", json_string(""));
			json_object_set_new(hosts, g->names[i], r);
		}
		json_object_set_new(task, "hosts", hosts);
		json_array_append_new(tasks, task);
		json_object_set_new(play, "tasks", tasks);
		json_array_append_new(plays, play);
		json_object_set_new(root, "custom_stats", json_object());
		json_object_set_new(root, "plays", plays);
		s = json_dumps(root, JSON_INDENT(4));
		assert_non_null(s);
		nicfit_buf_addf(out, "%s\n", s);
		free(s);
		json_decref(root);
	}
	for (i = 0; i < g->n; i++)
		free(text[i]);
	free(text);
	assert_int_equal(nicfit_buf_error(out), 0);
}

/* Read text as one input, fed in pieces of `piece` bytes. */
static struct nicfit_fleet *read_text(const char *name, const char *text, size_t len,
				      size_t piece)
{
	struct nicfit_fleet *fl;
	struct nicfit_error err;
	size_t off;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_fleet_new(&fl, NULL), 0);
	assert_int_equal(nicfit_fleet_begin(fl, name, NULL, &err), 0);
	for (off = 0; off < len; off += piece) {
		size_t n = len - off < piece ? len - off : piece;

		if (nicfit_fleet_feed(fl, text + off, n, &err))
			fail_msg("feed: %s", err.msg);
	}
	if (nicfit_fleet_end(fl, &err))
		fail_msg("end: %s", err.msg);
	return fl;
}

static void analyze(struct nicfit_fleet *fl, const struct nicfit_fleet_opts *o)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	if (nicfit_fleet_analyze(fl, o, &err))
		fail_msg("analyze: %s", err.msg);
}

static void dump_anomalies(const struct nicfit_fleet *fl)
{
	size_t i, j;

	for (i = 0; i < nicfit_fleet_nanomalies(fl); i++) {
		const struct nicfit_fleet_anomaly *x = nicfit_fleet_anomaly(fl, i);

		fprintf(stderr, "#   %s %s [", nicfit_severity_name(x->severity), x->code);
		for (j = 0; j < x->nhosts && j < 5; j++)
			fprintf(stderr, " %s", nicfit_fleet_host_name(fl, x->hosts[j]));
		fprintf(stderr, " ] %s\n", x->message);
	}
}

/*
 * Every anomaly names only injected hosts with their injected code (and
 * device), and every injection is found.
 */
static void check_exact(const struct nicfit_fleet *fl, struct fleet_gen *g, const char *what)
{
	size_t i, j, k, invented = 0, missing = 0;

	for (k = 0; k < g->nexp; k++)
		g->exp[k].found = 0;
	for (i = 0; i < nicfit_fleet_nanomalies(fl); i++) {
		const struct nicfit_fleet_anomaly *x = nicfit_fleet_anomaly(fl, i);

		if (!x->nhosts) {
			fprintf(stderr, "# %s: anomaly naming no host: %s %s\n", what, x->code,
				x->message);
			invented++;
		}
		for (j = 0; j < x->nhosts; j++) {
			const char *h = nicfit_fleet_host_name(fl, x->hosts[j]);

			for (k = 0; k < g->nexp; k++) {
				struct expect *e = &g->exp[k];

				if (strcmp(e->host, h) || strcmp(e->code, x->code))
					continue;
				if (e->device[0] && (!x->device || strcmp(e->device, x->device)))
					continue;
				if (e->severity && e->severity != (int)x->severity)
					continue;
				e->found = 1;
				break;
			}
			if (k == g->nexp) {
				fprintf(stderr, "# %s: invented: %s on %s (%s)\n", what, x->code, h,
					x->message);
				invented++;
			}
		}
	}
	for (k = 0; k < g->nexp; k++)
		if (!g->exp[k].found) {
			fprintf(stderr, "# %s: missed: %s %s on %s (severity %d)\n", what,
				g->exp[k].code, g->exp[k].device, g->exp[k].host, g->exp[k].severity);
			missing++;
		}
	if (invented || missing) {
		dump_anomalies(fl);
		fail_msg("%s: %zu invented, %zu missed of %zu injected", what, invented, missing,
			 g->nexp);
	}
}

/* ---- tests: generated fleets ---------------------------------------------------------- */

static void test_clean_fleet(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b;
	struct nicfit_fleet *fl;
	size_t i, total = 0;

	(void)state;
	gen_fleet(&g, 1000, -1, 0, 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("clean", b.data, b.len, 65536);
	analyze(fl, NULL);
	assert_int_equal(nicfit_fleet_nhosts(fl), 1000);
	assert_int_equal(nicfit_fleet_nproblems_total(fl), 0);
	assert_int_equal(nicfit_fleet_ngroups(fl), NTMPL);
	if (nicfit_fleet_nanomalies(fl))
		dump_anomalies(fl);
	assert_int_equal(nicfit_fleet_nanomalies(fl), 0);
	for (i = 0; i < nicfit_fleet_ngroups(fl); i++) {
		const struct nicfit_fleet_group *gr = nicfit_fleet_group(fl, i);

		assert_true(gr->nhosts == 142 || gr->nhosts == 143);
		assert_int_equal(gr->clean + gr->warning + gr->critical, gr->nhosts);
		total += gr->nhosts;
	}
	assert_int_equal(total, 1000);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

static void test_injected_fleet(void **state)
{
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 4; seed++) {
		struct fleet_gen g;
		struct nicfit_buf b;
		struct nicfit_fleet *fl;
		char what[64];

		gen_fleet(&g, 1000, -1, 2 * NINJ, seed);
		assert_int_equal(g.nexp, 2 * NINJ);
		nicfit_buf_init(&b, 0);
		write_fleet(&g, T_PLAIN, &b);
		fl = read_text("injected", b.data, b.len, 4096);
		analyze(fl, NULL);
		snprintf(what, sizeof(what), "seed %llu", (unsigned long long)seed);
		check_exact(fl, &g, what);
		nicfit_fleet_free(fl);
		nicfit_buf_release(&b);
		gen_free(&g);
	}
}

/* Every kind of injection on its own, in a fleet of one machine type. */
static void test_each_injection(void **state)
{
	size_t k;
	int t;

	(void)state;
	for (k = 0; k < NINJ; k++) {
		int applied = 0;

		for (t = 0; t < NTMPL; t++) {
			struct fleet_gen g;
			struct nicfit_buf b;
			struct nicfit_fleet *fl;
			struct expect x;
			json_t *probe = json_deep_copy(tmpl[t]);
			char what[96];

			memset(&x, 0, sizeof(x));
			if (!injections[k].fn(probe, &x)) {
				json_decref(probe);
				continue;
			}
			json_decref(probe);
			applied++;
			gen_fleet(&g, 40, t, 0, 7);
			memset(&g.exp[0], 0, sizeof(g.exp[0]));
			assert_int_equal(injections[k].fn(g.docs[17], &g.exp[0]), 1);
			snprintf(g.exp[0].host, sizeof(g.exp[0].host), "%s", g.names[17]);
			g.nexp = 1;
			nicfit_buf_init(&b, 0);
			write_fleet(&g, T_PLAIN, &b);
			fl = read_text("one", b.data, b.len, 1 << 20);
			analyze(fl, NULL);
			snprintf(what, sizeof(what), "%s on %s", injections[k].name, tmpl_names[t]);
			check_exact(fl, &g, what);
			nicfit_fleet_free(fl);
			nicfit_buf_release(&b);
			gen_free(&g);
		}
		if (!applied)
			fail_msg("injection %s applies to no fixture machine", injections[k].name);
	}
}

/* The same fleet through every transport reads the same. */
static void test_transports(void **state)
{
	struct fleet_gen g;
	int t;

	(void)state;
	gen_fleet(&g, 70, -1, 12, 3);
	for (t = T_PLAIN; t <= T_ANSIBLE_JSONL; t++) {
		struct nicfit_buf b;
		struct nicfit_fleet *fl;

		nicfit_buf_init(&b, 0);
		write_fleet(&g, (enum transport)t, &b);
		fl = read_text(transport_names[t], b.data, b.len, 777);
		if (nicfit_fleet_nproblems_total(fl)) {
			const struct nicfit_fleet_problem *p = nicfit_fleet_problem(fl, 0);

			fail_msg("%s: %zu problems, first: %s:%ld: %s", transport_names[t],
				 nicfit_fleet_nproblems_total(fl), p->where.input, p->where.line,
				 p->where.msg);
		}
		assert_int_equal(nicfit_fleet_nhosts(fl), 70);
		analyze(fl, NULL);
		assert_int_equal(nicfit_fleet_host(fl, 0)->line > 0, 1);
		check_exact(fl, &g, transport_names[t]);
		nicfit_fleet_free(fl);
		nicfit_buf_release(&b);
	}
	gen_free(&g);
}

/* Older or newer audits: fields added or missing never make a difference. */
static void test_tolerant(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b;
	struct nicfit_fleet *fl;
	size_t i, k;
	json_t *d;

	(void)state;
	gen_fleet(&g, 60, 4, 0, 5);
	for (i = 0; i < g.n; i++) {
		json_t *doc = g.docs[i];

		/* newer: unknown members everywhere */
		json_object_set_new(doc, "future_field", json_pack("{s:[i,i]}", "x", 1, 2));
		json_array_foreach(json_object_get(doc, "devices"), k, d) {
			json_object_set_new(d, "future", json_string("whatever"));
			json_object_set_new(json_object_get(d, "link"), "lane_margin", json_real(0.5));
		}
		if (i % 3 == 1) {
			/* older: optional members missing or null */
			json_array_foreach(json_object_get(doc, "devices"), k, d) {
				json_object_del(d, "part");
				json_object_set_new(d, "numa_node", json_null());
				json_object_del(json_object_get(d, "link"), "path_gbps");
				json_object_del(d, "netdevs");
			}
			json_object_del(json_object_get(doc, "host"), "kernel");
			json_object_del(json_object_get(doc, "host"), "gpudirect");
		}
		if (i % 3 == 2)
			json_object_del(doc, "pairs");
		if (i % 3 == 0) {
			/* a capture without sys/module: GPUDirect's kernel support unknown */
			json_t *gd = json_object_get(json_object_get(doc, "host"), "gpudirect");

			json_object_set_new(gd, "kernel_support", json_null());
			json_object_set_new(gd, "nvidia_peermem", json_null());
			json_array_foreach(json_object_get(doc, "pairs"), k, d)
				json_object_set_new(d, "gdr_default", json_null());
		}
	}
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("tolerant", b.data, b.len, 1000);
	analyze(fl, NULL);
	assert_int_equal(nicfit_fleet_nproblems_total(fl), 0);
	assert_int_equal(nicfit_fleet_ngroups(fl), 1);
	if (nicfit_fleet_nanomalies(fl))
		dump_anomalies(fl);
	assert_int_equal(nicfit_fleet_nanomalies(fl), 0);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

/* ---- tests: majorities ------------------------------------------------------------------- */

static const struct nicfit_fleet_anomaly *find_anomaly(const struct nicfit_fleet *fl,
							const char *code)
{
	size_t i;

	for (i = 0; i < nicfit_fleet_nanomalies(fl); i++)
		if (!strcmp(nicfit_fleet_anomaly(fl, i)->code, code))
			return nicfit_fleet_anomaly(fl, i);
	return NULL;
}

static void test_two_hosts(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b;
	struct nicfit_fleet *fl;
	const struct nicfit_fleet_anomaly *x;
	struct expect e;

	(void)state;
	/* ordered: the narrower link is named, without a majority */
	gen_fleet(&g, 2, 4, 0, 1);
	assert_int_equal(inj_link_width(g.docs[1], &e), 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("two", b.data, b.len, 100);
	analyze(fl, NULL);
	x = find_anomaly(fl, "link-width");
	assert_non_null(x);
	assert_false(x->majority);
	assert_null(x->expected);
	assert_int_equal(x->nhosts, 1);
	assert_string_equal(nicfit_fleet_host_name(fl, x->hosts[0]), "node0002");
	assert_int_equal(x->nvalues, 2);
	assert_non_null(strstr(x->message, "no majority"));
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);

	/* unordered: both hosts are named */
	gen_fleet(&g, 2, 4, 0, 1);
	assert_int_equal(inj_kernel(g.docs[0], &e), 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("two", b.data, b.len, 100);
	analyze(fl, NULL);
	x = find_anomaly(fl, "kernel");
	assert_non_null(x);
	assert_false(x->majority);
	assert_int_equal(x->nhosts, 2);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);

	/* ordered, but the two values rank alike (not up, either way): both named, a warning */
	gen_fleet(&g, 2, 4, 0, 1);
	{
		json_t *d0 = device(g.docs[0], "nic", has_up_netdev, 0);
		json_t *d1 = device(g.docs[1], "nic", has_up_netdev, 0);

		assert_non_null(d0);
		json_object_set_new(json_array_get(json_object_get(d0, "netdevs"), 0), "operstate",
				    json_string("down"));
		json_object_set_new(json_array_get(json_object_get(d1, "netdevs"), 0), "operstate",
				    json_string("dormant"));
	}
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("two", b.data, b.len, 100);
	analyze(fl, NULL);
	x = find_anomaly(fl, "port-down");
	assert_non_null(x);
	assert_false(x->majority);
	assert_int_equal(x->nhosts, 2);
	assert_int_equal(x->severity, NICFIT_SEV_WARNING);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);

	/* an unranked state ("unknown") against "up": a difference, not known to be worse */
	gen_fleet(&g, 5, 4, 0, 1);
	json_object_set_new(json_array_get(json_object_get(device(g.docs[2], "nic", has_up_netdev, 0),
							   "netdevs"), 0),
			    "operstate", json_string("unknown"));
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("unknown", b.data, b.len, 100);
	analyze(fl, NULL);
	x = find_anomaly(fl, "port-down");
	assert_non_null(x);
	assert_true(x->majority);
	assert_int_equal(x->nhosts, 1);
	assert_int_equal(x->severity, NICFIT_SEV_WARNING);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);

	/* one host alone: nothing to compare */
	gen_fleet(&g, 1, 4, 0, 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("one", b.data, b.len, 100);
	analyze(fl, NULL);
	assert_int_equal(nicfit_fleet_nanomalies(fl), 0);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

static void test_half_split(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b;
	struct nicfit_fleet *fl;
	const struct nicfit_fleet_anomaly *x;
	struct expect e;
	size_t i;

	(void)state;
	/* a driver rollout half done: no majority, every host named, both values */
	gen_fleet(&g, 10, 2, 0, 1);
	for (i = 0; i < 5; i++)
		assert_int_equal(inj_gpu_driver(g.docs[i], &e), 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("half", b.data, b.len, 4096);
	analyze(fl, NULL);
	assert_int_equal(nicfit_fleet_nanomalies(fl), 1);
	x = nicfit_fleet_anomaly(fl, 0);
	assert_string_equal(x->code, "gpu-driver");
	assert_false(x->majority);
	assert_int_equal(x->nhosts, 10);
	assert_int_equal(x->nvalues, 2);
	assert_int_equal(x->values[0].count, 5);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

static void test_common_findings(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b;
	struct nicfit_fleet *fl;
	const struct nicfit_fleet_group *gr;
	size_t nf = json_array_size(json_object_get(tmpl[4], "findings"));

	(void)state;
	gen_fleet(&g, 5, 4, 0, 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("common", b.data, b.len, 4096);
	analyze(fl, NULL);
	gr = nicfit_fleet_group(fl, 0);
	assert_non_null(gr);
	assert_true(gr->ncommon > 0 && gr->ncommon <= nf);
	/* r740xd's own audit has warnings: every host is a warning, none clean */
	assert_int_equal(gr->warning + gr->critical, 5);
	assert_int_equal(nicfit_fleet_exit_status(fl),
			 json_integer_value(json_object_get(json_object_get(tmpl[4], "verdict"),
							    "exit_code")));
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

/* ---- tests: input problems ------------------------------------------------------------- */

static int has_problem(const struct nicfit_fleet *fl, int kind, const char *needle, long line)
{
	size_t i;

	for (i = 0; i < nicfit_fleet_nproblems(fl); i++) {
		const struct nicfit_fleet_problem *p = nicfit_fleet_problem(fl, i);

		if ((int)p->kind == kind && strstr(p->where.msg, needle) &&
		    (line < 0 || p->where.line == line))
			return 1;
	}
	for (i = 0; i < nicfit_fleet_nproblems(fl); i++)
		fprintf(stderr, "#   problem %d %s:%ld:%ld %s\n", nicfit_fleet_problem(fl, i)->kind,
			nicfit_fleet_problem(fl, i)->where.input, nicfit_fleet_problem(fl, i)->where.line,
			nicfit_fleet_problem(fl, i)->where.col, nicfit_fleet_problem(fl, i)->where.msg);
	return 0;
}

static void test_truncated(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b;
	struct nicfit_fleet *fl;
	const struct nicfit_fleet_anomaly *x;

	(void)state;
	gen_fleet(&g, 6, 4, 0, 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PDSH, &b);
	/* the capture stops early: the last lines (two hosts' closing braces) are lost */
	nicfit_buf_truncate(&b, b.len - 1);
	while (b.len && b.data[b.len - 1] != '\n')
		nicfit_buf_truncate(&b, b.len - 1);
	nicfit_buf_truncate(&b, b.len - 1);
	while (b.len && b.data[b.len - 1] != '\n')
		nicfit_buf_truncate(&b, b.len - 1);
	fl = read_text("pdsh.out", b.data, b.len, 333);
	analyze(fl, NULL);
	assert_int_equal(nicfit_fleet_nhosts(fl), 4);
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "truncated", 5));
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "host node0006: audit document truncated", 6));
	x = find_anomaly(fl, "audit-unreadable");
	assert_non_null(x);
	assert_int_equal(x->nhosts, 6 - nicfit_fleet_nhosts(fl));
	assert_int_equal(nicfit_fleet_nabsent(fl), 6 - nicfit_fleet_nhosts(fl));
	assert_int_equal(nicfit_fleet_exit_status(fl) >= 1, 1);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

static void test_malformed(void **state)
{
	const char *text =
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"a\"},\"devices\":[]}\n"
		"{\"schema\":\"nicfit.audit.v1\",\n"
		"  \"host\": {\"name\": \"b\"},\n"
		"  \"devices\": [ {\"bdf\": \"0000:01:00.0\" \"kind\": \"nic\"} ]\n"
		"}\n"
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"c\"},\"devices\":[]}\n";
	struct nicfit_fleet *fl = read_text("bad.json", text, strlen(text), 10);
	const struct nicfit_fleet_problem *p;

	(void)state;
	assert_int_equal(nicfit_fleet_nhosts(fl), 2);
	assert_int_equal(nicfit_fleet_nproblems(fl), 1);
	p = nicfit_fleet_problem(fl, 0);
	assert_string_equal(p->where.input, "bad.json");
	assert_int_equal(p->where.line, 4);
	assert_int_equal(p->where.col, 39);
	assert_non_null(strstr(p->where.msg, "expected ',' or '}'"));
	nicfit_fleet_free(fl);
}

static void test_malformed_labelled(void **state)
{
	/* b's document is spread over interleaved lines; its error is on input line 5 */
	const char *text =
		"b: {\"schema\":\"nicfit.audit.v1\",\n"
		"a: {\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"a\"},\n"
		"b:   \"host\": {\"name\": \"b\"},\n"
		"a: \"devices\":[]}\n"
		"b:   \"devices\": [ 01 ]\n"
		"b: }\n";
	struct nicfit_fleet *fl = read_text("pdsh.out", text, strlen(text), 7);
	const struct nicfit_fleet_problem *p;

	(void)state;
	assert_int_equal(nicfit_fleet_nhosts(fl), 1);
	assert_int_equal(nicfit_fleet_nproblems(fl), 1);
	p = nicfit_fleet_problem(fl, 0);
	assert_string_equal(p->host, "b");
	assert_int_equal(p->where.line, 5);
	assert_int_equal(p->where.col, 20);
	nicfit_fleet_free(fl);
}

static void test_bom_crlf(void **state)
{
	const char *text = "\xef\xbb\xbf{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"a\"}}\r\n"
			   "{\"schema\":\"nicfit.audit.v1\",\r\n\"host\":{\"name\":\"b\"}}\r\n";
	struct nicfit_fleet *fl = read_text("windows.json", text, strlen(text), 5);

	(void)state;
	assert_int_equal(nicfit_fleet_nhosts(fl), 2);
	assert_int_equal(nicfit_fleet_nproblems_total(fl), 0);
	nicfit_fleet_free(fl);
}

static void test_duplicate(void **state)
{
	const char *text =
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"a\",\"kernel\":\"old\"}}\n"
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"b\",\"kernel\":\"new\"}}\n"
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"c\",\"kernel\":\"new\"}}\n"
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"a\",\"kernel\":\"new\"}}\n";
	struct nicfit_fleet *fl = read_text("twice.json", text, strlen(text), 50);
	const struct nicfit_fleet_host *h;

	(void)state;
	assert_int_equal(nicfit_fleet_nhosts(fl), 3);
	assert_true(has_problem(fl, NICFIT_FLEET_DUPLICATE, "read again", 4));
	analyze(fl, NULL);
	/* the later document of a won: its kernel agrees with b and c */
	assert_int_equal(nicfit_fleet_nanomalies(fl), 0);
	h = nicfit_fleet_host(fl, 0);
	assert_string_equal(h->name, "a");
	assert_int_equal(h->line, 4);
	nicfit_fleet_free(fl);
}

static void test_not_audits(void **state)
{
	const char *text =
		"{\"schema\":\"nicfit.plan.v1\"}\n"
		"{\"schema\":\"nicfit.audit.v2\",\"host\":{\"name\":\"x\"}}\n"
		"[1,2,3]\n"
		"{\"no\":\"schema\"}\n"
		"Connection to gpu9 closed by remote host.\n"
		"gpu7: bash: nicfit: command not found\n"
		"pdsh@admin: gpu8: ssh exited with exit code 255\n"
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"ok\"}}\n";
	struct nicfit_fleet *fl = read_text("mixed", text, strlen(text), 1 << 16);

	(void)state;
	assert_int_equal(nicfit_fleet_nhosts(fl), 1);
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "schema \"nicfit.plan.v1\"", 1));
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "nicfit.audit.v2 is not one", 2));
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "not an object", 3));
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "schema missing", 4));
	assert_true(has_problem(fl, NICFIT_FLEET_IGNORED, "neither JSON", 5));
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "command not found", 6));
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "exit code 255", 7));
	analyze(fl, NULL);
	/* gpu7, gpu8 and x have no usable audit; the unnamed documents are counted */
	assert_int_equal(nicfit_fleet_nabsent(fl), 3);
	assert_non_null(find_anomaly(fl, "audit-unreadable"));
	nicfit_fleet_free(fl);
}

static void test_ansible_failures(void **state)
{
	const char *adhoc =
		"gpu1 | CHANGED | rc=0 >>\n"
		"{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"gpu1.example\"}}\n"
		"gpu2 | UNREACHABLE! => {\n"
		"    \"changed\": false,\n"
		"    \"msg\": \"Failed to connect to the host via ssh\",\n"
		"    \"unreachable\": true\n"
		"}\n";
	const char *cb =
		"{\"plays\":[{\"tasks\":[{\"task\":{\"name\":\"nicfit audit\"},\"hosts\":{"
		"\"h1\":{\"stdout\":\"{\\\"schema\\\":\\\"nicfit.audit.v1\\\"}\",\"rc\":0},"
		"\"h2\":{\"unreachable\":true,\"msg\":\"Failed to connect\"},"
		"\"h3\":{\"failed\":true,\"rc\":127,\"stdout\":\"\",\"stderr\":\"nicfit: not found\"}}}]},"
		"{\"tasks\":[{\"task\":{\"name\":\"uptime\"},\"hosts\":{\"h1\":{\"stdout\":\"up 3 days\"}}}]}]}\n";
	struct nicfit_fleet *fl = read_text("adhoc", adhoc, strlen(adhoc), 9);
	const struct nicfit_fleet_host *h;

	(void)state;
	assert_int_equal(nicfit_fleet_nhosts(fl), 1);
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "UNREACHABLE!", 3));
	analyze(fl, NULL);
	h = nicfit_fleet_host(fl, 0);
	assert_string_equal(h->name, "gpu1");
	assert_string_equal(h->reported, "gpu1.example");
	nicfit_fleet_free(fl);

	fl = read_text("cb.json", cb, strlen(cb), 1 << 16);
	assert_int_equal(nicfit_fleet_nhosts(fl), 1);
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "Failed to connect", 1));
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "nicfit: not found", 1));
	analyze(fl, NULL);
	assert_string_equal(nicfit_fleet_host(fl, 0)->name, "h1");
	assert_int_equal(nicfit_fleet_nabsent(fl), 2);
	nicfit_fleet_free(fl);
}

static void test_limits(void **state)
{
	struct nicfit_fleet_limits lim;
	struct nicfit_fleet *fl;
	struct nicfit_error err;
	const char *big = "h: {\"schema\":\"nicfit.audit.v1\",\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n";
	const char *doc = "{\"schema\":\"nicfit.audit.v1\"}\n";
	char name[32];
	int i, rc = 0;

	(void)state;
	memset(&lim, 0, sizeof(lim));
	lim.max_doc_bytes = 40;
	assert_int_equal(nicfit_fleet_new(&fl, &lim), 0);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_fleet_begin(fl, "big", NULL, &err), 0);
	assert_int_equal(nicfit_fleet_feed(fl, big, strlen(big), &err), 0);
	assert_int_equal(nicfit_fleet_end(fl, &err), 0);
	assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "larger than", 1));
	nicfit_fleet_free(fl);

	memset(&lim, 0, sizeof(lim));
	lim.max_hosts = 3;
	assert_int_equal(nicfit_fleet_new(&fl, &lim), 0);
	for (i = 0; i < 5 && !rc; i++) {
		snprintf(name, sizeof(name), "host%d.json", i);
		rc = nicfit_fleet_begin(fl, name, name, &err);
		if (!rc)
			rc = nicfit_fleet_feed(fl, doc, strlen(doc), &err);
		if (!rc)
			rc = nicfit_fleet_end(fl, &err);
	}
	assert_int_equal(rc, NICFIT_E_LIMIT);
	assert_int_equal(err.code, NICFIT_E_LIMIT);
	nicfit_fleet_free(fl);
}

/* Read text with lim as one input, fed in pieces of `piece` bytes. */
static struct nicfit_fleet *read_limited(const struct nicfit_fleet_limits *lim, const char *text,
					 size_t len, size_t piece)
{
	struct nicfit_fleet *fl;
	struct nicfit_error err;
	size_t off;

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_fleet_new(&fl, lim), 0);
	assert_int_equal(nicfit_fleet_begin(fl, "in", NULL, &err), 0);
	for (off = 0; off < len; off += piece)
		if (nicfit_fleet_feed(fl, text + off, len - off < piece ? len - off : piece, &err))
			fail_msg("feed: %s", err.msg);
	if (nicfit_fleet_end(fl, &err))
		fail_msg("end: %s", err.msg);
	return fl;
}

/*
 * --max-doc-mb bounds a plain audit document too, from a file or
 * standard input, on one line or many, with its schema first or not; a
 * normal document after it is still read, and an Ansible bundle (which
 * holds many audits) is bound by the bundle limit instead.
 */
static void test_plain_doc_limit(void **state)
{
	struct nicfit_fleet_limits lim;
	struct nicfit_fleet *fl;
	struct nicfit_buf b;
	json_t *d = json_deep_copy(tmpl[0]);
	char *big, *late, *pretty, *small, *pad = malloc(300 << 10);
	const char *small_one = "{\"schema\":\"nicfit.audit.v1\",\"host\":{\"name\":\"h1\"}}";

	(void)state;
	memset(pad, 'x', (300 << 10) - 1);
	pad[(300 << 10) - 1] = '\0';
	memset(&lim, 0, sizeof(lim));
	lim.max_doc_bytes = 64 << 10;
	set_name(d, "big1");
	json_object_set_new(d, "padding", json_string(pad));
	big = json_dumps(d, JSON_COMPACT | JSON_PRESERVE_ORDER);
	pretty = json_dumps(d, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	late = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS); /* "schema" is not first */
	small = json_dumps(tmpl[1], JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_true(big && pretty && late && small);
	assert_non_null(strstr(late, "\"schema\""));
	assert_true(strstr(late, "\"schema\"") > late + 1);
	{
		const char *docs[] = { big, pretty, late };
		size_t i;

		for (i = 0; i < 3; i++) {
			nicfit_buf_init(&b, 0);
			nicfit_buf_addf(&b, "%s\n%s\n", docs[i], small);
			fl = read_limited(&lim, b.data, b.len, 4096);
			assert_true(has_problem(fl, NICFIT_FLEET_UNREADABLE, "larger than", 1));
			assert_int_equal(nicfit_fleet_nhosts(fl), 1);
			nicfit_fleet_free(fl);
			nicfit_buf_release(&b);
		}
	}
	/* a bundle larger than one audit, holding small ones: read */
	nicfit_buf_init(&b, 0);
	nicfit_buf_addf(&b, "{\"custom_stats\":{\"pad\":\"%s\"},\"plays\":[{\"tasks\":[{\"task\":"
			"{\"name\":\"nicfit audit\"},\"hosts\":{\"h1\":{\"stdout\":", pad);
	{
		json_t *s = json_string(small_one);
		char *q = json_dumps(s, JSON_ENCODE_ANY);

		nicfit_buf_addf(&b, "%s,\"rc\":0}}}]}]}\n", q);
		free(q);
		json_decref(s);
	}
	fl = read_limited(&lim, b.data, b.len, 4096);
	assert_int_equal(nicfit_fleet_nproblems(fl), 0);
	assert_int_equal(nicfit_fleet_nhosts(fl), 1);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	free(big);
	free(pretty);
	free(late);
	free(small);
	free(pad);
	json_decref(d);
}

/* The whole text rendering of fl. */
static char *render_text(struct nicfit_fleet *fl)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_TEXT, 0, 0);
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	nicfit_fleet_render(e, fl, NICFIT_FLEET_ALL_HOSTS);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	nicfit_emit_free(e);
	return nicfit_buf_detach(&b, NULL);
}

/*
 * Hostile audits: a host name with U+202E (right-to-left override), as
 * the audit reports it, comes out with '?' in its place, under its own
 * name and under a pdsh label; a label with bidi isolates is no label
 * (the line is ignored); a link width of 1e308 is dropped with an
 * input problem instead of being compared and printed as "x1e+308".
 */
static void test_hostile_values(void **state)
{
	json_t *d1 = json_deep_copy(tmpl[0]), *d2 = json_deep_copy(tmpl[0]), *dev;
	struct nicfit_buf in;
	struct nicfit_fleet *fl;
	char *s1, *s2, *out;
	size_t i;
	int seen_rlo = 0, seen_clean = 0;

	(void)state;
	set_name(d1, "gpu07\xe2\x80\xaelo.x");
	set_name(d2, "gpu08");
	dev = device(d2, NULL, has_max_width, 0);
	assert_non_null(dev);
	link_set(dev, "current_width", json_real(1e308));
	s1 = json_dumps(d1, JSON_COMPACT);
	s2 = json_dumps(d2, JSON_COMPACT);
	nicfit_buf_init(&in, 0);
	nicfit_buf_addf(&in, "%s\n%s\ngpu09: %s\n\xe2\x81\xa7gpu10\xe2\x81\xa9: %s\n", s1, s2, s1,
			s2);
	fl = read_text("hostile", in.data, in.len, 1 << 16);
	analyze(fl, NULL);
	assert_int_equal(nicfit_fleet_nhosts(fl), 3);
	for (i = 0; i < nicfit_fleet_nhosts(fl); i++) {
		const struct nicfit_fleet_host *h = nicfit_fleet_host(fl, i);

		seen_rlo |= strstr(h->name, "\xe2\x80\xae") || strstr(h->name, "\xe2\x81\xa7") ||
			    (h->reported && strstr(h->reported, "\xe2\x80\xae"));
		seen_clean += !strcmp(h->name, "gpu07?lo.x") ||
			      (h->reported && !strcmp(h->reported, "gpu07?lo.x"));
	}
	assert_false(seen_rlo);
	assert_int_equal(seen_clean, 2);
	assert_true(has_problem(fl, NICFIT_FLEET_IGNORED, "link.current_width", -1));
	assert_true(has_problem(fl, NICFIT_FLEET_IGNORED, "outside 1..32", -1));
	out = render_text(fl);
	assert_null(strstr(out, "e+308"));
	assert_null(strstr(out, "\xe2\x80\xae"));
	free(out);
	nicfit_fleet_free(fl);
	nicfit_buf_release(&in);
	free(s1);
	free(s2);
	json_decref(d1);
	json_decref(d2);
}

static void test_expect(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b;
	struct nicfit_fleet *fl;
	struct nicfit_fleet_opts o;
	const struct nicfit_fleet_anomaly *x;
	const char *ignore[] = { "host-missing", NULL };

	(void)state;
	gen_fleet(&g, 8, 4, 0, 1);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("expect", b.data, b.len, 4096);
	memset(&o, 0, sizeof(o));
	o.expect = "node[0001-0010]";
	analyze(fl, &o);
	x = find_anomaly(fl, "host-missing");
	assert_non_null(x);
	assert_int_equal(x->severity, NICFIT_SEV_CRITICAL);
	assert_int_equal(x->nhosts, 2);
	assert_string_equal(nicfit_fleet_host_name(fl, x->hosts[0]), "node0009");
	assert_string_equal(nicfit_fleet_host_name(fl, x->hosts[1]), "node0010");
	assert_int_equal(nicfit_fleet_exit_status(fl), 2);
	o.expect = "12";
	analyze(fl, &o);
	x = find_anomaly(fl, "host-missing");
	assert_non_null(x);
	assert_int_equal(x->nhosts, 0);
	assert_non_null(strstr(x->message, "4 sent nothing"));
	o.ignore = ignore;
	analyze(fl, &o);
	assert_null(find_anomaly(fl, "host-missing"));
	o.ignore = NULL;
	o.expect = "node[3-1]";
	{
		struct nicfit_error err;

		nicfit_error_clear(&err);
		assert_int_equal(nicfit_fleet_analyze(fl, &o, &err), NICFIT_E_USAGE);
		assert_non_null(strstr(err.msg, "backwards"));
	}
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

/* Text lists stop after eight host ranges unless every host is asked for. */
static void test_render_all_hosts(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b, out;
	struct nicfit_fleet *fl;
	struct expect e;
	size_t i;
	unsigned flags;

	(void)state;
	gen_fleet(&g, 40, 4, 0, 1);
	for (i = 0; i < 12; i++)
		assert_int_equal(inj_kernel(g.docs[i * 3], &e), 1); /* node0001, node0004, ... */
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("many", b.data, b.len, 4096);
	analyze(fl, NULL);
	for (flags = 0; flags <= NICFIT_FLEET_ALL_HOSTS; flags += NICFIT_FLEET_ALL_HOSTS) {
		struct nicfit_emit *em = nicfit_emit_new(NICFIT_FMT_TEXT, 0, 0);

		nicfit_buf_init(&out, 0);
		assert_int_equal(nicfit_fleet_render(em, fl, flags), 0);
		assert_int_equal(nicfit_emit_finish(em, &out), 0);
		if (flags) {
			assert_non_null(strstr(out.data, "node[0001,0004,0007,0010,0013,0016,0019,0022,"
						   "0025,0028,0031,0034]"));
		} else {
			assert_non_null(strstr(out.data, "node[0001,0004,0007,0010,0013,0016,0019,0022]"
						   " and 4 more"));
		}
		nicfit_buf_release(&out);
		nicfit_emit_free(em);
	}
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

static void test_render(void **state)
{
	struct fleet_gen g;
	struct nicfit_buf b, out;
	struct nicfit_fleet *fl;
	struct nicfit_emit *e;
	json_t *doc;
	json_error_t jerr;
	int f;

	(void)state;
	gen_fleet(&g, 50, -1, 6, 9);
	nicfit_buf_init(&b, 0);
	write_fleet(&g, T_PLAIN, &b);
	fl = read_text("render", b.data, b.len, 4096);
	analyze(fl, NULL);
	for (f = NICFIT_FMT_TEXT; f <= NICFIT_FMT_CSV; f++) {
		e = nicfit_emit_new((enum nicfit_format)f, 0, 0);
		nicfit_buf_init(&out, 0);
		assert_int_equal(nicfit_fleet_render(e, fl, 0), 0);
		assert_int_equal(nicfit_emit_finish(e, &out), 0);
		assert_true(out.len > 100);
		if (f == NICFIT_FMT_JSON) {
			doc = json_loads(out.data, 0, &jerr);
			assert_non_null(doc);
			assert_string_equal(json_string_value(json_object_get(doc, "schema")),
					    "nicfit.fleet.v1");
			assert_int_equal(json_integer_value(json_object_get(doc, "hosts")), 50);
			assert_int_equal(json_array_size(json_object_get(doc, "anomalies")),
					 nicfit_fleet_nanomalies(fl));
			assert_int_equal(json_array_size(json_object_get(doc, "groups")),
					 nicfit_fleet_ngroups(fl));
			json_decref(doc);
		}
		if (f == NICFIT_FMT_MD)
			assert_non_null(strstr(out.data, "| severity | code |"));
		nicfit_emit_free(e);
		nicfit_buf_release(&out);
	}
	nicfit_fleet_free(fl);
	nicfit_buf_release(&b);
	gen_free(&g);
}

/* ---- tests: host lists and the tokenizer ---------------------------------------------- */

static int collect(void *ctx, const char *name)
{
	struct nicfit_buf *b = ctx;

	nicfit_buf_addf(b, "%s%s", b->len ? " " : "", name);
	return 0;
}

static void test_hostlist(void **state)
{
	static const struct { const char *in; const char *folded; } cases[] = {
		{ "gpu001 gpu002 gpu003 gpu007", "gpu[001-003,007]" },
		{ "n1 n2 n3 n10 n11", "n[1-3,10-11]" },
		{ "gpu099 gpu100 gpu101", "gpu[099-101]" },
		{ "login b c", "b,c,login" },
		{ "rack1-node4 rack1-node5 rack2-node1", "rack1-node[4-5],rack2-node1" },
		{ "a1 a1 a2", "a[1-2]" },
		{ "x09 x9 x10", "x9,x[09-10]" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char copy[128], *p, *names[16];
		size_t n = 0;
		struct nicfit_buf b, x;
		struct nicfit_error err;

		snprintf(copy, sizeof(copy), "%s", cases[i].in);
		for (p = copy; p && *p;) {
			names[n++] = p;
			p = strchr(p, ' ');
			if (p)
				*p++ = '\0';
		}
		nicfit_buf_init(&b, 0);
		nicfit_hostlist_fold((const char *const *)names, n, 0, &b);
		assert_string_equal(b.data, cases[i].folded);
		/* and back */
		nicfit_buf_init(&x, 0);
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_hostlist_expand(b.data, 100, collect, &x, &err), 0);
		nicfit_buf_release(&x);
		nicfit_buf_release(&b);
	}
	{
		const char *names[] = { "a1", "a2", "a3", "b7", "c1", "c5", "d" };
		struct nicfit_buf b;

		nicfit_buf_init(&b, 0);
		nicfit_hostlist_fold(names, 7, 2, &b);
		assert_string_equal(b.data, "a[1-3],b7 and 3 more");
		nicfit_buf_release(&b);
	}
	{
		static const struct { const char *list; const char *want; } ok[] = {
			{ "gpu[01-03]", "gpu01 gpu02 gpu03" },
			{ "a[1,3-4]b,c", "a1b a3b a4b c" },
			{ "r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2" },
			{ "x[8-10]", "x8 x9 x10" },
		};
		static const char *const bad[] = { "a[1-", "a]", "a[x]", "a[3-1]", "", "a,", "a b",
						   "a[1-2-3]" };
		struct nicfit_buf b;
		struct nicfit_error err;

		for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
			nicfit_buf_init(&b, 0);
			nicfit_error_clear(&err);
			assert_int_equal(nicfit_hostlist_expand(ok[i].list, 100, collect, &b, &err), 0);
			assert_string_equal(b.data, ok[i].want);
			nicfit_buf_release(&b);
		}
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			nicfit_buf_init(&b, 0);
			nicfit_error_clear(&err);
			assert_int_equal(nicfit_hostlist_expand(bad[i], 100, collect, &b, &err),
					 NICFIT_E_USAGE);
			assert_true(err.msg[0] != '\0');
			nicfit_buf_release(&b);
		}
		nicfit_buf_init(&b, 0);
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_hostlist_expand("n[1-1000]", 100, collect, &b, &err),
				 NICFIT_E_LIMIT);
		nicfit_buf_release(&b);
	}
}

static void test_jscan(void **state)
{
	static const char *const good[] = {
		"{}", "[]", " {\"a\" : [1, -2.5e+3, true, false, null, \"x\\u00e9\\n\"]} ",
		"\"\\ud83d\\ude00\"", "0", "{\"a\":{\"b\":{\"c\":[[]]}}}", "\"caf\xc3\xa9\"",
	};
	static const char *const bad[] = {
		"", "{", "{\"a\"}", "{\"a\":}", "[1,]", "01", "1.", "-", "\"\\x\"", "\"\\u12\"",
		"\"a\nb\"", "tru", "{} x", "\"\\u0000\"", "\"\\udc00\"", "\"\xff\"", "\"\xc0\xaf\"",
		"{\"a\" 1}", "[1 2]",
	};
	struct jscan s;
	size_t i;
	char deep[200];
	char out[16];

	(void)state;
	nicfit__jscan_init(&s);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (nicfit__jscan_parse(&s, good[i], strlen(good[i])))
			fail_msg("rejected %s: %s", good[i], s.err_msg);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!nicfit__jscan_parse(&s, bad[i], strlen(bad[i])))
			fail_msg("accepted %s", bad[i]);
		assert_non_null(s.err_msg);
	}
	memset(deep, '[', sizeof(deep));
	assert_int_not_equal(nicfit__jscan_parse(&s, deep, sizeof(deep)), 0);
	assert_non_null(strstr(s.err_msg, "deeply"));
	{
		const char *doc = "{\"k\":\"a\\u00e9\\\"\",\"n\":12.5}";

		assert_int_equal(nicfit__jscan_parse(&s, doc, strlen(doc)), 0);
	}
	assert_int_equal(nicfit__jscan_string(&s, nicfit__jscan_get(&s, 0, "k"), out, sizeof(out)), 4);
	assert_string_equal(out, "a\xc3\xa9\"");
	{
		double v = 0;

		assert_int_equal(nicfit__jscan_number(&s, nicfit__jscan_get(&s, 0, "n"), &v), 0);
		assert_near(v, 12.5, 1e-12);
		assert_int_equal(nicfit__jscan_get(&s, 0, "k"), 2); /* looked up again, out of order */
	}
	nicfit__jscan_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jscan),
		cmocka_unit_test(test_hostlist),
		cmocka_unit_test(test_clean_fleet),
		cmocka_unit_test(test_injected_fleet),
		cmocka_unit_test(test_each_injection),
		cmocka_unit_test(test_transports),
		cmocka_unit_test(test_tolerant),
		cmocka_unit_test(test_two_hosts),
		cmocka_unit_test(test_half_split),
		cmocka_unit_test(test_common_findings),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_malformed_labelled),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_bom_crlf),
		cmocka_unit_test(test_not_audits),
		cmocka_unit_test(test_ansible_failures),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_plain_doc_limit),
		cmocka_unit_test(test_hostile_values),
		cmocka_unit_test(test_expect),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_render_all_hosts),
	};

	return cmocka_run_group_tests(tests, load_templates, free_templates);
}
