#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# imgcmp.py --- compare two images of the same file system byte for byte,
# ignoring what a writer legitimately stamps differently: primary
# superblock write time, kbytes written and checksum; with
# "itable:BS:ISIZE:FIRST:LAST" arguments (inode table blocks), the inode
# fields dtime, i_version and checksum; with "skipino:N" (after the
# itables, in group order), all of inode N; with "OFFSET:LENGTH", any
# range.
# usage: imgcmp.py A B [range...]; exit 0 same, 1 different.
import sys

SB_FIELDS = [(0x30, 4), (0x178, 8), (0x274, 1), (0x3FC, 4)]
INODE_FIELDS = [(0x14, 4), (0x24, 4), (0x7C, 2), (0x82, 2), (0x98, 4)]
ranges = [(1024 + o, n) for o, n in SB_FIELDS]
itables = []        # (start byte, end byte, inode size)
for arg in sys.argv[3:]:
    p = arg.split(":")
    if p[0] == "itable":
        bs, isz, first, last = (int(x) for x in p[1:])
        itables.append((first * bs, (last + 1) * bs, isz))
    elif p[0] == "skipino":
        start, end, isz = itables[0]
        ipg = (end - start) // isz
        g, i = divmod(int(p[1]) - 1, ipg)
        ranges.append((itables[g][0] + i * isz, isz))
    else:
        ranges.append((int(p[0]), int(p[1])))


def ignored(pos):
    for off, n in ranges:
        if off <= pos < off + n:
            return True
    for start, end, isz in itables:
        if start <= pos < end:
            rel = (pos - start) % isz
            return any(o <= rel < o + n for o, n in INODE_FIELDS
                       if o + n <= isz)
    return False


a, b = open(sys.argv[1], "rb"), open(sys.argv[2], "rb")
pos, diffs = 0, []
while len(diffs) < 10:
    x, y = a.read(1 << 20), b.read(1 << 20)
    if not x and not y:
        break
    for k in range(0, max(len(x), len(y)), 4096) if x != y else ():
        if x[k:k + 4096] == y[k:k + 4096]:
            continue
        for i in range(k, k + 4096):
            if x[i:i + 1] != y[i:i + 1] and not ignored(pos + i):
                diffs.append(pos + i)
                if len(diffs) >= 10:
                    break
        if len(diffs) >= 10:
            break
    pos += max(len(x), len(y))
for d in diffs:
    print("differs at byte %d (1k block %d)" % (d, d // 1024))
sys.exit(1 if diffs else 0)
