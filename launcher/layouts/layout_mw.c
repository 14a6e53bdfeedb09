/*
 * layout_mw.c -- the row of `layout: master-worker` (paper 003, Dongarra,
 * Pineau, Robert, Shi, Vivien: matrix product from a master holding A, B
 * and C onto workers of limited memory; ../shared/INTERFACE.md "layout:
 * master-worker").  Keys master, blocks, memory_blocks, block_time,
 * scheduler, baseline_scheduler (and per machine memory_blocks, block_time).  The plan prints
 * the layouts' mu, HoLM's workers, the bounds and the makespan of each
 * scheduler simulated in the one-port block model (vproc/planner/mw/).
 *
 * MPI rank 0 is the master, ranks 1..p the workers in list order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "planner/mw/mw.h"

/* ---- config ------------------------------------------------------------- */

typedef struct {
	char *master;         /* its name as given; NULL: the first machine */
	size_t imaster;       /* config index of the master */
	size_t blocks[3];     /* r, t, s */
	size_t m;             /* memory_blocks (0: not given at the top) */
	double c;             /* block_time (0: not given at the top) */
	size_t *mi;           /* [nmachines] each machine's m */
	double *ci;           /* [nmachines] each machine's c */
	int sched;            /* a vproc_mw_sched, or VPROC_MW_NSCHED for all */
	int base;             /* baseline_scheduler: what compare runs first (ODDOML) */
} mw_cfg;


static mw_cfg *cfg_of(hl_config *cfg)
{
	if (cfg->layout_cfg == NULL) {
		mw_cfg *k = calloc(1, sizeof *k);
		if (k) {
			k->sched = VPROC_MW_NSCHED;
			k->base = VPROC_MW_ODDOML;
		}
		cfg->layout_cfg = k;
	}
	return cfg->layout_cfg;
}

/* The most block products a plan simulates (load_blocks). */
#define MW_MAX_PRODUCTS ((size_t)1 << 20)

static int load_blocks(diag *d, const yt_node *v, size_t out[3])
{
	if (v->kind != YT_SEQ || v->n != 3) {
		diag_error(d, v->line, v->col, "blocks: expected [r, t, s] (A is r x t blocks, "
		           "B is t x s)");
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < 3; i++)
		if (hl_cfg_key(d, HL_KS_TOP, "blocks", v->items[i], &out[i]) < 0)   /* its range */
			rc = -1;
	/* The plan simulates every block product C_ij += A_ik B_kj under each
	 * scheduler (003 s5): r t s of them, 0.27 us each with scheduler: all
	 * (`hetlaunch plan`, 10 million in 2.8 s), 6 us under make fuzz's
	 * sanitizers, whose 10 s limit found [3, 10, 340960].  Bounded here,
	 * like every other size the loader reads. */
	if (rc == 0 && out[0] * out[1] * out[2] > MW_MAX_PRODUCTS) {
		diag_error(d, v->line, v->col, "blocks: r t s = %zu block products, more than %zu: "
		           "the plan simulates each one; use a larger nb (fewer, larger blocks)",
		           out[0] * out[1] * out[2], (size_t)MW_MAX_PRODUCTS);
		rc = -1;
	}
	return rc;
}

static int load_key_mw(hl_config *cfg, const char *key, const yt_node *v, diag *d)
{
	mw_cfg *k = cfg_of(cfg);
	if (k == NULL) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	/* n is not ours (check_mw sets it from blocks and nb): keep config.c's
	 * "nb > n" test, meant for the other layouts, from refusing a large q. */
	cfg->n = (size_t)1 << 40;
	if (strcmp(key, "master") == 0)
		return hl_cfg_string(d, key, v, &k->master);
	if (strcmp(key, "blocks") == 0)
		return load_blocks(d, v, k->blocks);
	if (strcmp(key, "memory_blocks") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &k->m);
	if (strcmp(key, "block_time") == 0)
		return hl_cfg_key(d, HL_KS_TOP, key, v, &k->c);
	/* scheduler: one of the seven or all (index VPROC_MW_NSCHED);
	 * baseline_scheduler: one of the seven */
	return hl_cfg_key(d, HL_KS_TOP, key, v, strcmp(key, "scheduler") == 0 ? &k->sched : &k->base);
}

