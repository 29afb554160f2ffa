#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spdx.sh --- every source file carries its SPDX licence line
# (LGPL-2.1-or-later in lib/, GPL-2.0-or-later elsewhere), files added
# later included: scripts/spdx --check lists the ones that do not, and
# scripts/spdx --add mends them.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
out=$(sh "$top_srcdir/scripts/spdx" --check "$top_srcdir")
rc=$?
if [ $rc -ne 0 ]; then
	echo "$out"
	echo "FAIL: $(echo "$out" | wc -l) file(s) without their SPDX line; run scripts/spdx --add"
	exit 1
fi
echo "ok: every source file has its SPDX line"
