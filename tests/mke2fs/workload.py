#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/workload.py --- a file-system workload for the kernel tests: small
# and inline-sized files, many directories, one huge directory, large files
# with fallocate and punched holes, renames, hard links, symlinks, xattrs,
# then removal of half of everything; writes a manifest of what must remain.
#
#   workload.py run MOUNTPOINT MANIFEST   run the workload, write the manifest
#   workload.py verify MOUNTPOINT MANIFEST  compare the tree with it
#
# The manifest is built from a model kept in memory, not by reading the
# files back, so "verify" after a remount checks what the kernel persisted.

import errno
import hashlib
import json
import os
import random
import subprocess
import sys

SMALL_FILES = 3000
SMALL_DIRS = 120
BIG_DIR_ENTRIES = 20000
LARGE_FILES = 3
LARGE_SIZE = 24 << 20


def sha(data):
    return hashlib.sha256(data).hexdigest()


class Model:
    """What the tree must hold: path -> entry description."""

    def __init__(self, root):
        self.root = root
        self.files = {}    # relative path -> bytes (regular files)
        self.links = {}    # relative path -> symlink target
        self.xattrs = {}   # relative path -> {name: value}
        self.dirs = set()

    def path(self, rel):
        return os.path.join(self.root, rel)


def small_size(rng):
    """Sizes below 60 bytes (fit in i_block), around the inline limit of a
    256-byte inode, and up to what a 1024-byte inode holds inline."""
    r = rng.random()
    if r < 0.4:
        return rng.randrange(0, 60)
    if r < 0.8:
        return rng.randrange(50, 200)
    return rng.randrange(200, 1100)


def write_file(m, rel, data):
    with open(m.path(rel), "wb") as f:
        f.write(data)
    m.files[rel] = data


def make_small(m, rng):
    for d in range(SMALL_DIRS):
        rel = "small/d%03d" % d
        os.makedirs(m.path(rel))
        m.dirs.add(rel)
    m.dirs.add("small")
    for i in range(SMALL_FILES):
        rel = "small/d%03d/f%05d" % (i % SMALL_DIRS, i)
        write_file(m, rel, rng.randbytes(small_size(rng)))
    # grow some inline-sized files past the inline limit and shrink others
    for i in range(0, SMALL_FILES, 7):
        rel = "small/d%03d/f%05d" % (i % SMALL_DIRS, i)
        data = m.files[rel] + rng.randbytes(rng.randrange(1, 400))
        with open(m.path(rel), "ab") as f:
            f.write(data[len(m.files[rel]):])
        m.files[rel] = data
    for i in range(3, SMALL_FILES, 11):
        rel = "small/d%03d/f%05d" % (i % SMALL_DIRS, i)
        n = len(m.files[rel]) // 2
        os.truncate(m.path(rel), n)
        m.files[rel] = m.files[rel][:n]


def make_big_dir(m, rng):
    os.mkdir(m.path("big"))
    m.dirs.add("big")
    for i in range(BIG_DIR_ENTRIES):
        # names of varied length so the hash tree gets uneven leaves
        rel = "big/e%06d%s" % (i, "x" * (i % 23))
        if i % 50 == 0:
            write_file(m, rel, rng.randbytes(i % 97))
        else:
            os.close(os.open(m.path(rel), os.O_CREAT | os.O_WRONLY, 0o644))
            m.files[rel] = b""


def fallocate(args, path):
    """Run fallocate(1); False when the file system does not support the
    operation (files without extents)."""
    p = subprocess.run(["fallocate"] + args + [path],
                       capture_output=True, text=True)
    if p.returncode == 0:
        return True
    if "not supported" in p.stderr or "unsupported" in p.stderr:
        return False
    raise RuntimeError("fallocate %s %s: %s" % (args, path, p.stderr))


