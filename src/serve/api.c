/*
 * api.c - the routes of `nicfit serve`, as one table: a path (a prefix when
 * it ends in '/'), the methods, a handler, and for spec routes the library
 * function that runs the spec. Each handler calls the library as the
 * command line does and answers the document it renders (reply.c); the
 * checks every request passes first are serve.c's.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "serve_int.h"
#include "nicfit/calc.h"
#include "nicfit/catalog.h"
#include "nicfit/audit.h"
#include "nicfit/host.h"
#include "nicfit/cluster.h"
#include "nicfit/emit.h"
#include "nicfit/accept.h"
#include "nicfit/partno.h"
#include "nicfit/plan.h"
#include "nicfit/spec.h"
#include "nicfit/topo.h"
#include "nicfit/units.h"
#include "nicfit/version.h"

static enum MHD_Result handle_index(struct request *rq);
static enum MHD_Result handle_spec(struct request *rq);
static enum MHD_Result handle_examples(struct request *rq);
static enum MHD_Result handle_decode(struct request *rq);
static enum MHD_Result handle_audit(struct request *rq);
static enum MHD_Result handle_calc(struct request *rq);
static enum MHD_Result handle_catalog(struct request *rq);
static enum MHD_Result handle_page(struct request *rq);

/* The API. Adding a route is adding a line. */
static const struct route routes[] = {
	{ "/api", NULL, M_GET, handle_index, NULL, 0, "this list" },
	{ "/api/plan", NULL, M_POST, handle_spec, nicfit_plan_run, R_SVG,
	  "plan a server or cluster (body: the plan spec, as plan --spec)" },
	{ "/api/plan/examples", NULL, M_GET, handle_examples, NULL, 0, "the named example plans" },
	{ "/api/accept", NULL, M_POST, handle_spec, nicfit_accept_run, 0,
	  "a plan's acceptance runbook (body: the plan spec, and hosts, launcher, read)" },
	{ "/api/accept/results", NULL, M_POST, serve_handle_accept_results, NULL, 0,
	  "the runbook judged on its outputs (body: {spec, results: {NAME.txt: output}})" },
	{ "/api/cluster", NULL, M_POST, handle_spec, nicfit_cluster_run, R_SVG,
	  "switches, tiers, cables and BOM for N nodes (body: the cluster spec)" },
	{ "/api/decode/", "/api/decode/PART", M_GET, handle_decode, NULL, 0, "explain a part number (as decode --json)" },
	{ "/api/audit", NULL, M_GET, handle_audit, NULL, R_AUDIT | R_SVG, "this host's audit (as audit --json)" },
	{ "/api/calc/", "/api/calc/NAME", M_POST, handle_calc, NULL, 0,
	  "run calculator NAME (pcie, link, nic, load, fit, allreduce, stream, step) on a JSON spec" },
	{ "/api/catalog", NULL, M_GET, handle_catalog, NULL, 0, "the whole catalog (as nicfit catalog list --json)" },
	{ "/api/catalog/", "/api/catalog/KIND[/ID]", M_GET, handle_catalog, NULL, 0,
	  "KIND: the entries of one kind; KIND/ID: one entry (as catalog show)" },
	{ "/metrics", NULL, M_GET, serve_handle_metrics, NULL, 0,
	  "the server's counts in Prometheus's text format" },
	{ "/", NULL, M_GET, handle_page, NULL, 0, "the configurator page" },
	{ "/plan", NULL, M_GET, handle_page, NULL, 0, "the page, plan tab" },
	{ "/cluster", NULL, M_GET, handle_page, NULL, 0, "the page, cluster tab" },
	{ "/decode", NULL, M_GET, handle_page, NULL, 0, "the page, decode tab" },
	{ "/calc", NULL, M_GET, handle_page, NULL, 0, "the page, calculators tab" },
};

#define NROUTES (sizeof(routes) / sizeof(routes[0]))

/* ---- handlers --------------------------------------------------------- */

static enum MHD_Result handle_index(struct request *rq)
{
	static const struct nicfit_column cols[] = {
		{ "method", "method", 0 }, { "path", "path", 0 }, { "about", "about", 0 },
	};
	enum MHD_Result ok = MHD_NO;
	struct nicfit_emit *e = serve_request_emitter(rq, &ok);
	size_t i;

