/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * itree_cmds.c --- e2x's own directory views: itree_dump (every node of a
 * directory's itree: level, key range, entry count, fullness; -v the
 * entries) and dir_check (the libe2x directory verifier, problem by
 * problem).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

struct itree_walk {
	struct dbg_ctx *ctx;
	ext2_ino_t dir;
	int verbose;
	unsigned int bs;
	uint64_t nodes, entries;
	int errors;
};

static uint32_t le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ext2fs_le32_to_cpu(v);
}

static uint64_t le64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return ext2fs_le64_to_cpu(v);
}

static uint16_t le16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return ext2fs_le16_to_cpu(v);
}

static void walk_node(struct itree_walk *w, blk64_t blk, int want_level,
		      int depth);

/* Leaf entries: print with -v, return the key range. */
static int leaf_entries(struct itree_walk *w, const unsigned char *buf,
			unsigned int count, unsigned int used,
			uint32_t key[4], int print, int depth)
{
	unsigned int off = E2X_ITREE_HDR_SIZE, i;
	FILE *o = w->ctx->out;

	for (i = 0; i < count; i++) {
		unsigned int nl, len;

		if (off + E2X_ITREE_LEAF_HDR > E2X_ITREE_HDR_SIZE + used)
			return 1;
		nl = buf[off + 8];
		len = E2X_ITREE_LEAF_LEN(nl);
		if (off + len > E2X_ITREE_HDR_SIZE + used)
			return 1;
		if (!i) {
			key[0] = le32(buf + off);
			key[1] = le32(buf + off + 4);
		}
		key[2] = le32(buf + off);
		key[3] = le32(buf + off + 4);
		if (print) {
			fprintf(o, "%*s  %u 0x%08x ", 2 * depth, "",
				le32(buf + off), le32(buf + off + 4));
			dbg_print_name(o, (const char *)buf + off +
				       E2X_ITREE_LEAF_HDR, nl, 0);
			fprintf(o, " (type %u)\n", buf[off + 9]);
		}
		off += len;
	}
	if (!print)
		w->entries += count;
	return 0;
}

static void walk_node(struct itree_walk *w, blk64_t blk, int want_level,
		      int depth)
{
	ext2_filsys fs = w->ctx->fs;
	FILE *o = w->ctx->out;
	unsigned char *buf;
	unsigned int count, used, level, i;
	uint32_t key[4] = { 0, 0, 0, 0 };
	errcode_t err;

	if (depth > E2X_ITREE_MAX_LEVELS || blk < fs->super->s_first_data_block
	    || blk >= ext2fs_blocks_count(fs->super)) {
		fprintf(o, "  node %llu: out of range or too deep\n",
			(unsigned long long)blk);
		w->errors++;
		return;
	}
	buf = malloc(w->bs);
	if (!buf) {
		w->errors++;
		return;
	}
	err = io_channel_read_blk64(fs->io, blk, 1, buf);
	if (err || le32(buf) != E2X_ITREE_NODE_MAGIC) {
		fprintf(o, "  node %llu: %s\n", (unsigned long long)blk,
			err ? error_message(err) : "bad magic");
		w->errors++;
		goto out;
	}
	count = le16(buf + 4);
	used = le16(buf + 6);
	level = buf[8];
	w->nodes++;
	if (E2X_ITREE_HDR_SIZE + used > w->bs || (int)level != want_level) {
		fprintf(o, "  node %llu: level %u (want %d), %u bytes used: "
			"corrupt\n", (unsigned long long)blk, level,
			want_level, used);
		w->errors++;
		goto out;
	}
	if (level == 0) {
		if (leaf_entries(w, buf, count, used, key, 0, depth)) {
			fprintf(o, "  node %llu: entries overrun in_used\n",
				(unsigned long long)blk);
			w->errors++;
		}
	} else if (count) {
		if (E2X_ITREE_HDR_SIZE + count * E2X_ITREE_INDEX_LEN > w->bs) {
			fprintf(o, "  node %llu: %u index entries do not fit\n",
				(unsigned long long)blk, count);
			w->errors++;
			goto out;
		}
		key[0] = le32(buf + E2X_ITREE_HDR_SIZE);
		key[1] = le32(buf + E2X_ITREE_HDR_SIZE + 4);
		key[2] = le32(buf + E2X_ITREE_HDR_SIZE +
			      (count - 1) * E2X_ITREE_INDEX_LEN);
		key[3] = le32(buf + E2X_ITREE_HDR_SIZE +
			      (count - 1) * E2X_ITREE_INDEX_LEN + 4);
	}
	fprintf(o, "%*sNode %llu: level %u, %u entries, %u/%u bytes (%u%%), "
		"fullness %u/4, keys (%u,0x%08x)..(%u,0x%08x)\n", 2 * depth, "",
		(unsigned long long)blk, level, count, used,
		w->bs - E2X_ITREE_HDR_SIZE,
		used * 100 / (w->bs - E2X_ITREE_HDR_SIZE), buf[9], key[0],
		key[1], key[2], key[3]);
	if (level == 0) {
		if (w->verbose)
			leaf_entries(w, buf, count, used, key, 1, depth);
		goto out;
	}
	for (i = 0; i < count; i++) {
		const unsigned char *ie = buf + E2X_ITREE_HDR_SIZE +
					  i * E2X_ITREE_INDEX_LEN;

		if (w->verbose)
			fprintf(o, "%*s  [%u] (%u,0x%08x) -> %llu\n", 2 * depth,
				"", i, le32(ie), le32(ie + 4),
				(unsigned long long)le64(ie + 8));
		walk_node(w, le64(ie + 8), level - 1, depth + 1);
	}
out:
	free(buf);
}

