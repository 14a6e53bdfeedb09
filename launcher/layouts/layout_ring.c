/*
 * layout_ring.c -- the row of `layout: ring` (paper 004, SliceRing): which
 * machines form a ring, in which order, and which share of the columns each
 * holds, for an iterative computation where every machine sends H to its
 * successor each iteration (vproc/planner/ring/, notes ../shared/specs/004-slicering.md).
 * Keys W, H, links, solver, insert, columns, iterations, time_limit; rank k
 * runs order[k], its predecessor is rank k-1 and its successor rank k+1 (mod q).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "layout_ring.h"
#include "planner/ring/ring.h"

/* solver: auto takes the exact solver up to this many machines (the Held-
 * Karp table then needs at most 2^18 x 19 doubles, 40 MB: bench_ring). */
#define RING_AUTO_EXACT_MAX 18
#define RING_DEFAULT_COLUMNS 1000
#define RING_DEFAULT_ITERATIONS 100
#define RING_DEFAULT_TIME_LIMIT 10.0

/* The order of solver's values in keys.c (hl_cfg_key reads their index;
 * the plan names the solver by that row's value). */
enum { SOLVER_AUTO, SOLVER_EXACT, SOLVER_MILP, SOLVER_GREEDY, SOLVER_TSP };

typedef struct {
	double W, H;
	double *c;            /* [p*p] link costs, row-major, from links: */
	int solver, insert;
	size_t columns, iterations;
	double time_limit;    /* seconds, for the MILP */
} ring_cfg;

/* What plan_ring computes (plan->ext). */
typedef struct {
	vproc_ring ring;
	const char *solver;   /* the solver that produced it */
	size_t *cols;         /* [q] whole columns, in ring order */
	double T_int;         /* T_step with whole columns */
	double baseline;      /* every machine, list order, alpha ~ 1/w */
	double *C;            /* [q] c to the successor + c to the predecessor */
} ring_plan;

/* ---- config ------------------------------------------------------------- */

static ring_cfg *rcfg(hl_config *cfg)
{
	if (!cfg->layout_cfg) {
		ring_cfg *r = calloc(1, sizeof *r);
		if (!r)
			return NULL;
		r->columns = RING_DEFAULT_COLUMNS;
		r->iterations = RING_DEFAULT_ITERATIONS;
		r->time_limit = RING_DEFAULT_TIME_LIMIT;
		cfg->layout_cfg = r;
	}
	return cfg->layout_cfg;
}

static int load_key_ring(hl_config *cfg, const char *key, const yt_node *v, diag *d)
{
	ring_cfg *r = rcfg(cfg);
	int e;
	if (!r)
		return -1;
	if (strcmp(key, "W") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &r->W);
	if (strcmp(key, "H") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &r->H);
	if (strcmp(key, "time_limit") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &r->time_limit);
	if (strcmp(key, "columns") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &r->columns);
	if (strcmp(key, "iterations") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &r->iterations);
	if (strcmp(key, "solver") == 0 || strcmp(key, "insert") == 0) {
		if (hl_cfg_key(d, HL_KS_TOP, key, v, &e) < 0)
			return -1;
		*(strcmp(key, "solver") == 0 ? &r->solver : &r->insert) = e;
		return 0;
	}
	return 0;   /* links: read by check_ring, once the machines are known */
}

/* A link cost: a number >= 0 (0: a free link); anything else is refused
 * by the common reader, with its message. */
static int link_cost(diag *d, const char *key, const yt_node *v, double *out)
{
	if (v->kind == YT_SCALAR && v->plain && !strpbrk(v->value, "xXnNiI")) {
		char *end;
		double x = strtod(v->value, &end);
		if (end != v->value && *end == '\0' && x <= 0.0) {
			if (x < 0.0) {
				diag_error(d, v->line, v->col, "%s: must be >= 0, got %s", key, v->value);
				return -1;
			}
			*out = 0.0;
			return 0;
		}
	}
	return hl_cfg_positive(d, key, v, out);
}

static int machine_index(const hl_config *cfg, const yt_node *v, diag *d, size_t *out)
{
	if (v->kind == YT_SCALAR)
		for (size_t i = 0; i < cfg->nmachines; i++)
			if (strcmp(cfg->machines[i].name, v->value) == 0) {
				*out = i;
				return 0;
			}
	diag_error(d, v->line, v->col, "links: pairs: \"%s\" is not a machine of this list",
	           v->kind == YT_SCALAR ? v->value : "(not a name)");
	return -1;
}

