/*
 * measured.c -- machine speeds measured by a finished run (measured.h):
 * the runs of paper 002 s4.5's semi-static strategy, where each phase is
 * planned on what the one before measured.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/dense/measured_times.h"
#include "util/diag.h"
#include "util/rundir.h"
#include "layouts/layout.h"
#include "measured.h"
#include "config/yamltree.h"

int hl_measured_cycle_times(const hl_config *cfg, const size_t *ns, size_t nns, size_t nranks,
                            const size_t *rank_machine, const double *compute,
                            const double *busy, double *ms, char *err, size_t errlen)
{
	if (strcmp(hl_layout_name(cfg->layout), "1d") != 0 ||
	    (cfg->kernel != HL_KERNEL_LU && cfg->kernel != HL_KERNEL_QR)) {
		snprintf(err, errlen, "measured speeds need a layout 1d run of kernel lu or qr");
		return -1;
	}
	if (nranks == 0 || nns == 0 || cfg->nb == 0) {
		snprintf(err, errlen, "the run reported no rank times");
		return -1;
	}
	double *work = calloc(nranks, sizeof *work);
	double *told = calloc(cfg->nmachines, sizeof *told);
	int rc = -1;
	if (work && told) {
		/* Rank k holds the column blocks j = k mod B (B = nranks). */
		for (size_t a = 0; a < nns; a++) {
			vproc_tg g = { cfg->kernel == HL_KERNEL_QR ? VPROC_TG_QR : VPROC_TG_LU,
			               (ns[a] + cfg->nb - 1) / cfg->nb, cfg->nb, 0.0 };
			for (size_t j = 0; j < g.M; j++)
				work[j % nranks] += vproc_tg_column_work(&g, j);
		}
		for (size_t i = 0; i < cfg->nmachines; i++)
			told[i] = cfg->machines[i].cycle_time;
		vproc_status st = busy ? vproc_measured_busy(cfg->nmachines, nranks, rank_machine,
		                                             work, busy, ms)
		                       : vproc_measured_times(cfg->nmachines, nranks, rank_machine,
		                                              work, compute, ms);
		if (st == VPROC_OK)
			st = vproc_measured_fill(cfg->nmachines, told, ms);
		if (st == VPROC_OK) {
			for (size_t i = 0; i < cfg->nmachines; i++)   /* s/flop -> ms per DGEMM 500 */
				ms[i] *= HL_CAL_FLOPS * 1e3;
			rc = 0;
		} else {
			snprintf(err, errlen, "no usable rank times (%s)", vproc_strerror(st));
		}
	} else {
		snprintf(err, errlen, "out of memory");
	}
	free(work);
	free(told);
	return rc;
}

/* ---- report.json (JSON is YAML: yamltree reads it) ------------------------- */

static const yt_node *get(const yt_node *map, const char *key)
{
	for (size_t k = 0; map && map->kind == YT_MAP && k < map->n; k++)
		if (strcmp(map->items[2 * k]->value, key) == 0)
			return map->items[2 * k + 1];
	return NULL;
}

static const char *scalar(const yt_node *map, const char *key)
{
	const yt_node *v = get(map, key);
	return v && v->kind == YT_SCALAR ? v->value : NULL;
}

/* A report is input: its numbers are checked as a machine list's are.  A
 * time is finite, not negative and under 10^7 s (115 days); a size is the
 * configuration's range (config/keys.c's n), and the sizes' column blocks are at
 * most MAX_PAIRS block pairs in all (their work is quadratic in them). */
#define MAX_SECONDS 1e7
#define MAX_N 10000000
#define MAX_PAIRS 50000000.0

/* v as a time in [0, MAX_SECONDS]; -1 with the reason (naming what) in err. */
static int get_seconds(const char *v, const char *what, double *x, char *err, size_t errlen)
{
	char *end = NULL;
	errno = 0;
	*x = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(*x) || *x < 0 || *x > MAX_SECONDS) {
		snprintf(err, errlen, "%s = %s: not a time in seconds from 0 to %g", what, v,
		         MAX_SECONDS);
		return -1;
	}
	return 0;
}

