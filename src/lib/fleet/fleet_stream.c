/*
 * fleet_stream.c - find the audit documents in what pdsh, clush, srun and
 * Ansible print: one input stream, cut into lines, each line sent to the
 * splitter (fleet_input.c) of the document it belongs to.
 *
 * Each line is, in this order of precedence:
 *   - more of a plain JSON document already begun;
 *   - a "-----" separator or the host list under it (clush -b, dshbak -c),
 *     or an Ansible ad-hoc header "host | CHANGED | rc=0 >>", after which
 *     lines belong to those hosts until the next header;
 *   - the start of a plain JSON document ('{' or '[');
 *   - "label: text" (pdsh, clush, `srun --label`): text belongs to label;
 *   - blank, or anything else (ignored, and reported).
 * Labelled text is joined without the newlines, because srun and pdsh may
 * cut a long line into several labelled pieces, and JSON never needs a
 * newline between tokens. When the stream ends, every host that printed no
 * whole document becomes an input problem. Files and directories are
 * fleet_files.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"

#define MAX_LABEL 255

/* ---- text that is not a document ----------------------------------------------------------- */

/*
 * Text that is neither JSON nor a host line. The first few are kept and
 * reported when the input ends: in a file that holds one host's output and
 * no document, they are that host's error message instead.
 */
static void note_ignored(struct nicfit_fleet *fl, long col, const char *s, size_t n, int after)
{
	struct fl_input *in = &fl->in;
	size_t k = in->nignored++;

	if (k >= sizeof(in->ign) / sizeof(in->ign[0]))
		return;
	in->ign[k].line = in->line;
	in->ign[k].col = col;
	in->ign[k].after_doc = after;
	snprintf(in->ign[k].text, sizeof(in->ign[k].text), "%.*s", (int)(n > 60 ? 60 : n), s);
	nicfit__fleet_sanitize(in->ign[k].text);
}

static void flush_ignored(struct nicfit_fleet *fl)
{
	struct fl_input *in = &fl->in;
	size_t k, kept = sizeof(in->ign) / sizeof(in->ign[0]);

	for (k = 0; k < in->nignored && k < kept; k++)
		nicfit__fleet_problem(
			fl, NICFIT_FLEET_IGNORED, NULL, in->name, in->ign[k].line, in->ign[k].col,
			in->ign[k].after_doc ? "text after a JSON document ignored: '%s'"
					     : "line ignored: neither JSON nor 'host: text': '%s'",
			in->ign[k].text);
	if (in->nignored > kept) {
		fl->nignored += in->nignored - kept;
		fl->problems_total += in->nignored - kept;
	}
}

/* ---- labels -------------------------------------------------------------------------------- */

static int labels_rehash(struct fl_input *in, size_t nslots)
{
	uint32_t *s = calloc(nslots, sizeof(*s));
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < in->nlabels; i++) {
		const char *nm = in->labels[i]->name;
		size_t j = nicfit__fleet_hash(nm, strlen(nm)) & (nslots - 1);

		while (s[j])
			j = (j + 1) & (nslots - 1);
		s[j] = (uint32_t)i + 1;
	}
	free(in->label_slots);
	in->label_slots = s;
	in->nlabel_slots = nslots;
	return 0;
}

static struct fl_label *label_get(struct nicfit_fleet *fl, const char *name, size_t n,
				  enum fl_label_kind kind, struct nicfit_error *err)
{
	struct fl_input *in = &fl->in;
	struct fl_label *l;
	size_t j;

