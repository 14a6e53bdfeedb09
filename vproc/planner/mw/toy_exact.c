/*
 * toy_exact.c -- the optimal makespan of a tiny s3 toy instance (paper 003
 * s3 gives none; notes s3 find 49 for Fig 3 "exhaustive"), the reference
 * the heuristics and Prop 1 are checked against.
 *
 * Dominance: the port never idles and never sends a file twice to one
 * worker (sending earlier never hurts: memory is unbounded and workers
 * receive while computing), so a schedule is a sequence of distinct (file,
 * worker) sends, the n-th arriving at n c; given the sends, each worker
 * runs its tasks in order of ready date (optimal for equal tasks on one
 * machine).  We search every send sequence, up to the symmetries (workers
 * are identical: a new worker is the lowest unused one; files never sent
 * are identical: a new A is the lowest unsent A, likewise B; with r = s, A
 * and B may be swapped: the first send is an A), and for each the best
 * assignment of tasks to the workers holding both files.  Pruning:
 *  - a send that ends at (L+1) c cannot help unless (L+1) c + w < best;
 *  - release-date bound: a task cannot start before its earliest possible
 *    ready date rho (its arrival where both files are, else T + c per
 *    missing file), so for every tau, makespan >= tau + ceil(n_tau / p) w
 *    with n_tau the tasks of rho >= tau.
 */
#include <math.h>
#include <string.h>

#include "planner/internal.h"
#include "toy.h"

#define MAXT 12   /* tasks */
#define MAXP 3    /* workers */
#define MAXF 13   /* files */

static inline double dmax(double x, double y) { return x > y ? x : y; }

typedef struct {
	const vproc_mw_toy *in;
	size_t nt, nf;
	double arr[MAXP][MAXF];
	int used[MAXP][MAXF];
	size_t workers;   /* workers that received a file: 0..workers-1 */
	size_t sends;
	double best;
	/* assignment search */
	double ready[MAXT][MAXP];
	double q[MAXP][MAXT];  /* ready dates queued on each worker, sorted */
	size_t nq[MAXP];
} ex_state;

static size_t task_i(const ex_state *x, size_t n) { return n / x->in->s; }
static size_t task_j(const ex_state *x, size_t n) { return n % x->in->s; }

/* Finish of worker k's queue in ready order. */
static double finish(const ex_state *x, size_t k)
{
	double f = 0.0;
	for (size_t n = 0; n < x->nq[k]; n++)
		f = dmax(f, x->q[k][n]) + x->in->w;
	return f;
}

static void push(ex_state *x, size_t k, double r)
{
	size_t n = x->nq[k]++;
	while (n > 0 && x->q[k][n - 1] > r) {
		x->q[k][n] = x->q[k][n - 1];
		n--;
	}
	x->q[k][n] = r;
}

static void pop(ex_state *x, size_t k, double r)
{
	size_t n = 0;
	while (x->q[k][n] != r)
		n++;
	for (; n + 1 < x->nq[k]; n++)
		x->q[k][n] = x->q[k][n + 1];
	x->nq[k]--;
}

/* Best completion of the assignment from task n on; returns the least
 * makespan found below `bound` (or bound). */
static double assign(ex_state *x, size_t n, double bound)
{
	if (n == x->nt) {
		double m = 0.0;
		for (size_t k = 0; k < x->workers; k++)
			m = dmax(m, finish(x, k));
		return m < bound ? m : bound;
	}
	for (size_t k = 0; k < x->workers; k++) {
		double r = x->ready[n][k];
		if (isinf(r))
			continue;
		push(x, k, r);
		if (finish(x, k) < bound)
			bound = assign(x, n + 1, bound);
		pop(x, k, r);
	}
	return bound;
}

