/*
 * test_dump_paste.c - audit --dump on pastes without an lspci listing
 * (audit/audit_paste.c): a topo -m matrix alone judged per GPU by its
 * nearest NIC, RDMA ports of devices no function carries, ACSCtl lines
 * grepped without addresses, "nothing to judge" (exit 3) and text in no
 * supported format (NICFIT_E_DATA).
 */
#include "unit.h"
#include "dump_fixture.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"

static int has(const struct nicfit_audit *a, const char *code, const char *dev)
{
	size_t i;

	for (i = 0; i < a->findings.n; i++)
		if (!strcmp(a->findings.v[i].code, code) &&
		    (!dev || !strcmp(a->findings.v[i].device, dev)))
			return 1;
	return 0;
}

/* Whether the audit rendered in fmt holds needle (want 1) or not (want 0). */
static void out_has(const struct nicfit_audit *a, enum nicfit_format fmt, const char *needle,
		    int want)
{
	struct nicfit_emit *e = nicfit_emit_new(fmt, 0, 0);
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_audit_render(a, e), 0);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	if ((strstr(b.data, needle) != NULL) != want)
		fail_msg("%s %s in:\n%s", needle, want ? "missing" : "present", b.data);
	nicfit_emit_free(e);
	nicfit_buf_release(&b);
}

/* GPU0 has a PXB NIC, GPU1 only a NODE one, GPU2 only SYS ones. */
static void matrix_alone(void **state)
{
	static const char text[] =
		"\tGPU0\tGPU1\tGPU2\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"
		"GPU0\t X \tNODE\tSYS\tPXB\tSYS\t0-7\t0\n"
		"GPU1\tNODE\t X \tSYS\tNODE\tSYS\t0-7\t0\n"
		"GPU2\tSYS\tSYS\t X \tSYS\tSYS\t8-15\t1\n"
		"NIC0\tPXB\tNODE\tSYS\t X \tSYS\n"
		"NIC1\tSYS\tSYS\tSYS\tSYS\t X \n"
		"\n"
		"NIC Legend:\n\n  NIC0: mlx5_1\n  NIC1: mlx5_0\n";
	struct run r;

	(void)state;
	judge(&r, text);
	assert_false(has(r.a, "gpu-nic-no-gdr-path", "GPU0"));
	assert_false(has(r.a, "gpu-nic-cross-socket", "GPU0"));
	assert_true(has(r.a, "gpu-nic-no-gdr-path", "GPU1"));
	assert_true(has(r.a, "gpu-nic-cross-socket", "GPU2"));
	assert_int_equal(nicfit_audit_exit_code(r.a), 1);
	assert_true(r.a->from_dump);
	assert_false(r.a->nothing_to_judge);
	/* the facts as printed: the legend names NIC0 mlx5_1, affinities per GPU row */
	out_has(r.a, NICFIT_FMT_JSON, "\"nic_label\":\"NIC0\",\"nic_name\":\"mlx5_1\","
		"\"path\":\"PXB\",\"gdr_by_distance\":true", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"path\":\"NODE\",\"gdr_by_distance\":false", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"cpu_affinity\":\"8-15\",\"numa_affinity\":\"1\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"legend\":true", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "3 GPUs, 2 NICs in nvidia-smi topo -m", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "0 GPUs", 0);
	done(&r);
}

/*
 * Affinity cells are read only when each headed column has one: empty
 * cells (spaces, as pasted) leave the row's affinity unknown, never
 * shifted into the next column; N/A is unknown; a row the paste cut has
 * no pairs.
 */
static void matrix_affinity(void **state)
{
	static const char text[] =
		"        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
		"GPU0     X      NV12    PXB                             N/A\n"
		"GPU1    NV12     X      SYS     N/A     N/A     N/A\n"
		"NIC0    PXB     SYS      X\n";
	static const char cut[] =
		"        GPU0    GPU1    mlx5_0  CPU Affinity\n"
		"GPU0     X      PIX     PIX     0-3\n"
		"GPU1    PIX      X";
	struct run r;

	(void)state;
	judge(&r, text);
	assert_int_equal(r.d->smi.aff_cols, 3);
	assert_string_equal(r.d->smi.cpu_aff[0], "");
	assert_string_equal(r.d->smi.numa_aff[0], "");
	assert_string_equal(r.d->smi.cpu_aff[1], "");
	out_has(r.a, NICFIT_FMT_JSON, "\"cpu_affinity\":null", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"nic_name\":null", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"legend\":false", 1);
	done(&r);
	judge(&r, cut);
	assert_int_equal(r.d->smi.aff_cols, 1);
	assert_string_equal(r.d->smi.cpu_aff[0], "0-3");
	/* a column headed by the device's name (drivers before the legend) is its name */
	out_has(r.a, NICFIT_FMT_JSON, "\"label\":\"mlx5_0\",\"name\":\"mlx5_0\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"row\":false", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"gpu_label\":\"GPU1\"", 0);
	done(&r);
	/* the paste ends inside GPU1's row: "0-2" may be what is left of 0-23,48-71 */
	judge(&r, "        GPU0    GPU1    NIC0    CPU Affinity\n"
		  "GPU0     X      PIX     PIX     0-23,48-71\n"
		  "GPU1    PIX      X      PIX     0-2");
	assert_string_equal(r.d->smi.cpu_aff[0], "0-23,48-71");
	assert_string_equal(r.d->smi.cpu_aff[1], "");
	assert_int_equal(r.d->smi.row_cut, 2);
	out_has(r.a, NICFIT_FMT_JSON, "\"label\":\"GPU1\",\"row\":true,\"cut\":true,"
		"\"cpu_affinity\":null", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"0-2\"", 0);
	done(&r);
}

