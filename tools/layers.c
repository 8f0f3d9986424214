/*
 * layers.c - check the library's layering (a test tool; tests/suites/layers.sh).
 *
 *   layers ROOT BUILD ALLOW
 *
 * src/lib is cut into folders by layer, in this order: core, out, physics,
 * parts, host, dump, calc, cluster, verify, plan, audit, fleet, accept. A file may
 * include and call only its own folder and those before it; everything
 * else here follows from that rule or keeps it greppable. The tool reads
 * the sources under ROOT (their #include lines and column-0 braces) and
 * the symbols of their objects under BUILD (one run of nm over them, so an
 * object left behind by a deleted source is never looked at), and prints
 * one TAP line per rule:
 *
 *  1. no call or data reference to a symbol defined in a later folder;
 *  2. no include of another folder's header (X/foo_int.h, X/foo.h), but
 *     core's, which are library-wide (as hwloc's include/private/: they
 *     declare what several folders share, wherever it is defined); every
 *     private include names its folder; no include of a later folder's
 *     header;
 *  3. no include of a public header (include/nicfit/) whose module lives
 *     in a later folder (the table public[] below gives each a folder),
 *     public headers among themselves included; core's headers, being
 *     library-wide, may name any module's types (calls are still checked
 *     on the objects, rule 1);
 *  4. no call cycle between files (a strongly connected component of the
 *     file call graph with two files or more) but those in ALLOW;
 *  5. no .c file over MAX_FILE lines, no function body over MAX_FUNC
 *     lines (from its column-0 '{' to its column-0 '}'), but those in ALLOW;
 *  6. src/cli and src/serve include only public headers, their own, and
 *     the library headers ALLOW sanctions;
 *  7. src/lib's root holds no source, every folder is a layer, and every
 *     private header (*_int.h) starts with the NICFIT_BUILDING_LIBRARY
 *     #error guard, closed on the line after its #error.
 *
 * *_codes.def includes are allowed anywhere: the finding-code registries,
 * which core/finding.c gathers from every engine.
 *
 * ALLOW (tests/layers.allow) has one entry a line, "KIND ARGS -- REASON" ('#' starts a comment
 * line; the reason is required):
 *
 *	cycle FILE FILE...        a call cycle among these files (or among some of them)
 *	function FILE:NAME        a function body allowed over MAX_FUNC lines
 *	file FILE                 a .c file allowed over MAX_FILE lines
 *	header FILE               a library header src/cli and src/serve may include
 *	call FILE SYMBOL          a call up the folder order
 *	include FILE HEADER       an include rules 2 and 3 refuse ("*": from any file)
 *
 * FILE is relative to src/lib ("dump/dump.c"). An entry that no longer
 * matches anything is reported as a TAP comment, to be deleted.
 * Exit status: 0 when every rule holds, 1 when one does not, 2 on a
 * usage or read error.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE 1250
#define MAX_FUNC 100

static const char *const layer_name[] = {
	"core", "out", "physics", "parts", "host", "dump",
	"calc", "cluster", "verify", "plan", "audit", "fleet", "accept",
};
#define N_LAYERS ((int)(sizeof(layer_name) / sizeof(layer_name[0])))
#define LAYER_PROGRAM N_LAYERS /* src/cli and src/serve: after every folder */