/* Per-machine memory_blocks and block_time, over the file-wide ones. */
static int load_machine_keys(hl_config *cfg, mw_cfg *k, const yt_node *root, diag *d)
{
	const yt_node *list = hl_cfg_get(root, "machines");
	int rc = 0;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		k->mi[i] = k->m;
		k->ci[i] = k->c;
	}
	for (size_t e = 0; list && e < list->n; e++) {
		const yt_node *vm = hl_cfg_get(list->items[e], "memory_blocks");
		const yt_node *vc = hl_cfg_get(list->items[e], "block_time");
		size_t first, count, m = 0;
		double c = 0;
		hl_cfg_machine_entry(cfg, e, &first, &count);
		if (vm && hl_cfg_key(d, HL_KS_MACHINE, "memory_blocks", vm, &m) < 0)
			rc = -1;
		if (vc && hl_cfg_key(d, HL_KS_MACHINE, "block_time", vc, &c) < 0)
			rc = -1;
		for (size_t i = first; i < first + count; i++) {
			if (vm)
				k->mi[i] = m;
			if (vc)
				k->ci[i] = c;
		}
	}
	return rc;
}

static int find_master(hl_config *cfg, mw_cfg *k, const yt_node *root, diag *d)
{
	if (k->master == NULL)
		return 0;  /* the first machine */
	for (size_t i = 0; i < cfg->nmachines; i++)
		if (strcmp(cfg->machines[i].name, k->master) == 0) {
			k->imaster = i;
			return 0;
		}
	const yt_node *v = hl_cfg_get(root, "master");
	diag_error(d, v->line, v->col, "master: no machine is named \"%s\"", k->master);
	return -1;
}

/* Every worker needs m and c, from the top or its own entry. */
static int check_workers(const hl_config *cfg, const mw_cfg *k, const yt_node *root, diag *d)
{
	for (size_t i = 0; i < cfg->nmachines; i++) {
		if (i == k->imaster || (k->mi[i] && k->ci[i] > 0))
			continue;
		diag_error(d, root->line, root->col,
		           "layout: master-worker needs %s (for every worker; machine \"%s\" has none)",
		           k->mi[i] ? "block_time" : "memory_blocks", cfg->machines[i].name);
		return -1;
	}
	return 0;
}

static int check_mw(hl_config *cfg, const yt_node *root, diag *d)
{
	mw_cfg *k = cfg_of(cfg);
	if (k == NULL)
		return -1;
	k->mi = calloc(cfg->nmachines, sizeof *k->mi);
	k->ci = calloc(cfg->nmachines, sizeof *k->ci);
	if (!k->mi || !k->ci) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	const yt_node *n = hl_cfg_get(root, "n"), *kern = hl_cfg_get(root, "kernel");
	int rc = 0;
	if (n) {
		diag_error(d, n->line, n->col, "n is not used by layout: master-worker "
		           "(blocks: [r, t, s] and nb: give the sizes)");
		rc = -1;
	}
	if (kern && cfg->kernel != HL_KERNEL_MW) {
		diag_error(d, kern->line, kern->col, "layout: master-worker runs kernel: mw, "
		           "not %s", hl_kernel_name(cfg->kernel));
		rc = -1;
	}
	cfg->kernel = HL_KERNEL_MW;
	if (!hl_cfg_get(root, "blocks")) {
		diag_error(d, root->line, root->col, "layout: master-worker needs blocks: [r, t, s]");
		rc = -1;
	}
	if (cfg->nmachines < 2) {
		diag_error(d, root->line, root->col, "layout: master-worker needs a master and "
		           "at least one worker (%zu machine)", cfg->nmachines);
		rc = -1;
	}
	if (rc == 0 && (load_machine_keys(cfg, k, root, d) < 0 || find_master(cfg, k, root, d) < 0 ||
	                check_workers(cfg, k, root, d) < 0))
		rc = -1;
	/* n and M of the plan document: the columns of B and C */
	cfg->n = k->blocks[2] * cfg->nb;
	if (cfg->nsizes == 1)
		cfg->sizes[0] = cfg->n;
	return rc;
}