/*
 * A matrix pasted without its header row: a NIC row's X after the GPU
 * columns says how many GPUs there are (NIC1's X is the 10th cell: 8
 * GPUs), the GPU rows' cells past them are the NICs; rows before the
 * excerpt are unknown, never empty. Without NIC rows, the NV# and X cells
 * reach as far as the GPU columns do.
 */
static void matrix_headerless(void **state)
{
	static const char midway[] =
		"GPU3    NV12    NV12    NV12     X      NV12    NV12    NV12    NV12    SYS     NODE    PXB     20-39,100-119   1\n"
		"GPU7    NV12    NV12    NV12    NV12    NV12    NV12    NV12     X      SYS     SYS     SYS     60-79,140-159   3\n"
		"NIC1    SYS     SYS     NODE    NODE    SYS     SYS     SYS     SYS     SYS      X      NODE\n"
		"\n"
		"Legend:\n";
	static const char nonic[] =
		"GPU0     X      NV18    NODE    NV18    PXB     SYS     0-55    0   N/A\n"
		"GPU2    NODE    NODE     X      NODE    NODE    PXB     0-55    0   N/A\n";
	struct run r;

	(void)state;
	judge(&r, midway);
	assert_true(r.d->smi.present);
	assert_int_equal(r.d->smi.ngpus, 8);
	assert_int_equal(r.d->smi.nnics, 3);
	assert_string_equal(r.d->smi.cell[3][2], "PXB");
	assert_string_equal(r.d->smi.cell[7][0], "SYS");
	assert_string_equal(r.d->smi.numa_aff[7], "3");
	assert_int_equal(r.d->smi.row_line[0], 0);
	assert_true(has(r.a, "gpu-nic-cross-socket", "GPU7"));
	assert_false(has(r.a, "gpu-nic-cross-socket", "GPU3"));
	assert_false(has(r.a, "gpu-nic-cross-socket", "GPU0")); /* its row is not in the excerpt */
	out_has(r.a, NICFIT_FMT_JSON, "\"check\":\"smi_topo\"", 1);
	done(&r);
	judge(&r, nonic);
	assert_int_equal(r.d->smi.ngpus, 4);
	assert_int_equal(r.d->smi.nnics, 2);
	assert_string_equal(r.d->smi.cell[2][1], "PXB");
	done(&r);
	/* one X per row, in the row's own column: a table of words is no matrix */
	judge(&r, "GPU0 X X PIX\nhca_id:\tmlx5_0\n");
	assert_false(r.d->smi.present);
	done(&r);
}

/*
 * A NIC Legend with no matrix: the names, and none for a line that other
 * text overwrote ("NIC0:   NIC41   CPU Affinity"); nothing to judge.
 */
