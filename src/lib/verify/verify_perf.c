/*
 * verify_perf.c - the point-to-point tools and NCCL's own topology dump:
 * perftest's bandwidth and latency reports (ib_write_bw, ib_read_bw,
 * ib_send_bw, ib_*_lat), iperf3's --json document (its text: verify_iperf.c),
 * and an NCCL topology XML (NCCL_TOPO_DUMP_FILE). Judging is elsewhere.
 *
 * perftest prints BW in MB/sec (now spelled MiB/sec), which is 2^20 bytes
 * a second (perftest_parameters.c: format_factor 0x100000), or, with
 * --report_gbits, in Gb/sec of 10^9 bits (format_factor 125000000).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jansson_int.h"

#include "verify/verify_int.h"

/* perftest's MB/sec (MiB/sec): 2^20 bytes a second, as Gb/s. */
#define PERFTEST_MIB_GBPS (1048576.0 * 8 / 1e9)

/* "key : value" from perftest's parameter block (two pairs a line at most). */
static const char *pt_value(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	if (!p)
		return NULL;
	p = strchr(p, ':');
	if (!p)
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void pt_params(struct nicfit_perftest *pt, const char *p)
{
	const char *q;

	if ((q = pt_value(p, "Device ")) != NULL && !pt->device[0])
		nicfit__vcopy(pt->device, sizeof(pt->device), q, strcspn(q, " \t"));
	if ((q = pt_value(p, "Link type")) != NULL)
		nicfit__vcopy(pt->link_type, sizeof(pt->link_type), q, strcspn(q, " \t"));
	if ((q = pt_value(p, "Mtu ")) != NULL)
		pt->mtu = (int)nicfit__vint(q, NULL);
	if ((q = pt_value(p, "GID index")) != NULL)
		pt->gid_index = (int)nicfit__vint(q, NULL);
	if ((q = pt_value(p, "Number of qps")) != NULL)
		pt->qps = (int)nicfit__vint(q, NULL);
}

/*
 * GPU memory (perftest's --use_cuda and --use_rocm, src/cuda_memory.c and
 * src/rocm_memory.c): "initializing CUDA", "[pid = P, dev = D] device name
 * = [NAME]", "Picking GPU number N", "Using ROCm Device with ID: N, Name:
 * NAME, PCI Bus ID: ...", "using DMA-BUF for GPU buffer ...", or the
 * option on a pasted command line. The NIC then reads and writes GPU
 * memory: the run measured GPUDirect RDMA. Returns 1 when p was such a line.
 */
static int pt_gpu(struct nicfit_perftest *pt, const char *p, long line)
{
	const char *q, *kind = NULL;

	if (!strncmp(p, "initializing CUDA", 17) || !strncmp(p, "Picking GPU number", 18) ||
	    ((q = strstr(p, "--use_cuda")) != NULL && (q[10] == '=' || q[10] == ' ' || !q[10])))
		kind = "cuda";
	else if (!strncmp(p, "Using ROCm Device with ID:", 26) ||
		 ((q = strstr(p, "--use_rocm")) != NULL && (q[10] == '=' || q[10] == ' ' || !q[10])))
		kind = "rocm";
	if ((q = strstr(p, "] device name = [")) != NULL && !pt->gpu[0]) {
		q += 17;
		nicfit__vcopy(pt->gpu, sizeof(pt->gpu), q, strcspn(q, "]"));
		kind = "cuda";
	} else if (kind && !strcmp(kind, "rocm") && (q = strstr(p, ", Name: ")) != NULL &&
		   !pt->gpu[0]) {
		q += 8;
		nicfit__vcopy(pt->gpu, sizeof(pt->gpu), q, strcspn(q, ","));
	}
	if (strstr(p, "using DMA-BUF for GPU buffer"))
		pt->dmabuf = 1;
	if (!kind)
		return pt->dmabuf;
	if (!pt->gpu_mem[0]) {
		nicfit__vcopy(pt->gpu_mem, sizeof(pt->gpu_mem), kind, (size_t)-1);
		pt->gpu_line = line;
	}
	return 1;
}

/*
 * A bandwidth row without its header ("#bytes #iterations BW peak BW
 * average MsgRate"): five figures, bytes and iterations whole, whose
 * MsgRate[Mpps] is the average over the message size, which tells the
 * unit: perftest prints MsgRate = BW average / size, so a Gb/sec average
 * gives avg x 10^9 / 8 / bytes / 10^6 and an MB/sec one (MiB: 2^20 bytes)
 * avg x 2^20 / bytes / 10^6, 119 times apart. Within 2 % (the figures'
 * rounding) of one: 1 Gb/sec, 2 MB/sec; 0 not such a row. Bold figures
 * ("**5544.28**") are read as figures.
 */
int nicfit__perftest_bare_row(const char *line)
{
	double f[6];
	int n = 0;
	const char *p = line;

	while (*p && n < 6) {
		char tok[64];
		size_t k;

		p += strspn(p, " \t");
		if (!*p)
			break;
		k = strcspn(p, " \t");
		nicfit__vcopy(tok, sizeof(tok), p + strspn(p, "*"), k - strspn(p, "*"));
		while (strlen(tok) && tok[strlen(tok) - 1] == '*')
			tok[strlen(tok) - 1] = '\0';
		if (nicfit__vnum(tok, &f[n++]))
			return 0;
		p += k;
	}
	if (n != 5 || f[0] < 1 || f[0] != floor(f[0]) || f[1] < 1 || f[1] != floor(f[1]) ||
	    f[3] <= 0 || f[4] <= 0)
		return 0;
	if (fabs(f[3] * 1e3 / 8 / f[0] - f[4]) <= 0.02 * f[4])
		return 1;
	if (fabs(f[3] * 1048576.0 / f[0] / 1e6 - f[4]) <= 0.02 * f[4])
		return 2;
	return 0;
}

/* A result row; 0, or NICFIT_E_DATA (err set) for a figure past NICFIT__VMAX_*. */
static int pt_row(struct nicfit_perftest *pt, char *p, const struct nicfit__vlines *l,
		  const char *name, struct nicfit_error *err)
{
	char *tok[NICFIT__VTOK_MAX];
	double v[NICFIT__VTOK_MAX];
	int n = nicfit__split_blanks(p, tok, NICFIT__VTOK_MAX), i;
	long line = l->lineno;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		char *t = tok[i];
		size_t k;

		/* "**5544.28**": a paste in Markdown bold */
		while (*t == '*')
			t++;
		k = strlen(t);
		while (k && t[k - 1] == '*')
			t[--k] = '\0';
		if (nicfit__vnum(t, &v[i]))
			return 0;
	}
	for (i = 0; i < n; i++) {
		/* BW peak and average of a bandwidth row are rates; every other figure a figure */
		int rate = !pt->latency && (i == 2 || i == 3);

		if (nicfit__vbound(err, name, line, tok[i] - l->buf + 1,
				   rate ? i == 2 ? "BW peak" : "BW average" : "figure",
				   rate ? v[i] * (pt->gbits ? 1 : PERFTEST_MIB_GBPS) : v[i],
				   rate ? NICFIT__VMAX_GBPS : NICFIT__VMAX_FIGURE, rate ? "Gb/s" : ""))
			return NICFIT_E_DATA;
	}
	if (n < 4) {
		pt->cut_line = line;
		return 0;
	}
	pt->nrows++;
	if (pt->latency) {
		/* #bytes #iterations t_min t_max t_typical t_avg ...: the first row, the smallest message */
		if (n < 5 || pt->row_line)
			return 0;
		pt->bytes = v[0];
		pt->lat_max_us = v[3];
		pt->lat_typical_us = v[4];
		pt->lat_avg_us = n > 5 ? v[5] : -1;
		pt->row_line = line;
		return 0;
	}
	if (n < 5)
		return 0;
	if (pt->row_line && v[3] * (pt->gbits ? 1 : PERFTEST_MIB_GBPS) <= pt->bw_avg_gbps)
		return 0;
	pt->bytes = v[0];
	pt->bw_peak = v[2];
	pt->bw_avg = v[3];
	pt->bw_avg_gbps = v[3] * (pt->gbits ? 1 : PERFTEST_MIB_GBPS);
	pt->row_line = line;
	return 0;
}