static void free_config_mw(hl_config *cfg)
{
	mw_cfg *k = cfg->layout_cfg;
	if (k) {
		free(k->master);
		free(k->mi);
		free(k->ci);
		free(k);
	}
	cfg->layout_cfg = NULL;
}

/* ---- plan ----------------------------------------------------------------- */

typedef struct {
	size_t p;                        /* workers */
	size_t *who;                     /* [p] config index of worker x */
	double *w, *c;                   /* [p] */
	size_t *m;                       /* [p] */
	int hetero;                      /* not all w, c, m equal */
	vproc_mw_problem pb;
	size_t mu_reuse, mu_holm, mu_dd, nu_bmm, nu_obmm, m_least;
	size_t P;                        /* HoLM's workers */
	size_t *enrol;                   /* [p] enrolment order (worker indices) */
	double lower_bound;
	int have[VPROC_MW_NSCHED];
	vproc_mw_result res[VPROC_MW_NSCHED];
	size_t best_P;                   /* beyond the paper: ragged fill, best P */
	unsigned best_flags;
	vproc_mw_result best;
} mw_plan;

static const mw_cfg *kcfg(const hl_plan *pl)
{
	return pl->cfg->layout_cfg;
}

static int plan_workers(const hl_config *cfg, const mw_cfg *k, mw_plan *x)
{
	x->p = cfg->nmachines - 1;
	x->who = calloc(x->p, sizeof *x->who);
	x->enrol = calloc(x->p, sizeof *x->enrol);
	x->w = calloc(x->p, sizeof *x->w);
	x->c = calloc(x->p, sizeof *x->c);
	x->m = calloc(x->p, sizeof *x->m);
	if (!x->who || !x->enrol || !x->w || !x->c || !x->m)
		return -1;
	for (size_t i = 0, n = 0; i < cfg->nmachines; i++) {
		if (i == k->imaster)
			continue;
		x->who[n] = i;
		x->w[n] = cfg->machines[i].cycle_time;
		x->c[n] = k->ci[i];
		x->m[n] = k->mi[i];
		x->hetero |= n > 0 && (x->w[n] != x->w[0] || x->c[n] != x->c[0] || x->m[n] != x->m[0]);
		n++;
	}
	x->m_least = x->m[0];
	for (size_t n = 1; n < x->p; n++)
		x->m_least = x->m[n] < x->m_least ? x->m[n] : x->m_least;
	return 0;
}

static void plan_layouts(const mw_cfg *k, mw_plan *x)
{
	vproc_mw_problem *pb = &x->pb;
	memset(pb, 0, sizeof *pb);
	pb->r = k->blocks[0];
	pb->t = k->blocks[1];
	pb->s = k->blocks[2];
	pb->p = x->p;
	pb->c = x->c[0];
	pb->w = x->w[0];
	pb->m = x->m[0];
	if (x->hetero) {
		pb->ci = x->c;
		pb->wi = x->w;
		pb->mi = x->m;
	}
	x->mu_reuse = vproc_mw_mu_reuse(x->m_least);
	x->mu_holm = vproc_mw_mu_holm(x->m_least);
	x->mu_dd = vproc_mw_mu_dd(x->m_least);
	x->nu_bmm = vproc_mw_nu_bmm(x->m_least);
	x->nu_obmm = vproc_mw_nu_obmm(x->m_least);
}

/* HoLM's workers as the simulator takes them: s5.1's P for identical ones,
 * the fractional knapsack (C traffic ignored, as s5.1) otherwise. */
