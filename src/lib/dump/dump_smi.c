/*
 * dump_smi.c - what nvidia-smi prints (see dump_int.h): the matrix of
 * `nvidia-smi topo -m` and the GPU bus ids of `nvidia-smi` (its table),
 * `nvidia-smi -q` ("GPU 00000000:07:00.0" headers, in index order) and
 * `nvidia-smi --query-gpu=index,pci.bus_id --format=csv`.
 *
 * The matrix: a header row that opens with blanks (and, on a terminal,
 * an underline escape) and names the columns GPU0.., then NIC0.. or the
 * RDMA device names themselves (drivers before the NIC legend), then "CPU
 * Affinity" and the other affinity columns; one row per GPU and per NIC,
 * cells separated by tabs or, once pasted, spaces; then the legend, and
 * "NIC Legend:" with "NIC0: mlx5_0" lines in drivers that have it. Old
 * drivers print SOC where new ones print SYS, and PHB for both of today's
 * PHB and NODE (audit/audit_dump.c compares with that in mind).
 */
#include <stdio.h>
#include <string.h>

#include "dump/dump_int.h"
#include "core/file_int.h"
#include "nicfit/units.h"

static int is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Split s into blank-separated tokens (escape sequences are blanks); returns the count. */
static int tokens(char *s, char **tok, int max)
{
	char *p;

	for (p = s; *p; p++) /* ESC [ ... letter: a terminal's underline */
		if (*p == '\033') {
			*p = ' ';
			while (p[1] && !is_letter(p[1]))
				*++p = ' ';
			if (p[1])
				*++p = ' ';
		}
	return nicfit__split_blanks(s, tok, max);
}

int nicfit__dump_smi_header(const char *line)
{
	char buf[4096], *tok[4];

	if (line[0] != ' ' && line[0] != '\t' && line[0] != '\033')
		return 0;
	snprintf(buf, sizeof(buf), "%s", line);
	return tokens(buf, tok, 4) >= 2 && !strcmp(tok[0], "GPU0") && strstr(line, "Affinity");
}

void nicfit__dump_smi_start(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	struct dump_smi *m = &d->smi;
	char buf[4096], *tok[2 * DUMP_MAX_SMI + 8];
	int n, i;

	snprintf(buf, sizeof(buf), "%s", line);
	n = tokens(buf, tok, (int)(sizeof(tok) / sizeof(tok[0])));
	memset(m, 0, sizeof(*m));
	m->present = 1;
	m->at = at;
	d->formats |= NICFIT_DUMP_SMI_TOPO;
	for (i = 0; i < n && strcmp(tok[i], "CPU"); i++) {
		if (!strncmp(tok[i], "GPU", 3) && m->nnics == 0) {
			if (m->ngpus < DUMP_MAX_SMI)
				m->ngpus++;
		} else if (m->nnics < DUMP_MAX_SMI) {
			snprintf(m->nic_col[m->nnics], sizeof(m->nic_col[0]), "%s", tok[i]);
			snprintf(m->nic[m->nnics++], sizeof(m->nic[0]), "%s", tok[i]);
		}
	}
	/* "CPU Affinity", then "NUMA Affinity" (driver 450 on), then "GPU NUMA ID" (535 on) */
	m->aff_cols = !!strstr(line, "CPU Affinity") + !!strstr(line, "NUMA Affinity") +
		      !!strstr(line, "GPU NUMA ID");
}

/*
 * A GPU row's affinity cells, after its GPU and NIC cells. An empty cell
 * leaves no token once the paste turned tabs into spaces, so the cells are
 * read only when every headed column has one; "N/A" is unknown.
 */
static void smi_affinity(struct dump_smi *m, int g, char **rest, int r)
{
	if (r != m->aff_cols || r < 1)
		return;
	if (strcmp(rest[0], "N/A"))
		snprintf(m->cpu_aff[g], sizeof(m->cpu_aff[g]), "%.63s", rest[0]);
	if (r >= 2 && strcmp(rest[1], "N/A"))
		snprintf(m->numa_aff[g], sizeof(m->numa_aff[g]), "%.31s", rest[1]);
}

