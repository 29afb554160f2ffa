/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * problem_list.h --- every e2fsck problem, defined once: one row each of
 *
 *	PROBLEM(name, code, question, flags, message)
 *
 * sorted by code.  The code carries the pass in bits 16-23 (0x11 is pass
 * 1b) and never changes once released; new codes go after the last of
 * their pass.  question is an enum pr_prompt, flags the PR_* row flags of
 * problem.h (P short for PR_PREEN_OK, NR for PR_NO_REPAIR), message our
 * wording with {field} places (problem_format).  problem.h makes the
 * enum of names from it, problem.c the table; there is no other copy.
 * No include guard: it is included once per expansion of PROBLEM.
 */

/* Start-up, superblock and group descriptors (pass 0). */
PROBLEM(PR_0_OPEN_BACKUP, 0x000001, PROMPT_USE_BACKUP, 0,
	"The primary superblock or group descriptors cannot be used ({str}); "
	"checking with the backup at block {blk}")
PROBLEM(PR_0_SB_CSUM, 0x000002, PROMPT_FIX, P,
	"The superblock checksum does not match its contents")
PROBLEM(PR_0_FS_SIZE_DEVICE, 0x000003, PROMPT_ABORT, PR_NO_OK,
	"The superblock says the file system has {num} blocks but the device "
	"holds only {num2}")
PROBLEM(PR_0_INODES_COUNT, 0x000004, PROMPT_FIX, 0,
	"The inode count {num} disagrees with groups times inodes per group "
	"({num2})")
PROBLEM(PR_0_FIRST_DATA_BLOCK, 0x000005, PROMPT_NONE, PR_FATAL,
	"The first data block is {num}; this block size needs {num2}")
PROBLEM(PR_0_BLOCKS_PER_GROUP, 0x000006, PROMPT_NONE, PR_FATAL,
	"Blocks per group ({num}) is impossible for this block size")
PROBLEM(PR_0_R_BLOCKS, 0x000007, PROMPT_FIX, P,
	"Reserved block count {num} is larger than the file system ({num2})")
PROBLEM(PR_0_FREE_RANGE, 0x000008, PROMPT_FIX, P,
	"The superblock's free {str} count {num} exceeds the total {num2}")
PROBLEM(PR_0_FEATURE_COMBO, 0x000009, PROMPT_FIX, 0,
	"Feature combination not allowed: {str}")
PROBLEM(PR_0_DESC_SIZE, 0x00000a, PROMPT_NONE, PR_FATAL,
	"Group descriptor size {num} is invalid")
PROBLEM(PR_0_GD_BLOCK_BITMAP, 0x00000b, PROMPT_RELOCATE, 0,
	"Group {group}'s block bitmap at {blk} lies outside the area it may use")
PROBLEM(PR_0_GD_INODE_BITMAP, 0x00000c, PROMPT_RELOCATE, 0,
	"Group {group}'s inode bitmap at {blk} lies outside the area it may use")
PROBLEM(PR_0_GD_INODE_TABLE, 0x00000d, PROMPT_RELOCATE, 0,
	"Group {group}'s inode table at {blk} lies outside the area it may use")
PROBLEM(PR_0_GD_OVERLAP, 0x00000e, PROMPT_RELOCATE, 0,
	"Group {group}'s {str} at {blk} overlaps other file system metadata")
PROBLEM(PR_0_GD_CSUM, 0x00000f, PROMPT_FIX, P,
	"Group {group}'s descriptor checksum is wrong")
PROBLEM(PR_0_GD_FREE_BLOCKS, 0x000010, PROMPT_FIX, P,
	"Group {group} claims {num} free blocks, more than it holds ({num2})")
PROBLEM(PR_0_GD_FREE_INODES, 0x000011, PROMPT_FIX, P,
	"Group {group} claims {num} free inodes, more than it holds ({num2})")
PROBLEM(PR_0_GD_ITABLE_UNUSED, 0x000012, PROMPT_FIX, P,
	"Group {group}'s unused inode count {num} is larger than its free "
	"inode count {num2}")
PROBLEM(PR_0_GD_FLAGS, 0x000013, PROMPT_FIX, P,
	"Group {group} has initialisation flags this file system cannot have "
	"({str})")
PROBLEM(PR_0_GD_RELOCATE_FAILED, 0x000014, PROMPT_NONE, 0,
	"Group {group}'s metadata at {blk} could not be moved ({str}); nothing "
	"is written")
PROBLEM(PR_0_SB_CONTRADICTS, 0x000015, PROMPT_NONE, 0,
	"The superblock contradicts itself ({str}) and no backup can stand in "
	"for it; checking without writing anything")
PROBLEM(PR_0_JOURNAL_NOT_REPLAYED, 0x000016, PROMPT_NONE, PR_INFO,
	"The journal needs recovery; checking the file system as it is on disk, "
	"without the journal's changes")
PROBLEM(PR_0_JOURNAL_INODE, 0x000017, PROMPT_CLEAR, 0,
	"The journal inode {ino} is not usable ({str})")
PROBLEM(PR_0_ORPHANS_PRESENT, 0x000018, PROMPT_NONE, PR_INFO,
	"Orphan inodes are waiting to be released; checking without releasing "
	"them")
PROBLEM(PR_0_FLEX_SIZE, 0x000019, PROMPT_FIX, NR,
	"Flexible group size 2^{num} is out of range")
PROBLEM(PR_0_CSUM_SEED, 0x00001a, PROMPT_FIX, 0,
	"The checksum seed feature is set on a file system without metadata "
	"checksums")
