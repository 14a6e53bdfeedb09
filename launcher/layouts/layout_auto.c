/*
 * layout_auto.c -- the row of `layout: auto`: a dispatcher over the rows
 * of layouts 1d (000 s3) and 2d (000 s4).  It plans both and keeps the one
 * predicted faster; the plan it returns IS that row's plan (its cfg a copy
 * of the file's with that row), so the files, the run and the report know
 * no third layout.  It takes the keys of both rows (B for the slice, grid
 * and panel for the grid: given, they bind the plan of that layout only).
 *
 * The comparison is in predicted seconds of the whole LU, step by step:
 * at the given speeds and network when there are some (emulated, or a real
 * cluster's mflops: with latency_us, bandwidth_mbps), else at the relative
 * speeds 1/cycle_time without a network.  Steady-state costs are no
 * yardstick here: 1d's is per column block, 2d's per b x b block, and
 * neither sees 1d's pivot broadcasts to every process.
 */
#include <stdlib.h>
#include <string.h>

#include "config/keys.h"
#include "layout.h"
#include "lu_predict.h"

extern const hl_layout_ops hl_layout_1d, hl_layout_2d;

struct hl_auto_pick {
	hl_config cfg;       /* the file's, with the chosen row */
	double s[2];         /* predicted seconds of the 1d and the 2d plan (0: none) */
	double base;         /* ... of the one baseline, the kept plan's (0: none) */
	size_t base_grid[2]; /* its BLACS grid: one process per machine */
	int network;         /* s[] include a network */
	int relative;        /* s[] at the relative speeds 1/cycle_time */
	char why[200];       /* why a layout could not be compared */
};

/* ---- config: the keys of both rows ---------------------------------------- */

static int load_key_auto(hl_config *cfg, const char *key, const yt_node *v, diag *d)
{
	const hl_layout_ops *row = hl_key_of_layout(HL_KS_TOP, "1d", key) ? &hl_layout_1d : &hl_layout_2d;
	return row->load_key(cfg, key, v, d);
}

static int check_auto(hl_config *cfg, const yt_node *root, diag *d)
{
	int a = hl_layout_1d.check(cfg, root, d), b = hl_layout_2d.check(cfg, root, d);
	return a < 0 || b < 0 ? -1 : 0;
}

/* ---- plan ----------------------------------------------------------------- */

/* One row's plan on a copy of the file's config, and its predicted seconds
 * (0 when it could not be planned or predicted: the reason in why). */
static double plan_one(const hl_config *cfg, const hl_layout_ops *row, hl_config *copy,
                       hl_plan *pl, hl_auto_pick *pick)
{
	*copy = *cfg;
	copy->layout = row;
	diag scratch;
	diag_init(&scratch, cfg->file);
	double s = 0.0;
	if (hl_plan_build(copy, &scratch, pl) < 0) {
		snprintf(pick->why, sizeof pick->why, "layout %s cannot be planned: %s", row->name,
		         scratch.count && scratch.msg[0] ? scratch.msg[0] : "?");
		memset(pl, 0, sizeof *pl);
	} else {
		s = pick->relative ? hl_model_seconds(pl, 0, HL_SPEEDS_RELATIVE) : pl->seconds[0];
		if (!(s > 0))
			snprintf(pick->why, sizeof pick->why, "layout %s: no prediction (%s, or too "
			         "large to model)", row->name, cfg->kernel == HL_KERNEL_EXEC && !cfg->model
			         ? "kernel exec without model:" : "no seconds model of this kernel");
	}
	diag_free(&scratch);
	return s;
}

/* Every speedup of the file is over one baseline, the kept plan's (what
 * compare runs), in the comparison's model: the 1d, the 2d and the final
 * line then agree. */
static void one_baseline(const hl_plan *plan, hl_auto_pick *pick)
{
	hl_ranks r = { 0 };
	if (hl_ranks_cyclic(plan, &r) == 0) {
		pick->base_grid[0] = r.nprow;
		pick->base_grid[1] = r.npcol;
		hl_ranks_free(&r);
	}
	pick->base = pick->relative ? hl_model_seconds(plan, 1, HL_SPEEDS_RELATIVE)
	                            : plan->seconds[1];
	if (!(pick->base > 0))
		pick->base = 0.0;
}

int hl_auto_speedup(const hl_plan *pl, double *speedup, int *network)
{
	const hl_auto_pick *a = pl->pick;
	if (a == NULL)
		return 0;
	double s = a->s[a->cfg.layout == &hl_layout_2d];
	if (!(a->base > 0 && s > 0))
		return 0;
	*speedup = a->base / s;
	*network = a->network;
	return 1;
}