/* The folder of each public header's module. */
static const struct {
	const char *header, *folder;
} public[] = {
	{ "accept.h", "accept" }, { "audit.h", "audit" },   { "buf.h", "core" },       { "budget.h", "core" }, { "calc.h", "calc" },
	{ "catalog.h", "parts" }, { "cluster.h", "cluster" }, { "compat.h", "parts" },
	{ "dcb.h", "host" },      { "dump.h", "dump" },       { "dynlib.h", "core" },
	{ "emit.h", "out" },      { "error.h", "core" },      { "file.h", "core" },
	{ "prom.h", "out" },
	{ "finding.h", "core" },  { "fleet.h", "fleet" },     { "link.h", "physics" },
	{ "kv.h", "physics" },    { "ckpt.h", "physics" },  { "serving.h", "physics" },    { "llm.h", "physics" },   { "param.h", "physics" },   { "partno.h", "parts" },
	{ "pcie.h", "physics" },  { "perf.h", "physics" },    { "plan.h", "plan" },
	{ "snapshot.h", "host" }, { "spec.h", "core" },       { "step.h", "physics" },
	{ "sysfs.h", "host" },    { "topo.h", "host" },       { "units.h", "core" },
	{ "verify.h", "verify" }, { "version.h", "core" },
	/* opening a host: a tree, an archive or dumps (dump/host_open.c) */
	{ "host.h", "dump" },
	/* the admins' line formats: the audit's (audit_prom.c...) and the fleet's */
	{ "ops.h", "audit" },
};
#define N_PUBLIC (sizeof(public) / sizeof(public[0]))

enum rule { R_CALL, R_PRIVATE, R_PUBLIC, R_CYCLE, R_LENGTH, R_CLIENT, R_TREE, N_RULES };

static const char *const rule_text[N_RULES] = {
	"no call up the folder order",
	"no include of another folder's private header or a later folder's header",
	"no include of a later folder's public header",
	"no call cycle between files but those allowed",
	"no file over 1250 lines, no function over 100 lines but those allowed",
	"src/cli and src/serve include public headers, their own and sanctioned ones",
	"src/lib's root holds no source, folders are layers, private headers are guarded",
};

struct problem {
	enum rule rule;
	char *text;
};

