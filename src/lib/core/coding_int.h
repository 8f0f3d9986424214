/*
 * coding_int.h - how well a module's coding suits one end of a link: the
 * one rule by which plan weighs a cable at a NIC end and cluster weighs a
 * cable or optic at a switch end. Defined by parts/coding.c. A
 * library-wide header, in core/. Internal to libnicfit.
 */
#ifndef NICFIT_CODING_INT_H
#define NICFIT_CODING_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "coding_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

/*
 * Scores of a coding at one end, lower better. They are summed over the
 * switch ends of a cable, so the steps are weights: two ends that each take
 * a generic module (1 + 1) rank above one end that takes an NVIDIA-coded
 * module at another vendor's switch (3).
 */
#define NICFIT_CODING_OWN 0        /* coded for this end */
#define NICFIT_CODING_GENERIC 1    /* coded for any vendor; or one end of a mixed cable fits */
#define NICFIT_CODING_OTHER 2      /* coded for another vendor */
/* coded for NVIDIA at another vendor's port; at NVIDIA's port, any but NVIDIA's */
#define NICFIT_CODING_NVIDIA 3
#define NICFIT_CODING_REFUSED 5    /* a port that checks coding refuses it */

/*
 * nicfit__coding_score - how well a module coded `have` suits one end that
 * asks `want`, from NICFIT_CODING_OWN (best) to NICFIT_CODING_REFUSED.
 *
 * have is the catalog cable's "coding" ("generic", "nvidia", "intel",
 * "intel/nvidia": Intel at end a, NVIDIA at end b); NULL is generic.
 * want is what the end asks:
 *   "intel"  an Intel 700-series port, whose firmware refuses any module
 *            not coded for Intel (the NIC's "module_coding");
 *   a vendor ("nvidia", "arista", "dell", ...) whose own coding it
 *            prefers (a switch's vendor);
 *   NULL     an end of no known vendor, which checks no coding.
 * Case is ignored. Pure; no allocation.
 */
int nicfit__coding_score(const char *have, const char *want);

#endif
