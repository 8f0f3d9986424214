/*
 * calc_md.c - the calculators' answers in Markdown (`calc --format md`,
 * /api/calc/NAME?format=md): a heading that answers the question, the
 * figures it rests on as a table, and the formula with this request's
 * numbers in it, as the page shows them (src/serve/assets/app.js,
 * CALC_VIEWS) and as plan's Markdown report is laid out. The figures are
 * the ones the calculators computed; nothing here computes a new one. The
 * assumptions follow as a table (nicfit__calc_assumptions).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "calc/calc_int.h"
#include "nicfit/units.h"

static const struct nicfit_column fig_cols[] = {
	{ "figure", "figure", 0 }, { "value", "value", 0 },
};

void nicfit__calc_md_title(struct nicfit_emit *e, const char *fmt, ...)
{
	char t[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t, sizeof(t), fmt, ap);
	va_end(ap);
	nicfit_emit_printf(e, "# %s\n\n", t);
	nicfit_emit_table_begin(e, NULL, fig_cols, 2);
}

void nicfit__calc_md_row(struct nicfit_emit *e, const char *figure, const char *fmt, ...)
{
	char v[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	nicfit_emit_cell_string(e, figure);
	nicfit_emit_cell_string(e, v);
}

void nicfit__calc_md_formula(struct nicfit_emit *e)
{
	nicfit_emit_table_end(e);
	nicfit_emit_heading(e, "Formula");
	nicfit_emit_printf(e, "```\n");
}

void nicfit__calc_md_end(struct nicfit_emit *e)
{
	nicfit_emit_printf(e, "```\n");
}

/* ---- pcie ---------------------------------------------------------------- */

static const char *line_code(int gen)
{
	return gen <= 2 ? "8b/10b" : gen <= 5 ? "128b/130b" : "FLIT 236/256";
}

void nicfit__calc_md_pcie(struct nicfit_emit *e, const struct nicfit_pcie_result *r,
			  const struct nicfit_pcie_params *pp)
{
	nicfit__calc_md_title(e, "PCIe Gen%d x%d moves %.1f Gb/s (%.2f GB/s) each way", r->gen,
			      r->width, r->effective_gbps, r->effective_gbps / 8);
	nicfit__calc_md_row(e, "signalling", "%g GT/s x %d lanes = %g Gb/s", r->gts, r->width,
			    r->signal_gbps);
	nicfit__calc_md_row(e, "raw", "%.1f Gb/s per direction", r->raw_gbps);
	nicfit__calc_md_row(e, "writes", "%.1f Gb/s (%.1f%% of raw)", r->write_gbps,
			    r->write_eff * 100);
	nicfit__calc_md_row(e, "reads", "%.1f Gb/s (%.1f%% of raw)", r->read_gbps, r->read_eff * 100);
	nicfit__calc_md_row(e, "effective", "%.1f Gb/s = %.2f GB/s", r->effective_gbps,
			    r->effective_gbps / 8);
	nicfit__calc_md_formula(e);
	nicfit_emit_printf(e, "raw       = GT/s x lanes x line code (%s)\n"
			      "          = %g x %d x %.4f = %.1f Gb/s\n", line_code(r->gen), r->gts,
			   r->width, r->encoding, r->raw_gbps);
	nicfit_emit_printf(e, "writes    = raw x payload / (payload + header + framing + DLLPs)\n"
			      "          = %.1f x %.3f (%g B per TLP) = %.1f Gb/s\n", r->raw_gbps,
			   r->write_eff, pp->mps, r->write_gbps);
	nicfit_emit_printf(e, "reads     = raw x data / (data + header + framing + DLLPs)\n"
			      "          = %.1f x %.3f (%g B per completion) = %.1f Gb/s\n", r->raw_gbps,
			   r->read_eff, pp->read_cpl, r->read_gbps);
	nicfit_emit_printf(e, "effective = min(writes, reads) x pcie_factor\n"
			      "          = min(%.1f, %.1f) x %g = %.1f Gb/s\n", r->write_gbps,
			   r->read_gbps, pp->impl_factor, r->effective_gbps);
	nicfit__calc_md_end(e);
}

