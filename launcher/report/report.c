/*
 * report.c -- see report.h: report.json from a finished job (INTERFACE.md,
 * "report.json"), and the predicted speedup every report and comparison
 * quotes.  launch/ runs the job and keeps what it measured in hl_run,
 * the emulation's counters included; this stage writes the document.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/kernels.h"
#include "launch/emulation.h"
#include "layouts/layout.h"
#include "util/fsutil.h"
#include "util/json.h"
#include "util/rundir.h"
#include "report.h"

double hl_predicted_speedup(const hl_plan *plan)
{
	return plan->cfg->layout->predicted_speedup(plan);
}

/* A flagged run's ranks asked more of this computer than it gave (README
 * "Emulated machines"): slower emulated machines, fewer ranks per core, or
 * the virtual clock, whose times do not depend on keeping up. */
void hl_overrun_advice(const hl_config *cfg, const hl_run *run, char *buf, size_t len)
{
	int given = cfg->emu.mflops > 0;
	for (size_t i = 0; i < cfg->nmachines; i++)
		given |= cfg->machines[i].emulate_mflops > 0;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(buf, len, "%s; or fewer ranks per core (%zu ranks on %ld cores: a smaller B, "
	         "grid or max_procs)%s",
	         given ? "lower emulate: mflops (or the machines' emulate_mflops)"
	               : "set emulate: mflops below the speeds hetlaunch chose (report.json: "
	                 "emulation.machines[].mflops)",
	         run->nranks, cores > 0 ? cores : 1L,
	         cfg->emu.virtual_clock ? "" : "; or clock: virtual (no deadlines to keep)");
}

/* Why a comparison's times are not the emulated cluster's: "" if neither
 * run was flagged. */
void hl_compare_flagged(const hl_run *cyc, const hl_run *het, char *buf, size_t len)
{
	buf[0] = '\0';
	if (cyc->overrun_flagged || het->overrun_flagged)
		snprintf(buf, len, "overruns above %.0f%% of the compute: cyclic %.1f%%%s, hetero "
		         "%.1f%%%s", 100 * HL_OVERRUN_LIMIT, 100 * cyc->overrun_fraction,
		         cyc->overrun_flagged ? " (flagged)" : "", 100 * het->overrun_fraction,
		         het->overrun_flagged ? " (flagged)" : "");
}

const char *hl_predicted_speedup_model(const hl_plan *plan)
{
	const hl_layout_ops *l = plan->cfg->layout;
	return l->speedup_model ? l->speedup_model(plan) : "the layout's";
}

static void report_json(jw *w, const hl_config *cfg, const hl_plan *plan, const hl_run *run);

/* INTERFACE.md "Dense kernels at any size": routine, residual, passed; and
 * where the time came from when the program printed no result line. */
static void report_result_extra(jw *w, const hl_result *r)
{
	if (r->routine[0]) {
		jw_key(w, "routine"); jw_str(w, r->routine);
	}
	jw_key(w, "residual"); jw_num(w, r->residual);   /* null when there is none */
	int unchecked = strcmp(r->check, "NOCHECK") == 0;
	if (unchecked) {
		jw_key(w, "unchecked"); jw_str(w, "compute: skip (the BLAS were not run)");
	}
	jw_key(w, "passed"); jw_bool(w, unchecked || strcmp(r->check, "PASSED") == 0 ||
	                                 (r->check[0] == '\0' && r->time >= 0));
	if (r->wall || r->span) {
		jw_key(w, "time_source"); jw_str(w, r->wall ? "wall" : "ranks");
	}
}

/* ranks[] = [{rank, machine, compute, wait}]: the program's per-rank lines
 * (hl-driver), else the runtime's account; null times when neither, and
 * ranks_source says which (ranks_missing why none). */
static void report_ranks(jw *w, const hl_config *cfg, const hl_run *run)
{
	jw_key(w, "ranks");
	jw_arr(w);
	for (size_t k = 0; run->rank_machine && k < run->nranks; k++) {
		const hl_rank_time *t = k < run->results.nranks ? &run->results.ranks[k] : NULL;
		jw_obj(w);
		jw_key(w, "rank"); jw_uint(w, k);
		jw_key(w, "machine"); jw_str(w, cfg->machines[run->rank_machine[k]].name);
		jw_key(w, "compute");
		if (t)
			jw_num(w, t->compute);
		else
			jw_null(w);
		jw_key(w, "wait");
		if (t)
			jw_num(w, t->wait);
		else
			jw_null(w);
		jw_end(w);
	}
	jw_end(w);
	jw_key(w, "ranks_source");
	if (run->ranks_source)
		jw_str(w, run->ranks_source);
	else
		jw_null(w);
	if (!run->ranks_source && run->ranks_missing[0]) {
		jw_key(w, "ranks_missing"); jw_str(w, run->ranks_missing);
	}
}

