/*
 * mhd.c - libmicrohttpd, opened when `serve` starts (see nicfit/dynlib.h)
 * so that the other commands neither link nor load it. Its functions are
 * looked up into one table, struct serve_mhd, and the server's files call
 * them under their own names through the macros in serve_int.h. Nothing
 * here knows HTTP; it only finds the library.
 */
#include "serve_int.h"
#include "nicfit/dynlib.h"
#include "nicfit_sonames.h"

struct serve_mhd serve_mhd;

static const struct nicfit_dynsym mhd_syms[] = {
	{ "MHD_add_response_header", (void **)&serve_mhd.add_response_header },
	{ "MHD_create_response_from_buffer", (void **)&serve_mhd.create_response_from_buffer },
	{ "MHD_destroy_response", (void **)&serve_mhd.destroy_response },
	{ "MHD_get_connection_info", (void **)&serve_mhd.get_connection_info },
	{ "MHD_get_connection_values", (void **)&serve_mhd.get_connection_values },
	{ "MHD_get_daemon_info", (void **)&serve_mhd.get_daemon_info },
	{ "MHD_lookup_connection_value", (void **)&serve_mhd.lookup_connection_value },
	{ "MHD_queue_response", (void **)&serve_mhd.queue_response },
	{ "MHD_quiesce_daemon", (void **)&serve_mhd.quiesce_daemon },
	{ "MHD_start_daemon", (void **)&serve_mhd.start_daemon },
	{ "MHD_stop_daemon", (void **)&serve_mhd.stop_daemon }
};

static const char *const mhd_sonames[] = { NICFIT_SONAME_MHD, NULL };

static struct nicfit_dynlib mhd_lib = {
	"libmicrohttpd", mhd_sonames, NICFIT_PACKAGE_MHD, mhd_syms,
	sizeof(mhd_syms) / sizeof(mhd_syms[0]), 0, ""
};

int serve_mhd_load(struct nicfit_error *err)
{
	return nicfit_dynlib_load(&mhd_lib, err);
}