/* ---- link ---------------------------------------------------------------- */

static const char *proto_words(enum nicfit_proto p)
{
	switch (p) {
	case NICFIT_PROTO_TCP: return "TCP/IPv4";
	case NICFIT_PROTO_ROCE: return "RoCE v2";
	case NICFIT_PROTO_IB: return "InfiniBand RDMA";
	}
	return "?";
}

/* The link's own rows and formula line, shared by link, load and allreduce. */
static void link_rows(struct nicfit_emit *e, const struct nicfit_link_result *l)
{
	if (l->ib_name[0])
		nicfit__calc_md_row(e, "link", "%dx %s InfiniBand, %g Gb/s", l->ib_lanes, l->ib_name,
				    l->line_gbps);
	else
		nicfit__calc_md_row(e, "link", "%g Gb/s Ethernet, %s", l->line_gbps,
				    proto_words(l->proto));
	nicfit__calc_md_row(e, "per packet", "%g B payload + %g B overhead (%.2f%%)",
			    l->payload_bytes, l->overhead_bytes, l->efficiency * 100);
	nicfit__calc_md_row(e, "goodput", "%.2f Gb/s = %.3f GB/s", l->goodput_gbps,
			    l->goodput_gbps / 8);
}

static void link_formula(struct nicfit_emit *e, const struct nicfit_link_result *l)
{
	nicfit_emit_printf(e, "goodput   = line x payload / (payload + overhead) x link_factor\n"
			      "          = %g x %g / (%g + %g) x %g = %.2f Gb/s\n", l->line_gbps,
			   l->payload_bytes, l->payload_bytes, l->overhead_bytes,
			   l->efficiency > 0 ? l->goodput_gbps / (l->line_gbps * l->efficiency) : 0,
			   l->goodput_gbps);
}

void nicfit__calc_md_link(struct nicfit_emit *e, const struct nicfit_link_result *l)
{
	nicfit__calc_md_title(e, "A %g Gb/s %s link carries %.2f Gb/s of %s payload", l->line_gbps,
			      l->ib_name[0] ? "InfiniBand" : "Ethernet", l->goodput_gbps,
			      proto_words(l->proto));
	link_rows(e, l);
	nicfit__calc_md_formula(e);
	link_formula(e, l);
	nicfit__calc_md_end(e);
}

/* ---- nic ----------------------------------------------------------------- */