/* One perftest report read line by line (the single pass of verify.c feeds it). */
struct nicfit__vperf {
	struct nicfit__vlines l;
	struct nicfit_verify_doc d;
	struct nicfit_error err;
	char *name;
	int in_table, header, rc;
};

struct nicfit__vperf *nicfit__vperf_new(const char *name)
{
	struct nicfit__vperf *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->name = nicfit__vstrdup(name);
	if (!s->name) {
		free(s);
		return NULL;
	}
	nicfit__verify_doc_init(&s->d, NICFIT_VERIFY_PERFTEST);
	nicfit_error_clear(&s->err);
	s->d.u.pt.lat_avg_us = s->d.u.pt.lat_typical_us = s->d.u.pt.lat_max_us = -1;
	s->d.u.pt.gid_index = -1; /* perftest prints "GID index" for RoCE links only */
	return s;
}

int nicfit__vperf_line(struct nicfit__vperf *s, const char *line, size_t n, long lineno)
{
	struct nicfit_perftest *pt = &s->d.u.pt;
	const char *t;
	char *p;
	int unit;

	if (s->rc)
		return s->rc;
	nicfit__vlines_set(&s->l, line, n, lineno);
	p = nicfit__vskip_tags(s->l.buf);
	p += strspn(p, " \t");
	if (strstr(p, "CPU Frequency is not max") && !pt->cpu_freq_line)
		pt->cpu_freq_line = lineno; /* perftest's get_cpu_mhz(): the clock was scaled */
	if (((t = strstr(p, " BW Test")) != NULL || (t = strstr(p, " Latency Test")) != NULL) &&
	    !pt->test[0]) {
		nicfit__vcopy(pt->test, sizeof(pt->test), p, (size_t)-1);
		pt->latency = strstr(p, "Latency") != NULL;
	} else if (!strncmp(p, "#bytes", 6)) {
		s->in_table = s->header = 1;
		pt->gbits = strstr(p, "[Gb/sec]") != NULL;
		pt->latency = pt->latency || strstr(p, "t_min") != NULL;
	} else if (!strncmp(p, "----", 4)) {
		s->in_table = 0;
	} else if (s->in_table) {
		s->rc = pt_row(pt, p, &s->l, s->name, &s->err);
	} else if (!s->header && (unit = nicfit__perftest_bare_row(p)) != 0) {
		/* rows without their header: the unit from MsgRate */
		pt->gbits = unit == 1;
		s->rc = pt_row(pt, p, &s->l, s->name, &s->err);
	} else if (!pt_gpu(pt, p, lineno)) {
		pt_params(pt, p);
	}
	return s->rc;
}