static void legend_alone(void **state)
{
	static const char text[] =
		"  NIC0:         NIC41   CPU Affinity    NUMA Affinity\n"
		"  NIC1: MA ID\n"
		"  NIC2: mlx5_2\n"
		"  NIC3: mlx5_bond_1\n"
		"\n"
		"ulimit soft: 1000000\n";
	struct run r;

	(void)state;
	judge(&r, text);
	assert_true(r.d->smi.legend_only);
	assert_int_equal(r.d->smi.nnics, 4);
	assert_int_equal(r.d->smi.ngpus, 0);
	out_has(r.a, NICFIT_FMT_JSON, "\"label\":\"NIC0\",\"name\":null", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"label\":\"NIC1\",\"name\":null", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"label\":\"NIC3\",\"name\":\"mlx5_bond_1\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "NIC41", 0);
	assert_int_equal(nicfit_audit_exit_code(r.a), 3);
	done(&r);
}

/*
 * RDMA devices alone: ibv_devinfo's ports, ibstat's, and ibdev2netdev's
 * interfaces (as `| column -t` widens it) with the interface's "(Down)",
 * which is the netdev's state and never a port state.
 */
static void rdma_facts(void **state)
{
	static const char ibdev[] =
		"mlx5_0   port  1  ==>  ibp26s0        (Down)\n"
		"mlx5_1   port  1  ==>  enp27s0f0np0   (Up)\n";
	static const char ibstat[] =
		"CA 'mlx5_5'\n"
		"\tCA type: MT4129\n"
		"\tNumber of ports: 1\n"
		"\tFirmware version: 28.41.1000\n"
		"\tPort 1:\n"
		"\t\tState: Active\n"
		"\t\tPhysical state: LinkUp\n"
		"\t\tRate: 400\n"
		"\t\tLink layer: InfiniBand\n";
	struct run r;

	(void)state;
	judge(&r, ibdev);
	out_has(r.a, NICFIT_FMT_JSON, "\"source\":\"ibdev2netdev\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"netdev\":\"ibp26s0\",\"netdev_state\":\"Down\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"state\":null", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"matrix\":null", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "2 RDMA devices", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "ibp26s0 (Down)", 1);
	assert_false(has(r.a, "rdma-port-down", "mlx5_0"));
	done(&r);
	judge(&r, ibstat);
	out_has(r.a, NICFIT_FMT_JSON, "\"source\":\"ibstat\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"fw_ver\":\"28.41.1000\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"hca_type\":\"MT4129\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"rate_gbps\":null", 0);
	out_has(r.a, NICFIT_FMT_JSON, "\"state\":\"ACTIVE\",\"phys_state\":\"LinkUp\","
		"\"link_layer\":\"InfiniBand\",\"rate_gbps\":400", 1);
	done(&r);
}

/* A matrix of GPUs and no NIC: nothing the checks apply to, exit 3, never clean. */
static void matrix_no_nic(void **state)
{
	static const char text[] =
		"\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
		"GPU0\t X \tPHB\t0-15\t0\n"
		"GPU1\tPHB\t X \t0-15\t0\n";
	struct run r;

	(void)state;
	judge(&r, text);
	assert_int_equal(r.a->findings.n, 0);
	assert_true(r.a->nothing_to_judge);
	assert_int_equal(nicfit_audit_exit_code(r.a), 3);
	done(&r);
}

/* ibv_devinfo alone: a DOWN port with no active sibling is a warning, named by its device. */
static void ibv_alone(void **state)
{
	static const char text[] =
		"hca_id:\tmlx5_0\n"
		"\ttransport:\t\t\tInfiniBand (0)\n"
		"\tfw_ver:\t\t\t\t28.39.1002\n"
		"\tvendor_part_id:\t\t\t4129\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_DOWN (1)\n"
		"\t\t\tphys_state:\t\tPOLLING (2)\n"
		"\t\t\tlink_layer:\t\tInfiniBand\n"
		"\n"
		"hca_id:\tmlx5_1\n"
		"\ttransport:\t\t\tInfiniBand (0)\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
		"\t\t\tphys_state:\t\tLINK_UP (5)\n"
		"\t\t\tlink_layer:\t\tInfiniBand\n";
	struct run r;

	(void)state;
	judge(&r, text);
	assert_true(has(r.a, "rdma-port-down", "mlx5_0"));
	assert_false(has(r.a, "rdma-port-down", "mlx5_1"));
	assert_int_equal(nicfit_audit_exit_code(r.a), 1);
	done(&r);
}

/* An ACSCtl grep: one redirecting line of three is the finding, on the host. */
static void acs_grep(void **state)
{
	static const char on[] =
		"\t\tACSCtl:\tSrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-\n"
		"\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
		"\t\tACSCtl:\tSrcValid- TransBlk- Req";
	static const char off[] =
		"\t\tACSCtl:\tSrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-\n";
	struct run r;

	(void)state;
	judge(&r, on);
	assert_int_equal(r.d->acs.n, 3);
	assert_int_equal(r.d->acs.redirect, 1);
	assert_int_equal(r.d->acs.first_redirect.line, 2);
	assert_true(has(r.a, "acs-redirect", "host"));
	done(&r);
	judge(&r, off);
	assert_false(has(r.a, "acs-redirect", NULL));
	assert_false(r.a->nothing_to_judge); /* the bits were judged: no redirect */
	assert_int_equal(nicfit_audit_exit_code(r.a), 0);
	done(&r);
}

/*
 * setpci -v on the ACS control word, as NCCL's ACS script prints it: a
 * write ("@2a6 0000"), a read ("@2a6 = 000d"), the capability word (not
 * control bits), a line cut before its value.
 */
static void acs_setpci(void **state)
{
	static const char off[] =
		"sudo bash ./acs.sh\n"
		"0000:00:07.1 (ecap 000d @2a0) @2a6 0000\n"
		"0000:40:08.1 (ecap 000d @2a0) @2a6 = 0010\n"
		"0000:c3:00.0 (ecap 000d @2a0)";
	static const char on[] =
		"0000:15:01.0 (ecap 000d @220) @224 = 005f\n"
		"0000:15:02.0 (ecap 000d @220) @226 = 001d\n"
		"0000:15:03.0 (ecap 000d @220) @226 = 0000\n";
	struct run r;

	(void)state;
	judge(&r, off);
	assert_int_equal(r.d->acs.setpci, 2);
	assert_int_equal(r.d->acs.written, 1);
	assert_int_equal(r.d->acs.cut, 1);
	assert_int_equal(r.d->acs.redirect, 0);
	assert_true(has(r.a, "acs-redirect-off", "host"));
	assert_false(has(r.a, "acs-redirect", NULL));
	assert_int_equal(nicfit_audit_exit_code(r.a), 0);
	done(&r);
	judge(&r, on);
	assert_int_equal(r.d->acs.setpci, 2); /* @224 is the capability word */
	assert_int_equal(r.d->acs.redirect, 1);
	assert_int_equal(r.d->acs.first_redirect.line, 2);
	assert_true(has(r.a, "acs-redirect", "0000:15:02.0"));
	assert_int_equal(nicfit_audit_exit_code(r.a), 1);
	done(&r);
}

/*
 * An ibv_devinfo -v port block pasted without its hca_id line, a Markdown
 * "**" glued to a GID line: an unnamed device with its port read.
 */
static void ibv_port_block_alone(void **state)
{
	static const char text[] =
		"                port:   1\n"
		"                        state:                  PORT_DOWN (1)\n"
		"                        link_layer:             InfiniBand\n"
		"                        active_width:           4X (2)\n"
		"                        active_speed:           25.0 Gbps (32)\n"
		"                        phys_state:             POLLING (2)\n"
		"                        **GID[  0]:               fe80:0000:0000:0000:0000:0000:0000:0001\n";
	struct run r;

	(void)state;
	judge(&r, text);
	assert_int_equal(r.d->nrdma, 1);
	assert_string_equal(r.d->rdma[0].name, "");
	assert_int_equal(r.d->rdma[0].ports[0].state, 1);
	assert_int_equal(r.d->rdma[0].ports[0].phys, 2);
	assert_true(has(r.a, "rdma-port-down", "(unnamed RDMA device)"));
	out_has(r.a, NICFIT_FMT_JSON, "\"name\":null,\"source\":\"ibv_devinfo\"", 1);
	done(&r);
	/* ibv_devinfo's blank line between a device's ports does not end its block */
	judge(&r, "hca_id: mlx4_0\n        fw_ver:   2.7.700\n                port:   1\n"
		  "                        state:                  PORT_DOWN (1)\n\n"
		  "                port:   2\n"
		  "                        state:                  PORT_ACTIVE (4)\n");
	assert_int_equal(r.d->nrdma, 1);
	assert_int_equal(r.d->rdma[0].nports, 2);
	assert_true(has(r.a, "rdma-port-down", "mlx4_0"));
	assert_int_equal(nicfit_audit_exit_code(r.a), 0); /* port 2 is active: a note */
	done(&r);
}

/*
 * gpu-nvlink-missing: GPU2 of an NVSwitch board has no NV# cell; a board
 * of bridged pairs (one NVLink peer each) with an unbridged GPU is not
 * judged.
 */
static void matrix_nvlink_missing(void **state)
{
	static const char hgx[] =
		"\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\n"
		"GPU0\t X \tNV18\tNODE\tNV18\t0-7\t0\n"
		"GPU1\tNV18\t X \tNODE\tNV18\t0-7\t0\n"
		"GPU2\tNODE\tNODE\t X \tSYS\t0-7\t0\n"
		"GPU3\tNV18\tNV18\tSYS\t X \t8-15\t1\n";
	static const char pairs[] =
		"\tGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tCPU Affinity\tNUMA Affinity\n"
		"GPU0\t X \tNV4\tSYS\tSYS\tSYS\t0-7\t0\n"
		"GPU1\tNV4\t X \tSYS\tSYS\tSYS\t0-7\t0\n"
		"GPU2\tSYS\tSYS\t X \tNV4\tSYS\t8-15\t1\n"
		"GPU3\tSYS\tSYS\tNV4\t X \tSYS\t8-15\t1\n"
		"GPU4\tSYS\tSYS\tSYS\tSYS\t X \t8-15\t1\n";
	struct run r;

	(void)state;
	judge(&r, hgx);
	assert_true(has(r.a, "gpu-nvlink-missing", "GPU2"));
	assert_false(has(r.a, "gpu-nvlink-missing", "GPU0"));
	out_has(r.a, NICFIT_FMT_TEXT, "NODE to GPU0, GPU1; SYS to GPU3", 1);
	assert_int_equal(nicfit_audit_exit_code(r.a), 1);
	done(&r);
	judge(&r, pairs);
	assert_false(has(r.a, "gpu-nvlink-missing", NULL));
	done(&r);
}

/*
 * nccl-gid-index-wrong: NCCL_IB_GID_INDEX=4 exported while show_gids lists
 * index 4 as RoCE v1 and 5 as the routable v2 GID; index 5 set is right;
 * two settings that disagree are not judged.
 */
static void gid_index_env(void **state)
{
	static const char gids[] =
		"DEV     PORT    INDEX   GID                                     IPv4            VER     DEV\n"
		"---     ----    -----   ---                                     ------------    ---     ---\n"
		"mlx5_0  1       4       0000:0000:0000:0000:0000:ffff:0a0c:0015 10.12.0.21      v1      net1\n"
		"mlx5_0  1       5       0000:0000:0000:0000:0000:ffff:0a0c:0015 10.12.0.21      v2      net1\n"
		"mlx5_0  1       6       fe80:0000:0000:0000:9cbb:b7ff:feb3:937a                 v1      net1\n"
		"mlx5_0  1       7       fe80:0000:0000:0000:9cbb:b7ff:feb3:937a                 v2      net1\n";
	char text[2048];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "export NCCL_IB_GID_INDEX=4\n\n%s", gids);
	judge(&r, text);
	assert_int_equal(r.d->gid_env.index, 4);
	assert_true(has(r.a, "nccl-gid-index-wrong", "mlx5_0"));
	out_has(r.a, NICFIT_FMT_TEXT, "NCCL_IB_GID_INDEX=5", 1);
	assert_int_equal(nicfit_audit_exit_code(r.a), 1);
	done(&r);
	snprintf(text, sizeof(text), "%s\nNCCL INFO NCCL_IB_GID_INDEX set by environment to 7.\n",
		 gids);
	judge(&r, text);
	assert_true(has(r.a, "nccl-gid-index-wrong", "mlx5_0")); /* link-local v2 */
	done(&r);
	snprintf(text, sizeof(text), "mpirun -x NCCL_IB_GID_INDEX=5 ./all_reduce_perf\n%s", gids);
	judge(&r, text);
	assert_false(has(r.a, "nccl-gid-index-wrong", NULL));
	assert_int_equal(nicfit_audit_exit_code(r.a), 0);
	done(&r);
	snprintf(text, sizeof(text), "MY_NCCL_IB_GID_INDEX=4\nNCCL_IB_GID_INDEX=4\n"
		 "NCCL_IB_GID_INDEX=5\n%s", gids);
	judge(&r, text);
	assert_int_equal(r.d->gid_env.conflict, 1);
	assert_false(has(r.a, "nccl-gid-index-wrong", NULL));
	done(&r);
}

