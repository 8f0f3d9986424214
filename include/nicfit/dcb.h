/*
 * nicfit/dcb.h - the priority flow control (PFC) settings of a network
 * interface, from the kernel's DCB netlink interface: what `dcb pfc show
 * dev IF` (iproute2) and `mlnx_qos -i IF` show. RoCE needs PFC on its
 * priority, or a lossy fabric with ECN, to survive congestion
 * (docs/reference/anchors.md 5.7).
 *
 * This is the one read that is not in sysfs, so it happens only on the
 * live host (reading needs no root: only setting does). Snapshots keep the
 * answer in a small file, nicfit-dcb/IFNAME, so that a snapshot audits like
 * the host; nicfit_dcb_format() and nicfit_dcb_parse_file() write and read it.
 *
 * Nothing here allocates: results go into a struct nicfit_pfc or a text
 * buffer the caller provides, and hold no pointers.
 */
#ifndef NICFIT_DCB_H
#define NICFIT_DCB_H

#include <stddef.h>

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_pfc_state {
	NICFIT_PFC_UNKNOWN,      /* not asked, or the kernel could not be asked */
	NICFIT_PFC_READ,         /* pfc_cap and pfc_en hold the device's setting */
	NICFIT_PFC_UNSUPPORTED   /* the driver has no DCB (or no IEEE PFC) */
};

struct nicfit_pfc {
	enum nicfit_pfc_state state;
	unsigned pfc_cap;        /* traffic classes that can do PFC */
	unsigned pfc_en;         /* bit n: PFC on priority n */
};

/*
 * Ask the kernel for ifname's IEEE 802.1Qaz PFC settings. Returns 0 with
 * out->state READ or UNSUPPORTED; NICFIT_E_IO when netlink itself fails
 * (out->state UNKNOWN).
 */
int nicfit_dcb_pfc(const char *ifname, struct nicfit_pfc *out, struct nicfit_error *err);

/*
 * Parse one DCB_CMD_IEEE_GET reply (netlink message bytes, as received).
 * Returns 0 with out filled, or -1 when the bytes are not such a reply.
 */
int nicfit_dcb_parse_reply(const void *msg, size_t len, struct nicfit_pfc *out);

/* The snapshot file's text for p ("pfc_cap=8 pfc_en=0x08\n" or "unsupported\n"). */
int nicfit_dcb_format(const struct nicfit_pfc *p, char *out, size_t cap);
/* Read that text back; 0, or -1 when it is not in that form. */
int nicfit_dcb_parse_file(const char *text, struct nicfit_pfc *out);

#ifdef __cplusplus
}
#endif

#endif
