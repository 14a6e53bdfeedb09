/*
 * schedule.c -- the three schedules of paper 002 s4 on the task graph of
 * taskgraph.c: the static slice (s2.2), the optimized static allocation
 * (s4.4) and the level-by-level dynamic heuristic of Maheswaran and Siegel
 * (s4.3); and the best static slice over B (beyond the paper).
 */
#include <math.h>
#include <string.h>

#include "planner/internal.h"
#include "taskgraph.h"

static vproc_status schedule_alloc(size_t M, vproc_tg_schedule *out)
{
	memset(out, 0, sizeof *out);
	out->ntasks = vproc_tg_ntasks(M);
	out->machine = vproc_calloc(out->ntasks, sizeof *out->machine);
	out->order = vproc_calloc(out->ntasks, sizeof *out->order);
	if (out->machine == NULL || out->order == NULL) {
		vproc_tg_schedule_free(out);
		return VPROC_ENOMEM;
	}
	/* Ids are already level by level (F(k), then the updates of step k). */
	for (size_t a = 0; a < out->ntasks; a++)
		out->order[a] = a;
	return VPROC_OK;
}

vproc_status vproc_tg_static(const vproc_tg *g, size_t p, const size_t *pattern, size_t B,
                             vproc_tg_schedule *out)
{
	if (g == NULL || pattern == NULL || B == 0 || out == NULL || g->M == 0 ||
	    vproc_tg_ntasks(g->M) == 0)
		return VPROC_EINVAL;
	for (size_t k = 0; k < B; k++)
		if (pattern[k] >= p)
			return VPROC_EINVAL;
	vproc_status st = schedule_alloc(g->M, out);
	if (st != VPROC_OK)
		return st;
	/* 002 s2.2: column block j lives on pattern[j mod B] for the whole run. */
	for (size_t k = 0; k < g->M; k++)
		for (size_t j = k; j < g->M; j++)
			out->machine[vproc_tg_id(g->M, k, j)] = pattern[j % B];
	return VPROC_OK;
}

vproc_status vproc_tg_optimized(const vproc_tg *g, size_t p, const double *t, size_t B,
                                vproc_tg_schedule *out)
{
	vproc_status st = vproc_tg_check(g, p, t);
	if (st != VPROC_OK || out == NULL)
		return st != VPROC_OK ? st : VPROC_EINVAL;
	vproc_slice sl;
	st = vproc_slice_build(p, t, B, VPROC_SLICE_OPTIMIZED, &sl);
	if (st != VPROC_OK)
		return st;
	st = vproc_tg_static(g, p, sl.pattern, B, out);
	vproc_slice_free(&sl);
	if (st != VPROC_OK)
		return st;
	/* 002 s4.4: the fastest machine runs every factor task and the update
	 * that precedes it. */
	size_t f = vproc_fastest(p, t);
	for (size_t k = 0; k < g->M; k++) {
		out->machine[vproc_tg_id(g->M, k, k)] = f;
		if (k + 1 < g->M)
			out->machine[vproc_tg_id(g->M, k, k + 1)] = f;
	}
	return VPROC_OK;
}

/* ---- the dynamic heuristic (002 s4.3) ------------------------------------ */

/* cp(s) = e(s, x) + max over the successors (c + cp(succ)), bottom-up on
 * the initial mapping x.  Ids are topological, so reverse id order works. */
static void critical_paths(const vproc_tg *g, const double *t, const size_t *x, double *cp)
{
	size_t M = g->M;
	for (size_t id = vproc_tg_ntasks(M); id-- > 0;) {
		size_t k, j;
		vproc_tg_task(M, id, &k, &j);
		double best = 0.0;
		if (j == k) {   /* the broadcast to every update of step k */
			for (size_t jj = k + 1; jj < M; jj++) {
				size_t s = vproc_tg_id(M, k, jj);
				double c = x[s] == x[id] ? 0.0 : vproc_tg_comm(g, k);
				best = fmax(best, c + cp[s]);
			}
		} else if (k + 1 < M) {   /* the same column block, one step later */
			size_t s = vproc_tg_id(M, k + 1, j);
			double c = x[s] == x[id] ? 0.0 : vproc_tg_comm(g, k + 1);
			best = c + cp[s];
		}
		cp[id] = vproc_tg_work(g, k, j) * t[x[id]] + best;
	}
}