/*
 * lspci -tv alone prints no class: four RTX 6000 Ada (one under the older
 * pci.ids name "L6000 / RTX 6000 Ada Generation") and two ConnectX-7 are
 * recognised by name through the built-in table, never "0 GPUs, 0 NICs";
 * the root complexes and audio functions it cannot place are counted in
 * not_checked. A name the table holds for two IDs whose rows give the same
 * facts (A100 PCIe 40GB: 10de:20b1 and 10de:20f1, both a GPU) is judged
 * under the first ID, and the note says so.
 */
static void tree_alone_by_name(void **state)
{
	static const char text[] =
		"-+-[0000:c0]-+-00.0  Advanced Micro Devices, Inc. [AMD] Genoa/Bergamo Root Complex\n"
		" |           +-01.1-[c1]--+-00.0  NVIDIA Corporation AD102GL [RTX 6000 Ada Generation]\n"
		" |           |            \\-00.1  NVIDIA Corporation AD102 High Definition Audio Controller\n"
		" |           \\-03.1-[c2]----00.0  Mellanox Technologies MT2910 Family [ConnectX-7]\n"
		" +-[0000:80]-+-00.0  Advanced Micro Devices, Inc. [AMD] Genoa/Bergamo Root Complex\n"
		" |           \\-01.1-[81]----00.0  NVIDIA Corporation AD102GL [RTX 6000 Ada Generation]\n"
		" +-[0000:40]-+-00.0  Advanced Micro Devices, Inc. [AMD] Genoa/Bergamo Root Complex\n"
		" |           +-01.1-[41]----00.0  NVIDIA Corporation AD102GL [L6000 / RTX 6000 Ada Generation]\n"
		" |           \\-03.1-[42]----00.0  Mellanox Technologies MT2910 Family [ConnectX-7]\n"
		" \\-[0000:00]-+-00.0  Advanced Micro Devices, Inc. [AMD] Genoa/Bergamo Root Complex\n"
		"             +-01.1-[01]----00.0  NVIDIA Corporation AD102GL [RTX 6000 Ada Generation]\n"
		"             \\-02.1-[02]----00.0  NVIDIA Corporation GA100 [A100 PCIe 40GB]\n";
	struct run r;
	int i, twins = -1;

	(void)state;
	judge(&r, text);
	assert_int_equal(r.a->ngpus, 5);
	assert_int_equal(r.a->nnics, 2);
	assert_false(r.a->nothing_to_judge);
	for (i = 0; i < r.t->npci; i++)
		if (!strcmp(r.t->pci[i].bdf, "0000:41:00.0"))
			assert_int_equal(r.t->pci[i].device, 0x26b1);
		else if (!strcmp(r.t->pci[i].bdf, "0000:02:00.0"))
			twins = (int)r.t->pci[i].device; /* 20b1 and 20f1: both "A100 PCIe 40GB" */
	assert_int_equal(twins, 0x20b1);
	out_has(r.a, NICFIT_FMT_TEXT, "5 GPUs, 2 NICs", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"check\":\"tree_names\"", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "7 functions drawn only there were recognised", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "1 of those recognised bears a name the table holds for "
		"several IDs", 1);
	done(&r);
}

