#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# damage_gen.py --- seeded random damage for the e2fsck safety sweep: reads
# the geometry of IMG and prints reference debugfs commands (one a line)
# that break one piece of metadata: a superblock or descriptor field, a
# bitmap, part of an inode table, an inode field, a directory, extent,
# xattr or journal block.  Half the time the checksum of what was changed
# is recomputed so the damage looks valid.  The first line is a comment
# saying what the damage is.
# Usage: damage_gen.py IMG SEED
import random
import struct
import sys

img, seed = sys.argv[1], int(sys.argv[2])
r = random.Random(seed)

with open(img, "rb") as f:
    f.seek(1024)
    sb = f.read(1024)


def u32(off):
    return struct.unpack_from("<I", sb, off)[0]


def u16(off):
    return struct.unpack_from("<H", sb, off)[0]


blocks = u32(4) | (u32(0x150) << 32 if u32(0x60) & 0x80 else 0)
inodes = u32(0)
bpg = u32(32)
ipg = u32(40)
first = u32(20)
bsize = 1024 << u32(24)
groups = max(1, (blocks - first + bpg - 1) // bpg)
csum = bool(u32(0x64) & 0x400)
is64 = bool(u32(0x60) & 0x80)
dsize = u16(0xfe) if is64 and u16(0xfe) >= 64 else 32


def group_meta(g):
    """Block bitmap, inode bitmap and inode table of group G."""
    with open(img, "rb") as f:
        f.seek((1024 // bsize + 1) * bsize + g * dsize)
        d = f.read(dsize)
    lo = struct.unpack_from("<III", d, 0)
    hi = struct.unpack_from("<III", d, 0x20) if dsize >= 64 else (0, 0, 0)
    return [lo[i] | (hi[i] << 32) for i in range(3)]


def rblock():
    return r.choice([0, 1, first, blocks - 1, blocks, blocks + 7,
                     r.randrange(blocks), r.randrange(min(blocks, 2048)),
                     0xffffffff])


def rgroup():
    return r.randrange(min(groups, 4))


def rino():
    return r.randrange(1, min(inodes, 600) + 1)


def pattern():
    return "0x%02x" % r.choice([0, 0xff, r.randrange(256)])


def sb_field():
    field, vals = r.choice([
        ("rev_level", [0, 2]),
        ("inode_size", [0, 100, 127, 128, 512, bsize * 2]),
        ("first_ino", [0, 5, 12, 15, inodes + 1]),
        ("inodes_count", [inodes - 8, inodes + ipg]),
        ("inodes_per_group", [ipg // 2, ipg + 8]),
        ("blocks_per_group", [bpg // 2]),
        ("clusters_per_group", [u32(36) // 2]),
        ("log_cluster_size", [0, 3, 25]),
        ("first_data_block", [0, 1, 2]),
        ("reserved_gdt_blocks", [0, bsize // 4 + 1]),
        ("blocks_count", [blocks - 100, blocks + 100]),
        ("feature_incompat", [u32(0x60) | 0x10000000]),
        ("feature_ro_compat", [u32(0x64) | 0x20000000]),
        ("log_groups_per_flex", [0, 31, 40]),
        ("checksum_type", [0, 7]),
        ("min_extra_isize", [0xffff, 3, 200]),
        ("want_extra_isize", [0xffff, 7]),
        ("free_blocks_count", [0, blocks + 10]),
        ("free_inodes_count", [0, inodes + 10]),
        ("r_blocks_count", [blocks]),
        ("last_orphan", [3, inodes + 5]),
        ("state", [0, 2]),
        ("first_meta_bg", [1000]),
        ("desc_size", [0, 24, 100]),
    ])
    v = r.choice(vals)
    return "superblock %s %d" % (field, v), ["ssv %s %d" % (field, v)]


def gd_field():
    g = rgroup()
    field = r.choice(["block_bitmap", "inode_bitmap", "inode_table", "flags",
                      "free_blocks_count", "free_inodes_count",
                      "used_dirs_count", "itable_unused", "checksum"])
    if field in ("block_bitmap", "inode_bitmap", "inode_table"):
        v = rblock()
    elif field == "flags":
        v = r.choice([0, 1, 2, 4, 7])
    else:
        v = r.choice([0, 1, 0xffff, r.randrange(1 << 16)])
    cmds = ["set_bg %d %s %d" % (g, field, v)]
    fixed = field != "checksum" and csum and r.random() < 0.5
    if fixed:
        cmds.append("set_bg %d checksum calc" % g)
    return ("group %d %s %d%s" % (g, field, v,
                                  " (checksum recomputed)" if fixed else ""),
            cmds)


def meta_block():
    g = rgroup()
    k = r.randrange(3)
    what = ["block bitmap", "inode bitmap", "inode table"][k]
    blk = group_meta(g)[k] + (r.randrange(4) if k == 2 else 0)
    off = r.randrange(bsize)
    n = r.choice([1, 4, 64, bsize])
    if not 0 < blk < blocks:
        return "nothing (group %d %s at %d)" % (g, what, blk), []
    return ("group %d %s block %d bytes %d+%d" % (g, what, blk, off, n),
            ["zap_block -o %d -l %d -p %s %d" %
             (off, min(n, bsize - off), pattern(), blk)])


def inode_field():
    ino = rino()
    field, vals = r.choice([
        ("mode", [0, 0o170000, 0o100644, 0o040755]),
        ("links_count", [0, 1, 500]),
        ("size", [0, 1, 1 << 40]),
        ("flags", [0, 0x80000, 0x10000000, 0x1000]),
        ("block[0]", [0, 1, blocks + 3]),
        ("block[IND]", [blocks + 3, 1]),
        ("file_acl", [1, blocks + 3]),
        ("extra_isize", [0xffff, 3, 200]),
        ("dtime", [1]),
        ("uid", [4242]),
    ])
    v = r.choice(vals)
    cmds = ["sif <%d> %s %d" % (ino, field, v)]
    fixed = csum and r.random() < 0.5
    if fixed:
        cmds.append("sif <%d> checksum calc" % ino)
    return ("inode %d %s %d%s" % (ino, field, v,
                                  " (checksum recomputed)" if fixed else ""),
            cmds)


def file_block():
    ino = r.choice([2, 2, 7, 8, rino()])
    blk = r.choice([0, 0, 1, r.randrange(64)])
    off = r.randrange(bsize)
    n = r.choice([1, 8, 64])
    return ("inode %d logical block %d bytes %d+%d" % (ino, blk, off, n),
            ["zap_block -f <%d> -o %d -l %d -p %s %d" %
             (ino, off, min(n, bsize - off), pattern(), blk)])


kind = r.choice([sb_field, gd_field, gd_field, meta_block, inode_field,
                 inode_field, file_block, file_block])
desc, cmds = kind()
print("# " + desc)
for c in cmds:
    print(c)
