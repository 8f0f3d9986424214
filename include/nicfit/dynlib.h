/*
 * nicfit/dynlib.h - optional shared libraries, loaded on first use.
 *
 * Most of nicfit's dependencies serve a few commands each: libarchive
 * (snapshot archives), libmicrohttpd (the web server), libxml2 (hwloc and
 * NCCL XML), libsmartcols (text tables) and jansson (catalog overlays and
 * JSON the library does not read itself). Linked normally they cost every
 * run of every command their loading and initialisation (libarchive and
 * libmicrohttpd alone about 3.5 ms, five times the rest of a `calc`). So
 * they are opened with dlopen() when first needed, their functions
 * resolved into a table, and a missing library becomes a clear error
 * instead of a failed start.
 *
 * The caller owns the struct nicfit_dynlib (a static, one per library)
 * and the table its slots point into; loading fills them, and the
 * outcome is kept in the struct for every later call. A loaded library
 * is never closed: its functions stay valid until the process exits.
 *
 * Which library: its soname is found when nicfit is built (the -dev
 * package's linker name, read by scripts/sonames.sh into
 * NICFIT_SONAME_* and NICFIT_PACKAGE_*), so a build where libxml2-dev is
 * libxml2 2.14 (after Debian 13) opens libxml2.so.16 and names libxml2-16
 * where Debian 12's and 13's open libxml2.so.2.
 * Each library opened is also declared in the binary with
 * NICFIT_DLOPEN_NOTE: the ELF note of systemd's "dlopen() Metadata for ELF
 * Files" (https://systemd.io/ELF_DLOPEN_METADATA/), from which packaging
 * derives the dependencies (debian/rules, scripts/dlopen-deps.sh; Debian's
 * dh_dlopenlibdeps reads the same notes) and tests compare what the
 * binary opens with what its package depends on.
 */
#ifndef NICFIT_DYNLIB_H
#define NICFIT_DYNLIB_H

#include <stddef.h>
#include <stdint.h>

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_dynsym {
	const char *name;  /* symbol to resolve */
	void **slot;       /* where its address goes */
};

struct nicfit_dynlib {
	const char *what;               /* "libarchive", for messages */
	const char *const *sonames;     /* names tried in order, NULL-terminated */
	const char *package;            /* Debian package that provides it */
	const struct nicfit_dynsym *syms;
	size_t nsyms;
	int state;                      /* 0 not tried, 1 loaded, -1 failed */
	char why[256];                  /* the failure, for every later caller */
};

/*
 * A .note.dlopen ELF note (owner "FDO", type 0x407c0c0a) holding json, a
 * JSON array of {"feature", "description", "priority" (required,
 * recommended or suggested), "soname": [...]}: one static object, kept by
 * the linker in the binary's .note.dlopen section.
 */
#define NICFIT_DLOPEN_NOTE(var, json)                                                   \
	__attribute__((used, section(".note.dlopen"), aligned(4))) static const struct { \
		uint32_t n_namesz, n_descsz, n_type;                                      \
		char name[4];                                                             \
		char desc[sizeof(json)];                                                  \
	} var = { 4, sizeof(json), UINT32_C(0x407c0c0a), "FDO", json }

/*
 * Load lib once, under a lock (later calls, from any thread, return the
 * first outcome). Returns 0, or NICFIT_E_IO with a message naming the
 * library, the package and what was missing.
 */
int nicfit_dynlib_load(struct nicfit_dynlib *lib, struct nicfit_error *err);

#ifdef __cplusplus
}
#endif

#endif
