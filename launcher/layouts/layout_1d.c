/*
 * layout_1d.c -- the row of `layout: 1d` (paper 000 s3, paper 002 s2): a
 * slice of B virtual processes over the machines, by the incremental
 * allocation reversed (000 s3.3-3.4, or 002 s4.4's optimized variant), run
 * as a 1 x B BLACS grid by stock ScaLAPACK.  Keys B, allocation, order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "lu_predict.h"

/* Long slices are summarised: a table of 10^6 rows helps nobody. */
#define SHOW_ROWS 64

/* ---- config ------------------------------------------------------------- */

static int load_key_1d(hl_config *cfg, const char *key, const yt_node *v, diag *d)
{
	int e;
	if (strcmp(key, "B") == 0) {
		cfg->B_loc.line = v->line;
		cfg->B_loc.col = v->col;
		return hl_cfg_key(d, HL_KS_TOP, key, v, &cfg->B);
	}
	if (hl_cfg_key(d, HL_KS_TOP, key, v, &e) < 0)   /* order, allocation */
		return -1;
	if (strcmp(key, "order") == 0)
		cfg->order = (hl_order)e;
	else
		cfg->allocation = (hl_allocation)e;
	return 0;
}

/* Impossible shapes: more virtual processes than column blocks; the
 * optimized allocation's two first chunks need B >= 2 (002 s4.4). */
static int check_1d(hl_config *cfg, const yt_node *root, diag *d)
{
	const yt_node *B = hl_cfg_get(root, "B");
	size_t M = hl_config_blocks(cfg);
	if (B && cfg->B > M && !cfg->n_auto) {   /* n: auto: memory.c, once n is chosen */
		diag_error(d, B->line, B->col,
		           "B = %zu exceeds the %zu column blocks of n = %zu, nb = %zu: "
		           "some processes would own no column", cfg->B, M, cfg->n, cfg->nb);
		return -1;
	}
	if (B && cfg->B == 1 && cfg->allocation == HL_ALLOC_OPTIMIZED) {
		diag_error(d, B->line, B->col,
		           "allocation: optimized gives the first two chunks to the fastest "
		           "machine, so B must be at least 2");
		return -1;
	}
	return 0;
}

/* ---- plan ----------------------------------------------------------------- */

/* Each machine's processes adjacent (vproc/planner/slice/pattern_group.c), the LU steps
 * predicted again on the order that runs. */
static vproc_status group_slice(hl_plan *plan)
{
	size_t p = plan->cfg->nmachines;
	vproc_status st = vproc_pattern_group(p, plan->B, plan->slice.pattern);
	if (st == VPROC_OK)
		st = vproc_lu_predict(p, plan->t, plan->B, plan->slice.pattern, plan->M,
		                      &plan->lu_hetero);
	if (st == VPROC_OK)
		plan->grouped = 1;
	return st;
}

/*
 * order: auto, for LU and QR.  000 s3.4 interleaves the machines
 * along the slice so that the shrinking matrix stays balanced at every
 * step.  But PDGETRF's and PDGEQRF's broadcasts along the slice are rings
 * (their S-ring and I-ring topologies), and the interleaved slice crosses
 * from one machine to another at nearly every hop: on a slow network each
 * crossing is a message on the wire.  Grouped, a ring crosses once per
 * machine.  Under the virtual clock (README, "The slice's order"): Table
 * 3's QR, 1 x 19 on the 100 Mb/s bus, n = 2000: 23.80 s interleaved,
 * 11.29 s grouped; lip's LU, B = 9, n = 2400: 27.95 s and 26.49 s.
 * QR's seconds model (vproc/planner/dense/qr_time.c) books the rings'
 * crossings but weighs the compute by each machine's total, blind to the
 * imbalance of the last steps that grouping brings; the step model (000
 * Fig 5) sees it, and its relative excess is charged on the grouped
 * estimate (a credit when the grouped slice happens to balance better:
 * lhpc's M = 75, B = 9 leaves its 3 extra blocks on lhpcb's processes).
 * LU's play of a row (lu_row_play.c) books every process's compute step
 * by step, so it sees that imbalance itself: charged the excess as well,
 * 8 machines of 4 ranks (n = 1024, nb = 32, B = M) kept interleaved,
 * emulated 4.4% slower than grouped (doc/design/1d.md).
 * Without a network to predict (a real cluster, no seconds model, or a
 * problem too large to model while planning) the paper's order stays.
 */
