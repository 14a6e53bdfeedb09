/*
 * simulate.c -- the block model of paper 003 (s2, s6.2) as an event
 * simulation of the one-port master: HoLM (s5, Alg 1), ORROML, OMMOML,
 * ODDOML, DDOML, BMM and OBMM (s6.2), with the exact rules of notes s2.4
 * where the paper gives one sentence.
 *
 * The engine (notes s2.4).  C is cut into a x b tiles (a, b <= mu, edge
 * tiles clipped).  A worker's tile is three kinds of transfers on the
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

static const char *const names[VPROC_MW_NSCHED] = {
	"holm", "orroml", "ommoml", "oddoml", "ddoml", "bmm", "obmm"
};

const char *vproc_mw_sched_name(vproc_mw_sched s)
{
	return (unsigned)s < VPROC_MW_NSCHED ? names[s] : NULL;
}

vproc_mw_sched vproc_mw_sched_parse(const char *name)
{
	for (int s = 0; s < VPROC_MW_NSCHED && name; s++)
		if (strcmp(name, names[s]) == 0)
			return (vproc_mw_sched)s;
	return VPROC_MW_NSCHED;
}

void vproc_mw_trace_free(vproc_mw_trace *trace)
{
	if (trace) {
		free(trace->ops);
		trace->ops = NULL;
		trace->n = trace->cap = 0;
	}
}

static double max2(double x, double y)
{
	return x > y ? x : y;
}

/* ---- tiles ---------------------------------------------------------- */

static size_t ceil_div(size_t x, size_t y)
{
	return (x + y - 1) / y;
}

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

/* ---- set-up ----------------------------------------------------------- */

static int times_ok(size_t p, const double *v)
{
	for (size_t i = 0; v && i < p; i++)
		if (!isfinite(v[i]) || !(v[i] > 0))
			return 0;
	return 1;
}

static vproc_status check(const vproc_mw_problem *pb)
{
	if (!pb || pb->r == 0 || pb->t == 0 || pb->s == 0 || pb->p == 0)
		return VPROC_EINVAL;
	if (!times_ok(pb->p, pb->ci) || !times_ok(pb->p, pb->wi))
		return VPROC_EINVAL;
	if ((!pb->ci && !(isfinite(pb->c) && pb->c > 0)) || (!pb->wi && !(isfinite(pb->w) && pb->w > 0)))
		return VPROC_EINVAL;
	if (pb->P > pb->p)
		return VPROC_EINVAL;
	return VPROC_OK;
}

static size_t least_m(const vproc_mw_problem *pb)
{
	size_t m = pb->m;
	if (pb->mi) {
		m = pb->mi[0];
		for (size_t i = 1; i < pb->p; i++)
			m = pb->mi[i] < m ? pb->mi[i] : m;
	}
	return m;
}

/* The layout of each scheduler (s6.2): tile side, sets, step width. */
static void layout(mw_engine *e, vproc_mw_sched s, size_t m)
{
	e->sets = 2;
	e->kw = 1;
	e->one_call = 0;
	switch (s) {
	case VPROC_MW_DDOML:
		e->mu = vproc_mw_mu_dd(m);
		e->sets = 1;
		break;
	case VPROC_MW_BMM:
		e->mu = e->kw = vproc_mw_nu_bmm(m);
		e->sets = 1;
		e->one_call = 1;
		break;
	case VPROC_MW_OBMM:
		e->mu = e->kw = vproc_mw_nu_obmm(m);
		e->one_call = 1;
		break;
	default:
		e->mu = vproc_mw_mu_holm(m);
		break;
	}
}

static vproc_status setup(mw_engine *e, const vproc_mw_problem *pb, vproc_mw_sched s,
                          vproc_mw_trace *trace)
{
	memset(e, 0, sizeof *e);
	e->pb = pb;
	e->trace = trace;
	layout(e, s, least_m(pb));
	if (e->mu == 0)
		return VPROC_EINVAL;  /* m too small for this layout */
	e->ntr = ceil_div(pb->r, e->mu);
	e->ntc = ceil_div(pb->s, e->mu);
	e->nsteps = ceil_div(pb->t, e->kw);
	e->wk = vproc_calloc(pb->p, sizeof *e->wk);
	if (!e->wk)
		return VPROC_ENOMEM;
	for (size_t x = 0; x < pb->p; x++) {
		e->wk[x].c = pb->ci ? pb->ci[x] : pb->c;
		e->wk[x].w = pb->wi ? pb->wi[x] : pb->w;
	}
	return VPROC_OK;
}

static void finish(const mw_engine *e, vproc_mw_sched s, vproc_mw_result *out)
{
	memset(out, 0, sizeof *out);
	out->makespan = e->makespan;
	out->blocks_moved = e->moved;
	out->updates = e->updates;
	out->mu = e->mu;
	out->sets = e->sets;
	out->tiles = e->ntr * e->ntc;
	out->port_busy = e->port_busy;
	out->enrolled = e->enrolled ? e->enrolled : e->pb->p;
	size_t panel = (s == VPROC_MW_BMM || s == VPROC_MW_OBMM) ? 2 * e->mu * e->mu : 2 * e->mu;
	out->buffers = e->mu * e->mu + e->sets * panel;
	for (size_t x = 0; x < e->pb->p; x++)
		out->workers_used += e->wk[x].used;
}

vproc_status vproc_mw_simulate(const vproc_mw_problem *pb, vproc_mw_sched sched,
                               vproc_mw_result *out, vproc_mw_trace *trace)
{
	if (!out || (unsigned)sched >= VPROC_MW_NSCHED)
		return VPROC_EINVAL;
	vproc_status st = check(pb);
	if (st != VPROC_OK)
		return st;
	if (trace)
		trace->n = 0;
	mw_engine e;
	st = setup(&e, pb, sched, trace);
	if (st == VPROC_OK) {
		switch (sched) {
		case VPROC_MW_HOLM:
		case VPROC_MW_ORROML:
			st = mw_run_static(&e, sched);
			break;
		case VPROC_MW_OMMOML:
			st = mw_run_minmin(&e);
			break;
		default:
			st = mw_run_demand(&e);
			break;
		}
	}
	if (st == VPROC_OK)
		finish(&e, sched, out);
	free(e.wk);
	return st;
}