def make_large(m, rng):
    os.mkdir(m.path("large"))
    m.dirs.add("large")
    chunk = rng.randbytes(1 << 20)
    for i in range(LARGE_FILES):
        rel = "large/l%d" % i
        data = bytearray()
        for j in range(LARGE_SIZE >> 20):
            data += chunk[j:] + chunk[:j]
        write_file(m, rel, bytes(data))
    # preallocate beyond the end, with and without changing the size
    rel = "large/prealloc"
    write_file(m, rel, b"head")
    if fallocate(["-l", str(16 << 20)], m.path(rel)):
        m.files[rel] = b"head" + bytes((16 << 20) - 4)
    fallocate(["-n", "-o", str(16 << 20), "-l", str(8 << 20)], m.path(rel))
    # write into the middle of preallocated space
    with open(m.path(rel), "r+b") as f:
        f.seek(5 << 20)
        f.write(b"middle" * 1000)
    d = bytearray(m.files[rel])
    if len(d) < (5 << 20) + 6000:
        d += bytes((5 << 20) + 6000 - len(d))
    d[5 << 20:(5 << 20) + 6000] = b"middle" * 1000
    m.files[rel] = bytes(d)
    # punch holes: block-aligned, unaligned, and across the end
    for i in range(LARGE_FILES):
        rel = "large/l%d" % i
        d = bytearray(m.files[rel])
        for off, ln in ((4096, 65536), (1 << 20, 3 << 20),
                        (777, 5000), (len(d) - 10000, 20000)):
            if not fallocate(["-p", "-o", str(off), "-l", str(ln)],
                             m.path(rel)):
                break
            end = min(off + ln, len(d))
            d[off:end] = bytes(end - off)
        m.files[rel] = bytes(d)


def make_links(m, rng, bs):
    os.mkdir(m.path("links"))
    m.dirs.add("links")
    # hard links to small files, into another directory
    for i in range(0, SMALL_FILES, 5):
        src = "small/d%03d/f%05d" % (i % SMALL_DIRS, i)
        rel = "links/h%05d" % i
        os.link(m.path(src), m.path(rel))
        m.files[rel] = m.files[src]
    # fast (short) and slow (long) symlinks
    for i in range(400):
        ln = min((5, 40, 59, 60, 61, 100, 300, 1000, 3000)[i % 9], bs - 1)
        target = ("t%d-" % i + "a" * ln)[:ln]
        rel = "links/s%04d" % i
        os.symlink(target, m.path(rel))
        m.links[rel] = target


def make_xattrs(m, rng, big_value):
    # files hard-linked by make_links (i % 5 == 0) keep no xattrs, so that
    # each path's expected xattrs stay simple
    for i in range(0, SMALL_FILES, 3):
        if i % 5 == 0:
            continue
        rel = "small/d%03d/f%05d" % (i % SMALL_DIRS, i)
        attrs = {"user.a": rng.randbytes(rng.randrange(1, 24))}
        if i % 9 == 0:
            attrs["user.medium"] = rng.randbytes(rng.randrange(60, 200))
        if i % 27 == 0:
            attrs["user.large"] = rng.randbytes(big_value)
        for k, v in attrs.items():
            os.setxattr(m.path(rel), k, v)
        m.xattrs[rel] = attrs
    for d in ("small", "big", "large/l0"):
        os.setxattr(m.path(d), "user.dirattr", b"on " + d.encode())
        m.xattrs[d] = {"user.dirattr": b"on " + d.encode()}
    # replace and remove some
    for i in range(0, SMALL_FILES, 6):
        if i % 5 == 0:
            continue
        rel = "small/d%03d/f%05d" % (i % SMALL_DIRS, i)
        os.removexattr(m.path(rel), "user.a")
        del m.xattrs[rel]["user.a"]
        v = rng.randbytes(40)
        os.setxattr(m.path(rel), "user.b", v)
        m.xattrs[rel]["user.b"] = v