static vproc_status choose_order(hl_plan *plan)
{
	const hl_config *cfg = plan->cfg;
	if (cfg->order == HL_ORDER_GROUPED)
		return group_slice(plan);
	double ti = cfg->order == HL_ORDER_AUTO && hl_seconds_affordable(cfg, 1, plan->B)
	            ? hl_predicted_seconds(plan, 0) : 0.0;
	if (!(ti > 0))
		return VPROC_OK;
	size_t *keep = malloc(plan->B * sizeof *keep);
	if (keep == NULL)
		return VPROC_ENOMEM;
	memcpy(keep, plan->slice.pattern, plan->B * sizeof *keep);
	double lu_i = plan->lu_hetero;
	vproc_status st = group_slice(plan);
	if (st == VPROC_OK) {
		plan->order_s[0] = ti;
		plan->order_s[1] = hl_predicted_seconds(plan, 0);
		plan->order_excess = lu_i > 0 && hl_config_model(cfg) != HL_KERNEL_LU
		                     ? plan->lu_hetero / lu_i - 1.0 : 0.0;
		double tg = plan->order_s[1] * (1.0 + plan->order_excess);
		if (!(plan->order_s[1] > 0 && isfinite(tg) && tg < ti)) {   /* else interleaved */
			memcpy(plan->slice.pattern, keep, plan->B * sizeof *keep);
			plan->lu_hetero = lu_i;
			plan->grouped = 0;
		}
		/* the plan's seconds, not predicted again (plan.c) */
		plan->seconds[0] = plan->order_s[plan->grouped];
	}
	free(keep);
	return st;
}

static int plan_1d(const hl_config *cfg, diag *d, hl_plan *plan)
{
	size_t p = cfg->nmachines;
	plan->t = malloc(p * sizeof *plan->t);
	if (plan->t == NULL)
		goto oom;
	for (size_t i = 0; i < p; i++)
		plan->t[i] = cfg->machines[i].cycle_time;
	unsigned flags = cfg->allocation == HL_ALLOC_OPTIMIZED ? VPROC_SLICE_OPTIMIZED
	                                                       : VPROC_SLICE_PLAIN;
	plan->M = hl_config_blocks(cfg);
	plan->B = cfg->B;
	if (plan->B == 0) {
		/* More processes than column blocks would leave some idle. */
		size_t cap = cfg->max_procs < plan->M ? cfg->max_procs : plan->M;
		/* Every processor before any gets a second process (the cyclic
		 * baseline already uses them all). */
		size_t from = p < cap ? p : cap;
		vproc_status st = vproc_choose_B_from(p, plan->t, from, cap, HL_B_TOLERANCE, flags,
		                                      &plan->B);
		if (st != VPROC_OK) {
			diag_error(d, 0, 0, "cannot choose B: %s", vproc_strerror(st));
			return -1;
		}
		plan->B_auto = 1;
	}
	vproc_status st = vproc_slice_build(p, plan->t, plan->B, flags, &plan->slice);
	if (st == VPROC_OK)
		st = vproc_lu_predict(p, plan->t, plan->B, plan->slice.pattern, plan->M,
		                      &plan->lu_hetero);
	if (st == VPROC_OK) {
		/* Cyclic: virtual process k is machine k, one each, in list order. */
		size_t *ident = malloc(p * sizeof *ident);
		if (ident == NULL)
			goto oom;
		for (size_t i = 0; i < p; i++)
			ident[i] = i;
		st = vproc_lu_predict(p, plan->t, p, ident, plan->M, &plan->lu_cyclic);
		free(ident);
	}
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "planning failed: %s", vproc_strerror(st));
		return -1;
	}
	/* A product's blocks all stay to the end: the same processes in any
	 * order balance the same, and adjacent ones keep PBLAS's ring
	 * broadcasts on one machine (vproc/planner/slice/pattern_group.c).  Unless the user
	 * asks for the interleaved order. */
	if (hl_kernel_row(hl_config_model(cfg), cfg->stock)->order_free)
		st = cfg->order == HL_ORDER_INTERLEAVED ? VPROC_OK : group_slice(plan);
	else
		st = choose_order(plan);
	if (st != VPROC_OK) {
		diag_error(d, 0, 0, "ordering the slice failed: %s", vproc_strerror(st));
		return -1;
	}
	plan->ideal = vproc_cost_ideal(p, plan->t);
	plan->cyclic = vproc_cost_cyclic(p, plan->t);
	plan->hetero = plan->slice.cost;
	return 0;
