/*
 * fleet_audit.c - one `nicfit audit --json` document becomes one host:
 * its name, its hardware signature and its comparable attributes.
 *
 * The reader follows the audit contract (docs/json-audit.md, nicfit.audit.v1) and
 * is lenient in the way a fleet needs: members it does not know are
 * skipped, members that are absent or null are unknown (no attribute, so
 * never a difference), and a few spellings that older or newer audits use
 * are accepted (netdevs as names or objects, firmware as "firmware" or
 * "fw_ver"). It is strict about what would make a comparison wrong: the
 * schema must be nicfit.audit.v1 and the JSON must be valid.
 *
 * An Ansible JSON-callback document is recognised here too ("plays"): each
 * host's stdout is fed back through the input layer as that host's text.
 * The members of devices are fleet_read.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"

/*
 * A host's finding severity as its audit spells it. Lenient, since the
 * documents may come from other nicfit versions: case does not matter,
 * "error" is critical, and anything else (missing, "info", unknown) is
 * info, so that a finding is never taken for worse than it said.
 */
static enum nicfit_severity severity_of(const char *s)
{
	if (!s)
		return NICFIT_SEV_INFO;
	if (!strcasecmp(s, "critical") || !strcasecmp(s, "error"))
		return NICFIT_SEV_CRITICAL;
	if (!strcasecmp(s, "warning"))
		return NICFIT_SEV_WARNING;
	return NICFIT_SEV_INFO;
}

/* ---- host-level members -------------------------------------------------------------- */

static void read_pairs(struct fl_actx *a, int root)
{
	static const struct keydef keys[4] = { KD("gpu"), KD("nic"), KD("path"),
					       KD("gdr_default") };
	int arr = nicfit__jscan_get(a->js, root, "pairs");
	uint32_t i, end;

	if (fl_tok_type(a, arr) != JS_ARRAY)
		return;
	end = a->js->tok[arr].next;
	for (i = (uint32_t)arr + 1; i < end; i = a->js->tok[i].next) {
		uint32_t gpu, nic, subj;
		int m[4], gdr;

		if (fl_tok_type(a, (int)i) != JS_OBJECT)
			continue;
		nicfit__fleet_members(a, (int)i, keys, 4, m);
		gpu = nicfit__fleet_tok_sid(a, m[0]);
		nic = nicfit__fleet_tok_sid(a, m[1]);
		if (!gpu || !nic)
			continue;
		subj = nicfit__fleet_join(a, gpu, " - ", fl_str(&a->fl->st, nic));
		nicfit__fleet_add_str(a, FA_PAIR_PATH, subj, 0, nicfit__fleet_tok_sid(a, m[2]));
		gdr = fl_tok_type(a, m[3]);
		if (gdr == JS_TRUE || gdr == JS_FALSE)
			nicfit__fleet_add(a, FA_PAIR_GDR, subj, 0, gdr == JS_TRUE);
	}
}

static void read_findings(struct fl_actx *a, int root)
{
	static const struct keydef keys[5] = { KD("severity"), KD("code"), KD("device"),
					       KD("message"), KD("ignored") };
	struct nicfit_fleet *fl = a->fl;
	int arr = nicfit__jscan_get(a->js, root, "findings");
	uint32_t i, end;

	if (fl_tok_type(a, arr) != JS_ARRAY)
		return;
	a->h.findings_known = 1;
	end = a->js->tok[arr].next;
	for (i = (uint32_t)arr + 1; i < end; i = a->js->tok[i].next) {
		uint32_t code, dev, subj, key;
		enum nicfit_severity sev;
		int m[5];

		if (fl_tok_type(a, (int)i) != JS_OBJECT)
			continue;
		nicfit__fleet_members(a, (int)i, keys, 5, m);
		code = nicfit__fleet_tok_sid(a, m[1]);
		/* a finding the admin told audit to ignore is not the host's problem */
		if (!code || fl_tok_type(a, m[4]) == JS_TRUE)
			continue;
		dev = nicfit__fleet_tok_sid(a, m[2]);
		sev = severity_of(fl_str(&fl->st, nicfit__fleet_tok_sid(a, m[0])));
		if (sev > a->h.own)
			a->h.own = sev;
		subj = dev ? nicfit__fleet_join(a, code, "\x1f", fl_str(&fl->st, dev)) : code;
		if (a->err || nicfit__fleet_key(fl, FA_FINDING, subj, dev, &key)) {
			a->err = NICFIT_E_NOMEM;
			return;
		}
		fl->keys[key].code = code;
		if (sev > fl->keys[key].sev)
			fl->keys[key].sev = (uint8_t)sev;
		if (!fl->keys[key].msg)
			fl->keys[key].msg = nicfit__fleet_tok_sid(a, m[3]);
		nicfit__fleet_add(a, FA_FINDING, subj, dev, 1);
	}
}

