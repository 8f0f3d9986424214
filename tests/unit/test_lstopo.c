/*
 * test_lstopo.c - hwloc as the oracle: for each fixture tree, `lstopo -i
 * DIR --whole-io --of xml` must see the same PCI functions, the same
 * parent of each (hwloc builds the tree from the bus numbers in config
 * space, nicfit from the sysfs directories: two independent readings), the
 * same link rate, and the same network and RDMA devices on each function.
 *
 * Known differences, allowed: hwloc skips PCI domains above 0xffff (VMD)
 * and functions missing from /sys/bus/pci/devices, which nicfit keeps; an
 * interface whose directory cannot be read (a symlink loop) is still an
 * interface to hwloc, which only scans the link's path, and is dropped, with
 * a read problem, by nicfit.
 * Skipped when lstopo is not installed.
 */
#include "unit.h"

#include "fixtures.h"
#include "nicfit/topo.h"

#define MAXOBJ 4096

struct hwobj {
	char bdf[24];
	char parent[24];
	double gbs;        /* pci_link_speed, GB/s */
};

struct hwos {
	char name[64];
	char bdf[24];
};

struct hw {
	struct hwobj pci[MAXOBJ];
	int npci;
	struct hwos os[MAXOBJ];
	int nos;
};

static int attr(const char *line, const char *key, char *out, size_t n)
{
	char pat[64];
	const char *p, *q;

	snprintf(pat, sizeof(pat), " %s=\"", key);
	p = strstr(line, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	q = strchr(p, '"');
	if (!q || (size_t)(q - p) >= n)
		return 0;
	memcpy(out, p, (size_t)(q - p));
	out[q - p] = '\0';
	return 1;
}

/* Parse lstopo's XML (one element per line) into h. Returns 0, or -1 when lstopo is missing. */
static int run_lstopo(const char *dir, struct hw *h)
{
	char cmd[512], line[4096], stack[256][24];
	int depth = 0;
	FILE *f;

	if (system("command -v lstopo-no-graphics >/dev/null 2>&1"))
		return -1;
	snprintf(cmd, sizeof(cmd), "HWLOC_COMPONENTS=linux,stop lstopo-no-graphics -i '%s' "
		 "--whole-io --of xml - 2>/dev/null", dir);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	memset(h, 0, sizeof(*h));
	while (fgets(line, sizeof(line), f)) {
		char *s = line, type[32], busid[24], val[64];
		int self, k;

		while (*s == ' ')
			s++;
		if (!strncmp(s, "</object>", 9)) {
			if (depth)
				depth--;
			continue;
		}
		if (strncmp(s, "<object ", 8))
			continue;
		self = strstr(s, "/>") != NULL && strstr(s, "/>")[2] == '\n';
		if (!attr(s - 1, "type", type, sizeof(type)))
			type[0] = '\0';
		busid[0] = '\0';
		attr(s - 1, "pci_busid", busid, sizeof(busid));
		if (busid[0] && h->npci < MAXOBJ) {
			struct hwobj *o = &h->pci[h->npci++];

			snprintf(o->bdf, sizeof(o->bdf), "%s", busid);
			for (k = depth - 1; k >= 0; k--)
				if (stack[k][0]) {
					snprintf(o->parent, sizeof(o->parent), "%s", stack[k]);
					break;
				}
			if (attr(s - 1, "pci_link_speed", val, sizeof(val)))
				o->gbs = strtod(val, NULL);
		}
		if (!strcmp(type, "OSDev") && attr(s - 1, "osdev_type", val, sizeof(val)) &&
		    (!strcmp(val, "2") || !strcmp(val, "3")) && h->nos < MAXOBJ) {
			struct hwos *o = &h->os[h->nos];

			if (attr(s - 1, "name", o->name, sizeof(o->name))) {
				for (k = depth - 1; k >= 0; k--)
					if (stack[k][0]) {
						snprintf(o->bdf, sizeof(o->bdf), "%s", stack[k]);
						break;
					}
				h->nos++;
			}
		}
		if (!self && depth < 256)
			snprintf(stack[depth++], sizeof(stack[0]), "%s", busid);
	}
	return pclose(f) == 0 ? 0 : -2;
}

/* nicfit's parent of a function as hwloc can see it: the nearest listed one. */
static const char *seen_parent(const struct nicfit_topo *t, int i)
{
	int p = t->pci[i].parent;

	while (p >= 0 && !t->pci[p].in_bus_list)
		p = t->pci[p].parent;
	return p >= 0 ? t->pci[p].bdf : "";
}

static int hw_find(const struct hw *h, const char *bdf)
{
	int i;

	for (i = 0; i < h->npci; i++)
		if (!strcmp(h->pci[i].bdf, bdf))
			return i;
	return -1;
}

static int unreadable(const struct nicfit_topo *t, const char *ifname)
{
	char pat[96];
	int i;

	snprintf(pat, sizeof(pat), "/net/%s/", ifname);
	for (i = 0; i < t->nproblems; i++)
		if (strstr(t->problems[i].path, pat))
			return 1;
	return 0;
}

static void oracle(const char *name)
{
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;
	struct hw *h = malloc(sizeof(*h));
	char root[256];
	int i, rc, checked = 0;

	assert_non_null(h);
	fixture(name, root, sizeof(root));
	rc = run_lstopo(root, h);
	if (rc == -1) {
		free(h);
		skip();
	}
	assert_int_equal(rc, 0);
	assert_true(h->npci > 0);
	nicfit_error_clear(&err);
	if (nicfit_topo_discover(root, &t, &err))
		fail_msg("%s: %s", root, err.msg);
	/* every function hwloc reports, with the same parent and link rate */
	for (i = 0; i < h->npci; i++) {
		const struct hwobj *o = &h->pci[i];
		int k = nicfit_topo_find(t, o->bdf);
		const struct nicfit_pcidev *p;

		if (k < 0)
			fail_msg("%s: hwloc sees %s, nicfit does not", name, o->bdf);
		p = &t->pci[k];
		if (strcmp(seen_parent(t, k), o->parent))
			fail_msg("%s: %s: parent %s in nicfit, %s in hwloc", name, o->bdf,
				 seen_parent(t, k), o->parent[0] ? o->parent : "(host bridge)");
		if ((p->have & NICFIT_HAVE_CUR_SPEED) && p->cur_width > 0) {
			double lane = o->gbs * 8 / p->cur_width;

			if (fabs(lane - p->cur_gts * 0.8) > 0.01 &&
			    fabs(lane - p->cur_gts * 128 / 130) > 0.01)
				fail_msg("%s: %s: hwloc %.4f GB/s, nicfit %g GT/s x%d", name, o->bdf, o->gbs,
					 p->cur_gts, p->cur_width);
		} else if (o->gbs > 0.0001 && !p->cfg_pcie) {
			fail_msg("%s: %s: hwloc has a link rate (%.4f GB/s), nicfit none", name, o->bdf,
				 o->gbs);
		}
		checked++;
	}
	/* every listed function nicfit reports in a domain hwloc handles */
	for (i = 0; i < t->npci; i++)
		if (t->pci[i].in_bus_list && t->pci[i].domain <= 0xffff && hw_find(h, t->pci[i].bdf) < 0)
			fail_msg("%s: nicfit sees %s, hwloc does not", name, t->pci[i].bdf);
	/* network and RDMA devices sit on the same functions */
	for (i = 0; i < h->nos; i++) {
		int k, found = 0;

		for (k = 0; k < t->nnet; k++)
			if (!strcmp(t->net[k].name, h->os[i].name) && t->net[k].pci >= 0) {
				found = 1;
				assert_string_equal(t->pci[t->net[k].pci].bdf, h->os[i].bdf);
			}
		for (k = 0; k < t->nrdma; k++)
			if (!strcmp(t->rdma[k].name, h->os[i].name) && t->rdma[k].pci >= 0) {
				found = 1;
				assert_string_equal(t->pci[t->rdma[k].pci].bdf, h->os[i].bdf);
			}
		if (!found && !unreadable(t, h->os[i].name))
			fail_msg("%s: hwloc has %s on %s, nicfit does not", name, h->os[i].name,
				 h->os[i].bdf);
	}
	assert_int_equal(checked, h->npci);
	nicfit_topo_free(t);
	free(h);
}

#define ORACLE(fn, name) \
	static void fn(void **state) \
	{ \
		(void)state; \
		oracle(name); \
	}

ORACLE(el7_v100, "el7-v100")
ORACLE(epyc_gen4, "epyc-gen4")
ORACLE(hgx_h100, "hgx-h100")
ORACLE(kvm_vm, "kvm-vm")
ORACLE(r740xd, "r740xd")
ORACLE(sr665_copy, "sr665-copy")
ORACLE(x11_200g, "x11-200g")
ORACLE(xenial_k44, "xenial-k44")

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(el7_v100),
		cmocka_unit_test(epyc_gen4),
		cmocka_unit_test(hgx_h100),
		cmocka_unit_test(kvm_vm),
		cmocka_unit_test(r740xd),
		cmocka_unit_test(sr665_copy),
		cmocka_unit_test(x11_200g),
		cmocka_unit_test(xenial_k44),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
