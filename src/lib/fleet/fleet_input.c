/*
 * fleet_input.c - cutting audit documents out of text: the splitter that
 * every destination feeds (the plain stream, a host's labelled lines, an
 * Ansible result's stdout) and the hand-off of each whole document to
 * the fleet's reader (fl->read_doc: fleet_audit.c).
 *
 * A splitter tracks JSON nesting outside strings to find where a document
 * ends; it does not parse. Each piece it is fed keeps its input line and
 * column (a fragment), so that an offset in the reassembled document maps
 * back to the capture (nicfit__fleet_position). Which text goes to which
 * splitter is fleet_stream.c's business. fleet_audit.c feeds an Ansible
 * host's stdout back here: see fleet_int.h on that one recursion.
 */
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "fleet/fleet_int.h"

/* ---- splitter -------------------------------------------------------------------- */

void nicfit__fleet_split_init(struct fl_split *sp, size_t max)
{
	memset(sp, 0, sizeof(*sp));
	nicfit_buf_init(&sp->doc, max);
	sp->max = max;
}

void nicfit__fleet_split_reset(struct nicfit_fleet *fl, struct fl_split *sp)
{
	fl->open_bytes -= sp->doc.len <= fl->open_bytes ? sp->doc.len : fl->open_bytes;
	/*
	 * A host's splitter usually sees one document: free its buffers, or
	 * 10,000 idle hosts would hold 10,000 documents' worth of memory.
	 */
	if (!sp->keep || sp->doc.cap > ((size_t)1 << 20)) {
		nicfit_buf_release(&sp->doc);
		free(sp->frags);
		sp->frags = NULL;
		sp->cap_frags = 0;
	} else {
		nicfit_buf_reset(&sp->doc);
	}
	sp->nfrags = 0;
	sp->depth = 0;
	sp->in_str = sp->esc = 0;
	sp->started = 0;
	sp->overflow = 0;
	sp->is_audit = 0;
}

void nicfit__fleet_split_release(struct nicfit_fleet *fl, struct fl_split *sp)
{
	nicfit__fleet_split_reset(fl, sp);
	nicfit_buf_release(&sp->doc);
	free(sp->frags);
	sp->frags = NULL;
	sp->cap_frags = 0;
}

static void origin(struct nicfit_fleet *fl, const struct fl_dest *d, struct fl_origin *o)
{
	struct fl_input *in = &fl->in;

	memset(o, 0, sizeof(*o));
	o->input = in->name;
	o->label = d->label;
	o->kind = d->kind;
	o->fallback = in->ndocs == 0 ? in->fallback : NULL;
	o->nested = d->nested;
	in->ndocs++;
}

static int doc_done(struct nicfit_fleet *fl, struct fl_split *sp, const struct fl_dest *d,
		    struct nicfit_error *err)
{
	struct fl_input *in = &fl->in;
	struct fl_origin o;
	int rc = 0;

	origin(fl, d, &o);
	o.frags = sp->frags;
	o.nfrags = sp->nfrags;
	if (sp->overflow) {
		fl->ndocs++;
		nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, d->label, in->name,
				      sp->nfrags ? sp->frags[0].line : in->line, 0,
				      "%s%s%sdocument larger than %zu MiB (the limit); skipped",
				      d->label ? "host " : "", d->label ? d->label : "",
				      d->label ? ": " : "", FL_SPLIT_MAX(sp) >> 20);
	} else if (d->status) {
		fl->ndocs++;
		nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, d->label, in->name,
				      sp->nfrags ? sp->frags[0].line : in->line, 0,
				      "host %s: Ansible reports %s and no audit",
				      d->label ? d->label : "?", d->status);
	} else {
		rc = fl->read_doc(fl, sp->doc.data, sp->doc.len, &o, err);
	}
	nicfit__fleet_split_reset(fl, sp);
	return rc;
}

/*
 * The common case, a whole compact document on one line: tokenize it where
 * it lies, without the splitter's pass and copy. Returns the bytes used, 0
 * when p[0..n) does not start with a whole document (the splitter then
 * takes it, and reports any error with its position).
 */