int nicfit__vperf_end(struct nicfit__vperf *s, struct nicfit_verify *v, const char *name,
		      struct nicfit_error *err)
{
	int rc;

	if (!s)
		return 0;
	rc = s->rc;
	if (rc && err && err->code == NICFIT_OK)
		*err = s->err;
	rc = nicfit__verify_doc_put(v, &s->d, name, rc);
	if (rc && !s->rc)
		nicfit_error_set(err, rc, "out of memory");
	free(s->name);
	free(s);
	return rc;
}

int nicfit__verify_perftest(struct nicfit_verify *v, const char *name, const char *text,
			    size_t len, struct nicfit_error *err)
{
	struct nicfit__vperf *s = nicfit__vperf_new(name);
	struct nicfit__vlines l;
	const char *line;
	size_t n;

	if (!s)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	nicfit__vlines_init(&l, text, len);
	while (nicfit__vscan_next(&l, &line, &n) && !nicfit__vperf_line(s, line, n, l.lineno))
		;
	return nicfit__vperf_end(s, v, name, err);
}

/* ---- iperf3 --json ---------------------------------------------------------- */

static double jnum(json_t *o, const char *k)
{
	json_t *x = json_object_get(o, k);

	return json_is_number(x) ? json_number_value(x) : -1;
}