static void read_not_checked(struct fl_actx *a, int root)
{
	struct nicfit_fleet *fl = a->fl;
	int arr = nicfit__jscan_get(a->js, root, "not_checked");
	uint32_t i, end;

	if (fl_tok_type(a, arr) != JS_ARRAY)
		return;
	a->h.notchecked_known = 1;
	end = a->js->tok[arr].next;
	for (i = (uint32_t)arr + 1; i < end; i = a->js->tok[i].next) {
		uint32_t check = fl_tok_type(a, (int)i) == JS_OBJECT
					 ? nicfit__fleet_get_sid(a, (int)i, "check")
					 : nicfit__fleet_tok_sid(a, (int)i);
		uint32_t key;

		if (!check)
			continue;
		if (nicfit__fleet_key(fl, FA_NOTCHECKED, check, 0, &key)) {
			a->err = NICFIT_E_NOMEM;
			return;
		}
		fl->keys[key].code = check;
		if (!fl->keys[key].msg && fl_tok_type(a, (int)i) == JS_OBJECT)
			fl->keys[key].msg = nicfit__fleet_get_sid(a, (int)i, "why");
		nicfit__fleet_add(a, FA_NOTCHECKED, check, 0, 1);
	}
}

/* The token at a dotted path ("host.gpudirect.nvidia_peermem") below root, or -1. */
static int path_tok(struct fl_actx *a, int root, const char *path)
{
	char part[48];
	const char *p = path, *dot;
	int t = root;

	while (t >= 0) {
		size_t n;

		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		if (n >= sizeof(part))
			return -1;
		memcpy(part, p, n);
		part[n] = '\0';
		t = nicfit__jscan_get(a->js, t, part);
		if (!dot)
			return t;
		p = dot + 1;
	}
	return -1;
}

/* The first non-empty string found at one of the paths. */
static uint32_t find_str(struct fl_actx *a, int root, const char *const *paths)
{
	for (; *paths; paths++) {
		uint32_t id = nicfit__fleet_tok_sid(a, path_tok(a, root, *paths));

		if (id && id != nicfit__fleet_intern0(&a->fl->st, ""))
			return id;
	}
	return 0;
}

/* A boolean at the first path that has one: 1, 0, or -1 unknown. */
static int find_bool(struct fl_actx *a, int root, const char *const *paths)
{
	for (; *paths; paths++) {
		int t = fl_tok_type(a, path_tok(a, root, *paths));

		if (t == JS_TRUE || t == JS_FALSE)
			return t == JS_TRUE;
	}
	return -1;
}

static const char *const host_paths[] = { "host", "hostname", "host.name", "host.hostname",
					  NULL };
static const char *const product_paths[] = { "host.product", "product", "dmi.product_name",
					     NULL };
static const char *const vendor_paths[] = { "host.vendor", "sys_vendor", "dmi.sys_vendor",
					    NULL };
static const char *const kernel_paths[] = { "host.kernel", "kernel", NULL };
static const char *const gpu_driver_paths[] = { "host.gpudirect.nvidia_driver_version",
						"gpudirect.nvidia_driver_version",
						"nvidia_driver_version", "gpu_driver", NULL };
static const char *const peermem_paths[] = { "host.gpudirect.nvidia_peermem",
					     "gpudirect.nvidia_peermem", NULL };
