/*
 * toy.c -- the s3 toy model of paper 003: rank-one updates (t = 1), no
 * result returned, unbounded worker memory.  Alternating greedy (Prop 1),
 * Min-min and Thrifty, with the exact rules of notes s2.1 where the paper
 * describes them in words.
 */
#include <math.h>

#include "planner/internal.h"
#include "toy.h"

vproc_status mw_toy_check(const vproc_mw_toy *in, double *out)
{
	if (!in || !out || in->p == 0 || in->r == 0 || in->s == 0)
		return VPROC_EINVAL;
	if (!isfinite(in->c) || !(in->c > 0) || !isfinite(in->w) || !(in->w > 0))
		return VPROC_EINVAL;
	if (in->r > SIZE_MAX / in->s || in->r * in->s > SIZE_MAX / (in->p + 1))
		return VPROC_ERANGE;
	return VPROC_OK;
}

vproc_status mw_toy_init(mw_toy_state *z, const vproc_mw_toy *in)
{
	z->in = in;
	z->nf = in->r + in->s;
	z->port = 0.0;
	z->arr = vproc_calloc(in->p * z->nf, sizeof *z->arr);
	z->owner = vproc_calloc(in->r * in->s, sizeof *z->owner);
	z->X = vproc_calloc(in->p, sizeof *z->X);
	if (!z->arr || !z->owner || !z->X) {
		mw_toy_free(z);
		return VPROC_ENOMEM;
	}
	for (size_t n = 0; n < in->p * z->nf; n++)
		z->arr[n] = INFINITY;
	for (size_t n = 0; n < in->r * in->s; n++)
		z->owner[n] = in->p;  /* unassigned */
	return VPROC_OK;
}

void mw_toy_free(mw_toy_state *z)
{
	free(z->arr);
	free(z->owner);
	free(z->X);
	z->arr = z->X = NULL;
	z->owner = NULL;
}

/* The port sends file f to worker k (back to back). */
void mw_toy_send(mw_toy_state *z, size_t k, size_t f)
{
	z->port += z->in->c;
	z->arr[k * z->nf + f] = z->port;
}

/* Task (i, j) joins worker k's queue: it runs when both files are there. */
void mw_toy_run(mw_toy_state *z, size_t k, size_t i, size_t j)
{
	double ready = fmax(ARR(z, k, i), ARR(z, k, z->in->r + j));
	z->X[k] = fmax(z->X[k], ready) + z->in->w;
	z->owner[i * z->in->s + j] = k;
}

double mw_toy_makespan(const mw_toy_state *z)
{
	double m = 0.0;
	for (size_t k = 0; k < z->in->p; k++)
		m = fmax(m, z->X[k]);
	return m;
}

/* ---- alternating greedy (Prop 1) ------------------------------------- */

/* One worker: A1 B1 A2 B2 ... and then the rest; tasks in order of their
 * ready date (with equal tasks, any order of the ready ones is as good). */
vproc_status vproc_mw_toy_alternating(const vproc_mw_toy *in, double *makespan)
{
	vproc_status st = mw_toy_check(in, makespan);
	if (st != VPROC_OK)
		return st;
	vproc_mw_toy one = *in;
	one.p = 1;
	mw_toy_state z;
	if ((st = mw_toy_init(&z, &one)) != VPROC_OK)
		return st;
	size_t a = 0, b = 0;
	while (a < in->r || b < in->s) {
		int sendA = a < in->r && (b >= in->s || a <= b);
		size_t f = sendA ? a++ : in->r + b++;
		mw_toy_send(&z, 0, f);
		/* the tasks this file completes, in index order (same ready date) */
		if (sendA)
			for (size_t j = 0; j < b; j++)
				mw_toy_run(&z, 0, a - 1, j);
		else
			for (size_t i = 0; i < a; i++)
				mw_toy_run(&z, 0, i, b - 1);
	}
	*makespan = mw_toy_makespan(&z);
	mw_toy_free(&z);
	return VPROC_OK;
}

/* ---- Min-min ----------------------------------------------------------- */

typedef struct {
	double start;
	size_t missing, k, i, j;
} mm_key;

/* Is key x (task (x.i, x.j) on worker x.k) before y?  (start, missing,
 * worker, i, j), or (start, missing, worker, j, i) column-major. */
static int mm_less(const mm_key *x, const mm_key *y, int colmajor)
{
	if (x->start != y->start)
		return x->start < y->start;
	if (x->missing != y->missing)
		return x->missing < y->missing;
	if (x->k != y->k)
		return x->k < y->k;
	size_t x1 = colmajor ? x->j : x->i, y1 = colmajor ? y->j : y->i;
	size_t x2 = colmajor ? x->i : x->j, y2 = colmajor ? y->i : y->j;
	return x1 != y1 ? x1 < y1 : x2 < y2;
}

static mm_key mm_eval(const mw_toy_state *z, size_t k, size_t i, size_t j)
{
	const vproc_mw_toy *in = z->in;
	double a = ARR(z, k, i), b = ARR(z, k, in->r + j);
	mm_key key = { 0.0, (size_t)isinf(a) + (size_t)isinf(b), k, i, j };
	key.start = key.missing ? fmax(z->X[k], z->port + in->c * (double)key.missing)
	                        : fmax(z->X[k], fmax(a, b));
	return key;
}

vproc_status vproc_mw_toy_minmin(const vproc_mw_toy *in, unsigned flags, double *makespan)
{
	vproc_status st = mw_toy_check(in, makespan);
	mw_toy_state z;
	if (st != VPROC_OK || (st = mw_toy_init(&z, in)) != VPROC_OK)
		return st;
	int cm = (flags & VPROC_MW_MINMIN_COLUMN_MAJOR) != 0;
	for (size_t placed = 0; placed < in->r * in->s; placed++) {
		mm_key best = { INFINITY, 3, 0, 0, 0 };
		for (size_t i = 0; i < in->r; i++)
			for (size_t j = 0; j < in->s; j++)
				for (size_t k = 0; k < in->p && z.owner[i * in->s + j] == in->p; k++) {
					mm_key key = mm_eval(&z, k, i, j);
					if (mm_less(&key, &best, cm))
						best = key;
				}
		if (isinf(ARR(&z, best.k, best.i)))
			mw_toy_send(&z, best.k, best.i);
		if (isinf(ARR(&z, best.k, in->r + best.j)))
			mw_toy_send(&z, best.k, in->r + best.j);
		mw_toy_run(&z, best.k, best.i, best.j);
	}
	*makespan = mw_toy_makespan(&z);
	mw_toy_free(&z);
	return VPROC_OK;
}
