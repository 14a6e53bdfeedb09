/*
 * layout_common.c -- words the layouts' rows (layout.h) print alike: one
 * rank of the plan document, and layouts 1d's and 2d's predicted times per
 * block update against the ideal balance (000 s3.2, s4.3).
 */
#include <stdlib.h>
#include <string.h>

#include "util/hostlist.h"
#include "layout.h"
#include "lu_predict.h"

void hl_layout_text_title(const hl_plan *pl, FILE *out)
{
	const hl_config *cfg = pl->cfg;
	fprintf(out, "hetlaunch plan: %s (%s)", cfg->name, cfg->file);
	if (cfg->kernel == HL_KERNEL_EXEC)   /* what every prediction below assumes */
		fprintf(out, ", kernel exec, model: %s", cfg->model ?
		        hl_kernel_name(hl_config_model(cfg)) : "none (no algorithm to predict by)");
	fputc('\n', out);
}

void hl_layout_json_rank_open(jw *w, size_t rank, const hl_machine *m)
{
	jw_obj(w);
	jw_key(w, "rank"); jw_uint(w, rank);
	jw_key(w, "machine"); jw_str(w, m->name);
	jw_key(w, "host"); jw_str(w, m->host);
}

/* One line of the table: t, and t over the ideal balance. */
static void text_vs_ideal(FILE *out, const char *label, double t, double ideal)
{
	fprintf(out, "  %-32s %12.6g  %.2f x ideal\n", label, t, t / ideal);
}

void hl_layout_text_predicted(const hl_plan *pl, const hl_layout_labels *l, FILE *out)
{
	fprintf(out, "\nPredicted time per %s, in units of cycle_time:\n", l->unit);
	fprintf(out, "  %-32s %12.6g\n", l->ideal, pl->ideal);
	text_vs_ideal(out, l->plan, pl->hetero, pl->ideal);
	text_vs_ideal(out, l->cyclic, pl->cyclic, pl->ideal);
}

/*
 * The one predicted speedup of layouts 1d and 2d over their baseline, by
 * the most faithful model that applies: the seconds with the network
 * (emulated, or a real cluster's mflops: and latency/bandwidth), else the
 * step-by-step LU (1d: 000 Fig 5; 2d: the seconds model at the relative
 * speeds 1/cycle_time, no network), else the steady state (000 s3.2,
 * s4.2).  plan, run and compare all show this one.
 */
hl_dense_model hl_dense_speedup(const hl_plan *pl, double *speedup)
{
	const hl_config *cfg = pl->cfg;
	int network;
	if (hl_auto_speedup(pl, speedup, &network))   /* layout: auto's one baseline */
		return network ? HL_MODEL_SECONDS : HL_MODEL_STEP;
	if (hl_seconds_network(cfg) && pl->seconds[0] > 0 && pl->seconds[1] > 0) {
		*speedup = pl->seconds[1] / pl->seconds[0];
		return HL_MODEL_SECONDS;
	}
	/* 1d's step model is LU's; a product's blocks all stay to the end */
	/* 1d's step model is LU's; a product's blocks all stay to the end; a
	 * program of no model has no steps to model */
	int step = (pl->slice.pattern == NULL ||
	            !hl_kernel_row(hl_config_model(cfg), cfg->stock)->order_free) &&
	           hl_config_model(cfg) != HL_KERNEL_EXEC;
	if (step && pl->lu_hetero > 0 && pl->lu_cyclic > 0) {
		*speedup = pl->lu_cyclic / pl->lu_hetero;
		return HL_MODEL_STEP;
	}
	*speedup = pl->hetero > 0 ? pl->cyclic / pl->hetero : 0.0;
	return HL_MODEL_STEADY;
}

const char *hl_dense_model_name(hl_dense_model m)
{
	static const char *const names[] = { "seconds", "step-by-step", "steady state" };
	return names[m];
}

/* What the model is, in a few words, for the plan's text. */
static const char *model_words(const hl_plan *pl, hl_dense_model m)
{
	double x;
	int network;   /* layout: auto's speedup is its comparison's, 2d's words */
	int one_d = pl->slice.pattern != NULL && !hl_auto_speedup(pl, &x, &network);
	if (m == HL_MODEL_SECONDS)
		return hl_seconds_speeds(pl->cfg) == HL_SPEEDS_EMULATED
		       ? "seconds at the emulated speeds and network"
		       : "seconds at the given Mflop/s and network";
	if (m == HL_MODEL_STEP)
		return one_d ? "step-by-step LU, 000 Fig 5"
		             : "step-by-step, the seconds model at the relative speeds, no network";
	return one_d ? "steady state, 000 s3.2" : "steady state, 000 s4.2";
}