static vproc_status plan_enrol(mw_plan *x)
{
	if (!x->hetero) {
		x->P = vproc_mw_holm_workers(x->p, x->mu_holm, x->c[0], x->w[0]);
		for (size_t n = 0; n < x->p; n++)
			x->enrol[n] = n;
		return VPROC_OK;
	}
	double *frac = calloc(x->p, sizeof *frac), rate;
	if (!frac)
		return VPROC_ENOMEM;
	vproc_status st = vproc_mw_enrol(x->p, x->c, x->w, x->m, 0, x->enrol, frac, &x->P, &rate);
	free(frac);
	return st;
}

static vproc_status plan_simulate(const mw_cfg *k, mw_plan *x)
{
	vproc_status st = vproc_mw_lower_bound(&x->pb, &x->lower_bound);
	for (int s = 0; s < VPROC_MW_NSCHED && st == VPROC_OK; s++) {
		if (k->sched != VPROC_MW_NSCHED && k->sched != s && s != VPROC_MW_ODDOML && s != k->base)
			continue;  /* one scheduler, compare's baseline, and ODDOML (the JSON's) */
		st = vproc_mw_simulate(&x->pb, (vproc_mw_sched)s, &x->res[s], NULL);
		x->have[s] = st == VPROC_OK;
	}
	if (st == VPROC_OK)
		st = vproc_mw_holm_best_P(&x->pb, &x->best_P, &x->best_flags, &x->best);
	return st;
}

static void free_plan_mw(hl_plan *pl)
{
	mw_plan *x = pl->ext;
	if (x) {
		free(x->who);
		free(x->enrol);
		free(x->w);
		free(x->c);
		free(x->m);
		free(x);
	}
	pl->ext = NULL;
}

static int plan_mw(const hl_config *cfg, diag *d, hl_plan *pl)
{
	const mw_cfg *k = cfg->layout_cfg;
	mw_plan *x = calloc(1, sizeof *x);
	pl->ext = x;
	if (x == NULL || plan_workers(cfg, k, x) < 0) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	plan_layouts(k, x);
	pl->M = k->blocks[2];
	vproc_status st = plan_enrol(x);
	if (st == VPROC_OK)
		st = plan_simulate(k, x);
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "planning failed: %s", vproc_strerror(st));
		return -1;
	}
	return 0;
}

/* ---- ranks ---------------------------------------------------------------- */

/* Rank 0 is the master, ranks 1..p the workers in list order. */
static int ranks_mw(const hl_plan *pl, hl_ranks *r)
{
	const mw_plan *x = pl->ext;
	memset(r, 0, sizeof *r);
	r->nranks = x->p + 1;
	r->nprow = 1;
	r->npcol = r->nranks;
	r->machine = calloc(r->nranks, sizeof *r->machine);
	if (r->machine == NULL)
		return -1;
	r->machine[0] = kcfg(pl)->imaster;
	for (size_t n = 0; n < x->p; n++)
		r->machine[n + 1] = x->who[n];
	return 0;
}

/* The chosen scheduler (HoLM for `all`) against compare's baseline
 * (baseline_scheduler, ODDOML unless given). */
static vproc_mw_sched chosen(const hl_plan *pl)
{
	int s = kcfg(pl)->sched;
	return s == VPROC_MW_NSCHED ? VPROC_MW_HOLM : (vproc_mw_sched)s;
}

static vproc_mw_sched baseline(const hl_plan *pl)
{
	return (vproc_mw_sched)kcfg(pl)->base;
}

static double speedup_over(const hl_plan *pl, vproc_mw_sched base)
{
	const mw_plan *x = pl->ext;
	double mine = x->res[chosen(pl)].makespan;
	return mine > 0 ? x->res[base].makespan / mine : 0.0;
}

static double speedup_mw(const hl_plan *pl)
{
	return speedup_over(pl, baseline(pl));
}

/* ---- words ------------------------------------------------------------------ */