	if (!in->nlabel_slots && labels_rehash(in, 256))
		goto nomem;
	j = nicfit__fleet_hash(name, n) & (in->nlabel_slots - 1);
	while (in->label_slots[j]) {
		l = in->labels[in->label_slots[j] - 1];
		if (strlen(l->name) == n && !memcmp(l->name, name, n))
			return l;
		j = (j + 1) & (in->nlabel_slots - 1);
	}
	if (in->nlabels >= fl->lim.max_hosts) {
		nicfit_error_at(err, NICFIT_E_LIMIT, in->name, in->line, 0,
				"more than %zu hosts in one input (the fleet's limit)",
				fl->lim.max_hosts);
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		goto nomem;
	l->name = malloc(n + 1);
	if (!l->name) {
		free(l);
		goto nomem;
	}
	memcpy(l->name, name, n);
	l->name[n] = '\0';
	l->kind = kind;
	l->first_line = in->line;
	nicfit__fleet_split_init(&l->sp, fl->lim.max_doc_bytes);
	if (NICFIT_ALLOC_GROW(in->labels, in->nlabels + 1, in->cap_labels)) {
		free(l->name);
		free(l);
		goto nomem;
	}
	in->labels[in->nlabels++] = l;
	in->label_slots[j] = (uint32_t)in->nlabels;
	if (in->nlabels * 2 > in->nlabel_slots && labels_rehash(in, in->nlabel_slots * 2))
		goto nomem;
	return l;
nomem:
	nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	return NULL;
}

static void label_note(struct fl_label *l, const char *s, size_t n, long line)
{
	if (l->note)
		return;
	if (n > 160)
		n = 160;
	l->note = malloc(n + 1);
	if (!l->note)
		return;
	memcpy(l->note, s, n);
	l->note[n] = '\0';
	nicfit__fleet_sanitize(l->note);
	l->note_line = line;
}

static int label_feed(struct nicfit_fleet *fl, struct fl_label *l, const char *s, size_t n,
		      long col, struct nicfit_error *err)
{
	struct fl_dest d;
	const char *garbage = NULL;
	size_t before = fl->in.ndocs;
	int rc;

	memset(&d, 0, sizeof(d));
	d.label = l->name;
	d.kind = l->kind;
	d.status = l->in_result ? l->status : NULL;
	if (!l->sp.started && !l->in_result) {
		size_t used = nicfit__fleet_whole_doc(fl, &d, s, n, fl->in.line, col, &rc, err);

		if (rc)
			return rc;
		s += used;
		n -= used;
		col += (long)used;
	}
	rc = nicfit__fleet_split_feed(fl, &l->sp, &d, s, n, fl->in.line, col, &garbage, err);
	l->ndocs += fl->in.ndocs - before;
	if (l->in_result && !l->sp.started)
		l->in_result = 0;
	if (garbage && l->ndocs)
		/* more text after this host's document: say so, as for a plain stream */
		note_ignored(fl, col + (long)(garbage - s), garbage, n - (size_t)(garbage - s), 1);
	else if (garbage)
		label_note(l, garbage, n - (size_t)(garbage - s), fl->in.line);
	return rc;
}

/* ---- line classification ------------------------------------------------------------------- */

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

static int is_dashes(const char *s, size_t n)
{
	size_t i, d = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '-')
			d++;
		else if (s[i] != ' ' && s[i] != '\t')
			return 0;
	}
	return d >= 3;
}

static int label_char(int c)
{
	return isalnum(c) || c == '.' || c == '_' || c == '-' || c == '@' || c == '+';
}

/* "label: rest" -> label length and where rest starts; 0 when not a label line. */
static size_t parse_label(const char *s, size_t n, size_t *rest)
{
	size_t i;

	if (!n || !isalnum((unsigned char)s[0]))
		return 0;
	for (i = 0; i < n && i <= MAX_LABEL && label_char((unsigned char)s[i]); i++)
		;
	if (i > MAX_LABEL || i >= n || s[i] != ':')
		return 0;
	if (i + 1 == n) {
		*rest = n;
		return i;
	}
	if (s[i + 1] != ' ')
		return 0;
	*rest = i + 2;
	return i;
}

static int all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return n > 0;
}

struct block_ctx {
	struct nicfit_fleet *fl;
	struct nicfit_error *err;
	int rc;
};

