/*
 * dump.c - the dump reader (see nicfit/dump.h): the texts it was given,
 * and the walk that hands each line to the parser whose format it has the
 * shape of. It reads no file (dump_path.c does), builds no model
 * (dump_build.c does), and holds none of the helpers the parsers share
 * (dump_text.c does), so that the parsers never call back into the walk.
 *
 * Recognition is by the shape of a line, in this order: a line of NVIDIA's
 * firmware tools (mlxfwmanager, flint q, mst status, mlxlink: dump_mlxfw.c,
 * outside an open matrix), a row of an open
 * nvidia-smi matrix, the matrix's header row, an ibv_devinfo block
 * ("hca_id:" and its indented lines, or a "port:" block pasted without
 * its "hca_id:"), an iblinkinfo header or port line, an ibdev2netdev line, a block of
 * dump_net.c (ibstat, show_gids, ip link, ethtool -i, uname -a), a line of an lspci tree, an
 * lspci function line, an indented line of the open lspci block, a GPU
 * bus-id line of nvidia-smi. Anything else (a shell prompt, `[sudo]
 * password for`, a hex dump of -x, a mail client's wrap) is counted as
 * mangled and skipped; it closes a tree or a matrix, but not an lspci
 * block, whose -x hex lines and wrapped header lines sit inside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "dump/dump_int.h"

int nicfit_dump_new(struct nicfit_dump **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return NICFIT_E_NOMEM;
	(*out)->by_bdf = calloc(1, sizeof(*(*out)->by_bdf));
	if (!(*out)->by_bdf) {
		free(*out);
		*out = NULL;
		return NICFIT_E_NOMEM;
	}
	return 0;
}

void nicfit_dump_free(struct nicfit_dump *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->ntexts; i++) {
		free(d->texts[i].name);
		free(d->texts[i].text);
	}
	free(d->texts);
	free(d->fns);
	free(d->rdma);
	free(d->cpu.cpu_sock);
	free(d->kmsg);
	nicfit__dump_xml_free(d->xml);
	free(d->net);
	free(d->iblinks);
	free(d->fwdevs);
	free(d->mst);
	free(d->links);
	if (d->by_bdf) {
		free(d->by_bdf->keys);
		free(d->by_bdf->dom);
		free(d->by_bdf->bus);
		free(d->by_bdf->slots);
	}
	free(d->by_bdf);
	free(d);
}

unsigned nicfit_dump_formats(const struct nicfit_dump *d)
{
	return d->formats;
}

/* ---- the walk ---------------------------------------------------------- */

enum walk_state { W_NONE, W_LSPCI, W_TREE, W_SMI, W_IBV, W_NET };

struct walk {
	enum walk_state st;
	struct dump_fn *cur;     /* the open lspci block */
	int header_line;         /* the line of its header (for a wrapped header) */
	char header[512];
	struct dump_tree tree;
	int q_index;             /* GPUs seen in nvidia-smi -q */
	int k_seen;              /* this listing shows drivers (-k) */
	size_t first_fn;         /* records this listing made start here */
};

/* A -k listing says "Kernel driver in use" where one is bound: no line is no driver. */
static void close_listing(struct nicfit_dump *d, struct walk *w)
{
	size_t i;

	if (w->k_seen)
		for (i = w->first_fn; i < d->nfns; i++)
			if (d->fns[i].from_block)
				d->fns[i].driver_known = 1;
	w->k_seen = 0;
	w->first_fn = d->nfns;
}

/* ibv_devinfo: an "hca_id:" line, its block's indented lines, a "port:" block without it. */
static int ibv_step(struct nicfit_dump *d, struct walk *w, const char *line, struct dump_at at)
{
	const char *s = nicfit__dump_skip_blank(line);
	int indented = s != line;

	if (!indented && !strncmp(line, "hca_id:", 7)) {
		nicfit__dump_ibv_start(d, line, at);
		w->st = W_IBV;
		w->cur = NULL;
		return 1;
	}
	if (!indented && nicfit__dump_ibstatus_start(d, line, at)) {
		w->st = W_IBV;
		w->cur = NULL;
		return 1;
	}
	if (w->st == W_IBV && indented) {
		nicfit__dump_ibv_line(d, line, at);
		return 1;
	}
	if (w->st == W_IBV)
		w->st = W_NONE;
	if (indented && !(w->st == W_LSPCI && w->cur) && nicfit__dump_ibv_orphan(d, s, at)) {
		w->st = W_IBV;
		w->cur = NULL;
		return 1;
	}
	return 0;
}

