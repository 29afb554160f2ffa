/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * encrypt.c --- the encryption policy of every encrypted inode pass 1
 * accepted, for pass 2's rule that an encrypted directory names only
 * inodes encrypted with its own policy.
 *
 * A policy is an encryption context without its per-inode nonce: the
 * first 12 bytes of a version 1 context, the first 24 of a version 2.
 * Distinct policies are few; each inode keeps the index of its own.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "context.h"

#define ENC_V1_LEN 28		/* version 1 context: policy 12 + nonce 16 */
#define ENC_V2_LEN 40		/* version 2 context: policy 24 + nonce 16 */
#define ENC_NONCE_LEN 16
#define ENC_POLICY_MAX (ENC_V2_LEN - ENC_NONCE_LEN)

struct enc_policy {
	unsigned int len;
	unsigned char bytes[ENC_POLICY_MAX];
};

struct enc_ino {
	ext2_ino_t ino;
	uint32_t policy;
};

struct fsck_enc {
	struct enc_policy *policies;
	size_t npolicies;
	struct enc_ino *inos;
	size_t ninos, cap;
	int sorted;
};

int fsck_enc_context_ok(const unsigned char *c, int len)
{
	if (len < 1)
		return 0;
	if (c[0] == 1)
		return len == ENC_V1_LEN;
	if (c[0] == 2)
		return len == ENC_V2_LEN;
	return c[0] != 0;	/* a later version: kept, not compared */
}

/* The index of the policy of context C (LEN bytes), added if new. */
static errcode_t policy_index(struct fsck_enc *e, const unsigned char *c,
			      int len, uint32_t *idx)
{
	unsigned int plen = len - ENC_NONCE_LEN;
	struct enc_policy *p;
	size_t i;

	for (i = 0; i < e->npolicies; i++)
		if (e->policies[i].len == plen &&
		    !memcmp(e->policies[i].bytes, c, plen)) {
			*idx = i;
			return 0;
		}
	p = realloc(e->policies, (e->npolicies + 1) * sizeof(*p));
	if (!p)
		return EXT2_ET_NO_MEMORY;
	e->policies = p;
	p[e->npolicies].len = plen;
	memcpy(p[e->npolicies].bytes, c, plen);
	*idx = e->npolicies++;
	return 0;
}

errcode_t fsck_enc_note(struct fsck_ctx *ctx, ext2_ino_t ino,
			const unsigned char *c, int len)
{
	struct fsck_enc *e = ctx->enc;
	uint32_t idx = FSCK_ENC_UNKNOWN;
	errcode_t err;

	if (!e) {
		e = ctx->enc = calloc(1, sizeof(*e));
		if (!e)
			return EXT2_ET_NO_MEMORY;
	}
	if (c[0] == 1 || c[0] == 2) {
		err = policy_index(e, c, len, &idx);
		if (err)
			return err;
	}
	if (e->ninos == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 64;
		struct enc_ino *v = realloc(e->inos, cap * sizeof(*v));

		if (!v)
			return EXT2_ET_NO_MEMORY;
		e->inos = v;
		e->cap = cap;
	}
	if (e->ninos && e->inos[e->ninos - 1].ino > ino)
		e->sorted = 0;
	else if (!e->ninos)
		e->sorted = 1;
	e->inos[e->ninos++] = (struct enc_ino){ ino, idx };
	return 0;
}

static int cmp_ino(const void *a, const void *b)
{
	const struct enc_ino *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

uint32_t fsck_enc_policy(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	struct fsck_enc *e = ctx->enc;
	struct enc_ino key = { ino, 0 }, *hit;

	if (!e || !e->ninos)
		return FSCK_ENC_NONE;
	if (!e->sorted) {
		qsort(e->inos, e->ninos, sizeof(*e->inos), cmp_ino);
		e->sorted = 1;
	}
	hit = bsearch(&key, e->inos, e->ninos, sizeof(*e->inos), cmp_ino);
	return hit ? hit->policy : FSCK_ENC_NONE;
}

void fsck_enc_free(struct fsck_ctx *ctx)
{
	if (!ctx->enc)
		return;
	free(ctx->enc->policies);
	free(ctx->enc->inos);
	free(ctx->enc);
	ctx->enc = NULL;
}
