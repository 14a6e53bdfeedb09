/*
 * thrifty.c -- Thrifty, the s3 toy-model heuristic of paper 003 that
 * "spares" workers: keep each enrolled worker busy, use spare port time for
 * the next, enrol a new worker only if that delays no enrolled one.  The
 * paper gives three sentences; the exact rules are notes s2.1:
 *  - a task goes to the worker where a file first makes it runnable, and
 *    joins its queue (X_k = the end of that queue);
 *  - next_file(k): the file making the most unassigned tasks runnable on k
 *    (need 1), else the file with the most unassigned tasks in its row or
 *    column (need 2); ties alternate the type (A first), then lower index;
 *  - at each port-free time T, the first rule that applies:
 *      1. the first enrolled worker with X_k < T + (need+1) c gets its file;
 *      2. otherwise the next worker is enrolled and gets its file;
 *      3. otherwise the enrolled worker of least X_k - need c gets its file.
 */
#include <math.h>

#include "planner/internal.h"
#include "toy.h"

typedef struct {
	size_t f, need;  /* need 0: no file left to send */
} choice;

/* Unassigned tasks file f would make runnable on worker k (the other file
 * of the task already there), or, with any = 1, all unassigned in its line. */
static size_t gain(const mw_toy_state *z, size_t k, size_t f, int any)
{
	const vproc_mw_toy *in = z->in;
	size_t n = 0;
	int isA = f < in->r;
	size_t len = isA ? in->s : in->r;
	for (size_t x = 0; x < len; x++) {
		size_t i = isA ? f : x, j = isA ? x : f - in->r;
		size_t other = isA ? in->r + j : i;
		if (z->owner[i * in->s + j] == in->p && (any || !isinf(ARR(z, k, other))))
			n++;
	}
	return n;
}

/* The best file for k at level `any`; prefer_b: ties go to B first. */
static size_t best_file(const mw_toy_state *z, size_t k, int any, int prefer_b, size_t *gbest)
{
	size_t best = z->nf;
	*gbest = 0;
	for (size_t pass = 0; pass < 2; pass++) {
		int typeB = prefer_b ? pass == 0 : pass == 1;
		size_t lo = typeB ? z->in->r : 0, hi = typeB ? z->nf : z->in->r;
		for (size_t f = lo; f < hi; f++) {
			if (!isinf(ARR(z, k, f)))
				continue;
			size_t g = gain(z, k, f, any);
			if (g > *gbest) {
				*gbest = g;
				best = f;
			}
		}
	}
	return best;
}

static choice next_file(const mw_toy_state *z, size_t k, const int *last_was_a, unsigned flags)
{
	int prefer_b = !(flags & VPROC_MW_THRIFTY_A_FIRST) && last_was_a[k];
	size_t g;
	size_t f = best_file(z, k, 0, prefer_b, &g);
	if (g > 0)
		return (choice){ f, 1 };
	f = best_file(z, k, 1, prefer_b, &g);
	return (choice){ f, g > 0 ? 2u : 0u };
}

/* Send f to k and queue there every task it makes runnable. */
static void give(mw_toy_state *z, size_t k, size_t f, int *last_was_a)
{
	const vproc_mw_toy *in = z->in;
	mw_toy_send(z, k, f);
	last_was_a[k] = f < in->r;
	int isA = f < in->r;
	size_t len = isA ? in->s : in->r;
	for (size_t x = 0; x < len; x++) {
		size_t i = isA ? f : x, j = isA ? x : f - in->r;
		size_t other = isA ? in->r + j : i;
		if (z->owner[i * in->s + j] == in->p && !isinf(ARR(z, k, other)))
			mw_toy_run(z, k, i, j);
	}
}

/* Rules 1 to 3 at port time T; returns the worker served (p: none). */
static size_t pick(const mw_toy_state *z, size_t enrolled, const int *last, unsigned flags,
                   choice *ch)
{
	const vproc_mw_toy *in = z->in;
	double T = z->port;
	for (size_t k = 0; k < enrolled; k++) {              /* rule 1 */
		choice c = next_file(z, k, last, flags);
		if (c.need && z->X[k] < T + (double)(c.need + 1) * in->c) {
			*ch = c;
			return k;
		}
	}
	if (enrolled < in->p) {                              /* rule 2 */
		*ch = next_file(z, enrolled, last, flags);
		return enrolled;
	}
	size_t best = in->p;                                 /* rule 3 */
	double key = INFINITY;
	for (size_t k = 0; k < enrolled; k++) {
		choice c = next_file(z, k, last, flags);
		double x = z->X[k] - (double)c.need * in->c;
		if (c.need && x < key) {
			key = x;
			best = k;
			*ch = c;
		}
	}
	return best;
}

vproc_status vproc_mw_toy_thrifty(const vproc_mw_toy *in, unsigned flags, double *makespan)
{
	vproc_status st = mw_toy_check(in, makespan);
	mw_toy_state z;
	if (st != VPROC_OK || (st = mw_toy_init(&z, in)) != VPROC_OK)
		return st;
	int *last = vproc_calloc(in->p, sizeof *last);
	if (!last) {
		mw_toy_free(&z);
		return VPROC_ENOMEM;
	}
	size_t enrolled = 0, left = in->r * in->s;
	while (left > 0) {
		choice ch = { 0, 0 };
		size_t k = pick(&z, enrolled, last, flags, &ch);
		if (k == in->p || ch.need == 0)
			break;  /* cannot happen while tasks are unassigned */
		if (k == enrolled)
			enrolled++;
		give(&z, k, ch.f, last);
		left = 0;
		for (size_t n = 0; n < in->r * in->s; n++)
			left += z.owner[n] == in->p;
	}
	*makespan = mw_toy_makespan(&z);
	free(last);
	mw_toy_free(&z);
	return left == 0 ? VPROC_OK : VPROC_EINVAL;
}
