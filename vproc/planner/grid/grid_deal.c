/*
 * grid_deal.c -- alike hosts' machines on the grid (000 s4.3.1).
 *
 * The grid's objective, max r_i t_ij c_j over (sum r)(sum c), sees each
 * cell's cycle time only, never which machine holds it: machines of one
 * cycle time can trade cells and R, C, the panel and the predicted time
 * stay as they are (a transposition of s4.3.3 between equal cycle times,
 * neither "correct" nor harmful).  The arrangement places machines by
 * speed alone, so alike hosts can end up with unequal shares of their
 * cells; this deal gives each host the same number of processes when a
 * split exists.  It is a number partition with k equal parts of m slots:
 * NP-complete in general, but a grid has few distinct R_i C_j, so each
 * host's mix of values is searched, with a budget.
 */
#include <string.h>

#include "planner/internal.h"

#define DEAL_BUDGET 1000000
#define DEAL_MAX_DEPTH 4096   /* recursion levels: hosts x (values + 1) */

typedef struct {
	size_t k, m, D, target;   /* hosts, slots each, distinct values, sum each */
	const size_t *val;        /* [D] the distinct values, decreasing */
	size_t *left;             /* [D] slots of each value not yet given */
	size_t *mix;              /* [k D] slots of each value per host */
	size_t steps, budget;
} deal_search;

/* Whether r slots of values d.. (as many as left) can sum to s: the
 * largest r and the smallest r bound it. */
static int reachable(const deal_search *ds, size_t d, size_t r, size_t s)
{
	size_t hi = 0, lo = 0, need = r;
	for (size_t e = d; e < ds->D && need; e++) {
		size_t a = ds->left[e] < need ? ds->left[e] : need;
		hi += a * ds->val[e];
		need -= a;
	}
	if (need)
		return 0;   /* fewer slots left than r */
	need = r;
	for (size_t e = ds->D; e-- > d && need;) {
		size_t a = ds->left[e] < need ? ds->left[e] : need;
		lo += a * ds->val[e];
		need -= a;
	}
	return lo <= s && s <= hi;
}

static int fill(deal_search *ds, size_t h, size_t d, size_t r, size_t s, int tight);

/* Host h's mix is complete: the next host, or the last one takes the rest
 * (its count and sum follow from the totals). */
static int next_host(deal_search *ds, size_t h)
{
	if (h + 1 == ds->k - 1) {
		memcpy(ds->mix + (ds->k - 1) * ds->D, ds->left, ds->D * sizeof *ds->left);
		return 1;
	}
	return fill(ds, h + 1, 0, ds->m, ds->target, 1);
}

/* Host h takes a slots of value d, then the values after it. */
static int try_count(deal_search *ds, size_t h, size_t d, size_t r, size_t s, int tight,
                     size_t a)
{
	ds->mix[h * ds->D + d] = a;
	ds->left[d] -= a;
	int rc = fill(ds, h, d + 1, r - a, s - a * ds->val[d],
	              tight && ds->mix[(h - 1) * ds->D + d] == a);
	ds->left[d] += a;
	return rc;
}

/* Host h's count of value d and on: 1 found, 0 none, -1 over budget.
 * tight (never for host 0): h's mix so far equals host h-1's, so value
 * d's count is capped by h-1's (the mixes nonincreasing: one order of
 * each split). */