oom:
	diag_error(d, 0, 0, "out of memory");
	return -1;
}


/* ---- ranks ---------------------------------------------------------------- */

/* Rank k (column k of the 1 x B grid) is virtual process k of the slice. */
static int ranks_1d(const hl_plan *plan, hl_ranks *r)
{
	memset(r, 0, sizeof *r);
	r->nprow = 1;
	r->npcol = plan->B;
	r->nranks = plan->B;
	r->machine = calloc(r->nranks, sizeof *r->machine);
	if (r->machine == NULL)
		return -1;
	for (size_t k = 0; k < r->nranks; k++)
		r->machine[k] = plan->slice.pattern[k];
	return 0;
}

/* What a user would run without us: one process per machine, list order. */
static int ranks_1d_baseline(const hl_plan *plan, hl_ranks *r)
{
	memset(r, 0, sizeof *r);
	r->nprow = 1;
	r->npcol = plan->cfg->nmachines;
	r->nranks = r->npcol;
	r->machine = calloc(r->nranks, sizeof *r->machine);
	if (r->machine == NULL)
		return -1;
	for (size_t k = 0; k < r->nranks; k++)
		r->machine[k] = k;
	return 0;
}

/* The step-by-step LU prediction (000 Fig 5) when there is one, else the
 * steady state. */
static int order_free(const hl_plan *plan)
{
	return hl_kernel_row(hl_config_model(plan->cfg), plan->cfg->stock)->order_free;
}

static double speedup_1d(const hl_plan *plan)
{
	double s;
	hl_dense_speedup(plan, &s);
	return s;
}

static const char *model_1d(const hl_plan *plan)
{
	double s;
	return hl_dense_model_name(hl_dense_speedup(plan, &s));
}

/* ---- words ------------------------------------------------------------------ */