/* A cell of the matrix as the legend defines them: X, NV#, PIX .. SYS, SOC (before 384), C2C. */
static int is_cell(const char *t)
{
	static const char *const c[] = { "X", "PIX", "PXB", "PHB", "NODE", "SYS", "SOC", "C2C" };
	size_t i;

	if (t[0] == 'N' && t[1] == 'V' && t[2] >= '0' && t[2] <= '9')
		return 1;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (!strcmp(t, c[i]))
			return 1;
	return 0;
}

/* "GPU3" or "NIC0": 'G' or 'N' and *idx; 0 for anything else. */
static int row_label(const char *t, int *idx)
{
	const char *e;
	long k;

	if (strncmp(t, "GPU", 3) && strncmp(t, "NIC", 3))
		return 0;
	if (nicfit_scan_dec(t + 3, 0, DUMP_MAX_SMI - 1, &k, &e) != NICFIT_DEC_OK || *e)
		return 0;
	*idx = (int)k;
	return t[0];
}

/*
 * A row of a matrix pasted without its header row ("GPU3  NV12 ... X ...
 * PXB  20-39,100-119  1", or a NIC row): the label, then cells, one of
 * them X (the row's own column), then the affinities. The cells are kept
 * whole until nicfit__dump_smi_finish() splits them into GPU and NIC
 * columns. 0 when line is no such row.
 */
int nicfit__dump_smi_bare_row(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	struct dump_smi *m = &d->smi;
	char buf[4096], *tok[2 * DUMP_MAX_SMI + 8];
	int n, c, x = -1, idx, kind, i;

	if (line[0] == ' ' || line[0] == '\t' || (m->present && m->headerless != 1))
		return 0;
	snprintf(buf, sizeof(buf), "%s", line);
	n = tokens(buf, tok, (int)(sizeof(tok) / sizeof(tok[0])));
	if (n < 3 || !(kind = row_label(tok[0], &idx)))
		return 0;
	for (c = 0; c + 1 < n && c < 2 * DUMP_MAX_SMI && is_cell(tok[c + 1]); c++)
		if (!strcmp(tok[c + 1], "X"))
			x = x < 0 ? c : -2;
	if (c < 2 || x < 0 || (kind == 'G' && x != idx) || (kind == 'N' && x < idx))
		return 0;
	if (!m->present) {
		memset(m, 0, sizeof(*m));
		m->present = m->headerless = 1;
		m->at = at;
		d->formats |= NICFIT_DUMP_SMI_TOPO;
	}
	if (kind == 'N') { /* NIC k's own cell comes after the GPU columns */
		if (x - idx > m->ngpus)
			m->ngpus = x - idx;
		if (idx + 1 > m->nnics)
			m->nnics = idx + 1;
		return 1;
	}
	m->row_line[idx] = at.line;
	m->nraw[idx] = c;
	for (i = 0; i < c; i++)
		snprintf(m->raw[idx][i], sizeof(m->raw[0][0]), "%s", tok[1 + i]);
	for (i = 0; i < 2 && 1 + c + i < n; i++)
		if (strcmp(tok[1 + c + i], "N/A"))
			snprintf(m->raw_aff[idx][i], sizeof(m->raw_aff[0][0]), "%.63s", tok[1 + c + i]);
	return 1;
}

/* GPUs of a headerless matrix: as many as NIC rows place, GPU rows name, NV# and X cells reach. */
static int bare_gpus(const struct dump_smi *m)
{
	int g, i, n = m->ngpus;

	for (g = 0; g < DUMP_MAX_SMI; g++) {
		if (!m->row_line[g])
			continue;
		if (g + 1 > n)
			n = g + 1;
		for (i = 0; i < m->nraw[g]; i++)
			if ((m->raw[g][i][0] == 'N' && m->raw[g][i][1] == 'V') || !strcmp(m->raw[g][i], "X"))
				n = i + 1 > n ? i + 1 : n;
	}
	return n;
}

