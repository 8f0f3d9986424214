/*
 * test_catalog.c - the embedded catalog is valid, complete where the
 * article needs it, and honest about prices; overlays merge and refuse.
 */
#include "unit.h"

#include <jansson.h>

#include "parts/embedded_int.h"
#include "nicfit/catalog.h"
#include "nicfit/step.h"

static void embedded_files_validate(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error errs[16], err;
	const struct nicfit_blob *b;
	size_t n, total, i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new_empty(&cat, &err), 0);
	/* each file against the ones before it, as --catalog overlays them */
	for (b = nicfit__catalog_blobs; b->name; b++) {
		n = nicfit_catalog_check(cat, b->name, b->data, b->len, errs, 16, &total);
		for (i = 0; i < n && i < 16; i++)
			print_error("%s:%ld:%ld: %s\n", errs[i].input, errs[i].line, errs[i].col,
				    errs[i].msg);
		assert_int_equal(n, 0);
		assert_true(total > 0);
		assert_int_equal(nicfit_catalog_overlay(cat, b->name, b->data, b->len, &err), 0);
	}
	nicfit_catalog_free(cat);
}

/*
 * The servers and GPUs people own and buy: at least 30 real servers (not
 * the generic profiles) and 30 GPUs in the built-in catalog, each naming
 * where its facts come from; among the real servers at least as many
 * refurbished PCIe Gen3/Gen4 machines as current Gen5 ones.
 */
static void thirty_servers_and_gpus_sourced(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	size_t i, real = 0, older = 0, gen5 = 0;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_SERVER); i++) {
		const struct nicfit_server *sv = nicfit_catalog_server(cat, i);

		assert_non_null(sv->e.source);
		assert_true(strlen(sv->e.source) > 20);
		if (sv->generic)
			continue;
		real++;
		older += sv->pcie_gen == 3 || sv->pcie_gen == 4;
		gen5 += sv->pcie_gen >= 5;
	}
	assert_true(real >= 30);
	/* as many refurbished Gen3/Gen4 machines as current Gen5 ones */
	if (older < gen5)
		fail_msg("%zu real Gen3/Gen4 servers, %zu Gen5 ones", older, gen5);
	assert_true(nicfit_catalog_count(cat, NICFIT_KIND_GPU) >= 30);
	for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_GPU); i++) {
		const struct nicfit_gpu *g = nicfit_catalog_gpu(cat, i);

		assert_non_null(g->e.source);
		assert_true(strlen(g->e.source) > 20);
	}
	nicfit_catalog_free(cat);
}

/*
 * The ESC8000 G4's slot map is read from one probe's lspci (a secondary
 * source): four GPU slots on a switch on a root port of CPU 1, four more
 * and one free x16 slot for the NIC on a second switch cascaded below it,
 * the LAN on CPU 2, and all of it marked unverified so plans say so.
 */
static void probed_esc8000_g4_single_root(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	const struct nicfit_server *sv;
	int i, gpus = 0, free_on_switch = 0, top = -1, below = -1, on[2] = { 0, 0 };

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	sv = nicfit_catalog_find_server(cat, "esc8000-g4", "--server", &err);
	assert_non_null(sv);
	assert_int_equal(sv->pcie_gen, 3);
	assert_int_equal(sv->nswitches, 2);
	for (i = 0; i < 2; i++)
		if (sv->switches[i].upstream == 0)
			top = i;
		else
			below = i;
	assert_true(top >= 0 && below >= 0);
	assert_int_equal(sv->switches[below].upstream, top + 1);
	for (i = 0; i < sv->nslots; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		assert_int_equal(s->socket, 0);
		assert_true(s->pcie_switch == top || s->pcie_switch == below);
		on[s->pcie_switch == below]++;
		gpus += s->gpu == NICFIT_GPU_DOUBLE;
		free_on_switch += s->gpu == NICFIT_GPU_NONE && s->width == 16 &&
				  s->pcie_switch == below;
	}
	assert_int_equal(on[0], 4);
	assert_int_equal(on[1], 5);
	assert_int_equal(gpus, 8);
	assert_int_equal(sv->max_gpus_double, 8);
	assert_int_equal(free_on_switch, 1);
	assert_int_equal(sv->nonboard, 1);
	assert_int_equal(sv->onboard[0].socket, 1);
	assert_true(nicfit_entry_unverified(&sv->e, "slots"));
	assert_true(nicfit_entry_unverified(&sv->e, "pcie_switches"));
	assert_non_null(strstr(sv->e.source, "linux-hardware.org"));
	nicfit_catalog_free(cat);
}

