/*
 * guillotine.c -- recursive (guillotine) partitions of the unit square
 * (001 s5.4, Fig 9; notes s5.3): better than the column partitions, which
 * are the guillotine trees with one level of vertical cuts.
 *
 * Exact search.  For a fixed tree of cuts, a w x h rectangle costs
 * alpha w + beta h: a vertical cut into parts of areas a1, a2 (a = a1 + a2)
 * gives alpha = (alpha1 a1 + alpha2 a2) / a and beta = beta1 + beta2, a
 * horizontal one the mirror image, a leaf (1, 1).  Since the final cost is a
 * positive combination of every subtree's (alpha, beta), only the vertices
 * of the lower-left convex hull of a subset's pairs can be optimal.  So a
 * DP over subsets keeps those hulls, and the unit square takes the least
 * alpha + beta: exact over every guillotine tree, 3^p splits.
 *
 * Above VPROC_MMM_GUILLOTINE_MAX machines: bisection (cut perpendicular to
 * the longer side, the areas shared as evenly as greedy allows, largest
 * first), with parts of at most VPROC_MMM_GUILLOTINE_LEAF machines solved
 * exactly for their shape.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmm_internal.h"

typedef struct {
	double al, be;
	uint16_t s1;       /* the first part's submask (0: a leaf) */
	uint8_t dir;       /* VPROC_MMM_VCUT or VPROC_MMM_HCUT */
	uint16_t i1, i2;   /* the parts' hull points */
} hpoint;

typedef struct {
	hpoint *pt;
	size_t n, cap;
} hull;

typedef struct {
	size_t m;          /* machines of this subproblem */
	const size_t *mach;/* [m] their indices */
	double *a;         /* [2^m] area of each subset */
	hull *h;           /* [2^m] */
} hdp;

static int push(hull *h, hpoint p)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		hpoint *np = realloc(h->pt, cap * sizeof *np);
		if (!np)
			return -1;
		h->pt = np;
		h->cap = cap;
	}
	h->pt[h->n++] = p;
	return 0;
}

static int by_alpha(const void *x, const void *y)
{
	const hpoint *a = x, *b = y;
	if (a->al != b->al)
		return a->al < b->al ? -1 : 1;
	if (a->be != b->be)
		return a->be < b->be ? -1 : 1;
	/* deterministic: the provenance decides among equal points */
	if (a->s1 != b->s1)
		return a->s1 < b->s1 ? -1 : 1;
	if (a->dir != b->dir)
		return a->dir < b->dir ? -1 : 1;
	if (a->i1 != b->i1)
		return a->i1 < b->i1 ? -1 : 1;
	return (a->i2 > b->i2) - (a->i2 < b->i2);
}

/* Keep the vertices of the lower-left convex hull: alpha increasing, beta
 * strictly decreasing, convex. */
static void compact(hull *h)
{
	qsort(h->pt, h->n, sizeof *h->pt, by_alpha);
	size_t k = 0;
	for (size_t i = 0; i < h->n; i++) {
		hpoint c = h->pt[i];
		if (k > 0 && c.be >= h->pt[k - 1].be)
			continue;   /* dominated */
		while (k >= 2) {
			const hpoint *o = &h->pt[k - 2], *b = &h->pt[k - 1];
			double cr = (b->al - o->al) * (c.be - o->be) - (b->be - o->be) * (c.al - o->al);
			if (cr > 0)
				break;
			k--;   /* b is on or above the segment o-c */
		}
		h->pt[k++] = c;
	}
	h->n = k;
}

/* Every split of mask (the first part holding its lowest machine) in both
 * directions. */