static const char *const gdr_kernel_paths[] = { "host.gpudirect.kernel_support",
						"gpudirect.kernel_support", NULL };
static const char *const iommu_paths[] = { "host.iommu", "iommu", NULL };
static const char *const privileged_paths[] = { "host.privileged", "privileged", NULL };
static const char *const bios_paths[] = { "host.bios_version", "bios_version",
					  "dmi.bios_version", NULL };

/* ---- Ansible ------------------------------------------------------------------------- */

static int has_text(struct fl_actx *a, int t, const char *needle)
{
	const struct jscan_tok *k;
	size_t n = strlen(needle), i;
	const char *h;

	if (t < 0)
		return 0;
	k = &a->js->tok[t];
	h = a->text + k->start;
	for (i = 0; i + n <= k->len; i++)
		if (h[i] == needle[0] && !memcmp(h + i, needle, n))
			return 1;
	return 0;
}

/*
 * A host's result in a bundle. Every result is collected, and its text
 * copied out, before any is read: reading a host's stdout parses it with
 * the same tokenizer, which overwrites the bundle's tokens.
 */
struct bundle_host {
	uint32_t name;
	size_t off;           /* of the host's key in the bundle */
	int res;              /* result object token */
	int task;             /* the task object token */
	enum { RESULT_OTHER, RESULT_AUDIT, RESULT_FAILED } kind;
	char *text;           /* the stdout (RESULT_AUDIT) or why it failed */
	size_t len;
};

struct bundle {
	struct bundle_host *v;
	size_t n, alloc;
};

/* The host results of one task object ({"task": ..., "hosts": {...}}). */
static int collect_task(struct fl_actx *a, int t, struct bundle *bu)
{
	int hosts = nicfit__jscan_get(a->js, t, "hosts");
	uint32_t h;

	if (fl_tok_type(a, hosts) != JS_OBJECT)
		return 0;
	for (h = (uint32_t)hosts + 1; h < a->js->tok[hosts].next; h = a->js->tok[h + 1].next) {
		struct bundle_host b;

		memset(&b, 0, sizeof(b));
		b.name = nicfit__fleet_tok_sid(a, (int)h);
		b.off = a->js->tok[h].start;
		b.res = (int)h + 1;
		b.task = t;
		if (!b.name || fl_tok_type(a, b.res) != JS_OBJECT)
			continue;
		if (NICFIT_ALLOC_GROW(bu->v, bu->n + 1, bu->alloc))
			return -1;
		bu->v[bu->n++] = b;
	}
	return 0;
}

/* Every task's host results: one event's, or every play's. Returns 0 or -1. */
static int collect_bundle(struct fl_actx *a, int root, int event, struct bundle *bu)
{
	int plays = nicfit__jscan_get(a->js, root, "plays");
	uint32_t p, t;

	if (event)
		return collect_task(a, root, bu);
	for (p = (uint32_t)plays + 1; p < a->js->tok[plays].next; p = a->js->tok[p].next) {
		int tasks = nicfit__jscan_get(a->js, (int)p, "tasks");

		if (fl_tok_type(a, tasks) != JS_ARRAY)
			continue;
		for (t = (uint32_t)tasks + 1; t < a->js->tok[tasks].next; t = a->js->tok[t].next)
			if (collect_task(a, (int)t, bu))
				return -1;
	}
	return 0;
}

/*
 * What one host's result is: an audit, when its stdout holds
 * "nicfit.audit"; a nicfit task that failed, when the task, the command or
 * the module's invocation names nicfit (then why: Ansible's msg, the first
 * line of stderr, "unreachable" or "no output"); or another task, which is
 * none of fleet's business. Returns 0, or -1 without memory.
 */