PROBLEM(PR_0_BACKUP_SB, 0x00001b, PROMPT_FIX, P | PR_NO_OK | PR_PREEN_NOMSG,
	"The backup superblock in group {group} differs from the primary ({str})")
PROBLEM(PR_0_RESIZE_INODE, 0x00001c, PROMPT_REBUILD, 0,
	"The resize inode is not valid ({str})")
PROBLEM(PR_0_LAST_ORPHAN, 0x00001d, PROMPT_CLEAR, NR,
	"The orphan list starts at inode {ino}, which is not a valid orphan")
PROBLEM(PR_0_ORPHAN_FILE, 0x00001e, PROMPT_FIX, 0,
	"The orphan file inode {ino} is not valid ({str})")
PROBLEM(PR_0_RESIZE_REBUILD_FAILED, 0x00001f, PROMPT_NONE, 0,
	"The resize inode could not be made again ({str}); it is left cleared")
PROBLEM(PR_0_JOURNAL_BAD, 0x000020, PROMPT_CLEAR, 0,
	"The journal cannot be used ({str})")
PROBLEM(PR_0_JOURNAL_REPLAYED, 0x000021, PROMPT_NONE, PR_INFO | PR_CHANGED,
	"Journal recovered: {num} transaction(s), {num2} block(s) written back")
PROBLEM(PR_0_JOURNAL_REPLAYED_DRY, 0x000022, PROMPT_NONE, PR_INFO,
	"Journal replayed in memory for this read-only check: {num} "
	"transaction(s), {num2} block(s)")
PROBLEM(PR_0_JOURNAL_RECOVER_FAILED, 0x000023, PROMPT_NONE, 0,
	"Journal recovery failed ({str}); checking without the journal's "
	"changes")
PROBLEM(PR_0_ORPHAN_RELEASED, 0x000024, PROMPT_NONE, PR_INFO | PR_CHANGED,
	"{name} orphaned inode {ino} ({str})")
PROBLEM(PR_0_ORPHAN_RELEASED_DRY, 0x000025, PROMPT_NONE, PR_INFO,
	"{name} orphaned inode {ino} ({str}) in memory for this read-only "
	"check")
PROBLEM(PR_0_ORPHAN_BAD, 0x000026, PROMPT_CLEAR, P,
	"The orphan list or orphan file has a bad entry at inode {ino} ({str})")
PROBLEM(PR_0_QUOTA_INODE, 0x000027, PROMPT_CLEAR, 0,
	"The {str} quota inode {ino} is not valid")
PROBLEM(PR_0_META_BG_FIRST, 0x000028, PROMPT_FIX, P,
	"The first meta block group {num} lies beyond the descriptor blocks "
	"({num2})")
PROBLEM(PR_0_JOURNAL_BACKUP, 0x000029, PROMPT_FIX, P,
	"The superblock holds no backup of the journal inode's block map")
PROBLEM(PR_0_HURD_FILETYPE, 0x00002a, PROMPT_CLEAR_FLAG, 0,
	"The filetype feature is set on a file system made by the Hurd, which "
	"does not support it")
PROBLEM(PR_0_EXTRA_ISIZE, 0x00002b, PROMPT_FIX, 0,
	"The superblock's {str} extra inode size {num} is invalid")
PROBLEM(PR_0_MMP, 0x00002c, PROMPT_FIX, 0,
	"The multi-mount protection block {blk} is not valid ({str})")
PROBLEM(PR_0_JOURNAL_SB_FIELDS, 0x00002d, PROMPT_FIX, 0,
	"The journal superblock is not consistent ({str})")
PROBLEM(PR_0_JOURNAL_INODE_BACKUP, 0x00002e, PROMPT_FIX, P,
	"The journal inode {ino} cannot be used ({str}); the journal is read "
	"through the copy of its block map in the superblock")
PROBLEM(PR_0_DESC_SIZE_UNSET, 0x00002f, PROMPT_FIX, 0,
	"The superblock says 64bit with no group descriptor size; such file "
	"systems are made with 64")
PROBLEM(PR_0_META_BG_RESIZE, 0x000030, PROMPT_FIX, P,
	"Both meta_bg and resize_inode are set; resize_inode must go")
PROBLEM(PR_0_JOURNAL_RECREATE, 0x000040, PROMPT_CREATE, P,
	"The journal was cleared; the file system has none now")
PROBLEM(PR_0_CSUM_TYPE, 0x000041, PROMPT_FIX, 0,
	"The superblock names checksum type {num}, but metadata checksums "
	"come in one type only (crc32c) and no backup superblock says more")
PROBLEM(PR_0_JOURNAL_REPLAYED_PART, 0x000042, PROMPT_NONE, PR_INFO | PR_CHANGED,
	"Journal recovery stopped at a block that fails its checksum ({str}): "
	"{num} transaction(s) before it written back, the rest of the log "
	"dropped")
PROBLEM(PR_0_FIRST_INO_IN_USE, 0x000043, PROMPT_FIX, 0,
	"The first inode is {num}, but inode {ino} below it is a file or "
	"directory in use: the field is damaged and goes back to 11")
PROBLEM(PR_0_GD_FROM_BACKUP, 0x000044, PROMPT_FIX, 0,
	"Group {group}'s {str} at {blk} cannot be there; the backup group "
	"descriptors place it at {num}, where nothing else is: use that")
PROBLEM(PR_0_GD_ON_FILES, 0x000045, PROMPT_RELOCATE, 0,
	"Group {group}'s {str} at {blk} lies on blocks files use, and the "
	"backup group descriptors place it elsewhere: the descriptor is "
	"damaged")
