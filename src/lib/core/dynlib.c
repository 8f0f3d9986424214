/*
 * dynlib.c - optional shared libraries loaded on first use (see
 * nicfit/dynlib.h).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "nicfit/dynlib.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void load(struct nicfit_dynlib *lib)
{
	void *h = NULL;
	size_t i;

	for (i = 0; lib->sonames[i] && !h; i++)
		h = dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(lib->why, sizeof(lib->why), "%s is not installed (%s; package %s)",
			 lib->what, lib->sonames[0], lib->package);
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