static void print_machines(const hl_plan *pl, FILE *out, int w)
{
	const hl_config *cfg = pl->cfg;
	int hw = 4;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		int l = (int)strlen(cfg->machines[i].host);
		if (l > hw)
			hw = l;
	}
	int sum = hl_text_summarised(pl);
	for (size_t i = 0; sum && i < cfg->nmachines;) {   /* the labels' widths */
		size_t run = hl_text_run(cfg, NULL, cfg->nmachines, i, pl->slice.counts);
		char name[160], hosts[160];
		hl_text_run_label(cfg, i, i + run - 1, name, sizeof name);
		hl_text_run_hosts(cfg, i, i + run - 1, hosts, sizeof hosts);
		w = (int)strlen(name) > w ? (int)strlen(name) : w;
		hw = (int)strlen(hosts) > hw ? (int)strlen(hosts) : hw;
		i += run;
	}
	fprintf(out, "  %-*s  %-*s  %12s%s  %7s  %12s\n", w, "machine", hw, "host", "cycle_time",
	        cfg->by_speed ? "         speed" : "", "vprocs", "c*t");
	for (size_t i = 0; i < cfg->nmachines;) {
		const hl_machine *m = &cfg->machines[i];
		size_t c = pl->slice.counts[i];
		size_t run = sum ? hl_text_run(cfg, NULL, cfg->nmachines, i, pl->slice.counts) : 1;
		char name[160], hosts[160];
		hl_text_run_label(cfg, i, i + run - 1, name, sizeof name);
		hl_text_run_hosts(cfg, i, i + run - 1, hosts, sizeof hosts);
		fprintf(out, "  %-*s  %-*s  %12.6g", w, name, hw, hosts, m->cycle_time);
		if (cfg->by_speed)
			fprintf(out, "  %12.6g", m->speed);
		fprintf(out, "  %7zu  %12.6g", c, (double)c * m->cycle_time);
		if (run > 1)   /* identical processors of one count: entry */
			fprintf(out, "  (%zu machines, %zu processes)", run, run * c);
		fputc('\n', out);
		i += run;
	}
}

/* The slice pattern as runs of one list entry: "new1 x 64" (summaries). */
static void print_pattern_runs(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	const size_t *pat = pl->slice.pattern;
	size_t col = 0;
	for (size_t k = 0; k < pl->B;) {
		size_t j = k + 1;
		while (j < pl->B && cfg->machines[pat[j]].entry == cfg->machines[pat[k]].entry)
			j++;
		size_t first, count;
		hl_cfg_machine_entry(cfg, cfg->machines[pat[k]].entry, &first, &count);
		char label[160], item[200];
		hl_text_run_label(cfg, first, first + count - 1, label, sizeof label);
		snprintf(item, sizeof item, "%s x %zu", label, j - k);
		if (col + strlen(item) + 2 > 76) {
			fputc('\n', out);
			col = 0;
		}
		col += (size_t)fprintf(out, "%s%s", col ? ", " : "  ", item);
		k = j;
	}
	fputc('\n', out);
}


/* The order's choice (choose_order), when there was one to make. */
static void print_order(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	if (order_free(pl) || cfg->order != HL_ORDER_AUTO) {
		if (cfg->order != HL_ORDER_AUTO)
			fprintf(out, "\nSlice order: %s (given)\n", hl_order_name(cfg->order));
		return;
	}
	if (!(pl->order_s[0] > 0)) {
		fprintf(out, "\nSlice order: 000 s3.4's (%s)\n",
		        !cfg->emulate && hl_seconds_speeds(cfg) == HL_SPEEDS_NONE
		        ? "not emulated: no network to predict the other by"
		        : !hl_seconds_affordable(cfg, 1, pl->B) ? "too large to predict while planning"
		        : "no seconds model for this kernel or emulated network: "
		          "kernels lu, qr, emulate: mflops, a switch or a bus");
		return;
	}
	fprintf(out, "\nSlice order (order: auto), predicted seconds, network included:\n");
	fprintf(out, "  %-32s %12.4g s\n", "interleaved (000 s3.4)", pl->order_s[0]);
	if (pl->order_excess == 0.0)
		fprintf(out, "  %-32s %12.4g s\n", "grouped by machine", pl->order_s[1]);
	else
		fprintf(out, "  %-32s %12.4g s, %+.2f%% by the step model's balance: %.4g s\n",
		        "grouped by machine", pl->order_s[1], 100.0 * pl->order_excess,
		        pl->order_s[1] * (1.0 + pl->order_excess));
	fprintf(out, "  chosen: %s\n", pl->grouped ? "grouped" : "interleaved");
}

static void print_allocation(const hl_plan *pl, FILE *out, int w);
static void print_predicted_1d(const hl_plan *pl, FILE *out);

