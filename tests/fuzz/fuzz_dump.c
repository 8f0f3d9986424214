/*
 * fuzz_dump.c - pasted dumps (lspci -vvv and -t, nvidia-smi topo -m and
 * its GPU listings, in any mix): any bytes are read or refused with a
 * message, and a model built from them is judged and rendered, with the
 * dump's own comparison and notes, without a crash or a read past the
 * text.
 */
#include "fuzz_dump_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_dump_text(NULL, 0, data, size);
	return 0;
}