static void text_machines(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const mw_plan *x = pl->ext;
	const mw_cfg *k = kcfg(pl);
	int w = hl_plan_name_width(cfg);
	fprintf(out, "  %-*s  %-7s  %12s  %12s  %8s  %5s\n", w, "machine", "role", "w=cycle_time",
	        "c=block_time", "m", "mu");
	fprintf(out, "  %-*s  master\n", w, cfg->machines[k->imaster].name);
	for (size_t n = 0; n < x->p; n++)
		fprintf(out, "  %-*s  %-7s  %12.6g  %12.6g  %8zu  %5zu\n", w,
		        cfg->machines[x->who[n]].name, "worker", x->w[n], x->c[n], x->m[n],
		        vproc_mw_mu_holm(x->m[n]));
}

static void text_bounds(const mw_plan *x, FILE *out)
{
	double m = (double)x->m_least;
	fprintf(out, "\nLayouts for m = %zu buffers (s4.1, s5, s6.2): maximum re-use mu = %zu "
	        "(1 + mu + mu^2 <= m),\n  HoLM/ORROML/OMMOML/ODDOML mu = %zu (mu^2 + 4 mu <= m), "
	        "DDOML mu = %zu (mu^2 + 2 mu <= m),\n  BMM nu = %zu (3 nu^2 <= m), "
	        "OBMM nu = %zu (5 nu^2 <= m)\n", x->m_least, x->mu_reuse, x->mu_holm,
	        x->mu_dd, x->nu_bmm, x->nu_obmm);
	fprintf(out, "Communication per update (s4.2): maximum re-use 2/t + 2/mu = %.6g; bounds: "
	        "Loomis-Whitney %.6g, Toledo %.6g\n",
	        x->mu_reuse ? vproc_mw_ccr_reuse(x->mu_reuse, x->pb.t) : INFINITY,
	        vproc_mw_ccr_lw(m), vproc_mw_ccr_toledo(m));
	fprintf(out, "Volume with HoLM's tiles: V = 2rs + t(r ceil(s/mu) + s ceil(r/mu)) = %zu blocks\n",
	        vproc_mw_volume(x->pb.r, x->pb.t, x->pb.s, x->mu_holm));
}

static void text_enrol(const hl_plan *pl, FILE *out)
{
	const mw_plan *x = pl->ext;
	if (x->hetero)
		fprintf(out, "HoLM's workers (beyond the paper: by increasing c/mu, a fractional "
		        "knapsack): P = %zu:", x->P);
	else
		fprintf(out, "HoLM's workers (s5.1): P = min(p, ceil(mu w / 2c)) = %zu:", x->P);
	for (size_t n = 0; n < x->P; n++)
		fprintf(out, " %s", pl->cfg->machines[x->who[x->enrol[n]]].name);
	fputc('\n', out);
}

static void text_schedules(const hl_plan *pl, FILE *out)
{
	const mw_plan *x = pl->ext;
	fprintf(out, "\nSimulated in the one-port block model (notes s2.4), in units of "
	        "cycle_time:\n");
	fprintf(out, "  %-9s  %4s  %4s  %14s  %8s  %7s  %12s\n", "scheduler", "mu", "sets",
	        "makespan", "x bound", "workers", "blocks moved");
	fprintf(out, "  %-9s  %4s  %4s  %14.6g\n", "bound", "", "", x->lower_bound);
	for (int s = 0; s < VPROC_MW_NSCHED; s++) {
		if (!x->have[s])
			continue;
		const vproc_mw_result *o = &x->res[s];
		fprintf(out, "  %-9s  %4zu  %4zu  %14.6g  %8.3f  %7zu  %12zu\n",
		        vproc_mw_sched_name((vproc_mw_sched)s), o->mu, o->sets, o->makespan,
		        o->makespan / x->lower_bound, o->workers_used, o->blocks_moved);
	}
	fprintf(out, "  %-9s  %4zu  %4zu  %14.6g  %8.3f  %7zu  %12zu\n", "holm-best", x->best.mu,
	        x->best.sets, x->best.makespan, x->best.makespan / x->lower_bound,
	        x->best.workers_used, x->best.blocks_moved);
	fprintf(out, "  holm-best (beyond the paper): P = %zu, %s\n", x->best_P,
	        x->best_flags & VPROC_MW_RAGGED_FILL ? "rounds of any P tiles" : "Alg 1 as printed");
	vproc_mw_sched c = chosen(pl);
	fprintf(out, "  predicted speedup of %s over %s: %.3f\n", vproc_mw_sched_name(c),
	        vproc_mw_sched_name(baseline(pl)), speedup_mw(pl));
}

