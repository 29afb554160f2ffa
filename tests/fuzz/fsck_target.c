/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck_target.c --- run our e2fsck's read-only check (-fn) in-process on
 * an image in memory: a sealed memfd (writes are refused by the kernel,
 * so -n cannot write even by mistake), opened by its /proc/self/fd path.
 */
#define _GNU_SOURCE
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "context.h"
#include "fsck_target.h"

static uint32_t le32_at(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The device size: the file system's own size when its superblock is
 * readable and it fits FSCK_TARGET_MAX_FS (inputs may leave trailing
 * zeroes out), else the input's size.
 */
static uint64_t device_size(const uint8_t *data, size_t size)
{
	const uint8_t *sb = data + 1024;
	uint64_t blocks, bytes;
	uint32_t log;

	if (size < 2048 || sb[56] != 0x53 || sb[57] != 0xef)
		return size;
	log = le32_at(sb + 24);
	if (log > 6)
		return size;
	blocks = le32_at(sb + 4);
	if (le32_at(sb + 0x60) & EXT4_FEATURE_INCOMPAT_64BIT)
		blocks |= (uint64_t)le32_at(sb + 0x150) << 32;
	if (blocks > FSCK_TARGET_MAX_FS >> (10 + log))
		return size;
	bytes = blocks << (10 + log);
	return bytes > size ? bytes : size;
}

/* A memfd holding a copy of the image, sealed read-only unless
 * WRITABLE (a repair writes into its own copy); -1 on failure. */
static int memory_device(const uint8_t *data, size_t size, int writable)
{
	int fd = memfd_create("e2x-fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	size_t done = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (done < size) {
		n = write(fd, data + done, size - done);
		if (n <= 0)
			goto fail;
		done += n;
	}
	if (ftruncate(fd, device_size(data, size)) ||
	    fcntl(fd, F_ADD_SEALS, (writable ? 0 : F_SEAL_WRITE) |
				      F_SEAL_GROW | F_SEAL_SHRINK |
				      F_SEAL_SEAL))
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}

void fsck_target_init(void)
{
	e2x_init_errors();
	/* the check's report would drown the driver's; stderr stays (the
	 * sanitizers report there) */
	if (!getenv("E2X_FUZZ_VERBOSE") && !freopen("/dev/null", "w", stdout))
		perror("fsck_target: /dev/null");
}

static int run_mode(const uint8_t *data, size_t size, int yes)
{
	struct fsck_ctx ctx = { 0 };
	char path[64];
	int fd, rc;

	fd = memory_device(data, size, yes);
	if (fd < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ctx.prog = "e2fsck";
	ctx.now = 1700000000;	/* fixed: the same input, the same path */
	ctx.opt.device = path;
	ctx.opt.mode = yes ? MODE_YES : MODE_NO;
	ctx.opt.force = 1;
	ctx.opt.progress_fd = -1;
	rc = fsck_run(&ctx);
	close(fd);
	return rc;
}

int fsck_target_run(const uint8_t *data, size_t size)
{
	return run_mode(data, size, 0);
}

int fsck_target_run_fix(const uint8_t *data, size_t size)
{
	return run_mode(data, size, 1);
}