static int plan_auto(const hl_config *cfg, diag *d, hl_plan *plan)
{
	hl_auto_pick *pick = calloc(1, sizeof *pick);
	hl_config *c2 = calloc(1, sizeof *c2);
	if (pick == NULL || c2 == NULL) {
		free(pick);
		free(c2);
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	pick->network = hl_seconds_network(cfg);
	pick->relative = !pick->network;
	hl_plan p1, p2;
	pick->s[0] = plan_one(cfg, &hl_layout_1d, &pick->cfg, &p1, pick);
	pick->s[1] = plan_one(cfg, &hl_layout_2d, c2, &p2, pick);
	int two = pick->s[1] > 0 && (!(pick->s[0] > 0) || pick->s[1] < pick->s[0]);
	if (!two && p1.cfg == NULL) {   /* neither could be planned: 1d's reason */
		hl_plan_free(&p2);
		free(c2);
		free(pick);
		return hl_layout_1d.plan(cfg, d, plan);
	}
	hl_plan_free(two ? &p1 : &p2);
	if (two)
		pick->cfg = *c2;
	free(c2);
	*plan = two ? p2 : p1;
	plan->cfg = &pick->cfg;
	plan->pick = pick;
	one_baseline(plan, pick);
	return 0;
}

/* ---- words ------------------------------------------------------------------ */

/* The unit of the comparison's times: seconds only with real speeds. */
static const char *auto_unit(const hl_auto_pick *a)
{
	return a->network ? "s" : "Mflop at speed 1";
}

void hl_auto_print_text(const hl_plan *pl, FILE *out)
{
	const hl_auto_pick *a = pl->pick;
	if (a == NULL)
		return;
	int two = a->cfg.layout == &hl_layout_2d;
	hl_kernel model = hl_config_model(&a->cfg);
	fprintf(out, "\nlayout: auto kept %s: the predicted time of the whole %s, step by step, %s\n",
	        a->cfg.layout->name, model == HL_KERNEL_QR ? "QR" : model == HL_KERNEL_MM ? "product" : "LU",
	        a->network ? "in seconds, network included"
	        : "at the relative speeds\n  1/cycle_time, no network given, in Mflop at speed 1 "
	          "(the time a machine of speed 1,\n  cycle_time 1, takes for 10^6 flop: not seconds)");
	if (a->base > 0)
		fprintf(out, "  %-9s %12.4g %s  (the one baseline: %s's, %zu x %zu, one process "
		        "per machine)\n", "baseline", a->base, auto_unit(a), a->cfg.layout->name,
		        a->base_grid[0], a->base_grid[1]);
	for (int k = 0; k < 2; k++) {
		if (!(a->s[k] > 0))
			continue;
		fprintf(out, "  %-9s %12.4g %s", k ? "2d" : "1d", a->s[k], auto_unit(a));
		if (a->base > 0)
			fprintf(out, "  speedup %.2f over the baseline", a->base / a->s[k]);
		fputc('\n', out);
	}
	double r = two ? a->s[0] / a->s[1] : a->s[1] / a->s[0];
	if (a->s[0] > 0 && a->s[1] > 0 && r < 1.005)
		fprintf(out, "  a tie: 1d kept (a slice needs no grid)\n");
	else if (a->s[0] > 0 && a->s[1] > 0)
		fprintf(out, "  %s is %.2f x faster\n", two ? "2d" : "1d", r);
	else
		fprintf(out, "  (%s)\n", a->why);
}

void hl_auto_json(const hl_plan *pl, jw *w)
{
	const hl_auto_pick *a = pl->pick;
	if (a == NULL)
		return;
	jw_key(w, "layout_auto");
	jw_obj(w);
	jw_key(w, "chosen"); jw_str(w, a->cfg.layout->name);
	jw_key(w, "network"); jw_bool(w, a->network);
	jw_key(w, "units"); jw_str(w, a->network ? "s" : "relative");
	jw_key(w, "1d"); a->s[0] > 0 ? jw_num(w, a->s[0]) : jw_null(w);
	jw_key(w, "2d"); a->s[1] > 0 ? jw_num(w, a->s[1]) : jw_null(w);
	jw_key(w, "baseline"); a->base > 0 ? jw_num(w, a->base) : jw_null(w);
	jw_key(w, "why"); a->s[0] > 0 && a->s[1] > 0 ? jw_null(w) : jw_str(w, a->why);
	jw_end(w);
}

/* Never called on a plan (plan_auto returns the chosen row's); here so
 * that the row is whole. */
static void text_auto(const hl_plan *pl, FILE *out) { pl->cfg->layout->print_text(pl, out); }
static void json_auto(const hl_plan *pl, jw *w) { pl->cfg->layout->print_json(pl, w); }
static int ranks_auto(const hl_plan *pl, hl_ranks *r) { return pl->cfg->layout->ranks(pl, r); }
static int ranks_auto_baseline(const hl_plan *pl, hl_ranks *r)
{
	return pl->cfg->layout->ranks_baseline(pl, r);
}
static double speedup_auto(const hl_plan *pl) { return pl->cfg->layout->predicted_speedup(pl); }
static const char *model_auto(const hl_plan *pl) { return pl->cfg->layout->speedup_model(pl); }

const hl_layout_ops hl_layout_auto = {
	.name = "auto",
	.what = "1d or 2d, whichever is predicted faster (000 s3, s4)",
	.load_key = load_key_auto,
	.check = check_auto,
	.plan = plan_auto,
	.print_text = text_auto,
	.print_json = json_auto,
	.ranks = ranks_auto,
	.ranks_baseline = ranks_auto_baseline,
	.predicted_speedup = speedup_auto,
	.predicted_time = hl_lu_predicted_time,
	.speedup_model = model_auto,
};
