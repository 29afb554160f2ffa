/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmds.c --- the debugfs command table and the dispatcher that checks a
 * command's needs (open fs, read-write, bitmaps) before running it.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "debugfs.h"

#define FS DBG_NEEDS_FS
#define RW (DBG_NEEDS_FS | DBG_NEEDS_RW)
#define BM (DBG_NEEDS_FS | DBG_NEEDS_BMAPS)
#define PATH DBG_WANTS_PATH

/* Names and arguments follow e2fsprogs' debugfs; the help is ours. */
const struct dbg_cmd dbg_commands[] = {
	/* session */
	{ "open", "open_filesys", do_open, 0,
	  "[-w] [-c] [-D] [-f] [-b blocksize -s superblock] image",
	  "open an image or device" },
	{ "close", "close_filesys", do_close, FS, "[-a]",
	  "close the image (-a: write the superblock to all backups)" },
	{ "params", "show_debugfs_params", do_params, 0, "",
	  "show the session parameters" },
	{ "help", "?", do_help, 0, "[command]", "list commands or show one" },
	{ "quit", "q exit", do_quit, 0, "", "leave debugfs" },
	/* super block */
	{ "stats", "show_super_stats", do_stats, FS, "[-h]",
	  "superblock fields (-h: without group descriptors)" },
	/* inodes */
	{ "stat", "show_inode_info", do_stat, FS | PATH, "file",
	  "every field of an inode" },
	{ "idump", "inode_dump", do_idump, FS | PATH, "[-b|-e|-x] file",
	  "hex dump of an inode (-b i_block, -e extra space, -x xattrs)" },
	{ "blocks", NULL, do_blocks, FS | PATH, "file",
	  "the data blocks of a file" },
	{ "ex", "dump_extents extents", do_ex, FS | PATH, "[-n] [-l] file",
	  "extent tree (-n interior nodes only, -l leaves only)" },
	{ "imap", NULL, do_imap, FS | PATH, "file",
	  "where an inode lives on disk" },
	/* directories */
	{ "ls", "list_directory", do_ls, FS | PATH,
	  "[-l] [-d] [-p] [-r] [-o hash|inode|disk] [dir]",
	  "list a directory" },
	{ "cd", "change_working_directory", do_cd, FS | PATH, "dir",
	  "change the current directory" },
	{ "pwd", "print_working_directory", do_pwd, FS, "",
	  "print the current directory" },
	{ "ncheck", NULL, do_ncheck, FS, "[-c] inode ...",
	  "path names of inodes (-c: check file types)" },
	{ "dirsearch", "dir_search", do_dirsearch, FS | PATH, "dir name",
	  "find a name in a directory's blocks" },
	{ "htree_dump", "htree", do_htree_dump, FS | PATH, "[-l] dir",
	  "the hash tree of an indexed directory" },
	{ "dx_hash", "hash", do_dx_hash, 0,
	  "[-h hash_alg] [-s seed] [-c] name",
	  "directory hash of a name" },
	{ "itree_dump", "itree", do_itree_dump, FS | PATH, "[-v] dir",
	  "every node of a directory's itree (-v: the entries)" },
	{ "dir_check", NULL, do_dir_check, FS | PATH, "dir ...",
	  "verify directories and list each problem" },
	/* file contents */
	{ "cat", NULL, do_cat, FS | PATH, "file",
	  "write a file's contents to stdout" },
	{ "dump", "dump_inode", do_dump, FS | PATH, "[-p] file out",
	  "copy a file out of the image (-p: keep owner, mode, times)" },
	{ "rdump", NULL, do_rdump, FS | PATH, "dir... outdir",
	  "copy directory trees out of the image" },
	/* blocks and bitmaps */
	{ "bd", "block_dump", do_bd, FS | PATH, "[-f file] block [count]",
	  "hex dump of blocks (-f: logical blocks of a file)" },
	{ "icheck", NULL, do_icheck, FS, "block ...",
	  "which inode owns each block" },
	{ "testb", NULL, do_testb, BM, "block [count]",
	  "is a block in use" },
	{ "testi", NULL, do_testi, BM | PATH, "file",
	  "is an inode in use" },
	{ "ffb", "find_free_block", do_ffb, BM, "[count [goal]]",
	  "find free blocks" },
	{ "ffi", "find_free_inode", do_ffi, BM, "[dir [mode]]",
	  "find a free inode" },
	{ "freefrag", "e2freefrag", do_freefrag, BM, "[-c chunk_kb]",
	  "free space fragmentation" },
	/* extended attributes */
	{ "ea_list", NULL, do_ea_list, FS | PATH, "file",
	  "list extended attributes" },
	{ "ea_get", NULL, do_ea_get, FS | PATH, "[-x] [-f out] file name",
	  "value of one extended attribute" },
	/* journal and recovery */
	/* journal and recovery */
	{ "logdump", NULL, do_logdump, FS, "[-a] [-O] [-S]",
	  "the journal log (-S superblock, -O old transactions, -a data)" },
	{ "lsdel", "list_deleted_inodes", do_lsdel, FS, "[secs]",
	  "deleted inodes that still map blocks" },
	{ "dump_unused", NULL, do_dump_unused, BM, "",
	  "free blocks that hold data" },
	/* raw changes (read-write) */
	/* raw changes (read-write) */
	{ "set_super_value", "ssv", do_ssv, RW, "-l | field value",
	  "change a superblock field (-l lists the fields)" },
	{ "set_inode_field", "sif", do_sif, RW | PATH,
	  "-l | file field value",
	  "change an inode field (-l lists the fields)" },
	{ "setb", NULL, do_setb, RW | DBG_NEEDS_BMAPS, "block [count]",
	  "mark blocks in use (counters follow)" },
	{ "freeb", NULL, do_freeb, RW | DBG_NEEDS_BMAPS, "block [count]",
	  "mark blocks free (counters follow)" },
	{ "seti", NULL, do_seti, RW | DBG_NEEDS_BMAPS | PATH, "file",
	  "mark an inode in use" },
	{ "freei", NULL, do_freei, RW | DBG_NEEDS_BMAPS | PATH, "file",
	  "mark an inode free" },
	{ "set_bg", "set_block_group", do_set_bg, RW,
	  "-l | group field value",
	  "change a group descriptor field (checksum follows)" },
	{ "dirty", "dirty_filesys", do_dirty, RW, "",
	  "mark the superblock dirty" },
	{ "feature", "features", do_feature, FS, "[[-|^]feature ...]",
	  "show or change feature flags (changes need -w)" },
	/* namespace (read-write, through libe2x) */
	{ "mkdir", NULL, do_mkdir, RW | BM | PATH, "dir",
	  "make a directory (inline when the fs has inline_data)" },
	{ "mknod", NULL, do_mknod, RW | BM | PATH,
	  "name [p | c major minor | b major minor]",
	  "make a fifo or device node" },
	{ "symlink", NULL, do_symlink, RW | BM | PATH, "name target",
	  "make a symbolic link (fast, inline or one block)" },
	{ "link", "ln", do_link, RW | BM | PATH, "file name",
	  "add a hard link (the link count follows)" },
	{ "unlink", NULL, do_unlink, RW | BM | PATH, "name",
	  "remove a directory entry only (link count untouched)" },
	{ "rm", NULL, do_rm, RW | BM | PATH, "file",
	  "remove a name and drop a link (inode freed at zero)" },
	{ "rmdir", NULL, do_rmdir, RW | BM | PATH, "dir",
	  "remove an empty directory" },
	{ "kill_file", NULL, do_kill_file, RW | BM | PATH, "file",
	  "free an inode and its blocks, leaving its names" },
	{ "rename", "mv", do_rename, RW | BM | PATH, "old new",
	  "rename, within or across directories" },
	{ "copy_inode", NULL, do_copy_inode, RW | PATH, "src dest",
	  "copy a whole inode over another" },
	{ "expand_dir", "expand", do_expand_dir, RW | BM | PATH, "dir",
	  "add an empty block to a directory (inline: move to a block)" },
	{ "itree_build", NULL, do_itree_build, RW | BM | PATH, "dir",
	  "build (or rebuild) an htree directory's itree" },
	{ "itree_drop", NULL, do_itree_drop, RW | BM | PATH, "dir",
	  "drop a directory's itree" },
	/* file content (read-write, through libe2x) */
	{ "write", NULL, do_write, RW | BM | PATH, "host_file file",
	  "copy a host file into a new file" },
	{ "fallocate", NULL, do_fallocate, RW | BM | PATH,
	  "file start [end]",
	  "allocate blocks start..end (unwritten past EOF)" },
	{ "punch", NULL, do_punch, RW | BM | PATH, "file start [end]",
	  "free blocks start..end (default: to the end)" },
	{ "truncate", NULL, do_truncate, RW | BM | PATH, "file size",
	  "set a file's size in bytes" },
	{ "ea_set", NULL, do_ea_set, RW | BM | PATH,
	  "[-f host_file] file name [value]",
	  "set an extended attribute" },
	{ "ea_rm", NULL, do_ea_rm, RW | BM | PATH, "file name ...",
	  "remove extended attributes" },
	{ NULL, NULL, NULL, 0, NULL, NULL }
};