typedef struct {
	double cp;
	size_t j, id;
} prio;

/* Decreasing critical path; ties: the lower column first. */
static int prio_cmp(const void *a, const void *b)
{
	const prio *u = a, *v = b;
	if (u->cp != v->cp)
		return u->cp > v->cp ? -1 : 1;
	return (u->j > v->j) - (u->j < v->j);
}

typedef struct {
	const vproc_tg *g;
	const double *t;
	size_t p;
	const size_t *init;   /* the initial mapping */
	size_t *mach;         /* the new mapping, filled as tasks are placed */
	double *fin;          /* [ntasks] pct of each placed task */
	double *avail;        /* [p] A[x] */
} remap;

/* Place task (k, j) on the machine of least pct (002 s4.3). */
static void place(remap *r, size_t k, size_t j)
{
	size_t M = r->g->M, id = vproc_tg_id(M, k, j), q[2], n = 0;
	if (j == k && k > 0)
		q[n++] = vproc_tg_id(M, k - 1, k);
	if (j != k) {
		q[n++] = vproc_tg_id(M, k, k);
		if (k > 0)
			q[n++] = vproc_tg_id(M, k - 1, j);
	}
	double w = vproc_tg_work(r->g, k, j), c = vproc_tg_comm(r->g, k), best = INFINITY;
	size_t bx = r->init[id];
	for (size_t x = 0; x < r->p; x++) {
		double dr = 0.0;
		for (size_t a = 0; a < n; a++)
			dr = fmax(dr, r->fin[q[a]] + (r->mach[q[a]] == x ? 0.0 : c));
		double pct = w * r->t[x] + fmax(r->avail[x], dr);
		if (pct < best || (pct == best && x == r->init[id])) {
			best = pct;
			bx = x;
		}
	}
	r->mach[id] = bx;
	r->fin[id] = best;
	r->avail[bx] = best;
}

static vproc_status run_levels(remap *r, const double *cp, vproc_tg_schedule *out)
{
	size_t M = r->g->M, a = 0;
	prio *lv = vproc_calloc(M, sizeof *lv);
	if (lv == NULL)
		return VPROC_ENOMEM;
	for (size_t k = 0; k < M; k++) {
		place(r, k, k);   /* level 2k: F(k) alone */
		out->order[a++] = vproc_tg_id(M, k, k);
		size_t n = 0;     /* level 2k+1: the updates, by priority */
		for (size_t j = k + 1; j < M; j++) {
			size_t id = vproc_tg_id(M, k, j);
			lv[n++] = (prio){ cp[id], j, id };
		}
		qsort(lv, n, sizeof *lv, prio_cmp);
		for (size_t b = 0; b < n; b++) {
			place(r, k, lv[b].j);
			out->order[a++] = lv[b].id;
		}
	}
	free(lv);
	return VPROC_OK;
}

vproc_status vproc_tg_dynamic(const vproc_tg *g, size_t p, const double *t,
                              const vproc_tg_schedule *initial, vproc_tg_schedule *out)
{
	vproc_status st = vproc_tg_check(g, p, t);
	if (st != VPROC_OK)
		return st;
	if (initial == NULL || out == NULL || initial->machine == NULL ||
	    initial->ntasks != vproc_tg_ntasks(g->M))
		return VPROC_EINVAL;
	for (size_t a = 0; a < initial->ntasks; a++)
		if (initial->machine[a] >= p)
			return VPROC_EINVAL;
	st = schedule_alloc(g->M, out);
	if (st != VPROC_OK)
		return st;
	double *cp = vproc_calloc(out->ntasks, sizeof *cp);
	double *fin = vproc_calloc(out->ntasks, sizeof *fin);
	double *avail = vproc_calloc(p, sizeof *avail);
	st = VPROC_ENOMEM;
	if (cp && fin && avail) {
		critical_paths(g, t, initial->machine, cp);
		remap r = { g, t, p, initial->machine, out->machine, fin, avail };
		st = run_levels(&r, cp, out);
	}
	free(cp);
	free(fin);
	free(avail);
	if (st != VPROC_OK)
		vproc_tg_schedule_free(out);
	return st;
}

/* ---- the best static slice (beyond the paper) ---------------------------- */