/* Only the seed article's nine items carry prices, all as of 2026-10-30. */
static void prices_only_where_sourced(void **state)
{
	static const struct { const char *id; double usd; } sourced[] = {
		{ "x710-da2", 49.95 }, { "x710-da4", 84.95 }, { "x550-t2", 94.95 },
		{ "mcx4121a-acat", 54.95 }, { "mcx512a-acat", 149.95 }, { "mcx556a-ecat", 244.95 },
		{ "mcx653105a-hdat", 619.95 }, { "mcp2m00-a001", 29.00 }, { "mcp7f00-a002r30n", 149.95 },
	};
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	int k, priced = 0;
	size_t i, j;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		for (i = 0; i < nicfit_catalog_count(cat, (enum nicfit_kind)k); i++) {
			const struct nicfit_entry *e = nicfit_catalog_entry(cat, (enum nicfit_kind)k, i);

			assert_non_null(e->source);
			if (!e->priced)
				continue;
			priced++;
			assert_string_equal(e->prices_as_of, "2026-10-30");
			for (j = 0; j < sizeof(sourced) / sizeof(sourced[0]); j++)
				if (!strcmp(sourced[j].id, e->id))
					break;
			if (j == sizeof(sourced) / sizeof(sourced[0]))
				fail_msg("%s has a price the article does not give", e->id);
			assert_near(e->price_usd, sourced[j].usd, 1e-9);
		}
	assert_int_equal(priced, 9);
	nicfit_catalog_free(cat);
}

static void article_parts_present(void **state)
{
	static const char *const ids[] = { "r740xd", "r740", "dl380-gen10", "generic-gen3",
		"generic-gen4", "generic-gen5", "a40", "l40s", "llama-3-70b", "llama-3-8b",
		"llama-2-7b", "llama-2-13b", "llama-3.1-405b", "mixtral-8x7b", "qwen2.5-72b",
		"deepseek-v3", "mcx556a-ecat", "mcx4121a-acat", "mcx653105a-hdat", "x710-da2",
		"mcp2m00-a001", "mcp7f00-a002r30n", NULL };
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	const struct nicfit_nic *n;
	int i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (i = 0; ids[i]; i++)
		if (!nicfit_catalog_lookup(cat, ids[i], NULL))
			fail_msg("%s missing", ids[i]);
	/* look-ups ignore case and accept part numbers */
	n = nicfit_catalog_find_nic(cat, "MCX556A-ECAT", "x", &err);
	assert_non_null(n);
	assert_int_equal(n->pcie_gen, 3);
	assert_int_equal(n->pcie_width, 16);
	assert_true(n->rdma & NICFIT_RDMA_IB);
	assert_int_equal(nicfit_catalog_find_nic(cat, "x710-da2", "x", &err)->rdma, 0);
	/* port modes: Thor2 runs 2 x 200G or 1 x 400G; a card without modes, port_gbps */
	n = nicfit_catalog_find_nic(cat, "bcm957608-p2200gqf00", "x", &err);
	assert_non_null(n);
	assert_int_equal(n->nport_modes, 2);
	assert_true(nicfit_nic_port_gbps(n, 1) == 400);
	assert_true(nicfit_nic_port_gbps(n, 2) == 200);
	assert_true(nicfit_nic_port_gbps(n, 3) == 0);
	assert_true(nicfit_nic_port_gbps(nicfit_catalog_find_nic(cat, "mcx556a-ecat", "x", &err),
					 2) == 100);
	/*
	 * The 16-bit tensor figure is named by the format the GPU takes:
	 * Volta and Turing (V100, T4) have FP16 but no BF16 tensor cores,
	 * Ampere and later both (H100's 989 TFLOPS is its BF16 figure).
	 */
	{
		static const char *const fp16_only[] = { "v100-pcie-16gb", "v100-pcie-32gb",
			"v100-sxm2-16gb", "v100-sxm2-32gb", "t4", NULL };
		double peak;

		for (i = 0; fp16_only[i]; i++)
			assert_string_equal(nicfit_gpu_peak(nicfit_catalog_find_gpu(cat, fp16_only[i],
										    "x", &err),
							    NICFIT_PREC_BF16, 0, &peak),
					    "fp16");
		assert_string_equal(nicfit_gpu_peak(nicfit_catalog_find_gpu(cat, "h100-sxm5-80gb",
									    "x", &err),
						    NICFIT_PREC_BF16, 0, &peak),
				    "bf16");
		assert_true(peak > 900);
	}
	/* an unknown id suggests the nearest */
	nicfit_error_clear(&err);
	assert_null(nicfit_catalog_find_server(cat, "r740xdd", "--server", &err));
	assert_int_equal(err.code, NICFIT_E_NOTFOUND);
	assert_non_null(strstr(err.msg, "r740xd"));
	nicfit_catalog_free(cat);
}

