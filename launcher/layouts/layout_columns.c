/*
 * layout_columns.c -- the row of `layout: columns` (paper 001: matrix product
 * on a heterogeneous rectangle partition; vproc/planner/mmm/, notes
 * ../shared/specs/001-mmm-partition.md).  Each machine gets one rectangle
 * of C (and the same pieces of A and B), of area proportional to its speed,
 * minimising the sum of the half-perimeters, which is what every step of
 * the outer product communicates (001 s3).
 * Keys partition (columns | guillotine | auto), select (auto | all),
 * comm_cost; one rank per kept machine, rank k owns blocks[k].
 */
#define _GNU_SOURCE   /* asprintf */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns_grid.h"
#include "layout.h"
#include "planner/mmm/mmm.h"

/* The order of partition's values in keys.c (hl_cfg_key reads their
 * index), then a list of columns given by machine names. */
enum { PART_COLUMNS, PART_GUILLOTINE, PART_AUTO, PART_GIVEN };
enum { SELECT_AUTO, SELECT_ALL };   /* the order of select's values in keys.c */

typedef struct {
	int partition, select;
	/* partition: [[m, ...], ...]: the columns given by machine names */
	size_t *given;          /* [nmachines] machine indices, column by column */
	size_t *given_count;    /* [ngiven] machines per column */
	size_t ngiven;
} col_cfg;

/* What plan_columns computes (plan->ext). */
typedef struct {
	vproc_mmm_choice ch;    /* the plan: kept machines, partition, blocks */
	vproc_mmm_choice base;  /* the baseline PDGEMM's geometry: P x Q equal (part, plan) */
	double base_load;       /* its largest load with the true cycle times */
	double base_predicted;
	double lb;              /* 2 sum sqrt(s_i) over the kept machines */
	/* Kalinov-Lastovetsky: every machine on a P x Q grid, by decreasing
	 * speed column by column, widths and heights by speed (a column
	 * partition with Q equal columns); the best Q.  0 columns: none fits. */
	size_t kl_P, kl_Q;
	double kl_cost, kl_predicted;
	/* Paper 000's 2D panel plan (layout 2d's) as rectangles; has_grid2d 0:
	 * layout 2d refuses these machines. */
	hl_columns_grid grid2d;
	int has_grid2d;
	size_t nb;              /* blocks a side: n / nb */
} col_plan;

/* ---- config ------------------------------------------------------------- */

static col_cfg *ccfg(hl_config *cfg)
{
	if (!cfg->layout_cfg)
		cfg->layout_cfg = calloc(1, sizeof(col_cfg));   /* defaults: check_columns */
	return cfg->layout_cfg;
}

static int load_key_columns(hl_config *cfg, const char *key, const yt_node *v, diag *d)
{
	col_cfg *c = ccfg(cfg);
	if (!c)
		return -1;
	if (strcmp(key, "partition") == 0) {
		if (v->kind == YT_SEQ) {   /* a list of columns: read by check_columns */
			c->partition = PART_GIVEN;
			return 0;
		}
		return hl_cfg_key(d, HL_KS_TOP, key, v, &c->partition);
	}
	if (strcmp(key, "select") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &c->select);
	return hl_cfg_key(d, HL_KS_TOP, key, v, &cfg->comm_cost);   /* comm_cost */
}

/* partition: [[name, ...], ...]: every machine in exactly one column. */
static int load_given(hl_config *cfg, col_cfg *c, const yt_node *v, diag *d)
{
	size_t p = cfg->nmachines, at = 0;
	c->given = calloc(p, sizeof *c->given);
	c->given_count = calloc(v->n ? v->n : 1, sizeof *c->given_count);
	unsigned char *seen = calloc(p, 1);
	int rc = c->given && c->given_count && seen ? 0 : -1;
	for (size_t j = 0; rc == 0 && j < v->n; j++) {
		const yt_node *col = v->items[j];
		if (col->kind != YT_SEQ || col->n == 0) {
			diag_error(d, col->line, col->col, "partition: each column is a non-empty list "
			           "of machine names");
			rc = -1;
			break;
		}
		for (size_t k = 0; rc == 0 && k < col->n; k++) {
			const yt_node *m = col->items[k];
			size_t i = p;
			for (size_t q = 0; m->kind == YT_SCALAR && q < p; q++)
				if (strcmp(cfg->machines[q].name, m->value) == 0)
					i = q;
			if (i == p || seen[i]) {
				diag_error(d, m->line, m->col, "partition: \"%s\" %s", m->kind == YT_SCALAR ?
				           m->value : "(not a name)", i == p ? "is not a machine of this list"
				                                             : "is in two columns");
				rc = -1;
			} else {
				seen[i] = 1;
				c->given[at++] = i;
			}
		}
		c->given_count[j] = col->n;
	}
	c->ngiven = v->n;
	if (rc == 0 && at != p) {
		for (size_t i = 0; i < p; i++)
			if (!seen[i]) {
				diag_error(d, v->line, v->col, "partition: machine %s is in no column",
				           cfg->machines[i].name);
				break;
			}
		rc = -1;
	}
	free(seen);
	return rc;
}

