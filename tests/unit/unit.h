/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unit.h --- helpers shared by the Check unit tests.  Each test_*.c file is
 * its own test program: it defines its suite and ends with
 * E2X_UNIT_MAIN(suite_fn).
 *
 * Cases that cannot run here are never passed quietly: the suite function
 * (which runs in the parent, before any case) calls e2x_unit_skip() with
 * their name and the reason, and leaves them out or lets them return.
 * The program then exits 77 (automake's SKIP) when nothing failed, and
 * fails instead when E2X_NO_SKIP is set (CI, where everything a test
 * needs is present).
 */
#ifndef E2X_UNIT_H
#define E2X_UNIT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "e2x.h"

static int e2x_unit_skips;

static inline void e2x_unit_skip(const char *what, const char *why)
{
	fprintf(stderr, "SKIP: %s: %s\n", what, why);
	e2x_unit_skips++;
}

static inline int e2x_unit_status(int failed)
{
	if (failed)
		return EXIT_FAILURE;
	if (!e2x_unit_skips)
		return EXIT_SUCCESS;
	if (getenv("E2X_NO_SKIP") && *getenv("E2X_NO_SKIP")) {
		fprintf(stderr, "FAIL: %d skipped with E2X_NO_SKIP set\n",
			e2x_unit_skips);
		return EXIT_FAILURE;
	}
	return 77;
}

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
		return e2x_unit_status(failed);                           \
	}

#endif
