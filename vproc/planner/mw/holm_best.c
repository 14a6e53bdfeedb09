/*
 * holm_best.c -- HoLM when P mu does not divide s, beyond paper 003 (notes
 * s6.2).  Alg 1 assumes P mu | s; otherwise its last group of tile columns
 * is narrower than P and leaves workers idle (with s = mu, one tile column,
 * every round has one worker), and the worker count of s5.1 (which ignores
 * C traffic and the ramp-up of each round) can be one off.  We simulate
 * Alg 1 as printed with P*, s5.1's count, and with the fill (a round takes
 * any P tiles, VPROC_MW_RAGGED_FILL) with P* - 1, P* and P* + 1, and keep
 * the fastest: never slower than Alg 1.
 */
#include "mw.h"

vproc_status vproc_mw_holm_best_P(const vproc_mw_problem *pb, size_t *P, unsigned *flags,
                                  vproc_mw_result *out)
{
	if (!pb || !P || !flags || !out)
		return VPROC_EINVAL;
	vproc_mw_problem q = *pb;
	q.P = 0;
	q.flags &= ~(unsigned)VPROC_MW_RAGGED_FILL;
	vproc_status st = vproc_mw_simulate(&q, VPROC_MW_HOLM, out, NULL);
	if (st != VPROC_OK)
		return st;
	size_t star = out->enrolled;
	*P = star;
	*flags = q.flags;
	size_t lo = star > 1 ? star - 1 : 1, hi = star + 1 <= pb->p ? star + 1 : pb->p;
	q.flags |= VPROC_MW_RAGGED_FILL;
	for (size_t n = lo; n <= hi; n++) {
		vproc_mw_result r;
		q.P = n;
		if ((st = vproc_mw_simulate(&q, VPROC_MW_HOLM, &r, NULL)) != VPROC_OK)
			return st;
		if (r.makespan < out->makespan) {
			*P = n;
			*flags = q.flags;
			*out = r;
		}
	}
	return VPROC_OK;
}
