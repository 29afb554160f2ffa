/*
 * e2x-geometry.h --- file system geometry: from what the user asked for to
 * a complete superblock template (owned by geometry.c).
 */
#ifndef E2X_GEOMETRY_H
#define E2X_GEOMETRY_H

/* Filled in by the mke2fs issue work; see geometry.c. */

#endif
