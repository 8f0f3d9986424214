/*
 * test_dump_mlxfw.c - NVIDIA's firmware tools in a paste (dump/dump_mlxfw.c):
 * mlxfwmanager --query (mlxup) blocks, flint/mstflint q with the device
 * its prompt line named, mst status and mst status -v; the function each
 * adapter names (its PCI Device Name, its mst device's function, its VPD
 * part number when one card of the listing has it); RDMA devices tied to
 * their function by the Base GUID (dump/dump_build.c); nic-fw-mixed naming
 * each card; lspci's Device Serial Number kept as a card's identity;
 * mlxlink's ports (speed below what the port and cable support, errors
 * FEC did not correct, link downs).
 */
#include "unit.h"
#include "dump_fixture.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"
#include "nicfit/buf.h"
#include "nicfit/emit.h"

/* One mlxfwmanager block, as MFT prints it. */
#define MLXFW(n, pn, psid, pci, guid, fw)                                                 \
	"Device #" n ":\n"                                                                  \
	"----------\n\n"                                                                    \
	"  Device Type:      ConnectX7\n"                                                   \
	"  Part Number:      " pn "\n"                                                      \
	"  Description:      NVIDIA ConnectX-7 HHHL Adapter Card; 400GbE\n"                 \
	"  PSID:             " psid "\n"                                                    \
	"  PCI Device Name:  " pci "\n"                                                     \
	"  Base GUID:        " guid "\n"                                                    \
	"  Base MAC:         e09d73125fc4\n"                                                \
	"  Versions:         Current        Available\n"                                    \
	"     FW             " fw "     28.43.1014\n"                                       \
	"     PXE            3.7.0500       N/A\n"                                          \
	"     UEFI           14.35.0015     N/A\n\n"                                        \
	"  Status:           Update required\n\n"

/* lspci -vvv of a card's function 0 with its VPD part number, and -tv drawing both functions. */
#define BLOCK(bdf, pn, dsn)                                                               \
	bdf " Ethernet controller: Mellanox Technologies MT2910 Family [ConnectX-7]\n"     \
	"\tSubsystem: Mellanox Technologies Device 0021\n"                                 \
	"\tCapabilities: [40] Express (v2) Endpoint, MSI 00\n"                              \
	"\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM not supported\n"              \
	"\t\tLnkSta:\tSpeed 32GT/s, Width x16\n"                                           \
	"\tCapabilities: [48] Vital Product Data\n"                                         \
	"\t\tProduct Name: NVIDIA ConnectX-7 HHHL adapter card\n"                          \
	"\t\tRead-only fields:\n"                                                           \
	"\t\t\t[PN] Part number: " pn "\n"                                                  \
	"\t\t\tEnd\n"                                                                       \
	"\tCapabilities: [1c0 v1] Device Serial Number " dsn "\n"          \
	"\tKernel driver in use: mlx5_core\n\n"

#define TREE \
	"-+-[0000:b0]-+-00.0  Intel Corporation Ice Lake Memory Map/VT-d\n"                  \
	" |           \\-02.0-[b1]--+-00.0  Mellanox Technologies MT2910 Family [ConnectX-7]\n" \
	" |                        \\-00.1  Mellanox Technologies MT2910 Family [ConnectX-7]\n" \
	" \\-[0000:16]-+-00.0  Intel Corporation Ice Lake Memory Map/VT-d\n"                   \
	"             \\-02.0-[17]--+-00.0  Mellanox Technologies MT2910 Family [ConnectX-7]\n" \
	"                          \\-00.1  Mellanox Technologies MT2910 Family [ConnectX-7]\n\n"

#define IBV(name, node, sys)                                                              \
	"hca_id:\t" name "\n"                                                               \
	"\tfw_ver:\t\t\t\t28.42.1000\n"                                                      \
	"\tnode_guid:\t\t\t" node "\n"                                                       \
	"\tsys_image_guid:\t\t\t" sys "\n"                                                   \
	"\tvendor_part_id:\t\t\t4129\n"                                                      \
	"\tboard_id:\t\t\tMT_0000001244\n"                                                   \
	"\t\tport:\t1\n"                                                                     \
	"\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"                                                \
	"\t\t\tlink_layer:\t\tEthernet\n\n"

