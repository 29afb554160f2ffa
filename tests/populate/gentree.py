#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# gentree.py --- make a source tree with the awkward cases for mke2fs -d:
# 255-byte names, a big directory, files around every inline limit, hard
# links across directories, xattr-heavy files, sparse files, deep nesting,
# every file type, chattr flags, nanosecond times.
#
# usage: gentree.py DEST [--big N] [--depth N] [--far BYTES] [--bench
#        FILES DIRS]   (--bench: the bench/populate tree instead)
import argparse
import os
import random
import socket
import struct
import subprocess
import sys
import time

# Around the inline capacity of 256/512/1024-byte inodes (60 in i_block
# plus what system.data can take in the in-inode area).
SIZES = [0, 1, 59, 60, 61, 62, 126, 127, 128, 129, 130, 382, 383, 384, 385,
         386, 894, 895, 896, 897, 898, 1023, 1024, 1025, 4095, 4096, 4097,
         65536, 65537, 300000]

# atime is set an hour ahead so that reading the source (relatime) does
# not move it before the comparison.
NOW = int(time.time())


def stamp(path, i, follow=True):
    at = (NOW + 3600) * 10**9 + (i * 7919) % 10**9
    mt = (1500000000 + i * 37) * 10**9 + (i * 104729) % 10**9
    os.utime(path, ns=(at, mt), follow_symlinks=follow)


def content(size, seed):
    r = random.Random(seed)
    return bytes(r.getrandbits(8) for _ in range(min(size, 4096))) * \
        (size // 4096 + 1)


def write(path, size, seed):
    with open(path, 'wb') as f:
        f.write(content(size, seed)[:size])


def acl_access():
    # VFS layout: version 2, then (tag, perm, id) entries.
    ents = [(0x01, 6, 0xffffffff), (0x02, 4, 1000), (0x04, 4, 0xffffffff),
            (0x10, 4, 0xffffffff), (0x20, 0, 0xffffffff)]
    return struct.pack('<I', 2) + b''.join(struct.pack('<HHI', *e)
                                           for e in ents)


def try_flags(path, flags):
    subprocess.run(['chattr', flags, path], stderr=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL)


def gen_awkward(dest, big, depth, far):
    n = 0
    os.makedirs(dest, exist_ok=True)
    # sizes around the inline limits, in their own directory
    d = os.path.join(dest, 'sizes')
    os.mkdir(d)
    for s in SIZES:
        write(os.path.join(d, 'f%d' % s), s, s)
    # 255-byte names: a file, a directory, a symlink
    long = 'n' * 254
    write(os.path.join(dest, long + 'f'), 10, 1)
    os.mkdir(os.path.join(dest, long + 'd'))
    write(os.path.join(dest, long + 'd', long + 'g'), 100, 2)
    os.symlink('sizes/f1', os.path.join(dest, long + 's'))
    # a big directory
    d = os.path.join(dest, 'big')
    os.mkdir(d)
    for i in range(big):
        with open(os.path.join(d, 'entry-%06d-%s' % (i, 'x' * (i % 23))),
                  'wb') as f:
            f.write(b'%d\n' % i)
    # hard links across directories
    for sub in ('l1', 'l2', 'l3/deeper'):
        os.makedirs(os.path.join(dest, sub))
    write(os.path.join(dest, 'l1', 'shared'), 5000, 3)
    os.link(os.path.join(dest, 'l1', 'shared'),
            os.path.join(dest, 'l2', 'shared-too'))
    os.link(os.path.join(dest, 'l1', 'shared'),
            os.path.join(dest, 'l3/deeper', 'third'))
    write(os.path.join(dest, 'l2', 'small'), 20, 4)
    os.link(os.path.join(dest, 'l2', 'small'),
            os.path.join(dest, 'l1', 'small-link'))
    os.link(os.path.join(dest, 'l2', 'small'),
            os.path.join(dest, 'l2', 'small-again'))
    # xattrs: one heavy file (needs a block), namespaces, ACLs
    d = os.path.join(dest, 'xattr')
    os.mkdir(d)
    p = os.path.join(d, 'heavy')
    write(p, 30, 5)
    for i in range(12):     # ~800 bytes: a block even of 1 KiB
        os.setxattr(p, 'user.attr%02d' % i, (b'v%d-' % i) * 10)
    p = os.path.join(d, 'namespaces')
    write(p, 3000, 6)
    os.setxattr(p, 'user.mime', b'text/plain')
    os.setxattr(p, 'trusted.overlay', b'\x00\x01\x02')
    os.setxattr(p, 'security.label', b'unconfined\x00')
    os.setxattr(p, 'system.posix_acl_access', acl_access())
    p = os.path.join(d, 'inline-with-xattr')
    write(p, 40, 7)
    os.setxattr(p, 'user.small', b'1234')
    p = os.path.join(d, 'dir-with-acl')
    os.mkdir(p)
    os.setxattr(p, 'system.posix_acl_default', acl_access())
    os.setxattr(p, 'user.dir', b'on a directory')
    write(os.path.join(p, 'inside'), 70, 8)
    # sparse files
    d = os.path.join(dest, 'sparse')
    os.mkdir(d)
    with open(os.path.join(d, 'far'), 'wb') as f:
        f.write(b'head')
        f.seek(far)
        f.write(b'data at a far offset')
    with open(os.path.join(d, 'holes'), 'wb') as f:
        for i in range(8):
            f.seek(i * 1048576 + 8192)
            f.write(content(5000, i)[:5000])
    with open(os.path.join(d, 'tail-hole'), 'wb') as f:
        f.write(b'abc')
        f.truncate(10 * 1048576)
    # deep nesting
    p = dest
    for i in range(depth):
        p = os.path.join(p, 'd')
        os.mkdir(p)
    write(os.path.join(p, 'bottom'), 12, 9)
    # every file type
    d = os.path.join(dest, 'types')
    os.mkdir(d)
    os.mkfifo(os.path.join(d, 'fifo'))
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(d, 'sock'))
    s.close()
    try:
        os.mknod(os.path.join(d, 'chr'), 0o620 | 0o020000, os.makedev(4, 5))
        os.mknod(os.path.join(d, 'blk'), 0o660 | 0o060000, os.makedev(7, 0))
        os.mknod(os.path.join(d, 'chr-big'), 0o600 | 0o020000,
                 os.makedev(300, 70000))
    except PermissionError:
        pass
    os.symlink('x' * 30, os.path.join(d, 'fast'))
    os.symlink('y' * 100, os.path.join(d, 'medium'))
    os.symlink('z' * 1000, os.path.join(d, 'slow'))
    os.setxattr(os.path.join(d, 'fifo'), 'trusted.on-fifo', b'v')
    # modes, owners, flags
    d = os.path.join(dest, 'modes')
    os.mkdir(d)
    for i, mode in enumerate([0o4755, 0o2711, 0o1777, 0o000, 0o640]):
        p = os.path.join(d, 'm%o' % mode)
        write(p, 10 + i, 10 + i)
        os.chmod(p, mode)
        os.chown(p, 1000 + i, 70000 + i)
    os.mkdir(os.path.join(d, 'sticky'))
    os.chmod(os.path.join(d, 'sticky'), 0o1777)
    for fl in ('+d', '+A', '+i', '+a'):
        write(os.path.join(d, 'flag' + fl[1]), 10, 20)
    # times on everything (directories last, after their content)
    for root, dirs, files in os.walk(dest, topdown=False):
        for name in files + dirs:
            p = os.path.join(root, name)
            n += 1
            try:
                stamp(p, n, follow=False)
            except PermissionError:
                pass    # immutable/append-only: keeps its own times
    stamp(dest, 0)
    # flags last: immutable and append-only files refuse new times
    for fl in ('+d', '+A', '+i', '+a'):
        try_flags(os.path.join(dest, 'modes', 'flag' + fl[1]), fl)