/* cables_between()'s answer as a walk of every cable finds it: same cables, same order. */
static void between_as_walked(const struct nicfit_catalog *cat, const char *a, const char *b)
{
	const struct nicfit_cable *const *v;
	size_t i, n, k = 0, count = nicfit_catalog_count(cat, NICFIT_KIND_CABLE);

	assert_int_equal(nicfit_catalog_cables_between(cat, a, b, &v, &n), 0);
	for (i = 0; i < count; i++) {
		const struct nicfit_cable *c = nicfit_catalog_cable(cat, i);

		if (c->type == NICFIT_CABLE_OPTIC ||
		    !((!strcmp(c->end_a, a) && !strcmp(c->end_b, b)) ||
		      (!strcmp(c->end_a, b) && !strcmp(c->end_b, a))))
			continue;
		assert_true(k < n);
		assert_ptr_equal(v[k], c);
		k++;
	}
	assert_int_equal(k, n);
}

/*
 * The index of cables by the cages they join answers as a walk of every
 * cable: for every pair of ends in the catalog, either way round, a pair
 * none has, and after an overlay moves a cable to other ends.
 */
static void cables_between_cages(void **state)
{
	static const char moved[] = "{\"schema\":\"nicfit.catalog.v1\",\"cables\":[{\"id\":"
		"\"mcp2m00-a001\",\"end_b\":\"QSFP28\"}]}";
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	const struct nicfit_cable *const *v;
	size_t i, n, round;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < nicfit_catalog_count(cat, NICFIT_KIND_CABLE); i++) {
			const struct nicfit_cable *c = nicfit_catalog_cable(cat, i);

			between_as_walked(cat, c->end_a, c->end_b);
			between_as_walked(cat, c->end_b, c->end_a);
		}
		assert_int_equal(nicfit_catalog_cables_between(cat, "SFP28", "no-such-cage", &v, &n), 0);
		assert_int_equal(n, 0);
		if (!round)
			assert_int_equal(nicfit_catalog_overlay(cat, "moved.json", moved,
								strlen(moved), &err), 0);
	}
	assert_int_equal(nicfit_catalog_cables_between(cat, "QSFP28", "SFP28", &v, &n), 0);
	for (i = 0; i < n && strcmp(v[i]->e.id, "mcp2m00-a001"); i++)
		;
	assert_true(i < n);
	nicfit_catalog_free(cat);
}