static void text_mw(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const mw_plan *x = pl->ext;
	const mw_cfg *k = kcfg(pl);
	fprintf(out, "hetlaunch plan: %s (%s)\n", cfg->name, cfg->file);
	fprintf(out, "layout master-worker: C += A B from master %s to %zu workers (paper 003), "
	        "scheduler %s\n", cfg->machines[k->imaster].name, x->p,
	        k->sched == VPROC_MW_NSCHED ? "all" : vproc_mw_sched_name((vproc_mw_sched)k->sched));
	fprintf(out, "kernel mw, nb = q = %zu: A %zu x %zu, B %zu x %zu, C %zu x %zu blocks\n\n",
	        cfg->nb, x->pb.r, x->pb.t, x->pb.t, x->pb.s, x->pb.r, x->pb.s);
	text_machines(pl, out);
	text_bounds(x, out);
	text_enrol(pl, out);
	text_schedules(pl, out);
}

static void json_result(jw *w, const char *name, const vproc_mw_result *o)
{
	jw_obj(w);
	jw_key(w, "scheduler"); jw_str(w, name);
	jw_key(w, "makespan"); jw_num(w, o->makespan);
	jw_key(w, "workers_used"); jw_uint(w, o->workers_used);
	jw_key(w, "blocks_sent"); jw_uint(w, o->blocks_moved);
	jw_key(w, "mu"); jw_uint(w, o->mu);
	jw_key(w, "sets"); jw_uint(w, o->sets);
	jw_key(w, "enrolled"); jw_uint(w, o->enrolled);
	jw_end(w);
}

static void json_ranks(const hl_plan *pl, jw *w)
{
	const mw_plan *x = pl->ext;
	const hl_config *cfg = pl->cfg;
	jw_key(w, "nprow"); jw_uint(w, 1);
	jw_key(w, "npcol"); jw_uint(w, x->p + 1);
	jw_key(w, "ranks");
	jw_arr(w);
	for (size_t n = 0; n <= x->p; n++) {
		size_t i = n ? x->who[n - 1] : kcfg(pl)->imaster;
		hl_layout_json_rank_open(w, n, &cfg->machines[i]);
		jw_key(w, "role"); jw_str(w, n ? "worker" : "master");
		jw_end(w);
	}
	jw_end(w);
}

static void json_mw(const hl_plan *pl, jw *w)
{
	const mw_plan *x = pl->ext;
	const mw_cfg *k = kcfg(pl);
	json_ranks(pl, w);
	jw_key(w, "master_worker");
	jw_obj(w);
	jw_key(w, "master"); jw_str(w, pl->cfg->machines[k->imaster].name);
	jw_key(w, "blocks"); jw_uint_array(w, k->blocks, 3);
	jw_key(w, "scheduler");
	jw_str(w, k->sched == VPROC_MW_NSCHED ? "all" : vproc_mw_sched_name((vproc_mw_sched)k->sched));
	jw_key(w, "mu"); jw_uint(w, x->mu_holm);
	jw_key(w, "mu_reuse"); jw_uint(w, x->mu_reuse);
	jw_key(w, "P"); jw_uint(w, x->P);
	jw_key(w, "enrolled");
	jw_arr_inline(w);
	for (size_t n = 0; n < x->P; n++)
		jw_str(w, pl->cfg->machines[x->who[x->enrol[n]]].name);
	jw_end(w);
	jw_key(w, "lower_bound"); jw_num(w, x->lower_bound);
	jw_key(w, "volume"); jw_uint(w, vproc_mw_volume(x->pb.r, x->pb.t, x->pb.s, x->mu_holm));
	jw_key(w, "schedules");
	jw_arr(w);
	for (int s = 0; s < VPROC_MW_NSCHED; s++)
		if (x->have[s])
			json_result(w, vproc_mw_sched_name((vproc_mw_sched)s), &x->res[s]);
	jw_end(w);
	jw_key(w, "holm_best");
	json_result(w, "holm-best", &x->best);
	jw_key(w, "predicted_speedup_over_oddoml"); jw_num(w, speedup_over(pl, VPROC_MW_ODDOML));
	jw_key(w, "baseline_scheduler"); jw_str(w, vproc_mw_sched_name(baseline(pl)));
	jw_key(w, "predicted_speedup_over_baseline"); jw_num(w, speedup_mw(pl));
	jw_end(w);
}

