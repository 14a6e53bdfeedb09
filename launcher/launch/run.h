/*
 * run.h -- plan -> files -> job: the run directory, the MPI command, the
 * job, and what it measured (hl_run), which report/ writes as report.json.
 */
#ifndef HL_RUN_H
#define HL_RUN_H

#include <limits.h>
#include <stddef.h>

#include "config/config.h"
#include "emulation.h"
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
	int aborted;             /* a rank called MPI_Abort under the runtime: */
	hl_emu_abort abort;      /* which, its code, and at: s after the job started */
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
	char *emulation_json;       /* the emulation's counters (report.json's "emulation"),
	                             * read before the segment went, or NULL */
	int finished;               /* the job ran (not a dry run, not refused): report due */
} hl_run;

/* Returns the exit status; *run is filled as far as it got (free it).
 * report/'s hl_run_and_report also writes report.json. */
int hl_run_job(const hl_config *cfg, const hl_plan *plan, const hl_run_opts *o, hl_run *run);
void hl_run_free(hl_run *run);

/* For the commands that run several jobs (compare, run --adapt): this
 * computer measured once into o->host_mflops (unless given), so that the
 * runs share one figure, and an emulation it cannot run (nranks: the most
 * any of the runs has) refused before anything is written.  Returns 0, or
 * the exit status with the reason in err. */
int hl_run_precheck(const hl_config *cfg, size_t nranks, hl_run_opts *o, char *err,
                    size_t errlen);

#endif
