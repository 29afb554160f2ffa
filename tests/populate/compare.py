#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# compare.py --- recursive comparison of a source tree and its copy (a
# kernel mount of the mke2fs -d image): type, content, data map
# (sparseness), mode, owner, atime/mtime/ctime/crtime to the nanosecond, xattrs,
# chattr flags, link counts and hard-link identity.  Prints every
# difference; exit 1 when there is any.
#
# usage: compare.py SOURCE COPY [--skip NAME]... [--no-crtime]
#        [--no-atime] [--ignore-root-owner]
import argparse
import array
import fcntl
import os
import stat
import subprocess
import sys

FS_IOC_GETFLAGS = 0x80086601
# chattr flags a copy carries (see lib/populate/populate.c POP_USER_FLAGS).
USER_FLAGS = 0x1 | 0x2 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x10000 | \
    0x20000 | 0x20000000
SEEK_DATA, SEEK_HOLE = 3, 4

diffs = []


def diff(path, what):
    diffs.append('%s: %s' % (path, what))


def flags_of(p):
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW |
                     os.O_NOATIME)
    except OSError:
        return None
    try:
        buf = array.array('l', [0])
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, buf, True)
        return buf[0] & USER_FLAGS
    except OSError:
        return None
    finally:
        os.close(fd)


def data_map(fd, size):
    """[(start, end)] of data as SEEK_DATA/SEEK_HOLE report it."""
    out, off = [], 0
    while off < size:
        try:
            a = os.lseek(fd, off, SEEK_DATA)
        except OSError:
            break
        b = os.lseek(fd, a, SEEK_HOLE)
        out.append((a, min(b, size)))
        off = b
    return out


def covered(ranges, a, b):
    return any(s <= a and b <= e for s, e in ranges)


def cmp_file(rel, sp, tp, size):
    sf = os.open(sp, os.O_RDONLY | os.O_NOATIME)
    tf = os.open(tp, os.O_RDONLY)
    try:
        sm, tm = data_map(sf, size), data_map(tf, size)
        bs = os.fstatvfs(tf).f_bsize
        for a, b in tm:
            # the copy may round a data range out to whole blocks only
            if not covered([(s - s % bs, e + (-e) % bs) for s, e in sm],
                           a, b):
                diff(rel, 'data at [%d,%d) in the copy, a hole in the '
                     'source' % (a, b))
        for a, b in sorted(set(sm) | set(tm)):
            off = a
            while off < b:
                n = min(1 << 20, b - off)
                if os.pread(sf, n, off) != os.pread(tf, n, off):
                    diff(rel, 'content differs in [%d,%d)' % (off, off + n))
                    return
                off += n
        if size > (1 << 24) and not tm:
            diff(rel, 'sparse file lost its data')
    finally:
        os.close(sf)
        os.close(tf)


def xattrs(p):
    try:
        names = os.listxattr(p, follow_symlinks=False)
    except OSError:
        return {}
    return {n: os.getxattr(p, n, follow_symlinks=False) for n in names}


def births(top):
    """relative path -> birth time text, from stat(1) (statx)."""
    out = subprocess.run(['find', '.', '-exec', 'stat', '--printf',
                          '%n\\0%w\\0', '{}', '+'], cwd=top,
                         capture_output=True, check=True).stdout
    parts = out.split(b'\0')
    return {parts[i][2:]: parts[i + 1] for i in range(0, len(parts) - 1, 2)}