/* True if WORD is one of the space separated names in LIST. */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (list && *list) {
		const char *sp = strchr(list, ' ');
		size_t len = sp ? (size_t)(sp - list) : strlen(list);

		if (len == n && !strncmp(list, word, n))
			return 1;
		list = sp ? sp + 1 : NULL;
	}
	return 0;
}

const struct dbg_cmd *dbg_find_command(const char *name)
{
	const struct dbg_cmd *c;

	for (c = dbg_commands; c->name; c++)
		if (!strcmp(c->name, name) || in_list(c->aliases, name))
			return c;
	return NULL;
}

/* Names first, then each alias word, for tab completion. */
const char *dbg_command_name_next(unsigned int *state)
{
	static char word[64];
	unsigned int ci = *state >> 8, wi = *state & 0xff;

	for (; dbg_commands[ci].name; ci++, wi = 0) {
		const char *list = dbg_commands[ci].aliases;
		unsigned int k;

		if (wi == 0) {
			*state = (ci << 8) | 1;
			return dbg_commands[ci].name;
		}
		for (k = 1; list && *list; k++) {
			const char *sp = strchr(list, ' ');
			size_t len = sp ? (size_t)(sp - list) : strlen(list);

			if (k == wi && len < sizeof(word)) {
				memcpy(word, list, len);
				word[len] = 0;
				*state = (ci << 8) | (wi + 1);
				return word;
			}
			list = sp ? sp + 1 : NULL;
		}
	}
	*state = ci << 8;
	return NULL;
}