int nicfit__verify_iperf3_json(struct nicfit_verify *v, const char *name, const char *text,
			       size_t len, struct nicfit_error *err)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, 0, &je), *start, *end, *ts, *x;
	struct nicfit_verify_doc *d;
	struct nicfit_iperf3 *ip;
	const char *sent;

	if (!root) {
		/* cut short (a paste, a run killed): read as far as its start block goes;
		 * text has len bytes, not always a NUL after them */
		const char *ver = nicfit__vmemmem(text, len, "\"version\"", 9);

		if (ver && nicfit__vmemmem(ver, len - (size_t)(ver - text), "\"iperf 3.", 9))
			return nicfit__verify_iperf3_fragment(v, name, text, len, err);
		return nicfit_error_at(err, NICFIT_E_DATA, name, je.line, je.column,
				       "iperf3 JSON: %s", je.text);
	}
	d = nicfit__verify_doc_add(v, NICFIT_VERIFY_IPERF3, name);
	if (!d) {
		json_decref(root);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	ip = &d->u.ip;
	ip->json = 1;
	ip->retransmits = -1;
	ip->jitter_ms = -1;
	ip->sender_gbps = ip->receiver_gbps = -1;
	start = json_object_get(root, "start");
	end = json_object_get(root, "end");
	x = json_object_get(start, "version");
	if (json_is_string(x))
		nicfit__vcopy(ip->version, sizeof(ip->version), json_string_value(x) + 
			      (strncmp(json_string_value(x), "iperf ", 6) ? 0 : 6), (size_t)-1);
	ts = json_object_get(start, "test_start");
	if (jnum(ts, "num_streams") > 0 && jnum(ts, "num_streams") < 1e6)
		ip->streams = (int)jnum(ts, "num_streams");
	if (jnum(ts, "duration") >= 0)
		ip->duration_s = jnum(ts, "duration");
	x = json_object_get(ts, "protocol");
	ip->udp = json_is_string(x) && !strcmp(json_string_value(x), "UDP");
	x = json_object_get(end, "sum_sent");
	sent = json_is_object(x) ? "end.sum_sent.bits_per_second" : "end.sum.bits_per_second";
	if (!json_is_object(x))
		x = json_object_get(end, "sum");
	if (jnum(x, "bits_per_second") >= 0)
		ip->sender_gbps = jnum(x, "bits_per_second") / 1e9;
	if (jnum(x, "retransmits") >= 0 && jnum(x, "retransmits") < 1e15)
		ip->retransmits = (long)jnum(x, "retransmits");
	x = json_object_get(end, "sum_received");
	if (jnum(x, "bits_per_second") >= 0)
		ip->receiver_gbps = jnum(x, "bits_per_second") / 1e9;
	/* UDP: the receiver's datagram counts, in "end.sum" (iperf_api.c) */
	x = json_object_get(end, "sum");
	if (ip->udp && jnum(x, "packets") > 0 && jnum(x, "packets") < 1e15 &&
	    jnum(x, "lost_packets") >= 0 && jnum(x, "lost_packets") <= jnum(x, "packets")) {
		ip->datagrams = (long)jnum(x, "packets");
		ip->lost = (long)jnum(x, "lost_packets");
		if (jnum(x, "jitter_ms") >= 0 && jnum(x, "jitter_ms") < 1e15)
			ip->jitter_ms = jnum(x, "jitter_ms");
	}
	if (!json_is_object(end) || !json_is_object(start)) {
		json_decref(root);
		return nicfit_error_at(err, NICFIT_E_DATA, name, 1, 1, "not an iperf3 --json "
				       "document (no \"start\" and \"end\" objects; a test that did "
				       "not finish has no \"end\")");
	}
	json_decref(root);
	/* jansson keeps no positions: the member's path is where the figure is */
	if (nicfit__vbound(err, name, 0, 0, sent, ip->sender_gbps * 1e9, NICFIT__VMAX_GBPS * 1e9,
			   "bit/s") ||
	    nicfit__vbound(err, name, 0, 0, "end.sum_received.bits_per_second",
			   ip->receiver_gbps * 1e9, NICFIT__VMAX_GBPS * 1e9, "bit/s") ||
	    nicfit__vbound(err, name, 0, 0, "start.test_start.duration", ip->duration_s,
			   NICFIT__VMAX_FIGURE, "s"))
		return NICFIT_E_DATA;
	return 0;
}