/* v as a problem size in 1..MAX_N; -1 with the reason in err. */
static int get_n(const char *v, size_t a, size_t *n, char *err, size_t errlen)
{
	char *end = NULL;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (end == v || *end || errno || v[0] == '-' || x < 1 || x > MAX_N) {
		snprintf(err, errlen, "results[%zu].n = %s: not a size from 1 to %d", a, v, MAX_N);
		return -1;
	}
	*n = (size_t)x;
	return 0;
}

typedef struct {
	size_t *ns, nns, nranks, *machine;
	double *compute;
	double *busy;   /* [nmachines] the emulation's booked compute, or NULL */
} report_data;

/* An emulated run books each machine's compute exactly (the runtime's
 * vproc_emu_charge): emulation.machines[].compute_s, by name. */
static int read_busy(const yt_node *root, const hl_config *cfg, report_data *r, char *err,
                     size_t errlen)
{
	const yt_node *ms = get(get(root, "emulation"), "machines");
	if (ms == NULL || ms->kind != YT_SEQ)
		return 0;
	r->busy = calloc(cfg->nmachines, sizeof *r->busy);
	for (size_t a = 0; r->busy && a < ms->n; a++) {
		const char *name = scalar(ms->items[a], "name"), *c = scalar(ms->items[a], "compute_s");
		char what[64];
		snprintf(what, sizeof what, "emulation.machines[%zu].compute_s", a);
		for (size_t i = 0; name && c && i < cfg->nmachines; i++)
			if (strcmp(cfg->machines[i].name, name) == 0 &&
			    get_seconds(c, what, &r->busy[i], err, errlen) < 0)
				return -1;
	}
	return 0;
}

/* results[].n into r->ns, each checked, and their block pairs bounded. */
static int read_sizes(const yt_node *res, size_t nb, report_data *r, char *err, size_t errlen)
{
	double pairs = 0;
	for (size_t a = 0; a < res->n; a++) {
		const char *n = scalar(res->items[a], "n");
		if (n == NULL)
			continue;
		if (get_n(n, a, &r->ns[r->nns], err, errlen) < 0)
			return -1;
		double M = (double)((r->ns[r->nns++] + nb - 1) / nb);
		pairs += M * (M + 1) / 2;
		if (pairs > MAX_PAIRS) {
			snprintf(err, errlen, "results[%zu].n = %s: at nb %zu the sizes make more than "
			         "%.0f pairs of column blocks in all: not a run hetlaunch made", a, n, nb,
			         MAX_PAIRS);
			return -1;
		}
	}
	return 0;
}

/* The sizes, and each rank's machine (an index of cfg) and compute. */
static int read_report(const yt_node *root, const hl_config *cfg, report_data *r, char *err,
                       size_t errlen)
{
	const yt_node *res = get(root, "results"), *ranks = get(root, "ranks");
	const char *layout = scalar(root, "layout"), *kernel = scalar(root, "kernel");
	if (!res || res->kind != YT_SEQ || !ranks || ranks->kind != YT_SEQ || !layout || !kernel) {
		snprintf(err, errlen, "not a hetlaunch report (results, ranks, layout, kernel)");
		return -1;
	}
	if (strcmp(layout, hl_layout_name(cfg->layout)) != 0 ||
	    strcmp(kernel, hl_kernel_name(cfg->kernel)) != 0) {
		snprintf(err, errlen, "the run is layout %s, kernel %s; the configuration says %s, %s",
		         layout, kernel, hl_layout_name(cfg->layout), hl_kernel_name(cfg->kernel));
		return -1;
	}
	r->ns = calloc(res->n + 1, sizeof *r->ns);
	r->machine = calloc(ranks->n + 1, sizeof *r->machine);
	r->compute = calloc(ranks->n + 1, sizeof *r->compute);
	if (!r->ns || !r->machine || !r->compute) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (read_sizes(res, cfg->nb ? cfg->nb : 1, r, err, errlen) < 0)
		return -1;
	for (r->nranks = 0; r->nranks < ranks->n; r->nranks++) {
		const yt_node *x = ranks->items[r->nranks];
		const char *name = scalar(x, "machine"), *c = scalar(x, "compute");
		size_t i = 0;
		while (name && i < cfg->nmachines && strcmp(cfg->machines[i].name, name) != 0)
			i++;
		if (!name || i == cfg->nmachines || !c || strcmp(c, "null") == 0) {
			snprintf(err, errlen, "rank %zu: %s", r->nranks,
			         !name || i == cfg->nmachines ? "a machine the configuration does not list"
			                                      : "no compute time (the program printed none)");
			return -1;
		}
		r->machine[r->nranks] = i;
		char what[48];
		snprintf(what, sizeof what, "ranks[%zu].compute", r->nranks);
		if (get_seconds(c, what, &r->compute[r->nranks], err, errlen) < 0)
			return -1;
	}
	return read_busy(root, cfg, r, err, errlen);
}

