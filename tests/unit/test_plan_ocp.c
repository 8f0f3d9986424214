/*
 * test_plan_ocp.c - R6's front end in the OCP slot: when the GPUs take
 * every PCIe slot R3's front-end card fits, a server with a free OCP NIC
 * 3.0 slot gets the catalog's front-end OCP card there (its card, port,
 * cables and bill of materials), and only then: a PCIe slot left free, a
 * card asked for, or a slot pinned keep the plan as it was. R3's storage
 * and in-band cards likewise go to the OCP slot (an RoCE OCP NIC 3.0
 * card) when the GPUs and back-end cards leave no PCIe slot, and to PCIe
 * slots while those last; the cards are one part, so never both forms.
 */
#include "unit.h"

#include "nicfit/catalog.h"
#include "nicfit/plan.h"

#include "plan_fixture.h"
#include "plan/plan_int.h"

static void done(struct nicfit_plan *p)
{
	nicfit_plan_release(p);
	free(p);
}

static int has_finding(const struct nicfit_plan *p, const char *code)
{
	size_t i;

	for (i = 0; i < p->findings.n; i++)
		if (p->findings.v[i].code && !strcmp(p->findings.v[i].code, code))
			return 1;
	return 0;
}

/* The text of the first decision of rule whose text has words, or NULL. */
static const char *decision(const struct nicfit_plan *p, const char *rule, const char *words)
{
	size_t i;

	for (i = 0; i < p->decisions.n; i++)
		if (!strcmp(p->decisions.v[i].code, rule) && strstr(p->decisions.v[i].message, words))
			return p->decisions.v[i].message;
	return NULL;
}

static int bom_has(const struct nicfit_plan *p, const char *id, const char *role)
{
	size_t i;

	for (i = 0; i < p->nbom; i++)
		if (!strcmp(p->bom[i].id, id) && !strcmp(p->bom[i].role, role))
			return 1;
	return 0;
}

/* An R650 with three A2: no PCIe slot left, so the front end is the OCP card in the OCP slot. */
static void full_pcie_moves_to_ocp(void **state)
{
	static const char *const kv[] = { "server", "r650", "gpu", "a2", "gpus_per_server", "3",
					   NULL };
	struct nicfit_plan *p = plan_of(kv);
	const struct nicfit_server *sv = p->in.server;

	(void)state;
	assert_non_null(p->fe_ocp);
	assert_ptr_equal(p->fe_nic, p->fe_ocp);
	assert_string_equal(p->fe_ocp->form_factor, "ocp3");
	assert_true(p->fe_ocp->roles & NICFIT_ROLE_FRONTEND);
	assert_true(p->fe_slot >= 0);
	assert_string_equal(sv->slots[p->fe_slot].name, "OCP");
	assert_string_equal(sv->slots[p->fe_slot].kind, "ocp3");
	assert_false(has_finding(p, "frontend-no-slot"));
	assert_true(p->fe_port_gbps == p->fe_ocp->port_gbps);
	assert_true(bom_has(p, p->fe_ocp->e.id, "frontend"));
	assert_false(bom_has(p, "x710-da2", "frontend"));
	assert_non_null(decision(p, "R3", "OCP NIC 3.0 card per server in its OCP slot"));
	/* R6 names the OCP slot's own lanes, generation and socket */
	assert_non_null(decision(p, "R6", "in slot OCP: PCIe Gen4 x16, socket 0"));
	assert_int_equal(nicfit_findings_worst(&p->findings) == NICFIT_SEV_CRITICAL, 0);
	done(p);
}

