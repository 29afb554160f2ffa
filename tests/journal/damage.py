#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# damage.py --- seeded random damage to the first blocks of a journal:
# 1-20 bytes set to 0, 0xff or random, in headers, tails and anywhere.
# usage: damage.py IMAGE JOURNAL_FIRST_BLOCK BLOCK_SIZE SEED (in place)
import random
import sys

img = sys.argv[1]
j0, bs, seed = (int(x) for x in sys.argv[2:5])
r = random.Random(seed)
with open(img, "r+b") as f:
    for _ in range(r.randrange(1, 21)):
        blk = r.choice([0, 0, 1, 2, 3] + list(range(4, 120)))
        off = r.choice([r.randrange(0, 64), r.randrange(0, bs),
                        bs - r.randrange(1, 9), 12 + r.randrange(0, 64)])
        f.seek((j0 + blk) * bs + off)
        f.write(bytes([r.choice([0, 0xFF, r.randrange(256)])]))
