# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh --- sourced by the tests/tune2fs kernel tests (after tests/loop.sh):
# a kernel-filled image and the comparison of a converted image's tree
# with its original.  The caller sets work, mnt, mnt2, img, refmkfs and a
# fail function.

# The kernel's tree: files around the inline limits, sparse and empty
# files, symlinks of three kinds, hard links, xattrs, special files, a
# small and a large (indexed) directory.
fill() {
	(
	cd "$mnt" || exit 1
	mkdir -p small/deep empty big
	for n in 0 1 59 60 61 100 150 160 400 1000 5000; do
		head -c "$n" /dev/urandom >"small/f$n"
	done
	truncate -s 1M small/sparse
	echo tail >>small/sparse
	ln -s short small/fast
	ln -s "$(printf 'l%.0s' $(seq 1 100))" small/slow100
	ln -s "$(printf 'm%.0s' $(seq 1 300))" small/slow300
	ln small/f61 small/deep/hard61
	setfattr -n user.color -v blue small/f100
	setfattr -n user.big -v "$(printf 'v%.0s' $(seq 1 80))" small/f59
	mkfifo small/fifo
	mknod small/null c 1 3
	for i in $(seq 1 300); do
		echo "$i" >"big/a_rather_long_file_name_number_$i"
	done
	touch -d '2001-02-03 04:05:06.789' small/f1
	# with fill_short set: an htree of 12-byte entries, whose leaves
	# e2fsck -D packs without room for a metadata_csum tail
	if [ -n "${fill_short:-}" ]; then
		mkdir short && (cd short && touch $(seq 1000 1400))
	fi
	) || return 1
}

# filled_image MKFS_OPTIONS: $img made by the reference mke2fs, filled by
# the kernel; $work/inos lists its inodes.
filled_image() {
	rm -f "$img"
	truncate -s 32M "$img" || return 1
	# shellcheck disable=SC2086
	"$refmkfs" -q -F -t ext4 -b 1024 $1 "$img" >/dev/null 2>&1 ||
		{ fail "mke2fs $1"; return 1; }
	loop_attach || { fail "mount"; return 1; }
	fill || { fail "fill"; loop_detach; return 1; }
	find "$mnt" -xdev -printf '%i\n' | sort -un >"$work/inos"
	loop_detach || return 1
}

# same_tree ORIGINAL: mounted read-only side by side, $img holds the tree
# of ORIGINAL: content, types, modes, owners, times (ns), xattrs, links.
same_tree() {
	mount -o ro,loop,noload "$1" "$mnt2" ||
		{ fail "mount original"; return 1; }
	loop_attach "-o ro" || { fail "mount converted"; umount "$mnt2"
		return 1; }
	python3 "$top_srcdir/tests/populate/compare.py" "$mnt2" "$mnt" \
		--no-atime >"$work/cmp.out" 2>&1 ||
		{ fail "tree changed:"; head -10 "$work/cmp.out"; }
	loop_detach
	umount "$mnt2"
}