PROBLEM(PR_0_DESC_SIZE_NO64, 0x000046, PROMPT_CLEAR, P,
	"The superblock holds group descriptor size {num} without 64bit, "
	"where descriptors are 32 bytes and the size must be 0 or a power of "
	"two")
PROBLEM(PR_0_GD_ITABLE_FOUND, 0x000047, PROMPT_FIX, 0,
	"Group {group}'s inode table at {blk} cannot be there; the group's "
	"inodes are found at {num}, where mke2fs places the table: use that")
PROBLEM(PR_0_INODES_PER_GROUP, 0x000048, PROMPT_FIX, 0,
	"The inodes per group {num} disagree with the inode count; group 0's "
	"inode bitmap is padded from inode {num2} on: {num2} inodes a group")
PROBLEM(PR_0_JOURNAL_NO_ROOM, 0x000060, PROMPT_NONE, PR_INFO,
	"No room for a new journal: the file system is left without one "
	"(free some space, then add one with tune2fs -j)")
PROBLEM(PR_0_UUID_NEW, 0x000061, PROMPT_NONE, PR_INFO | PR_CHANGED,
	"The file system has no UUID: it is given a new one")

/* Pass 1: inodes. */
PROBLEM(PR_1_INODE_CSUM, 0x010001, PROMPT_FIX, 0,
	"Inode {ino}'s checksum does not match its contents")
PROBLEM(PR_1_BAD_MODE, 0x010002, PROMPT_CLEAR_INODE, 0,
	"Inode {ino} has an unknown file type (mode 0{mode})")
PROBLEM(PR_1_ROOT_NOT_DIR, 0x010003, PROMPT_CLEAR_INODE, 0,
	"The root inode is not a directory")
PROBLEM(PR_1_RESERVED_MODE, 0x010004, PROMPT_CLEAR, 0,
	"Reserved inode {ino} has a file mode (0{mode}) it should not have")
PROBLEM(PR_1_DTIME_SET, 0x010005, PROMPT_FIX, P,
	"Inode {ino} is in use but has a deletion time")
PROBLEM(PR_1_ZERO_DTIME, 0x010006, PROMPT_FIX, P,
	"Deleted inode {ino} has no deletion time")
PROBLEM(PR_1_EXTENTS_NO_FEATURE, 0x010007, PROMPT_SET_FEATURE, 0,
	"Inode {ino} uses extents but the extent feature is off")
PROBLEM(PR_1_INLINE_NO_FEATURE, 0x010008, PROMPT_SET_FEATURE, 0,
	"Inode {ino} has inline data but the inline_data feature is off")
PROBLEM(PR_1_INLINE_AND_EXTENTS, 0x010009, PROMPT_CLEAR_INODE, 0,
	"Inode {ino} claims both inline data and an extent tree")
PROBLEM(PR_1_INDEX_NOT_DIR, 0x01000a, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} is not a directory but has the hash index flag")
PROBLEM(PR_1_INDEX_NO_FEATURE, 0x01000b, PROMPT_CLEAR_FLAG, 0,
	"Directory {ino} has a hash index but the dir_index feature is off")
PROBLEM(PR_1_HUGE_NO_FEATURE, 0x01000c, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} has the huge file flag but the huge_file feature is off")
PROBLEM(PR_1_DEVICE_BAD, 0x01000d, PROMPT_CLEAR_INODE, 0,
	"Special file inode {ino} has block mappings or flags of a data file")
PROBLEM(PR_1_FAST_SYMLINK_BAD, 0x01000e, PROMPT_CLEAR_INODE, 0,
	"Short symlink {ino} has size {num} but its target is {num2} bytes")
PROBLEM(PR_1_SYMLINK_BAD, 0x01000f, PROMPT_CLEAR_INODE, 0,
	"Symlink {ino} is not valid ({str})")
PROBLEM(PR_1_INLINE_TYPE, 0x010010, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} has inline data but its type cannot store data")
PROBLEM(PR_1_INLINE_NO_DATA, 0x010011, PROMPT_CLEAR_INODE, 0,
	"Inode {ino} has the inline data flag but no system.data attribute")
PROBLEM(PR_1_INLINE_SIZE, 0x010012, PROMPT_FIX, 0,
	"Inode {ino} has size {num} but its inline data holds {num2} bytes")
PROBLEM(PR_1_IBODY_EA_BAD, 0x010013, PROMPT_CLEAR, 0,
	"Inode {ino}'s in-inode extended attributes are corrupt ({str})")
PROBLEM(PR_1_EXTRA_ISIZE, 0x010014, PROMPT_FIX, 0,
	"Inode {ino}'s extra size {num} is invalid")
PROBLEM(PR_1_EXTENT_HEADER, 0x010015, PROMPT_CLEAR, 0,
	"Inode {ino}'s extent node at block {blk} has a bad header ({str})")
PROBLEM(PR_1_EXTENT_CSUM, 0x010016, PROMPT_FIX, 0,
	"Inode {ino}'s extent node at block {blk} has a wrong checksum")
PROBLEM(PR_1_EXTENT_BOUNDS, 0x010017, PROMPT_CLEAR, 0,
	"Inode {ino} maps logical block {num} to block {blk}, outside the file "
	"system's data area")
PROBLEM(PR_1_EXTENT_ORDER, 0x010018, PROMPT_CLEAR, 0,
	"Inode {ino}'s extent at logical block {num} is out of order or "
	"overlaps the one before")
PROBLEM(PR_1_EXTENT_INDEX_START, 0x010019, PROMPT_FIX, 0,
	"Inode {ino}'s extent index says logical block {num} but its node "
	"starts at {num2}")
