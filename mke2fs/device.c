/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * device.c --- the target of mke2fs: block device or image file.  Size and
 * topology (BLKGETSIZE64, libblkid), existing signatures (libblkid), mount
 * and busy checks, creating a missing image and undoing that on failure.
 */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>
#include <blkid/blkid.h>
#include "mke2fs.h"

/* Sector sizes and I/O hints of a block device. */
static void read_topology(struct mk_target *t, int fd)
{
	blkid_probe pr;
	blkid_topology tp;
	int lsec = 0;
	unsigned int psec = 0;

	if (ioctl(fd, BLKSSZGET, &lsec) == 0 && lsec > 0)
		t->info.logical_sector = lsec;
	if (ioctl(fd, BLKPBSZGET, &psec) == 0)
		t->info.physical_sector = psec;
	pr = blkid_new_probe();
	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, 0, 0) == 0 &&
	    blkid_probe_enable_topology(pr, 1) == 0 &&
	    blkid_do_fullprobe(pr) == 0 &&
	    (tp = blkid_probe_get_topology(pr)) != NULL) {
		t->info.min_io = blkid_topology_get_minimum_io_size(tp);
		t->info.optimal_io = blkid_topology_get_optimal_io_size(tp);
		t->info.alignment_offset =
			blkid_topology_get_alignment_offset(tp);
	}
	blkid_free_probe(pr);
}

int target_inspect(struct mk_target *t, const char *path, char *why,
		   size_t whylen)
{
	struct stat st;
	int fd;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->info.lazy_itable_ok =
		access("/sys/fs/ext4/features/lazy_itable_init", R_OK) == 0;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;	/* an image file to create */
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return EXIT_IO;
	}
	t->exists = 1;
	if (S_ISREG(st.st_mode)) {
		t->orig_size = st.st_size;
		t->info.size_bytes = st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, whylen,
			 "%s is neither a block device nor a regular file",
			 path);
		return EXIT_USAGE;
	}
	t->is_device = 1;
	t->info.is_device = 1;
	/* O_EXCL on a block device fails while it is mounted or held;
	 * target_in_use() reports that, after looking for a mount. */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY) {
		t->busy = 1;
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return EXIT_IO;
	}
	if (ioctl(fd, BLKGETSIZE64, &t->info.size_bytes) < 0) {
		snprintf(why, whylen, "%s: cannot read device size: %s", path,
			 strerror(errno));
		close(fd);
		return EXIT_IO;
	}
	read_topology(t, fd);
	close(fd);
	return 0;
}

/* True when an image file has no data at all (one hole reads as zeros, and
 * no signature is all zeros), so probing it can be skipped. */
static int all_hole(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int empty;

	if (fd < 0)
		return 0;
	empty = lseek(fd, 0, SEEK_DATA) < 0 && errno == ENXIO;
	close(fd);
	return empty;
}

/*
 * Look for a file system, RAID member or partition table.  Returns 1 with
 * a description in `what` when one is found.
 */
int target_signature(const struct mk_target *t, char *what, size_t len)
{
	blkid_probe pr;
	const char *type = NULL, *label = NULL;
	int found = 0;

	if (!t->exists || (!t->is_device && t->orig_size == 0))
		return 0;
	if (!t->is_device && all_hole(t->path))
		return 0;
	pr = blkid_new_probe_from_filename(t->path);
	if (!pr)
		return 0;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_FORCE_GPT);
	if (blkid_do_fullprobe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
			snprintf(what, len, "a%s %s file system%s%s%s",
				 strchr("aeiou", type[0]) ? "n" : "", type,
				 label ? " labelled '" : "",
				 label ? label : "", label ? "'" : "");
			found = 1;
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type,
						    NULL) == 0) {
			snprintf(what, len, "a %s partition table", type);
			found = 1;
		} else {
			snprintf(what, len, "a known signature");
			found = 1;
		}
	}
	blkid_free_probe(pr);
	return found;
}

/* Loop device backing this image file, if any (name in buf). */
static int backing_loop(const char *path, char *buf, size_t len)
{
	char real[PATH_MAX], file[PATH_MAX], back[PATH_MAX + 1];
	DIR *d;
	struct dirent *de;
	int found = 0;

	if (!realpath(path, real))
		return 0;
	d = opendir("/sys/block");
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		FILE *f;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(file, sizeof(file), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		f = fopen(file, "r");
		if (!f)
			continue;
		if (fgets(back, sizeof(back), f)) {
			back[strcspn(back, "\n")] = 0;
			if (!strcmp(back, real)) {
				snprintf(buf, len, "/dev/%s", de->d_name);
				found = 1;
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* Returns EXIT_REFUSED with a reason when the target is mounted or busy. */
int target_in_use(const struct mk_target *t, char *why, size_t whylen)
{
	char mtpt[PATH_MAX], loop[300];
	int flags = 0;

	if (!t->exists)
		return 0;
	if (!ext2fs_check_mount_point(t->path, &flags, mtpt, sizeof(mtpt))) {
		if (flags & EXT2_MF_MOUNTED) {
			snprintf(why, whylen, "%s is mounted on %s", t->path,
				 mtpt[0] ? mtpt : "?");
			return EXIT_REFUSED;
		}
		if (flags & EXT2_MF_BUSY) {
			snprintf(why, whylen, "%s is in use", t->path);
			return EXIT_REFUSED;
		}
	}
	if (t->busy) {
		snprintf(why, whylen,
			 "%s is in use (held open exclusively, e.g. by RAID, LVM or a mount)",
			 t->path);
		return EXIT_REFUSED;
	}
	if (!t->is_device && backing_loop(t->path, loop, sizeof(loop))) {
		snprintf(why, whylen, "%s is in use as the backing file of %s",
			 t->path, loop);
		return EXIT_REFUSED;
	}
	return 0;
}

/* Create a missing image file, or grow a short one, to `bytes`. */
int target_prepare(struct mk_target *t, unsigned long long bytes, char *why,
		   size_t whylen)
{
	int fd;

	if (t->is_device || (t->exists && t->orig_size >= bytes))
		return 0;
	fd = open(t->path, O_WRONLY | O_CLOEXEC | (t->exists ? 0 :
						   O_CREAT | O_EXCL), 0666);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", t->path, strerror(errno));
		return EXIT_IO;
	}
	if (!t->exists)
		t->created = 1;
	if (ftruncate(fd, bytes) < 0) {
		snprintf(why, whylen, "%s: cannot size the image to %llu bytes: %s",
			 t->path, bytes, strerror(errno));
		close(fd);
		target_rollback(t);
		return EXIT_IO;
	}
	close(fd);
	t->resized = 1;
	return 0;
}

/* Undo target_prepare: the target is left as we found it. */
void target_rollback(struct mk_target *t)
{
	if (t->created) {
		unlink(t->path);
		t->created = 0;
	} else if (t->resized) {
		if (truncate(t->path, t->orig_size) < 0)
			return;
	}
	t->resized = 0;
}
