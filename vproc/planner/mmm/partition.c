/*
 * partition.c -- what every rectangle partition of the unit square shares
 * (001 s3): the areas, the lower bound of Lemma 1, the cost, the tiling
 * check.
 */
#include <math.h>
#include <stdlib.h>

#include "mmm.h"

void vproc_mmm_partition_free(vproc_mmm_partition *part)
{
	if (!part)
		return;
	free(part->rect);
	free(part->col_count);
	free(part->node);
	part->rect = NULL;
	part->col_count = NULL;
	part->node = NULL;
}

vproc_status vproc_mmm_areas(size_t p, const double *t, double *s)
{
	if (p == 0 || !t || !s)
		return VPROC_EINVAL;
	double sum = 0.0;
	for (size_t i = 0; i < p; i++) {
		if (!isfinite(t[i]) || t[i] <= 0.0)
			return VPROC_EINVAL;
		sum += 1.0 / t[i];
	}
	for (size_t i = 0; i < p; i++)
		s[i] = (1.0 / t[i]) / sum;
	return VPROC_OK;
}

double vproc_mmm_lower_bound(size_t p, const double *s)
{
	double lb = 0.0;
	for (size_t i = 0; i < p; i++)
		lb += sqrt(s[i]);
	return 2.0 * lb;
}

double vproc_mmm_cost(size_t p, const vproc_mmm_rect *r)
{
	double c = 0.0;
	for (size_t i = 0; i < p; i++)
		c += r[i].w + r[i].h;
	return c;
}

/* Do the interiors of a and b meet (by more than tol)? */
static int overlap(const vproc_mmm_rect *a, const vproc_mmm_rect *b, double tol)
{
	double dx = fmin(a->x + a->w, b->x + b->w) - fmax(a->x, b->x);
	double dy = fmin(a->y + a->h, b->y + b->h) - fmax(a->y, b->y);
	return dx > tol && dy > tol;
}

int vproc_mmm_tiles(size_t p, const vproc_mmm_rect *r, const double *s, double tol)
{
	double area = 0.0;
	for (size_t i = 0; i < p; i++) {
		const vproc_mmm_rect *a = &r[i];
		if (a->w <= 0 || a->h <= 0 || a->x < -tol || a->y < -tol ||
		    a->x + a->w > 1 + tol || a->y + a->h > 1 + tol)
			return 0;
		if (s && fabs(a->w * a->h - s[a->machine]) > tol)
			return 0;
		area += a->w * a->h;
		for (size_t j = 0; j < i; j++)
			if (overlap(a, &r[j], tol))
				return 0;
	}
	/* disjoint interiors inside the square with total area 1: a tiling */
	return fabs(area - 1.0) <= tol;
}

/* ---- helpers of mmm_internal.h ------------------------------------------- */

#include "mmm_internal.h"

vproc_status mmm_partition_alloc(size_t p, vproc_mmm_partition *out)
{
	*out = (vproc_mmm_partition){ .p = p };
	out->rect = calloc(p, sizeof *out->rect);
	out->col_count = calloc(p, sizeof *out->col_count);
	out->node = calloc(2 * p - 1, sizeof *out->node);
	if (!out->rect || !out->col_count || !out->node) {
		vproc_mmm_partition_free(out);
		return VPROC_ENOMEM;
	}
	return VPROC_OK;
}

size_t mmm_node_add(vproc_mmm_partition *part, vproc_mmm_kind kind, size_t machine,
                    size_t first, size_t second, double area)
{
	part->node[part->nnodes] = (vproc_mmm_node){ kind, machine, first, second, area };
	return part->nnodes++;
}

static void place(vproc_mmm_partition *part, size_t at, size_t *k, double x, double y,
                  double w, double h)
{
	const vproc_mmm_node *n = &part->node[at];
	if (n->kind == VPROC_MMM_LEAF) {
		part->rect[(*k)++] = (vproc_mmm_rect){ n->machine, x, y, w, h };
		return;
	}
	double f = part->node[n->first].area / n->area;
	if (n->kind == VPROC_MMM_VCUT) {
		place(part, n->first, k, x, y, w * f, h);
		place(part, n->second, k, x + w * f, y, w - w * f, h);
	} else {
		place(part, n->first, k, x, y, w, h * f);
		place(part, n->second, k, x, y + h * f, w, h - h * f);
	}
}

void mmm_place(vproc_mmm_partition *part, size_t root)
{
	size_t k = 0;
	place(part, root, &k, 0.0, 0.0, 1.0, 1.0);
	part->cost = vproc_mmm_cost(part->p, part->rect);
}

/* Insertion sort: stable, reentrant (no qsort context in C11), and O(p^2)
 * is nothing beside the O(p^3) DP it feeds. */
vproc_status mmm_sort_ascending(size_t p, const double *s, size_t *idx)
{
	for (size_t i = 0; i < p; i++) {
		size_t k = i;
		while (k > 0 && s[idx[k - 1]] > s[i]) {
			idx[k] = idx[k - 1];
			k--;
		}
		idx[k] = i;
	}
	return VPROC_OK;
}

vproc_status mmm_check_areas(size_t p, const double *s)
{
	if (p == 0 || !s)
		return VPROC_EINVAL;
	double sum = 0.0;
	for (size_t i = 0; i < p; i++) {
		if (!isfinite(s[i]) || s[i] <= 0.0)
			return VPROC_EINVAL;
		sum += s[i];
	}
	return fabs(sum - 1.0) <= 1e-9 ? VPROC_OK : VPROC_EINVAL;
}
