/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * crc32c.c --- crc32c for the checksums libe2x and e2fsck compute in hot
 * paths (itree nodes, inodes, directory blocks, bitmaps): the SSE4.2
 * instruction (three streams at once for long buffers) when the CPU has
 * it, else libext2fs' table code.  Same value either way: the unit tests
 * recompute node checksums of every block size with ext2fs_crc32c_le().
 */
#include "config.h"
#include <pthread.h>
#include <string.h>
#include "e2x.h"

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

#define CRC32C_POLY	0x82f63b78u	/* reflected */

/* a * b modulo the CRC polynomial, both reflected (bit 31 is x^0). */
static uint32_t gf2_mulmod(uint32_t a, uint32_t b)
{
	uint32_t m = 1u << 31, p = 0;

	for (;;) {
		if (a & m) {
			p ^= b;
			if (!(a & (m - 1)))
				break;
		}
		m >>= 1;
		b = b & 1 ? (b >> 1) ^ CRC32C_POLY : b >> 1;
	}
	return p;
}

/* x^(8 * n) modulo the polynomial: what n zero bytes do to a crc.  The few
 * lengths node checksums use are remembered. */
static uint32_t zeros_operator(uint32_t n)
{
	static uint64_t memo[8];
	uint32_t r = 1u << 31, base = 1u << 23, k = n;	/* x^0, x^8 */
	unsigned int i;

	for (i = 0; i < 8; i++) {
		uint64_t m = __atomic_load_n(&memo[i], __ATOMIC_RELAXED);

		if (m && (uint32_t)(m >> 32) == n)
			return (uint32_t)m;
	}
	while (k) {
		if (k & 1)
			r = gf2_mulmod(r, base);
		base = gf2_mulmod(base, base);
		k >>= 1;
	}
	__atomic_store_n(&memo[n % 8], (uint64_t)n << 32 | r, __ATOMIC_RELAXED);
	return r;
}

/*
 * Multiplying by a fixed zeros_operator(n) is linear over GF(2), so four
 * byte tables do it in four lookups.  A few lengths get tables (node
 * checksums use one per block size), built once under a lock and never
 * changed after being published; other lengths use gf2_mulmod().
 */
#define MUL_SLOTS	4

static struct mul_table {
	uint32_t n;		/* published last (release) */
	uint32_t t[4][256];
} mul_tables[MUL_SLOTS];
static pthread_mutex_t mul_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct mul_table *mul_table_for(uint32_t n)
{
	struct mul_table *m = NULL;
	unsigned int i, j, b;
	uint32_t k;

	for (i = 0; i < MUL_SLOTS; i++)
		if (__atomic_load_n(&mul_tables[i].n, __ATOMIC_ACQUIRE) == n)
			return &mul_tables[i];
	if (pthread_mutex_trylock(&mul_lock))
		return NULL;
	for (i = 0; i < MUL_SLOTS && !m; i++) {
		if (mul_tables[i].n == n) {
			pthread_mutex_unlock(&mul_lock);
			return &mul_tables[i];
		}
		if (!mul_tables[i].n)
			m = &mul_tables[i];
	}
	if (m) {
		k = zeros_operator(n);
		for (j = 0; j < 4; j++) {
			m->t[j][0] = 0;	/* gf2_mulmod() wants a != 0 */
			for (b = 1; b < 256; b++)
				m->t[j][b] = gf2_mulmod((uint32_t)b << (8 * j),
							k);
		}
		__atomic_store_n(&m->n, n, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mul_lock);
	return m;
}

static uint32_t mul_by(const struct mul_table *m, uint32_t a)
{
	return m->t[0][a & 0xff] ^ m->t[1][(a >> 8) & 0xff] ^
	       m->t[2][(a >> 16) & 0xff] ^ m->t[3][a >> 24];
}

/* Three independent streams hide the latency of the crc32 instruction;
 * their crcs are joined with zeros_operator(). */
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw3(uint32_t crc, const unsigned char *p, size_t len)
{
	size_t seg = len / 24 * 8, i;
	uint64_t c0 = crc, c1 = 0, c2 = 0;
	const struct mul_table *m;
	uint32_t k;

	for (i = 0; i < seg; i += 8) {
		uint64_t a, b, d;

		memcpy(&a, p + i, 8);
		memcpy(&b, p + seg + i, 8);
		memcpy(&d, p + 2 * seg + i, 8);
		c0 = __builtin_ia32_crc32di(c0, a);
		c1 = __builtin_ia32_crc32di(c1, b);
		c2 = __builtin_ia32_crc32di(c2, d);
	}
	m = seg ? mul_table_for(seg) : NULL;
	if (m) {
		crc = mul_by(m, (uint32_t)c0) ^ (uint32_t)c1;
		crc = mul_by(m, crc) ^ (uint32_t)c2;
	} else {
		k = zeros_operator(seg);
		crc = gf2_mulmod((uint32_t)c0, k) ^ (uint32_t)c1;
		crc = gf2_mulmod(crc, k) ^ (uint32_t)c2;
	}
	return crc32c_hw(crc, p + 3 * seg, len - 3 * seg);
}

uint32_t e2x_crc32c(uint32_t crc, const void *p, size_t len)
{
	static int hw = -1;

	if (hw < 0) {
		__builtin_cpu_init();
		hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	}
	if (!hw)
		return ext2fs_crc32c_le(crc, p, len);
	if (len >= 768)
		return crc32c_hw3(crc, p, len);
	return crc32c_hw(crc, p, len);
}
#else
uint32_t e2x_crc32c(uint32_t crc, const void *p, size_t len)
{
	return ext2fs_crc32c_le(crc, p, len);
}
#endif
