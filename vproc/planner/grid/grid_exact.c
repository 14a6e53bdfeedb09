/*
 * grid_exact.c -- the exact solution of the 2D grid allocation problem for
 * small grids (000 s4.3.3).
 *
 * For a fixed arrangement, the optimum has a connected graph of equalities
 * r_i c_j t_ij = 1 ("Correctness of the algorithm"), i.e. it is fixed by a
 * spanning tree.  Grow that tree from r_1 = 1: a vertex added to it takes
 * the tightest value its already placed neighbours allow, and then no later
 * vertex can break its constraints.  So every optimum is reached by adding
 * rows and columns in alternating blocks (within a block the order does not
 * matter), and every such sequence gives a feasible solution.  We enumerate
 * the block sequences: far fewer than the p^(q-1) q^(p-1) spanning trees.
 *
 * Over arrangements, Prop 3 lets us search the nondecreasing ones only:
 * the standard Young tableaux of the p x q rectangle, filled with the
 * sorted cycle times.
 */
#include <string.h>

#include "planner/internal.h"

#define MAX_SIDE 16   /* block sets are bit masks */

int vproc_grid_is_rank1(size_t p, size_t q, const double *T, double tol)
{
	for (size_t i = 1; i < p; i++)
		for (size_t j = 1; j < q; j++) {
			double a = T[i * q + j] * T[0], b = T[i * q] * T[j];
			if (fabs(a - b) > tol * a)
				return 0;
		}
	return 1;
}

vproc_status vproc_grid_solve_2x2(const double *T, double *r, double *c, double *obj)
{
	vproc_status st = vproc_check_times(4, T);
	if (st != VPROC_OK || !r || !c || !obj)
		return VPROC_EINVAL;
	/* r_1 = 1, r_2 = r: the maximum is at r = t11/t21 or r = t12/t22. */
	const double cand[2] = { T[0] / T[2], T[1] / T[3] };
	double best = -1.0;
	for (int k = 0; k < 2; k++) {
		double x = cand[k];
		double c1 = 1.0 / fmax(T[0], x * T[2]), c2 = 1.0 / fmax(T[1], x * T[3]);
		double o = (1.0 + x) * (c1 + c2);
		if (o > best) {
			best = o;
			r[0] = 1.0;
			r[1] = x;
			c[0] = c1;
			c[1] = c2;
		}
	}
	*obj = best;
	return VPROC_OK;
}

typedef struct {
	size_t p, q;
	const double *T;
	double r[MAX_SIDE], c[MAX_SIDE];
	double best_r[MAX_SIDE], best_c[MAX_SIDE];
	double best;
} solver;

/* Give every vertex of `set` on side `rows` its tightest value. */
static void place(solver *s, int rows, unsigned set, unsigned placed_other)
{
	size_t n = rows ? s->p : s->q, m = rows ? s->q : s->p;
	for (size_t v = 0; v < n; v++) {
		if (!(set >> v & 1u))
			continue;
		double val = INFINITY;
		for (size_t u = 0; u < m; u++) {
			if (!(placed_other >> u & 1u))
				continue;
			double t = rows ? s->T[v * s->q + u] : s->T[u * s->q + v];
			double x = 1.0 / ((rows ? s->c[u] : s->r[u]) * t);
			if (x < val)
				val = x;
		}
		(rows ? s->r : s->c)[v] = val;
	}
}

static void finish(solver *s)
{
	double o = vproc_grid_objective(s->p, s->q, s->r, s->c);
	if (o > s->best) {
		s->best = o;
		memcpy(s->best_r, s->r, s->p * sizeof *s->r);
		memcpy(s->best_c, s->c, s->q * sizeof *s->c);
	}
}

/* Add a block on side `rows`, then recurse on the other side. */
static void grow(solver *s, int rows, unsigned rmask, unsigned cmask)
{
	unsigned rall = (1u << s->p) - 1, call = (1u << s->q) - 1;
	unsigned free_ = rows ? rall & ~rmask : call & ~cmask;
	unsigned other_free = rows ? call & ~cmask : rall & ~rmask;
	if (free_ == 0) {
		if (other_free == 0) {
			finish(s);
			return;
		}
		/* This side is full: the rest of the other side goes in one
		 * block, whatever its order. */
		place(s, !rows, other_free, rows ? rmask : cmask);
		finish(s);
		return;
	}
	/* Every nonempty subset of the free vertices of this side. */
	for (unsigned sub = free_; sub; sub = (sub - 1) & free_) {
		place(s, rows, sub, rows ? cmask : rmask);
		if (rows)
			grow(s, 0, rmask | sub, cmask);
		else
			grow(s, 1, rmask, cmask | sub);
	}
}