/* ---- the job: hl-mw (launcher/programs/mw.c) ------------------------------------ */

/* "key=v0,v1,..." with one value per worker, or one value when all agree. */
static char *list_arg(const char *key, const mw_plan *x, const double *d, const size_t *z)
{
	size_t n = x->hetero ? x->p : 1, cap = 16 + n * 26, len;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	len = (size_t)snprintf(buf, cap, "%s=", key);
	for (size_t i = 0; i < n; i++)
		len += d ? (size_t)snprintf(buf + len, cap - len, "%s%.17g", i ? "," : "", d[i])
		         : (size_t)snprintf(buf + len, cap - len, "%s%zu", i ? "," : "", z[i]);
	return buf;
}

/* The plan's scheduler (HoLM for `all`); compare's baseline is baseline_scheduler. */
static int kernel_args_mw(const hl_plan *pl, int base, char ***args, size_t *nargs)
{
	const mw_plan *x = pl->ext;
	vproc_mw_sched s = base ? baseline(pl) : chosen(pl);
	char **v = calloc(8, sizeof *v);
	char buf[4][96];
	snprintf(buf[0], sizeof buf[0], "scheduler=%s", vproc_mw_sched_name(s));
	snprintf(buf[1], sizeof buf[1], "blocks=%zu,%zu,%zu", x->pb.r, x->pb.t, x->pb.s);
	snprintf(buf[2], sizeof buf[2], "q=%zu", pl->cfg->nb);
	snprintf(buf[3], sizeof buf[3], "P=%zu", x->P);
	int oom = v == NULL;
	for (size_t i = 0; !oom && i < 4; i++)
		oom |= (v[i] = strdup(buf[i])) == NULL;
	if (!oom) {
		oom |= (v[4] = list_arg("m", x, NULL, x->m)) == NULL;
		oom |= (v[5] = list_arg("c", x, x->c, NULL)) == NULL;
		oom |= (v[6] = list_arg("w", x, x->w, NULL)) == NULL;
	}
	if (oom) {
		for (size_t i = 0; v && i < 7; i++)
			free(v[i]);
		free(v);
		return -1;
	}
	*args = v;
	*nargs = 7;
	return 0;
}

/* The simulated makespan as run.c wants it (divided by K there): one unit
 * of cycle_time is a block update, 2 q^3 flops, i.e. 2 q^3 / 10^6 Mflop
 * at K Mflop/s on a machine of cycle time 1. */
static double predicted_time_mw(const hl_plan *pl, int base)
{
	const mw_plan *x = pl->ext;
	vproc_mw_sched s = base ? baseline(pl) : chosen(pl);
	double q = (double)pl->cfg->nb;
	return x->res[s].makespan * 2.0 * q * q * q / 1e6;
}

const hl_layout_ops hl_layout_mw = {
	.name = "master-worker",
	.what = "matrix product from a master to workers of limited memory (003)",
	.load_key = load_key_mw,
	.check = check_mw,
	.free_config = free_config_mw,
	.plan = plan_mw,
	.free_plan = free_plan_mw,
	.print_text = text_mw,
	.print_json = json_mw,
	.ranks = ranks_mw,
	.ranks_baseline = ranks_mw,
	.predicted_speedup = speedup_mw,
	.kernel_args = kernel_args_mw,
	.predicted_time = predicted_time_mw,
};