/* One [from, to, cost] entry; set[i*p+j] marks the pairs given explicitly. */
static int load_pair(hl_config *cfg, ring_cfg *r, const yt_node *e, unsigned char *set, diag *d)
{
	size_t p = cfg->nmachines, a, b;
	double x;
	if (e->kind != YT_SEQ || e->n != 3) {
		diag_error(d, e->line, e->col, "links: pairs: each entry is [from, to, cost]");
		return -1;
	}
	/* all three, so that every problem of the entry is reported */
	int bad = (machine_index(cfg, e->items[0], d, &a) < 0);
	bad |= (machine_index(cfg, e->items[1], d, &b) < 0);
	bad |= (link_cost(d, "links: pairs: cost", e->items[2], &x) < 0);
	if (bad)
		return -1;
	if (a == b) {
		diag_error(d, e->line, e->col, "links: pairs: a link from %s to itself",
		           cfg->machines[a].name);
		return -1;
	}
	if (set[a * p + b]) {
		diag_error(d, e->line, e->col, "links: pairs: %s -> %s listed twice",
		           cfg->machines[a].name, cfg->machines[b].name);
		return -1;
	}
	set[a * p + b] = 1;
	r->c[a * p + b] = x;
	if (!set[b * p + a])   /* the reverse takes the same cost unless listed too */
		r->c[b * p + a] = x;
	return 0;
}

/* links: {default: COST, pairs: [[from, to, cost], ...]} */
static int load_links(hl_config *cfg, ring_cfg *r, const yt_node *links, diag *d)
{
	size_t p = cfg->nmachines;
	const yt_node *def = NULL, *pairs = NULL;
	double dc = NAN;
	int rc = 0;
	if (links->kind != YT_MAP) {
		diag_error(d, links->line, links->col, "links: expected a mapping (default, pairs)");
		return -1;
	}
	for (size_t i = 0; i < links->n; i++) {
		const yt_node *k = links->items[2 * i], *v = links->items[2 * i + 1];
		const char *s = k->kind == YT_SCALAR ? k->value : "";
		if (strcmp(s, "default") == 0)
			def = v;
		else if (strcmp(s, "pairs") == 0)
			pairs = v;
		else {
			diag_error(d, k->line, k->col, "links: unknown key \"%s\" (allowed: default, pairs)", s);
			rc = -1;
		}
	}
	if (def && link_cost(d, "links: default", def, &dc) < 0)
		rc = -1;
	if (pairs && pairs->kind != YT_SEQ) {
		diag_error(d, pairs->line, pairs->col, "links: pairs: expected a list of [from, to, cost]");
		rc = -1;
	}
	unsigned char *set = calloc(p * p, 1);
	r->c = calloc(p * p, sizeof *r->c);
	if (!set || !r->c) {
		free(set);
		return -1;
	}
	for (size_t i = 0; i < p * p; i++)
		r->c[i] = i % (p + 1) == 0 ? 0.0 : dc;
	for (size_t i = 0; rc == 0 && pairs && i < pairs->n; i++)
		rc |= load_pair(cfg, r, pairs->items[i], set, d);
	for (size_t i = 0; rc == 0 && i < p * p; i++)
		if (isnan(r->c[i])) {
			diag_error(d, links->line, links->col, "links: no cost from %s to %s (and no "
			           "default:)", cfg->machines[i / p].name, cfg->machines[i % p].name);
			rc = -1;
		}
	free(set);
	return rc;
}

/* 004 s2: a ring member is a processor with its own links to the others.
 * `count: k` would make k members share one host's network card, which
 * the link matrix (one cost per pair of machines) cannot say: refused
 * (specs/004, s8), one rank per machine. */
static int refuse_counts(const hl_config *cfg, const yt_node *root, diag *d)
{
	const yt_node *ms = hl_cfg_get(root, "machines");
	int rc = 0;
	/* An entry with count > 1 expanded into consecutive machines of the same
	 * entry: reported once, at its second machine. */
	for (size_t k = 1; ms && ms->kind == YT_SEQ && k < cfg->nmachines; k++) {
		size_t e = cfg->machines[k].entry;
		if (e != cfg->machines[k - 1].entry || (k >= 2 && cfg->machines[k - 2].entry == e) ||
		    e >= ms->n)
			continue;
		const yt_node *m = ms->items[e];
		const yt_node *c = m && m->kind == YT_MAP ? hl_cfg_get(m, "count") : NULL;
		if (c) {
			diag_error(d, c->line, c->col, "count: layout: ring takes one processor per "
			           "machine (a ring member has its own links); list them as machines");
			rc = -1;
		}
	}
	return rc;
}

