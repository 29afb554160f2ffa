/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * problem.c --- the problem table of e2fsck and fix_problem(), the single
 * place where -n, -y, -p and interactive runs decide, count and print.
 */
#include "config.h"
#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>
#include "problem.h"

#define P PR_PREEN_OK
#define NR PR_NO_REPAIR

/* Sorted by code; test_problem checks order, uniqueness and wording. */
static const struct problem_row rows[] = {
/* Pass 0 */
{ PR_0_OPEN_BACKUP, PROMPT_USE_BACKUP, 0,
  "The primary superblock or group descriptors cannot be used ({str}); "
  "checking with the backup at block {blk}" },
{ PR_0_SB_CSUM, PROMPT_FIX, P,
  "The superblock checksum does not match its contents" },
{ PR_0_FS_SIZE_DEVICE, PROMPT_ABORT, NR,
  "The superblock says the file system has {num} blocks but the device "
  "holds only {num2}" },
{ PR_0_INODES_COUNT, PROMPT_FIX, NR,
  "The inode count {num} disagrees with groups times inodes per group "
  "({num2})" },
{ PR_0_FIRST_DATA_BLOCK, PROMPT_NONE, PR_FATAL,
  "The first data block is {num}; this block size needs {num2}" },
{ PR_0_BLOCKS_PER_GROUP, PROMPT_NONE, PR_FATAL,
  "Blocks per group ({num}) is impossible for this block size" },
{ PR_0_R_BLOCKS, PROMPT_FIX, P,
  "Reserved block count {num} is larger than the file system ({num2})" },
{ PR_0_FREE_RANGE, PROMPT_FIX, P,
  "The superblock's free {str} count {num} exceeds the total {num2}" },
{ PR_0_FEATURE_COMBO, PROMPT_FIX, NR,
  "Feature combination not allowed: {str}" },
{ PR_0_DESC_SIZE, PROMPT_NONE, PR_FATAL,
  "Group descriptor size {num} is invalid" },
{ PR_0_GD_BLOCK_BITMAP, PROMPT_RELOCATE, 0,
  "Group {group}'s block bitmap at {blk} lies outside the area it may use" },
{ PR_0_GD_INODE_BITMAP, PROMPT_RELOCATE, 0,
  "Group {group}'s inode bitmap at {blk} lies outside the area it may use" },
{ PR_0_GD_INODE_TABLE, PROMPT_RELOCATE, 0,
  "Group {group}'s inode table at {blk} lies outside the area it may use" },
{ PR_0_GD_OVERLAP, PROMPT_RELOCATE, 0,
  "Group {group}'s {str} at {blk} overlaps other file system metadata" },
{ PR_0_GD_CSUM, PROMPT_FIX, P,
  "Group {group}'s descriptor checksum is wrong" },
{ PR_0_GD_FREE_BLOCKS, PROMPT_FIX, P,
  "Group {group} claims {num} free blocks, more than it holds ({num2})" },
{ PR_0_GD_FREE_INODES, PROMPT_FIX, P,
  "Group {group} claims {num} free inodes, more than it holds ({num2})" },
{ PR_0_GD_ITABLE_UNUSED, PROMPT_FIX, P,
  "Group {group}'s unused inode count {num} is larger than its free "
  "inode count {num2}" },
{ PR_0_GD_FLAGS, PROMPT_FIX, P,
  "Group {group} has initialisation flags this file system cannot have "
  "({str})" },
{ PR_0_GD_RELOCATE_FAILED, PROMPT_NONE, 0,
  "Group {group}'s metadata at {blk} could not be moved ({str}); nothing "
  "is written" },
{ PR_0_SB_CONTRADICTS, PROMPT_NONE, 0,
  "The superblock contradicts itself ({str}) and no backup can stand in "
  "for it; checking without writing anything" },
{ PR_0_JOURNAL_NOT_REPLAYED, PROMPT_NONE, PR_INFO,
  "The journal needs recovery; checking the file system as it is on disk, "
  "without the journal's changes" },
{ PR_0_JOURNAL_INODE, PROMPT_CLEAR, 0,
  "The journal inode {ino} is not usable ({str})" },
{ PR_0_ORPHANS_PRESENT, PROMPT_NONE, PR_INFO,
  "Orphan inodes are waiting to be released; checking without releasing "
  "them" },
{ PR_0_FLEX_SIZE, PROMPT_FIX, NR,
  "Flexible group size 2^{num} is out of range" },
{ PR_0_CSUM_SEED, PROMPT_FIX, NR,
  "The checksum seed feature is set on a file system without metadata "
  "checksums" },
{ PR_0_BACKUP_SB, PROMPT_FIX, P | PR_NO_OK | PR_PREEN_NOMSG,
  "The backup superblock in group {group} differs from the primary ({str})" },
{ PR_0_RESIZE_INODE, PROMPT_REBUILD, 0,
  "The resize inode is not valid ({str})" },
{ PR_0_LAST_ORPHAN, PROMPT_CLEAR, NR,
  "The orphan list starts at inode {ino}, which is not a valid orphan" },
{ PR_0_ORPHAN_FILE, PROMPT_FIX, NR,
  "The orphan file inode {ino} is not valid ({str})" },
{ PR_0_RESIZE_REBUILD_FAILED, PROMPT_NONE, 0,
  "The resize inode could not be made again ({str}); it is left cleared" },
{ PR_0_JOURNAL_BAD, PROMPT_CLEAR, 0,
  "The journal cannot be used ({str})" },
{ PR_0_JOURNAL_REPLAYED, PROMPT_NONE, PR_INFO,
  "Journal recovered: {num} transaction(s), {num2} block(s) written back" },
{ PR_0_JOURNAL_REPLAYED_DRY, PROMPT_NONE, PR_INFO,
  "Journal replayed in memory for this read-only check: {num} "
  "transaction(s), {num2} block(s)" },
{ PR_0_JOURNAL_RECOVER_FAILED, PROMPT_NONE, 0,
  "Journal recovery failed ({str}); checking without the journal's "
  "changes" },
{ PR_0_ORPHAN_RELEASED, PROMPT_NONE, PR_INFO,
  "{name} orphaned inode {ino} ({str})" },
{ PR_0_ORPHAN_RELEASED_DRY, PROMPT_NONE, PR_INFO,
  "{name} orphaned inode {ino} ({str}) in memory for this read-only "
  "check" },
{ PR_0_ORPHAN_BAD, PROMPT_CLEAR, P,
  "The orphan list or orphan file has a bad entry at inode {ino} ({str})" },
{ PR_0_QUOTA_INODE, PROMPT_CLEAR, 0,
  "The {str} quota inode {ino} is not valid" },
{ PR_0_META_BG_FIRST, PROMPT_FIX, P,
  "The first meta block group {num} lies beyond the descriptor blocks "
  "({num2})" },
{ PR_0_JOURNAL_BACKUP, PROMPT_FIX, P,
  "The superblock holds no backup of the journal inode's block map" },
{ PR_0_HURD_FILETYPE, PROMPT_CLEAR_FLAG, 0,
  "The filetype feature is set on a file system made by the Hurd, which "
  "does not support it" },
{ PR_0_EXTRA_ISIZE, PROMPT_FIX, 0,
  "The superblock's {str} extra inode size {num} is invalid" },
{ PR_0_MMP, PROMPT_FIX, NR,
  "The multi-mount protection block {blk} is not valid ({str})" },
{ PR_0_JOURNAL_SB_FIELDS, PROMPT_FIX, 0,
  "The journal superblock is not consistent ({str})" },
{ PR_0_JOURNAL_INODE_BACKUP, PROMPT_FIX, P,
  "The journal inode {ino} cannot be used ({str}); the journal is read "
  "through the copy of its block map in the superblock" },
{ PR_0_DESC_SIZE_UNSET, PROMPT_FIX, 0,
  "The superblock says 64bit with no group descriptor size; such file "
  "systems are made with 64" },
{ PR_0_META_BG_RESIZE, PROMPT_FIX, P,
  "Both meta_bg and resize_inode are set; resize_inode must go" },
{ PR_0_JOURNAL_RECREATE, PROMPT_CREATE, P,
  "The journal was cleared; the file system has none now" },
{ PR_0_CSUM_TYPE, PROMPT_FIX, 0,
  "The superblock names checksum type {num}, but metadata checksums "
  "come in one type only (crc32c) and no backup superblock says more" },
{ PR_0_JOURNAL_REPLAYED_PART, PROMPT_NONE, PR_INFO,
  "Journal recovery stopped at a block that fails its checksum ({str}): "
  "{num} transaction(s) before it written back, the rest of the log "
  "dropped" },
{ PR_0_FIRST_INO_IN_USE, PROMPT_FIX, 0,
  "The first inode is {num}, but inode {ino} below it is a file or "
  "directory in use: the field is damaged and goes back to 11" },
{ PR_0_GD_FROM_BACKUP, PROMPT_FIX, 0,
  "Group {group}'s {str} at {blk} cannot be there; the backup group "
  "descriptors place it at {num}, where nothing else is: use that" },
/* Pass 1 */
{ PR_1_INODE_CSUM, PROMPT_FIX, 0,
  "Inode {ino}'s checksum does not match its contents" },
{ PR_1_BAD_MODE, PROMPT_CLEAR_INODE, 0,
  "Inode {ino} has an unknown file type (mode 0{num})" },
{ PR_1_ROOT_NOT_DIR, PROMPT_CLEAR_INODE, 0,
  "The root inode is not a directory" },
{ PR_1_RESERVED_MODE, PROMPT_CLEAR, 0,
  "Reserved inode {ino} has a file mode (0{num}) it should not have" },
{ PR_1_DTIME_SET, PROMPT_FIX, P,
  "Inode {ino} is in use but has a deletion time" },
{ PR_1_ZERO_DTIME, PROMPT_FIX, P,
  "Deleted inode {ino} has no deletion time" },
{ PR_1_EXTENTS_NO_FEATURE, PROMPT_SET_FEATURE, 0,
  "Inode {ino} uses extents but the extent feature is off" },
{ PR_1_INLINE_NO_FEATURE, PROMPT_SET_FEATURE, 0,
  "Inode {ino} has inline data but the inline_data feature is off" },
{ PR_1_INLINE_AND_EXTENTS, PROMPT_CLEAR_INODE, 0,
  "Inode {ino} claims both inline data and an extent tree" },
{ PR_1_INDEX_NOT_DIR, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} is not a directory but has the hash index flag" },
{ PR_1_INDEX_NO_FEATURE, PROMPT_CLEAR_FLAG, 0,
  "Directory {ino} has a hash index but the dir_index feature is off" },
{ PR_1_HUGE_NO_FEATURE, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} has the huge file flag but the huge_file feature is off" },
{ PR_1_DEVICE_BAD, PROMPT_CLEAR_INODE, 0,
  "Special file inode {ino} has block mappings or flags of a data file" },
{ PR_1_FAST_SYMLINK_BAD, PROMPT_CLEAR_INODE, 0,
  "Short symlink {ino} has size {num} but its target is {num2} bytes" },
{ PR_1_SYMLINK_BAD, PROMPT_CLEAR_INODE, 0,
  "Symlink {ino} is not valid ({str})" },
{ PR_1_INLINE_TYPE, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} has inline data but its type cannot store data" },
{ PR_1_INLINE_NO_DATA, PROMPT_CLEAR_INODE, 0,
  "Inode {ino} has the inline data flag but no system.data attribute" },
{ PR_1_INLINE_SIZE, PROMPT_FIX, 0,
  "Inode {ino} has size {num} but its inline data holds {num2} bytes" },
{ PR_1_IBODY_EA_BAD, PROMPT_CLEAR, 0,
  "Inode {ino}'s in-inode extended attributes are corrupt ({str})" },
{ PR_1_EXTRA_ISIZE, PROMPT_FIX, 0,
  "Inode {ino}'s extra size {num} is invalid" },
{ PR_1_EXTENT_HEADER, PROMPT_CLEAR, 0,
  "Inode {ino}'s extent node at block {blk} has a bad header ({str})" },
{ PR_1_EXTENT_CSUM, PROMPT_FIX, 0,
  "Inode {ino}'s extent node at block {blk} has a wrong checksum" },
{ PR_1_EXTENT_BOUNDS, PROMPT_CLEAR, 0,
  "Inode {ino} maps logical block {num} to block {blk}, outside the file "
  "system's data area" },
{ PR_1_EXTENT_ORDER, PROMPT_CLEAR, 0,
  "Inode {ino}'s extent at logical block {num} is out of order or "
  "overlaps the one before" },
{ PR_1_EXTENT_INDEX_START, PROMPT_FIX, 0,
  "Inode {ino}'s extent index says logical block {num} but its node "
  "starts at {num2}" },
{ PR_1_EXTENT_LEN_ZERO, PROMPT_CLEAR, 0,
  "Inode {ino} has an empty extent at logical block {num}" },
{ PR_1_EXTENT_END, PROMPT_CLEAR, 0,
  "Inode {ino}'s extent at logical block {num} ends beyond the largest "
  "file offset" },
{ PR_1_EXTENT_DEPTH, PROMPT_CLEAR_INODE, 0,
  "Inode {ino}'s extent tree is {num} levels deep" },
{ PR_1_BIGALLOC_ALIGN, PROMPT_CLEAR, 0,
  "Inode {ino} maps logical block {num} to block {blk}, at a different "
  "offset within its cluster" },
{ PR_1_BLOCK_RANGE, PROMPT_CLEAR, 0,
  "Inode {ino} maps logical block {num} to block {blk}, outside the file "
  "system's data area" },
{ PR_1_IND_BLOCK_RANGE, PROMPT_CLEAR, 0,
  "Inode {ino}'s indirect block {blk} lies outside the file system" },
{ PR_1_SIZE, PROMPT_FIX, 0,
  "Inode {ino} has size {num} but its blocks need {num2}" },
{ PR_1_DIR_SIZE, PROMPT_FIX, 0,
  "Directory {ino} has size {num} but its blocks span {num2}" },
{ PR_1_I_BLOCKS, PROMPT_FIX, P,
  "Inode {ino}'s block count i_blocks is {num}; counted {num2}" },
{ PR_1_EA_BLOCK_RANGE, PROMPT_CLEAR, 0,
  "Inode {ino}'s extended attribute block {blk} lies outside the file "
  "system" },
{ PR_1_EA_BLOCK_HEADER, PROMPT_CLEAR, 0,
  "Inode {ino}'s extended attribute block {blk} has a bad header ({str})" },
{ PR_1_EA_BLOCK_CSUM, PROMPT_FIX, 0,
  "Extended attribute block {blk} (of inode {ino}) has a wrong checksum" },
{ PR_1_EA_ENTRY, PROMPT_CLEAR, 0,
  "Extended attribute block {blk} (of inode {ino}) has a corrupt entry "
  "({str})" },
{ PR_1_EA_HASH, PROMPT_FIX, 0,
  "Extended attribute block {blk} (of inode {ino}) has a wrong {str} hash" },
{ PR_1_EA_REFCOUNT, PROMPT_FIX, P,
  "Extended attribute block {blk} says {num} references; counted {num2}" },
{ PR_1_EA_NO_FEATURE, PROMPT_CLEAR, 0,
  "Inode {ino} has an extended attribute block but the ext_attr feature "
  "is off" },
{ PR_1_EA_INODE_REF, PROMPT_CLEAR, NR,
  "Inode {ino}'s attribute refers to value inode {ino2}, which is not "
  "valid ({str})" },
{ PR_1_SPECIAL_IS_DIR, PROMPT_FIX, 0,
  "Special file inode {ino} maps a block that starts like a "
  "directory's ('.' names itself, '..' follows): make it a directory" },
{ PR_1_DIR_UNINIT_EXTENT, PROMPT_FIX, 0,
  "Directory {ino} has an unwritten extent at logical block {num}" },
{ PR_1_IMAGIC, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} has the imagic flag but the imagic_inodes feature is off" },
{ PR_1_CASEFOLD_NOT_DIR, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} has the case-folding flag but is not a directory" },
{ PR_1_ENCRYPT_NO_FEATURE, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} is encrypted but the encrypt feature is off" },
{ PR_1_CASEFOLD_NO_FEATURE, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} is case-folded but the casefold feature is off" },
{ PR_1_INODE_SCAN, PROMPT_NONE, PR_FATAL,
  "Reading the inode table failed near inode {ino} ({str})" },
{ PR_1_EXTENT_ROOT, PROMPT_CLEAR_INODE, 0,
  "Inode {ino}'s extent tree root is corrupt ({str})" },
{ PR_1_IND_BLOCK_READ, PROMPT_CLEAR, 0,
  "Inode {ino}'s indirect block {blk} cannot be read" },
{ PR_1_DEVICE_SIZE, PROMPT_FIX, 0,
  "Special file inode {ino} has size {num}; a device, fifo or socket "
  "holds no data" },
{ PR_1_BAD_INO_FLAGS, PROMPT_CLEAR, 0,
  "The bad blocks inode has an inline data flag, or an extent flag without "
  "the extent feature or an extent root; its list cannot be read" },
{ PR_1_EXTENT_READ, PROMPT_CLEAR, 0,
  "Inode {ino}'s extent node at block {blk} cannot be read" },
{ PR_1_EA_BLOCK_READ, PROMPT_CLEAR, 0,
  "Inode {ino}'s extended attribute block {blk} cannot be read" },
{ PR_1_INLINE_READ, PROMPT_CLEAR_INODE, 0,
  "Inode {ino}'s inline data cannot be read ({str})" },
{ PR_1_DIR_NO_BLOCKS, PROMPT_CLEAR_INODE, 0,
  "Directory {ino} has no blocks" },
{ PR_1_ENCRYPT_NO_POLICY, PROMPT_CLEAR_FLAG, 0,
  "Inode {ino} is encrypted but has no encryption context attribute" },
{ PR_1_ENCRYPT_BAD_POLICY, PROMPT_CLEAR_INODE, 0,
  "Inode {ino}'s encryption context attribute is corrupt" },
{ PR_1_FILE_ACL_HI, PROMPT_CLEAR, 0,
  "Inode {ino} has high bits in its attribute block number ({num}) on a "
  "file system without 64bit" },
{ PR_1_FADDR, PROMPT_CLEAR, 0,
  "Inode {ino}'s obsolete fragment address is {num}, not zero" },
{ PR_1_EXTRA_TIME, PROMPT_FIX, 0,
  "Inode {ino}'s {str} time uses the old pre-1970 encoding, which now "
  "reads as a date centuries ahead" },
{ PR_1_MAP_LOOP, PROMPT_CLEAR_INODE, 0,
  "Inode {ino}'s block map reaches the same blocks over and over; "
  "stopped walking it" },
{ PR_1_RESTART, PROMPT_NONE, PR_INFO,
  "Repairs took back blocks already counted; running pass 1 again" },
{ PR_1_WRITE_FAILED, PROMPT_NONE, 0,
  "Writing repaired inode {ino} failed ({str})" },
{ PR_1_TOO_MANY_BAD, PROMPT_CLEAR_INODE, 0,
  "Inode {ino} has too many bad block map entries to repair one by one" },
{ PR_1_LOW_DTIME, PROMPT_FIX, P,
  "Inode {ino}'s deletion time {num} is a link of a broken orphan list" },
{ PR_1_RESERVED_JUNK, PROMPT_CLEAR, 0,
  "Reserved inode {ino}, which nothing uses, is not all zeros (it has a "
  "file mode)" },
/* Pass 2 */
{ PR_2_DIR_CSUM, PROMPT_FIX, P,
  "Directory {ino} block {num} has a wrong checksum" },
{ PR_2_DIR_NO_TAIL, PROMPT_FIX, 0,
  "Directory {ino} block {num} has no room for its checksum" },
{ PR_2_REC_LEN, PROMPT_SALVAGE, 0,
  "Entry at offset {num2} in directory {ino} block {num} has a bad record "
  "length ({blk2})" },
{ PR_2_NAME_LEN, PROMPT_SALVAGE, 0,
  "Entry at offset {num2} in directory {ino} block {num} has a name "
  "longer than its record" },
{ PR_2_INODE_RANGE, PROMPT_CLEAR, 0,
  "Entry '{name}' in directory {ino} points to inode {ino2}, beyond the "
  "inode count" },
{ PR_2_INODE_UNUSED, PROMPT_CLEAR, 0,
  "Entry '{name}' in directory {ino} points to unused inode {ino2}" },
{ PR_2_FILETYPE, PROMPT_FIX, P,
  "Entry '{name}' in directory {ino} has file type {num}; inode {ino2} "
  "has type {num2}" },
{ PR_2_NAME_BAD, PROMPT_FIX, 0,
  "Entry '{name}' in directory {ino} has a '/' or NUL in its name" },
{ PR_2_DOT_MISSING, PROMPT_FIX, 0,
  "Directory {ino} does not start with a '.' entry" },
{ PR_2_DOTDOT_MISSING, PROMPT_FIX, 0,
  "Directory {ino} has no '..' as its second entry" },
{ PR_2_DUP_DOT, PROMPT_CLEAR, 0,
  "Directory {ino} has a second '{name}' entry" },
{ PR_2_DIR_HARDLINK, PROMPT_CLEAR, 0,
  "Entry '{name}' in directory {ino} is a second link to directory {ino2} "
  "(already in {dir})" },
{ PR_2_RESERVED_INODE, PROMPT_CLEAR, 0,
  "Entry '{name}' in directory {ino} points to reserved inode {ino2}" },
{ PR_2_HTREE_ROOT, PROMPT_REBUILD, 0,
  "Directory {ino}'s hash index root is invalid ({str})" },
{ PR_2_HTREE_NODE, PROMPT_REBUILD, 0,
  "Directory {ino}'s hash index node at logical block {num} is invalid "
  "({str})" },
{ PR_2_HTREE_HASH, PROMPT_REBUILD, 0,
  "Directory {ino} block {num}: entry '{name}' is out of hash order" },
{ PR_2_HTREE_CSUM, PROMPT_REBUILD, 0,
  "Directory {ino}'s hash index node at logical block {num} has a wrong "
  "checksum" },
{ PR_2_INLINE_DIR, PROMPT_SALVAGE, 0,
  "Inline directory {ino} has a corrupt entry ({str})" },
{ PR_2_INODE_UNINIT, PROMPT_FIX, 0,
  "Entry '{name}' in directory {ino} points to inode {ino2} in a part of "
  "the inode table marked unused" },
{ PR_2_DUP_NAME, PROMPT_FIX, 0,
  "Directory {ino} holds the name '{name}' twice (the later one is "
  "renamed '{name}~0')" },
{ PR_2_ITREE, PROMPT_REBUILD, 0,
  "Directory {ino}'s itree is invalid ({str})" },
{ PR_2_DIR_HOLE, PROMPT_ALLOCATE, 0,
  "Directory {ino} has a hole at logical block {num}" },
{ PR_2_FILETYPE_NO_FEATURE, PROMPT_CLEAR, 0,
  "Entry '{name}' in directory {ino} has a file type but the filetype "
  "feature is off" },
{ PR_2_DIR_READ, PROMPT_CLEAR, NR,
  "Directory {ino} block {num} (at {blk}) cannot be read" },
{ PR_2_DOT_INODE, PROMPT_FIX, 0,
  "Directory {ino}'s '.' entry points to inode {ino2}" },
{ PR_2_HTREE_DEPTH, PROMPT_REBUILD, 0,
  "Directory {ino}'s hash index is {num} levels deep" },
{ PR_2_NAME_ENCODING, PROMPT_FIX, 0,
  "Entry '{name}' in case-folded directory {ino} is not valid in the "
  "file system's encoding" },
{ PR_2_RESTART, PROMPT_NONE, PR_INFO,
  "Inodes were found in a part of the inode table marked unused; "
  "checking again from pass 1" },
{ PR_2_DIR_HOLE_BIG, PROMPT_NONE, 0,
  "Directory {ino} has a hole of {num2} blocks at logical block {num}, "
  "too large to fill: its size or block map is wrong" },
/* Pass 3 */
{ PR_3_ROOT_MISSING, PROMPT_CREATE, 0,
  "The root directory is missing or not a directory" },
{ PR_3_UNCONNECTED_DIR, PROMPT_CONNECT, 0,
  "Directory {ino} is not reachable from the root (its '..' is {ino2})" },
{ PR_3_DOTDOT_WRONG, PROMPT_FIX, 0,
  "Directory {ino}'s '..' is {ino2}; its parent is {dir}" },
{ PR_3_NO_LPF, PROMPT_CREATE, 0,
  "/lost+found is missing" },
{ PR_3_LPF_NOT_DIR, PROMPT_CREATE, 0,
  "/lost+found is not a directory" },
{ PR_3_DIR_LOOP, PROMPT_CONNECT, 0,
  "Directory {ino} is part of a loop of directories" },
{ PR_3_LPF_ENCRYPTED, PROMPT_CLEAR, 0,
  "/lost+found (inode {ino}) is encrypted and cannot take reconnected "
  "files" },
/* Pass 4 */
{ PR_4_LINK_COUNT, PROMPT_FIX, P,
  "Inode {ino} has link count {num}; counted {num2} names" },
{ PR_4_UNATTACHED, PROMPT_CONNECT, 0,
  "Inode {ino} is in use but no directory names it" },
{ PR_4_UNATTACHED_EMPTY, PROMPT_CLEAR, P,
  "Inode {ino} is empty, in use, and no directory names it" },
{ PR_4_DIR_NLINK, PROMPT_FIX, P,
  "Directory {ino} has more than 65000 links but the file system lacks "
  "dir_nlink" },
/* Pass 5 */
{ PR_5_BLOCK_USED, PROMPT_FIX, P | PR_PREEN_NOMSG,
  "Blocks {blk}-{blk2} are in use but marked free in the bitmap" },
{ PR_5_BLOCK_FREE, PROMPT_FIX, P | PR_PREEN_NOMSG,
  "Blocks {blk}-{blk2} are free but marked in use in the bitmap" },
{ PR_5_INODE_USED, PROMPT_FIX, P | PR_PREEN_NOMSG,
  "Inodes {ino}-{ino2} are in use but marked free in the bitmap" },
{ PR_5_INODE_FREE, PROMPT_FIX, P | PR_PREEN_NOMSG,
  "Inodes {ino}-{ino2} are free but marked in use in the bitmap" },
{ PR_5_GROUP_FREE_BLOCKS, PROMPT_FIX, P | PR_PREEN_NOMSG,
  "Group {group} says {num} free blocks; counted {num2}" },
{ PR_5_GROUP_FREE_INODES, PROMPT_FIX, P | PR_PREEN_NOMSG,
  "Group {group} says {num} free inodes; counted {num2}" },
{ PR_5_GROUP_DIRS, PROMPT_FIX, P | PR_PREEN_NOMSG,
  "Group {group} says {num} directories; counted {num2}" },
{ PR_5_FREE_BLOCKS, PROMPT_FIX, P | PR_PREEN_NOMSG | PR_NO_OK,
  "The superblock says {num} free blocks; counted {num2}" },
{ PR_5_FREE_INODES, PROMPT_FIX, P | PR_PREEN_NOMSG | PR_NO_OK,
  "The superblock says {num} free inodes; counted {num2}" },
{ PR_5_BLOCK_BITMAP_CSUM, PROMPT_FIX, P,
  "Group {group}'s block bitmap checksum is wrong" },
{ PR_5_INODE_BITMAP_CSUM, PROMPT_FIX, P,
  "Group {group}'s inode bitmap checksum is wrong" },
{ PR_5_ITABLE_UNUSED, PROMPT_FIX, P,
  "Group {group} marks {num} inodes unused, but inode {ino} there is in "
  "use" },
{ PR_5_BITMAP_READ, PROMPT_NONE, PR_FATAL,
  "The allocation bitmaps cannot be read ({str})" },
{ PR_5_INODE_UNINIT, PROMPT_FIX, P,
  "Group {group} is marked as having no used inodes but inode {ino} is in "
  "use" },
{ PR_5_BLOCK_PADDING, PROMPT_FIX, P,
  "The padding at the end of the last block bitmap is not all set" },
{ PR_5_INODE_PADDING, PROMPT_FIX, P,
  "The padding at the end of an inode bitmap is not all set" },
{ PR_5_QUOTA_FILE, PROMPT_FIX, NR,
  "The {str} quota file (inode {ino}) cannot be read as a quota tree" },
{ PR_5_QUOTA_USAGE, PROMPT_FIX, 0,
  "The {str} says {blk} bytes and {num} inodes in use; counted {blk2} "
  "bytes and {num2} inodes" },
{ PR_5_REPLAY_TOTALS, PROMPT_FIX, P | PR_PREEN_NOMSG | PR_NO_OK,
  "After the journal replay the superblock says {num} free {str}; counted "
  "{num2}" },
/* Pass 1b */
{ PR_1B_DUP_BLOCKS, PROMPT_CLONE, 0,
  "Inode {ino} shares {num} block(s) with other inodes" },
{ PR_1B_DUP_META, PROMPT_CLONE, 0,
  "Inode {ino} maps {num2} block(s) of file system metadata ({num} shared "
  "in all)" },
{ PR_1B_CLONE_FAILED, PROMPT_CLEAR_INODE, 0,
  "Giving inode {ino} its own copy of its shared blocks failed ({str})" },
{ PR_1B_CLONE_UNSUPPORTED, PROMPT_NONE, 0,
  "Inode {ino} keeps its shared clusters: copying clusters is not "
  "available yet" },
{ PR_1B_BAD_BLOCKS_META, PROMPT_RELOCATE, NR,
  "The bad-blocks list names {num2} block(s) of file system metadata" },
{ PR_1B_BAD_BITMAPS, PROMPT_RELOCATE, 0,
  "The bad-blocks list names {num2} block(s) holding group bitmaps" },
};

