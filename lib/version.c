/*
 * version.c --- library version and error-table registration.
 */
#include "config.h"
#include <pthread.h>
#include "e2x.h"

const char *e2x_version(void)
{
	return PACKAGE_VERSION;
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