/* Where machine m's speed (or cycle_time) is written; its entry if not. */
static hl_loc speed_loc(const yt_node *root, const hl_machine *m)
{
	const yt_node *ms = hl_cfg_get(root, "machines");
	const yt_node *e = ms && ms->kind == YT_SEQ && m->entry < ms->n ? ms->items[m->entry] : NULL;
	const yt_node *v = hl_cfg_get(e, m->speed > 0 ? "speed" : "cycle_time");
	return v ? (hl_loc){ v->line, v->col } : m->loc;
}

/* Each machine's rectangle has the area 1/t_i over the sum of 1/t_j (001
 * s3): it must be a positive double, or the partition has no meaning.
 * Speeds 1e300 and 1e-300 give the slow one 1e-600 (zero); speeds near
 * DBL_MAX make the sum infinite and every share zero. */
static int check_shares(const hl_config *cfg, const yt_node *root, diag *d)
{
	size_t slow = 0, fast = 0;
	double sum = 0.0;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		double t = cfg->machines[i].cycle_time;
		sum += 1.0 / t;
		slow = t > cfg->machines[slow].cycle_time ? i : slow;
		fast = t < cfg->machines[fast].cycle_time ? i : fast;
	}
	double tmax = cfg->machines[slow].cycle_time, tmin = cfg->machines[fast].cycle_time;
	if (isfinite(sum) && 1.0 / tmax / sum >= DBL_MIN)
		return 0;
	const hl_machine *m = &cfg->machines[isfinite(sum) ? slow : fast];
	hl_loc at = speed_loc(root, m);
	if (!isfinite(sum))
		diag_error(d, at.line, at.col, "%s: cycle time %g: the sum of 1/t over the machines "
		           "overflows, and layout: columns sizes each machine's rectangle by 1/t "
		           "over that sum", m->name, tmin);
	else
		diag_error(d, at.line, at.col, "%s: cycle times %g (%s) to %g (%s) are too far apart "
		           "for layout: columns: the slowest machine's share of the matrix, 1/t over "
		           "the sum of 1/t, is not a positive double (keep the speeds within a factor "
		           "of about 1e300)", m->name, tmin, cfg->machines[fast].name, tmax, m->name);
	return -1;
}

static int check_columns(hl_config *cfg, const yt_node *root, diag *d)
{
	col_cfg *c = ccfg(cfg);
	if (!c)
		return -1;
	int rc = 0;
	const yt_node *kv = hl_cfg_get(root, "kernel"), *nv = hl_cfg_get(root, "n");
	const yt_node *pv = hl_cfg_get(root, "partition");
	if (pv && pv->kind == YT_SEQ && load_given(cfg, c, pv, d) < 0)
		rc = -1;
	if (!hl_cfg_get(root, "partition"))
		c->partition = PART_AUTO;
	if (!hl_cfg_get(root, "select"))
		c->select = SELECT_AUTO;
	if (!kv)
		cfg->kernel = HL_KERNEL_MMM;
	else if (cfg->kernel != HL_KERNEL_MMM && cfg->kernel != HL_KERNEL_EXEC) {
		diag_error(d, kv->line, kv->col, "layout: columns runs kernel: mmm (or exec), not %s",
		           hl_kernel_name(cfg->kernel));
		rc = -1;
	}
	if (cfg->nsizes > 1) {
		diag_error(d, nv->line, nv->col, "layout: columns takes one size n, not a list");
		rc = -1;
	}
	/* Every kept machine owns at least one nb x nb block (001 s5: a
	 * rectangle of positive area), so with select: all the (n/nb)^2 blocks
	 * must be at least the machines: refused here, at n, so that no
	 * command (calibrate, which plans no columns, included) starts a job
	 * for a file whose plan cannot exist.  Rarer infeasible partitions are
	 * refused by plan_columns, also at n. */
	size_t side = cfg->nb ? cfg->n / cfg->nb : 0;
	if (rc == 0 && c->select == SELECT_ALL && side * side < cfg->nmachines) {
		const yt_node *at = nv ? nv : root;
		diag_error(d, at->line, at->col, "n/nb = %zu blocks a side are too few to give each "
		           "of the %zu machines a block (raise n or lower nb)", side, cfg->nmachines);
		rc = -1;
	}
	if (cfg->nmachines > 0 && check_shares(cfg, root, d) < 0)
		rc = -1;
	if (cfg->n % cfg->nb != 0) {
		const yt_node *at = nv ? nv : root;
		diag_error(d, at->line, at->col, "n = %zu is not a multiple of nb = %zu (the "
		           "rectangles are made of whole nb x nb blocks)", cfg->n, cfg->nb);
		rc = -1;
	}
	return rc;
}