static int solve_mask(hdp *g, unsigned mask)
{
	hull *h = &g->h[mask];
	double a = g->a[mask];
	unsigned low = mask & -mask, rest = mask ^ low;
	/* s1 = low | any proper subset of rest */
	for (unsigned sub = rest;; sub = (sub - 1) & rest) {
		unsigned s1 = low | sub, s2 = mask ^ s1;
		if (s2) {
			const hull *h1 = &g->h[s1], *h2 = &g->h[s2];
			double a1 = g->a[s1], a2 = g->a[s2];
			for (size_t i = 0; i < h1->n; i++)
				for (size_t j = 0; j < h2->n; j++) {
					const hpoint *p1 = &h1->pt[i], *p2 = &h2->pt[j];
					hpoint v = { (p1->al * a1 + p2->al * a2) / a, p1->be + p2->be,
					             (uint16_t)s1, VPROC_MMM_VCUT, (uint16_t)i, (uint16_t)j };
					hpoint w = { p1->al + p2->al, (p1->be * a1 + p2->be * a2) / a,
					             (uint16_t)s1, VPROC_MMM_HCUT, (uint16_t)i, (uint16_t)j };
					if (push(h, v) < 0 || push(h, w) < 0)
						return -1;
				}
			if (h->n > 4096)
				compact(h);
		}
		if (sub == 0)
			break;
	}
	compact(h);
	return 0;
}

static void hdp_free(hdp *g)
{
	if (g->h)
		for (size_t k = 0; k < ((size_t)1 << g->m); k++)
			free(g->h[k].pt);
	free(g->h);
	free(g->a);
}

static vproc_status hdp_run(hdp *g, const double *s)
{
	size_t n = (size_t)1 << g->m;
	g->a = calloc(n, sizeof *g->a);
	g->h = calloc(n, sizeof *g->h);
	if (!g->a || !g->h)
		return VPROC_ENOMEM;
	for (unsigned mask = 1; mask < n; mask++) {
		unsigned low = mask & -mask;
		size_t bit = 0;
		while (!((low >> bit) & 1u))
			bit++;
		g->a[mask] = g->a[mask ^ low] + s[g->mach[bit]];
		if (mask == low) {
			if (push(&g->h[mask], (hpoint){ 1.0, 1.0, 0, 0, 0, 0 }) < 0)
				return VPROC_ENOMEM;
		} else if (solve_mask(g, mask) < 0) {
			return VPROC_ENOMEM;
		}
	}
	return VPROC_OK;
}

/* The tree of hull point k of mask, as nodes of part. */
static size_t rebuild(const hdp *g, unsigned mask, size_t k, vproc_mmm_partition *part)
{
	const hpoint *pt = &g->h[mask].pt[k];
	if (pt->s1 == 0) {
		size_t bit = 0;
		while (!((mask >> bit) & 1u))
			bit++;
		return mmm_node_add(part, VPROC_MMM_LEAF, g->mach[bit], 0, 0, g->a[mask]);
	}
	size_t a = rebuild(g, pt->s1, pt->i1, part);
	size_t b = rebuild(g, mask ^ pt->s1, pt->i2, part);
	return mmm_node_add(part, (vproc_mmm_kind)pt->dir, 0, a, b, g->a[mask]);
}

/* The best guillotine tree of the m machines mach[] in a w x h rectangle. */
static vproc_status exact_part(const double *s, const size_t *mach, size_t m, double w, double h,
                               vproc_mmm_partition *part, size_t *root)
{
	hdp g = { .m = m, .mach = mach };
	vproc_status st = hdp_run(&g, s);
	if (st == VPROC_OK) {
		const hull *top = &g.h[((size_t)1 << m) - 1];
		size_t best = 0;
		for (size_t k = 1; k < top->n; k++)
			if (top->pt[k].al * w + top->pt[k].be * h <
			    top->pt[best].al * w + top->pt[best].be * h)
				best = k;
		*root = rebuild(&g, (unsigned)(((size_t)1 << m) - 1), best, part);
	}
	hdp_free(&g);
	return st;
}

/* Bisection: split mach[] (sorted by area descending) into two groups of
 * nearly equal area, cut perpendicular to the longer side. */
