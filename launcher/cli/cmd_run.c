/*
 * cmd_run.c -- `hetlaunch run`, `hetlaunch FILE`, `hetlaunch compare`:
 * parse the command line, load, plan, call run.c, print.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "config/config.h"
#include "util/rundir.h"
#include "report/balance.h"
#include "util/diag.h"
#include "launch/emulation.h"
#include "util/fsutil.h"
#include "util/json.h"
#include "layouts/memory.h"
#include "layouts/plan.h"
#include "report/report.h"
#include "cli.h"
#include "launch/run.h"
#include "launch/slurm.h"

enum { EXIT_JOB = 1, EXIT_USAGE = 2 };

typedef struct {
	const char *file;
	hl_run_opts o;
	int json;
	size_t adapt;     /* --adapt K: K phases (002 s4.5, cmd_adapt.c) */
} run_args;

/* The parsed command line (options.h) as run.c's options. */
static int run_args_from(const char *cmd, const hl_cli_args *c, run_args *a)
{
	memset(a, 0, sizeof *a);
	a->file = c->file;
	a->json = hl_cli_has(c, HL_OPT_JSON);
	a->o.quiet = hl_cli_has(c, HL_OPT_QUIET);
	a->o.no_preload = hl_cli_has(c, HL_OPT_NO_PRELOAD);
	a->o.out_dir = c->val[HL_OPT_OUT];
	a->o.dry_run = hl_cli_has(c, HL_OPT_DRY_RUN);
	a->o.baseline = hl_cli_has(c, HL_OPT_BASELINE);
	const char *k = c->val[HL_OPT_ADAPT];
	if (k) {
		char *end = NULL;
		unsigned long v = strtoul(k, &end, 10);
		if (v < 1 || !end || *end || k[0] == '-')
			return hl_usage_error("%s: --adapt takes a number of phases >= 1", cmd);
		a->adapt = v;
	}
	return 0;
}

static void print_result(const hl_result *r)
{
	char res[32] = "?";   /* a tester that gives none, or one unparseable */
	if (isfinite(r->residual))
		snprintf(res, sizeof res, "%.3g", r->residual);
	if (r->wall)
		fprintf(stderr, "  n %zu: %.3f s (the job's wall time: the program printed no "
		        "result line) %s\n", r->n, r->time, r->check);
	else if (r->span)
		fprintf(stderr, "  n %zu: %.6f s (virtual: the slowest rank's MPI_Init to MPI_Finalize; "
		        "the program printed no result line) %s\n", r->n, r->time, r->check);
	else
		fprintf(stderr, "  n %zu nb %zu: %.3f s, %.3f Gflop/s, residual %s %s\n", r->n, r->nb,
		        r->time, r->gflops, res, r->check);
}

static void print_summary(const hl_config *cfg, const hl_run *run)
{
	const char *prog = cfg->program ? cfg->program : hl_kernel_row(cfg->kernel, cfg->stock)->program;
	const char *base = strrchr(prog, '/');
	fprintf(stderr, "hetlaunch: %s: %s on %zu x %zu (%zu ranks, %s): %s\n", cfg->name,
	        base ? base + 1 : prog, run->nprow, run->npcol, run->nranks,
	        run->baseline ? "cyclic" : "hetero", run->passed ? "PASSED" : "FAILED");
	for (size_t i = 0; i < run->results.nresults; i++)
		print_result(&run->results.results[i]);
	if (cfg->kernel == HL_KERNEL_HPL && run->hpl_wall >= 0)
		fprintf(stderr, "  hpcc: HPL's section %.1f s of the job's %.1f s wall time (%s)\n",
		        run->hpl_wall, run->job.elapsed,
		        run->hpl_only ? "MPIRandomAccess, its LCG variant and PTRANS skipped"
		                      : "all of hpcc's benchmarks run");
	if (run->predicted_time > 0 && run->time > 0)
		fprintf(stderr, "  predicted %.3f s at the emulated speeds; measured / predicted "
		        "= %.2f\n", run->predicted_time, run->time / run->predicted_time);
	if (run->emulated)
		fprintf(stderr, "  emulation: overruns %.1f%% of the compute%s\n",
		        100 * run->overrun_fraction,
		        run->overrun_flagged ? " -- FLAGGED: this computer could not keep up; "
		                               "the times are not the emulated cluster's" : "");
	if (run->emulated && run->overrun_flagged) {
		char advice[512];
		hl_overrun_advice(cfg, run, advice, sizeof advice);
		fprintf(stderr, "  to keep up: %s\n", advice);
	}
	if (run->job.log) {
		char where[1024];
		hl_placement_text(&run->placement, where, sizeof where);
		fprintf(stderr, "  placement: %s\n", where);
	}
	if (run->error[0])
		fprintf(stderr, "hetlaunch: %s\n", run->error);
	fprintf(stderr, "  run directory: %s\n", run->dir);
}