PROBLEM(PR_1_EXTENT_LEN_ZERO, 0x01001a, PROMPT_CLEAR, 0,
	"Inode {ino} has an empty extent at logical block {num}")
PROBLEM(PR_1_EXTENT_END, 0x01001b, PROMPT_CLEAR, 0,
	"Inode {ino}'s extent at logical block {num} ends beyond the largest "
	"file offset")
PROBLEM(PR_1_EXTENT_DEPTH, 0x01001c, PROMPT_FIX, 0,
	"Inode {ino}'s extent tree is {num} levels deep, deeper than the "
	"kernel reads; rebuild it shallower (cleared if it cannot be)")
PROBLEM(PR_1_BIGALLOC_ALIGN, 0x01001d, PROMPT_NONE, PR_INFO,
	"Inode {ino} maps logical block {num} to block {blk}, at a different "
	"offset within its cluster; pass 1b moves it into place")
PROBLEM(PR_1_BLOCK_RANGE, 0x01001e, PROMPT_CLEAR, 0,
	"Inode {ino} maps logical block {num} to block {blk}, outside the file "
	"system's data area")
PROBLEM(PR_1_IND_BLOCK_RANGE, 0x01001f, PROMPT_CLEAR, 0,
	"Inode {ino}'s indirect block {blk} lies outside the file system")
PROBLEM(PR_1_SIZE, 0x010020, PROMPT_FIX, 0,
	"Inode {ino} has size {num} but its blocks need {num2}")
PROBLEM(PR_1_DIR_SIZE, 0x010021, PROMPT_FIX, 0,
	"Directory {ino} has size {num} but its blocks span {num2}")
PROBLEM(PR_1_I_BLOCKS, 0x010022, PROMPT_FIX, P,
	"Inode {ino}'s block count i_blocks is {num}; counted {num2}")
PROBLEM(PR_1_EA_BLOCK_RANGE, 0x010023, PROMPT_CLEAR, 0,
	"Inode {ino}'s extended attribute block {blk} lies outside the file "
	"system")
PROBLEM(PR_1_EA_BLOCK_HEADER, 0x010024, PROMPT_CLEAR, 0,
	"Inode {ino}'s extended attribute block {blk} has a bad header ({str})")
PROBLEM(PR_1_EA_BLOCK_CSUM, 0x010025, PROMPT_FIX, 0,
	"Extended attribute block {blk} (of inode {ino}) has a wrong checksum")
PROBLEM(PR_1_EA_ENTRY, 0x010026, PROMPT_CLEAR, 0,
	"Extended attribute block {blk} (of inode {ino}) has a corrupt entry "
	"({str})")
PROBLEM(PR_1_EA_HASH, 0x010027, PROMPT_FIX, 0,
	"Extended attribute block {blk} (of inode {ino}) has a wrong {str} hash")
PROBLEM(PR_1_EA_REFCOUNT, 0x010028, PROMPT_FIX, P,
	"Extended attribute block {blk} says {num} references; counted {num2}")
PROBLEM(PR_1_EA_NO_FEATURE, 0x010029, PROMPT_CLEAR, 0,
	"Inode {ino} has an extended attribute block but the ext_attr feature "
	"is off")
PROBLEM(PR_1_EA_INODE_REF, 0x01002a, PROMPT_CLEAR, 0,
	"Inode {ino}'s attribute refers to value inode {ino2}, which is not "
	"valid ({str})")
PROBLEM(PR_1_SPECIAL_IS_DIR, 0x01002b, PROMPT_FIX, 0,
	"Inode {ino} is no directory by its mode but holds data "
	"laid out like a directory's ('.' and '..' in its first block, or "
	"inline entries): make it a directory")
PROBLEM(PR_1_DIR_UNINIT_EXTENT, 0x01002c, PROMPT_FIX, 0,
	"Directory {ino} has an unwritten extent at logical block {num}")
PROBLEM(PR_1_IMAGIC, 0x01002d, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} has the imagic flag but the imagic_inodes feature is off")
PROBLEM(PR_1_CASEFOLD_NOT_DIR, 0x01002e, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} has the case-folding flag but is not a directory")
PROBLEM(PR_1_ENCRYPT_NO_FEATURE, 0x01002f, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} is encrypted but the encrypt feature is off")
PROBLEM(PR_1_CASEFOLD_NO_FEATURE, 0x010030, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} is case-folded but the casefold feature is off")
PROBLEM(PR_1_INODE_SCAN, 0x010031, PROMPT_NONE, PR_FATAL,
	"Reading the inode table failed near inode {ino} ({str})")
PROBLEM(PR_1_EXTENT_ROOT, 0x010032, PROMPT_CLEAR_INODE, 0,
	"Inode {ino}'s extent tree root is corrupt ({str})")
PROBLEM(PR_1_IND_BLOCK_READ, 0x010033, PROMPT_CLEAR, 0,
	"Inode {ino}'s indirect block {blk} cannot be read")
PROBLEM(PR_1_DEVICE_SIZE, 0x010034, PROMPT_FIX, 0,
	"Special file inode {ino} has size {num}; a device, fifo or socket "
	"holds no data")
PROBLEM(PR_1_BAD_INO_FLAGS, 0x010035, PROMPT_CLEAR, 0,
	"The bad blocks inode has an inline data flag, or an extent flag without "
	"the extent feature or an extent root; its list cannot be read")
PROBLEM(PR_1_EXTENT_READ, 0x010036, PROMPT_CLEAR, 0,
	"Inode {ino}'s extent node at block {blk} cannot be read")