size_t nicfit__fleet_whole_doc(struct nicfit_fleet *fl, const struct fl_dest *d, const char *p,
			       size_t n, long line, long col, int *rc, struct nicfit_error *err)
{
	struct fl_origin o;
	struct fl_frag f;
	size_t used;

	*rc = 0;
	if (!n || p[0] != '{' || n > fl->lim.max_doc_bytes || nicfit__jscan_parse_prefix(&fl->js, p, n, &used))
		return 0;
	origin(fl, d, &o);
	f.off = 0;
	f.line = line;
	f.col = col;
	o.frags = &f;
	o.nfrags = 1;
	o.tokenized = 1;
	*rc = fl->read_doc(fl, p, used, &o, err);
	return used;
}

static int add_frag(struct fl_split *sp, long line, long col)
{
	struct fl_frag f;

	f.off = sp->doc.len;
	f.line = line;
	f.col = col;
	if (sp->nfrags && sp->frags[sp->nfrags - 1].off == f.off) {
		sp->frags[sp->nfrags - 1] = f;
		return 0;
	}
	if (NICFIT_ALLOC_GROW(sp->frags, sp->nfrags + 1, sp->cap_frags))
		return NICFIT_E_NOMEM;
	sp->frags[sp->nfrags++] = f;
	return 0;
}

/*
 * Whether the document begun in sp opens with a "schema" member: then it
 * is an audit (an Ansible bundle has no schema), bound by audit_max.
 */
static int opens_with_schema(const struct fl_split *sp, const char *p, size_t n)
{
	char head[16];
	size_t k = 0, i;

	for (i = 0; i < sp->doc.len && k < sizeof(head); i++)
		head[k++] = sp->doc.data[i];
	for (i = 0; i < n && k < sizeof(head); i++)
		head[k++] = p[i];
	for (i = 0; i < k && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' ||
			      head[i] == '\n'); i++)
		;
	if (i >= k || head[i++] != '{')
		return 0;
	while (i < k && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
		i++;
	return k - i >= 8 && !memcmp(head + i, "\"schema\"", 8);
}

static int append(struct nicfit_fleet *fl, struct fl_split *sp, const char *p, size_t n,
		  struct nicfit_error *err)
{
	if (sp->overflow)
		return 0;
	/*
	 * The plain stream takes documents up to the bundle limit, since an
	 * Ansible bundle holds many hosts' audits; an audit alone is bound by
	 * --max-doc-mb as soon as it shows it is one, before it is buffered.
	 */
	if (sp->audit_max && !sp->is_audit && sp->max > sp->audit_max &&
	    sp->doc.len + n > sp->audit_max && opens_with_schema(sp, p, n))
		sp->is_audit = 1;
	if (sp->doc.len + n > FL_SPLIT_MAX(sp)) {
		sp->overflow = 1;
		fl->open_bytes -= sp->doc.len <= fl->open_bytes ? sp->doc.len : fl->open_bytes;
		nicfit_buf_release(&sp->doc);
		return 0;
	}
	nicfit_buf_add(&sp->doc, p, n);
	if (nicfit_buf_error(&sp->doc))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	fl->open_bytes += n;
	if (fl->open_bytes > fl->lim.max_open_bytes)
		return nicfit_error_at(err, NICFIT_E_LIMIT, fl->in.name, fl->in.line, 0,
				       "more than %zu MiB of unfinished documents at once "
				       "(too many hosts interleaved, or documents never closed)",
				       fl->lim.max_open_bytes >> 20);
	return 0;
}

/* Byte classes for the scan: 0 plain, 1 quote, 2 backslash, 3 open, 4 close. */
static const unsigned char cls[256] = {
	['"'] = 1, ['\\'] = 2, ['{'] = 3, ['['] = 3, ['}'] = 4, [']'] = 4,
};

/*
 * Track nesting through p[0..n): returns how many bytes belong to the
 * document, with *done set when its last bracket was among them.
 */