void hl_run_report_json(jw *w, const hl_config *cfg, const hl_plan *plan, const hl_run *run)
{
	if (run->report)
		jw_doc(w, run->report);
	else
		report_json(w, cfg, plan, run);
}

/* results[]: one entry per result line of the program (INTERFACE.md). */
static void report_results(jw *w, const hl_run *run)
{
	jw_key(w, "results");
	jw_arr(w);
	for (size_t i = 0; i < run->results.nresults; i++) {
		const hl_result *r = &run->results.results[i];
		jw_obj(w);
		jw_key(w, "n"); jw_uint(w, r->n);
		jw_key(w, "nb"); jw_uint(w, r->nb);
		jw_key(w, "nprow"); jw_uint(w, r->nprow);
		jw_key(w, "npcol"); jw_uint(w, r->npcol);
		jw_key(w, "time"); jw_num(w, r->time);
		if (isfinite(r->rate_time)) {
			jw_key(w, "time_precise"); jw_num(w, r->rate_time);
		}
		jw_key(w, "gflops"); jw_num(w, r->gflops);   /* null when unknown */
		jw_key(w, "check"); jw_str(w, r->check);
		report_result_extra(w, r);
		jw_end(w);
	}
	jw_end(w);
}

/* predicted: the plan's cost and speedup, and the seconds when known. */
static void report_predicted(jw *w, const hl_plan *plan, const hl_run *run)
{
	jw_key(w, "predicted");
	jw_obj(w);
	jw_key(w, "cost"); jw_num(w, run->baseline ? plan->cyclic : plan->hetero);
	jw_key(w, "speedup_over_cyclic"); jw_num(w, hl_predicted_speedup(plan));
	jw_key(w, "speedup_model"); jw_str(w, hl_predicted_speedup_model(plan));
	if (run->predicted_time > 0) {
		jw_key(w, "time"); jw_num(w, run->predicted_time);
		if (run->time > 0) {
			jw_key(w, "measured_over_predicted"); jw_num(w, run->time / run->predicted_time);
		}
	}
	jw_end(w);
}

/* job.aborted_by: the runtime's record of the first MPI_Abort, which the
 * log may lack; null without one (or without the runtime). */
static void report_abort(jw *w, const hl_run *run)
{
	jw_key(w, "aborted_by");
	if (!run->aborted) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_key(w, "rank"); jw_uint(w, (size_t)run->abort.rank);
	jw_key(w, "code"); jw_num(w, run->abort.code);   /* any int, negative too */
	jw_key(w, "at"); jw_num(w, run->abort.at);
	jw_end(w);
}

/* job: how the job's process ended, and for hpcc where its time went. */
static void report_job(jw *w, const hl_config *cfg, const hl_run *run)
{
	jw_key(w, "job");
	jw_obj(w);
	jw_key(w, "exit_code");
	if (run->job.exit_code >= 0)
		jw_uint(w, (size_t)run->job.exit_code);
	else
		jw_null(w);
	jw_key(w, "signal"); jw_uint(w, (size_t)run->job.signal);
	jw_key(w, "timed_out"); jw_bool(w, run->job.timed_out);
	jw_key(w, "interrupted"); jw_bool(w, run->job.interrupted != 0);
	jw_key(w, "stalled"); jw_bool(w, run->job.stalled);
	jw_key(w, "elapsed"); jw_num(w, run->job.elapsed);
	report_abort(w, run);
	/* hpcc runs fifteen other benchmarks before HPL: the job's wall time
	 * split into HPL's section and the rest (start-up included) */
	if (cfg->kernel == HL_KERNEL_HPL) {
		double hpl = run->hpl_wall;
		jw_key(w, "hpl_wall_time");
		if (hpl >= 0)
			jw_num(w, hpl);
		else
			jw_null(w);
		jw_key(w, "other_benchmarks_time");
		jw_num(w, run->job.elapsed > hpl ? run->job.elapsed - (hpl > 0 ? hpl : 0) : 0.0);
		jw_key(w, "all_benchmarks"); jw_bool(w, !run->hpl_only);
	}
	jw_end(w);
}

/* tester (a stock tester's counts) and emulation (the segment's counters,
 * or what is known of them), when they apply. */