/*
 * nic-fw-mixed: two ibstat CAs of one part (MT4129, no PSID printed) on two
 * versions, and ethtool -i's PSID readings; a card of another part (a
 * ConnectX-5 beside a ConnectX-7) is another model, not mixed firmware.
 */
static void fw_mixed(void **state)
{
	static const char mixed[] =
		"CA 'mlx5_0'\n\tCA type: MT4129\n\tNumber of ports: 1\n\tFirmware version: 28.39.1002\n"
		"\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 400\n"
		"\t\tLink layer: InfiniBand\n\n"
		"CA 'mlx5_1'\n\tCA type: MT4129\n\tNumber of ports: 1\n\tFirmware version: 28.42.1000\n"
		"\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 400\n"
		"\t\tLink layer: InfiniBand\n\n"
		"# ethtool -i ens1f0np0\ndriver: mlx5_core\n"
		"firmware-version: 22.36.1010 (MT_0000000359)\nbus-info: 0000:17:00.0\n\n"
		"# ethtool -i ens1f1np1\ndriver: mlx5_core\n"
		"firmware-version: 22.31.1014 (MT_0000000359)\nbus-info: 0000:17:00.1\n";
	static const char models[] =
		"CA 'mlx5_0'\n\tCA type: MT4129\n\tFirmware version: 28.42.1000\n"
		"\tPort 1:\n\t\tState: Active\n\t\tLink layer: Ethernet\n\n"
		"CA 'mlx5_1'\n\tCA type: MT4119\n\tFirmware version: 16.35.4030\n"
		"\tPort 1:\n\t\tState: Active\n\t\tLink layer: Ethernet\n";
	struct run r;
	size_t i, n = 0;

	(void)state;
	judge(&r, mixed);
	for (i = 0; i < r.a->findings.n; i++)
		if (!strcmp(r.a->findings.v[i].code, "nic-fw-mixed")) {
			n++;
			assert_int_equal(r.a->findings.v[i].severity, NICFIT_SEV_WARNING);
		}
	assert_int_equal(n, 2);
	out_has(r.a, NICFIT_FMT_TEXT, "28.39.1002 on mlx5_0; 28.42.1000 on mlx5_1", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "(MT_0000000359) run 2 firmware versions", 1);
	done(&r);
	judge(&r, models);
	assert_false(has(r.a, "nic-fw-mixed", NULL));
	done(&r);
}

