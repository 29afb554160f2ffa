/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c --- debugfs command line: options, opening the image, and the
 * choice of mode (interactive shell, -R request, -f command file).
 *
 * Exit status: 0 every command succeeded; 1 a command (or opening the
 * image) failed; 2 the command line was invalid.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

#define EXIT_CMD_FAILED	1
#define EXIT_USAGE	2

struct dbg_args {
	struct dbg_open_opts open;
	const char *request;	/* -R */
	const char *cmdfile;	/* -f */
	const char *device;
};

#define USAGE "usage: debugfs [-w] [-c] [-D] [-n] [-b blocksize -s superblock] " \
	"[-z undo_file] [-i [-d data_source_device]] " \
	"[-R request | -f cmdfile] [-V] [-h] [image]"

static void print_version(void)
{
	char text[256];

	e2x_version_text("debugfs", text, sizeof(text));
	fputs(text, stdout);
}

/* Returns 0, or the exit status to leave with. */
static int parse_args(int argc, char **argv, struct dbg_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	switch (e2x_std_arg(argc, argv)) {
	case E2X_ARG_HELP:
		puts(USAGE);
		exit(0);
	case E2X_ARG_VERSION:
		print_version();
		exit(0);
	}
	opterr = 0;
	while ((c = getopt(argc, argv, "hwcDnib:s:d:z:R:f:V")) != -1) {
		switch (c) {
		case 'h':
			puts(USAGE);
			exit(0);
		case 'R':
			a->request = optarg;
			break;
		case 'f':
			a->cmdfile = optarg;
			break;
		case 'V':
			print_version();
			exit(0);
		case '?':
			if (optopt == 'R' || optopt == 'f' || optopt == 'b' ||
			    optopt == 's' || optopt == 'z' ||
			    optopt == 'd')
				fprintf(stderr, "debugfs: -%c needs a value; "
					USAGE "\n", optopt);
			else
				fprintf(stderr, "debugfs: invalid option -%c; "
					USAGE "\n", optopt);
			return EXIT_USAGE;
		default:
			if (dbg_parse_open_option(&a->open, c, optarg)) {
				fprintf(stderr, "debugfs: bad value for -%c: "
					"%s\n", c, optarg ? optarg : "");
				return EXIT_USAGE;
			}
		}
	}
	if (a->request && a->cmdfile) {
		fprintf(stderr, "debugfs: -R and -f exclude each other\n");
		return EXIT_USAGE;
	}
	if (optind < argc)
		a->device = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "debugfs: one image only; " USAGE "\n");
		return EXIT_USAGE;
	}
	return 0;
}

static int run_cmdfile(struct dbg_ctx *ctx, const char *path)
{
	FILE *f;
	int ret;

	if (!strcmp(path, "-"))
		return dbg_run_file(ctx, stdin, 1);
	f = fopen(path, "r");
	if (!f) {
		dbg_error(ctx, NULL, 0, "%s: cannot read command file: %m",
			  path);
		ctx->failed++;
		return 1;
	}
	ret = dbg_run_file(ctx, f, 1);
	fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	struct dbg_ctx ctx;
	struct dbg_args a;
	int ret, scripted;

	e2x_init_errors();
	memset(&ctx, 0, sizeof(ctx));
	ctx.out = stdout;
	ctx.prog = "debugfs";
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret;
	scripted = a.request || a.cmdfile;
	if (a.device && dbg_open_fs(&ctx, a.device, &a.open) && scripted)
		return EXIT_CMD_FAILED;
	if (a.request)
		dbg_execute_line(&ctx, a.request);
	else if (a.cmdfile)
		run_cmdfile(&ctx, a.cmdfile);
	else if (isatty(STDIN_FILENO))
		dbg_run_interactive(&ctx);
	else
		dbg_run_file(&ctx, stdin, 1);
	if (dbg_close_fs(&ctx, 0))
		ctx.failed++;
	if (scripted && ctx.failed)
		return EXIT_CMD_FAILED;
	return 0;
}