static void report_tester_emulation(jw *w, const hl_run *run)
{
	if (run->results.npassed >= 0 || run->results.nfailed >= 0) {
		jw_key(w, "tester");
		jw_obj(w);
		jw_key(w, "passed_count"); jw_num(w, (double)run->results.npassed);
		jw_key(w, "failed_count"); jw_num(w, (double)run->results.nfailed);
		jw_key(w, "skipped_count"); jw_num(w, (double)run->results.nskipped);
		if (run->results.error) {
			jw_key(w, "error"); jw_str(w, run->results.error);
		}
		jw_end(w);
	}
	if (run->emulation_json) {
		jw_key(w, "emulation");
		jw_doc(w, run->emulation_json);
	} else if (run->emulated) {
		jw_key(w, "emulation");
		jw_obj(w);
		jw_key(w, "host_mflops"); jw_num(w, run->host_mflops);
		jw_key(w, "overrun_fraction"); jw_num(w, run->overrun_fraction);
		jw_key(w, "overrun_flagged"); jw_bool(w, run->overrun_flagged);
		jw_end(w);
	}
}

static void report_json(jw *w, const hl_config *cfg, const hl_plan *plan, const hl_run *run)
{
	jw_obj(w);
	jw_key(w, "kernel"); jw_str(w, hl_kernel_name(cfg->kernel));
	jw_key(w, "layout"); jw_str(w, hl_layout_name(cfg->layout));
	/* calibrate --from finds the configuration again (002 s4.5) */
	char *abs = cfg->file ? realpath(cfg->file, NULL) : NULL;
	jw_key(w, "config"); jw_str(w, abs ? abs : cfg->file ? cfg->file : "");
	free(abs);
	jw_key(w, "mapping"); jw_str(w, run->baseline ? "cyclic" : "hetero");
	jw_key(w, "nprow"); jw_uint(w, run->nprow);
	jw_key(w, "npcol"); jw_uint(w, run->npcol);
	jw_key(w, "nranks"); jw_uint(w, run->nranks);
	report_ranks(w, cfg, run);
	jw_key(w, "n"); jw_uint(w, cfg->n);
	jw_key(w, "nb"); jw_uint(w, cfg->nb);
	report_results(w, run);
	jw_key(w, "passed"); jw_bool(w, run->passed);
	jw_key(w, "status"); jw_uint(w, (size_t)run->status);
	if (run->error[0]) {
		jw_key(w, "error"); jw_str(w, run->error);
	}
	jw_key(w, "time"); jw_num(w, run->time);
	jw_key(w, "time_clock"); jw_str(w, run->time_clock ? run->time_clock : "wall");
	report_predicted(w, plan, run);
	report_job(w, cfg, run);
	report_tester_emulation(w, run);
	hl_trace_report(w, &run->trace);
	jw_key(w, "placement"); jw_str(w, hl_placement_status_name(run->placement.status));
	jw_key(w, "placement_ranks"); hl_placement_json(w, &run->placement);
	jw_key(w, "dir"); jw_str(w, run->dir);
	jw_end(w);
}

typedef struct {
	const hl_config *cfg;
	const hl_plan *plan;
	const hl_run *run;
} report_ctx;

static int fill_report(FILE *f, void *arg)
{
	const report_ctx *c = arg;
	jw w;
	jw_init(&w, f);
	report_json(&w, c->cfg, c->plan, c->run);
	jw_done(&w);
	return 0;
}

/* The report's text, kept in the run for compare and --json, which run
 * after the segment is gone. */
static char *report_text(const report_ctx *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (m == NULL)
		return NULL;
	jw w;
	jw_init(&w, m);
	report_json(&w, rc->cfg, rc->plan, rc->run);
	if (fclose(m) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int fill_text(FILE *f, void *arg)
{
	fputs(arg, f);
	fputc('\n', f);
	return 0;
}

/* report.json; failing to write it fails a run that had not failed (and
 * the kept text, which says otherwise, is dropped). */
static void report_write(const hl_config *cfg, const hl_plan *plan, hl_run *run)
{
	char path[PATH_MAX + 64], err[sizeof run->error];
	report_ctx rc = { cfg, plan, run };
	snprintf(path, sizeof path, "%s/" HL_RD_REPORT, run->dir);
	run->report = report_text(&rc);
	int wrote = run->report ? hl_write_atomic(path, fill_text, run->report, err, sizeof err)
	                        : hl_write_atomic(path, fill_report, &rc, err, sizeof err);
	if (wrote < 0 && run->status == 0) {
		run->status = 1;
		snprintf(run->error, sizeof run->error, "%s", err);
		free(run->report);
		run->report = NULL;
	}
}

int hl_run_and_report(const hl_config *cfg, const hl_plan *plan, const hl_run_opts *o,
                      hl_run *run)
{
	hl_run_job(cfg, plan, o, run);
	if (run->finished)
		report_write(cfg, plan, run);
	return run->status;
}

