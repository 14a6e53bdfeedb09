/*
 * grid_svd.c -- the SVD heuristic for the 2D grid allocation problem
 * (000 s4.3.4), and what we add to it.
 *
 * The paper: arrange the machines sorted (row-major, a nondecreasing
 * arrangement), approximate S = (1/t_ij) by its best rank-1 matrix s a b^T
 * (the leading singular triple; 1/t rather than t so that the fast machines,
 * the large entries, are fitted best), take r = s a, c = b, normalise, then
 * re-arrange the machines in the order of T_opt = (1/(r_i c_j)) and repeat
 * until the arrangement no longer changes.
 *
 * Beyond the paper (flags): keep the best iterate (the refinement can end
 * below an earlier step); replace the SVD's r, c by better ones for the same
 * arrangement (the "correctness" argument of s4.3.3, or the exact solve on
 * small grids); then a local search over swaps of two machines.
 */
#include <string.h>

#include "planner/internal.h"

/* LAPACK (Fortran): the two trailing arguments are the hidden lengths of the
 * character arguments, which gfortran-built LAPACK expects. */
extern void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n,
                    double *a, const int *lda, double *s, double *u, const int *ldu,
                    double *vt, const int *ldvt, double *work, const int *lwork,
                    int *info, size_t jobu_len, size_t jobvt_len);

/* Exact r, c for an arrangement is cheap up to this many rows + columns. */
#define EXACT_RC_MAX 8
/* Local search: all pairs up to this many machines, else neighbours in speed. */
#define LOCAL_ALL_PAIRS 100
/* Keep-best mode: stop after this many steps without a better iterate. */
#define STALL_STEPS 25
/* Local search: at most this many evaluations (bounds the time on big grids). */
#define LOCAL_BUDGET 20000

typedef struct {
	size_t p, q, n;
	const double *t;
	size_t *order;    /* machines by increasing cycle time */
	double *T;        /* current arrangement's cycle times */
	double *A, *U, *VT, *S, *work;
	int lwork;
	double *topt;
	size_t *pos;      /* positions sorted by T_opt */
} ws;

static void ws_free(ws *w)
{
	free(w->order);
	free(w->T);
	free(w->A);
	free(w->U);
	free(w->VT);
	free(w->S);
	free(w->work);
	free(w->topt);
	free(w->pos);
}

static vproc_status ws_init(ws *w, size_t p, size_t q, const double *t)
{
	memset(w, 0, sizeof *w);
	if (p > (size_t)INT32_MAX / q)
		return VPROC_ERANGE;
	w->p = p;
	w->q = q;
	w->n = p * q;
	w->t = t;
	size_t k = p < q ? p : q;
	w->order = vproc_calloc(w->n, sizeof *w->order);
	w->T = vproc_calloc(w->n, sizeof *w->T);
	w->A = vproc_calloc(w->n, sizeof *w->A);
	w->U = vproc_calloc(p * k, sizeof *w->U);
	w->VT = vproc_calloc(k * q, sizeof *w->VT);
	w->S = vproc_calloc(k, sizeof *w->S);
	w->topt = vproc_calloc(w->n, sizeof *w->topt);
	w->pos = vproc_calloc(w->n, sizeof *w->pos);
	if (!w->order || !w->T || !w->A || !w->U || !w->VT || !w->S || !w->topt || !w->pos)
		return VPROC_ENOMEM;
	if (vproc_sort_indices(w->n, t, w->order) != VPROC_OK)
		return VPROC_ENOMEM;
	/* Workspace query. */
	int m = (int)p, n = (int)q, lda = m, ldu = m, ldvt = (int)k, lwork = -1, info = 0;
	double query = 0.0;
	dgesvd_("S", "S", &m, &n, w->A, &lda, w->S, w->U, &ldu, w->VT, &ldvt, &query, &lwork,
	        &info, 1, 1);
	if (info != 0)
		return VPROC_EINVAL;
	w->lwork = (int)query + 1;
	w->work = vproc_calloc((size_t)w->lwork, sizeof *w->work);
	return w->work ? VPROC_OK : VPROC_ENOMEM;
}