void nicfit__calc_md_nic(struct nicfit_emit *e, const struct nicfit_nic_fit *r,
			 const struct nicfit_card *card, const struct nicfit_nic *nic,
			 const char *part, int gen, int width, enum nicfit_proto proto)
{
	const char *by = !strcmp(r->limited_by, "pcie") ?
			 (r->links > 1 ? "the PCIe links" : "the PCIe link") :
			 !strcmp(r->limited_by, "card") ? "the card's own total" : "its ports";

	if (r->links > 1)
		nicfit__calc_md_title(e, "%s with both links in Gen%d x%d slots delivers %.1f Gb/s, "
				      "limited by %s", nic ? nic->part : part, gen, width,
				      r->effective_gbps, by);
	else
		nicfit__calc_md_title(e, "%s in a Gen%d x%d slot delivers %.1f Gb/s, limited by %s",
				      nic ? nic->part : part, gen, width, r->effective_gbps, by);
	nicfit__calc_md_row(e, "card", "%s%s", nic ? nic->e.name : part,
			    nic ? "" : " (from the part-number rules)");
	nicfit__calc_md_row(e, "ports", "%d x %g Gb/s, %.1f Gb/s of %s each", r->ports_used,
			    r->port.line_gbps, r->port.goodput_gbps, proto_words(proto));
	nicfit__calc_md_row(e, "ports in all", "%.1f Gb/s", r->ports_gbps);
	if (r->links > 1)
		nicfit__calc_md_row(e, "PCIe", "%d x Gen%d x%d (Socket Direct: the card's %d Gen%d x%d "
				    "links, each in a Gen%d x%d slot): %.1f Gb/s each way", r->links,
				    r->link_gen, r->link_width / r->links, r->links, card->pcie_gen,
				    card->pcie_width, gen, width, r->pcie_gbps);
	else
		nicfit__calc_md_row(e, "PCIe", "Gen%d x%d (the card's Gen%d x%d in a Gen%d x%d slot): "
				    "%.1f Gb/s each way", r->link_gen, r->link_width, card->pcie_gen,
				    card->pcie_width, gen, width, r->pcie_gbps);
	nicfit__calc_md_row(e, "delivers", "%.1f Gb/s (%.1f per port)", r->effective_gbps,
			    r->per_port_gbps);
	nicfit__calc_md_row(e, "left idle", "%.1f Gb/s", r->idle_gbps);
	nicfit__calc_md_formula(e);
	if (card->card_gbps > 0)
		nicfit_emit_printf(e, "delivers  = min(ports x port goodput, PCIe, card total x efficiency)\n"
				      "          = min(%d x %.1f, %.1f, %g x %.4f) = %.1f Gb/s\n",
				   r->ports_used, r->port.goodput_gbps, r->pcie_gbps, card->card_gbps,
				   r->port.efficiency, r->effective_gbps);
	else
		nicfit_emit_printf(e, "delivers  = min(ports x port goodput, PCIe)\n"
				      "          = min(%d x %.1f, %.1f) = %.1f Gb/s\n", r->ports_used,
				   r->port.goodput_gbps, r->pcie_gbps, r->effective_gbps);
	nicfit__calc_md_end(e);
}

/* ---- load ---------------------------------------------------------------- */

void nicfit__calc_md_load(struct nicfit_emit *e, const struct nicfit__calc_size *z,
			  const struct nicfit_load *r, double storage_gbps)
{
	double bytes = z->bytes;
	char b1[32], b2[32], sz[96];

	nicfit_fmt_bytes(bytes, b1, sizeof(b1));
	nicfit_fmt_seconds(r->seconds, b2, sizeof(b2));
	nicfit__calc_md_title(e, "%s loads in %s over %g Gb/s %s (%s-bound)", b1, b2,
			      r->link.line_gbps, proto_words(r->link.proto), r->bottleneck);
	nicfit__calc_md_row(e, "size", "%s", nicfit__calc_size_text(z, sz, sizeof(sz)));
	nicfit__calc_md_row(e, "network", "%.2f Gb/s", r->network_gbps);
	if (storage_gbps > 0)
		nicfit__calc_md_row(e, "storage", "%.2f Gb/s", storage_gbps);
	else
		nicfit__calc_md_row(e, "storage", "assumed to keep up");
	nicfit__calc_md_row(e, "rate", "%.2f Gb/s = %.3f GB/s", r->rate_gbps, r->rate_gbps / 8);
	nicfit__calc_md_row(e, "time", "%s", b2);
	link_rows(e, &r->link);
	nicfit__calc_md_formula(e);
	nicfit_emit_printf(e, "time      = size x 8 / min(network, storage)\n"
			      "          = %.4g GB x 8 / %.2f Gb/s = %s\n", bytes / 1e9, r->rate_gbps, b2);
	link_formula(e, &r->link);
	nicfit__calc_md_end(e);
}

/* ---- allreduce ----------------------------------------------------------- */

