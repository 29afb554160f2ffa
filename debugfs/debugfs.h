/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debugfs.h --- the debugfs session context, the command table entry and
 * the helpers every command family shares.
 */
#ifndef E2X_DEBUGFS_H
#define E2X_DEBUGFS_H

#include <stdio.h>
#include <stdint.h>
#include "e2x.h"

/* How a file system is opened (command line flags and the open command). */
struct dbg_open_opts {
	int rw;			/* -w: read-write */
	int catastrophic;	/* -c: no bitmaps, read-only */
	int direct;		/* -D: O_DIRECT */
	int force;		/* -f on open: skip feature checks */
	int nocsum;		/* -n: do not verify checksums */
	char undo[4096];	/* -z: undo file for e2undo, "" for none */
	int image;		/* -i: the image is an e2image file */
	char data_source[4096];	/* -d: device of the blocks not in it */
	unsigned int blocksize;	/* -b, with -s */
	blk64_t superblock;	/* -s: backup superblock */
};

struct e2x_jwriter;

/* The one session: everything a command may look at or change. */
struct dbg_ctx {
	ext2_filsys fs;		/* NULL when nothing is open */
	char *device;		/* the open image or device */
	struct dbg_open_opts open;
	ext2_ino_t root;	/* "/" of the session */
	ext2_ino_t cwd;		/* current directory */
	FILE *out;		/* where command output goes */
	const char *prog;	/* program name for messages */
	int interactive;	/* a person is typing */
	int quit;		/* set by quit */
	unsigned int failed;	/* number of commands that failed */
	time_t now;		/* set_current_time, 0: the system clock */
	struct e2x_extent_edit *extent;	/* extent_open's tree, or NULL */
	ext2_ino_t extent_ino;		/* ... and its inode */
	struct e2x_jwriter *jwriter;	/* journal_open's writer, or NULL */
};

/* Command flags. */
#define DBG_NEEDS_FS	0x1	/* a file system must be open */
#define DBG_NEEDS_RW	0x2	/* ... read-write */
#define DBG_NEEDS_BMAPS	0x4	/* ... with bitmaps (not -c) */
#define DBG_WANTS_PATH	0x8	/* arguments are paths */

/* A command handler: 0 on success, non-zero when the command failed (it has
 * already printed its one line). */
typedef int (*dbg_handler_t)(struct dbg_ctx *ctx, int argc, char **argv);

struct dbg_cmd {
	const char *name;
	const char *aliases;	/* space separated, may be NULL */
	dbg_handler_t fn;
	unsigned int flags;
	const char *usage;	/* arguments, after the name */
	const char *help;	/* one line */
};

/* cmds.c --- the table and the dispatcher */
extern const struct dbg_cmd dbg_commands[];
const struct dbg_cmd *dbg_find_command(const char *name);
/* Run one command line; returns the handler's status (0 ok). */
int dbg_execute_line(struct dbg_ctx *ctx, const char *line);
/* Iterate over command names and aliases for completion: *state starts at
 * 0; returns NULL at the end. */
const char *dbg_command_name_next(unsigned int *state);

/* parse.c --- pure parsing helpers */
/* Split LINE into words (quotes '' "" and backslash escapes).  Returns the
 * number of words (-1 on an unterminated quote); *argv_out is one
 * allocation to free(). */
int dbg_split_line(const char *line, char ***argv_out);
/* "<12>" -> 12; returns 1 if S looks like an inode spec (even a bad one),
 * with *ok set when its number is valid in [1, max]. */
int dbg_parse_ino_spec(const char *s, ext2_ino_t max, ext2_ino_t *ino,
		       int *ok);
/* Parse an unsigned number (decimal, 0x hex, 0 octal) in [0, max]. */
int dbg_parse_u64(const char *s, uint64_t max, uint64_t *val);
/* "N,N-M,..." appended to *LIST (realloc'ed, *N entries); -1 on a bad
 * item or more than DBG_LIST_MAX entries in all. */
#define DBG_LIST_MAX (1U << 24)
int dbg_parse_block_list(const char *s, blk64_t **list, size_t *n);
/* Decode an on-disk timestamp (seconds + extra epoch/nanosecond word). */
int64_t dbg_decode_time(uint32_t sec, uint32_t extra, int has_extra,
			uint32_t *nsec);
/* Format SECS as "YYYY-MM-DD HH:MM:SS" UTC into BUF (at least 32). */
void dbg_format_time(int64_t secs, char *buf, size_t len);

/* extent_cmds.c --- the extent_open sub-shell: run ARGV as one of its
 * commands (-1 when it is none), and close its handle. */
int dbg_extent_command(struct dbg_ctx *ctx, int argc, char **argv);
void dbg_extent_drop(struct dbg_ctx *ctx);