vproc_status vproc_tg_best_B(const vproc_tg *g, size_t p, const double *t, size_t Bmax,
                             double *times, size_t *B, double *makespan)
{
	vproc_status st = vproc_tg_check(g, p, t);
	if (st != VPROC_OK)
		return st;
	if (Bmax == 0 || B == NULL || makespan == NULL)
		return VPROC_EINVAL;
	*makespan = INFINITY;
	for (size_t b = 1; b <= Bmax && st == VPROC_OK; b++) {
		vproc_slice sl;
		vproc_tg_schedule s;
		vproc_tg_times tm;
		st = vproc_slice_build(p, t, b, VPROC_SLICE_PLAIN, &sl);
		if (st != VPROC_OK)
			break;
		st = vproc_tg_static(g, p, sl.pattern, b, &s);
		vproc_slice_free(&sl);
		if (st != VPROC_OK)
			break;
		st = vproc_tg_simulate(g, p, t, &s, &tm);
		vproc_tg_schedule_free(&s);
		if (st != VPROC_OK)
			break;
		if (times)
			times[b - 1] = tm.makespan;
		if (tm.makespan < *makespan) {
			*makespan = tm.makespan;
			*B = b;
		}
	}
	return st;
}

/* ---- the three schedules of 002 s4 side by side --------------------------- */

vproc_status vproc_tg_three(const vproc_tg *g, size_t p, const double *t, size_t B,
                            vproc_tg_schedule *sched, vproc_tg_times *times)
{
	vproc_status st = vproc_tg_check(g, p, t);
	if (st != VPROC_OK)
		return st;
	if (B == 0 || times == NULL)
		return VPROC_EINVAL;
	vproc_tg_schedule s[VPROC_TG_NSCHED];
	memset(s, 0, sizeof s);
	vproc_slice sl;
	st = vproc_slice_build(p, t, B, VPROC_SLICE_PLAIN, &sl);
	if (st != VPROC_OK)
		return st;
	st = vproc_tg_static(g, p, sl.pattern, B, &s[VPROC_TG_STATIC]);
	vproc_slice_free(&sl);
	/* s4.4 needs two chunks for the fastest machine: B >= 2. */
	if (st == VPROC_OK)
		st = vproc_tg_optimized(g, p, t, B < 2 ? 2 : B, &s[VPROC_TG_OPTIMIZED]);
	if (st == VPROC_OK)   /* s4.3: the initial mapping is the static slice */
		st = vproc_tg_dynamic(g, p, t, &s[VPROC_TG_STATIC], &s[VPROC_TG_DYNAMIC]);
	for (int v = 0; v < VPROC_TG_NSCHED && st == VPROC_OK; v++)
		st = vproc_tg_simulate(g, p, t, &s[v], &times[v]);
	for (int v = 0; v < VPROC_TG_NSCHED; v++) {
		if (st == VPROC_OK && sched)
			sched[v] = s[v];
		else
			vproc_tg_schedule_free(&s[v]);
	}
	return st;
}

/* ---- the optimal static slice of one B, by exhaustive search ------------ */

vproc_status vproc_tg_optimal_slice(const vproc_tg *g, size_t p, const double *t, size_t B,
                                    size_t *pattern, double *makespan)
{
	vproc_status st = vproc_tg_check(g, p, t);
	if (st != VPROC_OK)
		return st;
	if (B == 0 || pattern == NULL || makespan == NULL)
		return VPROC_EINVAL;
	double n = 1.0;
	for (size_t b = 0; b < B; b++)
		n *= (double)p;
	if (n > VPROC_TG_SEARCH_MAX)
		return VPROC_ERANGE;
	size_t *cur = vproc_calloc(B, sizeof *cur);
	if (cur == NULL)
		return VPROC_ENOMEM;
	*makespan = INFINITY;
	/* Every pattern in p^B, as a counter in base p (the first is all 0). */
	for (;;) {
		vproc_tg_schedule s;
		vproc_tg_times tm;
		st = vproc_tg_static(g, p, cur, B, &s);
		if (st == VPROC_OK) {
			st = vproc_tg_simulate(g, p, t, &s, &tm);
			vproc_tg_schedule_free(&s);
		}
		if (st != VPROC_OK)
			break;
		if (tm.makespan < *makespan) {
			*makespan = tm.makespan;
			memcpy(pattern, cur, B * sizeof *cur);
		}
		size_t d = 0;
		while (d < B && ++cur[d] == p)
			cur[d++] = 0;
		if (d == B)
			break;
	}
	free(cur);
	return st;
}