static void overlay_merges_and_refuses(void **state)
{
	static const char ok[] = "{\"schema\":\"nicfit.catalog.v1\",\"nics\":[{\"id\":\"mcx556a-ecat\","
		"\"price_usd\":199.5,\"prices_as_of\":\"2026-11-20\",\"price_source\":\"shop\"}]}";
	static const char bad[] = "{\"schema\":\"nicfit.catalog.v1\",\"nics\":[{\"id\":\"mcx556a-ecat\","
		"\"ports\":\"two\"}]}";
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	const struct nicfit_nic *n;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	assert_int_equal(nicfit_catalog_overlay(cat, "mine.json", ok, strlen(ok), &err), 0);
	n = nicfit_catalog_find_nic(cat, "mcx556a-ecat", "x", &err);
	assert_near(n->e.price_usd, 199.5, 1e-9);
	assert_int_equal(n->ports, 2); /* other fields kept */
	assert_string_equal(n->e.origin, "mine.json");
	assert_int_equal(nicfit_catalog_overlay(cat, "bad.json", bad, strlen(bad), &err), NICFIT_E_DATA);
	assert_string_equal(err.input, "bad.json");
	assert_int_equal(err.line, 1);
	assert_true(err.col > 1);
	n = nicfit_catalog_find_nic(cat, "mcx556a-ecat", "x", &err);
	assert_int_equal(n->ports, 2); /* unchanged after the refusal */
	nicfit_catalog_free(cat);
}

/* The first entry of kind plural in the embedded file name, a copy. */
static json_t *embedded_entry(const char *file, const char *plural, const char *with)
{
	const struct nicfit_blob *b;
	json_t *root, *e = NULL, *x;
	size_t i;

	for (b = nicfit__catalog_blobs; b->name; b++)
		if (!strcmp(b->name, file))
			break;
	assert_non_null(b->name);
	root = json_loadb(b->data, b->len, 0, NULL);
	assert_non_null(root);
	json_array_foreach(json_object_get(root, plural), i, x)
		if (!with || json_object_get(x, with)) {
			e = json_deep_copy(x);
			break;
		}
	json_decref(root);
	assert_non_null(e);
	return e;
}

/*
 * Check the document doc against the embedded catalog, and overlay it: the
 * two must agree. Returns the problems check found (and wants one whose
 * message holds needle).
 */
static size_t check_and_overlay(json_t *doc, const char *needle)
{
	struct nicfit_catalog *cat;
	struct nicfit_error errs[8], err;
	char *text = json_dumps(doc, JSON_COMPACT);
	size_t n, total, i;
	int found = 0, rc;

	assert_non_null(text);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	n = nicfit_catalog_check(cat, "mine.json", text, strlen(text), errs, 8, &total);
	for (i = 0; i < n && i < 8; i++)
		found |= strstr(errs[i].msg, needle) != NULL;
	if (n && !found)
		fail_msg("no problem says '%s' (first: %s)", needle, errs[0].msg);
	rc = nicfit_catalog_overlay(cat, "mine.json", text, strlen(text), &err);
	if (n)
		assert_true(rc != 0);
	else
		assert_int_equal(rc, 0);
	nicfit_catalog_free(cat);
	free(text);
	json_decref(doc);
	return n;
}

static json_t *doc_of(const char *plural, json_t *entries)
{
	json_t *doc = json_object();

	json_object_set_new(doc, "schema", json_string("nicfit.catalog.v1"));
	json_object_set_new(doc, plural, entries);
	return doc;
}

/*
 * catalog check refuses what --catalog refuses, and both refuse what
 * catalog show could not reach: 4,096 NICs counted after the merge; an id
 * that another kind has; an onboard NIC that is not a NIC, or the server.
 */