/*
 * Names longer than the usual: a 40-byte legend name is kept whole; a
 * 300-byte ibstat CA name is read (cut at the kernel's 63 bytes, said in
 * read_problems), never a refused paste; a legend name past 63 bytes
 * leaves its column unnamed and says so.
 */
static void long_names(void **state)
{
	char ca[1024], legend[1024], name[301];
	struct run r;

	(void)state;
	memset(name, 'm', 300);
	name[300] = '\0';
	snprintf(ca, sizeof(ca), "CA '%s'\n\tCA type: MT4129\n\tFirmware version: 28.39.1002\n"
		 "\tPort 1:\n\t\tState: Down\n\t\tPhysical state: Polling\n"
		 "\t\tLink layer: InfiniBand\n", name);
	judge(&r, ca);
	assert_int_equal(r.d->nrdma, 1);
	assert_int_equal(strlen(r.d->rdma[0].name), 63);
	assert_int_equal(r.d->nproblems, 1);
	assert_int_equal(r.d->problems[0].at.line, 1);
	assert_true(has(r.a, "rdma-port-down", NULL));
	done(&r);
	snprintf(legend, sizeof(legend),
		 "\tGPU0\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"
		 "GPU0\t X \tPIX\tSYS\t0-7\t0\n"
		 "NIC0\tPIX\t X \tSYS\nNIC1\tSYS\tSYS\t X \n\n"
		 "NIC Legend:\n\n  NIC0: mlx5_bond_roce_rail0_port0_plane1\n  NIC1: %s\n", name);
	judge(&r, legend);
	assert_string_equal(r.d->smi.nic[0], "mlx5_bond_roce_rail0_port0_plane1");
	assert_string_equal(r.d->smi.nic[1], "NIC1");
	assert_int_equal(r.d->nproblems, 1);
	done(&r);
}

/* Prose in no supported format is bad input data, not an empty audit. */
static void no_format(void **state)
{
	static const char text[] = "Hello, my NCCL job hangs, please help.\n";
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_error err;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_dump_new(&d), 0);
	assert_int_equal(nicfit_dump_add_text(d, "paste", text, strlen(text), &err), 0);
	assert_int_equal(nicfit_dump_topo(d, &t, &err), NICFIT_E_DATA);
	assert_null(t);
	nicfit_dump_free(d);
}

/*
 * A GPU row the paste cut short (DeepEP#60's topo -mp stops inside GPU4's
 * row): no cell of it is read, and the matrix says that row was cut.
 */
static void smi_row_cut_short(void **state)
{
	static const char text[] =
		"        GPU0    GPU1    NIC0    NIC1    CPU Affinity    NUMA Affinity\n"
		"GPU0     X      SYS     PIX     SYS     0-47    0\n"
		"GPU1    SYS      X      SY";
	struct run r;

	(void)state;
	judge(&r, text);
	assert_int_equal(r.d->smi.row_cut, 2);
	assert_int_equal(r.d->smi.row_line[1], 0);
	assert_string_equal(r.d->smi.cell[0][0], "PIX");
	out_has(r.a, NICFIT_FMT_JSON, "\"label\":\"GPU1\",\"row\":false,\"cut\":true", 1);
	done(&r);
}

/*
 * iblinkinfo as infiniband-diags prints it (iblinkinfo.c print_node_header,
 * print_port; get_max_msg's "Could be"): node headers, a CA port's GUID,
 * a port without link, a link that trained down (printed from both ends,
 * judged once), a slower speed than both ends run, FDR10, a port at
 * Initialize, a host adapter's port without link, -p's HOQ, -l's line mode
 * with the far end's GUID, "Port not available" and an old "Active / LinkUp".
 */