vproc_status vproc_grid_solve(size_t p, size_t q, const double *T, double *r, double *c,
                              double *obj)
{
	if (p == 0 || q == 0 || p > MAX_SIDE || q > MAX_SIDE || !r || !c || !obj)
		return VPROC_EINVAL;
	vproc_status st = vproc_check_times(p * q, T);
	if (st != VPROC_OK)
		return st;
	if (p == 2 && q == 2)
		return vproc_grid_solve_2x2(T, r, c, obj);
	if (vproc_grid_is_rank1(p, q, T, 1e-12)) {
		/* 000 s4.3.3 "Rank-1 matrices": every processor fully busy. */
		for (size_t i = 0; i < p; i++)
			r[i] = T[0] / T[i * q];
		for (size_t j = 0; j < q; j++)
			c[j] = 1.0 / T[j];
		*obj = vproc_grid_objective(p, q, r, c);
		return VPROC_OK;
	}
	solver s;
	memset(&s, 0, sizeof s);
	s.p = p;
	s.q = q;
	s.T = T;
	s.best = -1.0;
	s.r[0] = 1.0;
	grow(&s, 0, 1u, 0u);
	memcpy(r, s.best_r, p * sizeof *r);
	memcpy(c, s.best_c, q * sizeof *c);
	*obj = s.best;
	return VPROC_OK;
}

vproc_status vproc_grid_init(vproc_grid *g, size_t p, size_t q)
{
	memset(g, 0, sizeof *g);
	if (p == 0 || q == 0 || p > SIZE_MAX / q)
		return VPROC_EINVAL;
	g->p = p;
	g->q = q;
	g->arr = vproc_calloc(p * q, sizeof *g->arr);
	g->r = vproc_calloc(p, sizeof *g->r);
	g->c = vproc_calloc(q, sizeof *g->c);
	if (!g->arr || !g->r || !g->c) {
		vproc_grid_free(g);
		return VPROC_ENOMEM;
	}
	return VPROC_OK;
}

void vproc_grid_free(vproc_grid *g)
{
	if (g == NULL)
		return;
	free(g->arr);
	free(g->r);
	free(g->c);
	memset(g, 0, sizeof *g);
}

/* Machines by increasing cycle time, ties by index (so results do not depend
 * on qsort's order).  Pairs rather than a global key keep this re-entrant. */
typedef struct { double t; size_t idx; } keyed;

static int cmp_keyed(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

vproc_status vproc_sort_indices(size_t n, const double *t, size_t *idx)
{
	keyed *k = vproc_calloc(n, sizeof *k);
	if (k == NULL)
		return VPROC_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		k[i].t = t[i];
		k[i].idx = i;
	}
	qsort(k, n, sizeof *k, cmp_keyed);
	for (size_t i = 0; i < n; i++)
		idx[i] = k[i].idx;
	free(k);
	return VPROC_OK;
}

typedef struct {
	size_t p, q;
	const double *t;
	const size_t *order;   /* machines by increasing cycle time */
	size_t fill[MAX_SIDE]; /* cells filled in each row */
	size_t arr[MAX_SIDE * MAX_SIDE];
	double T[MAX_SIDE * MAX_SIDE];
	double r[MAX_SIDE], c[MAX_SIDE];
	double bound;
	vproc_grid *out;
	int done;
} search;

static void tableau(search *s, size_t k)
{
	if (s->done)
		return;
	size_t p = s->p, q = s->q;
	if (k == p * q) {
		double obj;
		s->out->visited++;
		for (size_t x = 0; x < p * q; x++)
			s->T[x] = s->t[s->arr[x]];
		if (vproc_grid_solve(p, q, s->T, s->r, s->c, &obj) != VPROC_OK)
			return;
		if (obj > s->out->obj) {
			s->out->obj = obj;
			memcpy(s->out->arr, s->arr, p * q * sizeof *s->arr);
			memcpy(s->out->r, s->r, p * sizeof *s->r);
			memcpy(s->out->c, s->c, q * sizeof *s->c);
			/* Nothing beats the bound: a rank-1 arrangement was found. */
			if (obj >= s->bound * (1.0 - 1e-12))
				s->done = 1;
		}
		return;
	}
	for (size_t i = 0; i < p; i++) {
		size_t j = s->fill[i];
		if (j == q || (i > 0 && s->fill[i - 1] <= j))
			continue;
		/* On a square grid the transpose of an arrangement is as good:
		 * put the second fastest machine on the first row only. */
		if (k == 1 && p == q && i != 0)
			continue;
		s->arr[i * q + j] = s->order[k];
		s->fill[i]++;
		tableau(s, k + 1);
		s->fill[i]--;
	}
}

vproc_status vproc_grid_exact(size_t p, size_t q, const double *t, vproc_grid *out)
{
	if (out == NULL || p == 0 || q == 0 || p > MAX_SIDE || q > MAX_SIDE)
		return VPROC_EINVAL;
	vproc_status st = vproc_check_times(p * q, t);
	if (st != VPROC_OK)
		return st;
	st = vproc_grid_init(out, p, q);
	if (st != VPROC_OK)
		return st;
	search *s = calloc(1, sizeof *s);
	size_t *order = vproc_calloc(p * q, sizeof *order);
	if (s == NULL || order == NULL) {
		free(s);
		free(order);
		vproc_grid_free(out);
		return VPROC_ENOMEM;
	}
	if (vproc_sort_indices(p * q, t, order) != VPROC_OK) {
		free(s);
		free(order);
		vproc_grid_free(out);
		return VPROC_ENOMEM;
	}
	s->p = p;
	s->q = q;
	s->t = t;
	s->order = order;
	s->bound = vproc_grid_bound(p * q, t);
	s->out = out;
	out->obj = -1.0;
	tableau(s, 0);
	free(order);
	free(s);
	return VPROC_OK;
}