	if (!e)
		return ok;
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.api.v1");
	nicfit_emit_string(e, "version", NICFIT_VERSION);
	nicfit_emit_printf(e, "nicfit %s web API\n", NICFIT_VERSION);
	nicfit_emit_table_begin(e, "routes", cols, 3);
	for (i = 0; i < NROUTES; i++) {
		const struct route *r = &routes[i];

		if (strncmp(r->path, "/api", 4))
			continue;
		if ((r->flags & R_AUDIT) && !rq->srv->o->allow_audit)
			continue;
		nicfit_emit_cell_string(e, r->methods & M_POST ? "POST" : "GET");
		nicfit_emit_cell_string(e, r->shown ? r->shown : r->path);
		nicfit_emit_cell_string(e, r->about);
	}
	nicfit_emit_table_end(e);
	nicfit_emit_end_object(e);
	return serve_reply_emit(rq, e);
}

/* The plan examples, each with its request, so the page can link them. */
static enum MHD_Result handle_examples(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_emit *e = serve_request_emitter(rq, &ok);
	const struct nicfit_plan_example *x;
	size_t i;

	if (!e)
		return ok;
	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_string(e, "schema", "nicfit.plan.examples.v1");
	nicfit_emit_begin_array(e, "examples");
	for (x = nicfit_plan_examples; x->name; x++) {
		nicfit_emit_printf(e, "%-10s %s\n", x->name, x->title);
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "name", x->name);
		nicfit_emit_string(e, "title", x->title);
		nicfit_emit_begin_object(e, "spec");
		for (i = 0; x->pairs[i] && x->pairs[i + 1]; i += 2)
			nicfit_emit_string(e, x->pairs[i], x->pairs[i + 1]);
		nicfit_emit_end_object(e);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
	return serve_reply_emit(rq, e);
}

/* Decode part and render it into e, as `nicfit decode`. */
static int decode_run(const struct nicfit_catalog *cat, const char *part, struct nicfit_emit *e,
		      struct nicfit_error *err)
{
	struct nicfit_part *p = calloc(1, sizeof(*p));
	int rc;

	if (!p)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	rc = nicfit_decode(cat, part, p, err);
	if (!rc)
		nicfit_decode_render(e, p);
	free(p);
	return rc;
}

static enum MHD_Result handle_decode(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_error err;
	struct nicfit_emit *e;
	int rc;

	e = serve_request_emitter(rq, &ok);
	if (!e)
		return ok;
	nicfit_error_clear(&err);
	rc = decode_run(rq->srv->o->cat, rq->rest, e, &err);
	if (rc) {
		nicfit_emit_free(e);
		return serve_reply_nicfit_error(rq, rc, &err);
	}
	return serve_reply_emit(rq, e);
}

/*
 * This host's audit, as `nicfit audit --json` (the sysfs root is
 * --sysfs DIR, else NICFIT_SYSFS_ROOT, else "/"). Findings are part of the
 * document: the answer is 200 whatever they say.
 */
static enum MHD_Result handle_audit(struct request *rq)
{
	struct nicfit_host_request hr = { 0 };
	struct nicfit_host *host = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_audit_opts ao;
	struct nicfit_error err;
	struct nicfit_emit *e;
	enum MHD_Result ok = MHD_NO;
	int rc;

	nicfit_error_clear(&err);
	memset(&ao, 0, sizeof(ao));
	pthread_mutex_lock(&rq->srv->audit_lock);
	hr.root = rq->srv->o->sysfs_root;
	rc = nicfit_host_open(&hr, &host, &err);
	if (!rc)
		rc = nicfit_audit_judge(host->topo, rq->srv->o->cat, &ao, &a, &err);
	if (rc) {
		ok = serve_reply_nicfit_error(rq, rc, &err);
		goto out;
	}
	nicfit_audit_name_from_pciids(a, NULL, NULL);
	e = serve_request_emitter(rq, &ok);
	if (!e)
		goto out;
	rc = nicfit_audit_render(a, e);
	if (rc) {
		nicfit_emit_free(e);
		ok = serve_reply_error(rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "internal",
				       "cannot render the audit: %s", nicfit_strerror(rc));
		goto out;
	}
	ok = serve_reply_emit(rq, e);
out:
	nicfit_audit_free(a);
	nicfit_host_close(host);
	pthread_mutex_unlock(&rq->srv->audit_lock);
	return ok;
}

/* Parse the body into a new spec; NULL after queueing the error. */
static struct nicfit_spec *request_spec(struct request *rq, enum MHD_Result *ok)
{
	/* nicfit_spec_init() sets what is read (13 kB of pairs need no clearing) */
	struct nicfit_spec *spec = malloc(sizeof(*spec));
	struct nicfit_error err;
	int rc;