static void iblinkinfo(void **state)
{
	static const char text[] =
		"Switch: 0x7cfe900300a5a2c0 MF0;leaf1:MQM8700/U1:\n"
		"          12    1[  ] ==( 4X      53.125 Gbps Active/  LinkUp)==>      40    1[  ] \"gpu01 mlx5_0\" ( )\n"
		"          12    2[  ] ==( 1X      53.125 Gbps Active/  LinkUp)==>      41    1[  ] \"gpu02 mlx5_0\" ( Could be 4X )\n"
		"          12    3[  ] ==( 4X    25.78125 Gbps Active/  LinkUp)==>      42    1[  ] \"gpu03 mlx5_0\" ( Could be 53.125 Gbps)\n"
		"          12    4[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
		"          12    5[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
		"          12    6[  ] ==(                Down/Disabled)==>             [  ] \"\" ( )\n"
		"          12    7[  ] ==( 4X 10.0 Gbps (FDR10) Active/  LinkUp)==>      43    1[  ] \"old01 HCA-1\" ( )\n"
		"          12    8[  ] ==( 4X      53.125 Gbps Initialize/  LinkUp)==>      44    1[  ] \"gpu04 mlx5_0\" ( ) (HOQ:19 VL_Stall:7)\n"
		"          12    9[  ] ==( 4X      53.125 Gbps Active/  LinkUp)==>    \"Port not available\"\n"
		"CA: gpu02 mlx5_0:\n"
		"      0x1070fd0300c8a2b1     41    1[  ] ==( 1X      53.125 Gbps Active/  LinkUp)==>      12    2[  ] \"MF0;leaf1:MQM8700/U1\" ( Could be 4X )\n"
		"CA: gpu05 mlx5_1:\n"
		"      0x1070fd0300c8a2c2     45    1[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
		"0x1070fd0300c8a2d3 \"                  gpu06 mlx5_0\"     46    1[  ] ==( 4X     106.25 Gbps Active/  LinkUp)==>  0x7cfe900300a5a2c0     12   10[  ] \"MF0;leaf1:MQM8700/U1\" ( )\n"
		"           3    2[  ] ==( 4X 5.0 Gbps Active / LinkUp)==>       7    1[  ] \"ddr01 HCA-1\" ( )\n";
	struct run r;
	const struct dump_iblink *l;
	size_t i;
	int degraded = 0;

	(void)state;
	judge(&r, text);
	assert_int_equal(r.d->niblinks, 13);
	l = &r.d->iblinks[0];
	assert_string_equal(l->node, "MF0;leaf1:MQM8700/U1");
	assert_string_equal(l->guid, "7cfe900300a5a2c0");
	assert_int_equal(l->is_switch, 1);
	assert_int_equal(l->lid, 12);
	assert_int_equal(l->port, 1);
	assert_int_equal(l->state, 4);
	assert_int_equal(l->phys, 5);
	assert_int_equal(l->width, 4);
	assert_string_equal(l->speed, "53.125");
	assert_int_equal(l->rlid, 40);
	assert_string_equal(l->remote, "gpu01 mlx5_0");
	assert_int_equal(r.d->iblinks[1].could_width, 4);
	assert_string_equal(r.d->iblinks[2].could_speed, "53.125 Gbps");
	assert_int_equal(r.d->iblinks[3].state, 1);
	assert_int_equal(r.d->iblinks[3].rlid, -1);
	assert_int_equal(r.d->iblinks[5].phys, 3);
	assert_int_equal(r.d->iblinks[6].fdr10, 1);
	assert_int_equal(r.d->iblinks[7].state, 2);
	assert_int_equal(r.d->iblinks[7].rlid, 44);
	assert_int_equal(r.d->iblinks[8].rlid, -1);
	assert_string_equal(r.d->iblinks[9].guid, "1070fd0300c8a2b1");
	assert_int_equal(r.d->iblinks[9].is_switch, 0);
	l = &r.d->iblinks[11]; /* -l: no header; the node in quotes, the far end's GUID */
	assert_string_equal(l->node, "gpu06 mlx5_0");
	assert_string_equal(l->guid, "1070fd0300c8a2d3");
	assert_int_equal(l->is_switch, -1);
	assert_int_equal(l->lid, 46);
	assert_int_equal(l->rlid, 12);
	assert_int_equal(l->rport, 10);
	assert_int_equal(r.d->iblinks[12].state, 4); /* "Active / LinkUp" */
	assert_int_equal(r.d->iblinks[12].width, 4);
	assert_string_equal(r.d->iblinks[12].node, ""); /* no header over it: -l's line closed it */
	for (i = 0; i < r.a->findings.n; i++)
		degraded += !strcmp(r.a->findings.v[i].code, "ib-link-degraded");
	assert_int_equal(degraded, 2); /* port 2 (both ends printed) and port 3 */
	assert_true(has(r.a, "ib-no-subnet-manager", "MF0;leaf1:MQM8700/U1"));
	assert_true(has(r.a, "ib-port-no-link", "gpu05 mlx5_1"));
	for (i = 0; i < r.a->findings.n; i++) {
		const struct nicfit_finding *f = &r.a->findings.v[i];

		if (!strcmp(f->code, "ib-port-no-link") && !strcmp(f->device, "gpu05 mlx5_1"))
			assert_int_equal(f->severity, NICFIT_SEV_WARNING);
		if (!strcmp(f->code, "ib-port-no-link") && !strcmp(f->device, "MF0;leaf1:MQM8700/U1")) {
			assert_int_equal(f->severity, NICFIT_SEV_INFO);
			assert_non_null(strstr(f->message, "Down/Polling (no cable, or the far end is "
						   "down or off): 4-5;"));
			assert_non_null(strstr(f->message, "Down/Disabled"));
		}
		if (!strcmp(f->code, "ib-link-degraded") && strstr(f->message, "port 3 "))
			assert_non_null(strstr(f->message, "4X 25.78125 Gbps (EDR, 100 Gb/s)"));
	}
	/* below the fabric's most common 200 Gb/s with no "Could be": FDR10 and DDR, not the two noted */
	for (i = 0; i < r.a->findings.n; i++)
		if (!strcmp(r.a->findings.v[i].code, "ib-link-below-fabric")) {
			assert_int_equal(r.a->findings.v[i].severity, NICFIT_SEV_INFO);
			assert_non_null(strstr(r.a->findings.v[i].message, "2 links of iblinkinfo"));
			assert_non_null(strstr(r.a->findings.v[i].message, "4X FDR10, 40 Gb/s"));
			assert_non_null(strstr(r.a->findings.v[i].message, "4X DDR, 20 Gb/s"));
			assert_null(strstr(r.a->findings.v[i].message, "EDR"));
		}
	assert_true(has(r.a, "ib-link-below-fabric", "fabric"));
	assert_int_equal(nicfit_audit_exit_code(r.a), 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"generation\":\"FDR10\"", 1);
	out_has(r.a, NICFIT_FMT_JSON, "\"rate_gbps\":400", 1);
	out_has(r.a, NICFIT_FMT_TEXT, "InfiniBand links as iblinkinfo printed them", 1);
	done(&r);
}

