/*
 * verify_expect.c - the expectation of `verify --nic PART` (see
 * nicfit/verify.h, nicfit_verify_expect_from_nic): the link a catalog
 * card's fastest port gives.
 *
 * The expectations from a host (its audit) and from a plan need engines
 * that come after verify/ in the layering; they live beside those engines
 * (audit_verify_expect.c, plan_expect.c), and this file holds only what
 * the catalog alone answers.
 */
#include <stdio.h>

#include "nicfit/calc.h"
#include "nicfit/link.h"
#include "nicfit/perf.h"
#include "nicfit/units.h"
#include "nicfit/verify.h"

/*
 * The card's fastest port; its InfiniBand rate (HDR, NDR) when it has one
 * and the protocol asked for is not Ethernet's, since the rate names the
 * lanes' signalling and so the data rate.
 */
int nicfit_verify_expect_from_nic(const struct nicfit_catalog *cat, const char *part,
				  struct nicfit_verify_expect *x, struct nicfit_error *err)
{
	struct nicfit_card card;
	char s[32];
	int rc;

	rc = nicfit_card_resolve(cat, part, &card, NULL, err);
	if (rc)
		return rc;
	if (card.ib_rate && x->proto != NICFIT_PROTO_TCP && x->proto != NICFIT_PROTO_ROCE)
		return nicfit_parse_speed(card.ib_rate, "--nic", &x->link, err);
	snprintf(s, sizeof(s), "%gGbE", card.port_gbps);
	return nicfit_parse_speed(s, "--nic", &x->link, err);
}