static const struct nicfit_finding *finding(const struct nicfit_audit *a, const char *code)
{
	size_t i;

	for (i = 0; i < a->findings.n; i++)
		if (!strcmp(a->findings.v[i].code, code))
			return &a->findings.v[i];
	return NULL;
}

static void out_has(const struct nicfit_audit *a, int fmt, const char *needle)
{
	struct nicfit_emit *e = nicfit_emit_new(fmt, 0, 0);
	struct nicfit_buf b;

	nicfit_buf_init(&b, 0);
	assert_int_equal(nicfit_audit_render(a, e), 0);
	assert_int_equal(nicfit_emit_finish(e, &b), 0);
	if (!strstr(b.data, needle))
		fail_msg("%s missing in:\n%s", needle, b.data);
	nicfit_emit_free(e);
	nicfit_buf_release(&b);
}

/* Every field of an mlxfwmanager block, mst status -v giving the mst device's function. */
static void mlxfwmanager_fields(void **state)
{
	struct run r;
	const struct dump_fwdev *x;

	(void)state;
	judge(&r, "Querying Mellanox devices firmware ...\n\n"
		  MLXFW("1", "MCX715105AS-WEAT_Ax", "MT_0000001244", "/dev/mst/mt4129_pciconf1",
			"e09d7303001c5fc4", "28.42.1000")
		  "---------\nFound 1 device(s) requiring firmware update...\n"
		  "ConnectX7(rev:0)        /dev/mst/mt4129_pciconf1      b1:00.0   mlx5_1  net-ens1f0  1\n");
	assert_int_equal(r.d->nfwdevs, 1);
	x = &r.d->fwdevs[0];
	assert_int_equal(x->tool, DUMP_FW_MLXFWMANAGER);
	assert_string_equal(x->type, "ConnectX7");
	assert_string_equal(x->part, "MCX715105AS-WEAT_Ax");
	assert_string_equal(x->psid, "MT_0000001244");
	assert_string_equal(x->pci, "/dev/mst/mt4129_pciconf1");
	assert_string_equal(x->base_guid, "e09d7303001c5fc4");
	assert_string_equal(x->base_mac, "e09d73125fc4");
	assert_string_equal(x->fw, "28.42.1000");
	assert_string_equal(x->fw_avail, "28.43.1014");
	assert_string_equal(x->pxe, "3.7.0500");
	assert_string_equal(x->uefi, "14.35.0015");
	assert_string_equal(x->status, "Update required");
	assert_int_equal(x->at.line, 3); /* its "Device #1:" line */
	assert_string_equal(x->bdf, "0000:b1:00.0");
	assert_int_equal(x->bdf_how, DUMP_FW_BDF_MST);
	assert_true(nicfit_dump_formats(r.d) & NICFIT_DUMP_MLXFW);
	out_has(r.a, NICFIT_FMT_JSON, "\"bdf_from\":\"mst status\"");
	out_has(r.a, NICFIT_FMT_TEXT, "Adapters as mlxfwmanager or flint list them");
	done(&r);
}

/*
 * flint q names no device: the prompt line's -d does; plain mst status
 * gives the mst device's function on its second line; a line Markdown made
 * bold is read; a line of another tool ends the block.
 */