static int fill(deal_search *ds, size_t h, size_t d, size_t r, size_t s, int tight)
{
	if (d == ds->D)
		return r == 0 && s == 0 ? next_host(ds, h) : 0;
	if (++ds->steps > ds->budget)
		return -1;
	if (!reachable(ds, d, r, s))
		return 0;
	size_t v = ds->val[d], hi = ds->left[d] < r ? ds->left[d] : r;
	if (v > 0 && s / v < hi)
		hi = s / v;
	if (tight && ds->mix[(h - 1) * ds->D + d] < hi)
		hi = ds->mix[(h - 1) * ds->D + d];
	/* the even share first, then alternately above and below it: an
	 * even split, when there is one, is the first leaf */
	size_t even = ds->left[d] / (ds->k - h);
	even = even < hi ? even : hi;
	for (size_t off = 0; off <= even || even + off <= hi; off++) {
		int rc = even + off <= hi ? try_count(ds, h, d, r, s, tight, even + off) : 0;
		if (rc == 0 && off > 0 && off <= even)
			rc = try_count(ds, h, d, r, s, tight, even - off);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The distinct values of v, decreasing, and how many slots hold each. */
static size_t distinct(size_t n, const size_t *v, size_t *val, size_t *cnt)
{
	size_t D = 0;
	for (size_t s = 0; s < n; s++) {
		size_t d = 0;
		while (d < D && val[d] > v[s])
			d++;
		if (d < D && val[d] == v[s]) {
			cnt[d]++;
			continue;
		}
		memmove(val + d + 1, val + d, (D - d) * sizeof *val);
		memmove(cnt + d + 1, cnt + d, (D - d) * sizeof *cnt);
		val[d] = v[s];
		cnt[d] = 1;
		D++;
	}
	return D;
}

/* Each value's slots to the hosts in slot order, host 0 first. */
static void assign(const deal_search *ds, size_t n, const size_t *v, size_t *host)
{
	size_t *cur = ds->left;   /* reused: the host now receiving value d */
	memset(cur, 0, ds->D * sizeof *cur);
	for (size_t s = 0; s < n; s++) {
		size_t d = 0;
		while (ds->val[d] != v[s])
			d++;
		while (ds->mix[cur[d] * ds->D + d] == 0)
			cur[d]++;
		ds->mix[cur[d] * ds->D + d]--;
		host[s] = cur[d];
	}
}

static vproc_deal_result search(deal_search *ds)
{
	size_t k = ds->k, D = ds->D;
	int even = 1;
	for (size_t d = 0; d < D; d++)
		even &= ds->left[d] % k == 0;
	if (even) {   /* every value splits evenly: no search, any k */
		for (size_t h = 0; h < k; h++)
			for (size_t d = 0; d < D; d++)
				ds->mix[h * D + d] = ds->left[d] / k;
		return VPROC_DEAL_EQUAL;
	}
	if (k > DEAL_MAX_DEPTH / (D + 1))
		return VPROC_DEAL_BUDGET;
	int rc = fill(ds, 0, 0, ds->m, ds->target, 0);
	return rc > 0 ? VPROC_DEAL_EQUAL : rc < 0 ? VPROC_DEAL_BUDGET : VPROC_DEAL_NO_SPLIT;
}

vproc_status vproc_grid_deal(size_t k, size_t m, const size_t *v, size_t budget, size_t *host,
                             vproc_deal_result *res)
{
	if (k == 0 || m == 0 || v == NULL || host == NULL || res == NULL)
		return VPROC_EINVAL;
	if (k > SIZE_MAX / m)
		return VPROC_ERANGE;
	size_t n = k * m, sum = 0;
	for (size_t s = 0; s < n; s++) {
		if (v[s] > SIZE_MAX - sum)
			return VPROC_ERANGE;
		sum += v[s];
	}
	if (sum % k != 0) {
		*res = VPROC_DEAL_INDIVISIBLE;
		return VPROC_OK;
	}
	size_t *val = vproc_calloc(n, sizeof *val), *left = vproc_calloc(n, sizeof *left);
	deal_search ds = { k, m, 0, sum / k, val, left, NULL, 0, budget ? budget : DEAL_BUDGET };
	vproc_status st = val && left ? VPROC_OK : VPROC_ENOMEM;
	if (st == VPROC_OK) {
		ds.D = distinct(n, v, val, left);
		ds.mix = k > SIZE_MAX / ds.D ? NULL : vproc_calloc(k * ds.D, sizeof *ds.mix);
		st = ds.mix ? VPROC_OK : VPROC_ENOMEM;
	}
	if (st == VPROC_OK) {
		*res = search(&ds);
		if (*res == VPROC_DEAL_EQUAL)
			assign(&ds, n, v, host);
	}
	free(val);
	free(left);
	free(ds.mix);
	return st;
}
