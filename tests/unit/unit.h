/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unit.h --- helpers shared by the Check unit tests.  Each test_*.c file is
 * its own test program: it defines its suite and ends with
 * E2X_UNIT_MAIN(suite_fn).
 */
#ifndef E2X_UNIT_H
#define E2X_UNIT_H

#include <check.h>
#include <stdlib.h>
#include "e2x.h"

#define E2X_UNIT_MAIN(make_suite)                                         \
	int main(void)                                                    \
	{                                                                 \
		SRunner *sr;                                              \
		int failed;                                               \
		e2x_init_errors();                                        \
		sr = srunner_create(make_suite());                        \
		srunner_run_all(sr, CK_NORMAL);                           \
		failed = srunner_ntests_failed(sr);                       \
		srunner_free(sr);                                         \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;              \
	}

#endif