static void report_data_free(report_data *r)
{
	free(r->ns);
	free(r->machine);
	free(r->compute);
	free(r->busy);
}

static int measured_from_root(const yt_node *root, const hl_config *cfg, double *ms,
                              const char **source, char *err, size_t errlen)
{
	report_data r = { 0 };
	int rc = read_report(root, cfg, &r, err, errlen);
	if (rc == 0)
		rc = hl_measured_cycle_times(cfg, r.ns, r.nns, r.nranks, r.machine, r.compute, r.busy,
		                             ms, err, errlen);
	/* Each number in range can still make a cycle time out of it (a huge
	 * time over a small work): a machine list must get finite ones. */
	for (size_t i = 0; rc == 0 && i < cfg->nmachines; i++)
		if (!isfinite(ms[i]) || !(ms[i] > 0)) {
			snprintf(err, errlen, "%s: its times give machine %s a cycle time of %g: not "
			         "a speed", r.busy ? "emulation.machines[].compute_s" : "ranks[].compute",
			         cfg->machines[i].name, ms[i]);
			rc = -1;
		}
	if (source)
		*source = r.busy ? "the emulation's per-machine compute" : "the ranks' compute (median)";
	report_data_free(&r);
	return rc;
}

int hl_measured_from_dir(const char *rundir, const hl_config *cfg, double *ms,
                         const char **source, char *err, size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/" HL_RD_REPORT, rundir);
	diag d;
	diag_init(&d, path);
	yt_node *root = NULL;
	int rc = yt_load(path, &d, &root);
	if (rc < 0 || root == NULL) {
		snprintf(err, errlen, "%s: cannot read the report", path);
		rc = -1;
	} else {
		rc = measured_from_root(root, cfg, ms, source, err, errlen);
	}
	yt_free(root);
	diag_free(&d);
	return rc;
}

/* The configuration: FILE, or the one report.json names. */
static int load_config(const yt_node *root, const char *file, hl_config *cfg, diag *d)
{
	const char *path = file ? file : scalar(root, "config");
	if (path == NULL) {
		fprintf(stderr, "hetlaunch: calibrate: the report names no configuration; give FILE\n");
		return -1;
	}
	diag_init(d, path);
	if (hl_config_load(path, d, cfg) < 0) {
		diag_print(d, stderr);
		diag_free(d);
		return -1;
	}
	return 0;
}

int hl_measured_from_report(const char *rundir, const char *file, hl_config *cfg, double **ms,
                            const char **source)
{
	char path[PATH_MAX], err[512];
	snprintf(path, sizeof path, "%s/" HL_RD_REPORT, rundir);
	diag dr, d;
	diag_init(&dr, path);
	yt_node *root = NULL;
	if (yt_load(path, &dr, &root) < 0 || root == NULL) {
		diag_print(&dr, stderr);
		if (root == NULL)
			fprintf(stderr, "hetlaunch: calibrate: %s: no report (did the run finish?)\n", path);
		diag_free(&dr);
		return 2;
	}
	memset(cfg, 0, sizeof *cfg);
	*ms = NULL;
	int rc = 2;
	if (load_config(root, file, cfg, &d) == 0) {
		*ms = calloc(cfg->nmachines, sizeof **ms);
		if (*ms && measured_from_root(root, cfg, *ms, source, err, sizeof err) == 0) {
			rc = 0;
		} else {
			fprintf(stderr, "hetlaunch: calibrate: %s: %s\n", path, *ms ? err : "out of memory");
			free(*ms);
			*ms = NULL;
			hl_config_free(cfg);
		}
		diag_free(&d);
	}
	yt_free(root);
	diag_free(&dr);
	return rc;
}