static int bundle_result(struct nicfit_fleet *fl, struct fl_actx *a, struct bundle_host *b)
{
	int out = nicfit__jscan_get(a->js, b->res, "stdout");
	int task = nicfit__jscan_get(a->js, b->task, "task");
	uint32_t why;
	int err_t;
	char first[200];

	if (fl_tok_type(a, out) == JS_STRING && has_text(a, out, "nicfit.audit")) {
		size_t n = a->js->tok[out].len;

		b->text = malloc(n + 1);
		if (!b->text || nicfit__jscan_string(a->js, out, b->text, n + 1) < 0)
			return -1;
		b->len = strlen(b->text);
		b->kind = RESULT_AUDIT;
		return 0;
	}
	if (!has_text(a, task, "nicfit") &&
	    !has_text(a, nicfit__jscan_get(a->js, b->res, "cmd"), "nicfit") &&
	    !has_text(a, nicfit__jscan_get(a->js, b->res, "invocation"), "nicfit"))
		return 0;
	why = nicfit__fleet_get_sid(a, b->res, "msg");
	err_t = nicfit__jscan_get(a->js, b->res, "stderr");
	first[0] = '\0';
	if (!why && fl_tok_type(a, err_t) == JS_STRING) {
		size_t n = a->js->tok[err_t].len;
		char *s = malloc(n + 1);

		if (s && nicfit__jscan_string(a->js, err_t, s, n + 1) >= 0) {
			s[strcspn(s, "\n")] = '\0';
			snprintf(first, sizeof(first), "%s", s);
		}
		free(s);
	}
	b->text = malloc(sizeof(first) + 64);
	if (!b->text)
		return -1;
	snprintf(b->text, sizeof(first) + 64, "%s",
		 why ? fl_str(&fl->st, why) : first[0] ? first :
		 nicfit__fleet_is_true(a, b->res, "unreachable") ? "unreachable" : "no output");
	b->kind = RESULT_FAILED;
	return 0;
}

/*
 * Ansible's JSON callback (one document: plays[].tasks[].hosts{}) or one
 * event of its JSONL callback ({"_event": ..., "task": ..., "hosts": {}}).
 * Each host's audit is read as that host's text; a nicfit task that failed
 * is the host's input problem.
 */
static int ansible_bundle(struct nicfit_fleet *fl, struct fl_actx *a, int root,
			  const struct fl_origin *o, int event, struct nicfit_error *err)
{
	struct bundle bu = { NULL, 0, 0 };
	size_t i, found = 0;
	long line, col;
	int rc = 0;

	fl->ndocs--; /* the wrapper: its hosts' audits are counted, or their failures */
	if (collect_bundle(a, root, event, &bu)) {
		rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < bu.n; i++) {
		if (bundle_result(fl, a, &bu.v[i])) {
			rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
			goto out;
		}
		found += bu.v[i].kind != RESULT_OTHER;
	}
	for (i = 0; i < bu.n && !rc; i++) {
		const struct bundle_host *b = &bu.v[i];
		const char *name = fl_str(&fl->st, b->name);

		if (b->kind == RESULT_OTHER)
			continue;
		nicfit__fleet_position(o, a->text, b->off, &line, &col);
		if (b->kind == RESULT_AUDIT) {
			rc = nicfit__fleet_feed_labelled(fl, name, FL_LABEL_ANSIBLE, b->text,
							 b->len, line, err);
		} else {
			fl->ndocs++;
			nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, name, o->input, line,
					      col, "host %s: no audit in Ansible's result: %s",
					      name, b->text);
		}
	}
	if (!rc && !found && !event)
		nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, NULL, o->input,
				      o->nfrags ? o->frags[0].line : 0, 0,
				      "Ansible output with no nicfit audit in any host's stdout");
out:
	for (i = 0; i < bu.n; i++)
		free(bu.v[i].text);
	free(bu.v);
	return rc;
}

/* ---- the document ------------------------------------------------------------------- */

/*
 * A document that is not an audit this nicfit reads: another schema
 * version, another program's JSON. Records the problem and returns 1;
 * returns 0 for nicfit.audit.v1.
 */
