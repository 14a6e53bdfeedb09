/*
 * ring_local.c -- multi-start greedy and local search, every move scored by
 * the exact T_R (notes s9.3, beyond the paper).  The paper's greedy (004
 * s6.2) starts only at the fastest machine; on Strasbourg at W/H = 50 that
 * start never beats the fastest machine alone (0.2915, 192% above the
 * optimum), while the start at the other fastest machine does (notes A5).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring_internal.h"

typedef struct {
	const vproc_ring_platform *pl;
	size_t *cur;     /* [p] the ring cur[0..q-1] */
	size_t q;
	double T;
	size_t *cand;    /* [p] scratch */
	unsigned char *in;
} local;

/* Take cand[0..m-1] when it beats the current ring by a relative 1e-12. */
static int accept(local *ls, size_t m)
{
	double T;
	if (vproc_ring_time(ls->pl, m, ls->cand, NULL, &T, NULL) != VPROC_OK)
		return 0;
	if (!(T < ls->T * (1.0 - 1e-12)))
		return 0;
	memset(ls->in, 0, ls->pl->p);
	memcpy(ls->cur, ls->cand, m * sizeof *ls->cand);
	for (size_t k = 0; k < m; k++)
		ls->in[ls->cand[k]] = 1;
	ls->q = m;
	ls->T = T;
	return 1;
}

/* 2-opt: reverse cur[i..j]. */
static int two_opt(local *ls)
{
	for (size_t i = 1; i + 1 < ls->q; i++)
		for (size_t j = i + 1; j < ls->q; j++) {
			memcpy(ls->cand, ls->cur, ls->q * sizeof *ls->cur);
			for (size_t a = i, b = j; a < b; a++, b--) {
				size_t t = ls->cand[a];
				ls->cand[a] = ls->cand[b];
				ls->cand[b] = t;
			}
			if (accept(ls, ls->q))
				return 1;
		}
	return 0;
}

/* cand = cur without position i, with x inserted at position j (x = p: none). */
static size_t edit(local *ls, size_t i, size_t x, size_t j)
{
	size_t m = 0;
	for (size_t k = 0; k < ls->q; k++)
		if (k != i)
			ls->cand[m++] = ls->cur[k];
	if (x < ls->pl->p) {
		memmove(ls->cand + j + 1, ls->cand + j, (m - j) * sizeof *ls->cand);
		ls->cand[j] = x;
		m++;
	}
	return m;
}

/* Or-opt (move one machine), drop, add and swap. */
static int moves(local *ls)
{
	size_t p = ls->pl->p, q = ls->q;
	for (size_t i = 0; i < q; i++) {
		for (size_t j = 0; j + 1 < q; j++)
			if (j != i && accept(ls, edit(ls, i, ls->cur[i], j)))
				return 1;
		if (q >= 2 && accept(ls, edit(ls, i, p, 0)))
			return 1;
	}
	for (size_t x = 0; x < p; x++) {
		if (ls->in[x])
			continue;
		for (size_t j = 0; j <= q; j++)
			if (accept(ls, edit(ls, q, x, j)))   /* i = q: remove nothing */
				return 1;
		for (size_t i = 0; i < q; i++)
			if (accept(ls, edit(ls, i, x, i)))
				return 1;
	}
	return 0;
}

vproc_status vproc_ring_heuristic(const vproc_ring_platform *pl, vproc_ring *out)
{
	memset(out, 0, sizeof *out);
	vproc_status st = vproc_ring_check(pl);
	if (st != VPROC_OK)
		return st;
	size_t p = pl->p;
	local ls = { pl, vproc_calloc(p, sizeof(size_t)), 0, INFINITY,
	             vproc_calloc(p + 1, sizeof(size_t)), vproc_calloc(p, 1) };
	size_t *full = vproc_calloc(p, sizeof *full), *best = vproc_calloc(p, sizeof *best);
	st = (ls.cur && ls.cand && ls.in && full && best) ? VPROC_OK : VPROC_ENOMEM;
	/* every start, both insertion rules; ties keep the earlier */
	for (int ins = 0; ins < 2 && st == VPROC_OK; ins++)
		for (size_t s = 0; s < p && st == VPROC_OK; s++) {
			size_t q;
			double T;
			st = vproc_ring_grow(pl, s, ins, full, best, &q, &T);
			if (st == VPROC_OK && T < ls.T) {
				ls.T = T;
				ls.q = q;
				memcpy(ls.cur, best, q * sizeof *best);
			}
		}
	if (st == VPROC_OK) {
		for (size_t k = 0; k < ls.q; k++)
			ls.in[ls.cur[k]] = 1;
		while (two_opt(&ls) || moves(&ls))
			;
		if ((st = vproc_ring_alloc(p, out)) == VPROC_OK &&
		    (st = vproc_ring_set(pl, ls.q, ls.cur, out)) != VPROC_OK)
			vproc_ring_free(out);
	}
	free(ls.cur);
	free(ls.cand);
	free(ls.in);
	free(full);
	free(best);
	return st;
}
