/*
 * pattern_group.c -- a slice or panel pattern with each machine's virtual
 * processes made adjacent (see vproc.h).
 *
 * Why: 000 s3.4 orders a slice so that the *shrinking* matrix of LU and QR
 * stays balanced at every step.  A product (PDGEMM) updates every block to
 * the end, so any order of the same processes gives the same balance; the
 * order then only decides how often PBLAS's ring broadcasts, which follow
 * the process order, cross from one machine to another.  On Table 3's
 * 1 x 19 slice every hop crossed (18 n^2 doubles on the 100 Mb/s bus of
 * 000 s5); grouped, a panel crosses once per other machine.
 */
#include "planner/internal.h"

vproc_status vproc_pattern_group(size_t p, size_t B, size_t *pattern)
{
	if (pattern == NULL || (B > 0 && p == 0))
		return VPROC_EINVAL;
	for (size_t k = 0; k < B; k++)
		if (pattern[k] >= p)
			return VPROC_EINVAL;
	size_t *count = vproc_calloc(p, sizeof *count);
	size_t *first = vproc_calloc(p, sizeof *first);   /* machines, by first appearance */
	if (count == NULL || first == NULL) {
		free(count);
		free(first);
		return VPROC_ENOMEM;
	}
	size_t nfirst = 0;
	for (size_t k = 0; k < B; k++)
		if (count[pattern[k]]++ == 0)
			first[nfirst++] = pattern[k];
	size_t k = 0;
	for (size_t f = 0; f < nfirst; f++)
		for (size_t c = 0; c < count[first[f]]; c++)
			pattern[k++] = first[f];
	free(count);
	free(first);
	return VPROC_OK;
}
