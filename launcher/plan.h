/*
 * plan.h -- machines -> plan: call libvproc on a validated configuration and
 * keep everything the report and the files need.  The algorithms live in
 * vproc/; this module only chooses what to call.
 */
#ifndef HL_PLAN_H
#define HL_PLAN_H

#include <stdio.h>

#include "config.h"
#include "diag.h"
#include "vproc.h"

/* The tolerance of the automatic choice of B: within 10% of the ideal. */
#define HL_B_TOLERANCE 0.10

typedef struct {
	const hl_config *cfg;
	double *t;            /* [nmachines] cycle times, in list order */
	size_t B;
	int B_auto;           /* 1 if we chose B */
	vproc_slice slice;
	double ideal;         /* 1 / sum 1/t_i */
	double cyclic;        /* max t / p */
	double hetero;        /* max c_i t_i / B */
	size_t M;             /* column blocks, ceil(n / nb) */
	double lu_hetero;     /* step-by-step LU time of the plan */
	double lu_cyclic;     /* step-by-step LU time, one process per machine */
} hl_plan;

/* Returns 0, or -1 with the reason in d (exit status 2). */
int hl_plan_build(const hl_config *cfg, diag *d, hl_plan *plan);
void hl_plan_free(hl_plan *plan);

/* The readable table of `hetlaunch plan`. */
void hl_plan_print_text(const hl_plan *plan, FILE *out);
/* The plan document of INTERFACE.md. */
void hl_plan_print_json(const hl_plan *plan, FILE *out);

#endif
