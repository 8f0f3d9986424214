/*
 * dynlib.c - optional shared libraries loaded on first use (see
 * nicfit/dynlib.h).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "nicfit/dynlib.h"
#include "nicfit_sonames.h"

/*
 * The libraries the library opens (dynlib_jansson.c, dynlib_scols.c,
 * dynlib_xml.c, dynlib_archive.c), declared for packaging: required where
 * most commands need them, recommended where one command does. The web
 * server's libmicrohttpd is declared by the CLI (cmd_serve.c).
 */
NICFIT_DLOPEN_NOTE(note_jansson, "[{\"feature\":\"json\",\"description\":\"catalog, "
		   "specs and JSON input\",\"priority\":\"required\",\"soname\":[\""
		   NICFIT_SONAME_JANSSON "\"]}]");
NICFIT_DLOPEN_NOTE(note_scols, "[{\"feature\":\"tables\",\"description\":\"text tables\","
		   "\"priority\":\"required\",\"soname\":[\"" NICFIT_SONAME_SMARTCOLS "\"]}]");
NICFIT_DLOPEN_NOTE(note_xml, "[{\"feature\":\"xml\",\"description\":\"XML dumps and "
		   "topology files\",\"priority\":\"required\",\"soname\":[\""
		   NICFIT_SONAME_XML2 "\"]}]");
NICFIT_DLOPEN_NOTE(note_archive, "[{\"feature\":\"archive\",\"description\":\"snapshot "
		   "archives (.tar.gz, .tar.xz)\",\"priority\":\"recommended\",\"soname\":[\""
		   NICFIT_SONAME_ARCHIVE "\"]}]");

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void load(struct nicfit_dynlib *lib)
{
	void *h = NULL;
	size_t i;

	for (i = 0; lib->sonames[i] && !h; i++)
		h = dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(lib->why, sizeof(lib->why), "%s is not installed: %s cannot be opened "
			 "(install the package %s)", lib->what, lib->sonames[0], lib->package);
		lib->state = -1;
		return;
	}
	for (i = 0; i < lib->nsyms; i++) {
		/* POSIX: a function pointer round-trips through void * here */
		*lib->syms[i].slot = dlsym(h, lib->syms[i].name);
		if (!*lib->syms[i].slot) {
			snprintf(lib->why, sizeof(lib->why), "%s lacks %s (too old? package %s)",
				 lib->what, lib->syms[i].name, lib->package);
			lib->state = -1;
			return;
		}
	}
	lib->state = 1;
}

int nicfit_dynlib_load(struct nicfit_dynlib *lib, struct nicfit_error *err)
{
	pthread_mutex_lock(&lock);
	if (lib->state == 0)
		load(lib);
	pthread_mutex_unlock(&lock);
	if (lib->state > 0)
		return 0;
	return nicfit_error_set(err, NICFIT_E_IO, "%s", lib->why);
}