def rename_some(m, rng):
    os.mkdir(m.path("moved"))
    m.dirs.add("moved")
    for i in range(1, SMALL_FILES, 4):
        src = "small/d%03d/f%05d" % (i % SMALL_DIRS, i)
        dst = "moved/m%05d" % i
        os.rename(m.path(src), m.path(dst))
        m.files[dst] = m.files.pop(src)
        if src in m.xattrs:
            m.xattrs[dst] = m.xattrs.pop(src)
    # rename whole directories
    for d in range(0, SMALL_DIRS, 10):
        src = "small/d%03d" % d
        dst = "small/r%03d" % d
        os.rename(m.path(src), m.path(dst))
        m.dirs.discard(src)
        m.dirs.add(dst)
        for table in (m.files, m.links, m.xattrs):
            for k in [k for k in table if k.startswith(src + "/")]:
                table[dst + k[len(src):]] = table.pop(k)


def remove_half(m, rng):
    for rel in sorted(m.files):
        if rng.random() < 0.5 and not rel.startswith("large/"):
            os.unlink(m.path(rel))
            del m.files[rel]
            m.xattrs.pop(rel, None)
    for rel in sorted(m.links):
        if rng.random() < 0.5:
            os.unlink(m.path(rel))
            del m.links[rel]
    os.unlink(m.path("large/l1"))
    del m.files["large/l1"]
    # empty and remove some small directories
    for d in sorted(m.dirs):
        if d.startswith("small/d") and int(d[-3:]) % 4 == 1:
            for k in [k for k in m.files if k.startswith(d + "/")]:
                os.unlink(m.path(k))
                del m.files[k]
                m.xattrs.pop(k, None)
            os.rmdir(m.path(d))
            m.dirs.discard(d)
    # hard links whose other name went away must still hold their data;
    # files are compared by content below, so nothing else to do here


def manifest_of(m):
    out = {}
    for d in m.dirs:
        out[d] = {"type": "dir"}
    for rel, data in m.files.items():
        out[rel] = {"type": "file", "size": len(data), "sha": sha(data)}
    for rel, t in m.links.items():
        out[rel] = {"type": "link", "target": t}
    for rel, attrs in m.xattrs.items():
        if rel in out:
            out[rel]["xattrs"] = {k: sha(v) for k, v in attrs.items()}
    return out


def scan(root):
    """The tree as found: same shape as manifest_of()."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if rel == "lost+found" or rel.startswith("lost+found/"):
                continue
            if os.path.islink(full):
                e = {"type": "link", "target": os.readlink(full)}
            elif os.path.isdir(full):
                e = {"type": "dir"}
            else:
                with open(full, "rb") as f:
                    data = f.read()
                e = {"type": "file", "size": len(data), "sha": sha(data)}
            if not os.path.islink(full):
                names = [k for k in os.listxattr(full)
                         if k.startswith("user.")]
                if names:
                    e["xattrs"] = {k: sha(os.getxattr(full, k))
                                   for k in names}
            out[rel] = e
    return out


def compare(want, got):
    bad = []
    for rel in sorted(set(want) | set(got)):
        if rel not in got:
            bad.append("missing: %s" % rel)
        elif rel not in want:
            bad.append("unexpected: %s" % rel)
        elif want[rel] != got[rel]:
            bad.append("differs: %s: want %s, got %s"
                       % (rel, want[rel], got[rel]))
    return bad


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("run", "verify"):
        sys.exit("usage: workload.py run|verify MOUNTPOINT MANIFEST")
    mode, root, manifest = sys.argv[1:]
    if mode == "run":
        rng = random.Random(20261121)
        m = Model(root)
        bs = os.statvfs(root).f_bsize
        make_small(m, rng)
        make_big_dir(m, rng)
        make_large(m, rng)
        make_links(m, rng, bs)
        make_xattrs(m, rng, min(bs // 2, 1500))
        rename_some(m, rng)
        remove_half(m, rng)
        os.sync()
        want = manifest_of(m)
        with open(manifest, "w") as f:
            json.dump(want, f)
        print("workload: %d entries remain" % len(want))
    else:
        with open(manifest) as f:
            want = json.load(f)
    bad = compare(want, scan(root))
    for line in bad[:20]:
        print(line)
    if bad:
        print("workload: %d differences from the model" % len(bad))
        sys.exit(1)
    print("workload: tree matches the model (%s)" % mode)


if __name__ == "__main__":
    main()
