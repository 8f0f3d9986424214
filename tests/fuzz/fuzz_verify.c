/*
 * fuzz_verify.c - the recogniser (any kind, in any mix): any bytes are read or refused
 * with an error, and what is read judges and renders (fuzz_verify_common.h).
 */
#include "fuzz_verify_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return run_one(NULL, data, size);
}
