/*
 * run.c --- the Check unit-test runner: adds every suite and runs them.
 */
#include "config.h"
#include <stdlib.h>
#include "unit.h"

typedef Suite *(*suite_fn)(void);

static const suite_fn suites[] = {
	suite_iversion,
};

int main(void)
{
	SRunner *sr;
	size_t i;
	int failed;

	e2x_init_errors();
	sr = srunner_create(NULL);
	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