static void check_agrees_with_overlay(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	json_t *nic = embedded_entry("nics.json", "nics", NULL), *arr, *e, *ob;
	size_t base, i;
	char id[32];

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	base = nicfit_catalog_count(cat, NICFIT_KIND_NIC);
	nicfit_catalog_free(cat);
	assert_true(base > 0 && base < 4096);
	/* 4,096 new NICs in the file: fine alone, too many once merged */
	arr = json_array();
	for (i = 0; i < 4096 - base + 1; i++) {
		e = json_deep_copy(nic);
		snprintf(id, sizeof(id), "test-nic-%zu", i);
		json_object_set_new(e, "id", json_string(id));
		json_array_append_new(arr, e);
	}
	assert_int_equal(check_and_overlay(doc_of("nics", arr), "once merged"), 1);
	/* one fewer fits */
	arr = json_array();
	for (i = 0; i < 4096 - base; i++) {
		e = json_deep_copy(nic);
		snprintf(id, sizeof(id), "test-nic-%zu", i);
		json_object_set_new(e, "id", json_string(id));
		json_array_append_new(arr, e);
	}
	assert_int_equal(check_and_overlay(doc_of("nics", arr), "-"), 0);
	/* a cable named like a NIC */
	e = embedded_entry("cables.json", "cables", NULL);
	json_object_set(e, "id", json_object_get(nic, "id"));
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("cables", arr), "also one of the nics"), 1);
	/* an onboard NIC that does not exist, then one that is the server */
	e = embedded_entry("servers.json", "servers", "onboard");
	ob = json_array_get(json_object_get(e, "onboard"), 0);
	json_object_set_new(ob, "nic", json_string("no-such-nic"));
	arr = json_array();
	json_array_append(arr, e);
	assert_int_equal(check_and_overlay(doc_of("servers", arr), "not a NIC"), 1);
	json_object_set(ob, "nic", json_object_get(e, "id"));
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("servers", arr), "this server itself"), 1);
	/* a dual-slot card is a PCIe card; "slot_width" is single or double */
	e = json_deep_copy(nic);
	json_object_set_new(e, "id", json_string("test-dual-slot"));
	json_object_set_new(e, "slot_width", json_string("double"));
	json_object_set_new(e, "form_factor", json_string("ocp3"));
	arr = json_array();
	json_array_append(arr, e);
	assert_int_equal(check_and_overlay(doc_of("nics", arr), "needs a PCIe card"), 1);
	json_object_set_new(e, "slot_width", json_string("triple"));
	json_object_set_new(e, "form_factor", json_string("pcie-fhhl"));
	arr = json_array();
	json_array_append(arr, e);
	assert_int_equal(check_and_overlay(doc_of("nics", arr), "is not one of"), 1);
	json_object_set_new(e, "slot_width", json_string("double"));
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("nics", arr), "-"), 0);
	/* a slot's "card_width" is single or double too */
	e = embedded_entry("servers.json", "servers", "slots");
	json_object_set_new(e, "id", json_string("test-card-width"));
	json_object_set_new(json_array_get(json_object_get(e, "slots"), 0), "card_width",
			    json_string("wide"));
	arr = json_array();
	json_array_append(arr, e);
	assert_int_equal(check_and_overlay(doc_of("servers", arr), "is not one of"), 1);
	json_object_set_new(json_array_get(json_object_get(e, "slots"), 0), "card_width",
			    json_string("double"));
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("servers", arr), "-"), 0);
	json_decref(nic);
}

/* The embedded ESC8000 G4 (two cascaded switches) under a new id, with its sw2's "upstream" set to up and socket to sock. */
static json_t *cascade_with(const char *up, int sock)
{
	const struct nicfit_blob *b;
	json_t *root, *e = NULL, *x, *arr = json_array(), *sw;
	size_t i;

	for (b = nicfit__catalog_blobs; b->name && strcmp(b->name, "oem-other.json"); b++)
		;
	assert_non_null(b->name);
	root = json_loadb(b->data, b->len, 0, NULL);
	assert_non_null(root);
	json_array_foreach(json_object_get(root, "servers"), i, x)
		if (!strcmp(json_string_value(json_object_get(x, "id")), "esc8000-g4"))
			e = json_deep_copy(x);
	json_decref(root);
	assert_non_null(e);
	json_object_set_new(e, "id", json_string("test-cascade"));
	sw = json_array_get(json_object_get(e, "pcie_switches"), 1);
	assert_string_equal(json_string_value(json_object_get(sw, "id")), "sw2");
	json_object_set_new(sw, "upstream", json_string(up));
	if (sock >= 0) {
		json_object_set_new(sw, "socket", json_integer(sock));
		/* its slots follow it, so only the cascade is wrong */
		json_array_foreach(json_object_get(e, "slots"), i, x)
			if (!strcmp(json_string_value(json_object_get(x, "switch")), "sw2"))
				json_object_set_new(x, "socket", json_integer(sock));
	}
	json_array_append_new(arr, e);
	return doc_of("servers", arr);
}