static int block_add(void *ctx, const char *name)
{
	struct block_ctx *b = ctx;
	struct fl_input *in = &b->fl->in;
	struct fl_label *l = label_get(b->fl, name, strlen(name), FL_LABEL_HOST, b->err);

	if (!l || NICFIT_ALLOC_GROW(in->block, in->nblock + 1, in->cap_block)) {
		if (l)
			nicfit_error_set(b->err, NICFIT_E_NOMEM, "out of memory");
		b->rc = b->err->code ? b->err->code : NICFIT_E_NOMEM;
		return -1;
	}
	in->block[in->nblock++] = l;
	return 0;
}

/* The host list of a clush -b / dshbak -c header: "node[1-3],x (4)". */
static int block_header(struct nicfit_fleet *fl, const char *s, size_t n,
			struct nicfit_error *err)
{
	struct nicfit_error lerr;
	struct block_ctx b;
	char list[4096];
	size_t k;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n && s[n - 1] == ')') {
		k = n;
		while (k && s[k - 1] != '(')
			k--;
		if (k && all_digits(s + k, n - k - 1)) {
			n = k - 1;
			while (n && s[n - 1] == ' ')
				n--;
		}
	}
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	if (!n || n >= sizeof(list) || memchr(s, ' ', n))
		return 1;
	memcpy(list, s, n);
	list[n] = '\0';
	fl->in.nblock = 0;
	b.fl = fl;
	b.err = err;
	b.rc = 0;
	nicfit_error_clear(&lerr);
	if (nicfit_hostlist_expand(list, fl->lim.max_hosts, block_add, &b, &lerr)) {
		if (b.rc)
			return b.rc;
		return 1; /* not a host list: not a header */
	}
	return 0;
}

/*
 * Ansible ad-hoc output: "host | CHANGED | rc=0 >>" (stdout follows) or
 * "host | UNREACHABLE! => {" (Ansible's own JSON result follows).
 * Returns 1 and fills name/status/is_result when s is such a header.
 */
static int ansible_header(const char *s, size_t n, size_t *name_len, char *status, size_t ns,
			  int *is_result)
{
	const char *bar, *st, *st_end;
	size_t i;

	for (i = 0; i < n && !isspace((unsigned char)s[i]); i++)
		;
	if (!i || i + 3 > n || memcmp(s + i, " | ", 3))
		return 0;
	bar = s + i;
	st = bar + 3;
	st_end = st;
	while (st_end < s + n && (isupper((unsigned char)*st_end) || *st_end == '!'))
		st_end++;
	if (st_end == st)
		return 0;
	if (n >= 3 && !memcmp(s + n - 3, " >>", 3)) {
		*is_result = 0;
	} else if (n >= 4 && !memcmp(s + n - 4, "=> {", 4)) {
		*is_result = 1;
	} else {
		return 0;
	}
	*name_len = i;
	snprintf(status, ns, "%.*s", (int)(st_end - st), st);
	return 1;
}

static int feed_plain(struct nicfit_fleet *fl, const char *s, size_t n, long col,
		      struct nicfit_error *err)
{
	struct fl_dest d;
	const char *garbage = NULL;
	int rc;

	memset(&d, 0, sizeof(d));
	if (!fl->in.plain.started) {
		size_t used = nicfit__fleet_whole_doc(fl, &d, s, n, fl->in.line, col, &rc, err);

		if (rc)
			return rc;
		s += used;
		n -= used;
		col += (long)used;
	}
	rc = nicfit__fleet_split_feed(fl, &fl->in.plain, &d, s, n, fl->in.line, col, &garbage, err);
	if (!rc && fl->in.plain.started)
		rc = nicfit__fleet_split_feed(fl, &fl->in.plain, &d, "\n", 1, fl->in.line,
					      col + (long)n, NULL, err);
	if (garbage)
		note_ignored(fl, col + (long)(garbage - s), garbage, n - (size_t)(garbage - s), 1);
	return rc;
}

static void ignore_line(struct nicfit_fleet *fl, const char *s, size_t n)
{
	note_ignored(fl, 1, s, n, 0);
}