/* What fixed the plan: the user's keys, or hetlaunch's choices. */
static void what_fixed(const hl_plan *pl, char *buf, size_t len)
{
	const hl_config *cfg = pl->cfg;
	if (pl->slice.pattern != NULL) {
		if (pl->B_auto)
			snprintf(buf, len, "B = %zu chosen, the best up to max_procs = %zu", pl->B,
			         cfg->max_procs);
		else
			snprintf(buf, len, "B = %zu given: without B: hetlaunch chooses one", pl->B);
		return;
	}
	snprintf(buf, len, "%s %zu x %zu, panel %zu x %zu %s%s", pl->grid_auto ? "grid" : "grid given",
	         pl->p, pl->q, pl->panel.Bp, pl->panel.Bq, pl->panel_auto ? "chosen" : "given",
	         pl->grid_auto && pl->panel_auto ? "" : ": without grid: and panel: hetlaunch "
	         "chooses them");
}

void hl_layout_text_speedup(const hl_plan *pl, FILE *out)
{
	double s;
	hl_dense_model m = hl_dense_speedup(pl, &s);
	fprintf(out, "\nPredicted speedup over the baseline: %.2f (model: %s)\n", s,
	        model_words(pl, m));
	/* A plan slower than what a user would run without us is never made
	 * silently: said, with what made it so. */
	if (s > 0 && s < 1.0) {
		char fixed[160];
		what_fixed(pl, fixed, sizeof fixed);
		fprintf(out, "  this plan LOSES: it is predicted %.2f x slower than the baseline "
		        "(%s)\n", 1.0 / s, fixed);
	}
}

void hl_layout_json_predicted_open(const hl_plan *pl, jw *w)
{
	jw_key(w, "predicted");
	jw_obj(w);
	jw_key(w, "ideal"); jw_num(w, pl->ideal);
	jw_key(w, "cyclic"); jw_num(w, pl->cyclic);
	jw_key(w, "hetero"); jw_num(w, pl->hetero);
	jw_key(w, "speedup"); jw_num(w, pl->cyclic / pl->hetero);
}

void hl_layout_json_speedup(const hl_plan *pl, jw *w)
{
	double s;
	hl_dense_model m = hl_dense_speedup(pl, &s);
	jw_key(w, "predicted_speedup");
	jw_obj(w);
	jw_key(w, "value"); jw_num(w, s);
	jw_key(w, "model"); jw_str(w, hl_dense_model_name(m));
	jw_end(w);
}

/* ---- summaries of large lists (plan text; --full and --json keep all) --- */

int hl_text_summarised(const hl_plan *pl)
{
	return !pl->full && pl->cfg->nmachines > HL_TEXT_FULL_MAX;
}

size_t hl_text_run(const hl_config *cfg, const size_t *idx, size_t n, size_t i,
                   const size_t *key)
{
#define AT(k) (idx ? idx[k] : (k))
	const hl_machine *a = &cfg->machines[AT(i)];
	size_t j = i + 1;
	for (; j < n; j++) {
		const hl_machine *b = &cfg->machines[AT(j)];
		if (b->entry != a->entry || b->cycle_time != a->cycle_time ||
		    (key && key[AT(j)] != key[AT(i)]))
			break;
	}
	return j - i;
#undef AT
}

void hl_text_run_label(const hl_config *cfg, size_t first, size_t last, char *buf, size_t len)
{
	const char *a = cfg->machines[first].name, *b = cfg->machines[last].name;
	const char *dot = strrchr(a, '.');
	size_t stem = dot ? (size_t)(dot - a) + 1 : 0;
	if (first == last)
		snprintf(buf, len, "%s", a);
	else if (dot && strncmp(a, b, stem) == 0)   /* name.0-63: one count: entry */
		snprintf(buf, len, "%s-%s", a, b + stem);
	else
		snprintf(buf, len, "%s..%s", a, b);
}

void hl_text_run_hosts(const hl_config *cfg, size_t first, size_t last, char *buf, size_t len)
{
	char **hosts = malloc((last - first + 1) * sizeof *hosts), *g = NULL;
	size_t n = 0;
	for (size_t i = first; hosts && i <= last; i++)
		if (n == 0 || strcmp(hosts[n - 1], cfg->machines[i].host) != 0)
			hosts[n++] = cfg->machines[i].host;
	if (hosts && n > 1)
		g = hl_hostlist_group(hosts, n);
	snprintf(buf, len, "%s", g ? g : cfg->machines[first].host);
	free(g);
	free(hosts);
}
