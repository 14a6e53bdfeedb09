/*
 * simulate.c -- the block model of paper 003 (s2, s6.2) as an event
 * simulation of the one-port master: HoLM (s5, Alg 1), ORROML, OMMOML,
 * ODDOML, DDOML, BMM and OBMM (s6.2): the set-up of each scheduler's layout
 * and the run of its rule (sched_static.c, sched_dynamic.c) over the
 * engine (engine.c, notes s2.4).
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

static size_t ceil_div(size_t x, size_t y)
{
	return (x + y - 1) / y;
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
