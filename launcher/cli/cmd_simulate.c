/*
 * simulate.c -- `hetlaunch simulate FILE [--json]`: paper 002 s4 on the
 * configured problem.  The LU (or QR) task graph of M = ceil(n / nb) column
 * blocks is scheduled three ways -- the static slice of the plan's B
 * (s2.2), the optimized allocation (s4.4), the dynamic heuristic of
 * Maheswaran and Siegel (s4.3) -- and simulated (vproc/planner/dense/taskgraph.h),
 * beside the best static slice over B and a lower bound.  Nothing runs.
 *
 * Units: the plan's, cycle_time per b x b block update (2 b^3 flops), so
 * that the static slice's level-synchronous time is the plan's step-by-step
 * LU prediction plus the panels and messages.  A b x b block crosses the
 * network in comm_cost (default: the fastest machine's cycle time, as for
 * layout 2d).
 */
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "planner/dense/taskgraph.h"
#include "util/diag.h"
#include "util/json.h"
#include "layouts/layout.h"
#include "layouts/memory.h"
#include "layouts/plan.h"
#include "cli.h"
#include "launch/run.h"

typedef struct {
	vproc_tg g;
	double unit;                    /* flops of one block update, 2 b^3 */
	vproc_tg_times tm[VPROC_TG_NSCHED];
	size_t bestB, Bmax;
	double best, bound, beta_block;
} sim_result;

static int simulate_plan(const hl_config *cfg, const hl_plan *plan, sim_result *r)
{
	memset(r, 0, sizeof *r);
	size_t p = cfg->nmachines, b = cfg->nb;
	r->beta_block = cfg->comm_cost > 0 ? cfg->comm_cost : plan->t[vproc_fastest(p, plan->t)];
	r->unit = 2.0 * (double)b * (double)b * (double)b;
	/* flops x t / unit is time in cycle_time units, so one element costs
	 * beta_block / b^2 of those, that is beta_block unit / b^2 flop-times. */
	r->g = (vproc_tg){ cfg->kernel == HL_KERNEL_QR ? VPROC_TG_QR : VPROC_TG_LU, plan->M, b,
	                   r->beta_block * r->unit / ((double)b * (double)b) };
	vproc_status st = vproc_tg_three(&r->g, p, plan->t, plan->B, NULL, r->tm);
	r->Bmax = plan->M < cfg->max_procs ? plan->M : cfg->max_procs;
	if (st == VPROC_OK)
		st = vproc_tg_best_B(&r->g, p, plan->t, r->Bmax, NULL, &r->bestB, &r->best);
	r->bound = vproc_tg_lower_bound(&r->g, p, plan->t);
	if (st != VPROC_OK) {
		fprintf(stderr, "hetlaunch: simulate: %s\n", vproc_strerror(st));
		return 1;
	}
	return 0;
}

/* The simulation's cost: vproc_tg_best_B simulates the M (M+1) / 2 tasks
 * once per B <= B_max, and the three schedules cost about 8 such passes more
 * (the dynamic heuristic sorts each level).  Measured (nb 1, lhpc-lu's
 * three machines): 2^25 task passes take 2.6 s, and 64 bytes per task are
 * held, 240 MB at most as B_max >= 1.  More is refused, like any size the
 * loader reads, before anything is simulated. */
#define SIM_MAX_PASSES ((double)(1u << 25))

static int check_cost(const hl_config *cfg, diag *d)
{
	size_t M = hl_config_blocks(cfg);
	size_t Bmax = M < cfg->max_procs ? M : cfg->max_procs;
	double tasks = (double)M * ((double)M + 1) / 2;
	if (tasks * ((double)Bmax + 8) <= SIM_MAX_PASSES)
		return 0;
	diag_error(d, cfg->n_loc.line, cfg->n_loc.col,
	           "simulate: M = %zu column blocks (n %zu, nb %zu): %.4g tasks simulated in "
	           "B_max + 8 = %zu passes, more than 2^25 task passes; use a larger nb or a "
	           "smaller max_procs", M, cfg->n, cfg->nb, tasks, Bmax + 8);
	return -1;
}

/* The plan, at the n it plans for: under n: auto (kernel: hpl) the cost is
 * known once the plan has chosen n. */
static int build_plan(hl_config *cfg, diag *d, hl_plan *plan)
{
	if (check_cost(cfg, d) < 0 || hl_plan_build_n(cfg, d, plan) < 0)
		return -1;
	if (cfg->n_auto && check_cost(cfg, d) < 0) {
		hl_plan_free(plan);
		return -1;
	}
	return 0;
}

static const char *const NAMES[VPROC_TG_NSCHED] = { "static", "optimized", "dynamic" };