/*
 * A shell prompt, with or without a command after it: "[root@node75 ~]#",
 * "[me@h dir]$ ls", "root@host:~/dir# ibstatus". It never continues a
 * wrapped lspci header, even on the line right below one.
 */
static int shell_prompt(const char *s)
{
	const char *p = strchr(s, ']');
	size_t n = strcspn(s, " \t");

	if (*s == '[' && p && (p[1] == '#' || p[1] == '$') && (!p[2] || p[2] == ' '))
		return 1;
	return n > 1 && (s[n - 1] == '#' || s[n - 1] == '$') && memchr(s, '@', n) != NULL;
}

/* NVIDIA's firmware tools (dump_mlxfw.c), outside an open matrix: their lines end any block. */
static int mft_step(struct nicfit_dump *d, struct walk *w, const char *line, struct dump_at at)
{
	if (w->st == W_SMI || !nicfit__dump_fw_line(d, line, at))
		return 0;
	w->st = W_NONE;
	w->cur = NULL;
	return 1;
}

static void one_line(struct nicfit_dump *d, struct walk *w, char *line, struct dump_at at)
{
	const char *s = nicfit__dump_skip_blank(line);
	int indented = s != line;

	if (!*s) {
		if (w->st != W_IBV) /* ibv_devinfo puts a blank line between a device's ports */
			w->st = W_NONE;
		w->cur = NULL;
		nicfit__dump_cpu_break(d);
		return;
	}
	if (mft_step(d, w, line, at))
		return;
	if (w->st == W_SMI && nicfit__dump_smi_row(d, line, at))
		return;
	if (w->st == W_SMI)
		w->st = W_NONE;
	if (w->st != W_SMI && nicfit__dump_smi_bare_row(d, line, at)) {
		w->st = W_SMI;
		return;
	}
	if (nicfit__dump_smi_header(line)) {
		nicfit__dump_smi_start(d, line, at);
		w->st = W_SMI;
		return;
	}
	if (nicfit__dump_iblink_line(d, line, at) || ibv_step(d, w, line, at))
		return; /* iblinkinfo's lines are one each: none opens or continues a block */
	if (w->st == W_NET && nicfit__dump_net_more(d, line, at))
		return;
	if (!indented && nicfit__dump_net_start(d, line, at)) {
		w->st = W_NET;
		w->cur = NULL;
		return;
	}
	if (w->st == W_NET)
		w->st = W_NONE;
	if (!indented && (nicfit__dump_ibdev_line(d, line, at) ||
			  nicfit__dump_rdmatool_line(d, line, at) || nicfit__dump_mst_line(d, line, at)))
		return;
	if (!indented && nicfit__dump_kmsg_line(d, line, at)) {
		w->st = W_NONE;
		w->cur = NULL;
		return;
	}
	if (!(w->st == W_LSPCI && w->cur && indented) && nicfit__dump_cpu_line(d, line, at)) {
		w->st = W_NONE;
		w->cur = NULL;
		return;
	}
	if (!(w->st == W_LSPCI && line[0] == '\t') && nicfit__dump_tree_line(line)) {
		if (w->st != W_TREE)
			memset(&w->tree, 0, sizeof(w->tree));
		w->st = W_TREE;
		nicfit__dump_tree_read(d, &w->tree, line, at);
		return;
	}
	if (!indented && nicfit__dump_acs_setpci(d, line, at)) {
		w->st = W_NONE;
		w->cur = NULL;
		return;
	}
	if (!indented && nicfit__dump_lspci_header(line)) {
		if (w->st != W_LSPCI && !w->cur)
			close_listing(d, w);
		w->cur = nicfit__dump_lspci_line(d, line, at);
		w->st = W_LSPCI;
		w->header_line = at.line;
		snprintf(w->header, sizeof(w->header), "%s", line);
		return;
	}
	if (w->st == W_LSPCI && w->cur && indented) {
		if (!strncmp(s, "Kernel driver in use:", 21) || !strncmp(s, "Kernel modules:", 15))
			w->k_seen = 1;
		nicfit__dump_lspci_detail(d, w->cur, line, at);
		return;
	}
	if (!strncmp(s, "ACSCtl:", 7) && !(w->st == W_LSPCI && w->cur)) {
		nicfit__dump_acs_orphan(d, s, at);
		return;
	}
	if (nicfit__dump_smi_gpu_line(d, line, at, &w->q_index))
		return;
	/* a header the paste wrapped: its second half carries the IDs */
	if (w->st == W_LSPCI && w->cur && at.line == w->header_line + 1 && !shell_prompt(s)) {
		size_t n = strlen(w->header);

		snprintf(w->header + n, sizeof(w->header) - n, " %s", s);
		w->cur = nicfit__dump_lspci_line(d, w->header, (struct dump_at){ at.text,
								    w->header_line });
		d->nmangled++;
		return;
	}
	nicfit__dump_net_hint(d, s, at);
	d->nmangled++;
	if (w->st != W_LSPCI)
		w->st = W_NONE;
}

