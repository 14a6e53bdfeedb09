/*
 * nodelist.h -- the hosts of a Slurm allocation, from its compressed node
 * list (SLURM_JOB_NODELIST: `c[001-010]`, `a,b[1-2]`).  One function, so
 * that a fuller expansion can take its place.
 */
#ifndef HL_NODELIST_H
#define HL_NODELIST_H

#include <stddef.h>

/* hl_slurm_nodelist_hosts -- list expanded into *hosts (NULL-terminated,
 * malloc'd: free with hl_slurm_hosts_free) and their number *n.  Returns
 * 0, or -1 when list is malformed (or out of memory). */
int hl_slurm_nodelist_hosts(const char *list, char ***hosts, size_t *n);
void hl_slurm_hosts_free(char **hosts);

#endif