static void flint_with_prompt_and_mst(void **state)
{
	struct run r;
	const struct dump_fwdev *x;

	(void)state;
	judge(&r, "root@pve:~# mst status\nMST devices:\n------------\n"
		  "/dev/mst/mt4115_pciconf0         - PCI configuration cycles access.\n"
		  "                                   domain:bus:dev.fn=0000:06:00.0 addr.reg=88 "
		  "data.reg=92 cr_bar.gw_offset=-1\n"
		  "                                   Chip revision is: 00\n"
		  "root@pve:~# flint -d /dev/mst/mt4115_pciconf0 query\n"
		  "Image type:            FS3\n"
		  "**FW Version:            12.28.2006**\n"
		  "FW Version(Running):    12.27.1016\n"
		  "Rom Info:              type=UEFI version=14.21.17 cpu=AMD64\n"
		  "                       type=PXE version=3.6.102 cpu=AMD64\n"
		  "Description:           UID                GuidsNumber\n"
		  "Base GUID:             ec0d9a030076eae2        4\n"
		  "Base MAC:              ec0d9a76eae2            4\n"
		  "PSID:                  LNV2180110032\n"
		  "Security Attributes:   N/A\n"
		  "Architecture:          x86_64\n"
		  "Socket(s):             2\n"
		  "hca_id:\tmlx5_0\n\tnode_guid:\t\t\tec0d:9a03:0076:eae2\n"
		  "\tsys_image_guid:\t\t\tec0d:9a03:0076:eae2\n");
	assert_int_equal(r.d->nfwdevs, 1);
	x = &r.d->fwdevs[0];
	assert_int_equal(x->tool, DUMP_FW_FLINT);
	assert_string_equal(x->pci, "/dev/mst/mt4115_pciconf0");
	assert_string_equal(x->fw, "12.28.2006");
	assert_string_equal(x->fw_running, "12.27.1016");
	assert_string_equal(x->uefi, "14.21.17");
	assert_string_equal(x->pxe, "3.6.102");
	assert_string_equal(x->base_guid, "ec0d9a030076eae2");
	assert_string_equal(x->psid, "LNV2180110032");
	assert_string_equal(x->bdf, "0000:06:00.0");
	assert_int_equal(x->bdf_how, DUMP_FW_BDF_MST);
	assert_int_equal(r.d->nrdma, 1); /* hca_id: ended the block and was read */
	assert_int_equal(r.d->cpu.sockets, 2); /* and lscpu right below the block was lscpu's */
	out_has(r.a, NICFIT_FMT_JSON, "\"rdma_devices\":[\"mlx5_0\"]");
	done(&r);
}

/*
 * The Base GUID ties: the card mlxfwmanager names at b1:00.0 has Base
 * GUID ...bb0020, so the devices of that sys_image_guid are b1:00.0 and
 * b1:00.1 in node GUID order, although their names' order would put them
 * on the first card. The other card's devices stay a guess.
 */
static void base_guid_ties_devices(void **state)
{
	struct run r;

	(void)state;
	judge(&r, BLOCK("17:00.0", "MCX75310AAS-NEAT", "e0-9d-73-03-00-12-5f-c1")
		  BLOCK("b1:00.0", "MCX75310AAS-NEAT", "e0-9d-73-03-00-12-5f-c2") TREE
		  IBV("mlx5_0", "b83f:d203:00bb:0021", "b83f:d203:00bb:0020")
		  IBV("mlx5_1", "b83f:d203:00bb:0020", "b83f:d203:00bb:0020")
		  IBV("mlx5_2", "b83f:d203:00aa:0010", "b83f:d203:00aa:0010")
		  IBV("mlx5_3", "b83f:d203:00aa:0011", "b83f:d203:00aa:0010")
		  MLXFW("1", "MCX75310AAS-NEA_Ax", "MT_0000001244", "b1:00.0", "b83fd20300bb0020",
			"28.42.1000"));
	assert_string_equal(on(&r, "mlx5_1"), "0000:b1:00.0");
	assert_int_equal(rec(&r, "mlx5_1")->join, DUMP_JOIN_FWGUID);
	assert_string_equal(on(&r, "mlx5_0"), "0000:b1:00.1");
	assert_int_equal(rec(&r, "mlx5_0")->join, DUMP_JOIN_FWGUID);
	assert_int_not_equal(rec(&r, "mlx5_2")->join, DUMP_JOIN_FWGUID);
	out_has(r.a, NICFIT_FMT_JSON, "\"join\":\"base_guid\"");
	done(&r);
}