static int check_ring(hl_config *cfg, const yt_node *root, diag *d)
{
	ring_cfg *r = rcfg(cfg);
	if (!r)
		return -1;
	const yt_node *kv = hl_cfg_get(root, "kernel"), *links = hl_cfg_get(root, "links");
	const yt_node *cols = hl_cfg_get(root, "columns");
	int rc = 0;
	if (!kv)
		cfg->kernel = HL_KERNEL_RING;
	else if (cfg->kernel != HL_KERNEL_RING && cfg->kernel != HL_KERNEL_EXEC) {
		diag_error(d, kv->line, kv->col, "layout: ring runs kernel: ring (or exec), not %s",
		           hl_kernel_name(cfg->kernel));
		rc = -1;
	}
	if (!hl_cfg_get(root, "W")) {
		diag_error(d, root->line, root->col, "layout: ring needs W: (the work of one iteration)");
		rc = -1;
	}
	if (!hl_cfg_get(root, "H")) {
		diag_error(d, root->line, root->col, "layout: ring needs H: (the data each machine "
		           "sends its successor per iteration)");
		rc = -1;
	}
	if (cols && r->columns < cfg->nmachines) {
		diag_error(d, cols->line, cols->col, "columns = %zu: fewer than the %zu machines, "
		           "some would hold no column", r->columns, cfg->nmachines);
		rc = -1;
	}
	rc |= refuse_counts(cfg, root, d);
	if (cfg->nmachines >= 2 && !links) {
		diag_error(d, root->line, root->col, "layout: ring needs links: (default: COST, pairs: "
		           "[[from, to, cost], ...])");
		rc = -1;
	} else if (links && load_links(cfg, r, links, d) < 0) {
		rc = -1;
	}
	return rc;
}

static void free_config_ring(hl_config *cfg)
{
	ring_cfg *r = cfg->layout_cfg;
	if (r)
		free(r->c);
	free(r);
	cfg->layout_cfg = NULL;
}

/* ---- plan ----------------------------------------------------------------- */

/* solver: auto: exact when the table fits, else the better of the
 * heuristic and the MILP (which alone can prove it). */
static vproc_status solve(const vproc_ring_platform *pf, const ring_cfg *r, ring_plan *rp)
{
	int s = r->solver;
	if (s == SOLVER_AUTO)
		s = pf->p <= RING_AUTO_EXACT_MAX ? SOLVER_EXACT : SOLVER_MILP;
	rp->solver = hl_key_find(HL_KS_TOP, "solver")->values[s];
	switch (s) {
	case SOLVER_EXACT:
		return vproc_ring_exact(pf, &rp->ring);
	case SOLVER_GREEDY:
		return vproc_ring_greedy(pf, (size_t)-1, r->insert, &rp->ring);
	case SOLVER_TSP:
		return vproc_ring_tsp(pf, &rp->ring);
	default:
		break;
	}
	vproc_ring h;
	vproc_status st = vproc_ring_heuristic(pf, &h);
	if (st != VPROC_OK)
		return st;
	st = vproc_ring_milp(pf, r->time_limit, &rp->ring);
	if (st == VPROC_ERANGE || (st == VPROC_OK && h.T < rp->ring.T)) {
		double lb = st == VPROC_OK ? rp->ring.lower_bound : 0.0;
		if (st == VPROC_OK)
			vproc_ring_free(&rp->ring);
		rp->ring = h;   /* the heuristic's ring, with the MILP's bound */
		rp->ring.lower_bound = lb;
		rp->ring.optimal = vproc_ring_at_bound(h.T, lb);
		if (rp->ring.optimal)
			rp->ring.lower_bound = h.T;
		rp->solver = "milp+heuristic";
		return VPROC_OK;
	}
	vproc_ring_free(&h);
	return st;
}