static void load_T(ws *w, const size_t *arr)
{
	for (size_t x = 0; x < w->n; x++)
		w->T[x] = w->t[arr[x]];
}

/* r, c from the leading singular triple of (1/t_ij), normalised. */
static vproc_status rc_from_svd(ws *w, double *r, double *c)
{
	size_t p = w->p, q = w->q, k = p < q ? p : q;
	for (size_t i = 0; i < p; i++)          /* column-major for LAPACK */
		for (size_t j = 0; j < q; j++)
			w->A[i + j * p] = 1.0 / w->T[i * q + j];
	int m = (int)p, n = (int)q, lda = m, ldu = m, ldvt = (int)k, info = 0;
	dgesvd_("S", "S", &m, &n, w->A, &lda, w->S, w->U, &ldu, w->VT, &ldvt, w->work,
	        &w->lwork, &info, 1, 1);
	if (info != 0)
		return VPROC_EINVAL;
	/* S is positive, so its leading singular vectors have one sign
	 * (Perron-Frobenius); LAPACK may return both negated. */
	for (size_t i = 0; i < p; i++)
		r[i] = w->S[0] * fabs(w->U[i]);
	for (size_t j = 0; j < q; j++)
		c[j] = fabs(w->VT[j * k]);
	/* A zero component (possible only in degenerate cases) would make the
	 * normalisation divide by zero: floor it. */
	for (size_t i = 0; i < p; i++)
		if (!(r[i] > 0.0))
			r[i] = 1e-300;
	for (size_t j = 0; j < q; j++)
		if (!(c[j] > 0.0))
			c[j] = 1e-300;
	return vproc_grid_normalize(p, q, w->T, r, c);
}

/* Better r, c for the same arrangement, starting from r, c. */
static vproc_status better_rc(ws *w, double *r, double *c)
{
	if (w->p + w->q <= EXACT_RC_MAX) {
		double obj;
		return vproc_grid_solve(w->p, w->q, w->T, r, c, &obj);
	}
	return vproc_grid_improve(w->p, w->q, w->T, r, c);
}

/* The arrangement that sorts like T_opt = 1/(r_i c_j) (000 s4.3.4). */
static void rearrange(ws *w, const double *r, const double *c, size_t *arr)
{
	size_t p = w->p, q = w->q;
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < q; j++)
			w->topt[i * q + j] = 1.0 / (r[i] * c[j]);
	vproc_sort_indices(w->n, w->topt, w->pos);
	for (size_t k = 0; k < w->n; k++)
		arr[w->pos[k]] = w->order[k];
}

static void keep(vproc_grid *g, const size_t *arr, const double *r, const double *c,
                 double obj)
{
	memcpy(g->arr, arr, g->p * g->q * sizeof *arr);
	memcpy(g->r, r, g->p * sizeof *r);
	memcpy(g->c, c, g->q * sizeof *c);
	g->obj = obj;
}

/* Swap two machines while it pays (first improvement). */
static vproc_status local_search(ws *w, vproc_grid *g)
{
	size_t p = w->p, q = w->q, n = w->n;
	size_t *arr = vproc_calloc(n, sizeof *arr), *where = vproc_calloc(n, sizeof *where);
	double *r = vproc_calloc(p, sizeof *r), *c = vproc_calloc(q, sizeof *c);
	vproc_status st = VPROC_OK;
	if (!arr || !where || !r || !c) {
		st = VPROC_ENOMEM;
		goto out;
	}
	size_t budget = LOCAL_BUDGET;
	int improved = 1;
	while (improved && budget > 0) {
		improved = 0;
		for (size_t x = 0; x < n; x++)
			where[g->arr[x]] = x;
		/* Candidates: all pairs on small grids; on large ones, machines
		 * one or two places apart in speed, the swaps that can reshape a
		 * near rank-1 arrangement. */
		for (size_t a = 0; a < n && !improved && budget > 0; a++) {
			size_t hi = n <= LOCAL_ALL_PAIRS ? n : (a + 3 < n ? a + 3 : n);
			for (size_t b = a + 1; b < hi && !improved && budget > 0; b++) {
				size_t x = n <= LOCAL_ALL_PAIRS ? a : where[w->order[a]];
				size_t y = n <= LOCAL_ALL_PAIRS ? b : where[w->order[b]];
				if (w->t[g->arr[x]] == w->t[g->arr[y]])
					continue;
				budget--;
				memcpy(arr, g->arr, n * sizeof *arr);
				arr[x] = g->arr[y];
				arr[y] = g->arr[x];
				load_T(w, arr);
				memcpy(r, g->r, p * sizeof *r);
				memcpy(c, g->c, q * sizeof *c);
				st = better_rc(w, r, c);
				if (st != VPROC_OK)
					goto out;
				double obj = vproc_grid_objective(p, q, r, c);
				if (obj > g->obj * (1.0 + 1e-12)) {
					keep(g, arr, r, c, obj);
					improved = 1;
				}
			}
		}
	}
out:
	free(arr);
	free(where);
	free(r);
	free(c);
	return st;
}