static int wrong_schema(struct fl_actx *a, const struct fl_origin *o, int root, const char *who,
			long line, long col)
{
	const char *s = fl_str(&a->fl->st, nicfit__fleet_get_sid(a, root, "schema"));

	if (s && !strcmp(s, "nicfit.audit.v1"))
		return 0;
	if (s && !strncmp(s, "nicfit.audit.v", 14))
		nicfit__fleet_problem(
			a->fl, NICFIT_FLEET_UNREADABLE, who, o->input, line, col,
			"%s%s%sschema %s is not one this nicfit reads (nicfit.audit.v1)",
			who ? "host " : "", who ? who : "", who ? ": " : "", s);
	else
		nicfit__fleet_problem(a->fl, NICFIT_FLEET_UNREADABLE, who, o->input, line, col,
				      "%s%s%snot a nicfit audit document (schema %s%s%s)",
				      who ? "host " : "", who ? who : "", who ? ": " : "",
				      s ? "\"" : "", s ? s : "missing", s ? "\"" : "");
	return 1;
}

/*
 * What the fleet calls the host (docs/json-fleet.md): the pdsh, clush or
 * Ansible label when there is one, since that is the name the admin typed
 * and will paste back; else the host name inside the audit; else the srun
 * task number; else the name of its file (gpu07.json is gpu07); else where
 * it was read (INPUT:LINE). srun labels are task numbers, which say less
 * than the audit's own host name, so they come after it.
 */
static void host_name(const struct fl_origin *o, const char *reported, long line, char *name,
		      size_t n)
{
	if (o->label && (o->kind == FL_LABEL_HOST || o->kind == FL_LABEL_ANSIBLE))
		snprintf(name, n, "%s", o->label);
	else if (reported)
		snprintf(name, n, "%s", reported);
	else if (o->label)
		snprintf(name, n, "task %s", o->label);
	else if (o->fallback)
		snprintf(name, n, "%s", o->fallback);
	else
		snprintf(name, n, "%s:%ld", o->input, line);
	nicfit__fleet_sanitize(name);
}

/* The host's attributes: host-wide members, devices, pairs, findings, not-checked items. */
static void read_host(struct fl_actx *a, int root)
{
	struct jscan *js = a->js;
	int devs, numa = nicfit__jscan_get(js, root, "numa_nodes");
	uint32_t i, end;

	if (fl_tok_type(a, numa) == JS_ARRAY)
		nicfit__fleet_add(a, FA_NUMA_COUNT, 0, 0, fl_dbits(js->tok[numa].count));
	else
		nicfit__fleet_add_num(a, FA_NUMA_COUNT, 0, 0, root, "numa_nodes");
	nicfit__fleet_add_str(a, FA_KERNEL, 0, 0, find_str(a, root, kernel_paths));
	nicfit__fleet_add_str(a, FA_GPU_DRIVER, 0, 0, find_str(a, root, gpu_driver_paths));
	nicfit__fleet_add_str(a, FA_PRODUCT_FW, 0, 0, find_str(a, root, bios_paths));
	nicfit__fleet_add_bool(a, FA_PEERMEM, find_bool(a, root, peermem_paths));
	nicfit__fleet_add_bool(a, FA_GDR_KERNEL, find_bool(a, root, gdr_kernel_paths));
	nicfit__fleet_add_bool(a, FA_IOMMU, find_bool(a, root, iommu_paths));
	nicfit__fleet_add_bool(a, FA_PRIVILEGED, find_bool(a, root, privileged_paths));
	devs = nicfit__jscan_get(js, root, "devices");
	if (fl_tok_type(a, devs) == JS_ARRAY) {
		end = js->tok[devs].next;
		for (i = (uint32_t)devs + 1; i < end && !a->err; i = js->tok[i].next)
			if (fl_tok_type(a, (int)i) == JS_OBJECT)
				nicfit__fleet_read_device(a, (int)i);
	}
	read_pairs(a, root);
	read_findings(a, root);
	read_not_checked(a, root);
}