/*
 * An mst device that no mst status names: the one card of the listing
 * whose VPD part number is the adapter's (bracket letter dropped, _Ax
 * added by the tools). Two adapters of one part number tie nothing.
 */
static void vpd_part_names_card(void **state)
{
	struct run r;

	(void)state;
	judge(&r, BLOCK("17:00.0", "MCX75310AAS-NEAT", "e0-9d-73-03-00-12-5f-c3")
		  BLOCK("b1:00.0", "MCX715105AS-WEAT", "e0-9d-73-03-00-12-5f-c4")
		  MLXFW("1", "MCX715105AS-WEA_Ax", "MT_0000001244", "/dev/mst/mt4129_pciconf0",
			"b83fd20300bb0020", "28.42.1000"));
	assert_string_equal(r.d->fwdevs[0].bdf, "0000:b1:00.0");
	assert_int_equal(r.d->fwdevs[0].bdf_how, DUMP_FW_BDF_VPD);
	done(&r);
	judge(&r, BLOCK("17:00.0", "MCX715105AS-WEAT", "e0-9d-73-03-00-12-5f-c5")
		  BLOCK("b1:00.0", "MCX715105AS-WEAT", "e0-9d-73-03-00-12-5f-c6")
		  MLXFW("1", "MCX715105AS-WEA_Ax", "MT_0000001244", "/dev/mst/mt4129_pciconf0",
			"b83fd20300bb0020", "28.42.1000"));
	assert_string_equal(r.d->fwdevs[0].bdf, "");
	assert_int_equal(r.d->fwdevs[0].bdf_how, DUMP_FW_BDF_NONE);
	done(&r);
	/* a Socket Direct card: two slots, one Device Serial Number, so one card */
	judge(&r, BLOCK("17:00.0", "MCX715105AS-WEAT", "e0-9d-73-03-00-12-5f-c9")
		  BLOCK("b1:00.0", "MCX715105AS-WEAT", "e0-9d-73-03-00-12-5f-c9")
		  MLXFW("1", "MCX715105AS-WEA_Ax", "MT_0000001244", "/dev/mst/mt4129_pciconf0",
			"b83fd20300bb0020", "28.42.1000"));
	assert_string_equal(r.d->fwdevs[0].bdf, "0000:17:00.0");
	done(&r);
	judge(&r, BLOCK("b1:00.0", "MCX715105AS-WEAT", "e0-9d-73-03-00-12-5f-c7")
		  MLXFW("1", "MCX715105AS-WEA_Ax", "MT_0000001244", "/dev/mst/mt4129_pciconf0",
			"b83fd20300bb0020", "28.42.1000")
		  MLXFW("2", "MCX715105AS-WEA_Ax", "MT_0000001244", "/dev/mst/mt4129_pciconf1",
			"b83fd20300aa0010", "28.42.1000"));
	assert_string_equal(r.d->fwdevs[0].bdf, "");
	done(&r);
}

/*
 * nic-fw-mixed from the firmware tools: two cards of one PSID on two
 * versions, each card named; one card listed by two tools (and by
 * ibv_devinfo) is one reading.
 */
static void fw_mixed_names_cards(void **state)
{
	struct run r;
	const struct nicfit_finding *f;

	(void)state;
	judge(&r, MLXFW("1", "MCX715105AS-WEA_Ax", "MT_0000001244", "17:00.0", "b83fd20300aa0010",
			"28.39.1002")
		  MLXFW("2", "MCX715105AS-WEA_Ax", "MT_0000001244", "b1:00.0", "b83fd20300bb0020",
			"28.42.1000"));
	f = finding(r.a, "nic-fw-mixed");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "28.39.1002 on card 0000:17:00.0"));
	assert_non_null(strstr(f->message, "28.42.1000 on card 0000:b1:00.0"));
	done(&r);
	judge(&r, MLXFW("1", "MCX715105AS-WEA_Ax", "MT_0000001244", "b1:00.0", "b83fd20300bb0020",
			"28.42.1000")
		  "Image type:            FS4\nFW Version:            28.42.1000\n"
		  "Base GUID:             b83fd20300bb0020        4\n"
		  "PSID:                  MT_0000001244\n"
		  IBV("mlx5_0", "b83f:d203:00bb:0020", "b83f:d203:00bb:0020"));
	assert_null(finding(r.a, "nic-fw-mixed"));
	done(&r);
}