static const char *const prompt_words[PROMPT_COUNT] = {
	[PROMPT_NONE] = "",
	[PROMPT_FIX] = "Fix",
	[PROMPT_CLEAR] = "Clear",
	[PROMPT_RELOCATE] = "Relocate",
	[PROMPT_ALLOCATE] = "Allocate",
	[PROMPT_EXPAND] = "Expand",
	[PROMPT_CONNECT] = "Connect to /lost+found",
	[PROMPT_CREATE] = "Create",
	[PROMPT_SALVAGE] = "Salvage",
	[PROMPT_TRUNCATE] = "Truncate",
	[PROMPT_CLEAR_INODE] = "Clear inode",
	[PROMPT_ABORT] = "Abort",
	[PROMPT_CLONE] = "Clone shared blocks",
	[PROMPT_REBUILD] = "Rebuild",
	[PROMPT_CLEAR_FLAG] = "Clear flag",
	[PROMPT_USE_BACKUP] = "Use the backup",
	[PROMPT_SET_FEATURE] = "Set feature",
};

const struct problem_row *problem_table(size_t *nrows)
{
	*nrows = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const char *problem_prompt_word(enum pr_prompt p)
{
	if (p < 0 || p >= PROMPT_COUNT)
		return "?";
	return prompt_words[p];
}

const struct problem_row *problem_find(problem_t code)
{
	size_t lo = 0, hi = sizeof(rows) / sizeof(rows[0]);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rows[mid].code == code)
			return &rows[mid];
		if (rows[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Print a name from disk: printable bytes as is, the rest as \ooo. */
static void print_name(FILE *out, const char *name, int len)
{
	int i;

	if (!name)
		return;
	if (len < 0)
		len = strlen(name);
	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (isprint(c) && c != '\\')
			fputc(c, out);
		else
			fprintf(out, "\\%03o", c);
	}
}

struct parent_search {
	ext2_ino_t ino, dir;
};

static int match_entry(ext2_ino_t dir, int entry,
		       struct ext2_dir_entry *dirent, int offset,
		       int blocksize, char *buf, void *priv)
{
	struct parent_search *ps = priv;

	(void)entry, (void)offset, (void)blocksize, (void)buf;
	if (dirent->inode != ps->ino)
		return 0;
	ps->dir = dir;
	return DIRENT_ABORT;
}

/*
 * A directory holding a name for INO, found by reading the directory
 * blocks pass 2 listed; 0 when none is found.  Each search reads every
 * directory block, so a run makes at most PATH_SEARCHES of them.
 */
#define PATH_SEARCHES 16
static ext2_ino_t find_parent(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	struct parent_search ps = { ino, 0 };

	if (!ctx->dblist || ctx->path_searches >= PATH_SEARCHES)
		return 0;
	ctx->path_searches++;
	ext2fs_dblist_dir_iterate(ctx->dblist, 0, NULL, match_entry, &ps);
	return ps.dir;
}

/*
 * An inode as "PATH (N)" once pass 2 has read the directories, else as
 * "N": a directory's path is found through '..' (libext2fs), a pass 4
 * file with a wrong link count's through a directory that names it.
 */
static void print_inode(FILE *out, struct fsck_ctx *ctx, problem_t code,
			ext2_ino_t ino)
{
	char *path = NULL;
	unsigned int pass = PR_PASS(code);
	ext2_ino_t dir = 0;
	errcode_t err = EXT2_ET_NO_DIRECTORY;

	if (ctx && ctx->fs && ctx->inode_dir && pass >= 2 && pass <= 5 &&
	    ino >= EXT2_ROOT_INO && ino <= ctx->fs->super->s_inodes_count) {
		if (ext2fs_test_inode_bitmap2(ctx->inode_dir, ino))
			err = ext2fs_get_pathname(ctx->fs, ino, 0, &path);
		else if (code == PR_4_LINK_COUNT &&
			 (dir = find_parent(ctx, ino)))
			err = ext2fs_get_pathname(ctx->fs, dir, ino, &path);
	}
	if (!err && path && path[0] == '/') {
		print_name(out, path, -1);
		fprintf(out, " (%u)", ino);
	} else {
		fprintf(out, "%u", ino);
	}
	ext2fs_free_mem(&path);
}

static void print_field(FILE *out, struct fsck_ctx *ctx, problem_t code,
			const char *key, size_t klen,
			const struct problem_ctx *p)
{
#define KEY(s) (klen == sizeof(s) - 1 && !memcmp(key, s, klen))
	if (KEY("ino"))
		print_inode(out, ctx, code, p->ino);
	else if (KEY("ino2"))
		print_inode(out, ctx, code, p->ino2);
	else if (KEY("dir"))
		print_inode(out, ctx, code, p->dir);
	else if (KEY("blk"))
		fprintf(out, "%llu", (unsigned long long)p->blk);
	else if (KEY("blk2"))
		fprintf(out, "%llu", (unsigned long long)p->blk2);
	else if (KEY("num"))
		fprintf(out, "%" PRIu64, p->num);
	else if (KEY("num2"))
		fprintf(out, "%" PRIu64, p->num2);
	else if (KEY("group"))
		fprintf(out, "%u", p->group);
	else if (KEY("str"))
		fputs(p->str ? p->str : "", out);
	else if (KEY("name"))
		print_name(out, p->name, p->name ? p->namelen : 0);
	else
		fprintf(out, "{%.*s}", (int)klen, key);
#undef KEY
}

void problem_format(FILE *out, struct fsck_ctx *ctx, problem_t code,
		    const struct problem_ctx *pctx)
{
	const struct problem_row *row = problem_find(code);
	const char *s, *end;

	if (!row) {
		fprintf(out, "Unknown problem 0x%06x", code);
		return;
	}
	for (s = row->msg; *s; s++) {
		if (*s == '{' && (end = strchr(s, '}'))) {
			print_field(out, ctx, code, s + 1, end - s - 1, pctx);
			s = end;
		} else {
			fputc(*s, out);
		}
	}
}

/* Ask on the terminal; returns 1 for yes. */
static int ask_user(struct fsck_ctx *ctx, const char *q)
{
	char line[64];

	for (;;) {
		printf("%s<y>? ", q);
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin)) {
			ctx->exit_extra |= FSCK_CANCELED;
			ctx->abort = 1;
			return 0;
		}
		if (line[0] == 'y' || line[0] == 'Y' || line[0] == '\n')
			return 1;
		if (line[0] == 'n' || line[0] == 'N')
			return 0;
	}
}