static void print_json(const hl_config *cfg, const hl_plan *plan, const sim_result *r)
{
	jw w;
	jw_init(&w, stdout);
	jw_obj(&w);
	jw_key(&w, "kernel"); jw_str(&w, hl_kernel_name(cfg->kernel));
	jw_key(&w, "n"); jw_uint(&w, cfg->n);
	jw_key(&w, "nb"); jw_uint(&w, cfg->nb);
	jw_key(&w, "M"); jw_uint(&w, plan->M);
	jw_key(&w, "B"); jw_uint(&w, plan->B);
	jw_key(&w, "comm_cost"); jw_num(&w, r->beta_block);
	jw_key(&w, "predicted_lu"); jw_num(&w, plan->lu_hetero);
	for (int v = 0; v < VPROC_TG_NSCHED; v++) {
		jw_key(&w, NAMES[v]);
		jw_obj(&w);
		jw_key(&w, "makespan"); jw_num(&w, r->tm[v].makespan / r->unit);
		jw_key(&w, "levels"); jw_num(&w, r->tm[v].levels / r->unit);
		jw_key(&w, "load"); jw_num(&w, r->tm[v].load / r->unit);
		jw_key(&w, "messages"); jw_uint(&w, r->tm[v].messages);
		jw_end(&w);
	}
	jw_key(&w, "best_static");
	jw_obj(&w);
	jw_key(&w, "B"); jw_uint(&w, r->bestB);
	jw_key(&w, "B_max"); jw_uint(&w, r->Bmax);
	jw_key(&w, "makespan"); jw_num(&w, r->best / r->unit);
	jw_end(&w);
	jw_key(&w, "lower_bound"); jw_num(&w, r->bound / r->unit);
	jw_end(&w);
	jw_done(&w);
}

static void print_text(const hl_config *cfg, const hl_plan *plan, const sim_result *r)
{
	static const char *const LABEL[VPROC_TG_NSCHED] = {
		"static slice (002 s2.2)", "optimized (002 s4.4)", "dynamic (002 s4.3)" };
	printf("%s: %s task graph of M = %zu column blocks (n %zu, nb %zu), B = %zu,\n"
	       "simulated (002 s4); times in cycle_time x block updates, a block sent in %.4g\n",
	       cfg->name, cfg->kernel == HL_KERNEL_QR ? "QR" : "LU", plan->M, cfg->n, cfg->nb,
	       plan->B, r->beta_block);
	if (cfg->n_auto)
		printf("%s\n", cfg->n_auto_why);
	printf("  %-28s %14s %14s %14s %9s\n", "schedule", "makespan", "levels", "load", "messages");
	for (int v = 0; v < VPROC_TG_NSCHED; v++)
		printf("  %-28s %14.6g %14.6g %14.6g %9zu\n", LABEL[v], r->tm[v].makespan / r->unit,
		       r->tm[v].levels / r->unit, r->tm[v].load / r->unit, r->tm[v].messages);
	printf("  best static slice, B <= %-4zu %14.6g   (B = %zu)\n", r->Bmax, r->best / r->unit,
	       r->bestB);
	printf("  lower bound                  %14.6g\n", r->bound / r->unit);
	printf("  plan's step-by-step LU prediction (updates only): %.6g\n", plan->lu_hetero);
}

int hl_cmd_simulate(const hl_cli_args *a)
{
	const char *file = a->file;
	int json = hl_cli_has(a, HL_OPT_JSON);
	diag d;
	diag_init(&d, file);
	hl_config cfg;
	hl_plan plan;
	int rc = 2;
	if (hl_config_load(file, &d, &cfg) < 0) {
		diag_print(&d, stderr);
		diag_free(&d);
		return 2;
	}
	/* HPL is LU by column blocks: its task graph is LU's */
	if (strcmp(hl_layout_name(cfg.layout), "1d") != 0 ||
	    (cfg.kernel != HL_KERNEL_LU && cfg.kernel != HL_KERNEL_QR &&
	     cfg.kernel != HL_KERNEL_HPL)) {
		fprintf(stderr, "hetlaunch: simulate: %s: layout 1d with kernel lu, qr or hpl only "
		        "(002 s4 schedules column blocks)\n", file);
	} else if (build_plan(&cfg, &d, &plan) < 0) {
		diag_print(&d, stderr);
	} else {
		sim_result r;
		rc = simulate_plan(&cfg, &plan, &r);
		if (rc == 0 && json)
			print_json(&cfg, &plan, &r);
		else if (rc == 0)
			print_text(&cfg, &plan, &r);
		hl_plan_free(&plan);
	}
	hl_config_free(&cfg);
	diag_free(&d);
	if (fflush(stdout) != 0 && rc == 0)
		rc = 1;
	return rc;
}