/* lspci -vvv's Device Serial Number: 16 hex digits, or nothing when damaged or zero. */
static void device_serial_number(void **state)
{
	struct run r;

	(void)state;
	judge(&r, BLOCK("b1:00.0", "MCX715105AS-WEAT", "e0-9d-73-03-00-12-5f-c8")
		  "17:00.0 Ethernet controller: Mellanox Technologies MT2910 Family [ConnectX-7]\n"
		  "\tCapabilities: [1c0 v1] Device Serial Number e0-9d-73-03-00-12\n"
		  "18:00.0 Ethernet controller: Mellanox Technologies MT2910 Family [ConnectX-7]\n"
		  "\tCapabilities: [1c0 v1] Device Serial Number 00-00-00-00-00-00-00-00\n");
	assert_string_equal(nicfit__dump_find(r.d, "0000:b1:00.0")->dsn, "e09d730300125fc8");
	assert_string_equal(nicfit__dump_find(r.d, "0000:17:00.0")->dsn, "");
	assert_string_equal(nicfit__dump_find(r.d, "0000:18:00.0")->dsn, "");
	done(&r);
}

/* An mlxlink report as mstflint's mlxlink_commander.cpp prints it. */
#define LINK(state, speed, enabled, cable)                                                \
	"Operational Info\n----------------\n"                                            \
	"State                              : " state "\n"                                  \
	"Physical state                     : LinkUp\n"                                     \
	"Speed                              : " speed "\n"                                  \
	"Width                              : 4x\n"                                         \
	"FEC                                : Standard RS-FEC (544,514)\n"                  \
	"Loopback Mode                      : No Loopback\n"                                \
	"Auto Negotiation                   : ON\n\n"                                       \
	"Supported Info\n--------------\n"                                                 \
	"Enabled Link Speed (Ext.)          : 0x000017f2 (" enabled ")\n"                   \
	"Supported Cable Speed (Ext.)       : 0x000017d0 (" cable ")\n\n"                   \
	"Troubleshooting Info\n--------------------\n"                                     \
	"Status Opcode                      : 0\n"                                          \
	"Group Opcode                       : N/A\n"                                        \
	"Recommendation                     : No issue was observed\n\n"

#define BER(errors, ber, down)                                                             \
	"Physical Counters and BER Info\n------------------------------\n"                 \
	"Time Since Last Clear [Min]        : 348349.5\n"                                   \
	"Effective Physical Errors          : " errors "\n"                                 \
	"Effective Physical BER             : " ber "\n"                                    \
	"Raw Physical Errors Per Lane       : 12,0,7,1\n"                                   \
	"Raw Physical BER                   : 2E-9\n"                                       \
	"Link Down Counter                  : " down "\n"                                   \
	"Link Error Recovery Counter        : 0\n"

