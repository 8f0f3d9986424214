/*
 * test_plan_ocp.c - R6's front end in the OCP slot: when the GPUs take
 * every PCIe slot R3's front-end card fits, a server with a free OCP NIC
 * 3.0 slot gets the catalog's front-end OCP card there (its card, port,
 * cables and bill of materials), and only then: a PCIe slot left free, a
 * card asked for, or a slot pinned keep the plan as it was.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_pcie_moves_to_ocp),
		cmocka_unit_test(free_pcie_slot_keeps_card),
		cmocka_unit_test(asked_card_stays),
		cmocka_unit_test(pinned_slot_stays),
	};

	return cmocka_run_group_tests_name("plan_ocp", tests, catalog_setup, catalog_teardown);
}
