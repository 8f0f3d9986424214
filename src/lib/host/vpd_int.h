/*
 * vpd_int.h - PCI Vital Product Data, as in /sys/bus/pci/devices/X/vpd.
 *
 * VPD is a list of resource tags (PCI 2.2 / PCIe base spec, the format
 * lspci -vv decodes): a large tag 0x82 with the product name, 0x90 with
 * read-only keywords (PN part number, EC engineering change, SN serial,
 * V0..VZ vendor fields, RV checksum), 0x91 with read/write keywords, and
 * the small end tag 0x78. The RV checksum is good when the 8-bit sum of
 * every byte from offset 0 through RV's first data byte is zero.
 *
 * Network cards put their ordering part number in PN (ConnectX:
 * "MCX556A-ECAT"), which names the exact card where the PCI IDs name
 * only the chip. Real images are often padded with spaces, and some are
 * junk (all 0xff, or a vendor's "Example VPD" placeholder), so the parser
 * is strict about structure and bounded in everything it keeps.
 *
 * The parser allocates nothing: it fills a struct nicfit_vpd the caller
 * provides (about 14 KiB, so not on a small stack), whose strings are
 * arrays inside it, and nicfit__vpd_get()'s result points into it.
 */
#ifndef NICFIT_VPD_INT_H
#define NICFIT_VPD_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "vpd_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>

#include "nicfit/error.h"

#define NICFIT_VPD_MAX_KEYWORDS 48

enum nicfit_vpd_checksum {
	NICFIT_VPD_CSUM_NONE, /* no RV keyword */
	NICFIT_VPD_CSUM_GOOD,
	NICFIT_VPD_CSUM_BAD
};

struct nicfit_vpd_keyword {
	char key[3];      /* "PN" */
	int rw;           /* from the read/write section */
	size_t len;       /* data bytes as stored */
	char value[256];  /* printable text, trailing blanks removed; "" for binary */
	int binary;       /* the data held bytes that are not printable ASCII */
};

struct nicfit_vpd {
	char name[256];   /* identifier string (0x82), trimmed; "" when absent */
	struct nicfit_vpd_keyword kw[NICFIT_VPD_MAX_KEYWORDS];
	int nkw;
	int dropped;      /* keywords beyond NICFIT_VPD_MAX_KEYWORDS */
	enum nicfit_vpd_checksum checksum;
	int rv_reserved;  /* RV length - 1 */
	int end;          /* the end tag was found */
	size_t size;      /* bytes up to and including the end tag */
};

/*
 * Parse len bytes. Returns 0 when the image is well formed up to its end
 * tag; else NICFIT_E_DATA with "VPD offset N: why" in err, and v holds
 * what was decoded before the problem.
 */
int nicfit__vpd_parse(const uint8_t *p, size_t len, struct nicfit_vpd *v,
		     struct nicfit_error *err);

/* The value of keyword key ("PN"), or NULL when absent or binary. */
const char *nicfit__vpd_get(const struct nicfit_vpd *v, const char *key);

#endif