def unflag(dest):
    subprocess.run(['chattr', '-R', '-i', '-a', dest],
                   stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def gen_bench(dest, files, dirs, big):
    """FILES small files (11..500 bytes) in DIRS directories (two levels)
    plus one directory of BIG entries."""
    r = random.Random(1)
    os.makedirs(dest, exist_ok=True)
    top = max(1, int(dirs ** 0.5))
    paths = []
    for i in range(dirs):
        p = os.path.join(dest, 'top%03d' % (i % top), 'dir%05d' % i)
        os.makedirs(p, exist_ok=True)
        paths.append(p)
    blob = bytes(r.getrandbits(8) for _ in range(4096))
    for i in range(files):
        p = os.path.join(paths[i % dirs], 'file%07d.txt' % i)
        size = r.randint(11, 500)
        with open(p, 'wb') as f:
            f.write(blob[i % 3000:i % 3000 + size])
    p = os.path.join(dest, 'bigdir')
    os.mkdir(p)
    for i in range(big):
        with open(os.path.join(p, 'member%06d' % i), 'wb') as f:
            f.write(blob[:11 + i % 100])


def main():
    sys.setrecursionlimit(20000)
    ap = argparse.ArgumentParser()
    ap.add_argument('dest')
    ap.add_argument('--big', type=int, default=20000)
    ap.add_argument('--depth', type=int, default=1000)
    ap.add_argument('--far', type=int, default=1 << 40)
    ap.add_argument('--unflag', action='store_true',
                    help='drop immutable/append flags (before rm -rf)')
    ap.add_argument('--bench', nargs=2, type=int, metavar=('FILES', 'DIRS'))
    a = ap.parse_args()
    if a.unflag:
        unflag(a.dest)
    elif a.bench:
        gen_bench(a.dest, a.bench[0], a.bench[1], a.big)
    else:
        gen_awkward(a.dest, a.big, a.depth, a.far)
    return 0


if __name__ == '__main__':
    sys.exit(main())