/* ---- NCCL topology XML ------------------------------------------------------ */

/* The value of attribute a in the tag that starts at p (up to its '>'). */
static int xml_attr(const char *p, const char *a, char *out, size_t size)
{
	const char *end = strchr(p, '>'), *q = p;
	size_t al = strlen(a);

	while (end && (q = strstr(q, a)) != NULL && q < end) {
		if (q[-1] == ' ' && q[al] == '=' && q[al + 1] == '"') {
			q += al + 2;
			nicfit__vcopy(out, size, q, strcspn(q, "\""));
			return 0;
		}
		q += al;
	}
	return -1;
}

/* The 1-based line of p in s, and where that line starts. */
static long line_of(const char *s, const char *p)
{
	long n = 1;

	for (; s < p; s++)
		n += *s == '\n';
	return n;
}

static const char *line_start(const char *s, const char *p)
{
	while (p > s && p[-1] != '\n')
		p--;
	return p;
}

int nicfit__verify_nccl_topo(struct nicfit_verify *v, const char *name, const char *text,
			     size_t len, struct nicfit_error *err)
{
	struct nicfit_verify_doc *d;
	struct nicfit_nccl_topo *t;
	char *s = malloc(len + 1), *p, val[64];
	double sp;

	if (!s)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	memcpy(s, text, len);
	s[len] = '\0';
	d = nicfit__verify_doc_add(v, NICFIT_VERIFY_NCCL_TOPO, name);
	if (!d) {
		free(s);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	t = &d->u.topo;
	for (p = s; (p = strchr(p, '<')) != NULL; p++) {
		if (!strncmp(p, "<system ", 8) && !xml_attr(p, "version", val, sizeof(val)))
			t->version = (int)nicfit__vint(val, NULL);
		else if (!strncmp(p, "<cpu ", 5))
			t->cpus++;
		else if (!strncmp(p, "<pci ", 5)) {
			t->pci++;
			/* files without <gpu>/<nic> (Azure's) name devices by class */
			if (!xml_attr(p, "class", val, sizeof(val))) {
				if (!strncmp(val, "0x0302", 6) || !strncmp(val, "0x0300", 6))
					t->gpu_class++;
				else if (!strncmp(val, "0x0207", 6) || !strncmp(val, "0x0200", 6))
					t->nic_class++;
			}
		}
		else if (!strncmp(p, "<gpu ", 5))
			t->gpus++;
		else if (!strncmp(p, "<nic", 4) && (p[4] == '>' || p[4] == ' ' || p[4] == '/'))
			t->nics++;
		else if (!strncmp(p, "<net ", 5)) {
			t->nets++;
			if (!t->first_net[0] && !xml_attr(p, "name", val, sizeof(val)))
				nicfit__vcopy(t->first_net, sizeof(t->first_net), val, (size_t)-1);
			if (!xml_attr(p, "gdr", val, sizeof(val)) && !strcmp(val, "1"))
				t->gdr_nets++;
			if (t->net_speed_mbps <= 0 && !xml_attr(p, "speed", val, sizeof(val)) &&
			    !nicfit__vnum(val, &sp)) {
				/* the position is counted only for a speed to refuse */
				if (fabs(sp) > NICFIT__VMAX_GBPS * 1000 &&
				    nicfit__vbound(err, name, line_of(s, p), p - line_start(s, p) + 1,
						   "<net> speed", sp, NICFIT__VMAX_GBPS * 1000, "Mb/s")) {
					free(s);
					return NICFIT_E_DATA;
				}
				t->net_speed_mbps = sp;
			}
		}
	}
	free(s);
	if (!t->version && !t->cpus)
		return nicfit_error_at(err, NICFIT_E_DATA, name, 1, 1,
				       "not an NCCL topology: no <system version=...> and no <cpu>");
	if (t->gpus < t->gpu_class)
		t->gpus = t->gpu_class;
	if (t->nics < t->nic_class)
		t->nics = t->nic_class;
	return 0;
}
