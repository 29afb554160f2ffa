/*
 * mke2fs.c --- placeholder until the mke2fs work lands.
 */
#include "config.h"
#include <stdio.h>
#include "e2x.h"

int main(int argc, char **argv)
{
	printf("e2x %s\n", e2x_version());
	return 0;
}
