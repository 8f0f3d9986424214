/*
 * test_dump_kmsg.c - kernel log lines in a dump: the PCI core's "limited
 * by" bandwidth report and the NIC drivers' module errors, from the real
 * pastes under tests/fixtures/dumps/public (see its README) and lines
 * written here in the kernel's own formats, and the findings they give.
 */
#include "unit.h"

#include "dump/dump_int.h"
#include "nicfit/audit.h"

#define PUB "tests/fixtures/dumps/public/"

/* A GPU and a NIC, each under its own root port. */
static const char lspci[] =
	"0000:16:01.0 PCI bridge [0604]: Intel Corporation Device [8086:352a] (rev 04)\n"
	"\tBus: primary=16, secondary=17, subordinate=17, sec-latency=0\n"
	"\n"
	"0000:17:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 PCIe 40GB] [10de:20f1] (rev a1)\n"
	"\n"
	"0000:98:01.0 PCI bridge [0604]: Intel Corporation Device [8086:352a] (rev 04)\n"
	"\tBus: primary=98, secondary=99, subordinate=99, sec-latency=0\n"
	"\n"
	"0000:99:00.0 Ethernet controller [0200]: Mellanox Technologies MT2892 Family [ConnectX-6 Dx] [15b3:101d]\n"
	"\n";

struct run {
	struct nicfit_dump *d;
	struct nicfit_topo *t;
	struct nicfit_audit *a;
};

static void read_all(struct run *r, const char *path, const char *extra)
{
	struct nicfit_error err;

	nicfit_error_clear(&err);
	memset(r, 0, sizeof(*r));
	assert_int_equal(nicfit_dump_new(&r->d), 0);
	assert_int_equal(nicfit_dump_add_text(r->d, "lspci", lspci, strlen(lspci), &err), 0);
	if (path)
		assert_int_equal(nicfit_dump_add_path(r->d, path, &err), 0);
	if (extra)
		assert_int_equal(nicfit_dump_add_text(r->d, "dmesg", extra, strlen(extra), &err), 0);
	assert_int_equal(nicfit_dump_topo(r->d, &r->t, &err), 0);
	assert_int_equal(nicfit_audit_judge(r->t, NULL, NULL, &r->a, &err), 0);
	assert_int_equal(nicfit_dump_judge(r->d, r->a, &err), 0);
}

static void done(struct run *r)
{
	nicfit_audit_free(r->a);
	nicfit_topo_free(r->t);
	nicfit_dump_free(r->d);
}

/* The only finding of code, or NULL; fails when there are several. */
static const struct nicfit_finding *only(const struct run *r, const char *code)
{
	const struct nicfit_finding *f = NULL;
	size_t i;

	for (i = 0; i < r->a->findings.n; i++)
		if (!strcmp(r->a->findings.v[i].code, code)) {
			assert_null(f);
			f = &r->a->findings.v[i];
		}
	return f;
}

/* OpenWrt's syslog: the link of 0003:01:00.0 is x1 of x2, at the port named. */
static void limited_public(void **state)
{
	struct run r;
	const struct dump_kmsg *m;
	const struct nicfit_finding *f;

	(void)state;
	read_all(&r, PUB "openwrt-24642-dmesg-limited.txt", NULL);
	assert_int_equal(r.d->nkmsg, 1);
	m = &r.d->kmsg[0];
	assert_int_equal(m->kind, DUMP_KMSG_PCIE_LIMITED);
	assert_int_equal(m->at.line, 2);
	assert_string_equal(m->bdf, "0003:01:00.0");
	assert_string_equal(m->limit_bdf, "0003:00:00.0");
	assert_string_equal(m->speed, "8.0 GT/s PCIe");
	assert_int_equal(m->width, 1);
	assert_int_equal(m->cap_width, 2);
	assert_true(m->avail_gbps > 7.875 && m->avail_gbps < 7.877);
	assert_true(m->cap_gbps > 15.751 && m->cap_gbps < 15.753);
	f = only(&r, "dump-pcie-limited");
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_WARNING);
	assert_string_equal(f->device, "0003:01:00.0");
	assert_non_null(strstr(f->message, "openwrt-24642-dmesg-limited.txt:2"));
	assert_non_null(strstr(f->message, "limited by a 8.0 GT/s PCIe x1 link at 0003:00:00.0"));
	done(&r);
}

/* An mlx5 boot log whose links are whole and whose module event is "Cable plugged": nothing. */
static void whole_public(void **state)
{
	struct run r;

	(void)state;
	read_all(&r, PUB "arm-nas-16-dmesg-mlx5.txt", NULL);
	assert_int_equal(r.d->nkmsg, 0);
	assert_null(only(&r, "dump-pcie-limited"));
	assert_null(only(&r, "dump-module-error"));
	done(&r);
}