static void free_config_columns(hl_config *cfg)
{
	col_cfg *c = cfg->layout_cfg;
	if (c) {
		free(c->given);
		free(c->given_count);
	}
	free(cfg->layout_cfg);
	cfg->layout_cfg = NULL;
}

/* ---- plan ----------------------------------------------------------------- */

static void free_plan_columns(hl_plan *plan)
{
	col_plan *x = plan->ext;
	if (x) {
		vproc_mmm_choice_free(&x->ch);
		vproc_mmm_choice_free(&x->base);
		hl_columns_grid_free(&x->grid2d);
	}
	free(x);
	plan->ext = NULL;
}

/* The baseline a user would run without us: stock PDGEMM
 * (hl-driver mm), one process per machine on a P x Q grid as square as
 * possible, P <= Q, P Q = p, ranks row-major in list order. */
static void baseline_grid(size_t p, size_t *P, size_t *Q)
{
	*P = 1;
	for (size_t d = 1; d * d <= p; d++)
		if (p % d == 0)
			*P = d;
	*Q = p / *P;
}

/* Its predicted time: a 2D block-cyclic C gives each process n^2/(P Q)
 * of C and, per step, the pieces of one block row and column a (1/P) x
 * (1/Q) rectangle needs: the volume of Q equal columns of P equal
 * rectangles (notes s4, "Cost model"), its load set by the slowest. */
static vproc_status plan_baseline(size_t p, const double *t, size_t nb, double beta, col_plan *x)
{
	size_t P, Q;
	baseline_grid(p, &P, &Q);
	double *s = malloc(p * sizeof *s), *one = malloc(p * sizeof *one);
	size_t *idx = malloc(p * sizeof *idx), *count = malloc(Q * sizeof *count);
	vproc_status st = VPROC_ENOMEM;
	if (s && one && idx && count) {
		for (size_t i = 0; i < p; i++)
			s[i] = 1.0 / (double)p, one[i] = 1.0, idx[i] = i;
		for (size_t j = 0; j < Q; j++)
			count[j] = P;
		st = vproc_mmm_columns_fixed(p, s, idx, Q, count, &x->base.part);
		if (st == VPROC_OK)
			st = vproc_mmm_blocks(&x->base.part, one, nb, &x->base.plan);
	}
	free(s), free(one), free(idx), free(count);
	if (st != VPROC_OK)
		return st;
	for (size_t i = 0; i < p; i++) {
		const vproc_mmm_block *b = &x->base.plan.blk[i];
		x->base_load = fmax(x->base_load, t[b->machine] * (double)(b->rows * b->cols));
	}
	vproc_mmm_plan tmp = x->base.plan;
	tmp.max_load = x->base_load;
	x->base_predicted = vproc_mmm_predict(&tmp, beta);
	return VPROC_OK;
}

/* The Kalinov-Lastovetsky partition for the grid shape P x Q (notes s4: it
 * is a column partition): its cost and predicted time, or -1. */
static int kl_shape(size_t p, const double *t, const double *s, const size_t *fast, size_t Q,
                    size_t nb, double beta, double *cost, double *pred)
{
	size_t *count = malloc(Q * sizeof *count);
	vproc_mmm_partition part;
	vproc_mmm_plan plan;
	int rc = -1;
	if (!count)
		return -1;
	for (size_t j = 0; j < Q; j++)
		count[j] = p / Q;
	if (vproc_mmm_columns_fixed(p, s, fast, Q, count, &part) == VPROC_OK) {
		if (vproc_mmm_blocks(&part, t, nb, &plan) == VPROC_OK) {
			*cost = part.cost;
			*pred = vproc_mmm_predict(&plan, beta);
			vproc_mmm_plan_free(&plan);
			rc = 0;
		}
		vproc_mmm_partition_free(&part);
	}
	free(count);
	return rc;
}