vproc_status vproc_grid_svd(size_t p, size_t q, const double *t, unsigned flags,
                            size_t max_iter, double *trace, size_t trace_cap,
                            size_t *steps, vproc_grid *out)
{
	if (out == NULL || p == 0 || q == 0 || (flags & ~(unsigned)VPROC_SVD_BEST))
		return VPROC_EINVAL;
	if (p > SIZE_MAX / q)
		return VPROC_ERANGE;
	vproc_status st = vproc_check_times(p * q, t);
	if (st != VPROC_OK)
		return st;
	if (max_iter == 0)
		max_iter = 1000;
	st = vproc_grid_init(out, p, q);
	if (st != VPROC_OK)
		return st;
	ws w;
	size_t *arr = NULL, *next = NULL;
	double *r = NULL, *c = NULL;
	st = ws_init(&w, p, q, t);
	if (st != VPROC_OK)
		goto out;
	arr = vproc_calloc(w.n, sizeof *arr);
	next = vproc_calloc(w.n, sizeof *next);
	r = vproc_calloc(p, sizeof *r);
	c = vproc_calloc(q, sizeof *c);
	if (!arr || !next || !r || !c) {
		st = VPROC_ENOMEM;
		goto out;
	}
	/* The sorted initial arrangement: row-major by increasing cycle time,
	 * so t_ij <= t_i,j+1 and t_i,q <= t_i+1,1. */
	memcpy(arr, w.order, w.n * sizeof *arr);
	out->obj = -1.0;
	size_t step = 0, since_best = 0;
	for (; step < max_iter; step++) {
		load_T(&w, arr);
		st = rc_from_svd(&w, r, c);
		if (st == VPROC_OK && (flags & VPROC_SVD_OPTIMAL_RC))
			st = better_rc(&w, r, c);
		if (st != VPROC_OK)
			goto out;
		double obj = vproc_grid_objective(p, q, r, c);
		if (trace && step < trace_cap)
			trace[step] = obj;
		if (!(flags & VPROC_SVD_KEEP_BEST) || obj > out->obj * (1.0 + 1e-12)) {
			keep(out, arr, r, c, obj);
			since_best = 0;
		} else if (++since_best >= STALL_STEPS) {
			/* With better r, c the refinement can cycle between a few
			 * arrangements instead of converging: stop once it has not
			 * found anything better for a while. */
			step++;
			break;
		}
		rearrange(&w, r, c, next);
		if (memcmp(next, arr, w.n * sizeof *arr) == 0) {
			step++;
			break;
		}
		memcpy(arr, next, w.n * sizeof *arr);
	}
	out->visited = step;
	if (steps)
		*steps = step;
	if (flags & VPROC_SVD_LOCAL) {
		load_T(&w, out->arr);
		st = local_search(&w, out);
	}
out:
	ws_free(&w);
	free(arr);
	free(next);
	free(r);
	free(c);
	if (st != VPROC_OK)
		vproc_grid_free(out);
	return st;
}