/* Are all tasks runnable somewhere?  Fills ready[][]. */
static int covered(ex_state *x)
{
	int all = 1;
	for (size_t n = 0; n < x->nt; n++) {
		int any = 0;
		for (size_t k = 0; k < MAXP; k++) {
			double a = k < x->workers ? x->arr[k][task_i(x, n)] : INFINITY;
			double b = k < x->workers ? x->arr[k][x->in->r + task_j(x, n)] : INFINITY;
			x->ready[n][k] = fmax(a, b);
			any |= !isinf(x->ready[n][k]);
		}
		all &= any;
	}
	return all;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The release-date bound of the header, at port time T. */
static double lower_bound(const ex_state *x, double T)
{
	const vproc_mw_toy *in = x->in;
	double rho[MAXT];
	for (size_t n = 0; n < x->nt; n++) {
		double best = T + 2.0 * in->c;  /* a worker with neither file */
		for (size_t k = 0; k < x->workers; k++) {
			double a = x->arr[k][task_i(x, n)], b = x->arr[k][in->r + task_j(x, n)];
			double ra = isinf(a) ? T + in->c : a, rb = isinf(b) ? T + in->c : b;
			if (isinf(a) && isinf(b))
				ra = rb = T + 2.0 * in->c;
			best = fmin(best, fmax(ra, rb));
		}
		rho[n] = best;
	}
	qsort(rho, x->nt, sizeof *rho, cmp_double);
	double lb = 0.0;
	for (size_t n = 0; n < x->nt; n++) {
		size_t later = x->nt - n;
		lb = fmax(lb, rho[n] + ceil((double)later / (double)in->p) * in->w);
	}
	return lb;
}

/* May file f go to worker k now (canonical order of the symmetries)? */
static int canonical(const ex_state *x, size_t k, size_t f)
{
	const vproc_mw_toy *in = x->in;
	if (k > x->workers || k >= in->p || x->used[k][f])
		return 0;
	if (x->sends == 0 && in->r == in->s && f >= in->r)
		return 0;
	int isA = f < in->r;
	size_t lo = isA ? 0 : in->r;
	for (size_t g = lo; g < f; g++) {  /* a lower file of the type never sent? */
		int sent = 0;
		for (size_t w = 0; w < x->workers; w++)
			sent |= x->used[w][g];
		if (!sent) {
			int fsent = 0;
			for (size_t w = 0; w < x->workers; w++)
				fsent |= x->used[w][f];
			if (!fsent)
				return 0;
		}
	}
	return 1;
}

static void search(ex_state *x)
{
	double T = (double)x->sends * x->in->c;
	if (covered(x)) {
		memset(x->nq, 0, sizeof x->nq);
		x->best = assign(x, 0, x->best);
	}
	if (T + x->in->c + x->in->w >= x->best || lower_bound(x, T) >= x->best)
		return;
	for (size_t k = 0; k <= x->workers && k < x->in->p; k++)
		for (size_t f = 0; f < x->nf; f++) {
			if (!canonical(x, k, f))
				continue;
			size_t w0 = x->workers;
			x->used[k][f] = 1;
			x->arr[k][f] = T + x->in->c;
			x->sends++;
			if (k == x->workers)
				x->workers++;
			search(x);
			x->workers = w0;
			x->sends--;
			x->arr[k][f] = INFINITY;
			x->used[k][f] = 0;
		}
}

vproc_status vproc_mw_toy_exact(const vproc_mw_toy *in, double upper, double *makespan)
{
	vproc_status st = mw_toy_check(in, makespan);
	if (st != VPROC_OK)
		return st;
	if (in->r * in->s > MAXT || in->p > MAXP || in->r + in->s > MAXF)
		return VPROC_ERANGE;
	ex_state x;
	memset(&x, 0, sizeof x);
	x.in = in;
	x.nt = in->r * in->s;
	x.nf = in->r + in->s;
	for (size_t k = 0; k < MAXP; k++)
		for (size_t f = 0; f < MAXF; f++)
			x.arr[k][f] = INFINITY;
	/* one worker doing everything after the alternating sends is feasible;
	 * the search looks for strictly better than `start` */
	double start;
	vproc_mw_toy_alternating(in, &start);
	if (upper > 0 && upper < start)
		start = upper;
	x.best = start * (1 + 1e-12) + 1e-12;
	search(&x);
	*makespan = x.best < start ? x.best : start;
	return VPROC_OK;
}
