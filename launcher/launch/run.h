/*
 * run.h -- plan -> files -> job -> report: the run directory,
 * the MPI command, the job, and report.json; compare runs two of them.
 */
#ifndef HL_RUN_H
#define HL_RUN_H

#include <limits.h>
#include <stddef.h>

#include "config/config.h"
#include "placement.h"
#include "layouts/plan.h"
#include "spawn.h"
#include "kernels/testers.h"
#include "trace.h"

typedef struct {
	const char *out_dir;     /* NULL: runs/<name>-<timestamp>[-cyclic] */
	int baseline;            /* --baseline cyclic: one process per machine */
	int dry_run;             /* write everything, start nothing */
	int quiet;               /* do not echo the job's lines */
	int no_preload;          /* --no-preload: stock MPI waiting (for measuring) */
	double host_mflops;      /* emulate: this computer's speed; 0: measure it */
} hl_run_opts;

typedef struct {
	char dir[PATH_MAX];
	int status;              /* exit status: 0, 1 or 2 */
	char error[512];         /* why status != 0 */
	size_t nprow, npcol, nranks;
	int baseline;
	hl_results results;
	int passed;
	double time;             /* sum of the results' times (s) */
	double predicted_time;   /* emulate: W x cost / K (s); 0 otherwise */
	double host_mflops;
	hl_spawn_result job;
	int emulated, overrun_flagged;
	double overrun_fraction;
	size_t *rank_machine;    /* [nranks] config index of each rank's machine */
	hl_placement placement;  /* where each rank said it ran (placement.h) */
	char **job_env;          /* NAME=VALUE the launcher was started with (srun), or NULL */
	double hpl_wall;         /* kernel: hpl: HPL's section in wall s; < 0 not seen */
	int hpl_only;            /* kernel: hpl: hpcc's costly other benchmarks skipped */
	const char *ranks_source;   /* results.ranks from: "program", "runtime", or NULL */
	char ranks_missing[192];    /* when NULL: why there are none */
	hl_trace_info trace;        /* trace.json (trace.h) */
	const char *time_clock;     /* "virtual" or "wall": the clock of time, results[].time
	                             * and ranks[] (NULL: wall) */
	char *report;               /* report.json's text as written (no final newline), or NULL */
} hl_run;

/* Returns the exit status; *run is filled as far as it got (free it). */
int hl_run_job(const hl_config *cfg, const hl_plan *plan, const hl_run_opts *o, hl_run *run);
void hl_run_free(hl_run *run);

/* For the commands that run several jobs (compare, run --adapt): this
 * computer measured once into o->host_mflops (unless given), so that the
 * runs share one figure, and an emulation it cannot run (nranks: the most
 * any of the runs has) refused before anything is written.  Returns 0, or
 * the exit status with the reason in err. */
int hl_run_precheck(const hl_config *cfg, size_t nranks, hl_run_opts *o, char *err,
                    size_t errlen);

/* The predicted speedup of the plan over one process per machine: the
 * step-by-step LU prediction for 1d, the steady state for 2d. */
double hl_predicted_speedup(const hl_plan *plan);
/* The model it comes from: "seconds", "step-by-step", "steady state" (layouts
 * 1d and 2d: the most faithful that applies), or "the layout's". */
const char *hl_predicted_speedup_model(const hl_plan *plan);

/* What to change when a run is flagged for overruns (one line, no period). */
void hl_overrun_advice(const hl_config *cfg, const hl_run *run, char *buf, size_t len);
/* compare: why its times are not the emulated cluster's, "" if they are. */
void hl_compare_flagged(const hl_run *cyc, const hl_run *het, char *buf, size_t len);

/* The report document of INTERFACE.md (without the emulation details). */
#include "util/json.h"
void hl_run_report_json(jw *w, const hl_config *cfg, const hl_plan *plan, const hl_run *run);

#endif
