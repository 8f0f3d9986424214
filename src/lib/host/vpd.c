/*
 * vpd.c - PCI VPD resource tags and keywords (see nicfit/vpd.h).
 * Tag values and the checksum rule follow the kernel's drivers/pci/vpd.c
 * and pciutils' ls-vpd.c (docs/reference/nic-identity.md section 4).
 */
#include <string.h>

#include "host/vpd_int.h"

#define TAG_LARGE 0x80
#define ITEM_ID 0x02
#define ITEM_RO 0x10
#define ITEM_RW 0x11
#define ITEM_END 0x0f

static void text_copy(char *out, size_t cap, const uint8_t *p, size_t n, int *binary)
{
	size_t i, k = 0;

	*binary = 0;
	for (i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c == 0 && i + 1 == n)
			break; /* a trailing NUL is common */
		if (c < 0x20 || c > 0x7e) {
			*binary = 1;
			continue;
		}
		if (k + 1 < cap)
			out[k++] = (char)c;
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
}

/* Parse the keyword list of a 0x90/0x91 section spanning [start, end). */
static int keywords(const uint8_t *p, size_t start, size_t end, int rw,
		    struct nicfit_vpd *v, struct nicfit_error *err)
{
	size_t o = start;

	while (o < end) {
		struct nicfit_vpd_keyword *k;
		size_t klen;
		int bin;

		if (end - o < 3)
			return nicfit_error_set(err, NICFIT_E_DATA,
						"VPD offset %zu: keyword header cut short", o);
		klen = p[o + 2];
		if (o + 3 + klen > end)
			return nicfit_error_set(err, NICFIT_E_DATA,
						"VPD offset %zu: keyword %c%c runs past its section",
						o, p[o] >= 0x20 && p[o] < 0x7f ? p[o] : '?',
						p[o + 1] >= 0x20 && p[o + 1] < 0x7f ? p[o + 1] : '?');
		if (p[o] < 0x20 || p[o] > 0x7e || p[o + 1] < 0x20 || p[o + 1] > 0x7e)
			return nicfit_error_set(err, NICFIT_E_DATA,
						"VPD offset %zu: keyword name is not text", o);
		if (!rw && p[o] == 'R' && p[o + 1] == 'V') {
			unsigned sum = 0;
			size_t i;

			if (klen < 1)
				return nicfit_error_set(err, NICFIT_E_DATA,
							"VPD offset %zu: RV keyword without checksum", o);
			for (i = 0; i <= o + 3; i++)
				sum += p[i];
			v->checksum = (sum & 0xff) ? NICFIT_VPD_CSUM_BAD : NICFIT_VPD_CSUM_GOOD;
			v->rv_reserved = (int)klen - 1;
		}
		if (v->nkw < NICFIT_VPD_MAX_KEYWORDS) {
			k = &v->kw[v->nkw++];
			k->key[0] = (char)p[o];
			k->key[1] = (char)p[o + 1];
			k->key[2] = '\0';
			k->rw = rw;
			k->len = klen;
			text_copy(k->value, sizeof(k->value), p + o + 3, klen, &bin);
			k->binary = bin;
			if (bin)
				k->value[0] = '\0';
		} else {
			v->dropped++;
		}
		o += 3 + klen;
	}
	return 0;
}

int nicfit__vpd_parse(const uint8_t *p, size_t len, struct nicfit_vpd *v,
		     struct nicfit_error *err)
{
	size_t o = 0;
	int rc, bin;

	/*
	 * The header only, not the 48 keywords (13 KiB, more than the parse
	 * costs): a keyword is written whole when it is added, and nothing
	 * reads one past nkw.
	 */
	v->name[0] = '\0';
	v->nkw = 0;
	v->dropped = 0;
	v->checksum = NICFIT_VPD_CSUM_NONE;
	v->rv_reserved = 0;
	v->end = 0;
	v->size = 0;
	if (!len)
		return nicfit_error_set(err, NICFIT_E_DATA, "VPD is empty");
	while (o < len) {
		uint8_t tag = p[o];

		if (tag & TAG_LARGE) {
			unsigned item = tag & 0x7f;
			size_t n;

			if (len - o < 3)
				return nicfit_error_set(err, NICFIT_E_DATA,
							"VPD offset %zu: tag 0x%02x cut short", o, tag);
			n = (size_t)p[o + 1] | (size_t)p[o + 2] << 8;
			if (o + 3 + n > len)
				return nicfit_error_set(err, NICFIT_E_DATA,
							"VPD offset %zu: tag 0x%02x says %zu bytes, %zu left",
							o, tag, n, len - o - 3);
			if (item == ITEM_ID) {
				text_copy(v->name, sizeof(v->name), p + o + 3, n, &bin);
			} else if (item == ITEM_RO || item == ITEM_RW) {
				rc = keywords(p, o + 3, o + 3 + n, item == ITEM_RW, v, err);
				if (rc)
					return rc;
			} else {
				return nicfit_error_set(err, NICFIT_E_DATA,
							"VPD offset %zu: unknown resource tag 0x%02x", o, tag);
			}
			o += 3 + n;
		} else {
			unsigned item = (tag >> 3) & 0x0f;
			size_t n = tag & 0x07;

			if (item == ITEM_END) {
				v->end = 1;
				v->size = o + 1;
				return 0;
			}
			if (o + 1 + n > len)
				return nicfit_error_set(err, NICFIT_E_DATA,
							"VPD offset %zu: small tag 0x%02x cut short", o, tag);
			if (item == 0)
				return nicfit_error_set(err, NICFIT_E_DATA,
							"VPD offset %zu: tag 0x%02x is not a VPD tag", o, tag);
			o += 1 + n;
		}
	}
	return nicfit_error_set(err, NICFIT_E_DATA, "VPD has no end tag");
}

const char *nicfit__vpd_get(const struct nicfit_vpd *v, const char *key)
{
	int i;

	for (i = 0; i < v->nkw; i++)
		if (!strcmp(v->kw[i].key, key))
			return v->kw[i].binary ? NULL : v->kw[i].value;
	return NULL;
}
