/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * profile.c --- a small reader for mke2fs.conf: [sections] of `tag = value`
 * lines and one level of `name = { ... }` relations, as mke2fs uses them.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

struct profile_entry {
	char *section;
	char *sub;		/* relation name, NULL at section level */
	char *tag;
	char *value;
};

struct e2x_profile {
	struct profile_entry *ent;
	size_t count;
	size_t cap;
};

/*
 * The settings e2fsprogs 1.47 uses when no mke2fs.conf exists (and which
 * Debian ships as /etc/mke2fs.conf).
 */
static const char default_text[] =
	"[defaults]\n"
	"base_features = sparse_super,large_file,filetype,resize_inode,"
	"dir_index,ext_attr\n"
	"default_mntopts = acl,user_xattr\n"
	"enable_periodic_fsck = 0\n"
	"blocksize = 4096\n"
	"inode_size = 256\n"
	"inode_ratio = 16384\n"
	"[fs_types]\n"
	"ext3 = {\n features = has_journal\n}\n"
	"ext4 = {\n features = has_journal,extent,huge_file,flex_bg,"
	"metadata_csum,64bit,dir_nlink,extra_isize\n}\n"
	"small = {\n blocksize = 1024\n inode_ratio = 4096\n}\n"
	"floppy = {\n blocksize = 1024\n inode_ratio = 8192\n}\n"
	"big = {\n inode_ratio = 32768\n}\n"
	"huge = {\n inode_ratio = 65536\n}\n"
	"news = {\n inode_ratio = 4096\n}\n"
	"largefile = {\n inode_ratio = 1048576\n blocksize = -1\n}\n"
	"largefile4 = {\n inode_ratio = 4194304\n blocksize = -1\n}\n"
	"hurd = {\n blocksize = 4096\n inode_size = 128\n}\n";

const char *e2x_profile_default_text(void)
{
	return default_text;
}

void e2x_profile_free(struct e2x_profile *prof)
{
	size_t i;

	if (!prof)
		return;
	for (i = 0; i < prof->count; i++) {
		free(prof->ent[i].section);
		free(prof->ent[i].sub);
		free(prof->ent[i].tag);
		free(prof->ent[i].value);
	}
	free(prof->ent);
	free(prof);
}

/* Copy [s, s+n) without surrounding blanks and quotes. */
static char *dup_trimmed(const char *s, size_t n)
{
	char *out;

	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
	}
	out = malloc(n + 1);
	if (!out)
		return NULL;
	memcpy(out, s, n);
	out[n] = 0;
	return out;
}

static errcode_t add_entry(struct e2x_profile *prof, const char *section,
			   const char *sub, char *tag, char *value)
{
	struct profile_entry *e;

	if (prof->count == prof->cap) {
		size_t cap = prof->cap ? prof->cap * 2 : 32;

		e = realloc(prof->ent, cap * sizeof(*e));
		if (!e)
			return EXT2_ET_NO_MEMORY;
		prof->ent = e;
		prof->cap = cap;
	}
	e = &prof->ent[prof->count];
	e->section = strdup(section);
	e->sub = sub ? strdup(sub) : NULL;
	e->tag = tag;
	e->value = value;
	if (!e->section || (sub && !e->sub)) {
		free(e->section);
		free(e->sub);
		return EXT2_ET_NO_MEMORY;
	}
	prof->count++;
	return 0;
}

/* Parser state carried from line to line. */
struct parse_state {
	char *section;
	char *sub;
};

