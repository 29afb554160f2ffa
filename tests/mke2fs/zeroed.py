#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/zeroed.py --- after formatting over old data: what the kernel
# trusts to be zero must be zero.  Checks, from the image itself:
#   - every group flagged ITABLE_ZEROED has zeros in its unused inodes
#     (those past inodes_per_group - itable_unused);
#   - the journal (inode 8), past its superblock block, is all zeros, so no
#     stale transaction can ever be replayed.
# usage: zeroed.py IMAGE    (exit 1 and one line per problem when not)

import re
import subprocess
import sys

DUMPE2FS = "/usr/sbin/dumpe2fs"
DEBUGFS = "/usr/sbin/debugfs"


def dumpe2fs(image):
    out = subprocess.run([DUMPE2FS, image], capture_output=True,
                         text=True).stdout
    head = {}
    groups = []
    for line in out.splitlines():
        m = re.match(r"^([A-Za-z][^:]*):\s+(.*)$", line)
        if m and not line.startswith("Group "):
            head.setdefault(m.group(1), m.group(2).strip())
            continue
        m = re.match(r"^Group (\d+): .*?(\[(.*)\])?$", line)
        if m:
            flags = set(f.strip() for f in (m.group(3) or "").split(","))
            groups.append({"flags": flags, "table": None, "unused": 0})
            continue
        m = re.match(r"^\s+Inode table at (\d+)-(\d+)", line)
        if m and groups:
            groups[-1]["table"] = (int(m.group(1)), int(m.group(2)))
        m = re.search(r"(\d+) unused inodes", line)
        if m and groups:
            groups[-1]["unused"] = int(m.group(1))
    return head, groups


def check_tables(image, head, groups):
    bad = []
    bs = int(head["Block size"])
    isz = int(head["Inode size"])
    ipg = int(head["Inodes per group"])
    with open(image, "rb") as f:
        for n, g in enumerate(groups):
            if "ITABLE_ZEROED" not in g["flags"] or g["unused"] == 0:
                continue
            first = ipg - g["unused"]
            f.seek(g["table"][0] * bs + first * isz)
            data = f.read(g["unused"] * isz)
            if data.count(0) != len(data):
                bad.append("group %d: ITABLE_ZEROED but its %d unused "
                           "inodes hold old data" % (n, g["unused"]))
    return bad


def check_journal(image, head):
    if "has_journal" not in head.get("Filesystem features", ""):
        return []
    bs = int(head["Block size"])
    data = subprocess.run([DEBUGFS, "-R", "cat <8>", image],
                          capture_output=True).stdout
    if len(data) <= bs:
        return ["cannot read the journal (%d bytes)" % len(data)]
    rest = data[bs:]
    nonzero = len(rest) - rest.count(0)
    if nonzero:
        return ["journal: %d non-zero bytes of old data past its superblock"
                % nonzero]
    return []


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: zeroed.py IMAGE")
    image = sys.argv[1]
    head, groups = dumpe2fs(image)
    if not groups:
        sys.exit("zeroed.py: dumpe2fs cannot read %s" % image)
    bad = check_tables(image, head, groups) + check_journal(image, head)
    for line in bad:
        print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