PROBLEM(PR_1_EA_BLOCK_READ, 0x010037, PROMPT_CLEAR, 0,
	"Inode {ino}'s extended attribute block {blk} cannot be read")
PROBLEM(PR_1_INLINE_READ, 0x010038, PROMPT_CLEAR_INODE, 0,
	"Inode {ino}'s inline data cannot be read ({str})")
PROBLEM(PR_1_DIR_NO_BLOCKS, 0x010039, PROMPT_CLEAR_INODE, 0,
	"Directory {ino} has no blocks")
PROBLEM(PR_1_ENCRYPT_NO_POLICY, 0x01003a, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} is encrypted but has no encryption context attribute")
PROBLEM(PR_1_ENCRYPT_BAD_POLICY, 0x01003b, PROMPT_CLEAR_INODE, 0,
	"Inode {ino}'s encryption context attribute is corrupt")
PROBLEM(PR_1_FILE_ACL_HI, 0x01003c, PROMPT_CLEAR, 0,
	"Inode {ino} has high bits in its attribute block number ({num}) on a "
	"file system without 64bit")
PROBLEM(PR_1_FADDR, 0x01003d, PROMPT_CLEAR, 0,
	"Inode {ino}'s obsolete fragment address is {num}, not zero")
PROBLEM(PR_1_EXTRA_TIME, 0x01003e, PROMPT_FIX, 0,
	"Inode {ino}'s {str} time uses the old pre-1970 encoding, which now "
	"reads as a date centuries ahead")
PROBLEM(PR_1_MAP_LOOP, 0x01003f, PROMPT_CLEAR_INODE, 0,
	"Inode {ino}'s block map reaches the same blocks over and over; "
	"stopped walking it")
PROBLEM(PR_1_RESTART, 0x010040, PROMPT_NONE, PR_INFO,
	"Repairs took back blocks already counted; running pass 1 again")
PROBLEM(PR_1_WRITE_FAILED, 0x010041, PROMPT_NONE, 0,
	"Writing repaired inode {ino} failed ({str})")
PROBLEM(PR_1_TOO_MANY_BAD, 0x010042, PROMPT_CLEAR_INODE, 0,
	"Inode {ino} has too many bad block map entries to repair one by one")
PROBLEM(PR_1_LOW_DTIME, 0x010043, PROMPT_FIX, P,
	"Inode {ino}'s deletion time {num} is a link of a broken orphan list")
PROBLEM(PR_1_INLINE_SYMLINK_EA, 0x010044, PROMPT_FIX, 0,
	"Symlink {ino} keeps its target inline and has an extended attribute "
	"block, which e2fsck 1.47 does not read: move the target to a block")
PROBLEM(PR_1_EA_INODE_HASH, 0x010045, PROMPT_CLEAR, 0,
	"Inode {ino}'s attribute names value inode {ino2} with hash {num}, "
	"which matches neither the value nor an older owner-marked value inode")
PROBLEM(PR_1_EA_INODE_FLAG, 0x010046, PROMPT_FIX, 0,
	"Value inode {ino2}, named by an attribute of inode {ino}, lacks the "
	"EA_INODE flag")
PROBLEM(PR_1_BIGALLOC_SPLIT, 0x010047, PROMPT_NONE, PR_INFO,
	"Inode {ino} maps logical block {num} to block {blk}, outside the "
	"cluster that holds the rest of its logical cluster; pass 1b moves it "
	"into place")
PROBLEM(PR_1_BIGALLOC_BLOCKMAP, 0x010048, PROMPT_FIX, 0,
	"Inode {ino} has a block map, which a bigalloc file system cannot use; "
	"it should map its blocks with extents")
PROBLEM(PR_1_INLINE_AND_EXT_TREE, 0x010049, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} claims both inline data and an extent tree; its block "
	"area holds an extent tree: the inline data flag goes")
PROBLEM(PR_1_INLINE_AND_EXT_DATA, 0x01004a, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} claims both inline data and an extent tree; it has inline "
	"data: the extent flag goes")
PROBLEM(PR_1_INLINE_AND_EXT_MAP, 0x01004b, PROMPT_CLEAR_FLAG, 0,
	"Inode {ino} claims both inline data and an extent tree; its block "
	"area reads as a block map: both flags go")
PROBLEM(PR_1_RESERVED_JUNK, 0x01004c, PROMPT_CLEAR, 0,
	"Reserved inode {ino}, which nothing uses, is not all zeros (it has a "
	"file mode)")
PROBLEM(PR_1_EXTENT_FLAG_MISSING, 0x01004d, PROMPT_FIX, 0,
	"Inode {ino} has no extent flag, but its block area holds an extent "
	"tree root, not a block map: set the flag")
PROBLEM(PR_1_NODE_IN_META, 0x01004e, PROMPT_RELOCATE, 0,
	"Inode {ino}'s extent leaf at block {blk} lies in file system "
	"metadata, whose writes would change it: copy it to a new block")
PROBLEM(PR_1_NODE_MOVE_FAILED, 0x01004f, PROMPT_NONE, 0,
	"Inode {ino}'s extent leaf at block {blk} could not be moved ({str}); "
	"it is checked where it is")
PROBLEM(PR_1_HURD_FRAG, 0x010050, PROMPT_CLEAR, 0,
	"Inode {ino}'s obsolete Hurd fragment number and size are {num} and "
	"{num2}, not zero")
PROBLEM(PR_1_SPECIAL_IMMUTABLE, 0x010051, PROMPT_CLEAR_FLAG, 0,
	"Special file inode {ino} (a device, fifo or socket) is marked "
	"immutable or append-only, which such a file cannot be")