static struct problem *problems;
static size_t n_problems, cap_problems;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("layers: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

static void problem(enum rule r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(enum rule r, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n_problems == cap_problems) {
		cap_problems = cap_problems ? 2 * cap_problems : 64;
		problems = xrealloc(problems, cap_problems * sizeof(*problems));
	}
	problems[n_problems].rule = r;
	problems[n_problems++].text = xstrdup(line);
}

/* ---- the allowlist ------------------------------------------------------- */

enum allow_kind { A_CYCLE, A_FUNCTION, A_FILE, A_HEADER, A_CALL, A_INCLUDE };

struct allow {
	enum allow_kind kind;
	char **arg; /* cycle: its files; others: one */
	size_t n_arg;
	int line, used;
};

static struct allow *allows;
static size_t n_allows;
static const char *allow_path;

static void read_allow(const char *path)
{
	static const char *const kinds[] = { "cycle", "function", "file", "header", "call", "include" };
	const size_t n_kinds = sizeof(kinds) / sizeof(kinds[0]);
	FILE *f = fopen(path, "r");
	char buf[4096];
	int no = 0;

	allow_path = path;
	if (!f) {
		perror(path);
		exit(2);
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *reason = strstr(buf, " -- "), *w, *save = NULL;
		struct allow a = { 0 };
		size_t k;

		no++;
		w = buf + strspn(buf, " \t");
		if (*w == '#' || *w == '\n' || !*w)
			continue;
		if (!reason || !reason[strspn(reason + 4, " \t\n") + 4]) {
			fprintf(stderr, "%s:%d: an entry needs a reason after \" -- \"\n", path, no);
			exit(2);
		}
		*reason = '\0';
		w = strtok_r(buf, " \t\n", &save);
		for (k = 0; k < n_kinds && strcmp(w, kinds[k]); k++)
			;
		if (k == n_kinds) {
			fprintf(stderr, "%s:%d: unknown kind '%s'\n", path, no, w);
			exit(2);
		}
		a.kind = (enum allow_kind)k;
		a.line = no;
		while ((w = strtok_r(NULL, " \t\n", &save))) {
			a.arg = xrealloc(a.arg, (a.n_arg + 1) * sizeof(*a.arg));
			a.arg[a.n_arg++] = xstrdup(w);
		}
		if (a.kind == A_CYCLE ? a.n_arg < 2 :
		    a.n_arg != ((a.kind == A_CALL || a.kind == A_INCLUDE) ? 2u : 1u)) {
			fprintf(stderr, "%s:%d: wrong number of names for '%s'\n", path, no,
				kinds[k]);
			exit(2);
		}
		allows = xrealloc(allows, (n_allows + 1) * sizeof(*allows));
		allows[n_allows++] = a;
	}
	fclose(f);
}

/* The entry of this kind for name (and, for call and include, what; "*" is any file), or NULL. */
static struct allow *allowed2(enum allow_kind kind, const char *name, const char *what)
{
	size_t i;

	for (i = 0; i < n_allows; i++)
		if (allows[i].kind == kind &&
		    (!strcmp(allows[i].arg[0], name) || !strcmp(allows[i].arg[0], "*")) &&
		    (!what || !strcmp(allows[i].arg[1], what))) {
			allows[i].used = 1;
			return &allows[i];
		}
	return NULL;
}

static struct allow *allowed(enum allow_kind kind, const char *name)
{
	return allowed2(kind, name, NULL);
}

/* ---- the files ----------------------------------------------------------- */

struct file {
	char *path;  /* from ROOT: "src/lib/core/error.c" */
	char *name;  /* from src/lib: "core/error.c" (the same as path outside it) */
	int layer;   /* index into layer_name[], or LAYER_PROGRAM */
	int is_c;
	char **undef; /* the symbols its object uses and does not define */
	size_t n_undef;
};

static struct file *files;
static size_t n_files;
static const char *root, *build;

static int layer_of(const char *folder)
{
	int i;

	for (i = 0; i < N_LAYERS; i++)
		if (!strcmp(layer_name[i], folder))
			return i;
	return -1;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in ROOT/dir, sorted; NULL when dir cannot be read. */
static char **list_dir(const char *dir, size_t *n)
{
	char path[4096], **v = NULL;
	struct dirent *d;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/%s", root, dir);
	*n = 0;
	if (!(dp = opendir(path)))
		return NULL;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = xstrdup(d->d_name);
	}
	closedir(dp);
	qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static int is_dir(const char *rel)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

static void add_file(const char *dir, const char *base, const char *name, int layer)
{
	struct file f = { 0 };
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, base);
	f.path = xstrdup(path);
	f.name = xstrdup(name ? name : path);
	f.layer = layer;
	f.is_c = ends_with(base, ".c");
	files = xrealloc(files, (n_files + 1) * sizeof(*files));
	files[n_files++] = f;
}

/* The sources of src/lib (by folder), src/cli and src/serve; rule 7's tree checks. */
static void find_files(void)
{
	size_t n, i, j, m;
	char **top = list_dir("src/lib", &n), **sub;

	if (!top) {
		fprintf(stderr, "layers: cannot read %s/src/lib\n", root);
		exit(2);
	}
	for (i = 0; i < n; i++) {
		char dir[512], name[512];
		int layer = layer_of(top[i]);

		snprintf(dir, sizeof(dir), "src/lib/%s", top[i]);
		if (!is_dir(dir)) {
			if (ends_with(top[i], ".c") || ends_with(top[i], ".h") ||
			    ends_with(top[i], ".def"))
				problem(R_TREE, "%s: a source in src/lib's root (it goes in a layer's folder)",
					dir);
			continue;
		}
		if (layer < 0) {
			problem(R_TREE, "%s: not a layer folder (%s)", dir,
				"core out physics parts host dump calc cluster verify plan audit fleet "
				"accept");
			continue;
		}
		sub = list_dir(dir, &m);
		for (j = 0; j < m; j++) {
			if (!ends_with(sub[j], ".c") && !ends_with(sub[j], ".h"))
				continue;
			snprintf(name, sizeof(name), "%s/%s", top[i], sub[j]);
			add_file(dir, sub[j], name, layer);
		}
	}
	for (i = 0; i < 2; i++) {
		const char *dir = i ? "src/serve" : "src/cli";

		sub = list_dir(dir, &m);
		for (j = 0; j < m; j++)
			if (ends_with(sub[j], ".c") || ends_with(sub[j], ".h"))
				add_file(dir, sub[j], NULL, LAYER_PROGRAM);
	}
}

static struct file *file_named(const char *name)
{
	size_t i;

	for (i = 0; i < n_files; i++)
		if (!strcmp(files[i].name, name))
			return &files[i];
	return NULL;
}

/* ---- symbols: one nm over the library's objects -------------------------- */

#define SYM_BUCKETS 16384

struct sym {
	char *name;
	int file;
	struct sym *next;
};

static struct sym *sym_table[SYM_BUCKETS];

static unsigned hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % SYM_BUCKETS;
}