void nicfit__calc_md_allreduce(struct nicfit_emit *e, const struct nicfit__calc_size *z,
			       const struct nicfit_allreduce *r, int sharp)
{
	double bytes = z->bytes;
	char b1[32], b2[32], b3[32], sz[96];

	nicfit_fmt_bytes(bytes, b1, sizeof(b1));
	nicfit_fmt_seconds(r->seconds, b2, sizeof(b2));
	nicfit__calc_md_title(e, "A %s all-reduce of %s across %d nodes takes %s",
			      !strcmp(r->algorithm, "sharp") ? "SHARP (in-network)" : r->algorithm, b1,
			      r->nodes, b2);
	nicfit__calc_md_row(e, "size", "%s", nicfit__calc_size_text(z, sz, sizeof(sz)));
	nicfit__calc_md_row(e, "nodes", "%d, %d NIC%s each", r->nodes, r->nics_per_node,
			    r->nics_per_node == 1 ? "" : "s");
	nicfit__calc_md_row(e, "sent per node", "%s (ring)",
			    nicfit_fmt_bytes(r->bytes_per_node, b3, sizeof(b3)));
	nicfit__calc_md_row(e, "node rate", "%.1f Gb/s", r->node_gbps);
	nicfit__calc_md_row(e, "ring", "%s", nicfit_fmt_seconds(r->ring_s, b3, sizeof(b3)));
	nicfit__calc_md_row(e, "tree", "%s", nicfit_fmt_seconds(r->tree_s, b3, sizeof(b3)));
	if (sharp)
		nicfit__calc_md_row(e, "SHARP", "%s", nicfit_fmt_seconds(r->sharp_s, b3, sizeof(b3)));
	nicfit__calc_md_row(e, "chosen", "%s (the least, as NCCL's tuning model picks)",
			    r->algorithm);
	nicfit__calc_md_row(e, "algbw", "%.1f Gb/s", r->algbw_gbps);
	nicfit__calc_md_row(e, "busbw", "%.1f Gb/s", r->busbw_gbps);
	link_rows(e, &r->link);
	nicfit__calc_md_formula(e);
	nicfit_emit_printf(e, "sent      = 2(n-1)/n x size = %.3f x %s = %s\n", r->factor, b1,
			   nicfit_fmt_bytes(r->bytes_per_node, b3, sizeof(b3)));
	nicfit_emit_printf(e, "ring      = sent x 8 / node rate + 2(n-1) x latency\n"
			      "          = %s + %s = %s\n",
			   nicfit_fmt_seconds(r->ring_s - r->ring_latency_s, b1, sizeof(b1)),
			   nicfit_fmt_seconds(r->ring_latency_s, b2, sizeof(b2)),
			   nicfit_fmt_seconds(r->ring_s, b3, sizeof(b3)));
	nicfit_emit_printf(e, "time      = the least of ring, tree%s = %s (%s)\n", sharp ? ", SHARP" : "",
			   nicfit_fmt_seconds(r->seconds, b1, sizeof(b1)), r->algorithm);
	nicfit_emit_printf(e, "node rate = NICs x goodput = %d x %.1f = %.1f Gb/s\n", r->nics_per_node,
			   r->link.goodput_gbps, r->node_gbps);
	nicfit_emit_printf(e, "busbw     = algbw x 2(n-1)/n = size x 8 / time x %.3f = %.1f Gb/s\n",
			   r->factor, r->busbw_gbps);
	link_formula(e, &r->link);
	nicfit__calc_md_end(e);
}

/* ---- stream -------------------------------------------------------------- */

