/*
 * calibrate.c -- `hetlaunch calibrate FILE [--json] [-o NEWFILE]`: measure
 * each machine's cycle time as paper 000 s5.1 did, with a DGEMM repeated
 * and averaged, one process per core, all at once (hl-probe): every core
 * of every node is busy, as in the run (a node's cores share its memory
 * bandwidth, caches and power budget, so one core alone is faster than
 * each of 64 busy ones).  A machine of `cores: c` is c probes whose rates
 * add up to the node's.  The DGEMM is the shape the plan's kernel spends
 * its time in: for the ScaLAPACK kernels the trailing update, m = n the
 * local order (at most 2048), k = nb; otherwise 000 s5.1's order 500.
 * On real hosts it measures the hosts; with emulate: it measures the
 * emulated machines, and must give back the configured ratios.
 *
 * cycle_time is written in milliseconds per DGEMM of that shape, speed in
 * Mflop/s: only the ratios matter to the planner (000 s2).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "util/diag.h"
#include "util/fsutil.h"
#include "launch/openmpi.h"
#include "util/json.h"
#include "layouts/layout.h"
#include "report/measured.h"
#include "layouts/memory.h"
#include "layouts/plan.h"
#include "report/report.h"
#include "cli.h"
#include "launch/run.h"

#include <math.h>

#define CAL_N 500
#define CAL_REPS 7
#define CAL_MAX_ORDER 2048

/* The DGEMM the probes time: m x m x k, reps times; why, in words. */
typedef struct {
	size_t m, k, reps;
	char why[96];
} cal_shape;

/* The one this calibrate times (mflops_of); --from keeps 000 s5.1's. */
static cal_shape shape = { CAL_N, CAL_N, CAL_REPS, "000 s5.1's order 500" };

static double mflops_of(double ms)
{
	return 2.0 * (double)shape.m * (double)shape.m * (double)shape.k / (ms * 1e-3) / 1e6;
}

/* The plan's DGEMM: a ScaLAPACK kernel's trailing update of a process's
 * share (n / sqrt(P) square, P the probes) by nb columns; as many
 * repetitions as 000 s5.1's seven of order 500 take flops (3 to 1000). */
static cal_shape choose_shape(const hl_config *cfg, size_t nprocs)
{
	cal_shape c = { CAL_N, CAL_N, CAL_REPS, "" };
	hl_kernel k = cfg->kernel;
	/* HPL's update is LU's (HPL_pdupdate: a DGEMM of the local trailing
	 * matrix by nb columns) */
	if (k != HL_KERNEL_LU && k != HL_KERNEL_QR && k != HL_KERNEL_CHOL && k != HL_KERNEL_MM &&
	    k != HL_KERNEL_HPL) {
		snprintf(c.why, sizeof c.why, "000 s5.1's order %d (kernel %s has no block update)",
		         CAL_N, hl_kernel_name(k));
		return c;
	}
	double local = ceil((double)cfg->n / sqrt((double)(nprocs ? nprocs : 1)));
	c.m = local > CAL_MAX_ORDER ? CAL_MAX_ORDER : local < (double)cfg->nb ? cfg->nb : (size_t)local;
	c.k = cfg->nb < c.m ? cfg->nb : c.m;
	double reps = round((double)CAL_REPS * CAL_N * CAL_N * CAL_N /
	                    ((double)c.m * (double)c.m * (double)c.k));
	c.reps = reps < 3 ? 3 : reps > 1000 ? 1000 : (size_t)reps;
	snprintf(c.why, sizeof c.why, "%s's trailing update at n = %zu, nb = %zu", hl_kernel_name(k),
	         cfg->n, cfg->nb);
	return c;
}