static size_t scan(struct fl_split *sp, const unsigned char *p, size_t n, int *done)
{
	size_t i = 0;

	*done = 0;
	while (i < n) {
		if (sp->in_str) {
			if (sp->esc) {
				sp->esc = 0;
				i++;
				continue;
			}
			while (i < n && cls[p[i]] != 1 && cls[p[i]] != 2)
				i++;
			if (i == n)
				break;
			if (p[i] == '"')
				sp->in_str = 0;
			else
				sp->esc = 1;
			i++;
			continue;
		}
		while (i < n && !cls[p[i]])
			i++;
		if (i == n)
			break;
		switch (cls[p[i++]]) {
		case 1:
			sp->in_str = 1;
			break;
		case 3:
			sp->depth++;
			break;
		case 4:
			if (--sp->depth <= 0) {
				*done = 1;
				return i;
			}
			break;
		default:
			break;
		}
	}
	return i;
}

int nicfit__fleet_split_feed(struct nicfit_fleet *fl, struct fl_split *sp, const struct fl_dest *d,
			     const char *p, size_t n, long line, long col, const char **garbage,
			     struct nicfit_error *err)
{
	int rc;

	while (n) {
		size_t i;
		int done = 0;

		if (!sp->started) {
			while (n && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
				p++;
				n--;
				col++;
			}
			if (!n)
				break;
			if (*p != '{' && *p != '[') {
				if (garbage && !*garbage)
					*garbage = p;
				return 0;
			}
			sp->started = 1;
		}
		if (add_frag(sp, line, col))
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		i = scan(sp, (const unsigned char *)p, n, &done);
		rc = append(fl, sp, p, i, err);
		if (rc)
			return rc;
		if (!done)
			break;
		rc = doc_done(fl, sp, d, err);
		if (rc)
			return rc;
		p += i;
		n -= i;
		col += (long)i;
	}
	return 0;
}

/* ---- whole texts: an input that ends, a host's stdout ---------------------------------- */

void nicfit__fleet_truncated(struct nicfit_fleet *fl, const char *label, struct fl_split *sp)
{
	struct fl_input *in = &fl->in;

	fl->ndocs++;
	nicfit__fleet_problem(
		fl, NICFIT_FLEET_UNREADABLE, label, in->name,
		sp->nfrags ? sp->frags[0].line : in->line, sp->nfrags ? sp->frags[0].col : 0,
		"%s%s%saudit document truncated: the input ends inside it (%zu bytes read)",
		label ? "host " : "", label ? label : "", label ? ": " : "",
		sp->overflow ? FL_SPLIT_MAX(sp) : sp->doc.len);
}

/*
 * One host's text from inside another document (Ansible's stdout): its
 * own splitter, the host as label, positions relative to the bundle.
 */
int nicfit__fleet_feed_labelled(struct nicfit_fleet *fl, const char *label, enum fl_label_kind kind,
				const char *text, size_t len, long line, struct nicfit_error *err)
{
	struct fl_split sp;
	struct fl_dest d;
	const char *garbage = NULL;
	size_t before = fl->in.ndocs;
	int rc;

	nicfit__fleet_split_init(&sp, fl->lim.max_doc_bytes);
	memset(&d, 0, sizeof(d));
	d.label = label;
	d.kind = kind;
	d.nested = 1;
	rc = nicfit__fleet_split_feed(fl, &sp, &d, text, len, line, 0, &garbage, err);
	if (!rc && sp.started)
		nicfit__fleet_truncated(fl, label, &sp);
	else if (!rc && fl->in.ndocs == before)
		nicfit__fleet_problem(fl, NICFIT_FLEET_UNREADABLE, label, fl->in.name, line, 0,
				      "host %s: no audit document in its stdout", label);
	nicfit__fleet_split_release(fl, &sp);
	return rc;
}

/* ---- positions ----------------------------------------------------------------------- */

void nicfit__fleet_position(const struct fl_origin *o, const char *text, size_t off, long *line,
			    long *col)
{
	size_t lo = 0, hi = o->nfrags, k;
	const struct fl_frag *f;
	const char *p, *nl;
	long l, c;

	*line = *col = 0;
	if (!o->nfrags)
		return;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (o->frags[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	f = &o->frags[lo];
	l = f->line;
	c = f->col + (long)(off - f->off);
	p = text + f->off;
	for (k = f->off; k < off; k++, p++) {
		if (*p == '\n') {
			l++;
			nl = p;
			c = (long)(text + off - nl);
		}
	}
	*line = l;
	*col = c;
}
