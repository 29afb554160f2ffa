/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commands.h --- every debugfs command, one row each: the handler, the
 * name, the aliases (space separated, or NULL), what it needs (FS: an open
 * file system, RW: opened with -w, BM: bitmaps loaded, PATH: arguments
 * are paths), the arguments and one line of help.  Names and arguments
 * follow e2fsprogs' debugfs; the help is ours.
 *
 * Included with DBG_COMMAND defined: debugfs.h declares the handlers from
 * it and cmds.c builds the table from it, so a new command is a handler
 * and one row here.
 */

/* session */
DBG_COMMAND(do_open, "open", "open_filesys", 0,
	    "[-w] [-c] [-D] [-f] [-n] [-b blocksize -s superblock] "
	    "[-z undo_file] [-i [-d data_source_device]] image",
	    "open an image or device")
DBG_COMMAND(do_init_filesys, "init_filesys", NULL, 0,
	    "device blocks_count",
	    "a new file system made in memory over device, written at close")
DBG_COMMAND(do_close, "close", "close_filesys", FS,
	    "[-a]",
	    "close the image (-a: write the superblock to all backups)")
DBG_COMMAND(do_params, "params", "show_debugfs_params", 0,
	    "",
	    "show the session parameters")
DBG_COMMAND(do_help, "help", "? lr list_requests", 0,
	    "[command]",
	    "list commands or show one")
DBG_COMMAND(do_set_current_time, "set_current_time", NULL, 0,
	    "YYYYMMDD[HHMM[SS]] | @seconds | now",
	    "the time written into what changes (UTC)")
DBG_COMMAND(do_lcd, "lcd", NULL, 0,
	    "host_dir",
	    "change the current directory on the host")
DBG_COMMAND(do_supported_features, "supported_features", NULL, 0,
	    "[feature ...]",
	    "features this build handles, or whether each one is")
DBG_COMMAND(do_quit, "quit", "q exit", 0,
	    "",
	    "leave debugfs")

/* super block */
DBG_COMMAND(do_stats, "stats", "show_super_stats", FS,
	    "[-h]",
	    "superblock fields (-h: without group descriptors)")

/* inodes */
DBG_COMMAND(do_stat, "stat", "show_inode_info", FS | PATH,
	    "file",
	    "every field of an inode")
DBG_COMMAND(do_idump, "idump", "inode_dump id", FS | PATH,
	    "[-b|-e|-x] file",
	    "hex dump of an inode (-b i_block, -e extra space, -x xattrs)")
DBG_COMMAND(do_blocks, "blocks", NULL, FS | PATH,
	    "file",
	    "the data blocks of a file")
DBG_COMMAND(do_ex, "ex", "dump_extents extents", FS | PATH,
	    "[-n] [-l] file",
	    "extent tree (-n interior nodes only, -l leaves only)")
DBG_COMMAND(do_extent_open, "extent_open", "eo", FS | PATH,
	    "file",
	    "walk a file's extent tree: root, current, next, prev, up, "
	    "down, nl, pl, ns, ps, goto, info, print_all; edit it (-w): "
	    "insert_node, replace_node, delete_node, split_node, "
	    "fix_parents, set_bmap; extent_close")
DBG_COMMAND(do_bmap, "bmap", NULL, FS | PATH,
	    "file logical_block",
	    "the physical block behind a logical block (0: a hole)")
DBG_COMMAND(do_filefrag, "filefrag", NULL, FS | PATH,
	    "[file]",
	    "how many contiguous runs a file's blocks make")
DBG_COMMAND(do_imap, "imap", NULL, FS | PATH,
	    "file",
	    "where an inode lives on disk")

/* directories */
DBG_COMMAND(do_ls, "ls", "list_directory", FS | PATH,
	    "[-l] [-d] [-p] [-r] [-o hash|inode|disk] [dir]",
	    "list a directory")
DBG_COMMAND(do_cd, "cd", "change_working_directory", FS | PATH,
	    "dir",
	    "change the current directory")
DBG_COMMAND(do_chroot, "chroot", "change_root_directory", FS | PATH,
	    "dir",
	    "make a directory the session's /")
DBG_COMMAND(do_pwd, "pwd", "print_working_directory", FS,
	    "",
	    "print the current directory")
DBG_COMMAND(do_ncheck, "ncheck", NULL, FS,
	    "[-c] inode ...",
	    "path names of inodes (-c: check file types)")
DBG_COMMAND(do_dirsearch, "dirsearch", "dir_search", FS | PATH,
	    "dir name",
	    "find a name in a directory's blocks")
DBG_COMMAND(do_htree_dump, "htree_dump", "htree", FS | PATH,
	    "[-l] dir",
	    "the hash tree of an indexed directory")
