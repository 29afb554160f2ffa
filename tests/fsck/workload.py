#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# workload.py --- a seeded, randomised file system workload for the e2fsck
# false-alarm test: creates, deletes, renames, small and large writes,
# truncates, fallocate and punch, hard links, symlinks, xattrs, special
# files, deep and wide directories (one grown past a block and shrunk).
# Usage: workload.py MOUNTPOINT SEED [OPS [dirs]]; with "dirs" only the
# churn of big indexed directories (dir_churn).
import ctypes
import os
import random
import sys

FALLOC_FL_KEEP_SIZE = 1
FALLOC_FL_PUNCH_HOLE = 2
libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_longlong,
                           ctypes.c_longlong]


def fallocate(fd, mode, off, length):
    if libc.fallocate(fd, mode, off, length) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


class Workload:
    def __init__(self, root, seed):
        self.root = root
        self.r = random.Random(seed)
        self.files = []
        self.dirs = [root]
        self.n = 0

    def name(self, long_ok=True):
        self.n += 1
        if long_ok and self.r.random() < 0.1:
            return "long_%d_%s" % (self.n, "x" * self.r.randint(20, 200))
        return "f%d" % self.n

    def pick_dir(self):
        return self.r.choice(self.dirs)

    def data(self, size):
        return bytes([self.r.randint(0, 255)]) * size

    def size(self):
        c = self.r.random()
        if c < 0.35:
            return self.r.randint(0, 200)        # inline candidates
        if c < 0.8:
            return self.r.randint(200, 64 * 1024)
        return self.r.randint(64 * 1024, 3 * 1024 * 1024)

    def op_create(self):
        p = os.path.join(self.pick_dir(), self.name())
        with open(p, "wb") as f:
            f.write(self.data(self.size()))
        self.files.append(p)

    def op_write(self):
        if not self.files:
            return
        p = self.r.choice(self.files)
        with open(p, "r+b") as f:
            f.seek(self.r.randint(0, 2 * 1024 * 1024))
            f.write(self.data(self.r.randint(1, 100 * 1024)))

    def op_append(self):
        if not self.files:
            return
        with open(self.r.choice(self.files), "ab") as f:
            f.write(self.data(self.r.randint(1, 5000)))

    def op_truncate(self):
        if not self.files:
            return
        os.truncate(self.r.choice(self.files),
                    self.r.choice([0, 10, 59, 61, 4095, 4097, 70000,
                                   self.r.randint(0, 4 * 1024 * 1024)]))

    def op_fallocate(self):
        if not self.files:
            return
        fd = os.open(self.r.choice(self.files), os.O_RDWR)
        try:
            mode = self.r.choice([0, FALLOC_FL_KEEP_SIZE,
                                  FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE])
            fallocate(fd, mode, self.r.randint(0, 2 * 1024 * 1024),
                      self.r.randint(1, 1024 * 1024))
        finally:
            os.close(fd)

    def op_delete(self):
        if not self.files:
            return
        p = self.files.pop(self.r.randrange(len(self.files)))
        os.unlink(p)

    def op_rename(self):
        if not self.files:
            return
        i = self.r.randrange(len(self.files))
        q = os.path.join(self.pick_dir(), self.name())
        os.rename(self.files[i], q)
        self.files[i] = q

    def op_link(self):
        if not self.files:
            return
        q = os.path.join(self.pick_dir(), self.name())
        os.link(self.r.choice(self.files), q)
        self.files.append(q)

    def op_symlink(self):
        q = os.path.join(self.pick_dir(), self.name())
        target = "t" * self.r.choice([1, 20, 59, 60, 61, 100, 500, 2000])
        os.symlink(target, q)

    def op_xattr(self):
        if not self.files:
            return
        p = self.r.choice(self.files)
        size = self.r.choice([1, 10, 50, 100, 300, 1000, 3000])
        os.setxattr(p, "user.k%d" % self.r.randint(0, 5), self.data(size))

    def op_rmxattr(self):
        if not self.files:
            return
        p = self.r.choice(self.files)
        for k in os.listxattr(p):
            os.removexattr(p, k)
            break

    def op_special(self):
        q = os.path.join(self.pick_dir(), self.name())
        if self.r.random() < 0.5:
            os.mkfifo(q)
        else:
            os.mknod(q, 0o600 | 0o020000, os.makedev(1, 3))

    def op_mkdir(self):
        q = os.path.join(self.pick_dir(), "d%d" % self.n)
        self.n += 1
        os.mkdir(q)
        self.dirs.append(q)

    def op_rmdir(self):
        cands = [d for d in self.dirs[1:] if not os.listdir(d)]
        if cands:
            d = self.r.choice(cands)
            os.rmdir(d)
            self.dirs.remove(d)

    def deep(self):
        p = self.root
        for i in range(self.r.randint(5, 30)):
            p = os.path.join(p, "deep%d" % i)
            os.mkdir(p)
            self.dirs.append(p)

    def wide(self, count):
        d = os.path.join(self.root, "wide%d" % self.n)
        self.n += 1
        os.mkdir(d)
        names = []
        for i in range(count):
            q = os.path.join(d, "entry_%05d_%s" % (i, "n" * self.r.randint(0, 40)))
            with open(q, "wb") as f:
                if self.r.random() < 0.2:
                    f.write(self.data(self.r.randint(1, 3000)))
            names.append(q)
        # shrink: remove most of them again
        self.r.shuffle(names)
        for q in names[: int(count * self.r.uniform(0.5, 1.0))]:
            os.unlink(q)
        for q in names[int(count * 0.99):]:
            if os.path.exists(q):
                self.files.append(q)

    def casefold_dir(self):
        # A case-folded directory where the fs allows one (casefold).
        import fcntl
        import struct
        d = os.path.join(self.root, "cf%d" % self.n)
        self.n += 1
        os.mkdir(d)
        fd = os.open(d, os.O_RDONLY)
        try:
            FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
            FS_CASEFOLD_FL = 0x40000000
            buf = fcntl.ioctl(fd, FS_IOC_GETFLAGS, struct.pack("l", 0))
            flags = struct.unpack("l", buf)[0] | FS_CASEFOLD_FL
            fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("l", flags))
        except OSError:
            pass
        finally:
            os.close(fd)
        self.dirs.append(d)

    def run(self, ops):
        self.casefold_dir()
        self.deep()
        self.wide(self.r.choice([120, 400, 1500]))
        table = [(self.op_create, 20), (self.op_write, 8), (self.op_append, 6),
                 (self.op_truncate, 6), (self.op_fallocate, 6),
                 (self.op_delete, 10), (self.op_rename, 6), (self.op_link, 5),
                 (self.op_symlink, 5), (self.op_xattr, 6), (self.op_rmxattr, 2),
                 (self.op_special, 2), (self.op_mkdir, 5), (self.op_rmdir, 3)]
        fns = [f for f, w in table for _ in range(w)]
        for _ in range(ops):
            try:
                self.r.choice(fns)()
            except OSError as e:
                # ENOSPC, EFBIG, ENOTSUP on small images: keep going
                if e.errno not in (28, 27, 95, 22, 7, 36, 61):
                    raise