static struct sym *sym_find(const char *name)
{
	struct sym *s;

	for (s = sym_table[hash(name)]; s; s = s->next)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

static void sym_define(const char *name, int file)
{
	struct sym *s = xrealloc(NULL, sizeof(*s));
	unsigned h = hash(name);

	s->name = xstrdup(name);
	s->file = file;
	s->next = sym_table[h];
	sym_table[h] = s;
}

static int object_of(const struct file *f, char *out, size_t n)
{
	size_t len = strlen(f->path);

	return snprintf(out, n, "%s/%.*s.o", build, (int)(len - 2), f->path) < (int)n;
}

static void read_symbols(void)
{
	size_t cap = 64, len, i;
	char *cmd = xrealloc(NULL, cap), line[2048], obj[4096];
	FILE *p;

	len = (size_t)snprintf(cmd, cap, "nm -P -A");
	for (i = 0; i < n_files; i++) {
		if (!files[i].is_c || files[i].layer == LAYER_PROGRAM)
			continue;
		if (!object_of(&files[i], obj, sizeof(obj)) || strchr(obj, '\'')) {
			fprintf(stderr, "layers: an odd path: %s\n", obj);
			exit(2);
		}
		if (access(obj, R_OK)) {
			fprintf(stderr, "layers: %s: no object (build the library first)\n", obj);
			exit(2);
		}
		while (len + strlen(obj) + 4 >= cap)
			cmd = xrealloc(cmd, cap *= 2);
		len += (size_t)sprintf(cmd + len, " '%s'", obj);
	}
	if (!(p = popen(cmd, "r"))) {
		perror("nm");
		exit(2);
	}
	/* "OBJ: NAME TYPE [VALUE SIZE]" */
	while (fgets(line, sizeof(line), p)) {
		char *colon = strstr(line, ": "), *name, *type;
		struct file *f = NULL;

		if (!colon)
			continue;
		*colon = '\0';
		name = strtok(colon + 2, " \n");
		type = strtok(NULL, " \n");
		if (!name || !type)
			continue;
		for (i = 0; i < n_files; i++)
			if (files[i].is_c && object_of(&files[i], obj, sizeof(obj)) &&
			    !strcmp(obj, line)) {
				f = &files[i];
				break;
			}
		if (!f)
			continue;
		if (*type == 'U') {
			f->undef = xrealloc(f->undef, (f->n_undef + 1) * sizeof(*f->undef));
			f->undef[f->n_undef++] = xstrdup(name);
		} else if (strchr("TDBRCGSVW", *type)) { /* a global definition */
			sym_define(name, (int)(f - files));
		}
	}
	if (pclose(p) != 0) {
		fprintf(stderr, "layers: nm failed\n");
		exit(2);
	}
}

/* ---- rule 1 and the call graph ------------------------------------------- */

static unsigned char *edge; /* n_files x n_files: file i uses a symbol of file j */

static void check_calls(void)
{
	size_t i, k;

	edge = xrealloc(NULL, n_files * n_files);
	memset(edge, 0, n_files * n_files);
	for (i = 0; i < n_files; i++)
		for (k = 0; k < files[i].n_undef; k++) {
			struct sym *s = sym_find(files[i].undef[k]);
			const struct file *to;

			if (!s || (size_t)s->file == i)
				continue;
			to = &files[s->file];
			edge[i * n_files + (size_t)s->file] = 1;
			if (to->layer > files[i].layer &&
			    !allowed2(A_CALL, files[i].name, s->name))
				problem(R_CALL, "%s: calls %s, defined in %s (%s comes after %s)",
					files[i].path, s->name, to->path, layer_name[to->layer],
					layer_name[files[i].layer]);
		}
}

/* Tarjan's strongly connected components over edge[]. */
static int cmp_int_name(const void *a, const void *b)
{
	return strcmp(files[*(const int *)a].name, files[*(const int *)b].name);
}

static int *tj_index, *tj_low, *tj_stack, *tj_on;
static int tj_next, tj_top;

static void scc_report(int *member, int n)
{
	size_t a;
	int i, j, all;

	/* an allowed cycle: every member among one entry's files */
	for (a = 0; a < n_allows; a++) {
		if (allows[a].kind != A_CYCLE)
			continue;
		for (all = 1, i = 0; i < n && all; i++) {
			for (all = 0, j = 0; j < (int)allows[a].n_arg; j++)
				if (!strcmp(allows[a].arg[j], files[member[i]].name))
					all = 1;
		}
		if (all) {
			allows[a].used = 1;
			return;
		}
	}
	{
		char text[900];
		size_t len = 0;

		for (i = 0; i < n && len < sizeof(text) - 1; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len, " %s",
						files[member[i]].name);
		problem(R_CYCLE, "files that call each other:%s", text);
	}
}

static void strongconnect(int v)
{
	int w;

	tj_index[v] = tj_low[v] = tj_next++;
	tj_stack[tj_top++] = v;
	tj_on[v] = 1;
	for (w = 0; w < (int)n_files; w++) {
		if (!edge[(size_t)v * n_files + (size_t)w])
			continue;
		if (tj_index[w] < 0) {
			strongconnect(w);
			if (tj_low[w] < tj_low[v])
				tj_low[v] = tj_low[w];
		} else if (tj_on[w] && tj_index[w] < tj_low[v]) {
			tj_low[v] = tj_index[w];
		}
	}
	if (tj_low[v] == tj_index[v]) {
		int start = tj_top;

		do {
			w = tj_stack[--start];
			tj_on[w] = 0;
		} while (w != v);
		if (tj_top - start > 1) {
			qsort(tj_stack + start, (size_t)(tj_top - start), sizeof(int), cmp_int_name);
			scc_report(tj_stack + start, tj_top - start);
		}
		tj_top = start;
	}
}

static void check_cycles(void)
{
	size_t i, n = n_files;

	tj_index = xrealloc(NULL, n * sizeof(int));
	tj_low = xrealloc(NULL, n * sizeof(int));
	tj_stack = xrealloc(NULL, n * sizeof(int));
	tj_on = xrealloc(NULL, n * sizeof(int));
	for (i = 0; i < n; i++) {
		tj_index[i] = -1;
		tj_on[i] = 0;
	}
	for (i = 0; i < n; i++)
		if (tj_index[i] < 0)
			strongconnect((int)i);
}

/* ---- rules 2, 3 and 6: includes ------------------------------------------ */

static int public_layer(const char *header)
{
	size_t i;

	for (i = 0; i < N_PUBLIC; i++)
		if (!strcmp(public[i].header, header))
			return layer_of(public[i].folder);
	return -1;
}

/* The name inside #include "..." or <...> on this line, or NULL. */
static char *include_of(char *line)
{
	char *p = line + strspn(line, " \t"), *end;
	char close;

	if (*p != '#')
		return NULL;
	p++;
	p += strspn(p, " \t");
	if (strncmp(p, "include", 7))
		return NULL;
	p += 7;
	p += strspn(p, " \t");
	/* a system header (<stdio.h>) is nothing of ours; <nicfit/...> is */
	if (*p != '"' && strncmp(p, "<nicfit/", 8))
		return NULL;
	close = *p == '"' ? '"' : '>';
	end = strchr(p + 1, close);
	if (!end)
		return NULL;
	*end = '\0';
	return p + 1;
}

/* One include of a library file (layer >= 0). */
static void lib_include(const struct file *f, const char *inc, int lineno)
{
	const char *slash = strchr(inc, '/');
	char folder[64];
	int to;

	if (ends_with(inc, "_codes.def") || allowed2(A_INCLUDE, f->name, inc))
		return;
	if (!strncmp(inc, "nicfit/", 7)) {
		to = public_layer(inc + 7);
		if (to < 0)
			problem(R_PUBLIC, "%s:%d: %s has no folder in the checker's table (tools/layers.c)",
				f->path, lineno, inc);
		else if (to > f->layer && !(f->layer == 0 && ends_with(f->path, ".h")))
			problem(R_PUBLIC, "%s:%d: includes %s, the %s module (%s comes after %s)",
				f->path, lineno, inc, layer_name[to], layer_name[to],
				layer_name[f->layer]);
		return;
	}
	if (!slash) {
		if (file_named(inc) || ends_with(inc, "_int.h"))
			problem(R_PRIVATE, "%s:%d: \"%s\" names no folder", f->path, lineno, inc);
		else {
			/* a generated table (build/gen) or a header found elsewhere */
			size_t i;

			for (i = 0; i < n_files; i++)
				if (files[i].layer != LAYER_PROGRAM &&
				    !strcmp(strrchr(files[i].name, '/') + 1, inc))
					problem(R_PRIVATE, "%s:%d: \"%s\" names no folder", f->path,
						lineno, inc);
		}
		return;
	}
	snprintf(folder, sizeof(folder), "%.*s", (int)(slash - inc), inc);
	to = layer_of(folder);
	if (to < 0)
		return; /* not a library folder */
	if (to > f->layer)
		problem(R_PRIVATE, "%s:%d: includes %s (%s comes after %s)", f->path, lineno, inc,
			folder, layer_name[f->layer]);
	else if (to != f->layer && to != 0 && ends_with(inc, ".h"))
		problem(R_PRIVATE, "%s:%d: includes %s, private to %s/", f->path, lineno, inc,
			folder);
}

/* One include in src/cli or src/serve: public, the programs' own, or sanctioned. */
static void program_include(const struct file *f, const char *inc, int lineno)
{
	char dir[512], rel[1024];
	const char *lib;
	struct allow *a;

	if (!strncmp(inc, "nicfit/", 7) || ends_with(inc, "_codes.def"))
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(f->path, '/') - f->path), f->path);
	snprintf(rel, sizeof(rel), "%s/%s", dir, inc);
	if (!strncmp(inc, "../serve/", 9) || !strncmp(inc, "../cli/", 7) ||
	    (!strchr(inc, '/') && exists(rel)))
		return;
	lib = strstr(inc, "lib/");
	if (lib && !strncmp(inc, "../", 3) && (a = allowed(A_HEADER, lib + 4))) {
		a->used = 1;
		return;
	}
	if (!strchr(inc, '/') && !exists(rel))
		return; /* a generated header (build/gen: assets.h) */
	problem(R_CLIENT, "%s:%d: includes %s (not a public header, nor sanctioned in %s)",
		f->path, lineno, inc, allow_path);
}

