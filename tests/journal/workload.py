#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# workload.py --- seeded file-system workload stopped mid-flight with the
# EXT4_IOC_SHUTDOWN ioctl (no log flush), for the crash-recovery tests.
#
# usage: workload.py MOUNTPOINT SEED MANIFEST [orphans|revoke]
# MANIFEST gets one "sha256  relative/path" line per file that was
# fsync'ed after its last change (those must survive the crash intact).
# With "orphans", files are opened, unlinked and held open at shutdown.
# With "revoke", metadata blocks are freed and reused inside the log:
# directories and extent-tree files are made and committed, removed and
# committed (revoke records), then fsync'ed files take their blocks; a
# replay that writes the old metadata copies over them loses their data.
import ctypes, fcntl, hashlib, os, random, struct, sys, threading

EXT4_IOC_SHUTDOWN = 0x8004587D          # _IOR('X', 125, __u32)
EXT4_GOING_FLAGS_NOLOGFLUSH = 2

mnt, seed, manifest = sys.argv[1], int(sys.argv[2]), sys.argv[3]
orphans = len(sys.argv) > 4 and sys.argv[4] == "orphans"
revoke = len(sys.argv) > 4 and sys.argv[4] == "revoke"
rnd = random.Random(seed)
files = {}          # relative path -> bytes content (live, not frozen)
frozen = {}         # relative path -> sha256 of content at last fsync
dirs = [""]


def path(rel):
    return os.path.join(mnt, rel)


def payload(n):
    # mix of compressible runs and random bytes, reproducible per seed
    if rnd.random() < 0.5:
        return bytes([rnd.randrange(256)]) * n
    return rnd.randbytes(n)


def rand_size():
    r = rnd.random()
    if r < 0.3:
        return rnd.randrange(0, 120)          # inline-data sized
    if r < 0.8:
        return rnd.randrange(120, 16384)
    return rnd.randrange(16384, 300000)


def new_name():
    d = rnd.choice(dirs)
    return os.path.join(d, "f%06d" % rnd.randrange(10 ** 6))


def op_create():
    rel = new_name()
    if rel in files or rel in frozen:
        return
    data = payload(rand_size())
    with open(path(rel), "wb") as f:
        f.write(data)
    files[rel] = data


def op_append():
    if not files:
        return
    rel = rnd.choice(sorted(files))
    data = payload(rand_size() // 4)
    with open(path(rel), "ab") as f:
        f.write(data)
    files[rel] += data


def op_overwrite():
    if not files:
        return
    rel = rnd.choice(sorted(files))
    old = files[rel]
    off = rnd.randrange(0, len(old) + 1)
    data = payload(rnd.randrange(1, 9000))
    with open(path(rel), "r+b") as f:
        f.seek(off)
        f.write(data)
    new = bytearray(old.ljust(off, b"\0"))
    new[off:off + len(data)] = data
    files[rel] = bytes(new)


def op_truncate():
    if not files:
        return
    rel = rnd.choice(sorted(files))
    n = rnd.randrange(0, len(files[rel]) + 1)
    os.truncate(path(rel), n)
    files[rel] = files[rel][:n]


def op_unlink():
    if not files:
        return
    rel = rnd.choice(sorted(files))
    os.unlink(path(rel))
    del files[rel]


def op_rename():
    if not files:
        return
    rel = rnd.choice(sorted(files))
    to = new_name()
    if to in files or to in frozen:
        return
    os.rename(path(rel), path(to))
    files[to] = files.pop(rel)


def op_mkdir():
    rel = os.path.join(rnd.choice(dirs), "d%04d" % rnd.randrange(10000))
    if rel in dirs:
        return
    os.mkdir(path(rel))
    dirs.append(rel)


def op_fsync():
    """fsync a file and freeze it: it is never touched again."""
    if not files:
        return
    rel = rnd.choice(sorted(files))
    fd = os.open(path(rel), os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    frozen[rel] = hashlib.sha256(files.pop(rel)).hexdigest()


OPS = [(op_create, 30), (op_append, 10), (op_overwrite, 10),
       (op_truncate, 5), (op_unlink, 6), (op_rename, 5), (op_mkdir, 4),
       (op_fsync, 10)]


def run_ops(n):
    fns = [f for f, w in OPS for _ in range(w)]
    for _ in range(n):
        rnd.choice(fns)()


def write_manifest():
    with open(manifest, "w") as m:
        for rel in sorted(frozen):
            m.write("%s  %s\n" % (frozen[rel], rel))


def shutdown():
    fd = os.open(mnt, os.O_RDONLY)
    fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN,
                struct.pack("I", EXT4_GOING_FLAGS_NOLOGFLUSH))
    os.close(fd)


def in_flight(stop):
    """Keep writing until the file system goes away under us."""
    i = 0
    try:
        while not stop.is_set():
            with open(path("inflight%d" % (i % 8)), "ab") as f:
                f.write(os.urandom(8192))
            i += 1
    except OSError:
        pass


def sync_fs():
    """syncfs(2) on the mount: the running transaction commits."""
    fd = os.open(mnt, os.O_RDONLY)
    rc = ctypes.CDLL(None, use_errno=True).syncfs(fd)
    os.close(fd)
    if rc != 0:
        raise OSError(ctypes.get_errno(), "syncfs")


def free_and_reuse_metadata():
    """Directory and extent-tree blocks: journaled, freed (revoked), then
    taken by fsync'ed file data, all within the log."""
    os.mkdir(path("meta"))
    for d in range(rnd.randrange(30, 40)):
        os.mkdir(path("meta/d%02d" % d))
        for i in range(60):
            open(path("meta/d%02d/entry-with-a-long-name-%04d" % (d, i)),
                 "wb").close()
    for f in range(4):      # every other block: an extent tree with leaves
        with open(path("meta/tree%d" % f), "wb") as fh:
            for b in range(0, 2400, 2):
                fh.seek(b * 1024)
                fh.write(b"x" * 1024)
    sync_fs()
    for d in sorted(os.listdir(path("meta"))):
        p = path("meta/" + d)
        if os.path.isdir(p):
            for n in os.listdir(p):
                os.unlink(os.path.join(p, n))
            os.rmdir(p)
        else:
            os.unlink(p)
    sync_fs()               # the frees (and their revoke records) commit
    for i in range(40):
        rel = "reuse%02d" % i
        data = payload(rnd.randrange(20000, 60000))
        with open(path(rel), "wb") as fh:
            fh.write(data)
        files[rel] = data
    while files:
        op_fsync()


held = []
if revoke:
    free_and_reuse_metadata()
run_ops(rnd.randrange(150, 400))
if orphans:
    # unlinked while open: on the on-disk orphan list once committed
    for i in range(rnd.randrange(2, 6)):
        rel = "orphan%d" % i
        f = open(path(rel), "wb+")
        f.write(payload(rnd.randrange(1, 200000)))
        f.flush()
        os.unlink(path(rel))
        held.append(f)
    # a linked file being truncated is an orphan until the truncate ends
run_ops(rnd.randrange(20, 100))
# make everything so far durable: the orphans above are now on disk
if files:
    op_fsync()
run_ops(rnd.randrange(10, 60))       # not committed: lost or replayed
stop = threading.Event()
t = threading.Thread(target=in_flight, args=(stop,))
t.start()
shutdown()
stop.set()
t.join()
write_manifest()      # every fsync above completed before the shutdown
for f in held:
    try:
        f.close()
    except OSError:
        pass
print("files_frozen=%d live=%d dirs=%d" % (len(frozen), len(files),
                                          len(dirs)))