int do_itree_dump(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_inode_large *in = NULL;
	struct e2x_itree_root root;
	struct e2x_itree_stats st;
	struct itree_walk w;
	ext2_ino_t dir;
	errcode_t err;
	int c, verbose = 0, ret = 1;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "v")) != -1) {
		if (c != 'v') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		verbose = 1;
	}
	if (optind != argc - 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve_dir(ctx, argv[0], argv[optind], &dir))
		return 1;
	in = calloc(1, EXT2_INODE_SIZE(fs->super) < sizeof(*in) ?
		    sizeof(*in) : EXT2_INODE_SIZE(fs->super));
	if (!in) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	err = e2x_read_inode(fs, dir, in);
	if (!err)
		err = e2x_itree_root_get(fs, in, &root);
	if (err == E2X_ERR_NOT_FOUND) {
		dbg_error(ctx, argv[0], 0, "%s: directory has no itree%s",
			  argv[optind], e2x_itree_feature(fs) ? "" :
			  " (the file system lacks the itree feature)");
		goto out;
	}
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[optind]);
		goto out;
	}
	fprintf(ctx->out, "itree of inode %u: root %llu, levels %u, nodes %u, "
		"clusters %u, generation %u, version %u, free list %llu\n",
		dir, (unsigned long long)root.ir_root, root.ir_levels,
		root.ir_nodes, root.ir_clusters, root.ir_generation,
		root.ir_version, (unsigned long long)root.ir_free);
	memset(&w, 0, sizeof(w));
	w.ctx = ctx;
	w.dir = dir;
	w.verbose = verbose;
	w.bs = fs->blocksize;
	if (!root.ir_levels || root.ir_levels > E2X_ITREE_MAX_LEVELS) {
		dbg_error(ctx, argv[0], 0, "corrupt root record: %u levels",
			  root.ir_levels);
		goto out;
	}
	walk_node(&w, root.ir_root, root.ir_levels - 1, 0);
	fprintf(ctx->out, "%llu nodes, %llu entries\n",
		(unsigned long long)w.nodes, (unsigned long long)w.entries);
	if (!e2x_itree_stats(fs, dir, in, &st) && st.leaf_bytes_cap)
		fprintf(ctx->out, "leaves %llu, leaf fill %llu%%\n",
			(unsigned long long)st.leaves,
			(unsigned long long)(st.leaf_bytes_used * 100 /
					     st.leaf_bytes_cap));
	if (w.errors) {
		dbg_error(ctx, argv[0], 0, "%d damaged nodes (dir_check "
			  "tells more)", w.errors);
		goto out;
	}
	ret = 0;
out:
	free(in);
	return ret;
}

int do_dir_check(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct e2x_dir_problems probs;
	ext2_ino_t dir;
	errcode_t err;
	size_t i;
	int a, bad = 0;

	if (argc < 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	for (a = 1; a < argc; a++) {
		if (dbg_resolve(ctx, argv[0], argv[a], &dir)) {
			bad++;
			continue;
		}
		memset(&probs, 0, sizeof(probs));
		err = e2x_dir_verify(ctx->fs, dir, 0, &probs);
		if (err) {
			dbg_error(ctx, argv[0], err, "%s", argv[a]);
			e2x_dir_problems_free(&probs);
			bad++;
			continue;
		}
		for (i = 0; i < probs.count; i++) {
			const struct e2x_dir_problem *p = &probs.list[i];

			fprintf(ctx->out, "%s (inode %u): %s", argv[a], dir,
				e2x_dir_problem_name(p->code));
			if (p->lblk != ~0ULL)
				fprintf(ctx->out, " at block %llu offset %u",
					(unsigned long long)p->lblk, p->offset);
			fprintf(ctx->out, "%s%.*s\n", p->desc[0] ? ": " : "",
				(int)sizeof(p->desc), p->desc);
		}
		fprintf(ctx->out, "%s (inode %u): %zu problem%s\n", argv[a],
			dir, probs.count, probs.count == 1 ? "" : "s");
		if (probs.count)
			bad++;
		e2x_dir_problems_free(&probs);
	}
	if (bad)
		dbg_error(ctx, argv[0], 0, "%d of %d director%s not clean", bad,
			  argc - 1, argc == 2 ? "y is" : "ies are");
	return bad ? 1 : 0;
}