	if (!spec) {
		*ok = MHD_NO;
		return NULL;
	}
	nicfit_spec_init(spec, "body");
	spec->from_data = 1;
	if (!rq->body.len)
		return spec;
	nicfit_error_clear(&err);
	rc = nicfit_spec_parse_json(spec, rq->body.data, rq->body.len, &err);
	if (!rc)
		return spec;
	if (rc == NICFIT_E_LIMIT && err.code == NICFIT_E_LIMIT) {
		char line[1024];

		nicfit_error_line(&err, line, sizeof(line));
		*ok = serve_reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit", "%s", line);
	} else {
		*ok = serve_reply_nicfit_error(rq, rc, &err);
	}
	nicfit_spec_release(spec);
	free(spec);
	return NULL;
}

/*
 * The kept answer of this request, queued (1), or 0 with rq->ckey set for
 * the answer to be kept (reply.c) when the cache has none.
 */
static int cached(struct request *rq, const struct nicfit_spec *spec)
{
	struct serve_cache *c = &rq->srv->cache;
	struct nicfit_buf key;
	size_t bytes = 0;

	if (!c->slots)
		return 0;
	nicfit_buf_init(&key, 0);
	if (serve_cache_key(&key, rq->route->path, rq->rest,
			    MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "format"),
			    MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "pretty"),
			    spec)) {
		nicfit_buf_release(&key);
		return 0;
	}
	if (serve_cache_answer(c, key.data, key.len, rq->conn, &bytes)) {
		nicfit_buf_release(&key);
		rq->answered = 1;
		rq->status = MHD_HTTP_OK;
		rq->bytes = bytes;
		rq->cache = 'H';
		return 1;
	}
	rq->cache = 'M';
	rq->ckey = nicfit_buf_detach(&key, &rq->ckey_len);
	return 0;
}

/* Run the spec through run (or calculator calc) and answer the document. */
static enum MHD_Result run_spec(struct request *rq, spec_runner run, const char *calc)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_spec *spec;
	struct nicfit_emit *e;
	struct nicfit_error err;
	int rc;

	spec = request_spec(rq, &ok);
	if (!spec)
		return ok;
	if (cached(rq, spec)) {
		ok = MHD_YES;
		goto out;
	}
	e = serve_request_emitter(rq, &ok);
	if (!e)
		goto out;
	nicfit_error_clear(&err);
	rc = run ? run(rq->srv->o->cat, spec, e, &err)
		 : nicfit_calc_run(rq->srv->o->cat, calc, spec, e, &err);
	if (rc) {
		nicfit_emit_free(e);
		ok = serve_reply_nicfit_error(rq, rc, &err);
		goto out;
	}
	ok = serve_reply_emit(rq, e);
out:
	nicfit_spec_release(spec);
	free(spec);
	return ok;
}

/*
 * The work one request may ask for. Sizing a cluster walks every node (the
 * port map, the cabling, the BOM), so its time grows with the node count:
 * about 0.3 s of CPU for 100,000 nodes, 5 s for 1,000,000, while the body
 * that asks for it is 100 bytes. A worker thread serves many connections,
 * so a few such requests would hold the cheap routes up. The server sizes
 * clusters of up to SERVE_MAX_CLUSTER_NODES nodes (the largest GPU clusters
 * built have about 12,500 eight-GPU nodes); the command line has no such
 * limit.
 */
static int cluster_over_limit(struct nicfit_spec *spec, struct nicfit_error *err)
{
	const char *v;
	long nodes = 0, gpus = 0, per = 0;

	v = nicfit_spec_get(spec, "nodes");
	if (v && nicfit_parse_long(v, "nodes", 1, LONG_MAX, &nodes, NULL))
		nodes = 0;
	v = nicfit_spec_get(spec, "gpus");
	if (v && !nicfit_parse_long(v, "gpus", 1, LONG_MAX, &gpus, NULL)) {
		v = nicfit_spec_get(spec, "gpus_per_node");
		if (v && !nicfit_parse_long(v, "gpus_per_node", 1, LONG_MAX, &per, NULL) &&
		    gpus / per > nodes)
			nodes = gpus / per;
	}
	if (nodes <= SERVE_MAX_CLUSTER_NODES)
		return 0;
	nicfit_error_set(err, NICFIT_E_LIMIT, "a cluster of %ld nodes is over the server's limit of "
			 "%d (size it with nicfit cluster on the command line)", nodes,
			 SERVE_MAX_CLUSTER_NODES);
	return 1;
}

static int cluster_too_big(struct request *rq, struct nicfit_spec *spec, enum MHD_Result *ok)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	if (!cluster_over_limit(spec, &err))
		return 0;
	*ok = serve_reply_error(rq, MHD_HTTP_CONTENT_TOO_LARGE, "limit", "%s", err.msg);
	return 1;
}

