/*
 * ring_exact.c -- the optimal ring, q, order and shares (004 s2 Eq 1, with
 * the max term of notes s1 handled exactly; notes s9.1).
 *
 * Why not the DP alone: Held-Karp minimises D = sum_R C_i/w_i, which is
 * T* up to an affine map for a fixed subset, but T_R = max(T*, H max C_i).
 * When the max term binds for the least-D ring of S, another ring of S (of
 * larger D but smaller max C) can be faster: the notes found 7 such cases
 * in 300 random asymmetric platforms (p <= 7).  (W + H D*(S))/sigma_S stays
 * a lower bound for every ring of S, so the subsets are visited in
 * increasing bound, and only those whose least-D ring is bound by the max
 * term need a search over their rings.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner/internal.h"
#include "ring.h"

typedef struct {
	double lb;
	unsigned long S;
} cand;

static int cand_cmp(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if (x->lb != y->lb)
		return x->lb < y->lb ? -1 : 1;
	return (x->S > y->S) - (x->S < y->S);
}

/* The search over the rings of one subset S (start: its lowest member). */
typedef struct {
	const vproc_ring_platform *pl;
	const vproc_ring_hk *hk;
	unsigned long S;
	size_t q;
	double sigma;     /* sum_S 1/w */
	size_t *path;     /* [q] */
	size_t *best;     /* [q] the best ring found so far, when found */
	double U;         /* the best T over every ring so far (the incumbent) */
	int found;
	unsigned long long *nodes;  /* left of the search's budget (shared) */
} dfs_state;

/* T over every completion of path[0..len-1] is at least this. */
static double dfs_bound(const dfs_state *st, size_t len, unsigned long V, double sumd,
                        double cdone)
{
	const vproc_ring_platform *pl = st->pl;
	size_t p = pl->p, j = st->path[len - 1];
	unsigned long rest = (st->S & ~V) | 1ul << st->path[0] | 1ul << j;
	/* d is symmetric: the least completion j -> rest -> start is the least
	 * path start -> rest -> j, which the table holds. */
	double comp = st->hk->dp[rest * p + j];
	return fmax((pl->W + pl->H * (sumd + comp)) / st->sigma, pl->H * cdone);
}

static void dfs(dfs_state *st, size_t len, unsigned long V, double sumd, double cdone)
{
	const vproc_ring_platform *pl = st->pl;
	size_t p = pl->p;
	if (len == st->q) {
		double T;
		if (vproc_ring_time(pl, st->q, st->path, NULL, &T, NULL) == VPROC_OK && T < st->U) {
			st->U = T;
			st->found = 1;
			memcpy(st->best, st->path, st->q * sizeof *st->path);
		}
		return;
	}
	size_t j = st->path[len - 1];
	for (size_t k = 0; k < p && *st->nodes > 0; k++) {
		if (!(st->S >> k & 1ul) || V >> k & 1ul)
			continue;
		--*st->nodes;
		st->path[len] = k;
		double c2 = cdone;
		if (len >= 2) {   /* j now has both neighbours */
			double Cj = pl->c[j * p + st->path[len - 2]] + pl->c[j * p + k];
			c2 = fmax(c2, Cj);
		}
		double s2 = sumd + st->hk->e[j * p + k];
		if (dfs_bound(st, len + 1, V | 1ul << k, s2, c2) < st->U)
			dfs(st, len + 1, V | 1ul << k, s2, c2);
	}
}

static double sigma_of(const vproc_ring_platform *pl, unsigned long S)
{
	double s = 0.0;
	for (size_t i = 0; i < pl->p; i++)
		if (S >> i & 1ul)
			s += 1.0 / pl->w[i];
	return s;
}

/* H max_i C_i over every ring of S is at least this (|S| >= 3: machine i
 * has two distinct neighbours in S, so C_i is at least the sum of its two
 * cheapest links into S; |S| = 2: C_i is twice its one link). */
static double max_term_bound(const vproc_ring_platform *pl, unsigned long S)
{
	size_t p = pl->p, m = 0;
	for (size_t i = 0; i < p; i++)
		m += S >> i & 1ul;
	double worst = 0.0;
	for (size_t i = 0; i < p; i++) {
		if (!(S >> i & 1ul))
			continue;
		double a = INFINITY, b = INFINITY;   /* the two cheapest links of i */
		for (size_t k = 0; k < p; k++) {
			if (k == i || !(S >> k & 1ul))
				continue;
			double c = pl->c[i * p + k];
			if (c < a) {
				b = a;
				a = c;
			} else if (c < b) {
				b = c;
			}
		}
		double Ci = m == 2 ? 2.0 * a : a + b;
		if (Ci > worst)
			worst = Ci;
	}
	return pl->H * worst;
}

/* The subsets whose bound is below U, in increasing bound. */
static cand *candidates(const vproc_ring_platform *pl, const vproc_ring_hk *hk, double U,
                        size_t *n)
{
	unsigned long full = 1ul << pl->p;
	size_t m = 0;
	for (unsigned long S = 1; S < full; S++)
		if ((S & (S - 1)) && (pl->W + pl->H * hk->len[S]) / sigma_of(pl, S) < U)
			m++;
	cand *c = vproc_calloc(m, sizeof *c);
	if (!c)
		return NULL;
	m = 0;
	for (unsigned long S = 1; S < full; S++) {
		if (!(S & (S - 1)))
			continue;
		double lb = (pl->W + pl->H * hk->len[S]) / sigma_of(pl, S);
		if (lb < U)
			c[m++] = (cand){ lb, S };
	}
	qsort(c, m, sizeof *c, cand_cmp);
	*n = m;
	return c;
}