static void text_1d(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	int w = hl_plan_name_width(cfg);

	hl_layout_text_title(pl, out);
	fprintf(out, "layout 1d: a slice of B = %zu virtual processes (", pl->B);
	if (!pl->B_auto)
		fputs("given", out);
	else if (pl->hetero <= pl->ideal * (1.0 + HL_B_TOLERANCE))
		fputs("chosen: the smallest B within 10% of the ideal", out);
	else   /* say what was achieved, not the target missed */
		fprintf(out, "chosen: the best B up to %zu, %.2f x ideal; none is within 10%%",
		        cfg->max_procs < pl->M ? cfg->max_procs : pl->M, pl->hetero / pl->ideal);
	fprintf(out, "), allocation %s\n", hl_allocation_name(cfg->allocation));
	fprintf(out, "kernel %s, n = %zu, nb = %zu: M = %zu column blocks, grid 1 x %zu\n\n",
	        hl_kernel_name(cfg->kernel), cfg->n, cfg->nb, pl->M, pl->B);

	print_machines(pl, out, w);

	if (hl_text_summarised(pl)) {
		fprintf(out, "\nIncremental allocation (paper 000 s3.3): %zu chunks "
		        "(plan --full, or --json)\n", pl->B);
		fprintf(out, "\nSlice pattern, virtual processes 0..%zu in runs of one machine "
		        "entry%s:\n", pl->B - 1, pl->grouped ? " (grouped by machine)" : "");
		print_pattern_runs(pl, out);
	} else {
		print_allocation(pl, out, w);
	}
	print_predicted_1d(pl, out);
}

static void print_allocation(const hl_plan *pl, FILE *out, int w)
{
	const hl_config *cfg = pl->cfg;
	const vproc_slice *s = &pl->slice;
	fprintf(out, "\nIncremental allocation (paper 000 s3.3): chunk s goes to\n");
	fprintf(out, "  %7s  %-*s  %12s\n", "s", w, "machine", "cost/chunk");
	size_t rows = pl->B <= SHOW_ROWS || pl->full ? pl->B : SHOW_ROWS;
	for (size_t k = 0; k < rows; k++)
		fprintf(out, "  %7zu  %-*s  %12.6g\n", k + 1, w, cfg->machines[s->sigma[k]].name,
		        s->prefix_cost[k]);
	if (rows < pl->B)
		fprintf(out, "  %7s  (%zu more rows in --json)\n", "...", pl->B - rows);

	fprintf(out, "\nSlice pattern, the machine of virtual process 0..%zu %s:\n", pl->B - 1,
	        !pl->grouped ? "(the allocation reversed, 000 s3.4)"
	        : order_free(pl) ? "(grouped by machine: a product's blocks all stay to the end, "
	                           "so the order keeps the balance\n  and PBLAS's rings cross "
	                           "machines once per machine)"
	        : "(grouped by machine: a ring broadcast along the slice then\n  crosses "
	          "machines once per machine; see the order below)");
	size_t col = 0;
	for (size_t k = 0; k < rows; k++) {
		const char *name = cfg->machines[s->pattern[k]].name;
		size_t l = strlen(name) + 1;
		if (col + l > 76) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%s%s", col ? " " : "  ", name);
		col += l + (col ? 0 : 1);
	}
	if (rows < pl->B)
		fprintf(out, " ... (%zu more in --json)", pl->B - rows);
	fputc('\n', out);
}

static void print_predicted_1d(const hl_plan *pl, FILE *out)
{
	char label[64];
	snprintf(label, sizeof label, "this plan (B = %zu)", pl->B);
	hl_layout_text_predicted(pl, &(hl_layout_labels){
		.unit = "column block", .ideal = "ideal balance (B = infinity)",
		.plan = label, .cyclic = "cyclic, 1 process per machine" }, out);

	print_order(pl, out);
	if (order_free(pl) || hl_config_model(pl->cfg) == HL_KERNEL_EXEC)
		return;   /* the LU steps are not this kernel's, or no model was named */
	fprintf(out, "\nLU of M = %zu column blocks, step by step (000 Fig 5), "
	        "in cycle_time x block updates, %s:\n", pl->M,
	        pl->grouped ? "grouped" : "000 s3.4's order");
	fprintf(out, "  %-32s %12.6g\n", "this plan", pl->lu_hetero);
	fprintf(out, "  %-32s %12.6g\n", "cyclic, 1 process per machine", pl->lu_cyclic);
}