/* The measured ms per DGEMM: a table or --json on stdout, -o NEWFILE. */
static int calibrate_output(const hl_config *cfg, const double *ms, int json, const char *out,
                        int quiet, const char *dir)
{
	int rc = 0;
	double tmin = ms[0];
	for (size_t i = 0; i < cfg->nmachines; i++)
		if (ms[i] < tmin)
			tmin = ms[i];
	if (json) {
		jw w;
		jw_init(&w, stdout);
		jw_obj(&w);
		jw_key(&w, "dgemm_order"); jw_uint(&w, shape.m);
		jw_key(&w, "dgemm_k"); jw_uint(&w, shape.k);
		jw_key(&w, "reps"); jw_uint(&w, shape.reps);
		jw_key(&w, "dgemm_why"); jw_str(&w, shape.why);
		jw_key(&w, "unit"); jw_str(&w, "ms per DGEMM");
		jw_key(&w, "machines");
		jw_arr(&w);
		for (size_t i = 0; i < cfg->nmachines; i++) {
			jw_obj(&w);
			jw_key(&w, "name"); jw_str(&w, cfg->machines[i].name);
			jw_key(&w, "cycle_time"); jw_num(&w, ms[i]);
			jw_key(&w, "speed"); jw_num(&w, mflops_of(ms[i]));
			jw_key(&w, "configured_cycle_time"); jw_num(&w, cfg->machines[i].cycle_time);
			jw_key(&w, "relative"); jw_num(&w, ms[i] / tmin);
			jw_end(&w);
		}
		jw_end(&w);
		jw_key(&w, "emulated"); jw_bool(&w, cfg->emulate);
		jw_key(&w, "dir"); jw_str(&w, dir);
		jw_end(&w);
		jw_done(&w);
	} else {
		printf("%-16s %12s %10s %10s %12s\n", "machine", "cycle_time", "Mflop/s",
		       "relative", "configured");
		double cmin = cfg->machines[0].cycle_time;
		for (size_t i = 0; i < cfg->nmachines; i++)
			if (cfg->machines[i].cycle_time < cmin)
				cmin = cfg->machines[i].cycle_time;
		for (size_t i = 0; i < cfg->nmachines; i++)
			printf("%-16s %12.4g %10.0f %10.4f %12.4f\n", cfg->machines[i].name, ms[i],
			       mflops_of(ms[i]), ms[i] / tmin, cfg->machines[i].cycle_time / cmin);
	}
	if (out) {
		char err[512];
		int w = hl_calibrate_edit(cfg, ms, out, err, sizeof err);
		if (w < 0) {
			fprintf(stderr, "hetlaunch: calibrate: %s\n", err);
			rc = w == -2 ? 2 : 1;
		} else if (!quiet) {
			fprintf(stderr, "hetlaunch: calibrate: wrote %s\n", out);
		}
	}
	return rc;
}

/* calibrate's command line. */
typedef struct {
	const char *file, *out, *dir, *from;
	int json, quiet;
} cal_args;

/* The parsed command line (options.h) as calibrate's arguments. */
static void cal_args_from(const hl_cli_args *c, cal_args *a)
{
	*a = (cal_args){ 0 };
	a->file = c->file;
	a->json = hl_cli_has(c, HL_OPT_JSON);
	a->quiet = hl_cli_has(c, HL_OPT_QUIET);
	a->out = c->val[HL_OPT_OUTPUT];
	a->dir = c->val[HL_OPT_OUT];
	a->from = c->val[HL_OPT_FROM];   /* 002 s4.5: the speeds a finished run measured */
}

/* The probes: one per core, in list order, a `cores: c` machine being c
 * one-core machines of 1/c its speed on its CPUs (hostfile.h), so that
 * every core of a node is busy; owner[j]: probe j's machine.  The job's
 * machines are malloc'd (free them alone: the names and hosts are cfg's). */
static hl_machine *probe_machines(const hl_config *cfg, size_t *n, size_t **owner)
{
	size_t total = 0;
	for (size_t m = 0; m < cfg->nmachines; m++)
		total += cfg->machines[m].cores ? cfg->machines[m].cores : 1;
	hl_machine *pm = malloc((total ? total : 1) * sizeof *pm);
	*owner = malloc((total ? total : 1) * sizeof **owner);
	if (pm == NULL || *owner == NULL) {
		free(pm);
		free(*owner);
		return NULL;
	}
	size_t j = 0;
	for (size_t m = 0; m < cfg->nmachines; m++) {
		size_t c = cfg->machines[m].cores ? cfg->machines[m].cores : 1;
		for (size_t i = 0; i < c; i++, j++) {
			pm[j] = cfg->machines[m];
			pm[j].cores = 1;
			pm[j].cycle_time *= (double)c;   /* a core is 1/c of the node */
			pm[j].speed /= (double)c;
			pm[j].emulate_mflops /= (double)c;
			(*owner)[j] = m;
		}
	}
	*n = total;
	return pm;
}

/* The job: one process per probe machine, in list order: the cyclic
 * baseline of a 1d plan of them, running the probe with args.  n and nb
 * leave a column block for each (B = the probes). */