DBG_COMMAND(do_dx_hash, "dx_hash", "hash", 0,
	    "[-h hash_alg] [-s seed] [-c] name",
	    "directory hash of a name")
DBG_COMMAND(do_itree_dump, "itree_dump", "itree", FS | PATH,
	    "[-v] dir",
	    "every node of a directory's itree (-v: the entries)")
DBG_COMMAND(do_dir_check, "dir_check", NULL, FS | PATH,
	    "dir ...",
	    "verify directories and list each problem")

/* file contents */
DBG_COMMAND(do_cat, "cat", NULL, FS | PATH,
	    "file",
	    "write a file's contents to stdout")
DBG_COMMAND(do_dump, "dump", "dump_inode", FS | PATH,
	    "[-p] file out",
	    "copy a file out of the image (-p: keep owner, mode, times)")
DBG_COMMAND(do_rdump, "rdump", NULL, FS | PATH,
	    "dir... outdir",
	    "copy directory trees out of the image")

/* blocks and bitmaps */
DBG_COMMAND(do_bd, "bd", "block_dump bdump", FS | PATH,
	    "[-f file] block [count]",
	    "hex dump of blocks (-f: logical blocks of a file)")
DBG_COMMAND(do_icheck, "icheck", NULL, FS,
	    "block ...",
	    "which inode owns each block")
DBG_COMMAND(do_testb, "testb", NULL, BM,
	    "block [count]",
	    "is a block in use")
DBG_COMMAND(do_testi, "testi", NULL, BM | PATH,
	    "file",
	    "is an inode in use")
DBG_COMMAND(do_ffb, "ffb", "find_free_block", BM,
	    "[count [goal]]",
	    "find free blocks")
DBG_COMMAND(do_ffi, "ffi", "find_free_inode", BM,
	    "[dir [mode]]",
	    "find a free inode")
DBG_COMMAND(do_freefrag, "freefrag", "e2freefrag", BM,
	    "[-c chunk_kb]",
	    "free space fragmentation")

DBG_COMMAND(do_dump_mmp, "dump_mmp", NULL, FS,
	    "[block]",
	    "the multiple-mount protection block")
DBG_COMMAND(do_list_quota, "list_quota", "lq", FS,
	    "quota_type",
	    "every record of a quota file (user, group or project)")
DBG_COMMAND(do_get_quota, "get_quota", "gq", FS,
	    "quota_type id",
	    "one id's record of a quota file")

/* extended attributes */
DBG_COMMAND(do_ea_list, "ea_list", NULL, FS | PATH,
	    "file",
	    "list extended attributes")
DBG_COMMAND(do_ea_get, "ea_get", NULL, FS | PATH,
	    "[-x] [-f out] file name",
	    "value of one extended attribute")

/* journal and recovery */
DBG_COMMAND(do_logdump, "logdump", NULL, FS,
	    "[-a] [-O] [-S]",
	    "the journal log (-S superblock, -O old transactions, -a data)")
DBG_COMMAND(do_journal_open, "journal_open", "jo", RW,
	    "[-c] [-v ver] [-f ext_jnl]",
	    "open the journal to write transactions (-c: with checksums)")
DBG_COMMAND(do_journal_write, "journal_write", "jw", RW,
	    "[-b blocks] [-r revoke] [-c] file",
	    "log blocks (contents from file) and revokes (-c: no commit)")
DBG_COMMAND(do_journal_close, "journal_close", "jc", RW,
	    "",
	    "close the journal, writing its superblock")
DBG_COMMAND(do_journal_run, "journal_run", "jr", RW,
	    "",
	    "replay the journal, then reopen the file system")
DBG_COMMAND(do_lsdel, "lsdel", "list_deleted_inodes", FS,
	    "[secs]",
	    "deleted inodes that still map blocks")
DBG_COMMAND(do_dump_unused, "dump_unused", NULL, BM,
	    "",
	    "free blocks that hold data")

/* raw changes (read-write) */
DBG_COMMAND(do_ssv, "set_super_value", "ssv", RW,
	    "-l | field value",
	    "change a superblock field (-l lists the fields)")
DBG_COMMAND(do_sif, "set_inode_field", "sif", RW | PATH,
	    "-l | file field value",
	    "change an inode field (-l lists the fields)")
DBG_COMMAND(do_setb, "setb", NULL, RW | BM,
	    "block [count]",
	    "mark blocks in use (counters follow)")
DBG_COMMAND(do_freeb, "freeb", NULL, RW | BM,
	    "block [count]",
	    "mark blocks free (counters follow)")