PROBLEM(PR_1_INLINE_DATA_LOST, 0x010052, PROMPT_FIX, 0,
	"Regular file {ino} has the inline data flag but no usable "
	"system.data attribute ({str}): it keeps the bytes its inode holds "
	"(60 at most), with a new empty attribute")
PROBLEM(PR_1_EXTENT_MAGIC, 0x010053, PROMPT_FIX, 0,
	"Inode {ino}'s extent node at block {blk} has lost its magic number "
	"but its header and entries are sound")
PROBLEM(PR_1_IBODY_EA_HASH, 0x010054, PROMPT_FIX, P,
	"Inode {ino}'s in-inode extended attribute has a wrong hash")
PROBLEM(PR_1_DIR_FIRST_SHIFTED, 0x010055, PROMPT_FIX, 0,
	"Directory {ino}'s first block (its '.' entry) is mapped at logical "
	"block {num}, not 0: close the gap")
PROBLEM(PR_1_BLOCKS_HI, 0x010056, PROMPT_CLEAR, 0,
	"Inode {ino} has high bits in its block count ({num}) on a file "
	"system without huge_file")
PROBLEM(PR_1_EXTENT_PAST_NODE, 0x010061, PROMPT_FIX, 0,
	"Inode {ino}'s extent at logical block {num} (block {blk}) runs into "
	"the range of the next extent node, which starts at {num2}")
PROBLEM(PR_1_INLINE_IS_EXTENTS, 0x010062, PROMPT_FIX, 0,
	"Inode {ino} has the inline data flag but no system.data attribute, "
	"and its block area holds an extent tree root: it maps its data with "
	"extents")

/* Pass 2: directory entries. */
PROBLEM(PR_2_DIR_CSUM, 0x020001, PROMPT_FIX, P,
	"Directory {ino} block {num} has a wrong checksum")
PROBLEM(PR_2_DIR_NO_TAIL, 0x020002, PROMPT_FIX, 0,
	"Directory {ino} block {num} has no room for its checksum")
PROBLEM(PR_2_REC_LEN, 0x020003, PROMPT_SALVAGE, 0,
	"Entry at offset {num2} in directory {ino} block {num} has a bad record "
	"length ({blk2})")
PROBLEM(PR_2_NAME_LEN, 0x020004, PROMPT_SALVAGE, 0,
	"Entry at offset {num2} in directory {ino} block {num} has a name "
	"longer than its record")
PROBLEM(PR_2_INODE_RANGE, 0x020005, PROMPT_CLEAR, 0,
	"Entry '{name}' in directory {ino} points to inode {ino2}, beyond the "
	"inode count")
PROBLEM(PR_2_INODE_UNUSED, 0x020006, PROMPT_CLEAR, 0,
	"Entry '{name}' in directory {ino} points to unused inode {ino2}")
PROBLEM(PR_2_FILETYPE, 0x020007, PROMPT_FIX, P,
	"Entry '{name}' in directory {ino} has file type {num}; inode {ino2} "
	"has type {num2}")
PROBLEM(PR_2_NAME_BAD, 0x020008, PROMPT_FIX, 0,
	"Entry '{name}' in directory {ino} has a '/' or NUL in its name")
PROBLEM(PR_2_DOT_MISSING, 0x020009, PROMPT_FIX, 0,
	"Directory {ino} does not start with a '.' entry")
PROBLEM(PR_2_DOTDOT_MISSING, 0x02000a, PROMPT_FIX, 0,
	"Directory {ino} has no '..' as its second entry")
PROBLEM(PR_2_DUP_DOT, 0x02000b, PROMPT_CLEAR, 0,
	"Directory {ino} has a second '{name}' entry")
PROBLEM(PR_2_DIR_HARDLINK, 0x02000c, PROMPT_CLEAR, 0,
	"Entry '{name}' in directory {ino} is a second link to directory {ino2} "
	"(already in {dir})")
PROBLEM(PR_2_RESERVED_INODE, 0x02000d, PROMPT_CLEAR, 0,
	"Entry '{name}' in directory {ino} points to reserved inode {ino2}")
PROBLEM(PR_2_HTREE_ROOT, 0x02000e, PROMPT_REBUILD, 0,
	"Directory {ino}'s hash index root is invalid ({str})")
PROBLEM(PR_2_HTREE_NODE, 0x02000f, PROMPT_REBUILD, 0,
	"Directory {ino}'s hash index node at logical block {num} is invalid "
	"({str})")
PROBLEM(PR_2_HTREE_HASH, 0x020010, PROMPT_REBUILD, 0,
	"Directory {ino} block {num}: entry '{name}' is out of hash order")
PROBLEM(PR_2_HTREE_CSUM, 0x020011, PROMPT_REBUILD, 0,
	"Directory {ino}'s hash index node at logical block {num} has a wrong "
	"checksum")
PROBLEM(PR_2_INLINE_DIR, 0x020012, PROMPT_SALVAGE, 0,
	"Inline directory {ino} has a corrupt entry ({str})")
PROBLEM(PR_2_INODE_UNINIT, 0x020013, PROMPT_FIX, 0,
	"Entry '{name}' in directory {ino} points to inode {ino2} in a part of "
	"the inode table marked unused")
PROBLEM(PR_2_DUP_NAME, 0x020014, PROMPT_FIX, 0,
	"Directory {ino} holds the name '{name}' twice (the later one ends in "
	"'~0': added, or over its last two characters when its record has no "
	"room)")
PROBLEM(PR_2_ITREE, 0x020015, PROMPT_REBUILD, 0,
	"Directory {ino}'s itree is invalid ({str})")
