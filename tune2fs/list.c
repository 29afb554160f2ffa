/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.c --- the superblock listing of tune2fs -l and dumpe2fs -h:
 * libe2p's, so every field and label is the reference's, with e2x's own
 * itree feature named (libe2p only knows its bit number).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <e2p/e2p.h>
#include "tune2fs.h"

/* Write TEXT to F with every libe2p name of the itree bit replaced. */
static void put_named(FILE *f, const char *text)
{
	const char *unknown = e2p_feature2string(E2P_FEATURE_RO_INCOMPAT,
						 E2X_FEATURE_RO_COMPAT_ITREE);
	size_t ulen = strlen(unknown);
	const char *p = text, *hit;

	while ((hit = strstr(p, unknown))) {
		fwrite(p, 1, hit - p, f);
		fputs(E2X_ITREE_FEATURE_NAME, f);
		p = hit + ulen;
	}
	fputs(p, f);
}

void list_superblock(FILE *f, ext2_filsys fs)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem) {
		list_super2(fs->super, f);
		return;
	}
	list_super2(fs->super, mem);
	fclose(mem);
	put_named(f, text);
	free(text);
}