/* The config and its plan; on failure the problems are printed and
 * nothing is left to free. */
static int load(const char *file, diag *d, hl_config *cfg, hl_plan *plan)
{
	diag_init(d, file);
	if (hl_config_load(file, d, cfg) < 0) {
		diag_print(d, stderr);
		diag_free(d);
		return -1;
	}
	if (hl_plan_build_checked(cfg, d, plan) < 0) {
		diag_print(d, stderr);
		hl_config_free(cfg);
		diag_free(d);
		return -1;
	}
	return 0;
}

/* Frees what load() made and returns the exit status: rc, or EXIT_JOB
 * when stdout could not be written (a --json reader got a cut document). */
static int unload(diag *d, hl_config *cfg, hl_plan *plan, int rc)
{
	hl_plan_free(plan);
	hl_config_free(cfg);
	diag_free(d);
	return fflush(stdout) != 0 && rc == 0 ? EXIT_JOB : rc;
}

int hl_cmd_run(const hl_cli_args *args)
{
	run_args a;
	int rc = run_args_from("run", args, &a);
	if (rc)
		return rc;
	diag d;
	hl_config cfg;
	hl_plan plan;
	if (load(a.file, &d, &cfg, &plan) < 0)
		return EXIT_USAGE;
	if (a.adapt) {
		rc = hl_run_adapt(&cfg, &a.o, a.adapt, a.json);
		return unload(&d, &cfg, &plan, rc);
	}
	hl_run run;
	rc = hl_run_and_report(&cfg, &plan, &a.o, &run);
	if (a.o.dry_run) {
		if (rc)
			fprintf(stderr, "hetlaunch: %s\n", run.error);
		else
			fprintf(stderr, "hetlaunch: dry run: files in %s\n", run.dir);
	} else if (rc == EXIT_USAGE && run.job.log == NULL) {
		fprintf(stderr, "hetlaunch: %s\n", run.error);
	} else {
		if (a.json) {
			jw w;
			jw_init(&w, stdout);
			hl_run_report_json(&w, &cfg, &plan, &run);
			jw_done(&w);
		}
		print_summary(&cfg, &run);
	}
	hl_run_free(&run);
	return unload(&d, &cfg, &plan, rc);
}

/* ---- compare -------------------------------------------------------------- */

typedef struct {
	const hl_config *cfg;
	const hl_plan *plan;
	const hl_run *cyc, *het;
} compare_ctx;

/* 0 when the two times are on different clocks (one run without the
 * runtime's figures under the virtual clock): they do not divide. */
static double speedup(const hl_run *cyc, const hl_run *het)
{
	return cyc->time > 0 && het->time > 0 && hl_run_same_clock(cyc, het)
	       ? cyc->time / het->time : 0.0;
}

static const char *clock_name(const hl_run *run)
{
	return run->time_clock ? run->time_clock : "wall";
}