/*
 * One port read several times in a paste (ibstat, ibv_devinfo -v, rdma
 * link): a change of state is a warning naming the first and the last
 * reading; the same state read by two tools is none; two node GUIDs for
 * one name are two hosts, not a change.
 */
static void port_read_twice(void **state)
{
	static const char changed[] =
		"CA 'mlx5_0'\n"
		"\tCA type: MT4129\n"
		"\tNode GUID: 0x58a2e10300dae626\n"
		"\tPort 1:\n"
		"\t\tState: Active\n"
		"\t\tPhysical state: LinkUp\n"
		"\t\tRate: 400\n"
		"\t\tLink layer: InfiniBand\n"
		"\n"
		"CA 'mlx5_0'\n"
		"\tCA type: MT4129\n"
		"\tNode GUID: 0x58a2e10300dae626\n"
		"\tPort 1:\n"
		"\t\tState: Down\n"
		"\t\tPhysical state: Polling\n"
		"\t\tRate: 10\n"
		"\t\tLink layer: InfiniBand\n";
	static const char same[] =
		"hca_id:\tmlx5_0\n"
		"\tnode_guid:\t\t\t58a2:e103:00da:e626\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
		"\t\t\tphys_state:\t\tLINK_UP (5)\n"
		"\n"
		"link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ibp1s0\n";
	static const char two_hosts[] =
		"hca_id:\tmlx5_0\n"
		"\tnode_guid:\t\t\t58a2:e103:00da:e626\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
		"\n"
		"hca_id:\tmlx5_0\n"
		"\tnode_guid:\t\t\t58a2:e103:00da:e700\n"
		"\t\tport:\t1\n"
		"\t\t\tstate:\t\t\tPORT_DOWN (1)\n";
	struct run r;
	size_t i;

	(void)state;
	judge(&r, changed);
	assert_true(has(r.a, "rdma-port-state-changed", "mlx5_0"));
	for (i = 0; i < r.a->findings.n; i++)
		if (!strcmp(r.a->findings.v[i].code, "rdma-port-state-changed"))
			assert_non_null(strstr(r.a->findings.v[i].message, "reads ACTIVE (LinkUp) at "
					       "paste:5 and DOWN (Polling) at paste:14 (2 readings, "
					       "1 change)"));
	assert_true(has(r.a, "rdma-port-down", "mlx5_0")); /* the last reading is DOWN */
	done(&r);
	judge(&r, same);
	assert_false(has(r.a, "rdma-port-state-changed", NULL));
	assert_int_equal(r.d->rdma[0].ports[0].readings, 2);
	done(&r);
	judge(&r, two_hosts);
	assert_false(has(r.a, "rdma-port-state-changed", NULL));
	assert_int_equal(r.d->rdma[0].guid_conflict, 1);
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matrix_alone),
		cmocka_unit_test(matrix_affinity),
		cmocka_unit_test(rdma_facts),
		cmocka_unit_test(matrix_headerless),
		cmocka_unit_test(legend_alone),
		cmocka_unit_test(matrix_no_nic),
		cmocka_unit_test(ibv_alone),
		cmocka_unit_test(acs_grep),
		cmocka_unit_test(acs_setpci),
		cmocka_unit_test(ibv_port_block_alone),
		cmocka_unit_test(matrix_nvlink_missing),
		cmocka_unit_test(gid_index_env),
		cmocka_unit_test(tree_alone_by_name),
		cmocka_unit_test(smi_row_cut_short),
		cmocka_unit_test(fw_mixed),
		cmocka_unit_test(long_names),
		cmocka_unit_test(no_format),
		cmocka_unit_test(iblinkinfo),
		cmocka_unit_test(port_read_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