def dir_churn(root, seed, ops):
    """Big (htree-indexed) directories changed OPS times: names created
    in bulk, then renamed across them and removed, so the log holds index
    and leaf blocks of each (the crash rows of safety-images.tsv)."""
    r = random.Random(seed)
    dirs = [os.path.join(root, "big%d" % i) for i in range(3)]
    names = []
    for d in dirs:
        os.makedirs(d, exist_ok=True)
        for i in range(ops):
            q = os.path.join(d, "name_%06d_%s" % (i, "q" * r.randint(0, 60)))
            with open(q, "wb") as f:
                f.write(bytes([r.randint(0, 255)]) * r.randint(1, 2000))
            names.append(q)
    os.sync()
    r.shuffle(names)
    for q in names[: len(names) // 3]:
        t = os.path.join(r.choice(dirs), "moved_" + os.path.basename(q))
        os.rename(q, t)
    for q in names[len(names) // 3: len(names) // 2]:
        os.unlink(q)


def main():
    root, seed = sys.argv[1], int(sys.argv[2])
    ops = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    if len(sys.argv) > 4 and sys.argv[4] == "dirs":
        dir_churn(root, seed, ops)
    else:
        Workload(root, seed).run(ops)
    os.sync()


if __name__ == "__main__":
    main()