/* Visit the candidates; best[0..*q-1] and *U hold the incumbent.  When
 * the node budget runs out, *lb is the least bound of the subsets not
 * finished (they come in increasing bound); else -1 (*U is optimal). */
static vproc_status search(const vproc_ring_platform *pl, const vproc_ring_hk *hk,
                           size_t *best, size_t *q, double *U, double *lb)
{
	unsigned long long nodes = VPROC_RING_EXACT_NODES;
	*lb = -1.0;
	size_t n = 0;
	cand *c = candidates(pl, hk, *U, &n);
	size_t *path = vproc_calloc(pl->p, sizeof *path), *tmp = vproc_calloc(pl->p, sizeof *tmp);
	vproc_status st = (c && path && tmp) ? VPROC_OK : VPROC_ENOMEM;
	for (size_t x = 0; st == VPROC_OK && x < n && c[x].lb < *U; x++) {
		if (nodes == 0) {   /* out of budget: S and those after are not done */
			*lb = c[x].lb;
			break;
		}
		size_t m = vproc_ring_hk_cycle(hk, c[x].S, tmp);
		nodes -= nodes < m ? nodes : m;   /* a candidate's ring and time: O(m) */
		double T;
		st = vproc_ring_time(pl, m, tmp, NULL, &T, NULL);
		if (st != VPROC_OK)
			break;
		if (T < *U) {
			*U = T;
			*q = m;
			memcpy(best, tmp, m * sizeof *tmp);
		}
		/* T* binds: the bound is reached (to rounding), S is done */
		if (T <= c[x].lb * (1.0 + 1e-12))
			continue;
		if (max_term_bound(pl, c[x].S) >= *U)
			continue;   /* no ring of S beats the incumbent: no search */
		dfs_state ds = { pl, hk, c[x].S, m, sigma_of(pl, c[x].S), path, tmp, *U, 0, &nodes };
		path[0] = tmp[0];
		dfs(&ds, 1, 1ul << tmp[0], 0.0, 0.0);
		if (ds.found) {
			*U = ds.U;
			*q = m;
			memcpy(best, tmp, m * sizeof *tmp);
		}
		if (nodes == 0) {   /* S's search was cut short */
			*lb = c[x].lb;
			break;
		}
	}
	free(c);
	free(path);
	free(tmp);
	return st;
}

/* A search cut short by its budget keeps vproc_ring_heuristic's ring when
 * that is better.  (As the starting incumbent of every search it did not
 * pay: the exact search at p = 20 took 4x longer, tests/bench/bench_ring.c.) */
static vproc_status heuristic_if_better(const vproc_ring_platform *pl, size_t *best, size_t *q,
                                        double *U)
{
	vproc_ring h;
	vproc_status st = vproc_ring_heuristic(pl, &h);
	if (st != VPROC_OK)
		return st;
	if (h.T < *U) {
		*U = h.T;
		*q = h.q;
		memcpy(best, h.order, h.q * sizeof *best);
	}
	vproc_ring_free(&h);
	return VPROC_OK;
}

vproc_status vproc_ring_exact_hk(const vproc_ring_platform *pl, const vproc_ring_hk *hk,
                                 vproc_ring *out)
{
	memset(out, 0, sizeof *out);
	vproc_status st = vproc_ring_check(pl);
	if (st != VPROC_OK)
		return st;
	if (pl->p > VPROC_RING_EXACT_MAX)
		return VPROC_ERANGE;
	if (hk ? hk->p != pl->p : pl->p >= 2)   /* no table: only p = 1 is solved */
		return VPROC_EINVAL;
	if ((st = vproc_ring_alloc(pl->p, out)) != VPROC_OK)
		return st;
	size_t q = 1;
	out->order[0] = vproc_fastest(pl->p, pl->w);   /* q = 1: the fastest alone */
	double U = pl->W * pl->w[out->order[0]], lb = -1.0;
	if (pl->p >= 2)
		st = search(pl, hk, out->order, &q, &U, &lb);
	if (st == VPROC_OK && lb >= 0.0)
		st = heuristic_if_better(pl, out->order, &q, &U);
	if (st == VPROC_OK)
		st = vproc_ring_set(pl, q, out->order, out);
	if (st != VPROC_OK) {
		vproc_ring_free(out);
		return st;
	}
	out->optimal = lb < 0.0;
	out->lower_bound = lb < 0.0 ? out->T : fmin(lb, out->T);
	return VPROC_OK;
}

vproc_status vproc_ring_exact(const vproc_ring_platform *pl, vproc_ring *out)
{
	vproc_status st = vproc_ring_check(pl);
	if (st != VPROC_OK)
		return st;
	if (pl->p > VPROC_RING_EXACT_MAX)
		return VPROC_ERANGE;
	if (pl->p == 1)
		return vproc_ring_exact_hk(pl, NULL, out);
	size_t p = pl->p;
	double *d = vproc_calloc(p * p, sizeof *d);
	if (!d)
		return VPROC_ENOMEM;
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < p; j++)
			d[i * p + j] = i == j ? 0.0 : vproc_ring_d(pl, i, j);
	vproc_ring_hk hk;
	st = vproc_ring_hk_build(p, d, &hk);
	free(d);
	if (st != VPROC_OK)
		return st;
	st = vproc_ring_exact_hk(pl, &hk, out);
	vproc_ring_hk_free(&hk);
	return st;
}