/* "pdsh@admin: gpu07: ssh exited with exit code 255" -> a note for gpu07 */
static int diagnostic(struct nicfit_fleet *fl, const char *s, size_t n,
		      struct nicfit_error *err)
{
	size_t rest = 0, ln = parse_label(s, n, &rest);
	struct fl_label *l;

	if (!ln)
		return 0;
	l = label_get(fl, s, ln, FL_LABEL_HOST, err);
	if (!l)
		return err->code;
	if (!l->ndocs && !l->sp.started)
		label_note(l, s + rest, n - rest, fl->in.line);
	return 0;
}

static int process_line(struct nicfit_fleet *fl, const char *s, size_t n,
			struct nicfit_error *err)
{
	struct fl_input *in = &fl->in;
	size_t rest = 0, ln, i, k;
	char status[32];
	int is_result, rc;

	if (n && s[n - 1] == '\r')
		n--;
	if (in->line == 1 && n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
		s += 3; /* a byte-order mark some editors put first */
		n -= 3;
	}
	if (!in->first_line && !is_blank(s, n)) {
		snprintf(in->first, sizeof(in->first), "%.*s", (int)(n > 60 ? 60 : n), s);
		nicfit__fleet_sanitize(in->first);
		in->first_line = in->line;
	}
	if (in->plain.started)
		return feed_plain(fl, s, n, 1, err);
	if (is_dashes(s, n)) {
		in->block_state = in->block_state == 2 ? 3 : 1;
		return 0;
	}
	if (in->block_state == 1) {
		rc = block_header(fl, s, n, err);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			in->block_state = 2;
			return 0;
		}
		in->block_state = 0;
	}
	if (in->block_state == 2)
		in->block_state = 0;
	if (ansible_header(s, n, &ln, status, sizeof(status), &is_result)) {
		struct fl_label *l = label_get(fl, s, ln, FL_LABEL_ANSIBLE, err);

		if (!l)
			return err->code;
		in->nblock = 0;
		if (NICFIT_ALLOC_GROW(in->block, in->nblock + 1, in->cap_block))
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		in->block[in->nblock++] = l;
		in->block_state = 3;
		if (is_result) {
			/* Ansible's own result object follows: read to its end, report it */
			nicfit__fleet_split_reset(fl, &l->sp);
			l->in_result = 1;
			snprintf(l->status, sizeof(l->status), "%s", status);
			return label_feed(fl, l, "{", 1, (long)n, err);
		}
		return 0;
	}
	if (in->block_state == 3) {
		for (k = 0; k < in->nblock; k++) {
			rc = label_feed(fl, in->block[k], s, n, 1, err);
			if (rc)
				return rc;
		}
		return 0;
	}
	for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (i < n && (s[i] == '{' || s[i] == '['))
		return feed_plain(fl, s + i, n - i, (long)i + 1, err);
	ln = parse_label(s, n, &rest);
	if (ln) {
		struct fl_label *l;

		if ((ln > 5 && !memcmp(s, "pdsh@", 5)) || (ln == 5 && !memcmp(s, "clush", 5)))
			return diagnostic(fl, s + rest, n - rest, err);
		l = label_get(fl, s, ln, all_digits(s, ln) ? FL_LABEL_TASK : FL_LABEL_HOST, err);
		if (!l)
			return err->code;
		return label_feed(fl, l, s + rest, n - rest, (long)rest + 1, err);
	}
	if (is_blank(s, n))
		return 0;
	ignore_line(fl, s, n);
	return 0;
}

/* ---- streams ------------------------------------------------------------------------------- */

static void labels_free(struct nicfit_fleet *fl)
{
	struct fl_input *in = &fl->in;
	size_t i;

	for (i = 0; i < in->nlabels; i++) {
		nicfit__fleet_split_release(fl, &in->labels[i]->sp);
		free(in->labels[i]->name);
		free(in->labels[i]->note);
		free(in->labels[i]);
	}
	free(in->labels);
	free(in->label_slots);
	free(in->block);
	in->labels = NULL;
	in->label_slots = NULL;
	in->block = NULL;
	in->nlabels = in->cap_labels = in->nlabel_slots = 0;
	in->nblock = in->cap_block = 0;
}