/* The best Kalinov-Lastovetsky grid over the divisors Q of p: the least
 * predicted time (ties: the smaller Q). */
static void plan_kl(size_t p, const double *t, size_t nb, double beta, col_plan *x)
{
	double *s = malloc(p * sizeof *s);
	size_t *fast = malloc(p * sizeof *fast);
	if (s && fast && vproc_mmm_areas(p, t, s) == VPROC_OK) {
		for (size_t i = 0; i < p; i++) {   /* by decreasing speed, stable */
			size_t k = i;
			while (k > 0 && t[fast[k - 1]] > t[i]) {
				fast[k] = fast[k - 1];
				k--;
			}
			fast[k] = i;
		}
		for (size_t Q = 1; Q <= p; Q++) {
			double c, T;
			if (p % Q == 0 && kl_shape(p, t, s, fast, Q, nb, beta, &c, &T) == 0 &&
			    (x->kl_Q == 0 || T < x->kl_predicted * (1 - 1e-12))) {
				x->kl_P = p / Q;
				x->kl_Q = Q;
				x->kl_cost = c;
				x->kl_predicted = T;
			}
		}
	}
	free(s);
	free(fast);
}

/* partition: [[...], ...]: that column partition of every machine. */
static vproc_status plan_given(const col_cfg *c, size_t p, const double *t, size_t nb, double beta,
                               vproc_mmm_choice *ch)
{
	*ch = (vproc_mmm_choice){ .used = p };
	double *s = malloc(p * sizeof *s);
	ch->machine = malloc(p * sizeof *ch->machine);
	ch->predicted_k = malloc(p * sizeof *ch->predicted_k);
	vproc_status st = s && ch->machine && ch->predicted_k ? VPROC_OK : VPROC_ENOMEM;
	if (st == VPROC_OK)
		st = vproc_mmm_areas(p, t, s);
	if (st == VPROC_OK)
		st = vproc_mmm_columns_fixed(p, s, c->given, c->ngiven, c->given_count, &ch->part);
	if (st == VPROC_OK && (st = vproc_mmm_blocks(&ch->part, t, nb, &ch->plan)) != VPROC_OK)
		vproc_mmm_partition_free(&ch->part);
	free(s);
	if (st != VPROC_OK) {
		free(ch->machine);
		free(ch->predicted_k);
		*ch = (vproc_mmm_choice){ 0 };
		return st;
	}
	for (size_t k = 0; k < p; k++) {
		ch->machine[k] = c->given[k];
		ch->predicted_k[k] = NAN;
	}
	ch->predicted = vproc_mmm_predict(&ch->plan, beta);
	ch->predicted_k[p - 1] = ch->predicted;
	return VPROC_OK;
}

/* A plan that failed keeps nothing (the caller frees only plans that
 * succeeded). */
static int plan_failed(hl_plan *plan)
{
	free_plan_columns(plan);
	free(plan->t);
	plan->t = NULL;
	return -1;
}

static int plan_columns(const hl_config *cfg, diag *d, hl_plan *plan)
{
	const col_cfg *c = cfg->layout_cfg;
	size_t p = cfg->nmachines;
	col_plan *x = calloc(1, sizeof *x);
	plan->t = malloc(p * sizeof *plan->t);
	plan->ext = x;
	if (!x || !plan->t) {
		diag_error(d, 0, 0, "out of memory");
		return plan_failed(plan);
	}
	double tmin = INFINITY;
	for (size_t i = 0; i < p; i++) {
		plan->t[i] = cfg->machines[i].cycle_time;
		tmin = fmin(tmin, plan->t[i]);
	}
	/* comm_cost: one nb x nb block received, in block updates at cycle time 1;
	 * default: as long as the fastest machine's update (as layout: 2d) */
	plan->beta = cfg->comm_cost > 0 ? cfg->comm_cost : tmin;
	x->nb = cfg->n / cfg->nb;
	plan->M = x->nb;
	int alg = c->partition == PART_COLUMNS ? VPROC_MMM_COLUMNS
	        : c->partition == PART_GUILLOTINE ? VPROC_MMM_GUILLOTINE : -1;
	vproc_status st = c->partition == PART_GIVEN
	        ? plan_given(c, p, plan->t, x->nb, plan->beta, &x->ch)
	        : vproc_mmm_select(p, plan->t, alg, x->nb, plan->beta, c->select == SELECT_AUTO, &x->ch);
	if (st == VPROC_OK)
		st = plan_baseline(p, plan->t, x->nb, plan->beta, x);
	if (st == VPROC_OK)
		plan_kl(p, plan->t, x->nb, plan->beta, x);
	if (st == VPROC_OK) {
		int g = hl_columns_grid_plan(cfg, plan->beta, &x->grid2d);
		if (g < 0)
			st = VPROC_ENOMEM;
		x->has_grid2d = g == 0;
	}
	if (st == VPROC_ERANGE) {
		diag_error(d, cfg->n_loc.line, cfg->n_loc.col, "n/nb = %zu blocks a side are too "
		           "few to give each of the %zu machines a block (raise n or lower nb)",
		           x->nb, p);
		return plan_failed(plan);
	}
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "planning the partition failed: %s", vproc_strerror(st));
		return plan_failed(plan);
	}
	double *s = malloc(p * sizeof *s), *tk = malloc(p * sizeof *tk);
	if (!s || !tk) {
		free(s);
		free(tk);
		diag_error(d, 0, 0, "out of memory");
		return plan_failed(plan);
	}
	for (size_t k = 0; k < x->ch.used; k++)
		tk[k] = plan->t[x->ch.machine[k]];
	vproc_mmm_areas(x->ch.used, tk, s);
	x->lb = vproc_mmm_lower_bound(x->ch.used, s);
	free(s);
	free(tk);
	return 0;
}