DBG_COMMAND(do_seti, "seti", NULL, RW | BM | PATH,
	    "file",
	    "mark an inode in use")
DBG_COMMAND(do_freei, "freei", NULL, RW | BM | PATH,
	    "file",
	    "mark an inode free")
DBG_COMMAND(do_clri, "clri", NULL, RW | PATH,
	    "file ...",
	    "clear inodes to zeros (nothing else follows)")
DBG_COMMAND(do_modify_inode, "modify_inode", "mi", RW | PATH,
	    "file",
	    "change base inode fields at prompts, answers from standard input")
DBG_COMMAND(do_zap_block, "zap_block", "zap", RW | PATH,
	    "[-f file] [-o offset] [-l length] [-p pattern] [-b bit] block",
	    "fill part of a block with a byte, or flip one bit")
DBG_COMMAND(do_undelete, "undelete", "undel", RW | BM | PATH,
	    "<inode> [name]",
	    "take a deleted inode and its blocks back into use")
DBG_COMMAND(do_set_mmp_value, "set_mmp_value", "smmp", RW,
	    "-l | field value",
	    "change a field of the MMP block (-l lists the fields)")
DBG_COMMAND(do_set_bg, "set_bg", "set_block_group", RW,
	    "-l | group field value",
	    "change a group descriptor field (checksum follows)")
DBG_COMMAND(do_dirty, "dirty", "dirty_filesys", RW,
	    "",
	    "mark the superblock dirty")
DBG_COMMAND(do_feature, "feature", "features", FS,
	    "[[-|^]feature ...]",
	    "show or change feature flags (changes need -w)")

/* namespace (read-write, through libe2x) */
DBG_COMMAND(do_mkdir, "mkdir", NULL, RW | BM | PATH,
	    "dir",
	    "make a directory (inline when the fs has inline_data)")
DBG_COMMAND(do_mknod, "mknod", NULL, RW | BM | PATH,
	    "name [p | c major minor | b major minor]",
	    "make a fifo or device node")
DBG_COMMAND(do_symlink, "symlink", NULL, RW | BM | PATH,
	    "name target",
	    "make a symbolic link (fast, inline or one block)")
DBG_COMMAND(do_link, "link", "ln", RW | BM | PATH,
	    "file name",
	    "add a hard link (the link count follows)")
DBG_COMMAND(do_unlink, "unlink", NULL, RW | BM | PATH,
	    "name",
	    "remove a directory entry only (link count untouched)")
DBG_COMMAND(do_rm, "rm", NULL, RW | BM | PATH,
	    "file",
	    "remove a name and drop a link (inode freed at zero)")
DBG_COMMAND(do_rmdir, "rmdir", NULL, RW | BM | PATH,
	    "dir",
	    "remove an empty directory")
DBG_COMMAND(do_kill_file, "kill_file", NULL, RW | BM | PATH,
	    "file",
	    "free an inode and its blocks, leaving its names")
DBG_COMMAND(do_rename, "rename", "mv", RW | BM | PATH,
	    "old new",
	    "rename, within or across directories")
DBG_COMMAND(do_copy_inode, "copy_inode", NULL, RW | PATH,
	    "src dest",
	    "copy a whole inode over another")
DBG_COMMAND(do_expand_dir, "expand_dir", "expand", RW | BM | PATH,
	    "dir",
	    "add an empty block to a directory (inline: move to a block)")
DBG_COMMAND(do_itree_build, "itree_build", NULL, RW | BM | PATH,
	    "dir",
	    "build (or rebuild) an htree directory's itree")
DBG_COMMAND(do_itree_drop, "itree_drop", NULL, RW | BM | PATH,
	    "dir",
	    "drop a directory's itree")

/* file content (read-write, through libe2x) */
DBG_COMMAND(do_write, "write", NULL, RW | BM | PATH,
	    "host_file file",
	    "copy a host file into a new file")
DBG_COMMAND(do_fallocate, "fallocate", NULL, RW | BM | PATH,
	    "file start [end]",
	    "allocate blocks start..end (unwritten past EOF)")
DBG_COMMAND(do_punch, "punch", NULL, RW | BM | PATH,
	    "file start [end]",
	    "free blocks start..end (default: to the end)")
DBG_COMMAND(do_truncate, "truncate", NULL, RW | BM | PATH,
	    "file size",
	    "set a file's size in bytes")
DBG_COMMAND(do_ea_set, "ea_set", NULL, RW | BM | PATH,
	    "[-f host_file] file name [value]",
	    "set an extended attribute")
DBG_COMMAND(do_ea_rm, "ea_rm", NULL, RW | BM | PATH,
	    "file name ...",
	    "remove extended attributes")