static vproc_status bisect(const double *s, size_t *mach, size_t m, double w, double h,
                           vproc_mmm_partition *part, size_t *root)
{
	if (m <= VPROC_MMM_GUILLOTINE_LEAF)
		return exact_part(s, mach, m, w, h, part, root);
	size_t *g1 = malloc(m * sizeof *g1), *g2 = malloc(m * sizeof *g2), n1 = 0, n2 = 0;
	if (!g1 || !g2) {
		free(g1);
		free(g2);
		return VPROC_ENOMEM;
	}
	double a1 = 0.0, a2 = 0.0;
	for (size_t k = 0; k < m; k++) {   /* largest first, to the lighter group */
		if (a1 <= a2) {
			g1[n1++] = mach[k];
			a1 += s[mach[k]];
		} else {
			g2[n2++] = mach[k];
			a2 += s[mach[k]];
		}
	}
	double f = a1 / (a1 + a2);
	int vcut = w >= h;
	size_t r1 = 0, r2 = 0;
	vproc_status st = bisect(s, g1, n1, vcut ? w * f : w, vcut ? h : h * f, part, &r1);
	if (st == VPROC_OK)
		st = bisect(s, g2, n2, vcut ? w - w * f : w, vcut ? h : h - h * f, part, &r2);
	if (st == VPROC_OK)
		*root = mmm_node_add(part, vcut ? VPROC_MMM_VCUT : VPROC_MMM_HCUT, 0, r1, r2, a1 + a2);
	free(g1);
	free(g2);
	return st;
}

vproc_status vproc_mmm_guillotine(size_t p, const double *s, vproc_mmm_partition *out)
{
	vproc_status st = mmm_check_areas(p, s);
	if (st != VPROC_OK)
		return st;
	size_t *mach = malloc(p * sizeof *mach), root = 0;
	if (!mach)
		return VPROC_ENOMEM;
	if ((st = mmm_partition_alloc(p, out)) != VPROC_OK) {
		free(mach);
		return st;
	}
	/* descending areas, ties by index: reverse of the ascending order,
	 * with equal areas kept in index order */
	size_t *asc = malloc(p * sizeof *asc);
	if (!asc) {
		free(mach);
		vproc_mmm_partition_free(out);
		return VPROC_ENOMEM;
	}
	mmm_sort_ascending(p, s, asc);
	for (size_t i = 0, k = 0; i < p; i = k) {
		for (k = i; k < p && s[asc[k]] == s[asc[i]]; k++)
			;
		/* the group asc[i..k) goes, in index order, to the end - k slot */
		for (size_t j = i; j < k; j++)
			mach[p - k + (j - i)] = asc[j];
	}
	free(asc);
	out->algorithm = VPROC_MMM_GUILLOTINE;
	out->exact = p <= VPROC_MMM_GUILLOTINE_MAX;
	if (p <= VPROC_MMM_GUILLOTINE_MAX)
		st = exact_part(s, mach, p, 1.0, 1.0, out, &root);
	else
		st = bisect(s, mach, p, 1.0, 1.0, out, &root);
	free(mach);
	if (st != VPROC_OK) {
		vproc_mmm_partition_free(out);
		return st;
	}
	mmm_place(out, root);
	return VPROC_OK;
}

vproc_status vproc_mmm_best(size_t p, const double *s, vproc_mmm_partition *out)
{
	vproc_mmm_partition col, gui;
	vproc_status st = vproc_mmm_columns(p, s, &col);
	if (st != VPROC_OK)
		return st;
	if ((st = vproc_mmm_guillotine(p, s, &gui)) != VPROC_OK) {
		vproc_mmm_partition_free(&col);
		return st;
	}
	/* ties (and rounding-level differences) to the paper's columns */
	if (gui.cost < col.cost - 1e-12 * col.cost) {
		*out = gui;
		vproc_mmm_partition_free(&col);
	} else {
		*out = col;
		vproc_mmm_partition_free(&gui);
	}
	return VPROC_OK;
}
