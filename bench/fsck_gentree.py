#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# fsck_gentree.py --- the source trees bench/fsck turns into images with
# mke2fs -d: deterministic (names, sizes and contents follow from the seed).
#
# usage: fsck_gentree.py KIND DEST [N]
#   small  N small files (0..120 bytes, so they fit inline in a 256-byte
#          inode) in directories of 1000, plus one symlink per directory
#   bigdir N empty files in one directory "d"
#   large  N files of 16 KiB..256 KiB, every fourth with holes, in
#          directories of 500, plus 8 sparse 64 MiB files
#   falloc N files of 1..16 MiB in directories of 500 in DEST, a mounted
#          file system: allocated with fallocate (no data written but the
#          first 4 KiB), a 64 KiB hole punched in every MiB
import os
import random
import sys

PAD = bytes(range(256)) * 9000


def put(path, size, off=0):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        if size:
            os.pwrite(fd, PAD[off % 251:off % 251 + size], off)
    finally:
        os.close(fd)


def small(dest, n, r):
    per = 1000
    for d in range((n + per - 1) // per):
        sub = os.path.join(dest, 'd%04d' % d)
        os.mkdir(sub)
        for i in range(min(per, n - d * per)):
            put(os.path.join(sub, 'file-%07d' % (d * per + i)),
                r.randrange(0, 121))
        os.symlink('file-%07d' % (d * per), os.path.join(sub, 'link'))


def bigdir(dest, n, r):
    sub = os.path.join(dest, 'd')
    os.mkdir(sub)
    for i in range(n):
        fd = os.open(os.path.join(sub, 'entry-%07d' % i),
                     os.O_WRONLY | os.O_CREAT, 0o644)
        os.close(fd)


def sparse(path, size, chunk, step, r):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for off in range(0, size, step):
            os.pwrite(fd, PAD[:chunk], off + r.randrange(0, step - chunk))
        os.ftruncate(fd, size)
    finally:
        os.close(fd)


def large(dest, n, r):
    per = 500
    for d in range((n + per - 1) // per):
        sub = os.path.join(dest, 'd%03d' % d)
        os.mkdir(sub)
        for i in range(min(per, n - d * per)):
            k = d * per + i
            size = r.randrange(16 << 10, 256 << 10)
            path = os.path.join(sub, 'f%06d' % k)
            if k % 4 == 3:
                sparse(path, size, 8192, 64 << 10, r)
            else:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
                for off in range(0, size, len(PAD)):
                    os.write(fd, PAD[:min(len(PAD), size - off)])
                os.close(fd)
    for i in range(8):
        sparse(os.path.join(dest, 'sparse%d' % i), 64 << 20, 65536,
               1 << 20, r)


def falloc(dest, n, r):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long,
                               ctypes.c_long]
    punch = 0x02 | 0x01     # FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
    per = 500
    for d in range((n + per - 1) // per):
        sub = os.path.join(dest, 'd%03d' % d)
        os.mkdir(sub)
        for i in range(min(per, n - d * per)):
            size = r.randrange(1, 17) << 20
            fd = os.open(os.path.join(sub, 'f%06d' % (d * per + i)),
                         os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                if libc.fallocate(fd, 0, 0, size):
                    raise OSError(ctypes.get_errno(), 'fallocate')
                os.pwrite(fd, PAD[:4096], 0)
                for mib in range(1, size >> 20):
                    off = (mib << 20) + (r.randrange(0, 15) << 16)
                    if libc.fallocate(fd, punch, off, 65536):
                        raise OSError(ctypes.get_errno(), 'punch')
            finally:
                os.close(fd)


def main():
    kind, dest = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000000
    os.makedirs(dest, exist_ok=kind == 'falloc')
    {'small': small, 'bigdir': bigdir, 'large': large, 'falloc': falloc}[
        kind](dest, n, random.Random(6))


main()
