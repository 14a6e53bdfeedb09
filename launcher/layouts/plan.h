/*
 * plan.h -- machines -> plan: call libvproc on a validated configuration and
 * keep everything the report and the files need.  The algorithms live in
 * vproc/; this module only chooses what to call.
 */
#ifndef HL_PLAN_H
#define HL_PLAN_H

#include <stdio.h>

#include "config/config.h"
#include "util/diag.h"
#include "planner/planner.h"

/* The tolerance of the automatic choice of B: within 10% of the ideal. */
#define HL_B_TOLERANCE 0.10
/* auto arrangement: the exact search up to this many machines */
#define HL_EXACT_MAX 16

typedef struct hl_auto_pick hl_auto_pick;

/* layout: 2d: alike hosts given unequal counts by the speed-ordered
 * arrangement (as many machines, each the same in every key the models
 * read), and what dealing their grid cells did (alike_hosts.c). */
typedef struct {
	size_t first;          /* the group's first machine (config index) */
	size_t hosts, procs;   /* its hosts; the processes of their cells */
	vproc_deal_result res; /* VPROC_DEAL_EQUAL: a split was found */
	int dealt;             /* the plan gives them equal counts */
} hl_alike;

typedef struct {
	const hl_config *cfg;
	double seconds[2]; /* the predicted seconds of the plan and
	                       * of its baseline at the emulated speeds and network
	                       * (plan.c: layout.h predicted_time / K, unless the
	                       * layout's plan set it; 0: none) */
	double seconds_work[2]; /* no seconds: the models' work, over the
	                         * planning budget [1] (lu_predict.c); else 0 */
	double *t;            /* [nmachines] cycle times, in list order (both layouts) */
	size_t B;
	int B_auto;           /* 1 if we chose B */
	vproc_slice slice;
	double ideal;         /* 1 / sum 1/t_i */
	double cyclic;        /* max t / p */
	double hetero;        /* max c_i t_i / B */
	size_t M;             /* column blocks, ceil(n / nb) */
	double lu_hetero;     /* step-by-step LU time of the plan */
	double lu_cyclic;     /* step-by-step LU time, one process per machine */
	int grouped;          /* the slice's or the panel's patterns have each
	                       * machine's processes adjacent: an order-free
	                       * kernel (kernels.h), or the order chosen (1d) */
	double order_s[2];    /* 1d, order: auto: the predicted seconds of the
	                       * interleaved and the grouped slice, network
	                       * included (0: not compared) */
	double order_excess;  /* the grouped slice's step-model excess (000 Fig 5),
	                       * lu(grouped) / lu(interleaved) - 1 */

	/* layout: 2d (000 s4) */
	size_t p, q;          /* the grid of machines */
	int grid_auto;        /* 1 if we chose p x q */
	vproc_shape shape;    /* the prediction that chose it (grid_auto) */
	double beta;          /* comm_cost used */
	size_t *sel;          /* [nmachines] config indices by speed: the first p*q
	                       * are on the grid, the rest were left out */
	double *tsel;         /* [p*q] their cycle times */
	size_t dropped;       /* machines left out (the slowest) */
	vproc_grid grid;      /* arrangement: grid.arr indexes sel[] */
	const char *method;   /* "exact" or "heuristic" */
	double *T;            /* [p*q] the arranged cycle times, row-major */
	vproc_panel panel;
	int panel_auto;       /* 1 if we chose Bp x Bq */
	double bound;         /* sum 1/t over the grid's machines */
	double kl;            /* Kalinov-Lastovetsky, per block: a baseline, not runnable */
	hl_alike *alike;      /* [nalike] groups that the arrangement left unequal */
	size_t nalike;
	double deal_cost;     /* the dealt plan's seconds at the relative speeds over
	                       * the speed-ordered one's (0: none dealt or predicted) */

	/* other layouts: their row's own plan (freed by its free_plan) */
	void *ext;
	/* layout: auto: the choice between 1d and 2d, and the config copy cfg
	 * points to (layout_auto.c; NULL otherwise) */
	const struct hl_auto_pick *pick;
	int full;             /* print every table whole (plan --full) */
} hl_plan;

/*
 * The processes of a job, in MPI rank order (BLACS row-major grid): what the
 * host files, the tester's input file and the run all read.  Built from a
 * plan (the heterogeneous mapping) or as the cyclic baseline (one process
 * per machine: 1 x p for 1d, the plan's p x q machines in list order for 2d).
 */
typedef struct {
	size_t nprow, npcol;  /* the BLACS grid; nranks = nprow * npcol */
	size_t nranks;
	size_t *machine;      /* [nranks] config index of each rank's machine */
} hl_ranks;

/* Returns 0, or -1 when out of memory. */
int hl_ranks_from_plan(const hl_plan *plan, hl_ranks *r);
int hl_ranks_cyclic(const hl_plan *plan, hl_ranks *r);
void hl_ranks_free(hl_ranks *r);

/* The machine (config index) at grid position (i, j). */
size_t hl_plan_at(const hl_plan *plan, size_t i, size_t j);

/* Returns 0, or -1 with the reason in d (exit status 2). */
int hl_plan_build(const hl_config *cfg, diag *d, hl_plan *plan);
void hl_plan_free(hl_plan *plan);

/* The readable table of `hetlaunch plan`. */
void hl_plan_print_text(const hl_plan *plan, FILE *out);
/* The plan document of INTERFACE.md. */
void hl_plan_print_json(const hl_plan *plan, FILE *out);

#endif