/* Two A2 leave a PCIe slot: R3's card stays there and the OCP slot stays empty. */
static void free_pcie_slot_keeps_card(void **state)
{
	static const char *const kv[] = { "server", "r650", "gpu", "a2", "gpus_per_server", "2",
					   NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_null(p->fe_ocp);
	assert_true(p->fe_slot >= 0);
	assert_string_not_equal(p->in.server->slots[p->fe_slot].name, "OCP");
	assert_non_null(p->fe_nic->form_factor);
	assert_int_not_equal(strncmp(p->fe_nic->form_factor, "ocp", 3), 0);
	done(p);
}

/* A card asked for is never swapped: it has no slot, and the plan says so. */
static void asked_card_stays(void **state)
{
	static const char *const kv[] = { "server", "r650", "gpu", "a2", "gpus_per_server", "3",
					   "frontend_nic", "x710-da2", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_null(p->fe_ocp);
	assert_int_equal(p->fe_slot, -1);
	assert_true(has_finding(p, "frontend-no-slot"));
	done(p);
}

/* A slot pinned for the front end is the user's call too. */
static void pinned_slot_stays(void **state)
{
	static const char *const kv[] = { "server", "r650", "gpu", "a2", "gpus_per_server", "3",
					   "frontend_slot", "1", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_null(p->fe_ocp);
	assert_true(has_finding(p, "frontend-no-slot"));
	done(p);
}

/* The name of the slot storage and in-band card k sits in. */
static const char *storage_slot(const struct nicfit_plan *p, int k)
{
	assert_true(k < p->st_cards);
	assert_true(p->st_slots[k] >= 0);
	return p->in.server->slots[p->st_slots[k]].name;
}

/*
 * Two R750xa training with two back-end cards: the GPUs take the four front
 * slots and the back end both rear slots, so the storage and in-band card
 * is an RoCE OCP NIC 3.0 card in the OCP slot, said so by R3.
 */
static void storage_moves_to_ocp(void **state)
{
	static const char *const kv[] = { "server", "r750xa", "gpu", "a100-pcie-80gb",
					   "gpus_per_server", "4", "servers", "2", "workload",
					   "training", "backend_cards", "2", "storage_nics", "1", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->st_cards, 1);
	assert_non_null(p->st_nic);
	assert_string_equal(p->st_nic->form_factor, "ocp3");
	assert_true(p->st_nic->rdma & NICFIT_RDMA_ROCE);
	assert_string_equal(storage_slot(p, 0), "OCP");
	assert_false(has_finding(p, "storage-no-slot"));
	assert_non_null(decision(p, "R3", "in slot OCP, an OCP NIC 3.0 card in the OCP slot, as "
				 "the GPUs and back-end cards leave no PCIe slot free"));
	assert_true(bom_has(p, p->st_nic->e.id, "storage"));
	/* NVIDIA's 200G north-south target: the faster OCP card, not a 25G one */
	assert_true(p->st_nic->port_gbps >= 100);
	done(p);
}

/* One back-end card leaves rear slot 2: the storage card is a PCIe card there. */
static void storage_keeps_pcie_slot(void **state)
{
	static const char *const kv[] = { "server", "r750xa", "gpu", "a100-pcie-80gb",
					   "gpus_per_server", "4", "servers", "2", "workload",
					   "training", "storage_nics", "1", NULL };
	struct nicfit_plan *p = plan_of(kv);

	(void)state;
	assert_int_equal(p->st_cards, 1);
	assert_string_equal(storage_slot(p, 0), "2");
	assert_int_not_equal(strncmp(p->st_nic->form_factor, "ocp", 3), 0);
	assert_non_null(decision(p, "R3", "in slot 2, free slot the GPUs and back-end cards leave"));
	done(p);
}

/*
 * Two storage cards asked with one rear slot and the OCP slot free: one
 * card of one part in the PCIe slot, and a warning naming the OCP slot left
 * out (a PCIe and an OCP card cannot be one part), never "no card fits".
 */
static void storage_never_mixes_forms(void **state)
{
	static const char *const kv[] = { "server", "r750xa", "gpu", "a100-pcie-80gb",
					   "gpus_per_server", "4", "servers", "2", "workload",
					   "training", "storage_nics", "2", NULL };
	struct nicfit_plan *p = plan_of(kv);
	size_t i;
	int seen = 0;

	(void)state;
	assert_int_equal(p->st_cards, 1);
	assert_non_null(p->st_nic);
	assert_string_equal(storage_slot(p, 0), "2");
	for (i = 0; i < p->findings.n; i++)
		if (p->findings.v[i].code && !strcmp(p->findings.v[i].code, "storage-no-slot")) {
			seen = 1;
			assert_non_null(strstr(p->findings.v[i].message, "free slots for 1 (and 1 "
					       "free OCP slot"));
			assert_null(strstr(p->findings.v[i].message, "no RoCE card"));
		}
	assert_true(seen);
	done(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_pcie_moves_to_ocp),
		cmocka_unit_test(free_pcie_slot_keeps_card),
		cmocka_unit_test(asked_card_stays),
		cmocka_unit_test(pinned_slot_stays),
		cmocka_unit_test(storage_moves_to_ocp),
		cmocka_unit_test(storage_keeps_pcie_slot),
		cmocka_unit_test(storage_never_mixes_forms),
	};

	return cmocka_run_group_tests_name("plan_ocp", tests, catalog_setup, catalog_teardown);
}