/* A clean report: every field read, nothing raised; the raw BER shown, not judged. */
static void mlxlink_fields(void **state)
{
	struct run r;
	const struct dump_mlxlink *x;

	(void)state;
	judge(&r, "root@h:~# mlxlink -d mlx5_0 -p 1 -c\n\n"
		  LINK("\033[1;32mActive\033[0m", "200G", "200G,100G_2X,100G_4X,50G_1X,25G,10G,1G",
		       "200G,100G_2X,100G_4X,50G_1X,25G,10G")
		  BER("0", "15E-255", "0"));
	assert_int_equal(r.d->nlinks, 1);
	x = &r.d->links[0];
	assert_string_equal(x->dev, "mlx5_0");
	assert_int_equal(x->port, 1);
	assert_string_equal(x->state, "Active");
	assert_string_equal(x->phys, "LinkUp");
	assert_string_equal(x->speed, "200G");
	assert_int_equal(x->width, 4);
	assert_string_equal(x->fec, "Standard RS-FEC (544,514)");
	assert_string_equal(x->cable, "200G,100G_2X,100G_4X,50G_1X,25G,10G");
	assert_int_equal(x->opcode, 0);
	assert_string_equal(x->recommendation, "No issue was observed");
	assert_int_equal(x->eff_errors, 0);
	assert_true(x->eff_ber > 1.4e-254 && x->eff_ber < 1.6e-254);
	assert_true(x->raw_ber > 1.9e-9 && x->raw_ber < 2.1e-9);
	assert_int_equal(x->link_down, 0);
	assert_int_equal(x->at.line, 3);
	assert_int_equal(r.a->findings.n, 0);
	out_has(r.a, NICFIT_FMT_JSON, "\"mlxlink_ports\":[{\"device\":\"mlx5_0\",\"port\":1");
	out_has(r.a, NICFIT_FMT_TEXT, "Ports as mlxlink reports them");
	done(&r);
}

/*
 * A port below what it enables and its cable supports (Ethernet by port
 * rate, InfiniBand by lane rate) is nic-port-slow; a speed the cable
 * cannot carry, or a cut Supported Info, raises nothing.
 */
static void mlxlink_speed_below(void **state)
{
	struct run r;
	const struct nicfit_finding *f;

	(void)state;
	judge(&r, "# mlxlink -d /dev/mst/mt4123_pciconf0\n"
		  LINK("Active", "100G_4X", "200G,100G_2X,100G_4X,50G_1X", "200G,100G_4X"));
	f = finding(r.a, "nic-port-slow");
	assert_non_null(f);
	assert_string_equal(f->device, "/dev/mst/mt4123_pciconf0");
	assert_non_null(strstr(f->message, "200 Gb/s"));
	done(&r);
	judge(&r, LINK("Active", "IB-EDR", "HDR,EDR,FDR,QDR,DDR,SDR", "NDR,HDR,EDR"));
	assert_non_null(finding(r.a, "nic-port-slow"));
	done(&r);
	judge(&r, LINK("Active", "100G_4X", "200G,100G_2X,100G_4X", "100G_4X,50G_2X"));
	assert_null(finding(r.a, "nic-port-slow"));
	done(&r);
	judge(&r, "Operational Info\n----------------\nState  : Active\nSpeed  : 25GbE\n"
		  "Supported Info\n--------------\nEnabled Link S");
	assert_null(finding(r.a, "nic-port-slow"));
	assert_int_equal(r.d->nlinks, 1);
	assert_string_equal(r.d->links[0].speed, "25GbE");
	done(&r);
}

/* Errors FEC did not correct, or an effective BER above 1E-12, warn; link downs are noted. */
static void mlxlink_ber(void **state)
{
	struct run r;

	(void)state;
	judge(&r, LINK("Active", "200G", "200G", "200G") BER("12", "3E-13", "3"));
	assert_non_null(finding(r.a, "link-ber-high"));
	assert_non_null(finding(r.a, "link-down-counted"));
	done(&r);
	judge(&r, LINK("Active", "200G", "200G", "200G") BER("0", "4E-12", "0"));
	assert_non_null(finding(r.a, "link-ber-high"));
	assert_null(finding(r.a, "link-down-counted"));
	done(&r);
	judge(&r, LINK("Active", "200G", "200G", "200G") BER("0", "9E-13", "0"));
	assert_null(finding(r.a, "link-ber-high"));
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mlxfwmanager_fields),
		cmocka_unit_test(flint_with_prompt_and_mst),
		cmocka_unit_test(base_guid_ties_devices),
		cmocka_unit_test(vpd_part_names_card),
		cmocka_unit_test(fw_mixed_names_cards),
		cmocka_unit_test(device_serial_number),
		cmocka_unit_test(mlxlink_fields),
		cmocka_unit_test(mlxlink_speed_below),
		cmocka_unit_test(mlxlink_ber),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
