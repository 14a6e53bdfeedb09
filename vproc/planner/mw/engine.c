/*
 * engine.c -- the engine of paper 003's block model (notes s2.4), which
 * every scheduler drives (sim.h).  C is cut into a x b tiles (a, b <= mu,
 * edge tiles clipped).  A worker's tile is three kinds of transfers on the
 * master's port: C-in (a b blocks), t steps (step k: the b blocks B_kj,
 * then the a blocks A_ik; block n of a transfer arrives at start + n c),
 * C-out (a b blocks).  Each transfer starts at max(port free, R), R its
 * readiness: a step waits until the step `sets` before it is computed (its
 * buffers are then free), C-in until the worker's previous C-out, C-out
 * until the last update.  A step's rows are computed in order, row i at
 * max(end of the previous row, arrival of A_ik), for b w.  BMM and OBMM
 * (Toledo) send nu-wide panels instead and compute each as one BLAS call
 * once the whole panel pair is there.  The makespan is the end of the last
 * C-out.  The schedulers differ only in which transfer the port does next.
 */
#include <math.h>
#include <string.h>

#include "planner/internal.h"
#include "mw.h"
#include "sim.h"

static double max2(double x, double y)
{
	return x > y ? x : y;
}

/* ---- tiles ---------------------------------------------------------- */

/* Tile (I, J) of the mu x mu grid over C, clipped at the edges. */
void mw_tile(const mw_engine *e, size_t I, size_t J, mw_tile_t *tl)
{
	tl->i0 = I * e->mu;
	tl->j0 = J * e->mu;
	tl->a = e->pb->r - tl->i0 < e->mu ? e->pb->r - tl->i0 : e->mu;
	tl->b = e->pb->s - tl->j0 < e->mu ? e->pb->s - tl->j0 : e->mu;
}

/* ---- the engine: readiness and the three transfers ------------------ */

double mw_ready(const mw_engine *e, size_t x, vproc_mw_opkind kind)
{
	const mw_worker *wk = &e->wk[x];
	switch (kind) {
	case VPROC_MW_OP_CIN:
		return wk->cout_end;
	case VPROC_MW_OP_STEP:
		return wk->step >= e->sets ? wk->done[(wk->step - e->sets) % 2] : 0.0;
	case VPROC_MW_OP_COUT:
	default:
		return wk->busy;
	}
}

static vproc_status record(mw_engine *e, const mw_worker *wk, size_t x, vproc_mw_opkind kind,
                           size_t k0, size_t kk, double start, double end)
{
	if (!e->trace)
		return VPROC_OK;
	vproc_mw_trace *tr = e->trace;
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? 2 * tr->cap : 256;
		vproc_mw_op *ops = realloc(tr->ops, cap * sizeof *ops);
		if (!ops)
			return VPROC_ENOMEM;
		tr->ops = ops;
		tr->cap = cap;
	}
	tr->ops[tr->n++] = (vproc_mw_op){ kind, x, wk->tile.i0, wk->tile.a, wk->tile.j0,
	                                  wk->tile.b, k0, kk, start, end };
	return VPROC_OK;
}

/* The port moves n blocks to or from worker x from `start`. */
static double move(mw_engine *e, const mw_worker *wk, size_t n, double start)
{
	e->moved += n;
	e->port_busy += (double)n * wk->c;
	e->port = start + (double)n * wk->c;
	return e->port;
}

/* Step wk->step of worker x: panels B then A, then the updates. */
static void step(mw_engine *e, mw_worker *wk, double S, size_t *k0, size_t *kk)
{
	const mw_tile_t *tl = &wk->tile;
	*k0 = wk->step * e->kw;
	*kk = e->pb->t - *k0 < e->kw ? e->pb->t - *k0 : e->kw;
	if (e->one_call) {
		double end = move(e, wk, (tl->a + tl->b) * *kk, S);
		wk->busy = max2(wk->busy, end) + (double)(tl->a * tl->b * *kk) * wk->w;
	} else {
		move(e, wk, tl->a + tl->b, S);
		for (size_t i = 0; i < tl->a; i++) {
			double arrive = S + (double)(tl->b + i + 1) * wk->c;
			wk->busy = max2(wk->busy, arrive) + (double)tl->b * wk->w;
		}
	}
	e->updates += tl->a * tl->b * *kk;
	wk->done[wk->step % 2] = wk->busy;
	wk->step++;
}

vproc_status mw_do(mw_engine *e, size_t x, vproc_mw_opkind kind)
{
	mw_worker *wk = &e->wk[x];
	double S = max2(e->port, mw_ready(e, x, kind));
	size_t k0 = 0, kk = 0;
	if (kind == VPROC_MW_OP_CIN) {
		move(e, wk, wk->tile.a * wk->tile.b, S);
		wk->has_tile = 1;
		wk->step = 0;
		wk->used = 1;
	} else if (kind == VPROC_MW_OP_STEP) {
		step(e, wk, S, &k0, &kk);
	} else {
		wk->cout_end = move(e, wk, wk->tile.a * wk->tile.b, S);
		wk->has_tile = 0;
		e->makespan = max2(e->makespan, wk->cout_end);
	}
	return record(e, wk, x, kind, k0, kk, S, e->port);
}