/* ---- ranks ---------------------------------------------------------------- */

static int ranks_of(const vproc_mmm_plan *pl, hl_ranks *r)
{
	memset(r, 0, sizeof *r);
	r->nprow = 1;
	r->npcol = pl->p;
	r->nranks = pl->p;
	r->machine = calloc(pl->p, sizeof *r->machine);
	if (!r->machine)
		return -1;
	for (size_t k = 0; k < pl->p; k++)
		r->machine[k] = pl->blk[k].machine;
	return 0;
}

static int ranks_columns(const hl_plan *plan, hl_ranks *r)
{
	return ranks_of(&((const col_plan *)plan->ext)->ch.plan, r);
}

static int ranks_columns_baseline(const hl_plan *plan, hl_ranks *r)
{
	size_t p = ((const col_plan *)plan->ext)->base.plan.p;
	memset(r, 0, sizeof *r);
	baseline_grid(p, &r->nprow, &r->npcol);
	r->nranks = p;
	r->machine = calloc(p, sizeof *r->machine);
	if (!r->machine)
		return -1;
	for (size_t k = 0; k < p; k++)
		r->machine[k] = k;
	return 0;
}

static double speedup_columns(const hl_plan *plan)
{
	const col_plan *x = plan->ext;
	return x->ch.predicted > 0 ? x->base_predicted / x->ch.predicted : 0.0;
}

/* ---- words ------------------------------------------------------------------ */

#define PICTURE_W 48
#define PICTURE_H 24

