/*
 * select.c -- the predicted time of an integer plan and the choice of the
 * machines (notes s4 "Cost model", s5.2).
 *
 * Each of the nb steps of the outer product costs the largest compute,
 * max_i t_i H_i W_i block updates, plus beta per block received: the blocks
 * of A and B a rectangle lacks, sum_i (H_i + W_i) - 2 nb (owners keep their
 * own pieces, 001 s3.2).  A slow machine costs communication (its
 * rectangle's half-perimeter) for little compute, so dropping the slowest
 * can pay: on Fig 11's platform, dropping the two speed-1 machines lowers
 * C^ from 5.08 to 4.40 (notes s5.2).
 */
#include <math.h>
#include <stdlib.h>

#include "mmm_internal.h"

double vproc_mmm_predict(const vproc_mmm_plan *plan, double beta)
{
	double nb = (double)plan->nb;
	return nb * (plan->max_load + beta * ((double)plan->half_perimeter - 2.0 * nb));
}

double vproc_mmm_bytes(const vproc_mmm_plan *plan, size_t r)
{
	double nb = (double)plan->nb;
	return 8.0 * (double)r * (double)r * nb * ((double)plan->half_perimeter - 2.0 * nb);
}

void vproc_mmm_choice_free(vproc_mmm_choice *c)
{
	if (!c)
		return;
	free(c->machine);
	free(c->predicted_k);
	vproc_mmm_partition_free(&c->part);
	vproc_mmm_plan_free(&c->plan);
	c->machine = NULL;
	c->predicted_k = NULL;
}

/* Partition and plan for the machines fast[0..k) (indices into t). */
static vproc_status plan_k(size_t k, const size_t *fast, const double *t, int alg, size_t nb,
                           vproc_mmm_partition *part, vproc_mmm_plan *plan)
{
	double *tk = malloc(k * sizeof *tk), *s = malloc(k * sizeof *s);
	vproc_status st = tk && s ? VPROC_OK : VPROC_ENOMEM;
	for (size_t i = 0; st == VPROC_OK && i < k; i++)
		tk[i] = t[fast[i]];
	if (st == VPROC_OK)
		st = vproc_mmm_areas(k, tk, s);
	if (st == VPROC_OK)
		st = alg == VPROC_MMM_COLUMNS ? vproc_mmm_columns(k, s, part)
		   : alg == VPROC_MMM_GUILLOTINE ? vproc_mmm_guillotine(k, s, part)
		   : vproc_mmm_best(k, s, part);
	if (st == VPROC_OK) {
		st = vproc_mmm_blocks(part, tk, nb, plan);
		if (st != VPROC_OK)
			vproc_mmm_partition_free(part);
	}
	if (st == VPROC_OK) {
		/* back to the caller's indices */
		for (size_t i = 0; i < k; i++) {
			part->rect[i].machine = fast[part->rect[i].machine];
			plan->blk[i].machine = fast[plan->blk[i].machine];
		}
		for (size_t i = 0; i < part->nnodes; i++)
			if (part->node[i].kind == VPROC_MMM_LEAF)
				part->node[i].machine = fast[part->node[i].machine];
	}
	free(tk);
	free(s);
	return st;
}

vproc_status vproc_mmm_select(size_t p, const double *t, int alg, size_t nb, double beta,
                              int drop, vproc_mmm_choice *out)
{
	if (p == 0 || !t || !out || nb == 0 || !(beta >= 0.0) || !isfinite(beta))
		return VPROC_EINVAL;
	for (size_t i = 0; i < p; i++)
		if (!isfinite(t[i]) || t[i] <= 0.0)
			return VPROC_EINVAL;
	*out = (vproc_mmm_choice){ 0 };
	out->machine = malloc(p * sizeof *out->machine);
	out->predicted_k = malloc(p * sizeof *out->predicted_k);
	if (!out->machine || !out->predicted_k) {
		vproc_mmm_choice_free(out);
		return VPROC_ENOMEM;
	}
	/* fastest first: the areas sorted ascending, reversed, equal ones in
	 * index order */
	double *inv = malloc(p * sizeof *inv);
	size_t *asc = malloc(p * sizeof *asc);
	if (!inv || !asc) {
		free(inv);
		free(asc);
		vproc_mmm_choice_free(out);
		return VPROC_ENOMEM;
	}
	for (size_t i = 0; i < p; i++)
		inv[i] = t[i];   /* ascending cycle time = fastest first */
	mmm_sort_ascending(p, inv, asc);
	for (size_t i = 0; i < p; i++)
		out->machine[i] = asc[i];
	free(inv);
	free(asc);

	vproc_status st = VPROC_OK;
	size_t best = 0;
	for (size_t k = drop ? 1 : p; k <= p; k++) {
		vproc_mmm_partition part;
		vproc_mmm_plan plan;
		vproc_status s = plan_k(k, out->machine, t, alg, nb, &part, &plan);
		if (s == VPROC_ERANGE) {
			out->predicted_k[k - 1] = INFINITY;
			continue;
		}
		if (s != VPROC_OK) {
			st = s;
			break;
		}
		double T = vproc_mmm_predict(&plan, beta);
		out->predicted_k[k - 1] = T;
		/* ties: more machines (a later k wins when not worse) */
		if (best == 0 || T <= out->predicted * (1 + 1e-12)) {
			if (best) {
				vproc_mmm_partition_free(&out->part);
				vproc_mmm_plan_free(&out->plan);
			}
			best = k;
			out->part = part;
			out->plan = plan;
			out->predicted = T;
		} else {
			vproc_mmm_partition_free(&part);
			vproc_mmm_plan_free(&plan);
		}
	}
	for (size_t k = 0; k + 1 < (drop ? 1 : p); k++)
		out->predicted_k[k] = NAN;   /* not evaluated: every machine kept */
	if (st == VPROC_OK && best == 0)
		st = VPROC_ERANGE;   /* nb too small even for one machine: impossible */
	if (st != VPROC_OK) {
		vproc_mmm_choice_free(out);
		return st;
	}
	out->used = best;
	return VPROC_OK;
}