static int plan_ring(const hl_config *cfg, diag *d, hl_plan *plan)
{
	const ring_cfg *r = cfg->layout_cfg;
	size_t p = cfg->nmachines;
	ring_plan *rp = calloc(1, sizeof *rp);
	plan->t = malloc(p * sizeof *plan->t);
	plan->ext = rp;
	if (!rp || !plan->t) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < p; i++)
		plan->t[i] = cfg->machines[i].cycle_time;
	double zero = 0.0;
	vproc_ring_platform pf = { p, plan->t, r->c ? r->c : &zero, r->W, r->H };
	vproc_status st = solve(&pf, r, rp);
	size_t q = rp->ring.q;
	if (st == VPROC_OK) {
		rp->cols = calloc(q, sizeof *rp->cols);
		rp->C = calloc(q, sizeof *rp->C);
		st = rp->cols && rp->C ? vproc_ring_columns(&pf, q, rp->ring.order, r->columns,
		                                            rp->cols, &rp->T_int)
		                       : VPROC_ENOMEM;
	}
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "planning the ring failed (solver %s): %s", rp->solver,
		           st == VPROC_ERANGE ? "the MILP found no ring within time_limit"
		                              : vproc_strerror(st));
		return -1;
	}
	for (size_t k = 0; q >= 2 && k < q; k++)
		rp->C[k] = vproc_ring_C(&pf, q, rp->ring.order, k);
	/* The baseline (notes s8): every machine in list order, shares
	 * proportional to speed, so every machine computes W w_cumul and the
	 * slowest link decides. */
	double cmax = 0.0;
	size_t *ident = malloc(p * sizeof *ident);
	if (!ident) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < p; i++)
		ident[i] = i;
	for (size_t k = 0; p >= 2 && k < p; k++)
		cmax = fmax(cmax, vproc_ring_C(&pf, p, ident, k));
	free(ident);
	rp->baseline = r->W * vproc_cost_ideal(p, plan->t) + r->H * cmax;
	plan->M = r->columns;
	return 0;
}

static void free_plan_ring(hl_plan *plan)
{
	ring_plan *rp = plan->ext;
	if (rp) {
		vproc_ring_free(&rp->ring);
		free(rp->cols);
		free(rp->C);
	}
	free(rp);
	plan->ext = NULL;
}

/* ---- ranks ---------------------------------------------------------------- */

static int ranks_of(size_t n, const size_t *machine, hl_ranks *r)
{
	memset(r, 0, sizeof *r);
	r->nprow = 1;
	r->npcol = n;
	r->nranks = n;
	r->machine = calloc(n, sizeof *r->machine);
	if (!r->machine)
		return -1;
	memcpy(r->machine, machine, n * sizeof *machine);
	return 0;
}

/* Rank k is order[k]: its successor is rank k+1 (mod q). */
static int ranks_ring(const hl_plan *plan, hl_ranks *r)
{
	const ring_plan *rp = plan->ext;
	return ranks_of(rp->ring.q, rp->ring.order, r);
}

/* Every machine, in list order. */
static int ranks_ring_baseline(const hl_plan *plan, hl_ranks *r)
{
	size_t p = plan->cfg->nmachines;
	size_t *ident = malloc(p * sizeof *ident);
	if (!ident)
		return -1;
	for (size_t i = 0; i < p; i++)
		ident[i] = i;
	int rc = ranks_of(p, ident, r);
	free(ident);
	return rc;
}

static double speedup_ring(const hl_plan *plan)
{
	const ring_plan *rp = plan->ext;
	return rp->ring.T > 0 ? rp->baseline / rp->ring.T : 0.0;
}

/* ---- words ------------------------------------------------------------------ */