static char rank_letter(size_t k)
{
	static const char L[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	return k < sizeof L - 1 ? L[k] : '#';
}

/* The unit square, each cell showing the rank whose rectangle holds its
 * centre. */
static void picture_square(const vproc_mmm_partition *part, FILE *out)
{
	fprintf(out, "  +");
	for (int j = 0; j < PICTURE_W; j++)
		fputc('-', out);
	fprintf(out, "+\n");
	for (int i = 0; i < PICTURE_H; i++) {
		double y = (i + 0.5) / PICTURE_H;
		fprintf(out, "  |");
		for (int j = 0; j < PICTURE_W; j++) {
			double xx = (j + 0.5) / PICTURE_W;
			char ch = '?';
			for (size_t k = 0; k < part->p; k++) {
				const vproc_mmm_rect *r = &part->rect[k];
				if (xx >= r->x && xx < r->x + r->w && y >= r->y && y < r->y + r->h) {
					ch = rank_letter(k);
					break;
				}
			}
			fputc(ch, out);
		}
		fprintf(out, "|\n");
	}
	fprintf(out, "  +");
	for (int j = 0; j < PICTURE_W; j++)
		fputc('-', out);
	fprintf(out, "+\n");
}

/* The block matrix, one character a block (up to 64 a side; above, a
 * sample of 64 rows and columns). */
static void picture_blocks(const vproc_mmm_plan *pl, FILE *out)
{
	size_t side = pl->nb < 64 ? pl->nb : 64;
	for (size_t i = 0; i < side; i++) {
		size_t row = i * pl->nb / side;
		fprintf(out, "  ");
		for (size_t j = 0; j < side; j++) {
			size_t col = j * pl->nb / side;
			char ch = '?';
			for (size_t k = 0; k < pl->p; k++) {
				const vproc_mmm_block *b = &pl->blk[k];
				if (row >= b->row && row < b->row + b->rows && col >= b->col &&
				    col < b->col + b->cols) {
					ch = rank_letter(k);
					break;
				}
			}
			fputc(ch, out);
		}
		fputc('\n', out);
	}
}

static const char *alg_name(const vproc_mmm_partition *part)
{
	if (part->algorithm == VPROC_MMM_COLUMNS)
		return part->exact ? "columns" : "given";
	return "guillotine";
}

static void text_table(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const col_plan *x = pl->ext;
	int w = hl_plan_name_width(cfg);
	fprintf(out, "  %4s  %-*s  %12s  %8s  %8s  %8s  %8s  %6s  %6s  %6s  %6s  %10s\n", "rank", w,
	        "machine", "cycle_time", "x", "y", "w", "h", "row", "col", "rows", "cols", "load");
	for (size_t k = 0; k < x->ch.used; k++) {
		const vproc_mmm_rect *r = &x->ch.part.rect[k];
		const vproc_mmm_block *b = &x->ch.plan.blk[k];
		fprintf(out, "  %3zu%c  %-*s  %12.6g  %8.5f  %8.5f  %8.5f  %8.5f  %6zu  %6zu  %6zu  "
		        "%6zu  %10.6g\n", k, rank_letter(k), w, cfg->machines[r->machine].name,
		        pl->t[r->machine], r->x, r->y, r->w, r->h, b->row, b->col, b->rows, b->cols,
		        pl->t[b->machine] * (double)(b->rows * b->cols));
	}
}

static void text_columns(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const col_plan *x = pl->ext;
	const vproc_mmm_partition *part = &x->ch.part;
	const vproc_mmm_plan *bp = &x->ch.plan;

	fprintf(out, "hetlaunch plan: %s (%s)\n", cfg->name, cfg->file);
	fprintf(out, "layout columns: %zu of %zu machines, partition %s (%s), %s\n", x->ch.used,
	        cfg->nmachines, alg_name(part),
	        part->exact ? "optimal in its class" : part->algorithm == VPROC_MMM_COLUMNS
	                                               ? "as the file gives it" : "heuristic",
	        part->algorithm == VPROC_MMM_COLUMNS ? "001 s5.1" : "001 s5.4, beyond the paper");
	fprintf(out, "kernel %s, n = %zu, nb = %zu: %zu x %zu blocks, comm_cost = %g\n\n",
	        hl_kernel_name(cfg->kernel), cfg->n, cfg->nb, x->nb, x->nb, pl->beta);
	text_table(pl, out);
	fprintf(out, "\nThe unit square (x to the right, y down; a letter per rank):\n");
	picture_square(part, out);
	fprintf(out, "\nThe block plan (%zu x %zu blocks of %zu x %zu):\n", x->nb, x->nb, cfg->nb,
	        cfg->nb);
	picture_blocks(bp, out);
	if (x->ch.used < cfg->nmachines) {
		fprintf(out, "\nDropped (%zu, the slowest; they lower the predicted time):",
		        cfg->nmachines - x->ch.used);
		for (size_t k = x->ch.used; k < cfg->nmachines; k++)
			fprintf(out, " %s", cfg->machines[x->ch.machine[k]].name);
		fputc('\n', out);
	}
	fprintf(out, "\nCommunication (sum of the half-perimeters, 001 s3):\n");
	fprintf(out, "  %-46s %12.6f\n", "cost C^ of the partition", part->cost);
	fprintf(out, "  %-46s %12.6f\n", "lower bound 2 sum sqrt(s_i) (Lemma 1)", x->lb);
	fprintf(out, "  %-46s %12.6f\n", "cost / lower bound", part->cost / x->lb);
	fprintf(out, "  %-46s %12.6f\n", "whole blocks: sum (H + W) / (n/nb)",
	        (double)bp->half_perimeter / (double)x->nb);
	fprintf(out, "  %-46s %12.0f\n", "bytes received per product", vproc_mmm_bytes(bp, cfg->nb));
	fprintf(out, "\nPredicted time (nb x nb block updates at cycle_time 1):\n");
	fprintf(out, "  %-46s %12.6g\n", "largest load per step, max t H W", bp->max_load);
	fprintf(out, "  %-46s %12.6g\n", "this plan", x->ch.predicted);
	size_t bP, bQ;
	baseline_grid(x->base.plan.p, &bP, &bQ);
	char blabel[96];
	snprintf(blabel, sizeof blabel, "baseline: PDGEMM, %zu x %zu grid, one per machine", bP, bQ);
	fprintf(out, "  %-46s %12.6g\n", blabel, x->base_predicted);
	if (x->kl_Q) {
		char label[64];
		snprintf(label, sizeof label, "Kalinov-Lastovetsky, %zu x %zu grid (C^ %.4f)", x->kl_P,
		         x->kl_Q, x->kl_cost);
		fprintf(out, "  %-46s %12.6g\n", label, x->kl_predicted);
	}
	if (x->has_grid2d) {
		char label[64];
		snprintf(label, sizeof label, "000 2D panel, %zu x %zu grid (C^ %.4f)", x->grid2d.p,
		         x->grid2d.q, x->grid2d.cost);
		fprintf(out, "  %-46s %12.6g\n", label, x->grid2d.predicted);
	}
	fprintf(out, "  %-46s %12.2f\n", "predicted speedup over the baseline",
	        x->base_predicted / x->ch.predicted);
}

static void json_rects(const hl_config *cfg, const vproc_mmm_partition *part, jw *w)
{
	jw_key(w, "rectangles");
	jw_arr(w);
	for (size_t k = 0; k < part->p; k++) {
		const vproc_mmm_rect *r = &part->rect[k];
		jw_obj(w);
		jw_key(w, "machine"); jw_str(w, cfg->machines[r->machine].name);
		jw_key(w, "x"); jw_num(w, r->x);
		jw_key(w, "y"); jw_num(w, r->y);
		jw_key(w, "w"); jw_num(w, r->w);
		jw_key(w, "h"); jw_num(w, r->h);
		jw_end(w);
	}
	jw_end(w);
}

/* One block plan: its blocks, its largest load per step and what it moves
 * (half-perimeters in blocks, bytes per product). */
static void json_block_plan(const hl_config *cfg, const vproc_mmm_plan *pl, jw *w)
{
	jw_key(w, "blocks");
	jw_arr(w);
	for (size_t k = 0; k < pl->p; k++) {
		const vproc_mmm_block *b = &pl->blk[k];
		jw_obj(w);
		jw_key(w, "machine"); jw_str(w, cfg->machines[b->machine].name);
		jw_key(w, "row"); jw_uint(w, b->row);
		jw_key(w, "col"); jw_uint(w, b->col);
		jw_key(w, "rows"); jw_uint(w, b->rows);
		jw_key(w, "cols"); jw_uint(w, b->cols);
		jw_end(w);
	}
	jw_end(w);
	jw_key(w, "max_load"); jw_num(w, pl->max_load);
	jw_key(w, "half_perimeter_blocks"); jw_uint(w, pl->half_perimeter);
	jw_key(w, "bytes"); jw_num(w, vproc_mmm_bytes(pl, cfg->nb));
}

/* partition.panel_2d: paper 000's 2D panel plan read as rectangles, or null
 * when layout 2d refuses these machines. */
static void json_grid2d(const hl_config *cfg, const col_plan *x, jw *w)
{
	const hl_columns_grid *g = &x->grid2d;
	jw_key(w, "panel_2d");
	if (!x->has_grid2d) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "grid"); jw_uint_array(w, (size_t[]){ g->p, g->q }, 2);
	jw_key(w, "panel"); jw_uint_array(w, (size_t[]){ g->Bp, g->Bq }, 2);
	jw_key(w, "cost"); jw_num(w, g->cost);
	json_block_plan(cfg, &g->plan, w);
	jw_key(w, "predicted_time"); jw_num(w, g->predicted);
	jw_key(w, "dropped");
	jw_arr_inline(w);
	for (size_t k = 0; k < g->dropped; k++)
		jw_str(w, cfg->machines[g->left_out[k]].name);
	jw_end(w);
	jw_end(w);
}