/* util.c --- session helpers */
void dbg_error(struct dbg_ctx *ctx, const char *cmd, errcode_t code,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void dbg_usage(struct dbg_ctx *ctx, const char *cmd);
/* Resolve a path or inode spec relative to the cwd (no final symlink
 * follow).  Prints the error line itself; returns 0 on success. */
int dbg_resolve(struct dbg_ctx *ctx, const char *cmd, const char *spec,
		ext2_ino_t *ino);
/* Same, for a path naming a directory. */
int dbg_resolve_dir(struct dbg_ctx *ctx, const char *cmd, const char *spec,
		    ext2_ino_t *ino);
/* Read the whole inode; prints the error line itself. */
int dbg_read_inode(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t ino,
		   struct ext2_inode_large *inode);
/* The one file argument of a command (argv[1]): resolved and read.
 * Prints usage or the error itself; 0 on success. */
int dbg_file_arg(struct dbg_ctx *ctx, int argc, char **argv, ext2_ino_t *ino,
		 struct ext2_inode_large *in);
/* The same into a new buffer of the full inode size (free() it); NULL
 * after the error line. */
struct ext2_inode_large *dbg_file_arg_new(struct dbg_ctx *ctx, int argc,
					  char **argv, ext2_ino_t *ino);
/* Parse a block number of the open fs; prints the error itself. */
int dbg_parse_block(struct dbg_ctx *ctx, const char *cmd, const char *s,
		    blk64_t *blk);
/* Reset getopt before a command parses its options. */
void dbg_reset_getopt(void);
/* Load bitmaps if the session has none yet (never re-reads). */
int dbg_need_bitmaps(struct dbg_ctx *ctx, const char *cmd);
/* Print a name with non-printable bytes as \ooo (unless raw). */
void dbg_print_name(FILE *f, const char *name, int len, int raw);
/* Does the inode's extra space reach the end of a field (END bytes from
 * the inode start; see DBG_EXTRA_END)? */
int dbg_has_extra(ext2_filsys fs, const struct ext2_inode_large *in,
		  size_t end);
#define DBG_EXTRA_END(f) (offsetof(struct ext2_inode_large, f) + \
			  sizeof(((struct ext2_inode_large *)0)->f))
/* '.' or '..' (libext2fs does not flag them in inline directories). */
static inline int is_dot_or_dotdot(const char *name, int len)
{
	return (len == 1 && name[0] == '.') ||
	       (len == 2 && name[0] == '.' && name[1] == '.');
}
/* Type letter/word of an inode mode. */
const char *dbg_mode_type(uint16_t mode);

/* super_cmds.c */
const char *dbg_feature_name(int word, uint32_t mask);
void dbg_print_features(FILE *o, const struct ext2_super_block *sb);

/* inode_cmds.c */
/* Print the block map or extent tree of an inode in one compact list. */
void dbg_print_block_list(struct dbg_ctx *ctx, ext2_ino_t ino,
			  struct ext2_inode_large *inode);
/* Hex dump with hex offsets starting at BASE. */
void dbg_hexdump(FILE *o, const unsigned char *buf, size_t len,
		 uint64_t base);
/* htree_cmds.c */
/* The hash algorithm (EXT2_HASH_*, unsigned variant applied) and hash
 * flags a directory orders names by: its dx_root when indexed, else the
 * file system default. */
int dbg_dir_hash_alg(struct dbg_ctx *ctx, ext2_ino_t dir, int *alg,
		     int *flags);
void dbg_name_hash(struct dbg_ctx *ctx, int alg, int flags, const char *name,
		   int len, uint32_t *hash, uint32_t *minor);
/* xattr_cmds.c */
/* List the extended attributes of INO, one per line, indented. */
int dbg_print_xattrs(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t ino,
		     int values);

/* session.c --- open / close */
int dbg_open_fs(struct dbg_ctx *ctx, const char *device,
		const struct dbg_open_opts *opts);
int dbg_close_fs(struct dbg_ctx *ctx, int all);
/* jwrite_cmds.c: close journal_open's writer, if any (its superblock
 * written); 1 on an error (reported). */
int dbg_journal_close(struct dbg_ctx *ctx);
/* One open option (w c D f b: s:) into O; non-zero if invalid. */
int dbg_parse_open_option(struct dbg_open_opts *o, int c, const char *arg);

/* shell.c --- the interactive shell and the script reader */
int dbg_run_interactive(struct dbg_ctx *ctx);
int dbg_run_file(struct dbg_ctx *ctx, FILE *f, int echo);

/* The command handlers, declared from the one list in commands.h. */
#define DBG_COMMAND(fn_, name_, aliases_, flags_, usage_, help_) \
	int fn_(struct dbg_ctx *ctx, int argc, char **argv);
#include "commands.h"
#undef DBG_COMMAND

#endif
