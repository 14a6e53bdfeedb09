/*
 * kernels.c -- the kernel table (kernels.h) and the reader of hl-driver's
 * result lines (launcher/programs/hlmpi.h).
 */
#define _GNU_SOURCE
#include "kernels.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/dense/dense.h"
#include "util/fsutil.h"
#include "hpl.h"
#include "testers.h"

#define DRIVER "lib/hetlaunch/hl-driver"

static size_t driver_need(hl_kernel k, size_t n, size_t nb, size_t p, size_t q)
{
	static const vproc_dense_kernel dense[] = {
		[HL_KERNEL_LU] = VPROC_DENSE_LU, [HL_KERNEL_QR] = VPROC_DENSE_QR,
		[HL_KERNEL_CHOL] = VPROC_DENSE_CHOL, [HL_KERNEL_MM] = VPROC_DENSE_MM,
	};
	return vproc_dense_bytes(dense[k], n, nb, p, q);
}

static int stock_parse(hl_kernel k, const char *log, struct hl_results *out)
{
	return hl_tester_parse(k, log, out);
}

static const hl_kernel_def table[] = {
	{ "lu", HL_KERNEL_LU, 0, DRIVER, 1, HL_INPUT_ARGV, driver_need, 0, hl_driver_parse, NULL, NULL, 0, NULL, 0,
	  1 },
	{ "qr", HL_KERNEL_QR, 0, DRIVER, 1, HL_INPUT_ARGV, driver_need, 0, hl_driver_parse, NULL, NULL, 0, NULL, 0,
	  1 },
	{ "chol", HL_KERNEL_CHOL, 0, DRIVER, 1, HL_INPUT_ARGV, driver_need, 0, hl_driver_parse, NULL, NULL, 0, NULL,
	  0, 1 },
	{ "mm", HL_KERNEL_MM, 0, DRIVER, 1, HL_INPUT_ARGV, driver_need, 0, hl_driver_parse, NULL, NULL,
	  1, NULL, 0, 1 },
	{ "exec", HL_KERNEL_EXEC, 0, NULL, 0, HL_INPUT_ARGS, NULL, 0, hl_driver_parse, NULL, NULL, 0, NULL, 0, 0 },
	/* hl-ring prints hlmpi.h's lines (mean iteration time, per-rank times) */
	{ "ring", HL_KERNEL_RING, 0, "lib/hetlaunch/hl-ring", 1, HL_INPUT_PLAN, NULL, 0,
	  hl_driver_parse, "ring", "HETLAUNCH_RING", 0, NULL, 0, 0 },
	/* hl-mw, paper 003's master-worker product (launcher/programs/mw.c) */
	{ "mw", HL_KERNEL_MW, 0, "lib/hetlaunch/hl-mw", 1, HL_INPUT_PLAN, NULL, 0,
	  hl_driver_parse, "master-worker", "HETLAUNCH_MW", 0, NULL, 0, 0 },
	/* hl-mmm, paper 001's product on a rectangle partition (launcher/programs/mmm.c) */
	{ "mmm", HL_KERNEL_MMM, 0, "lib/hetlaunch/hl-mmm", 1, HL_INPUT_PLAN, NULL, 0,
	  hl_driver_parse, "columns", "HETLAUNCH_MMM", 0, NULL, 0, 0 },
	/* stock HPL inside Debian's hpcc (hpl.h), linked with Open MPI */
	{ "hpl", HL_KERNEL_HPL, 0, HL_HPL_PROGRAM, 0, HL_INPUT_HPCC, hl_hpl_mem_need, 0,
	  hl_hpl_parse, NULL, NULL, 0, HL_HPL_OUTPUT, 1, 0 },
	/* tester: stock -- Debian's testers, with their fixed arrays */
	{ "lu", HL_KERNEL_LU, 1, HL_TESTER_DIR "/xdlu", 0, HL_INPUT_DAT, hl_tester_mem_need,
	  4000000, stock_parse, NULL, NULL, 0, NULL, 0, 0 },
	{ "qr", HL_KERNEL_QR, 1, HL_TESTER_DIR "/xdqr", 0, HL_INPUT_DAT, hl_tester_mem_need,
	  2000000, stock_parse, NULL, NULL, 0, NULL, 0, 0 },
	{ "mm", HL_KERNEL_MM, 1, HL_TESTER_DIR "/PBLAS/TIMING/dpb3tim", 0, HL_INPUT_DAT,
	  hl_tester_mem_need, 2000000, stock_parse, NULL, NULL, 1, NULL, 0, 0 },
};
#define NROWS (sizeof table / sizeof table[0])

const hl_kernel_def *hl_kernel_find(const char *name, int stock)
{
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(table[i].name, name) == 0 && table[i].stock == stock)
			return &table[i];
	return NULL;
}

const hl_kernel_def *hl_kernel_row(hl_kernel k, int stock)
{
	const hl_kernel_def *plain = NULL;
	for (size_t i = 0; i < NROWS; i++)
		if (table[i].id == k) {
			if (table[i].stock == stock)
				return &table[i];
			if (!table[i].stock)
				plain = &table[i];
		}
	return plain;
}

const char *hl_kernel_names(void)
{
	return "lu, qr, chol, mm, exec, ring, mw, mmm, hpl";
}

const char *hl_kernel_name(hl_kernel k)
{
	const hl_kernel_def *r = hl_kernel_row(k, 0);
	return r ? r->name : "?";
}

