#include "plan.h"

#include <stdlib.h>
#include <string.h>

int hl_plan_build(const hl_config *cfg, diag *d, hl_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	plan->cfg = cfg;
	if (cfg->layout != HL_LAYOUT_1D) {
		diag_error(d, 0, 0, "layout: 2d needs the 2D planner, which this version of "
		           "hetlaunch does not have yet; use layout: 1d");
		return -1;
	}
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
		vproc_status st = vproc_choose_B(p, plan->t, cap, HL_B_TOLERANCE, flags, &plan->B);
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
	plan->ideal = vproc_cost_ideal(p, plan->t);
	plan->cyclic = vproc_cost_cyclic(p, plan->t);
	plan->hetero = plan->slice.cost;
	return 0;
oom:
	diag_error(d, 0, 0, "out of memory");
	return -1;
}

void hl_plan_free(hl_plan *plan)
{
	vproc_slice_free(&plan->slice);
	free(plan->t);
	memset(plan, 0, sizeof *plan);
}