void nicfit__calc_md_stream(struct nicfit_emit *e, double tps, long conc,
			    const struct nicfit_stream *r, const struct nicfit_stream_params *sp,
			    double link_gbps)
{
	char share[64] = "";

	if (link_gbps > 0)
		snprintf(share, sizeof(share), " (%.4f%% of %g Gb/s)", r->link_share * 100, link_gbps);
	nicfit__calc_md_title(e, "%g tokens/s to %ld stream%s need %.2f Mb/s%s", tps, conc,
			      conc == 1 ? "" : "s", r->total_mbps, share);
	nicfit__calc_md_row(e, "tokens per second", "%g per request", tps);
	nicfit__calc_md_row(e, "streams", "%ld", conc);
	nicfit__calc_md_row(e, "per token", "%.0f B (%g B event + %g B framing)", r->bytes_per_token,
			    sp->event_bytes, sp->wire_bytes);
	nicfit__calc_md_row(e, "per stream", "%.1f kB/s", r->per_request_kbps);
	nicfit__calc_md_row(e, "in all", "%.2f Mb/s", r->total_mbps);
	if (link_gbps > 0)
		nicfit__calc_md_row(e, "link share", "%.4f%% of %g Gb/s", r->link_share * 100, link_gbps);
	nicfit__calc_md_formula(e);
	nicfit_emit_printf(e, "rate      = tokens/s x bytes per token x streams x 8\n"
			      "          = %g x %.0f B x %ld x 8 = %.2f Mb/s\n", tps, r->bytes_per_token,
			   conc, r->total_mbps);
	nicfit__calc_md_end(e);
}

/* ---- fit ----------------------------------------------------------------- */

void nicfit__calc_md_fit(struct nicfit_emit *e, const struct nicfit__fit_md *f)
{
	const struct nicfit_fit *r = f->res;

	nicfit__calc_md_title(e, "%s at %s %s %d x %s: it needs %.1f GB of %.1f GB usable", f->what,
			      nicfit_precision_name(f->prec), r->fits ? "fits in" : "does not fit in",
			      f->ngpu, f->gpu, r->total_gb, r->capacity_gb);
	nicfit__calc_md_row(e, "parameters", "%.2fe9 at %.2f bits each", f->params / 1e9,
			    r->bits_per_param);
	nicfit__calc_md_row(e, "weights", "%.1f GB", r->weights_gb);
	if (r->kv_known)
		nicfit__calc_md_row(e, "KV cache", "%.1f GB (%ld tokens x %ld request%s)", r->kv_cache_gb,
				    f->context, f->concurrency, f->concurrency == 1 ? "" : "s");
	else
		nicfit__calc_md_row(e, "KV cache", "unknown (give the model for its layers and heads)");
	nicfit__calc_md_row(e, "needs", "%.1f GB", r->total_gb);
	nicfit__calc_md_row(e, "GPU memory", "%d x %.1f GB", f->ngpu, r->gpu_gb);
	nicfit__calc_md_row(e, "usable", "%.1f GB", r->capacity_gb);
	nicfit__calc_md_row(e, "fits", "%s", r->fits ? "yes" : "no");
	nicfit__calc_md_row(e, "GPUs needed", "%d", r->gpus_needed);
	if (f->lay->gpus > 1)
		nicfit__calc_md_row(e, "layout", "%s", f->lay->name);
	nicfit__calc_md_formula(e);
	nicfit_emit_printf(e, "weights   = parameters x bits / 8\n"
			      "          = %.2fe9 x %.2f / 8 = %.1f GB\n", f->params / 1e9,
			   r->bits_per_param, r->weights_gb);
	if (r->kv_known)
		nicfit_emit_printf(e, "KV cache  = bytes per token x context x requests\n"
				      "          = %.0f B x %ld x %ld = %.1f GB\n", r->kv_bytes_per_token,
				   f->context, f->concurrency, r->kv_cache_gb);
	nicfit_emit_printf(e, "usable    = GPUs x memory x gpu_util = %d x %.1f GB x %g = %.1f GB\n",
			   f->ngpu, r->gpu_gb, f->gpu_util, r->capacity_gb);
	nicfit_emit_printf(e, "needs     = weights + KV cache = %.1f GB %s %.1f GB usable\n",
			   r->total_gb, r->fits ? "<=" : ">", r->capacity_gb);
	nicfit__calc_md_end(e);
}