/* Rules 2, 3, 6 and 7's guard, and rule 5's lengths, from one read of each file. */
static void read_source(struct file *f, const char *path)
{
	char buf[4096], func[256] = "", sig[256] = "";
	int lineno = 0, start = 0, guard = 0;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		perror(path);
		exit(2);
	}
	while (fgets(buf, sizeof(buf), fp)) {
		char *inc;

		lineno++;
		if (!strncmp(buf, "#ifndef NICFIT_BUILDING_LIBRARY", 31))
			guard = 1;
		else if (guard == 1)
			guard = !strncmp(buf, "#error", 6) ? 2 : 0;
		else if (guard == 2)
			guard = !strncmp(buf, "#endif", 6) ? 3 : 0;
		if ((inc = include_of(buf))) {
			if (f->layer == LAYER_PROGRAM)
				program_include(f, inc, lineno);
			else if (f->layer >= 0)
				lib_include(f, inc, lineno);
			continue;
		}
		/* a function: its name is the identifier before the first '(' of its head */
		if ((buf[0] == '_' || (buf[0] >= 'a' && buf[0] <= 'z') ||
		     (buf[0] >= 'A' && buf[0] <= 'Z')) && strchr(buf, '(') && !start) {
			char *paren = strchr(buf, '('), *b = paren;

			while (b > buf && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
					   (b[-1] >= 'A' && b[-1] <= 'Z') || (b[-1] >= '0' && b[-1] <= '9')))
				b--;
			snprintf(sig, sizeof(sig), "%.*s", (int)(paren - b), b);
		} else if (buf[0] == '{' && !start) {
			start = lineno;
			snprintf(func, sizeof(func), "%s", sig);
		} else if (buf[0] == '}' && start) {
			int len = lineno - start + 1;

			if (f->is_c && len > MAX_FUNC) {
				char key[512];
				struct allow *a;

				snprintf(key, sizeof(key), "%s:%s", f->name, func);
				if ((a = allowed(A_FUNCTION, key)))
					a->used = 1;
				else
					problem(R_LENGTH, "%s:%d: %s() is %d lines (at most %d)",
						f->path, start, func, len, MAX_FUNC);
			}
			start = 0;
		}
	}
	fclose(fp);
	if (f->is_c && lineno > MAX_FILE) {
		struct allow *a = allowed(A_FILE, f->name);

		if (a)
			a->used = 1;
		else
			problem(R_LENGTH, "%s: %d lines (at most %d)", f->path, lineno, MAX_FILE);
	}
	if (f->layer != LAYER_PROGRAM && ends_with(f->path, "_int.h") && guard != 3)
		problem(R_TREE, "%s: no #ifndef NICFIT_BUILDING_LIBRARY / #error / #endif guard", f->path);
}