PROBLEM(PR_2_DIR_HOLE, 0x020016, PROMPT_ALLOCATE, 0,
	"Directory {ino} has a hole at logical block {num}")
PROBLEM(PR_2_FILETYPE_NO_FEATURE, 0x020017, PROMPT_CLEAR, 0,
	"Entry '{name}' in directory {ino} has a file type but the filetype "
	"feature is off")
PROBLEM(PR_2_DIR_READ, 0x020018, PROMPT_CLEAR, NR,
	"Directory {ino} block {num} (at {blk}) cannot be read")
PROBLEM(PR_2_DOT_INODE, 0x020019, PROMPT_FIX, 0,
	"Directory {ino}'s '.' entry points to inode {ino2}")
PROBLEM(PR_2_HTREE_DEPTH, 0x02001c, PROMPT_REBUILD, 0,
	"Directory {ino}'s hash index is {num} levels deep")
PROBLEM(PR_2_NAME_ENCODING, 0x02001d, PROMPT_FIX, 0,
	"Entry '{name}' in case-folded directory {ino} is not valid in the "
	"file system's encoding")
PROBLEM(PR_2_RESTART, 0x02001e, PROMPT_NONE, PR_INFO,
	"Inodes were found in a part of the inode table marked unused; "
	"checking again from pass 1")
PROBLEM(PR_2_DIR_HOLE_BIG, 0x02001f, PROMPT_NONE, 0,
	"Directory {ino} has a hole of {num2} blocks at logical block {num}, "
	"too large to fill: its size or block map is wrong")
PROBLEM(PR_2_ENCRYPT_UNENCRYPTED, 0x020020, PROMPT_CLEAR, 0,
	"Entry '{name}' in encrypted directory {ino} names inode {ino2}, "
	"which is not encrypted")
PROBLEM(PR_2_ENCRYPT_POLICY, 0x020021, PROMPT_CLEAR, 0,
	"Entry '{name}' in encrypted directory {ino} names inode {ino2}, "
	"whose encryption policy differs from the directory's")
PROBLEM(PR_2_DOT_NUL, 0x020030, PROMPT_FIX, 0,
	"The '{name}' entry of directory {ino} has bytes that are not zero "
	"right after its name")
PROBLEM(PR_2_LINK_DOT, 0x020031, PROMPT_CLEAR, 0,
	"Entry '{name}' in directory {ino} names the directory itself, as "
	"only '.' may")

/* Pass 3: connectivity. */
PROBLEM(PR_3_ROOT_MISSING, 0x030001, PROMPT_CREATE, 0,
	"The root directory is missing or not a directory")
PROBLEM(PR_3_UNCONNECTED_DIR, 0x030002, PROMPT_CONNECT, 0,
	"Directory {ino} is not reachable from the root (its '..' is {ino2})")
PROBLEM(PR_3_DOTDOT_WRONG, 0x030003, PROMPT_FIX, 0,
	"Directory {ino}'s '..' is {ino2}; its parent is {dir}")
PROBLEM(PR_3_NO_LPF, 0x030004, PROMPT_CREATE, 0,
	"/lost+found is missing")
PROBLEM(PR_3_LPF_NOT_DIR, 0x030005, PROMPT_CREATE, 0,
	"/lost+found is not a directory")
PROBLEM(PR_3_DIR_LOOP, 0x030006, PROMPT_CONNECT, 0,
	"Directory {ino} is part of a loop of directories")
PROBLEM(PR_3_LPF_ENCRYPTED, 0x030007, PROMPT_CLEAR, 0,
	"/lost+found (inode {ino}) is encrypted and cannot take reconnected "
	"files")
PROBLEM(PR_3_LPF_NO_ROOM, 0x030008, PROMPT_NONE, PR_INFO,
	"No inode or block is free for a new /lost+found: files nobody names "
	"are given names in the root directory instead")

/* Pass 4: reference counts. */
PROBLEM(PR_4_LINK_COUNT, 0x040001, PROMPT_FIX, P,
	"Inode {ino} has link count {num}; counted {num2} names")
PROBLEM(PR_4_UNATTACHED, 0x040002, PROMPT_CONNECT, 0,
	"Inode {ino} is in use but no directory names it")
PROBLEM(PR_4_UNATTACHED_EMPTY, 0x040003, PROMPT_CLEAR, P,
	"Inode {ino} is empty, in use, and no directory names it")
PROBLEM(PR_4_DIR_NLINK, 0x040004, PROMPT_FIX, P,
	"Directory {ino} has more than 65000 links but the file system lacks "
	"dir_nlink")
PROBLEM(PR_4_EA_INODE_REFS, 0x040005, PROMPT_FIX, P,
	"Value inode {ino} says {num} attribute entries use it; counted {num2}")

/* Pass 5: bitmaps and free counts. */
PROBLEM(PR_5_BLOCK_USED, 0x050001, PROMPT_FIX, P | PR_PREEN_NOMSG,
	"Blocks {blk}-{blk2} are in use but marked free in the bitmap")
PROBLEM(PR_5_BLOCK_FREE, 0x050002, PROMPT_FIX, P | PR_PREEN_NOMSG,
	"Blocks {blk}-{blk2} are free but marked in use in the bitmap")
PROBLEM(PR_5_INODE_USED, 0x050003, PROMPT_FIX, P | PR_PREEN_NOMSG,
	"Inodes {ino}-{ino2} are in use but marked free in the bitmap")
PROBLEM(PR_5_INODE_FREE, 0x050004, PROMPT_FIX, P | PR_PREEN_NOMSG,
	"Inodes {ino}-{ino2} are free but marked in use in the bitmap")