static int check_needs(struct dbg_ctx *ctx, const struct dbg_cmd *c,
		       const char *name)
{
	if ((c->flags & DBG_NEEDS_FS) && !ctx->fs) {
		dbg_error(ctx, name, 0, "no file system open (use open)");
		return 1;
	}
	if ((c->flags & DBG_NEEDS_RW) && !ctx->open.rw) {
		dbg_error(ctx, name, 0,
			  "file system is open read-only (open it with -w)");
		return 1;
	}
	if ((c->flags & DBG_NEEDS_BMAPS) && dbg_need_bitmaps(ctx, name))
		return 1;
	return 0;
}

int dbg_execute_line(struct dbg_ctx *ctx, const char *line)
{
	const struct dbg_cmd *c;
	char **argv;
	int argc, ret;

	argc = dbg_split_line(line, &argv);
	if (argc < 0) {
		dbg_error(ctx, NULL, 0, "unterminated quote");
		ctx->failed++;
		return 1;
	}
	if (argc == 0) {
		free(argv);
		return 0;
	}
	c = dbg_find_command(argv[0]);
	if (!c) {
		dbg_error(ctx, NULL, 0,
			  "%s: unknown command (try help)", argv[0]);
		ret = 1;
	} else {
		ret = check_needs(ctx, c, argv[0]);
		if (!ret)
			ret = c->fn(ctx, argc, argv);
	}
	fflush(ctx->out);
	if (ret)
		ctx->failed++;
	free(argv);
	return ret;
}

static void help_one(struct dbg_ctx *ctx, const struct dbg_cmd *c)
{
	fprintf(ctx->out, "%s %s\n    %s\n", c->name, c->usage, c->help);
	if (c->aliases)
		fprintf(ctx->out, "    aliases: %s\n", c->aliases);
}

DBG_CMD(do_help)
{
	const struct dbg_cmd *c;
	int i, ret = 0;

	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			c = dbg_find_command(argv[i]);
			if (c) {
				help_one(ctx, c);
			} else {
				dbg_error(ctx, argv[0], 0,
					  "%s: unknown command", argv[i]);
				ret = 1;
			}
		}
		return ret;
	}
	for (c = dbg_commands; c->name; c++)
		fprintf(ctx->out, "%-18s %s%s\n", c->name, c->help,
			(c->flags & DBG_NEEDS_RW) ? " [-w]" : "");
	return 0;
}

DBG_CMD(do_quit)
{
	ctx->quit = 1;
	return 0;
}