def main():
    sys.setrecursionlimit(20000)
    ap = argparse.ArgumentParser()
    ap.add_argument('src')
    ap.add_argument('dst')
    ap.add_argument('--skip', action='append', default=[])
    ap.add_argument('--no-crtime', action='store_true')
    ap.add_argument('--no-atime', action='store_true')
    ap.add_argument('--ignore-root-owner', action='store_true')
    a = ap.parse_args()

    links = {}      # source inode -> copy inode
    seen_copy = {}  # copy inode -> source inode
    count = 0
    for root, dirs, files in os.walk(a.src):
        rel_root = os.path.relpath(root, a.src)
        if rel_root == '.':
            dirs[:] = [d for d in dirs if d not in a.skip]
            files[:] = [f for f in files if f not in a.skip]
        troot = os.path.join(a.dst, rel_root)
        want = sorted(dirs + files)
        try:
            have = sorted(n for n in os.listdir(troot)
                          if not (rel_root == '.' and n in a.skip))
        except OSError as e:
            diff(rel_root, 'cannot list the copy: %s' % e)
            continue
        if want != have:
            diff(rel_root, 'entries differ: only in source %s, only in '
                 'copy %s' % (sorted(set(want) - set(have))[:5],
                              sorted(set(have) - set(want))[:5]))
        for name in [None] + want:
            rel = rel_root if name is None else os.path.join(rel_root, name)
            if name is None and rel_root != '.':
                continue        # a directory is checked from its parent
            sp, tp = os.path.join(a.src, rel), os.path.join(a.dst, rel)
            try:
                s, t = os.lstat(sp), os.lstat(tp)
            except OSError as e:
                diff(rel, str(e))
                continue
            count += 1
            if stat.S_IFMT(s.st_mode) != stat.S_IFMT(t.st_mode):
                diff(rel, 'type %o vs %o' % (s.st_mode, t.st_mode))
                continue
            is_root = name is None
            checks = [('mode', s.st_mode, t.st_mode),
                      ('mtime', s.st_mtime_ns, t.st_mtime_ns),
                      ('ctime', s.st_ctime_ns, t.st_ctime_ns)]
            if not (is_root and a.ignore_root_owner):
                checks += [('uid', s.st_uid, t.st_uid),
                           ('gid', s.st_gid, t.st_gid)]
            if not a.no_atime:
                checks.append(('atime', s.st_atime_ns, t.st_atime_ns))
            if not stat.S_ISDIR(s.st_mode):
                checks.append(('size', s.st_size, t.st_size))
            if not is_root:
                checks.append(('nlink', s.st_nlink, t.st_nlink))
            if stat.S_ISCHR(s.st_mode) or stat.S_ISBLK(s.st_mode):
                checks.append(('rdev', s.st_rdev, t.st_rdev))
            for what, x, y in checks:
                if x != y:
                    diff(rel, '%s %s vs %s' % (what, x, y))
            if xattrs(sp) != xattrs(tp):
                diff(rel, 'xattrs %s vs %s' % (sorted(xattrs(sp)),
                                               sorted(xattrs(tp))))
            if stat.S_ISREG(s.st_mode) or stat.S_ISDIR(s.st_mode):
                fs_, ft = flags_of(sp), flags_of(tp)
                if fs_ is not None and fs_ != ft:
                    diff(rel, 'flags %#x vs %s' % (fs_, ft))
            if stat.S_ISLNK(s.st_mode):
                if os.readlink(sp) != os.readlink(tp):
                    diff(rel, 'symlink target differs')
            if stat.S_ISREG(s.st_mode):
                cmp_file(rel, sp, tp, s.st_size)
                if s.st_nlink > 1:
                    if links.setdefault(s.st_ino, t.st_ino) != t.st_ino:
                        diff(rel, 'hard link split from its group')
                    if seen_copy.setdefault(t.st_ino, s.st_ino) != s.st_ino:
                        diff(rel, 'copy inode shared by unrelated files')
    if not a.no_crtime:
        sb, tb = births(a.src), births(a.dst)
        for rel, v in sb.items():
            top = rel.split(b'/')[0].decode(errors='replace')
            if top in a.skip or v == b'-':
                continue
            if tb.get(rel) != v:
                diff(rel.decode(errors='replace'), 'crtime %s vs %s' %
                     (v.decode(), tb.get(rel, b'missing').decode()))
    for d in diffs[:40]:
        print('DIFF', d)
    print('compared %d entries, %d differences' % (count, len(diffs)))
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main())