static void compare_json(jw *w, const compare_ctx *c)
{
	double pred = hl_predicted_speedup(c->plan);
	double meas = speedup(c->cyc, c->het);
	jw_obj(w);
	jw_key(w, "name"); jw_str(w, c->cfg->name);
	jw_key(w, "cyclic"); hl_run_report_json(w, c->cfg, c->plan, c->cyc);
	jw_key(w, "hetero"); hl_run_report_json(w, c->cfg, c->plan, c->het);
	jw_key(w, "speedup"); jw_num(w, meas);
	jw_key(w, "time_clock");
	if (hl_run_same_clock(c->cyc, c->het))
		jw_str(w, clock_name(c->cyc));
	else
		jw_null(w);
	jw_key(w, "predicted_speedup"); jw_num(w, pred);
	jw_key(w, "predicted_speedup_model"); jw_str(w, hl_predicted_speedup_model(c->plan));
	jw_key(w, "fraction_of_predicted"); jw_num(w, pred > 0 ? meas / pred : 0.0);
	/* Flagged times are not the emulated cluster's: not a passed comparison. */
	char why[256];
	hl_compare_flagged(c->cyc, c->het, why, sizeof why);
	jw_key(w, "passed"); jw_bool(w, c->cyc->passed && c->het->passed && !why[0]);
	jw_key(w, "checks_passed"); jw_bool(w, c->cyc->passed && c->het->passed);
	jw_key(w, "flagged");
	if (why[0])
		jw_str(w, why);
	else
		jw_null(w);
	hl_compare_sizes_json(w, c->cyc, c->het);
	jw_end(w);
}

static int fill_compare(FILE *f, void *arg)
{
	jw w;
	jw_init(&w, f);
	compare_json(&w, arg);
	jw_done(&w);
	return 0;
}

/* One of compare's two runs, in DIR/cyclic (the baseline) or DIR/hetero. */
static int compare_run(const hl_config *cfg, const hl_plan *plan, const hl_run_opts *opts,
                       const char *dir, int baseline, hl_run *run)
{
	char sub[PATH_MAX + 16];
	hl_run_opts o = *opts;
	o.baseline = baseline;
	snprintf(sub, sizeof sub, "%s/%s", dir, baseline ? "cyclic" : "hetero");
	o.out_dir = sub;
	fprintf(stderr, "hetlaunch: compare %s\n",
	        baseline ? "1/2: the cyclic baseline" : "2/2: the heterogeneous plan");
	return hl_run_and_report(cfg, plan, &o, run);
}

/* Both runs on the same emulated speeds: this computer measured once, and
 * an emulation it cannot run refused before anything is written. */
static int compare_precheck(const hl_config *cfg, const hl_plan *plan, hl_run_opts *o)
{
	char err[1024];
	hl_ranks r, base;
	if (hl_ranks_from_plan(plan, &r) < 0)
		return EXIT_JOB;
	if (hl_ranks_cyclic(plan, &base) < 0) {
		hl_ranks_free(&r);
		return EXIT_JOB;
	}
	/* both runs' hosts in the allocation, before compare's directory */
	int rc = hl_slurm_check_allocation(cfg, r.machine, r.nranks, err, sizeof err);
	if (rc == 0)
		rc = hl_slurm_check_allocation(cfg, base.machine, base.nranks, err, sizeof err);
	if (rc == 0)
		rc = hl_run_precheck(cfg, r.nranks, o, err, sizeof err);
	hl_ranks_free(&r);
	hl_ranks_free(&base);
	if (rc)
		fprintf(stderr, "hetlaunch: %s\n", rc == EXIT_JOB ? "out of memory" : err);
	return rc;
}

/* --out DIR, or runs/NAME-STAMP-compare (mkdir is atomic: two compares in
 * the same second get two directories).  0, or EXIT_JOB with the reason. */
static int compare_dir(const hl_config *cfg, const char *out, char *dir, size_t len)
{
	char err[512];
	if (out) {
		snprintf(dir, len, "%s", out);
	} else {
		time_t now = time(NULL);
		struct tm tm;
		char stamp[32];
		localtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
		snprintf(dir, len, "runs/%s-%s-compare", cfg->name, stamp);
		if (hl_mkdir_p("runs", err, sizeof err) == 0)
			for (int k = 2; mkdir(dir, 0777) < 0 && errno == EEXIST && k < 1000; k++)
				snprintf(dir, len, "runs/%s-%s-compare-%d", cfg->name, stamp, k);
	}
	if (hl_mkdir_p(dir, err, sizeof err) < 0) {
		fprintf(stderr, "hetlaunch: %s\n", err);
		return EXIT_JOB;
	}
	return 0;
}

/* The cyclic baseline, then the plan: the exit status of the first that
 * failed.  A signal during the baseline ends compare: the user asked to
 * stop, not to skip to the next job. */