static void text_ring(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const ring_cfg *r = cfg->layout_cfg;
	const ring_plan *rp = pl->ext;
	const vproc_ring *g = &rp->ring;
	int w = hl_plan_name_width(cfg);

	fprintf(out, "hetlaunch plan: %s (%s)\n", cfg->name, cfg->file);
	fprintf(out, "layout ring: %zu of %zu machines, solver %s, %s\n", g->q, cfg->nmachines,
	        rp->solver, g->optimal ? "proven optimal" : "not proven optimal");
	fprintf(out, "kernel %s, W = %g, H = %g, %zu columns, %zu iterations\n\n",
	        hl_kernel_name(cfg->kernel), r->W, r->H, r->columns, r->iterations);

	fprintf(out, "  %4s  %-*s  %12s  %12s  %9s  %8s  %12s\n", "rank", w, "machine",
	        "cycle_time", "C (links)", "alpha", "columns", "time");
	for (size_t k = 0; k < g->q; k++) {
		size_t i = g->order[k];
		fprintf(out, "  %4zu  %-*s  %12.6g  %12.6g  %9.5f  %8zu  %12.6g\n", k, w,
		        cfg->machines[i].name, pl->t[i], g->q >= 2 ? rp->C[k] : 0.0, g->alpha[i],
		        rp->cols[k],
		        g->alpha[i] * r->W * pl->t[i] + r->H * (g->q >= 2 ? rp->C[k] : 0.0));
	}
	fprintf(out, "\nRank k sends H to rank k+1 and receives from rank k-1 (mod %zu).\n", g->q);
	if (g->q < cfg->nmachines) {
		fprintf(out, "Dropped (%zu):", cfg->nmachines - g->q);
		for (size_t k = g->q; k < cfg->nmachines; k++)
			fprintf(out, " %s", cfg->machines[g->order[k]].name);
		fputc('\n', out);
	}
	fprintf(out, "\nPredicted time per iteration (004 s2, Eq 1; units of cycle_time):\n");
	fprintf(out, "  %-46s %12.6g\n", "this ring, rational shares (T_step)", g->T);
	if (!g->optimal && g->lower_bound > 0)
		fprintf(out, "  %-46s %12.6g\n", "proven lower bound on the optimum", g->lower_bound);
	fprintf(out, "  %-46s %12.6g\n", "this ring, whole columns", rp->T_int);
	fprintf(out, "  %-46s %12.6g\n", "baseline: every machine, list order, alpha~1/w",
	        rp->baseline);
	fprintf(out, "  %-46s %12.2f\n", "predicted speedup over the baseline", rp->baseline / g->T);
}

static void json_ring(const hl_plan *pl, jw *w)
{
	const hl_config *cfg = pl->cfg;
	const ring_cfg *r = cfg->layout_cfg;
	const ring_plan *rp = pl->ext;
	const vproc_ring *g = &rp->ring;
	jw_key(w, "nprow"); jw_uint(w, 1);
	jw_key(w, "npcol"); jw_uint(w, g->q);
	jw_key(w, "ranks");
	jw_arr(w);
	for (size_t k = 0; k < g->q; k++) {
		hl_layout_json_rank_open(w, k, &cfg->machines[g->order[k]]);
		jw_end(w);
	}
	jw_end(w);
	jw_key(w, "ring");
	jw_obj(w);
	jw_key(w, "order");
	jw_arr_inline(w);
	for (size_t k = 0; k < g->q; k++)
		jw_str(w, cfg->machines[g->order[k]].name);
	jw_end(w);
	jw_key(w, "q"); jw_uint(w, g->q);
	jw_key(w, "alpha");
	jw_obj(w);
	for (size_t k = 0; k < g->q; k++) {
		jw_key(w, cfg->machines[g->order[k]].name);
		jw_num(w, g->alpha[g->order[k]]);
	}
	jw_end(w);
	jw_key(w, "columns");
	jw_obj(w);
	for (size_t k = 0; k < g->q; k++) {
		jw_key(w, cfg->machines[g->order[k]].name);
		jw_uint(w, rp->cols[k]);
	}
	jw_end(w);
	jw_key(w, "T_step"); jw_num(w, g->T);
	jw_key(w, "T_step_int"); jw_num(w, rp->T_int);
	jw_key(w, "D"); jw_num(w, g->D);
	jw_key(w, "solver"); jw_str(w, rp->solver);
	jw_key(w, "optimal"); jw_bool(w, g->optimal);
	jw_key(w, "lower_bound");   /* null: a heuristic, no bound */
	if (g->optimal || g->lower_bound > 0)
		jw_num(w, g->lower_bound);
	else
		jw_null(w);
	jw_key(w, "dropped");
	jw_arr_inline(w);
	for (size_t k = g->q; k < cfg->nmachines; k++)
		jw_str(w, cfg->machines[g->order[k]].name);
	jw_end(w);
	jw_key(w, "W"); jw_num(w, r->W);
	jw_key(w, "H"); jw_num(w, r->H);
	jw_key(w, "iterations"); jw_uint(w, r->iterations);
	jw_key(w, "baseline"); jw_num(w, rp->baseline);
	jw_key(w, "speedup"); jw_num(w, rp->baseline / g->T);
	jw_end(w);
}

