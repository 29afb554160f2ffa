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


# Seeds from 5000000 on (safety-sweep seed 50 and up) add damage aimed at
# the blocks of real structures, found by reading the inode tables: a
# directory block (an htree node among them), an extent index node, an
# attribute block, inline data, the journal; and sometimes two or three
# damages at once.  Earlier seeds keep the damage they always made.
isize = u16(88) if u32(76) >= 1 else 128


def inodes_in_use():
    """(ino, raw inode) of every inode in use with a mode."""
    out = []
    with open(img, "rb") as f:
        for g in range(groups):
            it = group_meta(g)[2]
            if not 0 < it < blocks:
                continue
            f.seek(it * bsize)
            tab = f.read(ipg * isize)
            for i in range(len(tab) // isize):
                raw = tab[i * isize:(i + 1) * isize]
                mode, = struct.unpack_from("<H", raw, 0)
                links, = struct.unpack_from("<H", raw, 26)
                if mode and links:
                    out.append((g * ipg + i + 1, raw))
    return out


def extent_blocks(raw, want_nodes):
    """Data blocks (or index node blocks) the inode's i_block names."""
    magic, n, _mx, depth = struct.unpack_from("<HHHH", raw, 40)
    out = []
    flags, = struct.unpack_from("<I", raw, 32)
    if flags & 0x10000000:         # inline data: no blocks
        return out
    if magic != 0xF30A:            # block map: the direct pointers
        if not want_nodes:
            out = [b for b in struct.unpack_from("<12I", raw, 40) if b]
        else:
            ind = struct.unpack_from("<I", raw, 40 + 48)[0]
            out = [ind] if ind else []
        return [b for b in out if 0 < b < blocks]
    for k in range(min(n, 4)):
        e = 40 + 12 + 12 * k
        if depth:
            lo, hi = struct.unpack_from("<IH", raw, e + 4)
            if want_nodes:
                out.append(lo | hi << 32)
        elif not want_nodes:
            ln, hi, lo = struct.unpack_from("<HHI", raw, e + 4)
            ln &= 0x7fff
            start = lo | hi << 32
            out += [start + j for j in range(min(ln, 8))]
    return [b for b in out if 0 < b < blocks]


def zap(what, blk, lo=0, hi=None):
    hi = bsize if hi is None else hi
    off = r.randrange(lo, hi)
    n = r.choice([1, 4, 8, 64, 256])
    return ("%s block %d bytes %d+%d" % (what, blk, off, n),
            ["zap_block -o %d -l %d -p %s %d" %
             (off, min(n, bsize - off), pattern(), blk)])


def structure_block():
    used = inodes_in_use()
    dirs = [(i, x) for i, x in used if struct.unpack_from("<H", x, 0)[0]
            & 0xf000 == 0x4000]
    pick = r.choice(["dir", "dir", "htree", "node", "xattr", "inline",
                     "journal"])
    if pick in ("dir", "htree"):
        cand = dirs
        if pick == "htree":
            cand = [(i, x) for i, x in dirs
                    if struct.unpack_from("<I", x, 32)[0] & 0x1000]
        cand = [(i, x) for i, x in cand if extent_blocks(x, False)]
        if cand:
            ino, raw = r.choice(cand)
            blk = r.choice(extent_blocks(raw, False))
            # an htree root: its count/limit and first index entries
            if pick == "htree" and r.random() < 0.5:
                blk = extent_blocks(raw, False)[0]
                return zap("htree root of inode %d:" % ino, blk, 0x18, 0x40)
            return zap("directory %d" % ino, blk)
    if pick == "node":
        cand = [(i, x) for i, x in used if extent_blocks(x, True)]
        if cand:
            ino, raw = r.choice(cand)
            return zap("inode %d tree node" % ino,
                       r.choice(extent_blocks(raw, True)), 0, 64)
    if pick == "xattr":
        cand = [(i, x) for i, x in used
                if 0 < struct.unpack_from("<I", x, 104)[0] < blocks]
        if cand:
            ino, raw = r.choice(cand)
            return zap("inode %d xattr" % ino,
                       struct.unpack_from("<I", raw, 104)[0], 0, 128)
    if pick == "inline":
        cand = [(i, x) for i, x in used
                if struct.unpack_from("<I", x, 32)[0] & 0x10000000]
        if cand and isize > 128:
            ino, raw = r.choice(cand)
            if r.random() < 0.5:
                k = r.randrange(15)
                v = r.choice([0, 0xffffffff, r.randrange(1 << 32)])
                return ("inode %d inline i_block[%d] %d" % (ino, k, v),
                        ["sif <%d> block[%d] %d" % (ino, k, v)])
            # the in-inode attribute area, where system.data lives
            g, i = (ino - 1) // ipg, (ino - 1) % ipg
            at = group_meta(g)[2] * bsize + i * isize
            extra, = struct.unpack_from("<H", raw, 128)
            lo = min(128 + extra, isize - 1)
            off = at % bsize + r.randrange(lo, isize)
            n = r.choice([1, 4, 16])
            return ("inode %d inline attribute bytes %d+%d" %
                    (ino, off - at % bsize, n),
                    ["zap_block -o %d -l %d -p %s %d" %
                     (off, min(n, bsize - off), pattern(), at // bsize)])
    if pick == "journal":
        jblk = r.choice([0, 1, 2, 3, r.randrange(64)])
        off = r.randrange(bsize)
        n = r.choice([4, 64])
        return ("journal logical block %d bytes %d+%d" % (jblk, off, n),
                ["zap_block -f <8> -o %d -l %d -p %s %d" %
                 (off, min(n, bsize - off), pattern(), jblk)])
    return file_block()


kinds = [sb_field, gd_field, gd_field, meta_block, inode_field,
         inode_field, file_block, file_block]
if seed >= 5000000:
    kinds += [structure_block] * 6
    many = r.choice([1, 1, 1, 2, 3])
else:
    many = 1
descs, cmds = [], []
for _ in range(many):
    d, c = r.choice(kinds)()
    descs.append(d)
    cmds += c
print("# " + "; ".join(descs))
for c in cmds:
    print(c)