void nicfit__fleet_input_release(struct nicfit_fleet *fl)
{
	struct fl_input *in = &fl->in;

	labels_free(fl);
	nicfit__fleet_split_release(fl, &in->plain);
	nicfit_buf_release(&in->pending);
	free(in->name);
	free(in->fallback);
	memset(in, 0, sizeof(*in));
}

static char *dupstr(const char *s)
{
	size_t n = strlen(s);
	char *p = malloc(n + 1);

	if (p)
		memcpy(p, s, n + 1);
	return p;
}

int nicfit_fleet_begin(struct nicfit_fleet *fl, const char *name, const char *fallback_host,
		       struct nicfit_error *err)
{
	struct fl_input *in = &fl->in;

	if (in->open)
		return nicfit_error_set(err, NICFIT_E_USAGE, "fleet: an input is already open");
	nicfit__fleet_input_release(fl);
	in->name = dupstr(!name || !strcmp(name, "-") ? "<stdin>" : name);
	in->fallback = fallback_host ? dupstr(fallback_host) : NULL;
	if (!in->name || (fallback_host && !in->fallback))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__fleet_sanitize(in->name);
	if (in->fallback)
		nicfit__fleet_sanitize(in->fallback);
	in->open = 1;
	in->line = 1;
	in->long_col = 0;
	nicfit__fleet_split_init(&in->plain, fl->lim.max_bundle_bytes);
	in->plain.audit_max = fl->lim.max_doc_bytes;
	in->plain.keep = 1;
	nicfit_buf_init(&in->pending, fl->lim.max_bundle_bytes + 4096);
	fl->analyzed = 0;
	return 0;
}

/*
 * Whether line, the start of a line, opens a plain document, or is more
 * of one: text that goes to the plain splitter whole (process_line).
 */
static int plain_line(const struct fl_input *in, const char *s, size_t n)
{
	size_t i;

	if (in->plain.started)
		return 1;
	for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	return i < n && (s[i] == '{' || s[i] == '[') && in->block_state != 3 &&
	       in->block_state != 1;
}

/*
 * A line longer than one audit may be, that belongs to the plain
 * splitter: fed to it in pieces as it comes, so that an audit over
 * --max-doc-mb is refused without holding the whole line (the splitter
 * bounds the document; the line buffer would otherwise hold all of it).
 * end: the newline came, finish the line as process_line does.
 */
static int feed_long_piece(struct nicfit_fleet *fl, const char *s, size_t n, int end,
			   struct nicfit_error *err)
{
	struct fl_input *in = &fl->in;
	const char *garbage = NULL;
	struct fl_dest d;
	long col = in->long_col ? in->long_col : 1;
	int rc;

	memset(&d, 0, sizeof(d));
	rc = nicfit__fleet_split_feed(fl, &in->plain, &d, s, n, in->line, col, &garbage, err);
	if (!rc && end && in->plain.started)
		rc = nicfit__fleet_split_feed(fl, &in->plain, &d, "\n", 1, in->line,
					      col + (long)n, NULL, err);
	if (garbage)
		note_ignored(fl, col + (long)(garbage - s), garbage, n - (size_t)(garbage - s), 1);
	in->long_col = end ? 0 : col + (long)n;
	return rc;
}

int nicfit_fleet_feed(struct nicfit_fleet *fl, const void *data, size_t len,
		      struct nicfit_error *err)
{
	struct fl_input *in = &fl->in;
	const char *p = data, *end = p + len, *nl;
	int rc;

