/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * version.c --- library version, the one -V text of every e2x program,
 * the --help/--version arguments every program takes, and error-table
 * registration.
 */
#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "e2x.h"

const char *e2x_version(void)
{
	return PACKAGE_VERSION;
}

/*
 * "PROG (e2x) VERSION" and, on a second line, the libext2fs in use in the
 * words the reference prints there (scripts grep "EXT2FS Library version").
 */
int e2x_version_text(const char *prog, char *buf, size_t len)
{
	const char *libver = NULL;

	ext2fs_get_library_version(&libver, NULL);
	return snprintf(buf, len, "%s (e2x) %s\n"
			"\tUsing EXT2FS Library version %s\n", prog,
			e2x_version(), libver ? libver : "unknown");
}

int e2x_std_arg(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help"))
			return E2X_ARG_HELP;
		if (!strcmp(argv[i], "--version"))
			return E2X_ARG_VERSION;
	}
	return 0;
}

static pthread_once_t errors_once = PTHREAD_ONCE_INIT;

static void register_tables(void)
{
	add_error_table(&et_ext2_error_table);
	add_error_table(&et_e2x_error_table);
}

void e2x_init_errors(void)
{
	pthread_once(&errors_once, register_tables);
}
