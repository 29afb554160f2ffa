/*
 * unit.h --- shared declarations of the Check unit-test runner: each
 * test_*.c file contributes one suite constructor listed here.
 */
#ifndef E2X_UNIT_H
#define E2X_UNIT_H

#include <check.h>
#include "e2x.h"

Suite *suite_iversion(void);

#endif