int hl_kernel_program(const hl_kernel_def *row, const char *program, char *out, size_t len,
                      char *err, size_t errlen)
{
	if (program || !row->beside_binary) {
		const char *p = program ? program : row->program;
		if (p == NULL || snprintf(out, len, "%s", p) >= (int)len) {
			snprintf(err, errlen, "kernel %s: no program", row->name);
			return -1;
		}
		return 0;
	}
	const char *env = row->env ? row->env : "HETLAUNCH_DRIVER";
	if (hl_beside_binary(env, row->program, 1, out, len) != 0) {
		snprintf(err, errlen, "cannot find %s (set %s to its path)",
		         out[0] ? out : row->program, env);
		return -1;
	}
	return 0;
}

/* ---- the driver's arguments ------------------------------------------- */

void hl_kernel_args_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

char **hl_kernel_args(const hl_kernel_def *row, char *const *args, size_t nargs,
                      const size_t *sizes, size_t nsizes, size_t nb, size_t nprow,
                      size_t npcol)
{
	size_t n = row->input == HL_INPUT_ARGV ? 4 + nsizes : row->input == HL_INPUT_ARGS ? nargs : 0;
	char **v = calloc(n + 1, sizeof *v);
	if (v == NULL)
		return NULL;
	int bad = 0;
	if (row->input == HL_INPUT_ARGS) {
		for (size_t i = 0; i < nargs; i++)
			bad |= (v[i] = strdup(args[i])) == NULL;
	} else if (row->input == HL_INPUT_ARGV) {
		bad |= (v[0] = strdup(row->name)) == NULL;
		bad |= asprintf(&v[1], "%zu", nb) < 0;
		bad |= asprintf(&v[2], "%zu", nprow) < 0;
		bad |= asprintf(&v[3], "%zu", npcol) < 0;
		for (size_t i = 0; i < nsizes; i++)
			bad |= asprintf(&v[4 + i], "%zu", sizes[i]) < 0;
	}
	if (bad) {
		for (size_t i = 0; i < n; i++)
			if (v[i] == NULL)
				v[i] = strdup("");   /* keep the array walkable for the free */
		hl_kernel_args_free(v);
		return NULL;
	}
	return v;
}

/* ---- hetlaunch-result and hetlaunch-rank lines -------------------------- */

/* The value of " KEY=" in line (up to the next blank), or NULL. */
static const char *field(const char *line, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	for (const char *s = strchr(line, ' '); s; s = strchr(s + 1, ' '))
		if (strncmp(s + 1, key, kl) == 0 && s[1 + kl] == '=') {
			const char *v = s + 2 + kl;
			size_t n = strcspn(v, " \n");
			if (n == 0 || n >= len)
				return NULL;
			memcpy(buf, v, n);
			buf[n] = '\0';
			return buf;
		}
	return NULL;
}

static int num(const char *line, const char *key, double *out)
{
	char buf[64], *end;
	if (!field(line, key, buf, sizeof buf))
		return -1;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

static int result_line(const char *line, hl_result *r)
{
	double n, nb, p, q, t, g, res = NAN, passed;
	char rt[sizeof r->routine];
	if (num(line, "n", &n) || num(line, "nb", &nb) || num(line, "P", &p) ||
	    num(line, "Q", &q) || num(line, "time", &t) || num(line, "passed", &passed) ||
	    !(n >= 1 && nb >= 1 && p >= 1 && q >= 1 && t >= 0))
		return -1;
	if (num(line, "gflops", &g))
		g = NAN;
	num(line, "residual", &res);   /* "nan" when the check could not run */
	memset(r, 0, sizeof *r);
	r->n = (size_t)n, r->nb = (size_t)nb, r->nprow = (size_t)p, r->npcol = (size_t)q;
	r->time = t;
	r->rate_time = t;
	r->gflops = g;
	r->residual = res;
	strcpy(r->check, passed == 1 ? "PASSED" : "FAILED");
	if (field(line, "routine", rt, sizeof rt))
		strcpy(r->routine, rt);
	return 0;
}

static int rank_line(const char *line, struct hl_results *out)
{
	double k, c, w;
	if (num(line, "rank", &k) || num(line, "compute", &c) || num(line, "wait", &w) ||
	    !(k >= 0 && k < 1e7))
		return 0;
	size_t rank = (size_t)k;
	if (rank >= out->nranks) {
		hl_rank_time *p = realloc(out->ranks, (rank + 1) * sizeof *p);
		if (p == NULL)
			return -1;
		for (size_t i = out->nranks; i <= rank; i++)
			p[i] = (hl_rank_time){ i, 0.0, 0.0 };
		out->ranks = p;
		out->nranks = rank + 1;
	}
	out->ranks[rank].compute += c;
	out->ranks[rank].wait += w;
	return 0;
}

int hl_driver_parse(hl_kernel k, const char *log, struct hl_results *out)
{
	(void)k;
	if (!out)
		return -1;
	hl_results_init(out);
	if (!log)
		return -1;
	size_t cap = 0;
	int all = 1;
	for (const char *s = log; *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = strndup(s, len);
		if (line == NULL)
			return -1;
		hl_result r;
		if (strncmp(line, "hetlaunch-result ", 17) == 0 && result_line(line, &r) == 0) {
			if (out->nresults == cap) {
				size_t nc = cap ? 2 * cap : 4;
				hl_result *p = realloc(out->results, nc * sizeof *p);
				if (p == NULL) {
					free(line);
					return -1;
				}
				out->results = p;
				cap = nc;
			}
			out->results[out->nresults++] = r;
			all &= strcmp(r.check, "PASSED") == 0;
		} else if (strncmp(line, "hetlaunch-rank ", 15) == 0 && rank_line(line, out) < 0) {
			free(line);
			return -1;
		}
		free(line);
		s = nl ? nl + 1 : s + len;
	}
	out->finished = 1;
	out->passed = out->nresults > 0 && all;
	return 0;
}