const hl_layout_ops hl_layout_ring = {
	.name = "ring",
	.what = "a ring of machines for an iterative stencil, its order and shares (004)",
	.load_key = load_key_ring,
	.check = check_ring,
	.free_config = free_config_ring,
	.plan = plan_ring,
	.free_plan = free_plan_ring,
	.print_text = text_ring,
	.print_json = json_ring,
	.ranks = ranks_ring,
	.ranks_baseline = ranks_ring_baseline,
	.predicted_speedup = speedup_ring,
	.kernel_args = hl_ring_args,
	.predicted_time = hl_ring_predicted,
};

/* ---- running hl-ring (layout_ring.h) ---------------------------------------- */

static int push_arg(char ***v, size_t *n, const char *fmt_, ...)
	__attribute__((format(printf, 3, 4)));
static int push_arg(char ***v, size_t *n, const char *fmt_, ...)
{
	char buf[64];
	va_list ap;
	va_start(ap, fmt_);
	vsnprintf(buf, sizeof buf, fmt_, ap);
	va_end(ap);
	char **nv = realloc(*v, (*n + 2) * sizeof *nv);
	if (!nv)
		return -1;
	*v = nv;
	if (!(nv[*n] = strdup(buf)))
		return -1;
	nv[++*n] = NULL;
	return 0;
}

/* "n_0,n_1,...": the column counts. */
static char *join_counts(const size_t *n, size_t q)
{
	size_t len = 1;
	for (size_t k = 0; k < q; k++)
		len += 21;
	char *s = malloc(len), *at = s;
	if (!s)
		return NULL;
	for (size_t k = 0; k < q; k++)
		at += sprintf(at, "%s%zu", k ? "," : "", n[k]);
	return s;
}

int hl_ring_args(const hl_plan *plan, int baseline, char ***args, size_t *nargs)
{
	const hl_config *cfg = plan->cfg;
	const ring_cfg *r = cfg->layout_cfg;
	const ring_plan *rp = plan->ext;
	size_t p = cfg->nmachines, q = baseline ? p : rp->ring.q;
	size_t *n = calloc(q, sizeof *n), *ident = calloc(p, sizeof *ident);
	int rc = n && ident ? 0 : -1;
	if (rc == 0 && baseline) {
		/* shares proportional to speed, whole columns, one at least:
		 * the ring split with the links left out */
		double zero = 0.0, T;
		for (size_t i = 0; i < p; i++)
			ident[i] = i;
		vproc_ring_platform pf = { p, plan->t, r->c ? r->c : &zero, r->W, 0.0 };
		rc = vproc_ring_columns(&pf, p, ident, r->columns, n, &T) == VPROC_OK ? 0 : -1;
	} else if (rc == 0) {
		memcpy(n, rp->cols, q * sizeof *n);
	}
	char *cols = rc == 0 ? join_counts(n, q) : NULL;
	*args = NULL;
	*nargs = 0;
	rc = cols ? 0 : -1;
	rc = rc ? rc : push_arg(args, nargs, "--columns");
	rc = rc ? rc : push_arg(args, nargs, "%s", cols);
	rc = rc ? rc : push_arg(args, nargs, "--rows");
	rc = rc ? rc : push_arg(args, nargs, "%d", HL_RING_ROWS);
	rc = rc ? rc : push_arg(args, nargs, "--iterations");
	rc = rc ? rc : push_arg(args, nargs, "%zu", r->iterations);
	rc = rc ? rc : push_arg(args, nargs, "--warmup");
	rc = rc ? rc : push_arg(args, nargs, "2");
	rc = rc ? rc : push_arg(args, nargs, "--mflop-per-column");
	rc = rc ? rc : push_arg(args, nargs, "%.17g", r->W / (double)r->columns);
	rc = rc ? rc : push_arg(args, nargs, "--bytes");
	rc = rc ? rc : push_arg(args, nargs, "%.0f", ceil(r->H * 125000.0));
	free(cols);
	free(n);
	free(ident);
	return rc;
}

const double *hl_ring_links(const hl_config *cfg)
{
	const ring_cfg *r = cfg->layout == &hl_layout_ring ? cfg->layout_cfg : NULL;
	return r ? r->c : NULL;
}

double hl_ring_predicted(const hl_plan *plan, int baseline)
{
	const ring_plan *rp = plan->ext;
	return baseline ? rp->baseline : rp->ring.T;
}
