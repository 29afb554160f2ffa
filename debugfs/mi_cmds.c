/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mi_cmds.c --- modify_inode: the reference's field-by-field prompts over
 * the base inode.  Each prompt shows the current value; an answer read
 * from standard input replaces it, an empty answer (or end of input)
 * keeps it, a value that does not parse is refused and kept.  The inode
 * is written once at the end, through e2x_write_inode.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "debugfs.h"

enum mi_base { MI_OCT, MI_DEC, MI_HEX };

struct mi_field {
	const char *label;
	size_t off, size;	/* in struct ext2_inode */
	enum mi_base base;
};

#define MI(label, member, base) \
	{ label, offsetof(struct ext2_inode, member), \
	  sizeof(((struct ext2_inode *)0)->member), base }
#define MI_BLOCK(label, n) \
	{ label, offsetof(struct ext2_inode, i_block) + 4 * (n), 4, MI_DEC }

static const struct mi_field mi_fields[] = {
	MI("Mode", i_mode, MI_OCT),
	MI("User ID", i_uid, MI_DEC),
	MI("Group ID", i_gid, MI_DEC),
	MI("Size", i_size, MI_DEC),
	MI("Creation time", i_ctime, MI_DEC),
	MI("Modification time", i_mtime, MI_DEC),
	MI("Access time", i_atime, MI_DEC),
	MI("Deletion time", i_dtime, MI_DEC),
	MI("Link count", i_links_count, MI_DEC),
	MI("Block count high", osd2.linux2.l_i_blocks_hi, MI_DEC),
	MI("Block count", i_blocks, MI_DEC),
	MI("File flags", i_flags, MI_HEX),
	MI("Generation", i_generation, MI_HEX),
	MI("File acl", i_file_acl, MI_DEC),
	MI("High 32bits of size", i_size_high, MI_DEC),
	MI("Fragment address", i_faddr, MI_DEC),
	MI_BLOCK("Direct Block #0", 0), MI_BLOCK("Direct Block #1", 1),
	MI_BLOCK("Direct Block #2", 2), MI_BLOCK("Direct Block #3", 3),
	MI_BLOCK("Direct Block #4", 4), MI_BLOCK("Direct Block #5", 5),
	MI_BLOCK("Direct Block #6", 6), MI_BLOCK("Direct Block #7", 7),
	MI_BLOCK("Direct Block #8", 8), MI_BLOCK("Direct Block #9", 9),
	MI_BLOCK("Direct Block #10", 10), MI_BLOCK("Direct Block #11", 11),
	MI_BLOCK("Indirect Block", EXT2_IND_BLOCK),
	MI_BLOCK("Double Indirect Block", EXT2_DIND_BLOCK),
	MI_BLOCK("Triple Indirect Block", EXT2_TIND_BLOCK),
};

static uint32_t mi_get(const unsigned char *in, const struct mi_field *f)
{
	uint16_t v16;
	uint32_t v32;

	if (f->size == 2) {
		memcpy(&v16, in + f->off, 2);
		return v16;
	}
	memcpy(&v32, in + f->off, 4);
	return v32;
}

static void mi_put(unsigned char *in, const struct mi_field *f, uint32_t v)
{
	uint16_t v16 = (uint16_t)v;

	if (f->size == 2)
		memcpy(in + f->off, &v16, 2);
	else
		memcpy(in + f->off, &v, 4);
}

/* One prompt and its answer. */
static void mi_ask(struct dbg_ctx *ctx, const char *cmd, unsigned char *in,
		   const struct mi_field *f)
{
	static const char *const fmt[] = { "0%o", "%u", "0x%x" };
	char cur[16], line[256], *end;
	unsigned long v;
	size_t n;

	snprintf(cur, sizeof(cur), fmt[f->base], mi_get(in, f));
	fprintf(ctx->out, "%30s    [%s] ", f->label, cur);
	fflush(ctx->out);
	if (!fgets(line, sizeof(line), stdin))
		return;
	n = strcspn(line, "\r\n");
	line[n] = 0;
	if (!n)
		return;
	v = strtoul(line, &end, 0);
	if (*end) {
		dbg_error(ctx, cmd, 0, "Bad value - %s", line);
		return;
	}
	mi_put(in, f, (uint32_t)v);
}

/* modify_inode file */
int do_modify_inode(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_inode_large *in;
	ext2_ino_t ino;
	errcode_t err;
	size_t i;
	int rc = 1;

	in = dbg_file_arg_new(ctx, argc, argv, &ino);
	if (!in)
		return 1;
	for (i = 0; i < sizeof(mi_fields) / sizeof(mi_fields[0]); i++)
		mi_ask(ctx, argv[0], (unsigned char *)in, &mi_fields[i]);
	err = e2x_write_inode(ctx->fs, ino, in);
	if (err) {
		dbg_error(ctx, argv[0], err, "writing inode %u", ino);
		goto out;
	}
	rc = 0;
out:
	free(in);
	return rc;
}