static void json_columns(const hl_plan *pl, jw *w)
{
	const hl_config *cfg = pl->cfg;
	const col_plan *x = pl->ext;
	const vproc_mmm_partition *part = &x->ch.part;
	jw_key(w, "nprow"); jw_uint(w, 1);
	jw_key(w, "npcol"); jw_uint(w, x->ch.used);
	jw_key(w, "ranks");
	jw_arr(w);
	for (size_t k = 0; k < x->ch.used; k++) {
		size_t i = x->ch.plan.blk[k].machine;
		hl_layout_json_rank_open(w, k, &cfg->machines[i]);
		jw_end(w);
	}
	jw_end(w);
	jw_key(w, "partition");
	jw_obj(w);
	jw_key(w, "algorithm"); jw_str(w, alg_name(part));
	jw_key(w, "exact"); jw_bool(w, part->exact);
	jw_key(w, "cost"); jw_num(w, part->cost);
	jw_key(w, "lower_bound"); jw_num(w, x->lb);
	if (part->algorithm == VPROC_MMM_COLUMNS) {
		jw_key(w, "columns");
		jw_uint_array(w, part->col_count, part->ncols);
	}
	json_rects(cfg, part, w);
	jw_key(w, "block_side"); jw_uint(w, x->nb);
	json_block_plan(cfg, &x->ch.plan, w);
	jw_key(w, "comm_cost"); jw_num(w, pl->beta);
	jw_key(w, "predicted_time"); jw_num(w, x->ch.predicted);
	jw_key(w, "dropped");
	jw_arr_inline(w);
	for (size_t k = x->ch.used; k < cfg->nmachines; k++)
		jw_str(w, cfg->machines[x->ch.machine[k]].name);
	jw_end(w);
	jw_key(w, "baseline"); jw_num(w, x->base_predicted);
	size_t bP, bQ;
	baseline_grid(x->base.plan.p, &bP, &bQ);
	jw_key(w, "baseline_grid"); jw_uint_array(w, (size_t[]){ bP, bQ }, 2);
	jw_key(w, "speedup"); jw_num(w, x->base_predicted / x->ch.predicted);
	jw_key(w, "kalinov_lastovetsky");
	if (x->kl_Q) {
		jw_obj(w);
		jw_key(w, "grid"); jw_uint_array(w, (size_t[]){ x->kl_P, x->kl_Q }, 2);
		jw_key(w, "cost"); jw_num(w, x->kl_cost);
		jw_key(w, "predicted_time"); jw_num(w, x->kl_predicted);
		jw_end(w);
	} else {
		jw_null(w);
	}
	json_grid2d(cfg, x, w);
	jw_end(w);
}