/*
 * A cascaded switch's "upstream" names another switch of the server, on
 * its socket, and following it ends at a switch on a root port: each
 * wrong one is refused, with the entry and field in the problem's path.
 */
static void check_refuses_bad_cascades(void **state)
{
	json_t *doc, *sw1;

	(void)state;
	assert_int_equal(check_and_overlay(cascade_with("sw1", -1), "-"), 0);
	assert_int_equal(check_and_overlay(cascade_with("sw9", -1), "'upstream': 'sw9' is not an id"),
			 1);
	assert_int_equal(check_and_overlay(cascade_with("sw2", -1), "names the switch itself"), 1);
	assert_int_equal(check_and_overlay(cascade_with("sw1", 1),
					   "switch 'sw2' on socket 1 hangs off PCIe switch 'sw1' on socket 0"),
			 1);
	/* sw1 below sw2 below sw1: said once */
	doc = cascade_with("sw1", -1);
	sw1 = json_array_get(json_object_get(json_array_get(json_object_get(doc, "servers"), 0),
					     "pcie_switches"), 0);
	json_object_set_new(sw1, "upstream", json_string("sw2"));
	assert_int_equal(check_and_overlay(doc, "leads back to it"), 1);
	/* a wrong type: a string */
	doc = cascade_with("sw1", -1);
	sw1 = json_array_get(json_object_get(json_array_get(json_object_get(doc, "servers"), 0),
					     "pcie_switches"), 1);
	json_object_set_new(sw1, "upstream", json_integer(0));
	assert_int_equal(check_and_overlay(doc, "upstream"), 1);
}

/* An override of the NIC mcx556a-ecat that sets key to the string v. */
static json_t *nic_with(const char *key, const char *v)
{
	json_t *e = json_object(), *arr = json_array();

	json_object_set_new(e, "id", json_string("mcx556a-ecat"));
	json_object_set_new(e, key, json_string(v));
	if (!strcmp(key, "prices_as_of")) {
		json_object_set_new(e, "price_usd", json_real(1));
		json_object_set_new(e, "price_source", json_string("a shop"));
	}
	json_array_append_new(arr, e);
	return doc_of("nics", arr);
}

/*
 * Strings are one line of text, prices_as_of a day of the calendar, an id
 * begins with a letter or a digit, and a NUL is named in nicfit's words.
 */
