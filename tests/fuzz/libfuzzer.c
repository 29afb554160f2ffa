/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libfuzzer.c --- the libFuzzer entry points of the e2fsck fuzz target
 * (built only when the compiler has -fsanitize=fuzzer; see README):
 * half of the mutations are libFuzzer's own, half mutate.c's.
 */
#include "config.h"
#include "fsck_target.h"
#include "mutate.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fsck_target_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fsck_target_run(data, size);
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	uint64_t st = seed;
	struct mut_map m;

	if (seed % 2 || mut_map_build(&m, data, size))
		return LLVMFuzzerMutate(data, size, max_size);
	mut_apply(&m, data, size, &st, NULL, 0);
	mut_map_free(&m);
	return size;
}
