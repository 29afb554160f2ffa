#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# compare.py --- check what our debugfs reads from an image against the
# kernel's view of the same image (mounted read-only at MNT) and against
# the reference debugfs.  One scripted session (-f) carries every command;
# its output is split at the echoed prompts.  Prints one FAIL line per
# mismatch and exits 1 if there was any.
import hashlib
import os
import re
import subprocess
import sys

dbg, ref, image, mnt, work = sys.argv[1:6]
fails = []
BIG = 500          # directories larger than this: sample their files


def fail(msg):
    fails.append(msg)
    print("FAIL: " + msg)


def quote(p):
    return '"' + p.replace('\\', '\\\\').replace('"', '\\"') + '"'


def sha(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


# ---- walk the kernel's tree -------------------------------------------
dirs, others = [], []
for root, dnames, fnames in os.walk(mnt):
    rel = '/' + os.path.relpath(root, mnt) if root != mnt else '/'
    rel = rel.replace('//', '/')
    if rel.startswith('/lost+found'):
        continue
    dirs.append(rel)
    names = sorted(fnames) + sorted(d for d in dnames
                                     if os.path.islink(os.path.join(root, d)))
    if len(names) > BIG:
        names = names[::len(names) // 20]
    for n in names:
        others.append((rel.rstrip('/') + '/' + n))

# ---- one scripted session ----------------------------------------------
cmds = []        # (kind, path, command)
dumpdir = os.path.join(work, 'dump')
rdumpdir = os.path.join(work, 'rdump')
os.makedirs(dumpdir, exist_ok=True)
os.makedirs(rdumpdir, exist_ok=True)
for d in dirs:
    cmds.append(('ls', d, 'ls -p ' + quote(d)))
    cmds.append(('lsi', d, 'ls -o inode ' + quote(d)))
    cmds.append(('lsh', d, 'ls -o hash ' + quote(d)))
    if d != '/':
        cmds.append(('stat', d, 'stat ' + quote(d)))
    names = sorted(os.listdir(os.path.join(mnt, d[1:])))
    if names:
        cmds.append(('ds', (d, names[-1]),
                     'dirsearch ' + quote(d) + ' ' + quote(names[-1])))
for i, p in enumerate(others):
    cmds.append(('stat', p, 'stat ' + quote(p)))
    cmds.append(('ea', p, 'ea_list ' + quote(p)))
    if os.path.isfile(os.path.join(mnt, p[1:])) and \
            not os.path.islink(os.path.join(mnt, p[1:])):
        cmds.append(('dump', p, 'dump -p ' + quote(p) + ' ' +
                     quote(os.path.join(dumpdir, str(i)))))
top = [d for d in dirs if d.count('/') == 1 and d != '/']
for d in top:
    cmds.append(('rdump', d, 'rdump ' + quote(d) + ' ' + quote(rdumpdir)))

cmdfile = os.path.join(work, 'session.cmds')
with open(cmdfile, 'w') as f:
    for c in cmds:
        f.write(c[2] + '\n')
res = subprocess.run([dbg, '-f', cmdfile, image], capture_output=True)
if res.returncode != 0:
    fail('session exit status %d' % res.returncode)
if res.stderr:
    fail('session stderr: %s' % res.stderr.decode(errors='replace')[:500])

sections = []
cur = None
for line in res.stdout.decode('utf-8', 'surrogateescape').split('\n'):
    if line.startswith('debugfs: '):
        cur = []
        sections.append(cur)
    elif cur is not None:
        cur.append(line)
if len(sections) != len(cmds):
    fail('%d commands but %d outputs' % (len(cmds), len(sections)))
    sys.exit(1)

LS = re.compile(r'^/(\d+)/(\d+)/(\d+)/(\d+)/(.*)/(\d*)/$')


def kernel_entries(d):
    full = os.path.join(mnt, d[1:])
    ents = {'.': os.lstat(full).st_ino,
            '..': os.lstat(os.path.join(full, '..')).st_ino}
    if d == '/':      # the mount root's '..' is itself inside the image
        ents['..'] = ents['.']
    for e in os.scandir(full):
        ents[e.name] = e.inode()
    return ents


def check_ls(d, out):
    got = {}
    for line in out:
        if not line:
            continue
        m = LS.match(line)
        if not m:
            fail('ls %s: unparsable line %r' % (d, line))
            return
        ino, mode, uid, gid, name, size = m.groups()
        if ino == '0':    # an empty record, shown as the reference does
            continue
        got[name] = int(ino)
        st = os.lstat(os.path.join(mnt, d[1:], name))
        if d == '/' and name == '..':
            st = os.lstat(mnt)
        if int(mode, 8) != st.st_mode:
            fail('ls %s: %s mode %s, kernel %o' % (d, name, mode,
                                                  st.st_mode))
        if size and int(size) != st.st_size:
            fail('ls %s: %s size %s, kernel %d' % (d, name, size,
                                                  st.st_size))
    want = kernel_entries(d)
    if got != want:
        missing = set(want) - set(got)
        extra = set(got) - set(want)
        wrong = [n for n in got if n in want and got[n] != want[n]]
        fail('ls %s: missing %s extra %s wrong inode %s' % (
            d, sorted(missing)[:5], sorted(extra)[:5], wrong[:5]))


def check_order(d, out, kind):
    names = [l.split(' ', 1) for l in out if l]
    inos = [int(n[0]) for n in names if n[1] not in ('.', '..')]
    if sorted(n[1] for n in names) != sorted(kernel_entries(d)):
        fail('ls -o %s %s: entry set differs from the kernel' % (kind, d))
    if kind == 'inode' and inos != sorted(inos):
        fail('ls -o inode %s: not in inode order' % d)


def field(out, name):
    for line in out:
        m = re.search(r'(?:^|\s)' + re.escape(name) + r':\s+(\S+)', line)
        if m:
            return m.group(1)
    return None


def check_stat(p, out):
    st = os.lstat(os.path.join(mnt, p[1:]))
    checks = [('Inode', st.st_ino, int), ('Size', st.st_size, int),
              ('Links', st.st_nlink, int), ('User', st.st_uid, int),
              ('Group', st.st_gid, int),
              ('Mode', st.st_mode & 0o7777, lambda v: int(v, 8))]
    for name, want, conv in checks:
        v = field(out, name)
        if v is None or conv(v) != want:
            fail('stat %s: %s %s, kernel %s' % (p, name, v, want))
    for line in out:
        m = re.match(r'\s*mtime: 0x([0-9a-f]{8}):([0-9a-f]{8}) ', line)
        if m:
            sec = int(m.group(1), 16)
            sec = sec - (1 << 32) if sec & 0x80000000 else sec
            extra = int(m.group(2), 16)
            sec += (extra & 3) << 32
            ns = sec * 10**9 + (extra >> 2)
            if ns != st.st_mtime_ns:
                fail('stat %s: mtime %d, kernel %d' % (p, ns,
                                                       st.st_mtime_ns))
            break
    else:
        fail('stat %s: no mtime with nanoseconds' % p)


EA = re.compile(r'^  (\S+) \((\d+)\)(?: = (.*))?$')


def check_ea(p, out):
    full = os.path.join(mnt, p[1:])
    got = {}
    for line in out:
        m = EA.match(line)
        if m and m.group(1) != 'system.data':
            got[m.group(1)] = (int(m.group(2)), m.group(3))
    want = {n: os.getxattr(full, n, follow_symlinks=False)
            for n in os.listxattr(full, follow_symlinks=False)}
    if set(got) != set(want):
        fail('ea_list %s: %s, kernel %s' % (p, sorted(got), sorted(want)))
        return
    for n, v in want.items():
        if got[n][0] != len(v):
            fail('ea_list %s: %s length %d, kernel %d' % (p, n, got[n][0],
                                                          len(v)))
        elif v.isascii() and v.decode().isprintable() and \
                got[n][1] != '"%s"' % v.decode():
            fail('ea_list %s: %s = %s, kernel %r' % (p, n, got[n][1], v))


for (kind, p, cmd), out in zip(cmds, sections):
    if kind == 'ls':
        check_ls(p, out)
    elif kind == 'lsi':
        check_order(p, out, 'inode')
    elif kind == 'lsh':
        check_order(p, out, 'hash')
    elif kind == 'stat':
        check_stat(p, out)
    elif kind == 'ea':
        check_ea(p, out)
    elif kind == 'ds':
        d, n = p
        want = os.lstat(os.path.join(mnt, d[1:], n)).st_ino
        if not any(l.endswith(': inode %d' % want) for l in out):
            fail('dirsearch %s %s: %s, kernel inode %d' % (d, n, out[:2],
                                                          want))
    elif kind == 'dump':
        out_file = cmd.rsplit(' ', 1)[1].strip('"')
        if sha(out_file) != sha(os.path.join(mnt, p[1:])):
            fail('dump %s: contents differ from the kernel' % p)
        a, b = os.lstat(out_file), os.lstat(os.path.join(mnt, p[1:]))
        if (a.st_mode, a.st_uid, a.st_gid, a.st_mtime_ns) != \
                (b.st_mode, b.st_uid, b.st_gid, b.st_mtime_ns):
            fail('dump -p %s: mode/owner/mtime not kept' % p)
special = sorted({n for root, dn, fn in os.walk(mnt) for n in fn
                  if not os.path.isfile(os.path.join(root, n)) and
                  not os.path.islink(os.path.join(root, n))})
for d in top:
    # diff cannot compare fifos or devices; their mode is checked below
    r = subprocess.run(['diff', '-r', '--no-dereference'] +
                       ['-x' + n for n in special] +
                       [os.path.join(mnt, d[1:]),
                        os.path.join(rdumpdir, d[1:])],
                       capture_output=True)
    if r.returncode != 0:
        fail('rdump %s differs: %s' % (d, r.stdout.decode()[:300]))
    for root, dn, fn in os.walk(os.path.join(rdumpdir, d[1:])):
        for n in dn + fn:
            a = os.lstat(os.path.join(root, n))
            b = os.lstat(os.path.join(mnt, os.path.relpath(
                os.path.join(root, n), rdumpdir)))
            if (a.st_mode, a.st_uid, a.st_mtime_ns) != \
                    (b.st_mode, b.st_uid, b.st_mtime_ns) and \
                    not os.path.islink(os.path.join(root, n)):
                fail('rdump %s: mode/owner/mtime of %s differ' % (d, n))

# ---- against the reference debugfs -------------------------------------


def run(prog, req):
    r = subprocess.run([prog, '-R', req, image], capture_output=True)
    return r.stdout.decode('utf-8', 'surrogateescape')


files = [p for p in others if not os.path.islink(os.path.join(mnt, p[1:]))]
inos = sorted({os.lstat(os.path.join(mnt, p[1:])).st_ino for p in files})
req = 'ncheck ' + ' '.join(str(i) for i in inos)
pairs = (lambda out: sorted(set(tuple(l.split('\t', 1))
                                for l in out.splitlines()[1:] if '\t' in l)))
if pairs(run(dbg, req)) != pairs(run(ref, req)):
    fail('ncheck differs from the reference debugfs')

blocks = []
for p in files:
    out = run(dbg, 'blocks ' + quote(p))
    blocks += [int(w) for w in out.split() if w.isdigit()]
blocks = sorted(set(blocks))[:40] + [0, 1]
req = 'icheck ' + ' '.join(str(b) for b in blocks)
if pairs(run(dbg, req)) != pairs(run(ref, req)):
    fail('icheck differs from the reference debugfs: ours %s ref %s' %
         (pairs(run(dbg, req))[:4], pairs(run(ref, req))[:4]))
for b in [b for b in blocks if b][:10]:
    req = 'testb %d 3' % b
    used = (lambda out: [('marked in use' in l) for l in out.splitlines()
                         if l.startswith('Block')])
    if used(run(dbg, req)) != used(run(ref, req)):
        fail('testb %d differs from the reference debugfs' % b)

# htree_dump: the leaf hashes we compute must fall inside the ranges the
# kernel wrote into the index (checks our hash, seed and signedness).
def check_htree(d):
    r = subprocess.run([dbg, '-R', 'htree_dump ' + quote(d), image],
                       capture_output=True)
    if r.returncode:
        return 0
    nodes, cur, ent = [], None, None
    for line in r.stdout.decode('utf-8', 'surrogateescape').splitlines():
        m = re.match(r'Index level \d+:', line)
        if m:
            cur = []
            nodes.append(cur)
            continue
        m = re.match(r'Entry #(\d+): hash 0x([0-9a-f]+), block', line)
        if m and cur is not None:
            ent = [int(m.group(1)), int(m.group(2), 16), []]
            cur.append(ent)
            continue
        m = re.match(r'    \d+ 0x([0-9a-f]+)-[0-9a-f]+ \(', line)
        if m and ent is not None:
            ent[2].append(int(m.group(1), 16))
    checked = 0
    for node in nodes:
        for i, (num, lo, hashes) in enumerate(node):
            hi = node[i + 1][1] if i + 1 < len(node) and \
                node[i + 1][0] == num + 1 else None
            for h in hashes:
                checked += 1
                if (num and h < (lo & ~1)) or (hi is not None and h > hi):
                    fail('htree_dump %s: hash 0x%08x outside the '
                         'kernel\'s range of entry %d' % (d, h, num))
                    return checked
    return checked


if sum(check_htree(d) for d in dirs) == 0:
    fail('htree_dump: no indexed directory checked')

# imap (where each inode lives) as the reference says
for ino in inos[:8]:
    if run(dbg, 'imap <%d>' % ino) != run(ref, 'imap <%d>' % ino):
        fail('imap <%d> differs from the reference debugfs' % ino)

# bd -f FILE 0: the first bytes of the dump are the file's first bytes
for p in files:
    full = os.path.join(mnt, p[1:])
    if not os.path.isfile(full) or os.path.getsize(full) < 4096:
        continue
    out = run(dbg, 'bd -f ' + quote(p) + ' 0').splitlines()
    with open(full, 'rb') as f:
        head = f.read(16)
    got = bytes.fromhex(''.join(out[1].split()[1:9])) if len(out) > 1 \
        else b''
    if got != head:
        fail('bd -f %s 0: %s, file starts %s' % (p, got.hex(), head.hex()))
    break

# cat through -R: the bytes on stdout are the file's
for p in [f for f in files if os.path.isfile(os.path.join(mnt, f[1:]))][:6]:
    r = subprocess.run([dbg, '-R', 'cat ' + quote(p), image],
                       capture_output=True)
    if hashlib.sha256(r.stdout).hexdigest() != \
            sha(os.path.join(mnt, p[1:])) or r.returncode:
        fail('cat %s: contents differ from the kernel' % p)


# freefrag from the session's bitmaps vs the reference's
def ff(out, names):
    vals = []
    for n in names:
        m = re.search(r'^' + re.escape(n) + r':? +(\d+)', out, re.M)
        vals.append(int(m.group(1)) if m else None)
    return vals


out = run(dbg, 'freefrag')
ours = ff(out, ['Free clusters', 'Free extents', 'Max. free extent'])
theirs = ff(run(ref, 'freefrag'), ['Free blocks', 'Num. free extent',
                                   'Max. free extent'])
bs, cs = ff(out, ['Blocksize', 'Cluster size'])
if bs and cs and cs > bs and None not in ours:
    # the reference counts blocks, and its extent figures are all 0 on
    # bigalloc (a reference bug): compare the free space only
    ours = [ours[0] * (cs // bs)]
    theirs = theirs[:1]
if ours != theirs or None in ours:
    fail('freefrag (free, extents, max KB) %s, reference %s' % (ours,
                                                                theirs))

print('%d commands checked, %d failures' % (len(cmds), len(fails)))
sys.exit(1 if fails else 0)
