/*
 * test_catalog.c - the embedded catalog is valid, complete where the
 * article needs it, and honest about prices; overlays merge and refuse.
 */
#include "unit.h"

#include "embedded_int.h"
#include "nicfit/catalog.h"

static void embedded_files_validate(void **state)
{
	struct nicfit_catalog *cat;
	struct nicfit_error errs[16], err;
	const struct nicfit_blob *b;
	size_t n, total, i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new_empty(&cat, &err), 0);
	for (b = nicfit_catalog_blobs; b->name; b++) {
		n = nicfit_catalog_check(NULL, b->name, b->data, b->len, errs, 16, &total);
		for (i = 0; i < n && i < 16; i++)
			print_error("%s:%ld:%ld: %s\n", errs[i].input, errs[i].line, errs[i].col,
				    errs[i].msg);
		assert_int_equal(n, 0);
		assert_true(total > 0);
		assert_int_equal(nicfit_catalog_overlay(cat, b->name, b->data, b->len, &err), 0);
	}
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
	/* an unknown id suggests the nearest */
	nicfit_error_clear(&err);
	assert_null(nicfit_catalog_find_server(cat, "r740xdd", "--server", &err));
	assert_int_equal(err.code, NICFIT_E_NOTFOUND);
	assert_non_null(strstr(err.msg, "r740xd"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(embedded_files_validate),
		cmocka_unit_test(prices_only_where_sourced),
		cmocka_unit_test(article_parts_present),
		cmocka_unit_test(overlay_merges_and_refuses),
	};

	return cmocka_run_group_tests_name("catalog", tests, NULL, NULL);
}