static enum MHD_Result handle_spec(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_spec *spec;

	if (rq->route->run != nicfit_cluster_run)
		return run_spec(rq, rq->route->run, NULL);
	spec = request_spec(rq, &ok);
	if (!spec)
		return ok;
	if (!cluster_too_big(rq, spec, &ok))
		ok = MHD_YES;
	nicfit_spec_release(spec);
	free(spec);
	if (rq->answered)
		return ok;
	return run_spec(rq, rq->route->run, NULL);
}

static enum MHD_Result handle_calc(struct request *rq)
{
	const char *hint;
	size_t i;

	for (i = 0; nicfit_calc_names[i]; i++)
		if (!strcmp(rq->rest, nicfit_calc_names[i]))
			return run_spec(rq, NULL, nicfit_calc_names[i]);
	hint = nicfit_suggest(rq->rest, nicfit_calc_names);
	if (hint)
		return serve_reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
					 "no calculator '%.64s' (did you mean '%s'?)", rq->rest, hint);
	return serve_reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
				 "no calculator '%.64s' (pcie, link, nic, load, fit, allreduce, stream, step)",
				 rq->rest);
}

static enum MHD_Result handle_catalog(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_error err;
	struct nicfit_emit *e;
	enum nicfit_kind kind;
	char kname[32];
	const char *slash = strchr(rq->rest, '/');
	size_t klen = slash ? (size_t)(slash - rq->rest) : strlen(rq->rest);
	int rc;

	nicfit_error_clear(&err);
	if (*rq->rest) {
		if (klen >= sizeof(kname) || (slash && (!slash[1] || strchr(slash + 1, '/'))))
			return serve_reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
						 "no such path %.128s (use /api/catalog/KIND or /api/catalog/KIND/ID)",
						 rq->path);
		memcpy(kname, rq->rest, klen);
		kname[klen] = '\0';
		if (nicfit_kind_parse(kname, &kind, &err))
			return serve_reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
						 "no catalog kind '%.32s' (nics, cables, switches, servers, gpus, models)",
						 kname);
	}
	if (slash) {
		enum nicfit_kind found;

		if (!nicfit_catalog_lookup(rq->srv->o->cat, slash + 1, &found) || found != kind) {
			nicfit_error_at(&err, NICFIT_E_NOTFOUND, "catalog", 0, 0,
					"no %s '%.64s' (see /api/catalog/%s)", nicfit_kind_name(kind),
					slash + 1, nicfit_kind_plural(kind));
			return serve_reply_nicfit_error(rq, NICFIT_E_NOTFOUND, &err);
		}
	}
	e = serve_request_emitter(rq, &ok);
	if (!e)
		return ok;
	rc = 0;
	if (!*rq->rest)
		nicfit_catalog_render_list(e, rq->srv->o->cat, -1);
	else if (!slash)
		nicfit_catalog_render_list(e, rq->srv->o->cat, (int)kind);
	else
		rc = nicfit_catalog_render_show(e, rq->srv->o->cat, slash + 1, &err);
	if (rc) {
		nicfit_emit_free(e);
		return serve_reply_nicfit_error(rq, rc, &err);
	}
	return serve_reply_emit(rq, e);
}

void serve_page_init(struct serve_page *pg, const char *tab, const struct nicfit_catalog *cat,
		     const char *html, size_t len)
{
	memset(pg, 0, sizeof(*pg));
	pg->tab = tab && *tab ? tab : "plan";
	pg->cat = cat;
	pg->html = html;
	pg->len = len;
	pg->run = !strcmp(pg->tab, "cluster") ? nicfit_cluster_run : nicfit_plan_run;
	pg->too_big = !strcmp(pg->tab, "cluster") ? cluster_over_limit : NULL;
	pg->decode = decode_run;
}

/*
 * The page for /, /plan, /cluster, /decode and /calc: the tab of the path,
 * and a shared link's answer written in by the server (page.c).
 */
static enum MHD_Result handle_page(struct request *rq)
{
	struct serve_page pg;

	if (!rq->srv->index)
		return serve_reply_error(rq, MHD_HTTP_NOT_FOUND, "not_found",
					 "this build has no page; the API is under /api");
	serve_page_init(&pg, rq->route->path + 1, rq->srv->o->cat, rq->srv->index->data,
			rq->srv->index->len);
	return serve_reply_page(rq, &pg);
}

const struct route *serve_match_route(const char *url, const char **rest)
{
	size_t i;

	for (i = 0; i < NROUTES; i++) {
		const char *p = routes[i].path;
		size_t n = strlen(p);

		if (n > 1 && p[n - 1] == '/') {
			if (!strncmp(url, p, n) && url[n]) {
				*rest = url + n;
				return &routes[i];
			}
		} else if (!strcmp(url, p)) {
			*rest = "";
			return &routes[i];
		}
	}
	return NULL;
}
