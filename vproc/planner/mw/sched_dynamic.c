/*
 * sched_dynamic.c -- the schedulers of paper 003 s6.2 that pick the next
 * transfer as they go: OMMOML (min-min: the worker that will finish its
 * next block first), and the demand-driven ODDOML, DDOML, BMM and OBMM
 * (first come, first served).  Exact rules: notes s2.4.  They take C tiles
 * in column-major order.
 */
#include <math.h>

#include "sim.h"

/* Give worker x the next tile (column-major); 0 when none is left. */
static int next_tile(mw_engine *e, size_t x)
{
	if (e->next_tile >= e->ntr * e->ntc)
		return 0;
	mw_tile(e, e->next_tile % e->ntr, e->next_tile / e->ntr, &e->wk[x].tile);
	e->next_tile++;
	return 1;
}

static int tiles_left(const mw_engine *e)
{
	return e->next_tile < e->ntr * e->ntc;
}

/* The transfer worker x needs next, or 0 if none (no tile left for it). */
static int next_op(const mw_engine *e, size_t x, vproc_mw_opkind *kind)
{
	const mw_worker *wk = &e->wk[x];
	if (wk->has_tile)
		*kind = wk->step < e->nsteps ? VPROC_MW_OP_STEP : VPROC_MW_OP_COUT;
	else if (tiles_left(e))
		*kind = VPROC_MW_OP_CIN;
	else
		return 0;
	return 1;
}

static vproc_status run(mw_engine *e, size_t x, vproc_mw_opkind kind)
{
	if (kind == VPROC_MW_OP_CIN)
		next_tile(e, x);
	return mw_do(e, x, kind);
}

/* ---- demand driven (ODDOML, DDOML, BMM, OBMM) ---------------------------
 * The port serves the request that can start first, key
 * (max(T, R_x), R_x, x): the earliest, then the longest waiting, then the
 * lower index. */
vproc_status mw_run_demand(mw_engine *e)
{
	for (;;) {
		size_t best = e->pb->p;
		vproc_mw_opkind bk = VPROC_MW_OP_CIN, kind;
		double bs = INFINITY, br = INFINITY;
		for (size_t x = 0; x < e->pb->p; x++) {
			if (!next_op(e, x, &kind))
				continue;
			double R = mw_ready(e, x, kind), S = R > e->port ? R : e->port;
			if (S < bs || (S == bs && R < br)) {
				best = x, bk = kind, bs = S, br = R;
			}
		}
		if (best == e->pb->p)
			return VPROC_OK;
		vproc_status st = run(e, best, bk);
		if (st != VPROC_OK)
			return st;
	}
}

/* ---- OMMOML -------------------------------------------------------------
 * First any C-out whose updates are done.  Otherwise the transfer of least
 * estimated completion (ties to the lower index):
 *   a step:      max(max(T, R) + (a+b) c, busy) + a b w  (its updates done)
 *   a new tile:  max(T + 2 mu c, busy) + mu^2 w          (its C-in ignored)
 *   a C-out not ready yet:  max(T, busy) + a b c         (C back)
 * Notes s2.4 give the first two; with the third, a worker about to finish
 * its tile is waited for rather than another enrolled, which reproduces
 * every OMMOML value of the notes (7685 and 8291 on s7.5's instance, the s4
 * table, E1 16.5780 on 3 workers, E2 15.4875); without it E1 gives 15.89. */
static double estimate(const mw_engine *e, size_t x, vproc_mw_opkind kind)
{
	const mw_worker *wk = &e->wk[x];
	mw_tile_t tl = wk->tile;
	if (kind == VPROC_MW_OP_COUT)
		return fmax(e->port, wk->busy) + (double)(tl.a * tl.b) * wk->c;
	double start = e->port;
	if (kind == VPROC_MW_OP_CIN)
		tl.a = tl.b = e->mu;  /* the notes' mu, also for an edge tile (Fig 9) */
	else
		start = fmax(start, mw_ready(e, x, kind));
	double arrive = start + (double)(tl.a + tl.b) * wk->c;
	return fmax(arrive, wk->busy) + (double)(tl.a * tl.b) * wk->w;
}

static size_t pick_minmin(const mw_engine *e, vproc_mw_opkind *bk)
{
	size_t best = e->pb->p;
	double be = INFINITY;
	vproc_mw_opkind kind;
	for (size_t x = 0; x < e->pb->p; x++) {
		if (!next_op(e, x, &kind))
			continue;
		if (kind == VPROC_MW_OP_COUT && e->wk[x].busy <= e->port) {
			*bk = kind;
			return x;
		}
		double est = estimate(e, x, kind);
		if (est < be) {
			best = x, be = est, *bk = kind;
		}
	}
	return best;
}

vproc_status mw_run_minmin(mw_engine *e)
{
	for (;;) {
		vproc_mw_opkind kind = VPROC_MW_OP_CIN;
		size_t x = pick_minmin(e, &kind);
		if (x == e->pb->p)
			return VPROC_OK;
		vproc_status st = run(e, x, kind);
		if (st != VPROC_OK)
			return st;
	}
}