static hl_config probe_job(const hl_config *cfg, hl_machine *pm, size_t npm, char *probe,
                           char **args)
{
	hl_config job = *cfg;
	job.machines = pm;
	job.nmachines = npm;
	job.layout = hl_layout_find("1d");
	job.layout_cfg = NULL;
	job.kernel = HL_KERNEL_EXEC;
	job.program = probe;
	job.args = args;
	job.nargs = 4;
	job.nb = 1;
	job.n = npm > cfg->n ? npm : cfg->n;
	job.B = npm;
	job.grid[0] = job.grid[1] = job.panel[0] = job.panel[1] = 0;
	return job;
}

/* runs/NAME-YYYYmmdd-HHMMSS-calibrate, now, into buf. */
static const char *default_dir(const hl_config *cfg, char *buf, size_t len)
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "runs/%s-%s-calibrate", cfg->name, stamp);
	return buf;
}

/* The probes' "hl-probe K HOST SECONDS TOTAL" lines of log into ms[K]
 * (ms per DGEMM, the last line of each K wins); how many machines spoke. */
static size_t read_probe_lines(const char *log, size_t nmachines, double *ms)
{
	size_t got = 0;
	const char *s = log;
	while ((s = strstr(s, "hl-probe ")) != NULL) {
		int k;
		char host[256];
		double sec, total;
		if (sscanf(s, "hl-probe %d %255s %lf %lf", &k, host, &sec, &total) == 4 &&
		    k >= 0 && (size_t)k < nmachines && sec > 0) {
			if (ms[k] == 0)
				got++;
			ms[k] = sec * 1e3;
		}
		s += 9;
	}
	return got;
}

/* ms[m] of machine m from the probes' pms[j]: a node's cores work at once,
 * so it does c DGEMMs in their mean time. */
static void fold(const hl_config *cfg, const double *pms, const size_t *owner, size_t npm,
                 double *ms)
{
	for (size_t j = 0; j < npm; j++)
		ms[owner[j]] += pms[j];
	for (size_t m = 0; m < cfg->nmachines; m++) {
		double c = (double)(cfg->machines[m].cores ? cfg->machines[m].cores : 1);
		ms[m] = ms[m] / c / c;
	}
}

/* Run the probes (paper 000 s5.1) and output what they measured; the
 * exit status. */
static int measure(const hl_config *cfg, const hl_config *job, const hl_plan *plan,
                   const size_t *owner, const cal_args *a)
{
	char dbuf[PATH_MAX];
	const char *dir = a->dir ? a->dir : default_dir(cfg, dbuf, sizeof dbuf);
	hl_run_opts o = { .out_dir = dir, .baseline = 1, .quiet = 1 };
	hl_run run;
	if (!a->quiet)
		fprintf(stderr, "hetlaunch: calibrate: DGEMM %zu x %zu x %zu (%s) x %zu, %zu processes "
		        "at once: every core of the %zu machines busy...\n", shape.m, shape.m, shape.k,
		        shape.why, shape.reps, job->nmachines, cfg->nmachines);
	int rc = hl_run_and_report(job, plan, &o, &run);
	double *pms = calloc(job->nmachines, sizeof *pms), *ms = calloc(cfg->nmachines, sizeof *ms);
	if (rc == 0 && (ms == NULL || pms == NULL)) {
		fprintf(stderr, "hetlaunch: calibrate: out of memory\n");
		rc = 1;
	} else if (rc == 0) {
		size_t got = read_probe_lines(run.job.log, job->nmachines, pms);
		if (got != job->nmachines) {
			fprintf(stderr, "hetlaunch: calibrate: %zu of %zu processes reported (log: %s/log.txt)\n",
			        got, job->nmachines, run.dir);
			rc = 1;
		}
	} else if (rc != 0) {
		fprintf(stderr, "hetlaunch: calibrate: %s%s%s%s\n", run.error,
		        run.dir[0] ? " (log: " : "", run.dir, run.dir[0] ? "/log.txt)" : "");
	}
	if (rc == 0) {
		fold(cfg, pms, owner, job->nmachines, ms);
		rc = calibrate_output(cfg, ms, a->json, a->out, a->quiet, run.dir);
	}
	free(pms);
	free(ms);
	hl_run_free(&run);
	return rc;
}

