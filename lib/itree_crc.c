/*
 * itree_crc.c --- crc32c for itree node checksums: the SSE4.2 instruction
 * when the CPU has it, else libext2fs' table code.  Same value either way
 * (the unit tests recompute node checksums with ext2fs_crc32c_le()).
 */
#include "config.h"
#include <string.h>
#include "itree-int.h"

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const unsigned char *p, size_t len)
{
	uint64_t c = crc;

	while (len && ((uintptr_t)p & 7)) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
		len--;
	}
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return (uint32_t)c;
}

uint32_t itree_crc32c(uint32_t crc, const void *p, size_t len)
{
	static int hw = -1;

	if (hw < 0) {
		__builtin_cpu_init();
		hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	}
	if (hw)
		return crc32c_hw(crc, p, len);
	return ext2fs_crc32c_le(crc, p, len);
}
#else
uint32_t itree_crc32c(uint32_t crc, const void *p, size_t len)
{
	return ext2fs_crc32c_le(crc, p, len);
}
#endif
