/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * clock.c --- the time e2x stamps on what it changes: the file system
 * handle's own clock when a program set one (fs->now; debugfs
 * set_current_time), else the system's.
 */
#include "config.h"
#include <time.h>
#include "e2x.h"

time_t e2x_now(ext2_filsys fs)
{
	return fs && fs->now ? fs->now : time(NULL);
}