static void json_1d(const hl_plan *pl, jw *w)
{
	const hl_config *cfg = pl->cfg;
	const vproc_slice *s = &pl->slice;
	jw_key(w, "nprow"); jw_uint(w, 1);
	jw_key(w, "npcol"); jw_uint(w, pl->B);
	jw_key(w, "ranks");
	jw_arr(w);
	for (size_t k = 0; k < pl->B; k++) {
		hl_layout_json_rank_open(w, k, &cfg->machines[s->pattern[k]]);
		jw_key(w, "prow"); jw_uint(w, 0);
		jw_key(w, "pcol"); jw_uint(w, k);
		jw_end(w);
	}
	jw_end(w);

	jw_key(w, "B"); jw_uint(w, pl->B);
	jw_key(w, "B_chosen"); jw_bool(w, pl->B_auto);
	jw_key(w, "allocation"); jw_str(w, hl_allocation_name(cfg->allocation));
	jw_key(w, "pattern_grouped"); jw_bool(w, pl->grouped);
	jw_key(w, "order");
	jw_obj(w);
	jw_key(w, "mode"); jw_str(w, hl_order_name(cfg->order));
	jw_key(w, "chosen"); jw_str(w, pl->grouped ? "grouped" : "interleaved");
	jw_key(w, "interleaved_s");
	pl->order_s[0] > 0 ? jw_num(w, pl->order_s[0]) : jw_null(w);
	jw_key(w, "grouped_s");
	pl->order_s[0] > 0 ? jw_num(w, pl->order_s[1]) : jw_null(w);
	jw_key(w, "grouped_excess");
	pl->order_s[0] > 0 ? jw_num(w, pl->order_excess) : jw_null(w);
	jw_end(w);
	jw_key(w, "pattern");
	jw_arr_inline(w);
	for (size_t k = 0; k < pl->B; k++)
		jw_str(w, cfg->machines[s->pattern[k]].name);
	jw_end(w);
	jw_key(w, "selected");
	jw_arr_inline(w);
	for (size_t k = 0; k < pl->B; k++)
		jw_str(w, cfg->machines[s->sigma[k]].name);
	jw_end(w);
	jw_key(w, "prefix_cost");
	jw_num_array(w, s->prefix_cost, pl->B);
	jw_key(w, "counts");
	jw_obj(w);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		jw_key(w, cfg->machines[i].name);
		jw_uint(w, s->counts[i]);
	}
	jw_end(w);

	hl_layout_json_predicted_open(pl, w);
	jw_key(w, "lu");
	jw_obj(w);
	jw_key(w, "M"); jw_uint(w, pl->M);
	jw_key(w, "hetero"); jw_num(w, pl->lu_hetero);
	jw_key(w, "cyclic"); jw_num(w, pl->lu_cyclic);
	jw_key(w, "speedup");
	if (pl->lu_hetero > 0)
		jw_num(w, pl->lu_cyclic / pl->lu_hetero);
	else
		jw_null(w);
	jw_end(w);
	jw_end(w);
}

const hl_layout_ops hl_layout_1d = {
	.name = "1d",
	.what = "a slice of B virtual processes, a 1 x B grid (000 s3, 002 s2)",
	.load_key = load_key_1d,
	.check = check_1d,
	.plan = plan_1d,
	.print_text = text_1d,
	.print_json = json_1d,
	.ranks = ranks_1d,
	.ranks_baseline = ranks_1d_baseline,
	.predicted_speedup = speedup_1d,
	.predicted_time = hl_lu_predicted_time,   /* seconds, network included */
	.speedup_model = model_1d,
};
