/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.h --- named superblock and inode fields for set_super_value and
 * set_inode_field (fields.c).
 */
#ifndef E2X_DEBUGFS_FIELDS_H
#define E2X_DEBUGFS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

enum dbg_field_type {
	DBG_F_UINT = 1,
	DBG_F_INT,		/* signed: accepts -1 */
	DBG_F_TIME,		/* seconds; accepts "now" */
	DBG_F_UUID,		/* 16 bytes; "null", "random", "time" */
	DBG_F_STRING,		/* fixed size, zero padded */
	DBG_F_IFLAGS,		/* inode flags: a number, or names joined by
				 * commas ("extents,noatime" sets exactly
				 * those; "+name" / "-name" change one) */
	DBG_F_ERRORS		/* s_errors: a number or continue,
				 * remount-ro, panic */
};

struct dbg_field {
	const char *name;	/* without the s_ / i_ prefix */
	unsigned short off;	/* byte offset of the (low) part */
	unsigned short size;	/* its size (element size for arrays) */
	unsigned short hi_off;	/* offset of the high part */
	unsigned short hi_size;	/* its size, 0 when there is none */
	unsigned char type;	/* enum dbg_field_type */
	unsigned char count;	/* array elements, 0 for a scalar */
};

extern const struct dbg_field dbg_super_fields[];
extern const struct dbg_field dbg_inode_fields[];
extern const struct dbg_field dbg_bg_fields[];	/* ext4_group_desc */
extern const struct dbg_field dbg_mmp_fields[];	/* mmp_struct */

#define DBG_FIELD_BAD_VALUE	1
#define DBG_FIELD_OUT_OF_RANGE	2	/* not inside the buffer */

/* Find "name" or "name[i]" (arrays need the index); NULL if unknown. */
const struct dbg_field *dbg_field_find(const struct dbg_field *table,
				       const char *spec, int *index);
/* Store VALUE into BUF (BUFLEN bytes); 0 or DBG_FIELD_*. */
int dbg_field_set(const struct dbg_field *f, int index, unsigned char *buf,
		  size_t buflen, const char *value);
/* Read a numeric field back. */
uint64_t dbg_field_get(const struct dbg_field *f, int index,
		       const unsigned char *buf, size_t buflen);

/* set_cmds.c: the names of table T, one a line (-l); the one error line
 * for a dbg_field_set result RC (returns 1). */
struct dbg_ctx;
void dbg_list_fields(struct dbg_ctx *ctx, const struct dbg_field *t);
int dbg_field_error(struct dbg_ctx *ctx, const char *cmd, int rc,
		    const char *name, const char *value);

#endif