PROBLEM(PR_5_GROUP_FREE_BLOCKS, 0x050005, PROMPT_FIX, P | PR_PREEN_NOMSG,
	"Group {group} says {num} free blocks; counted {num2}")
PROBLEM(PR_5_GROUP_FREE_INODES, 0x050006, PROMPT_FIX, P | PR_PREEN_NOMSG,
	"Group {group} says {num} free inodes; counted {num2}")
PROBLEM(PR_5_GROUP_DIRS, 0x050007, PROMPT_FIX, P | PR_PREEN_NOMSG,
	"Group {group} says {num} directories; counted {num2}")
PROBLEM(PR_5_FREE_BLOCKS, 0x050008, PROMPT_FIX, P | PR_PREEN_NOMSG | PR_NO_OK,
	"The superblock says {num} free blocks; counted {num2}")
PROBLEM(PR_5_FREE_INODES, 0x050009, PROMPT_FIX, P | PR_PREEN_NOMSG | PR_NO_OK,
	"The superblock says {num} free inodes; counted {num2}")
PROBLEM(PR_5_BLOCK_BITMAP_CSUM, 0x05000a, PROMPT_FIX, P,
	"Group {group}'s block bitmap checksum is wrong")
PROBLEM(PR_5_INODE_BITMAP_CSUM, 0x05000b, PROMPT_FIX, P,
	"Group {group}'s inode bitmap checksum is wrong")
PROBLEM(PR_5_ITABLE_UNUSED, 0x05000c, PROMPT_FIX, P,
	"Group {group} marks {num} inodes unused, but inode {ino} there is in "
	"use")
PROBLEM(PR_5_BITMAP_READ, 0x05000d, PROMPT_NONE, PR_FATAL,
	"The allocation bitmaps cannot be read ({str})")
PROBLEM(PR_5_INODE_UNINIT, 0x05000f, PROMPT_FIX, P,
	"Group {group} is marked as having no used inodes but inode {ino} is in "
	"use")
PROBLEM(PR_5_BLOCK_PADDING, 0x050010, PROMPT_FIX, P,
	"The padding at the end of the last block bitmap is not all set")
PROBLEM(PR_5_INODE_PADDING, 0x050011, PROMPT_FIX, P,
	"The padding at the end of an inode bitmap is not all set")
PROBLEM(PR_5_QUOTA_FILE, 0x050012, PROMPT_FIX, 0,
	"The {str} quota file (inode {ino}) cannot be read as a quota tree")
PROBLEM(PR_5_QUOTA_USAGE, 0x050013, PROMPT_FIX, 0,
	"The {str} says {blk} bytes and {num} inodes in use; counted {blk2} "
	"bytes and {num2} inodes")
PROBLEM(PR_5_REPLAY_TOTALS, 0x050014, PROMPT_FIX, P | PR_PREEN_NOMSG | PR_NO_OK,
	"After the journal replay the superblock says {num} free {str}; counted "
	"{num2}")

/* Pass 1b: blocks and clusters claimed twice. */
PROBLEM(PR_1B_DUP_BLOCKS, 0x110001, PROMPT_CLONE, 0,
	"Inode {ino} shares {num} block(s) with other inodes")
PROBLEM(PR_1B_DUP_META, 0x110002, PROMPT_CLONE, 0,
	"Inode {ino} maps {num2} block(s) of file system metadata ({num} shared "
	"in all)")
PROBLEM(PR_1B_CLONE_FAILED, 0x110003, PROMPT_CLEAR_INODE, 0,
	"Giving inode {ino} its own copy of its shared blocks failed ({str})")
PROBLEM(PR_1B_CLONE_UNSUPPORTED, 0x110004, PROMPT_NONE, 0,
	"Inode {ino} keeps its shared clusters: copying clusters is not "
	"available yet")
PROBLEM(PR_1B_BAD_BLOCKS_META, 0x110005, PROMPT_CLEAR, 0,
	"The bad-blocks list names {num2} block(s) of backup superblocks, "
	"backup group descriptors or reserved descriptor blocks, which stay "
	"in use: take them off the list")
PROBLEM(PR_1B_BAD_BITMAPS, 0x110006, PROMPT_RELOCATE, 0,
	"The bad-blocks list names {num2} block(s) holding group bitmaps")
PROBLEM(PR_1B_BAD_FIXED_META, 0x110007, PROMPT_CLEAR, 0,
	"The bad-blocks list names {num2} block(s) of the primary superblock or "
	"group descriptors, which cannot move: take them off the list (a block "
	"that is really bad leaves the file system unusable)")
PROBLEM(PR_1B_CLUSTER_RULES, 0x110008, PROMPT_FIX, 0,
	"Inode {ino} breaks the bigalloc cluster rules (each logical cluster in "
	"one cluster of its own, every block at its own offset); its blocks can "
	"be copied into place")
PROBLEM(PR_1B_BAD_ITABLE, 0x110009, PROMPT_CLEAR, 0,
	"The bad-blocks list names {num2} block(s) of inode tables, which "
	"cannot move: take them off the list, so that the inodes there are "
	"read and their files kept")
PROBLEM(PR_1B_BAD_OTHER_META, 0x11000a, PROMPT_RELOCATE, NR,
	"The bad-blocks list names {num2} block(s) of file system metadata "
	"that cannot move")
PROBLEM(PR_1B_RESTART, 0x11000b, PROMPT_NONE, PR_INFO,
	"Inode table blocks came off the bad-blocks list; checking again from "
	"pass 1")