static int compare_runs(const hl_config *cfg, const hl_plan *plan, const hl_run_opts *o,
                        const char *dir, hl_run *cyc, hl_run *het)
{
	int rc1 = compare_run(cfg, plan, o, dir, 1, cyc), rc2 = 0;
	if (rc1 != EXIT_USAGE)   /* bad input: said once, by the caller */
		print_summary(cfg, cyc);
	if (cyc->job.interrupted)
		fprintf(stderr, "hetlaunch: compare: interrupted: the heterogeneous run is "
		        "not started\n");
	if (rc1 != EXIT_USAGE && !cyc->job.interrupted) {
		rc2 = compare_run(cfg, plan, o, dir, 0, het);
		print_summary(cfg, het);
	}
	return rc1 ? rc1 : rc2;
}

/* The speedup against the predicted one, per size, the flag, the picture. */
static void compare_print(const compare_ctx *c, const char *dir)
{
	const hl_run *cyc = c->cyc, *het = c->het;
	double pred = hl_predicted_speedup(c->plan), meas = speedup(cyc, het);
	if (!hl_run_same_clock(cyc, het))
		fprintf(stderr, "hetlaunch: no speedup: the cyclic time is on the %s clock, the hetero "
		        "time on the %s clock\n", clock_name(cyc), clock_name(het));
	fprintf(stderr, "hetlaunch: cyclic %.3f s, hetero %.3f s: speedup %.2f, predicted %.2f "
	        "(%.0f%% of predicted; model: %s)\n", cyc->time, het->time, meas, pred,
	        pred > 0 ? 100 * meas / pred : 0.0, hl_predicted_speedup_model(c->plan));
	hl_compare_sizes_print(cyc, het, stderr);
	char why[256];
	hl_compare_flagged(cyc, het, why, sizeof why);
	if (why[0])
		fprintf(stderr, "hetlaunch: FLAGGED, not passed: %s; the speedup is not the "
		        "emulated cluster's (see \"to keep up\" above)\n", why);
	char msg[PATH_MAX + 128];
	if (!het->job.interrupted) {   /* stopped: no gnuplot after it */
		hl_balance_png(dir, c->cfg, cyc, het, msg, sizeof msg);
		fprintf(stderr, "hetlaunch: %s\n", msg);
	}
}

/* compare.json, the terminal's lines and picture, --json's document. */
static int compare_report(const compare_ctx *c, const char *dir, int json, int rc)
{
	char sub[PATH_MAX + 16], err[512];
	snprintf(sub, sizeof sub, "%s/" HL_RD_COMPARE, dir);
	if (hl_write_atomic(sub, fill_compare, (void *)c, err, sizeof err) < 0) {
		fprintf(stderr, "hetlaunch: %s\n", err);
		rc = rc ? rc : EXIT_JOB;
	}
	compare_print(c, dir);
	if (json) {
		jw w;
		jw_init(&w, stdout);
		compare_json(&w, c);
		jw_done(&w);
	}
	return rc;
}

int hl_cmd_compare(const hl_cli_args *args)
{
	run_args a;
	int rc = run_args_from("compare", args, &a);
	if (rc)
		return rc;
	diag d;
	hl_config cfg;
	hl_plan plan;
	if (load(a.file, &d, &cfg, &plan) < 0)
		return EXIT_USAGE;
	char dir[PATH_MAX];
	rc = compare_precheck(&cfg, &plan, &a.o);
	if (rc == 0)
		rc = compare_dir(&cfg, a.o.out_dir, dir, sizeof dir);
	else
		return unload(&d, &cfg, &plan, rc);
	hl_run cyc, het;
	memset(&cyc, 0, sizeof cyc);
	memset(&het, 0, sizeof het);
	if (rc == 0)
		rc = compare_runs(&cfg, &plan, &a.o, dir, &cyc, &het);
	compare_ctx c = { &cfg, &plan, &cyc, &het };
	if (rc != EXIT_USAGE && !cyc.job.interrupted && (cyc.job.log || het.job.log))
		rc = compare_report(&c, dir, a.json, rc);
	else if (rc == EXIT_USAGE)
		fprintf(stderr, "hetlaunch: %s\n", cyc.error[0] ? cyc.error : het.error);
	hl_run_free(&cyc);
	hl_run_free(&het);
	return unload(&d, &cfg, &plan, rc);
}

