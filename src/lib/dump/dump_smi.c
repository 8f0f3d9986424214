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

int nicfit__dump_smi_row(struct nicfit_dump *d, const char *line, struct dump_at at)
{
	struct dump_smi *m = &d->smi;
	char buf[4096], *tok[2 * DUMP_MAX_SMI + 8];
	int n, i, g;
	const char *e;
	long k;

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
	if (g >= m->ngpus || n < 1 + m->ngpus + m->nnics)
		return 1; /* a row cut short by the paste: nothing to compare */
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

int nicfit__dump_smi_gpu_line(struct nicfit_dump *d, const char *line, struct dump_at at,
			      int *q_index)
{
	const char *s = nicfit__dump_skip_blank(line), *e, *p;
	long k;

	if (!strncmp(s, "NIC", 3) && nicfit_scan_dec(s + 3, 0, DUMP_MAX_SMI - 1, &k, &e) ==
	    NICFIT_DEC_OK && e[0] == ':' && e[1] == ' ' && k < d->smi.nnics) {
		/* "NIC0: mlx5_0" in the NIC legend names the column NIC0 */
		char name[32];

		snprintf(name, sizeof(name), "NIC%ld", k);
		if (!strcmp(d->smi.nic[k], name)) {
			snprintf(d->smi.nic[k], sizeof(d->smi.nic[k]), "%.31s",
				 nicfit__dump_skip_blank(e + 1));
			d->smi.legend = 1;
		}
		return 1;
	}
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