void nicfit__dump_smi_finish(struct nicfit_dump *d)
{
	struct dump_smi *m = &d->smi;
	int g, i, ng, nn;

	if (!m->present || m->headerless != 1)
		return;
	m->headerless = 2;
	ng = bare_gpus(m);
	nn = m->nnics;
	for (g = 0; g < DUMP_MAX_SMI; g++)
		if (m->row_line[g] && m->nraw[g] - ng > nn)
			nn = m->nraw[g] - ng;
	m->ngpus = ng;
	m->nnics = nn < DUMP_MAX_SMI ? nn : DUMP_MAX_SMI;
	for (i = 0; i < m->nnics; i++) {
		snprintf(m->nic[i], sizeof(m->nic[i]), "NIC%d", i);
		snprintf(m->nic_col[i], sizeof(m->nic_col[i]), "NIC%d", i);
	}
	for (g = 0; g < ng; g++) {
		if (!m->row_line[g])
			continue;
		if (m->nraw[g] < ng + m->nnics) { /* cut short: nothing to compare */
			m->row_line[g] = 0;
			continue;
		}
		for (i = 0; i < ng; i++)
			snprintf(m->gcell[g][i], sizeof(m->gcell[0][0]), "%s", m->raw[g][i]);
		for (i = 0; i < m->nnics; i++)
			snprintf(m->cell[g][i], sizeof(m->cell[0][0]), "%s", m->raw[g][ng + i]);
		snprintf(m->cpu_aff[g], sizeof(m->cpu_aff[g]), "%s", m->raw_aff[g][0]);
		snprintf(m->numa_aff[g], sizeof(m->numa_aff[g]), "%.31s", m->raw_aff[g][1]);
	}
}

int nicfit__dump_smi_row(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	struct dump_smi *m = &d->smi;
	char buf[4096], *tok[2 * DUMP_MAX_SMI + 8];
	int n, i, g;
	const char *e;
	long k;

	if (m->headerless)
		return nicfit__dump_smi_bare_row(d, line, at);
	snprintf(buf, sizeof(buf), "%s", line);
	n = tokens(buf, tok, (int)(sizeof(tok) / sizeof(tok[0])));
	if (!n)
		return 0;
	if (strncmp(tok[0], "GPU", 3)) {
		for (i = 0; i < m->nnics; i++)
			if (!strcmp(tok[0], m->nic[i]))
				return 1; /* a NIC's row: the GPU rows say the same */
		return 0;
	}
	if (nicfit_scan_dec(tok[0] + 3, 0, DUMP_MAX_SMI - 1, &k, &e) != NICFIT_DEC_OK || *e)
		return 0;
	g = (int)k;
	if (g >= m->ngpus)
		return 1;
	if (n < 1 + m->ngpus + m->nnics) { /* a row cut short by the paste: nothing to compare */
		m->row_cut = g + 1;
		return 1;
	}
	m->row_line[g] = at.line;
	for (i = 0; i < m->ngpus; i++)
		snprintf(m->gcell[g][i], sizeof(m->gcell[0][0]), "%s", tok[1 + i]);
	for (i = 0; i < m->nnics; i++)
		snprintf(m->cell[g][i], sizeof(m->cell[0][0]), "%s", tok[1 + m->ngpus + i]);
	smi_affinity(m, g, tok + 1 + m->ngpus + m->nnics, n - 1 - m->ngpus - m->nnics);
	return 1;
}

void nicfit__dump_smi_cut(struct nicfit_dump *d, struct dump_at last)
{
	struct dump_smi *m = &d->smi;
	int g;

	if (!m->present || m->at.text != last.text)
		return;
	for (g = 0; g < m->ngpus; g++)
		if (m->row_line[g] == last.line) { /* "0-23,4" may be what is left of 0-23,48-71 */
			m->cpu_aff[g][0] = m->numa_aff[g][0] = '\0';
			m->row_cut = g + 1;
		}
}

/* A bus id as nvidia-smi prints it ("00000000:07:00.0") into bdf; 0 when none at s. */
static int smi_bdf(const char *s, char *bdf, size_t n)
{
	unsigned a, b, c, f;

	if (!nicfit__dump_bdf(s, &a, &b, &c, &f))
		return 0;
	snprintf(bdf, n, "%04x:%02x:%02x.%u", a, b, c, f);
	return 1;
}

