/*
 * yamltree.h -- a YAML document as a tree whose every node keeps the line
 * and column where it starts, built from libyaml's event stream.
 *
 * Why events and not yaml_parser_load: the document API resolves aliases
 * silently, and we must reject them (an alias can make one machine appear
 * twice, or hide where a value came from).
 */
#ifndef HL_YAMLTREE_H
#define HL_YAMLTREE_H

#include <stddef.h>

#include "util/diag.h"

typedef enum { YT_SCALAR, YT_SEQ, YT_MAP } yt_kind;

typedef struct yt_node {
	yt_kind kind;
	size_t line, col;          /* 1-based start of the node */
	char *value;               /* YT_SCALAR: the text */
	int plain;                 /* YT_SCALAR: 1 if unquoted (so it may be a number) */
	struct yt_node **items;    /* YT_SEQ: n items; YT_MAP: n key/value pairs, */
	size_t n;                  /*   stored as items[2k] = key, items[2k+1] = value */
	size_t len;                /* items stored (n, or 2n for a map) */
	size_t start, end;         /* YT_SCALAR: its text is bytes [start, end) of the
	                            * file (quotes included); start also for the others */
} yt_node;

/*
 * yt_load -- parse the file at path.  On success returns 0 and *root is the
 * document's root node (NULL for an empty file).  On failure returns -1
 * with the reason in d.  Multi-document streams, aliases and anchors are
 * refused.
 */
int yt_load(const char *path, diag *d, yt_node **root);
void yt_free(yt_node *n);

#endif
