/*
 * coding.c - the module-coding rule (core/coding_int.h): how well a cable
 * or optic coded for one vendor suits one end of a link. plan weighs it at
 * a NIC end, cluster at each switch end; both choose the cable, this file
 * only scores a coding.
 *
 * A module's EEPROM names the vendor it is coded for. Some ports check it:
 * an Intel 700-series port's firmware leaves the port down on a module not
 * qualified by Intel, and i40e has no override (docs/reference/
 * nic-identity.md 2.3). Switch vendors qualify their own modules, and
 * NVIDIA codes its LinkX modules for its own switches and NICs (LinkX
 * "Connectors and Cages",
 * https://docs.nvidia.com/networking/display/cableovpub/connectors+and+cages).
 * A generic module is coded for any vendor.
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "core/coding_int.h"

/*
 * The rule, lower better:
 *   an Intel 700-series end: Intel's coding; then a mixed cable whose
 *     Intel end goes there ("intel/nvidia"); any other is refused;
 *   an end of a known vendor: its own coding; then generic; then another
 *     vendor's; NVIDIA's coding at another vendor's port last (also a
 *     mixed "intel/nvidia" cable: which end meets the port is not known
 *     here), and at NVIDIA's port anything not NVIDIA's;
 *   an end of no known vendor: generic or NVIDIA's (NVIDIA ConnectX ports
 *     check no coding); then Intel's, which is for Intel ports.
 */
int nicfit__coding_score(const char *have, const char *want)
{
	if (!have)
		have = "generic";
	if (!want)
		return !strcasecmp(have, "generic") || !strcasecmp(have, "nvidia") ?
		       NICFIT_CODING_OWN : NICFIT_CODING_GENERIC;
	if (!strcasecmp(want, "intel"))
		return !strcasecmp(have, "intel") ? NICFIT_CODING_OWN :
		       !strcasecmp(have, "intel/nvidia") ? NICFIT_CODING_GENERIC :
							  NICFIT_CODING_REFUSED;
	if (!strcasecmp(have, want))
		return NICFIT_CODING_OWN;
	if (!strcasecmp(have, "generic"))
		return NICFIT_CODING_GENERIC;
	if (!strcasecmp(want, "nvidia") || strstr(have, "nvidia") || strstr(have, "NVIDIA"))
		return NICFIT_CODING_NVIDIA;
	return NICFIT_CODING_OTHER;
}