	if (!in->open)
		return nicfit_error_set(err, NICFIT_E_USAGE, "fleet: feed without begin");
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (in->long_col) {
			size_t k = (size_t)((nl ? nl : end) - p);

			rc = feed_long_piece(fl, p, k, nl != NULL, err);
			if (rc)
				return rc;
			if (!nl)
				break;
			in->line++;
			p = nl + 1;
			continue;
		}
		if (!nl) {
			nicfit_buf_add(&in->pending, p, (size_t)(end - p));
			if (in->pending.len > fl->lim.max_doc_bytes &&
			    plain_line(in, in->pending.data, in->pending.len)) {
				rc = feed_long_piece(fl, in->pending.data, in->pending.len, 0, err);
				nicfit_buf_reset(&in->pending);
				if (rc)
					return rc;
				break;
			}
			if (nicfit_buf_error(&in->pending) == NICFIT_E_LIMIT)
				return nicfit_error_at(err, NICFIT_E_LIMIT, in->name, in->line, 0,
						       "a line longer than %zu MiB",
						       fl->lim.max_bundle_bytes >> 20);
			if (nicfit_buf_error(&in->pending))
				return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
			break;
		}
		if (in->pending.len) {
			nicfit_buf_add(&in->pending, p, (size_t)(nl - p));
			if (nicfit_buf_error(&in->pending))
				return nicfit_error_at(err, nicfit_buf_error(&in->pending),
						       in->name, in->line, 0,
						       "a line longer than %zu MiB",
						       fl->lim.max_bundle_bytes >> 20);
			rc = process_line(fl, in->pending.data, in->pending.len, err);
			nicfit_buf_reset(&in->pending);
		} else {
			rc = process_line(fl, p, (size_t)(nl - p), err);
		}
		if (rc)
			return rc;
		in->line++;
		p = nl + 1;
	}
	return 0;
}

int nicfit_fleet_end(struct nicfit_fleet *fl, struct nicfit_error *err)
{
	struct fl_input *in = &fl->in;
	size_t i;
	int rc = 0;

	if (!in->open)
		return nicfit_error_set(err, NICFIT_E_USAGE, "fleet: end without begin");
	if (in->pending.len) {
		rc = process_line(fl, in->pending.data, in->pending.len, err);
		nicfit_buf_reset(&in->pending);
	}
	in->long_col = 0;
	if (!rc && !in->ndocs && in->fallback) {
		/*
		 * A file that holds one host's output (srun --output=%N.json) and
		 * no whole document: that host's audit failed, whatever the lines
		 * looked like ("nicfit: cannot ..." is not a host called nicfit).
		 */
		if (in->plain.started) {
			nicfit__fleet_truncated(fl, in->fallback, &in->plain);
		} else {
			fl->ndocs++;
			if (in->first_line)
				nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, in->fallback,
						      in->name, in->first_line, 0,
						      "host %s: no audit document; it printed '%s'",
						      in->fallback, in->first);
			else
				nicfit__fleet_problem(
					fl, NICFIT_FLEET_UNREADABLE, in->fallback, in->name, 0, 0,
					"host %s: no audit document (the file is empty)",
					in->fallback);
		}
	} else if (!rc) {
		if (in->plain.started)
			nicfit__fleet_truncated(fl, NULL, &in->plain);
		for (i = 0; i < in->nlabels; i++) {
			struct fl_label *l = in->labels[i];

			if (l->sp.started) {
				nicfit__fleet_truncated(fl, l->name, &l->sp);
			} else if (!l->ndocs) {
				fl->ndocs++;
				if (l->note)
					nicfit__fleet_problem(
						fl, NICFIT_FLEET_UNREADABLE, l->name, in->name,
						l->note_line, 0,
						"host %s: no audit document; it printed '%s'",
						l->name, l->note);
				else
					nicfit__fleet_problem(
						fl, NICFIT_FLEET_UNREADABLE, l->name, in->name,
						l->first_line, 0,
						"host %s: no audit document (empty output)",
						l->name);
			}
		}
		flush_ignored(fl);
		if (!in->ndocs && !in->nlabels)
			nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, NULL, in->name, 0, 0,
					      "no audit document in this input%s",
					      in->nignored ? "" : " (it is empty)");
	}
	labels_free(fl);
	nicfit__fleet_split_release(fl, &in->plain);
	in->open = 0;
	return rc;
}
