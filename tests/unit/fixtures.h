/*
 * fixtures.h - where the generated sysfs fixture trees are, for the unit
 * tests that read them ($BUILD/fixtures, built by `make fixtures`).
 */
#ifndef NICFIT_TEST_FIXTURES_H
#define NICFIT_TEST_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>

static const char *const fixture_names[] = {
	"el7-v100", "epyc-gen4", "hgx-h100", "kvm-vm", "nonuma-file", "r630-gather",
	"r740-interleave", "r740xd", "r910-qdr", "rhel5-dl385", "sr665-copy", "wrx80-t2l",
	"x11-200g", "xenial-k44", NULL
};

/* The root of fixture name in buf. */
static inline const char *fixture(const char *name, char *buf, size_t n)
{
	const char *b = getenv("BUILD");

	snprintf(buf, n, "%s/fixtures/%s", b && *b ? b : "build", name);
	return buf;
}

#endif