int nicfit__fleet_audit_doc(struct nicfit_fleet *fl, const char *text, size_t len,
			    const struct fl_origin *o, struct nicfit_error *err)
{
	struct fl_actx a;
	size_t attr_mark = fl->nattrs, dev_mark = fl->ndevs;
	const char *who = o->label ? o->label : o->fallback;
	long line, col;
	int rc, root = 0;
	uint32_t schema, host;
	char name[300];

	memset(&a, 0, sizeof(a));
	a.fl = fl;
	a.js = &fl->js;
	a.text = text;
	fl->ndocs++;
	rc = o->tokenized ? 0 : nicfit__jscan_parse(&fl->js, text, len);
	if (rc == -2)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	if (rc) {
		nicfit__fleet_position(o, text, fl->js.err_off, &line, &col);
		nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, who, o->input, line, col,
				      "%s%s%s: %s", who ? "host " : "", who ? who : "",
				      who ? ": malformed audit document"
					  : "malformed JSON document",
				      fl->js.err_msg);
		return 0;
	}
	nicfit__fleet_position(o, text, 0, &line, &col);
	if (!who && fl_tok_type(&a, root) == JS_OBJECT) {
		/* name the host in messages even when the document will not do */
		uint32_t h = find_str(&a, root, host_paths);

		if (h) {
			snprintf(name, sizeof(name), "%s", fl_str(&fl->st, h));
			who = name;
		}
	}
	if (fl_tok_type(&a, root) != JS_OBJECT) {
		nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, who, o->input, line, col,
				      "%s%s%sa JSON value that is not an audit (not an object)",
				      who ? "host " : "", who ? who : "", who ? ": " : "");
		return 0;
	}
	schema = nicfit__fleet_get_sid(&a, root, "schema");
	if (!schema && !o->nested && fl_tok_type(&a, nicfit__jscan_get(&fl->js, root, "plays")) == JS_ARRAY)
		return ansible_bundle(fl, &a, root, o, 0, err);
	if (!schema && !o->nested &&
	    fl_tok_type(&a, nicfit__jscan_get(&fl->js, root, "_event")) == JS_STRING)
		return ansible_bundle(fl, &a, root, o, 1, err);
	if (wrong_schema(&a, o, root, who, line, col))
		return 0;
	if (len > fl->lim.max_doc_bytes) {
		/* a plain audit whose schema is not its first member: bound here */
		nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, who, o->input, line, col,
				      "%s%s%sdocument larger than %zu MiB (the limit); skipped",
				      who ? "host " : "", who ? who : "", who ? ": " : "",
				      fl->lim.max_doc_bytes >> 20);
		return 0;
	}

	host = find_str(&a, root, host_paths);
	a.h.reported = host;
	if (host) {
		/* the name as reported, shown as it is only when it is plain text */
		snprintf(name, sizeof(name), "%s", fl_str(&fl->st, host));
		nicfit__fleet_sanitize(name);
		if (strcmp(name, fl_str(&fl->st, host)))
			a.h.reported = nicfit__fleet_intern0(&fl->st, name);
		if (!a.h.reported)
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	host_name(o, host ? fl_str(&fl->st, host) : NULL, line, name, sizeof(name));
	a.h.name = nicfit__fleet_intern0(&fl->st, name);
	a.h.input = nicfit__fleet_intern0(&fl->st, o->input);
	a.h.line = line;
	a.h.product = find_str(&a, root, product_paths);
	read_host(&a, root);
	if (!a.err && nicfit__fleet_sort_devs(fl, dev_mark, fl->ndevs - dev_mark))
		a.err = NICFIT_E_NOMEM;
	if (!a.err) {
		a.h.sig = nicfit__fleet_signature(fl, a.h.product, find_str(&a, root, vendor_paths),
						  dev_mark, fl->ndevs - dev_mark);
		if (!a.h.sig)
			a.err = NICFIT_E_NOMEM;
	}
	if (a.err || !a.h.name || !a.h.input) {
		fl->nattrs = attr_mark;
		fl->ndevs = dev_mark;
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	a.h.group = -1;
	rc = nicfit__fleet_host_commit(fl, &a.h, attr_mark, dev_mark, o->input, line, err);
	if (rc) {
		fl->nattrs = attr_mark;
		fl->ndevs = dev_mark;
	}
	return rc;
}