static void check_sources(void)
{
	size_t i, n;
	char path[4096], **pub;

	for (i = 0; i < n_files; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i].path);
		read_source(&files[i], path);
	}
	/* public headers including public headers */
	pub = list_dir("include/nicfit", &n);
	for (i = 0; i < n; i++) {
		struct file f = { 0 };
		char rel[512];
		FILE *fp;
		char buf[4096];
		int lineno = 0;

		if (!ends_with(pub[i], ".h"))
			continue;
		snprintf(rel, sizeof(rel), "include/nicfit/%s", pub[i]);
		f.path = f.name = rel;
		f.layer = public_layer(pub[i]);
		if (f.layer < 0) {
			problem(R_PUBLIC, "%s: no folder in the checker's table (tools/layers.c)", rel);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", root, rel);
		if (!(fp = fopen(path, "r")))
			continue;
		while (fgets(buf, sizeof(buf), fp)) {
			char *inc = include_of(buf);

			lineno++;
			if (inc && !strncmp(inc, "nicfit/", 7))
				lib_include(&f, inc, lineno);
		}
		fclose(fp);
	}
}

int main(int argc, char **argv)
{
	size_t i;
	int r, failed = 0;

	if (argc != 4) {
		fputs("usage: layers ROOT BUILD ALLOW\n", stderr);
		return 2;
	}
	root = argv[1];
	build = argv[2];
	read_allow(argv[3]);
	find_files();
	read_symbols();
	check_calls();
	check_cycles();
	check_sources();
	for (r = 0; r < N_RULES; r++) {
		int bad = 0;

		for (i = 0; i < n_problems; i++)
			bad |= problems[i].rule == (enum rule)r;
		printf("%sok %d - %s\n", bad ? "not " : "", r + 1, rule_text[r]);
		for (i = 0; i < n_problems; i++)
			if (problems[i].rule == (enum rule)r)
				printf("# %s\n", problems[i].text);
		failed |= bad;
	}
	for (i = 0; i < n_allows; i++)
		if (!allows[i].used)
			printf("# %s:%d: matches nothing any more: delete it\n", allow_path,
			       allows[i].line);
	return failed;
}