/* ---- running hl-mmm --------------------------------------------------------- */

/* n=N nb=R blocks=row,col,rows,cols/... in rank order. */
static int kernel_args_columns(const hl_plan *pl, int baseline, char ***args, size_t *nargs)
{
	const col_plan *x = pl->ext;
	const vproc_mmm_plan *bp = baseline ? &x->base.plan : &x->ch.plan;
	char **v = calloc(4, sizeof *v);
	size_t cap = 32 + bp->p * 4 * 21;
	char *blocks = malloc(cap);
	if (!v || !blocks) {
		free(v);
		free(blocks);
		return -1;
	}
	size_t len = (size_t)snprintf(blocks, cap, "blocks=");
	for (size_t k = 0; k < bp->p; k++) {
		const vproc_mmm_block *b = &bp->blk[k];
		len += (size_t)snprintf(blocks + len, cap - len, "%s%zu,%zu,%zu,%zu", k ? "/" : "",
		                        b->row, b->col, b->rows, b->cols);
	}
	v[2] = blocks;
	int oom = asprintf(&v[0], "n=%zu", pl->cfg->n) < 0;
	oom |= asprintf(&v[1], "nb=%zu", pl->cfg->nb) < 0;
	if (oom) {
		for (size_t i = 0; i < 3; i++)
			free(v[i]);
		free(v);
		return -1;
	}
	*args = v;
	*nargs = 3;
	return 0;
}

/* In Mflop at cycle time 1 (run.c divides by K): one block update is 2 nb^3
 * flops; a received block costs comm_cost updates. */
static double predicted_time_columns(const hl_plan *pl, int baseline)
{
	const col_plan *x = pl->ext;
	double r = (double)pl->cfg->nb;
	return (baseline ? x->base_predicted : x->ch.predicted) * 2.0 * r * r * r / 1e6;
}

const hl_layout_ops hl_layout_columns = {
	.name = "columns",
	.what = "a rectangle of the matrix product per machine, least communication (001)",
	.load_key = load_key_columns,
	.check = check_columns,
	.free_config = free_config_columns,
	.plan = plan_columns,
	.free_plan = free_plan_columns,
	.print_text = text_columns,
	.print_json = json_columns,
	.ranks = ranks_columns,
	.ranks_baseline = ranks_columns_baseline,
	.predicted_speedup = speedup_columns,
	.kernel_args = kernel_args_columns,
	.baseline_kernel = "mm",
	.predicted_time = predicted_time_columns,
};