/* n: auto: the n that plan and run choose (the user's plan, dropped), so
 * that the probe measures the update at that order; exit 2 if none fits,
 * or (kernel: hpl) if hpcc cannot run it, as plan and run refuse it. */
static int resolve_n(hl_config *cfg, diag *d)
{
	hl_plan plan;
	if (!cfg->n_auto && cfg->kernel != HL_KERNEL_HPL)
		return 0;
	if (hl_plan_build_n(cfg, d, &plan) < 0)
		return -1;
	hl_plan_free(&plan);
	return 0;
}

/* The loaded configuration's probe job, planned and measured; the exit
 * status.  probe: [PATH_MAX]. */
static int calibrate_config(const hl_config *cfg, diag *d, char *probe, const cal_args *a)
{
	/* mpi: openmpi runs the probe built against Open MPI (HETLAUNCH_PROBE wins). */
	if (cfg->mpi == HL_MPI_OPENMPI && getenv("HETLAUNCH_PROBE") == NULL &&
	    hl_beside_binary(NULL, "lib/hetlaunch/openmpi/hl-probe", 1, probe, PATH_MAX) != 0) {
		fprintf(stderr, "hetlaunch: calibrate: cannot find the Open MPI hl-probe (%s)\n", probe);
		return 1;
	}
	size_t npm, *owner;
	hl_machine *pm = probe_machines(cfg, &npm, &owner);
	if (pm == NULL) {
		fprintf(stderr, "hetlaunch: calibrate: out of memory\n");
		return 1;
	}
	shape = choose_shape(cfg, npm);
	char m[32], reps[32], k[32];
	snprintf(m, sizeof m, "%zu", shape.m);
	snprintf(reps, sizeof reps, "%zu", shape.reps);
	snprintf(k, sizeof k, "%zu", shape.k);
	char *args[] = { m, reps, (char *)"0", k, NULL };
	hl_config job = probe_job(cfg, pm, npm, probe, args);
	hl_plan plan;
	int rc = 2;
	if (hl_plan_build(&job, d, &plan) < 0) {
		diag_print(d, stderr);
	} else {
		rc = measure(cfg, &job, &plan, owner, a);
		hl_plan_free(&plan);
	}
	free(pm);
	free(owner);
	if (fflush(stdout) != 0 && rc == 0)
		rc = 1;
	return rc;
}

/* `calibrate --from RUNDIR [FILE]`: the times of a finished run's report. */
static int calibrate_from(const char *rundir, const char *file, int json, const char *out,
                          int quiet)
{
	hl_config cfg;
	double *ms;
	const char *source = NULL;
	int rc = hl_measured_from_report(rundir, file, &cfg, &ms, &source);
	if (rc != 0)
		return rc;
	if (!quiet)
		fprintf(stderr, "hetlaunch: calibrate: %s: from %s\n", rundir, source);
	rc = calibrate_output(&cfg, ms, json, out, quiet, rundir);
	free(ms);
	hl_config_free(&cfg);
	return rc;
}

int hl_cmd_calibrate(const hl_cli_args *args)
{
	cal_args a;
	int rc;
	cal_args_from(args, &a);
	char err[512];
	if (a.out && hl_output_check(a.out, err, sizeof err) < 0) {   /* before measuring */
		fprintf(stderr, "hetlaunch: calibrate: %s\n", err);
		return 2;
	}
	if (a.from)
		return calibrate_from(a.from, a.file, a.json, a.out, a.quiet);
	if (a.file == NULL)
		return hl_usage_error("%s", "calibrate: missing FILE");
	char probe[PATH_MAX];
	if (hl_beside_binary("HETLAUNCH_PROBE", "lib/hetlaunch/hl-probe", 1, probe,
	                     sizeof probe) != 0) {
		fprintf(stderr, "hetlaunch: calibrate: cannot find hl-probe (%s); set "
		        "HETLAUNCH_PROBE\n", probe);
		return 1;
	}
	diag d;
	diag_init(&d, a.file);
	hl_config cfg;
	int loaded = hl_config_load(a.file, &d, &cfg) == 0;
	if (!loaded || resolve_n(&cfg, &d) < 0) {
		diag_print(&d, stderr);
		if (loaded)
			hl_config_free(&cfg);
		diag_free(&d);
		return 2;
	}
	rc = calibrate_config(&cfg, &d, probe, &a);
	hl_config_free(&cfg);
	diag_free(&d);
	return rc;
}