/* Handle one line (NUL-terminated, no newline). */
static errcode_t parse_line(struct e2x_profile *prof, struct parse_state *st,
			    char *line)
{
	char *p = line, *eq, *tag, *value;
	size_t n;

	while (isspace((unsigned char)*p))
		p++;
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = 0;
	if (!n || *p == '#' || *p == ';')
		return 0;
	if (*p == '[') {
		char *end = strchr(p, ']');

		if (!end || st->sub)
			return E2X_ERR_BAD_OPTION;
		free(st->section);
		st->section = dup_trimmed(p + 1, end - p - 1);
		return st->section ? 0 : EXT2_ET_NO_MEMORY;
	}
	if (*p == '}') {
		if (!st->sub)
			return E2X_ERR_BAD_OPTION;
		free(st->sub);
		st->sub = NULL;
		return 0;
	}
	eq = strchr(p, '=');
	if (!eq || !st->section || eq == p)
		return E2X_ERR_BAD_OPTION;
	tag = dup_trimmed(p, eq - p);
	if (!tag)
		return EXT2_ET_NO_MEMORY;
	value = dup_trimmed(eq + 1, strlen(eq + 1));
	if (!value) {
		free(tag);
		return EXT2_ET_NO_MEMORY;
	}
	if (!strcmp(value, "{")) {
		free(value);
		if (st->sub) {		/* only one level is used by mke2fs */
			free(tag);
			return E2X_ERR_BAD_OPTION;
		}
		st->sub = tag;
		/* An empty-tag entry records that the relation exists. */
		tag = strdup("");
		value = strdup("");
		if (!tag || !value || add_entry(prof, st->section, st->sub, tag,
						value)) {
			free(tag);
			free(value);
			return EXT2_ET_NO_MEMORY;
		}
		return 0;
	}
	if (add_entry(prof, st->section, st->sub, tag, value)) {
		free(tag);
		free(value);
		return EXT2_ET_NO_MEMORY;
	}
	return 0;
}

errcode_t e2x_profile_parse(const char *text, struct e2x_profile **ret,
			    int *bad_line)
{
	struct e2x_profile *prof;
	struct parse_state st = { NULL, NULL };
	errcode_t err = 0;
	int lineno = 0;

	*ret = NULL;
	prof = calloc(1, sizeof(*prof));
	if (!prof)
		return EXT2_ET_NO_MEMORY;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		char *line = malloc(n + 1);

		lineno++;
		if (!line) {
			err = EXT2_ET_NO_MEMORY;
			goto out;
		}
		memcpy(line, text, n);
		line[n] = 0;
		err = parse_line(prof, &st, line);
		free(line);
		if (err)
			goto out;
		text += n + (nl ? 1 : 0);
	}
	if (st.sub)
		err = E2X_ERR_BAD_OPTION;	/* unclosed relation */
out:
	free(st.section);
	free(st.sub);
	if (err) {
		if (bad_line)
			*bad_line = lineno;
		e2x_profile_free(prof);
		return err;
	}
	*ret = prof;
	return 0;
}

errcode_t e2x_profile_load(const char *path, struct e2x_profile **ret,
			   int *bad_line)
{
	FILE *f = NULL;
	char *text = NULL;
	size_t len = 0, cap = 0;
	errcode_t err;

	if (!path)
		path = getenv("MKE2FS_CONFIG");
	if (!path || !*path)
		path = "/etc/mke2fs.conf";
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return e2x_profile_parse(default_text, ret, bad_line);
		return errno;
	}
	for (;;) {
		size_t got;

		if (cap - len < 4096) {
			char *t = realloc(text, cap + 65536);

			if (!t) {
				err = EXT2_ET_NO_MEMORY;
				goto out;
			}
			text = t;
			cap += 65536;
		}
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		err = EIO;
		goto out;
	}
	text[len] = 0;
	err = e2x_profile_parse(text, ret, bad_line);
out:
	free(text);
	fclose(f);
	return err;
}

static int same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

const char *e2x_profile_get(const struct e2x_profile *prof,
			    const char *section, const char *subsection,
			    const char *tag)
{
	size_t i;

	if (!prof)
		return NULL;
	for (i = prof->count; i-- > 0;) {
		const struct profile_entry *e = &prof->ent[i];

		if (same(e->section, section) && same(e->sub, subsection) &&
		    !strcmp(e->tag, tag))
			return e->value;
	}
	return NULL;
}

const char *e2x_profile_lookup(const struct e2x_profile *prof,
			       const char *const *types, const char *tag)
{
	const char *v;
	size_t n = 0;

	while (types && types[n])
		n++;
	while (n-- > 0) {
		v = e2x_profile_get(prof, "fs_types", types[n], tag);
		if (v)
			return v;
	}
	return e2x_profile_get(prof, "defaults", NULL, tag);
}

int e2x_profile_has_type(const struct e2x_profile *prof, const char *type)
{
	size_t i;

	if (!prof)
		return 0;
	for (i = 0; i < prof->count; i++)
		if (!strcmp(prof->ent[i].section, "fs_types") &&
		    same(prof->ent[i].sub, type))
			return 1;
	return 0;
}