static void check_strings_and_dates(void **state)
{
	static const char *const bad_dates[] = { "2026-13-01", "0000-00-00", "=1+2+3+456",
		"2026-02-29", "2100-02-29", "2026-04-31", "2026-1-01", "2026-01-01 ", NULL };
	static const char *const good_dates[] = { "2026-01-01", "2024-02-29", "2000-02-29", NULL };
	static const char *const ctl[][2] = { { "a\nb", "(\\n)" }, { "x\033[2J", "(\\x1b)" },
		{ "bell\007", "(\\x07)" }, { "c1 \xc2\x9b" "31m", "(\\u009b)" }, { "t\tab", "(\\t)" } };
	/* bidi controls and zero-width characters: named by code point */
	static const char *const invisible[][2] = {
		{ "MCX\xe2\x80\xae" "1m", "'name': a bidirectional control character (U+202E)" },
		{ "a\xe2\x81\xa6" "b", "bidirectional control character (U+2066)" },
		{ "a\xe2\x80\x8e", "bidirectional control character (U+200E)" },
		{ "a\xd8\x9c", "bidirectional control character (U+061C)" },
		{ "a\xe2\x80\x8b" "b", "an invisible formatting character (U+200B)" },
		{ "a\xe2\x80\x8d", "invisible formatting character (U+200D)" },
		{ "a\xe2\x81\xa0", "invisible formatting character (U+2060)" },
		{ "a\xef\xbb\xbf" "b", "invisible formatting character (U+FEFF)" },
		{ "a\xe2\x80\xa8" "b", "a line or paragraph separator (U+2028)" } };
	static const char nul[] = "{\"schema\":\"nicfit.catalog.v1\",\"nics\":[{\"id\":"
				  "\"mcx556a-ecat\",\"name\":\"a\\u0000b\"}]}";
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	json_t *e, *arr;
	size_t i, total;

	(void)state;
	for (i = 0; bad_dates[i]; i++)
		assert_int_equal(check_and_overlay(nic_with("prices_as_of", bad_dates[i]),
						   "is not a date YYYY-MM-DD"), 1);
	for (i = 0; good_dates[i]; i++)
		assert_int_equal(check_and_overlay(nic_with("prices_as_of", good_dates[i]), "-"), 0);
	for (i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++) {
		assert_int_equal(check_and_overlay(nic_with("name", ctl[i][0]), ctl[i][1]), 1);
		assert_int_equal(check_and_overlay(nic_with("vendor", ctl[i][0]), "'vendor': a control"), 1);
	}
	for (i = 0; i < sizeof(invisible) / sizeof(invisible[0]); i++) {
		assert_int_equal(check_and_overlay(nic_with("name", invisible[i][0]), invisible[i][1]),
				 1);
		assert_int_equal(check_and_overlay(nic_with("part", invisible[i][0]),
						   "the text would show other than its bytes"), 1);
	}
	assert_int_equal(check_and_overlay(nic_with("name", "Ñ — fine"), "-"), 0);
	/* text beside the refused code points: hair space, U+2070, U+FEFE, an emoji */
	assert_int_equal(check_and_overlay(nic_with("name", "a\xe2\x80\x8a" "b\xe2\x81\xb0"
						     "c\xef\xbb\xbe" "d\xf0\x9f\x98\x80"), "-"), 0);
	e = json_object();
	json_object_set_new(e, "id", json_string("mcx556a-ecat"));
	arr = json_array();
	json_array_append_new(arr, json_string("ok"));
	json_array_append_new(arr, json_string("two\nlines"));
	json_object_set_new(e, "notes", arr);
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("nics", arr), "'notes': a control character"), 1);
	e = embedded_entry("switches.json", "switches", NULL);
	json_object_set_new(e, "id", json_string("-2+3"));
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("switches", arr), "beginning with a letter"), 1);
	/* a scheduled leaf names a cell switch that exists; only a leaf names one */
	e = embedded_entry("broadcom-switches.json", "switches", "fabric_switch");
	json_object_set_new(e, "fabric_switch", json_string("no-such-fabric"));
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("switches", arr), "is not a switch of the catalog"), 1);
	e = embedded_entry("broadcom-switches.json", "switches", "fabric_switch");
	json_object_del(e, "scheduled");
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("switches", arr), "only a scheduled leaf"), 1);
	e = embedded_entry("broadcom-switches.json", "switches", "fabric_switch");
	json_object_set_new(e, "id", json_string("my-scheduled-leaf"));
	json_object_del(e, "uplink_ports");
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("switches", arr), "gives its fabric ports"), 1);
	/* "chassis" is a boolean */
	e = embedded_entry("broadcom-switches.json", "switches", "chassis");
	json_object_set_new(e, "id", json_string("my-chassis"));
	json_object_set_new(e, "chassis", json_string("yes"));
	arr = json_array();
	json_array_append_new(arr, e);
	assert_int_equal(check_and_overlay(doc_of("switches", arr), "must be true or false"), 1);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cat, &err), 0);
	assert_int_equal(nicfit_catalog_check(cat, "nul.json", nul, strlen(nul), &err, 1, &total), 1);
	assert_string_equal(err.msg, "a NUL character (\\u0000) in a string near '\"a\\u0000b\"'");
	assert_int_equal(err.line, 1);
	nicfit_catalog_free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(embedded_files_validate),
		cmocka_unit_test(prices_only_where_sourced),
		cmocka_unit_test(thirty_servers_and_gpus_sourced),
		cmocka_unit_test(probed_esc8000_g4_single_root),
		cmocka_unit_test(article_parts_present),
		cmocka_unit_test(overlay_merges_and_refuses),
		cmocka_unit_test(cables_between_cages),
		cmocka_unit_test(check_agrees_with_overlay),
		cmocka_unit_test(check_refuses_bad_cascades),
		cmocka_unit_test(check_strings_and_dates),
	};

	return cmocka_run_group_tests_name("catalog", tests, NULL, NULL);
}
