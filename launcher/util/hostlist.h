/*
 * hostlist.h -- Slurm's hostlist expressions (`cn[008-010,017]`,
 * `gpu[1-2]-ib`, `a[1-2]b[3-4]`, comma-separated items), expanded into host
 * names and grouped back.  Pure: no I/O, no allocation beyond the result.
 *
 * The syntax is the one Slurm's scontrol show hostnames reads: an item is
 * literal text and bracket groups; a group is a comma-separated list of
 * numbers and ranges LO-HI (LO <= HI), every number of a range written with
 * as many digits as LO has ("08-10" gives 08 09 10).  Several groups in one
 * item multiply, the leftmost varying slowest (Slurm's multi-dimensional
 * order).
 */
#ifndef HL_HOSTLIST_H
#define HL_HOSTLIST_H

#include <stddef.h>

typedef struct {
	size_t pos;        /* 0-based byte of expr where the problem is */
	char msg[160];
} hl_hostlist_error;

/*
 * hl_hostlist_expand -- the hosts of expr, in order.
 *   max    more hosts than this is an error (counted before anything is
 *          allocated: `n[0-999999999999]` costs nothing)
 *   hosts  out: malloc'd, NULL-terminated (hl_hostlist_free); *n hosts
 * Returns 0; -1 malformed or too many (err says what, where); -2 out of
 * memory.
 */
int hl_hostlist_expand(const char *expr, size_t max, char ***hosts, size_t *n,
                       hl_hostlist_error *err);
void hl_hostlist_free(char **hosts);

/* The number of hosts of expr, without making them (0, or -1 as above). */
int hl_hostlist_count(const char *expr, size_t max, size_t *n, hl_hostlist_error *err);

/* Does expr use the hostlist syntax (a '[' or a ',')? */
int hl_hostlist_is_list(const char *expr);

/*
 * hl_hostlist_group -- hosts grouped back into one expression, order kept:
 * neighbours that differ only in their last number, by one, with the same
 * width, become a range ("n1 n2 n3 n7" -> "n[1-3,7]").  malloc'd; NULL when
 * out of memory.
 */
char *hl_hostlist_group(char *const *hosts, size_t n);

#endif