/*
 * Walk one text line by line. Lines are copied, so that parsers read a
 * NUL-ended string (a NUL inside a line ends it there), and cut at 4 KiB.
 */
static int walk_text(struct nicfit_dump *d, int ti)
{
	const struct dump_text *t = &d->texts[ti];
	struct walk w;
	char line[4096];
	size_t pos = 0;
	int ln = 0;

	memset(&w, 0, sizeof(w));
	w.first_fn = d->nfns;
	nicfit__dump_cpu_break(d);
	while (pos < t->len) {
		const char *nl = memchr(t->text + pos, '\n', t->len - pos);
		size_t n = nl ? (size_t)(nl - (t->text + pos)) : t->len - pos;
		size_t k = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
		int lines;

		if ((k = nicfit__dump_net_json(d, t->text + pos, t->len - pos,
					       (struct dump_at){ ti, ln + 1 }, &lines))) {
			pos += k; /* ip -j link: JSON of any length, on one line or several */
			ln += lines;
			continue;
		}
		k = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
		memcpy(line, t->text + pos, k);
		line[k] = '\0';
		while (k && (line[k - 1] == '\r' || line[k - 1] == ' '))
			line[--k] = '\0';
		if (nicfit__dump_xml_start(line)) { /* an XML document: dump_xml.c reads it whole */
			size_t used = nicfit__dump_xml_read(d, ti, pos, ln + 1);

			if (d->oom)
				return NICFIT_E_NOMEM;
			for (k = 0; k < used; k++)
				ln += t->text[pos + k] == '\n';
			if (used && t->text[pos + used - 1] != '\n')
				ln++;
			if (used) {
				pos += used;
				w.st = W_NONE;
				w.cur = NULL;
				continue;
			}
		}
		pos += n + (nl ? 1 : 0);
		one_line(d, &w, line, (struct dump_at){ ti, ++ln });
		if (d->oom)
			return NICFIT_E_NOMEM;
	}
	nicfit__dump_smi_finish(d);
	nicfit__dump_fw_end(d);
	if (w.st == W_SMI) /* the paste stops inside the matrix */
		nicfit__dump_smi_cut(d, (struct dump_at){ ti, ln });
	close_listing(d, &w);
	return 0;
}

int nicfit_dump_add_text(struct nicfit_dump *d, const char *name, const char *text, size_t len,
			 struct nicfit_error *err)
{
	struct dump_text *t;
	int rc;

	if (len > NICFIT_DUMP_MAX_BYTES - d->bytes)
		return nicfit_error_set(err, NICFIT_E_LIMIT, "%s: the dumps exceed %zu MiB in all",
					name, NICFIT_DUMP_MAX_BYTES >> 20);
	if (NICFIT_ALLOC_GROW(d->texts, d->ntexts + 1, d->alloc_texts))
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	t = &d->texts[d->ntexts];
	t->name = strdup(name);
	t->text = malloc(len ? len : 1);
	if (!t->name || !t->text) {
		free(t->name);
		free(t->text);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	memcpy(t->text, text, len);
	t->len = len;
	d->bytes += len;
	rc = walk_text(d, (int)d->ntexts++);
	if (rc)
		return nicfit_error_set(err, rc, "out of memory");
	if (d->limit)
		return nicfit_error_set(err, NICFIT_E_LIMIT, "%s: more than %d PCI functions",
					name, DUMP_MAX_FNS);
	return 0;
}