/* Decide the answer for the current mode; prints the question. */
static int decide(struct fsck_ctx *ctx, const struct problem_row *row)
{
	const char *q = problem_prompt_word(row->prompt);

	switch (ctx->opt.mode) {
	case MODE_NO:
		printf("  %s? no\n\n", q);
		return 0;
	case MODE_YES:
		printf("  %s? yes\n\n", q);
		return 1;
	case MODE_PREEN:
		if (row->flags & PR_PREEN_OK) {
			if (!(row->flags & PR_PREEN_NOMSG))
				printf(" (fixed)\n");
			return 1;
		}
		printf("\n\n%s: UNEXPECTED INCONSISTENCY; RUN fsck MANUALLY.\n"
		       "\t(i.e., without -a or -p options)\n",
		       ctx->opt.device);
		ctx->preen_bailed = 1;
		ctx->abort = 1;
		return 0;
	default:
		putchar(' ');
		return ask_user(ctx, q);
	}
}

int fix_problem(struct fsck_ctx *ctx, problem_t code,
		struct problem_ctx *pctx)
{
	const struct problem_row *row = problem_find(code);
	int quiet, answer;

	if (!row) {
		fprintf(stderr, "%s: internal error: no problem 0x%06x\n",
			ctx->prog, code);
		ctx->problems_unfixed++;
		return 0;
	}
	quiet = ctx->opt.mode == MODE_PREEN && (row->flags & PR_PREEN_NOMSG) &&
		(row->flags & PR_PREEN_OK) && !(row->flags & PR_NO_REPAIR);
	if (!quiet) {
		fsck_progress_clear(ctx);
		if (ctx->opt.mode == MODE_PREEN)
			printf("%s: ", ctx->opt.device);
		problem_format(stdout, ctx, code, pctx);
		if (ctx->opt.debug)
			printf(" [0x%06x]", code);
	}
	if (row->flags & PR_INFO || row->prompt == PROMPT_NONE) {
		if (!quiet)
			printf(".\n");
		if (row->flags & PR_FATAL) {
			ctx->problems_unfixed++;
			ctx->abort = 1;
			ctx->exit_extra |= FSCK_ERROR;
		} else if (row->flags & PR_INFO) {
			ctx->problems_info++;
		} else {
			ctx->problems_unfixed++;
		}
		return 0;
	}
	if (!quiet)
		putchar('.');
	if (quiet)
		answer = 1;
	else
		answer = decide(ctx, row);
	if (answer && (row->flags & PR_NO_REPAIR) && !ctx->abort) {
		printf("  (this repair is not available yet; left as is)\n\n");
		answer = 0;
	}
	if (answer && ctx->hold_repairs) {
		printf("  (held back: earlier problems are still unrepaired)\n\n");
		answer = 0;
	}
	if (answer && !ctx->fs_rw)
		answer = 0;
	if (answer)
		ctx->problems_fixed++;
	else if (!(row->flags & PR_NO_OK))
		ctx->problems_unfixed++;
	else
		ctx->problems_info++;
	return answer;
}