/* ixgbe (out-of-tree wording) refuses the module: one finding, the reload hint is not another. */
static void ixgbe_public(void **state)
{
	struct run r;
	const struct nicfit_finding *f;

	(void)state;
	read_all(&r, PUB "vyos-538-ixgbe-sfp.txt", NULL);
	assert_int_equal(r.d->nkmsg, 1);
	assert_string_equal(r.d->kmsg[0].bdf, "0000:5e:00.0");
	assert_string_equal(r.d->kmsg[0].text, "failed to initialize because an unsupported SFP+ "
			    "module type was detected.");
	f = only(&r, "dump-module-error");
	assert_non_null(f);
	assert_string_equal(f->device, "0000:5e:00.0");
	assert_non_null(strstr(f->message, "vyos-538-ixgbe-sfp.txt:4"));
	done(&r);
}

/* i40e's line quoted without its prefix: no device named, the finding is the host's. */
static void i40e_public(void **state)
{
	struct run r;
	const struct nicfit_finding *f;

	(void)state;
	read_all(&r, PUB "i40e-20-sfp.txt", NULL);
	assert_int_equal(r.d->nkmsg, 1);
	assert_string_equal(r.d->kmsg[0].bdf, "");
	f = only(&r, "dump-module-error");
	assert_non_null(f);
	assert_string_equal(f->device, "host");
	assert_non_null(strstr(f->message, "unsupported SFP module type"));
	assert_non_null(strstr(f->message, "on a NIC the line does not name:"));
	done(&r);
}

/*
 * Lines in the kernel's formats (drivers/pci/pci.c, mlx5 events.c):
 * the GPU at full width but lower speed is a note (idle at probe), the NIC
 * at half width a warning, and an mlx5 cable error names the NIC.
 */
static void written_lines(void **state)
{
	static const char text[] =
		"[    5.100000] pci 0000:17:00.0: 126.016 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x16 link at 0000:16:01.0 (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)\n"
		"[    6.200000] mlx5_core 0000:99:00.0: 126.024 Gb/s available PCIe bandwidth, limited by 16.0 GT/s PCIe x8 link at 0000:98:01.0 (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)\n"
		"[  123.456794] mlx5_core 0000:99:00.0: Port module event[error]: module 0, Cable error, High Temperature\n"
		"[  124.000000] mlx5_core 0000:99:00.0: Port module event: module 0, Cable unplugged\n"
		"[  125.000000] pci 0000:99:00.0: 2.000 Gb/s available PCIe bandwidth, limited by \x1b[31m";
	struct run r;
	size_t i, info = 0, warn = 0;
	const struct nicfit_finding *f;

	(void)state;
	read_all(&r, NULL, text);
	assert_int_equal(r.d->nkmsg, 4);
	for (i = 0; i < r.a->findings.n; i++) {
		f = &r.a->findings.v[i];
		if (strcmp(f->code, "dump-pcie-limited"))
			continue;
		if (!strcmp(f->device, "0000:17:00.0")) {
			assert_int_equal(f->severity, NICFIT_SEV_INFO);
			assert_non_null(strstr(f->message, "GPU0"));
			info++;
		} else if (!strcmp(f->device, "0000:99:00.0") && strstr(f->message, "x8 link")) {
			assert_int_equal(f->severity, NICFIT_SEV_WARNING);
			warn++;
		} else {
			/* the cut line: no speed or port, said as unknown, not invented */
			assert_non_null(strstr(f->message, "a link the line does not name"));
		}
	}
	assert_int_equal(info, 1);
	assert_int_equal(warn, 1);
	f = only(&r, "dump-module-error");
	assert_non_null(f);
	assert_string_equal(f->device, "0000:99:00.0");
	assert_non_null(strstr(f->message, "Cable error, High Temperature"));
	done(&r);
}

/*
 * /dev/kmsg and dmesg write a control byte, a byte from 0x7f and a
 * backslash as \xHH: the text keeps the bytes, decoded once. \x00 is
 * dropped, an escape with one hex digit is not one (kept as written), and
 * an escaped backslash before "x41" stays a backslash, not an "A".
 */
static void escaped_text(void **state)
{
	static const char text[] =
		"3,1021,9123456,-;mlx5_core 0000:99:00.0 e\\x1b\\x7fn\\x00\\x5cx41\\x4: "
		"Port module event[error]: module 0, Cable error, Bus stuck (I2C or data shorted)\n";
	struct run r;

	(void)state;
	read_all(&r, NULL, text);
	assert_int_equal(r.d->nkmsg, 1);
	assert_string_equal(r.d->kmsg[0].text, "e\x1b\x7fn\\x41\\x4: Port module event[error]: "
			    "module 0, Cable error, Bus stuck (I2C or data shorted)");
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limited_public),
		cmocka_unit_test(whole_public),
		cmocka_unit_test(ixgbe_public),
		cmocka_unit_test(i40e_public),
		cmocka_unit_test(written_lines),
		cmocka_unit_test(escaped_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