static void set_gpu(struct nicfit_dump *d, long k, const char *s, struct dump_at at)
{
	if (k < 0 || k >= DUMP_MAX_SMI || !smi_bdf(s, d->gpu_bdf[k], sizeof(d->gpu_bdf[k])))
		return;
	d->gpu_at[k] = at;
	d->gpu_map = 1;
	d->formats |= NICFIT_DUMP_SMI_GPUS;
}

/* An RDMA device name as the legend prints it: one word of name characters. */
static int device_name(const char *v)
{
	size_t i;

	for (i = 0; v[i]; i++)
		if (!(is_letter(v[i]) || (v[i] >= '0' && v[i] <= '9') || v[i] == '_' || v[i] == '-' ||
		      v[i] == '.'))
			return 0;
	return i > 0 && i < sizeof(((struct dump_smi *)0)->nic[0]);
}

/*
 * "  NIC0: mlx5_0" in the NIC legend names the column NIC0. A legend with
 * no matrix above it (the rest cut off) is a matrix of NICs alone. A value
 * that is no device name (header text pasted over the line) leaves the
 * column unnamed.
 */
static int legend_line(struct nicfit_dump *d, int k, const char *v, struct dump_at at)
{
	struct dump_smi *m = &d->smi;
	char name[32];

	if (!m->present) {
		memset(m, 0, sizeof(*m));
		m->present = m->legend_only = 1;
		m->at = at;
		d->formats |= NICFIT_DUMP_SMI_TOPO;
	}
	if (m->legend_only && k >= m->nnics) {
		for (; m->nnics <= k; m->nnics++) {
			snprintf(m->nic[m->nnics], sizeof(m->nic[0]), "NIC%d", m->nnics);
			snprintf(m->nic_col[m->nnics], sizeof(m->nic_col[0]), "NIC%d", m->nnics);
		}
	}
	m->legend = 1;
	snprintf(name, sizeof(name), "NIC%d", k);
	if (k < m->nnics && !strcmp(m->nic[k], name) && device_name(v))
		snprintf(m->nic[k], sizeof(m->nic[k]), "%s", v);
	else if (k < m->nnics && strlen(v) >= sizeof(m->nic[0]))
		nicfit__dump_problem(d, at, "NIC legend: NIC%d's name of %zu bytes is longer than "
				     "an RDMA device name can be (63): the column is left unnamed", k,
				     strlen(v));
	return 1;
}

int nicfit__dump_smi_gpu_line(struct nicfit_dump *d, const char *line, struct dump_at at,
			      int *q_index)
{
	const char *s = nicfit__dump_skip_blank(line), *e, *p;
	long k;

	if (!strncmp(s, "NIC", 3) && nicfit_scan_dec(s + 3, 0, DUMP_MAX_SMI - 1, &k, &e) ==
	    NICFIT_DEC_OK && e[0] == ':' && e[1] == ' ' && s != line)
		return legend_line(d, (int)k, nicfit__dump_skip_blank(e + 1), at);
	if (!strncmp(line, "GPU 0000", 8)) { /* nvidia-smi -q: one section per GPU, by index */
		set_gpu(d, (*q_index)++, line + 4, at);
		return 1;
	}
	if (line[0] == '|' && nicfit_scan_dec(nicfit__dump_skip_blank(line + 1), 0,
					      DUMP_MAX_SMI - 1, &k, &e) == NICFIT_DEC_OK &&
	    e[0] == ' ' && (p = strchr(e, '|'))) { /* the table: "|   0  NVIDIA ... | 00000000:07:00.0 Off |" */
		set_gpu(d, k, nicfit__dump_skip_blank(p + 1), at);
		return 1;
	}
	if (nicfit_scan_dec(s, 0, DUMP_MAX_SMI - 1, &k, &e) == NICFIT_DEC_OK && e[0] == ',' &&
	    e[1] == ' ' && nicfit__dump_bdf(e + 2, &(unsigned){ 0 }, &(unsigned){ 0 },
					    &(unsigned){ 0 }, &(unsigned){ 0 })) {
		set_gpu(d, k, e + 2, at); /* --query-gpu=index,pci.bus_id --format=csv */
		return 1;
	}
	return 0;
}
