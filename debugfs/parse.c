/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.c --- pure parsing helpers of debugfs: command line words, inode
 * specs "<N>", numbers and on-disk timestamps.  No session state here.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "debugfs.h"

/*
 * Split a command line into words.  Single quotes keep everything, double
 * quotes allow backslash escapes, a backslash outside quotes escapes the
 * next character.  The argv array and its strings share one allocation.
 */
int dbg_split_line(const char *line, char ***argv_out)
{
	size_t len = strlen(line);
	size_t nmax = len / 2 + 2;
	char **argv;
	char *buf, *w;
	const char *p = line;
	int argc = 0;

	*argv_out = NULL;
	argv = malloc(nmax * sizeof(char *) + len + 1);
	if (!argv)
		return -1;
	buf = (char *)(argv + nmax);
	w = buf;
	for (;;) {
		char quote = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			break;
		argv[argc++] = w;
		for (; *p; p++) {
			if (quote == '\'') {
				if (*p == '\'')
					quote = 0;
				else
					*w++ = *p;
			} else if (*p == '\\' && p[1]) {
				*w++ = *++p;
			} else if (quote == '"') {
				if (*p == '"')
					quote = 0;
				else
					*w++ = *p;
			} else if (*p == '\'' || *p == '"') {
				quote = *p;
			} else if (*p == ' ' || *p == '\t' || *p == '\n' ||
				   *p == '\r') {
				break;
			} else {
				*w++ = *p;
			}
		}
		*w++ = 0;
		if (quote) {
			free(argv);
			return -1;
		}
	}
	argv[argc] = NULL;
	*argv_out = argv;
	return argc;
}

int dbg_parse_u64(const char *s, uint64_t max, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*val = v;
	return 0;
}

/* One "N" or "N-M" item of a block list into *LIST (grown). */
static int add_list_item(const char *item, blk64_t **list, size_t *n)
{
	const char *dash = strchr(item, '-');
	uint64_t lo, hi;
	blk64_t *grown;
	char first[32];

	if (!dash) {
		if (dbg_parse_u64(item, UINT64_MAX, &lo))
			return -1;
		hi = lo;
	} else {
		if ((size_t)(dash - item) >= sizeof(first))
			return -1;
		memcpy(first, item, dash - item);
		first[dash - item] = 0;
		if (dbg_parse_u64(first, UINT64_MAX, &lo) ||
		    dbg_parse_u64(dash + 1, UINT64_MAX, &hi) || hi < lo)
			return -1;
	}
	if (hi - lo >= DBG_LIST_MAX || *n + (hi - lo) >= DBG_LIST_MAX)
		return -1;
	grown = realloc(*list, (*n + (hi - lo) + 1) * sizeof(**list));
	if (!grown)
		return -1;
	*list = grown;
	for (;; lo++) {
		grown[(*n)++] = lo;
		if (lo == hi)
			break;
	}
	return 0;
}

int dbg_parse_block_list(const char *s, blk64_t **list, size_t *n)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	if (!s || !*s)
		return -1;
	copy = strdup(s);
	if (!copy)
		return -1;
	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save))
		ret = add_list_item(item, list, n);
	free(copy);
	return ret;
}

int dbg_parse_ino_spec(const char *s, ext2_ino_t max, ext2_ino_t *ino,
		       int *ok)
{
	size_t len = strlen(s);
	char num[24];
	uint64_t v;

	*ok = 0;
	if (len < 2 || s[0] != '<' || s[len - 1] != '>')
		return 0;
	if (len - 2 == 0 || len - 2 >= sizeof(num))
		return 1;
	memcpy(num, s + 1, len - 2);
	num[len - 2] = 0;
	if (dbg_parse_u64(num, max, &v) || v == 0)
		return 1;
	*ino = (ext2_ino_t)v;
	*ok = 1;
	return 1;
}

/*
 * ext4 keeps 32 signed bits of seconds in the base field; the extra word
 * adds two epoch bits (bits 32-33 of the seconds) and 30 bits of
 * nanoseconds.
 */
int64_t dbg_decode_time(uint32_t sec, uint32_t extra, int has_extra,
			uint32_t *nsec)
{
	int64_t t = (int32_t)sec;

	*nsec = 0;
	if (has_extra) {
		t += (int64_t)(extra & 3) << 32;
		*nsec = extra >> 2;
	}
	return t;
}

void dbg_format_time(int64_t secs, char *buf, size_t len)
{
	time_t t = (time_t)secs;
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "%lld", (long long)secs);
}
