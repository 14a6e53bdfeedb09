/*
 * memory.c -- see memory.h.  The bytes of each process come from the
 * kernel table (kernels.h): hl-driver's NUMROC-sized arrays
 * (vproc/planner/dense/local_arrays.c) for the process's own grid position, or a stock
 * tester's fixed TOTMEM.  Every virtual process of a machine runs on it
 * (000 s3), so its processes' bytes add up.
 */
#define _GNU_SOURCE
#include "memory.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "planner/dense/dense.h"
#include "kernels/hpl.h"
#include "layout.h"
#include "model/shm_layout.h"

#define GB 1e9

static const vproc_dense_kernel dense_of[] = {
	[HL_KERNEL_LU] = VPROC_DENSE_LU, [HL_KERNEL_QR] = VPROC_DENSE_QR,
	[HL_KERNEL_CHOL] = VPROC_DENSE_CHOL, [HL_KERNEL_MM] = VPROC_DENSE_MM,
};

/* Under emulate: {compute: skip} the runtime maps every allocation of
 * HETLAUNCH_FOLD_MIN bytes or more onto the rank's one shared buffer,
 * VR_FOLD_CHUNK at a time (vproc/runtime/core/fold.c): such an array
 * costs page tables, 8 bytes per 4 KiB page, not its pages; the smaller
 * ones are real.  Every chunk is a mapping of its own, and past
 * vm.max_map_count the runtime cannot fold: what is left is real. */
typedef struct {
	size_t min;         /* the threshold; 0: nothing is folded */
	size_t maps_left;   /* mappings the rank can still make */
} fold_budget;

static fold_budget fold_budget_of(void)
{
	const char *env = getenv("HETLAUNCH_FOLD_MIN");   /* the ranks inherit it */
	size_t min = env ? (size_t)strtoull(env, NULL, 10) : VR_FOLD_MIN_DEFAULT;
	unsigned long long maps = 65530;   /* Linux's default */
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	if (f && fscanf(f, "%llu", &maps) != 1)
		maps = 65530;
	if (f)
		fclose(f);
	/* the program's, its libraries' and MPI's own mappings: a few hundred */
	return (fold_budget){ min && min < VR_FOLD_MIN_LEAST ? VR_FOLD_MIN_LEAST : min,
	                      maps > 1024 ? (size_t)maps - 1024 : 0 };
}

/* What one allocation of `bytes` costs once folded. */
static size_t fold_cost(fold_budget *f, size_t bytes)
{
	size_t maps = bytes / VR_FOLD_CHUNK + 1;
	if (f->min == 0 || bytes < f->min || maps > f->maps_left)
		return bytes;
	f->maps_left -= maps;
	return bytes / 512;
}

/* Rank k's allocations folded (the driver's four arrays, or HPL's matrix
 * and two panels), with the shared buffer itself. */
static size_t rank_folded(const hl_config *cfg, const vproc_dense_local *l, const hl_ranks *r,
                          fold_budget f)
{
	if (l == NULL) {
		size_t a, panel;
		hl_hpl_arrays(cfg->n, cfg->nb, r->nprow, r->npcol, &a, &panel);
		return VR_FOLD_CHUNK + fold_cost(&f, a) + fold_cost(&f, panel) + fold_cost(&f, panel);
	}
	return VR_FOLD_CHUNK + fold_cost(&f, 8 * l->matrices * l->lld * l->nq) +
	       fold_cost(&f, 8 * l->vectors * l->lld) + fold_cost(&f, 8 * l->work) +
	       fold_cost(&f, sizeof(int) * l->ipiv);
}

/* Bytes of rank k of an nprow x npcol row-major grid; fold: NULL, or what
 * folding leaves. */
static size_t rank_bytes(const hl_config *cfg, const hl_kernel_def *row, const hl_ranks *r,
                         size_t k, const fold_budget *fold)
{
	if (row->mem_limit)
		return row->mem_limit;   /* a stock tester's static array: never folded */
	if ((size_t)cfg->kernel >= sizeof dense_of / sizeof dense_of[0])   /* hpl: its own */
		return fold ? rank_folded(cfg, NULL, r, *fold)
		            : row->mem_need(row->id, cfg->n, cfg->nb, r->nprow, r->npcol);
	vproc_dense_local l;
	if (vproc_dense_layout(dense_of[cfg->kernel], cfg->n, cfg->nb, r->nprow, r->npcol,
	                       k / r->npcol, k % r->npcol, &l) != VPROC_OK)
		return 0;
	return fold ? rank_folded(cfg, &l, r, *fold) : l.bytes;
}

static int memory_of(const hl_plan *plan, int baseline, const fold_budget *fold, hl_memory *m);

int hl_memory_of(const hl_plan *plan, int baseline, hl_memory *m)
{
	return memory_of(plan, baseline, NULL, m);
}

static int memory_of(const hl_plan *plan, int baseline, const fold_budget *fold, hl_memory *m)
{
	const hl_config *cfg = plan->cfg;
	memset(m, 0, sizeof *m);
	const hl_kernel_def *row = hl_kernel_row(cfg->kernel, cfg->stock);
	if (row->mem_need == NULL || cfg->program != NULL)
		return 0;   /* the program's own business */
	hl_ranks r;
	if ((baseline ? hl_ranks_cyclic(plan, &r) : hl_ranks_from_plan(plan, &r)) < 0)
		return -1;
	m->machine = calloc(cfg->nmachines, sizeof *m->machine);
	m->procs = calloc(cfg->nmachines, sizeof *m->procs);
	if (m->machine == NULL || m->procs == NULL) {
		hl_ranks_free(&r);
		hl_memory_free(m);
		return -1;
	}
	for (size_t k = 0; k < r.nranks; k++) {
		size_t b = rank_bytes(cfg, row, &r, k, fold);
		m->machine[r.machine[k]] += b;
		m->procs[r.machine[k]]++;
		if (b > m->per_process)
			m->per_process = b;
	}
	m->known = 1;
	hl_ranks_free(&r);
	return 0;
}

void hl_memory_free(hl_memory *m)
{
	free(m->machine);
	free(m->procs);
	memset(m, 0, sizeof *m);
}

size_t hl_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (f == NULL)
		return 0;
	char line[256];
	unsigned long long kb = 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (size_t)kb * 1024;
}

/* Does machine m run on this computer (every machine, when emulated)? */
static int is_local(const hl_config *cfg, const hl_machine *m)
{
	char me[256] = "";
	gethostname(me, sizeof me - 1);
	return cfg->emulate || strcmp(m->host, "localhost") == 0 ||
	       strcmp(m->host, "127.0.0.1") == 0 || strcmp(m->host, me) == 0;
}

int hl_memory_check(const hl_plan *plan, diag *d)
{
	const hl_config *cfg = plan->cfg;
	hl_memory m;
	fold_budget fold = cfg->emulate && cfg->emu.skip_compute ? fold_budget_of()
	                                                          : (fold_budget){ 0, 0 };
	int folded = fold.min > 0;
	if (memory_of(plan, 0, folded ? &fold : NULL, &m) < 0) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	int rc = 0;
	size_t local = 0;
	const hl_machine *first_local = NULL;
	for (size_t i = 0; m.known && i < cfg->nmachines; i++) {
		const hl_machine *mc = &cfg->machines[i];
		if (mc->memory_gb > 0 && (double)m.machine[i] > mc->memory_gb * GB) {
			diag_error(d, mc->loc.line, mc->loc.col,
			           "%s: the plan's %zu processes need %.3g GB (%zu bytes each at most, "
			           "n = %zu%s), more than its memory_gb: %g: lower n or give it fewer "
			           "processes", mc->name, m.procs[i], (double)m.machine[i] / GB,
			           m.per_process, cfg->n, folded ? ", folded" : "", mc->memory_gb);
			rc = -1;
		}
		if (m.procs[i] && is_local(cfg, mc) && mc->memory_gb == 0) {
			local += m.machine[i];
			if (first_local == NULL)
				first_local = mc;
		}
	}
	size_t avail = first_local ? hl_mem_available() : 0;
	if (first_local && avail > 0 && local > avail) {
		diag_error(d, first_local->loc.line, first_local->loc.col,
		           "this computer: the plan's processes here need %.3g GB (n = %zu%s), more "
		           "than its available memory (%.3g GB, MemAvailable): lower n or set memory_gb",
		           (double)local / GB, cfg->n, folded ? ", folded" : "", (double)avail / GB);
		rc = -1;
	}
	hl_memory_free(&m);
	return rc;
}

void hl_memory_print_text(const hl_plan *plan, FILE *out)
{
	const hl_config *cfg = plan->cfg;
	hl_memory m;
	if (hl_memory_of(plan, 0, &m) < 0 || !m.known) {
		hl_memory_free(&m);
		return;
	}
	const hl_kernel_def *row = hl_kernel_row(cfg->kernel, cfg->stock);
	fprintf(out, "\nMemory at n = %zu (%s): at most %zu bytes per process\n", cfg->n,
	        row->mem_limit ? "the stock tester's fixed array"
	        : cfg->kernel == HL_KERNEL_HPL ? "HPL's matrix and panels" : "hl-driver's arrays",
	        m.per_process);
	fprintf(out, "  %-16s %9s %16s  %s\n", "machine", "processes", "bytes", "memory_gb");
	int sum = hl_text_summarised(plan);
	for (size_t i = 0; i < cfg->nmachines;) {
		const hl_machine *mc = &cfg->machines[i];
		/* the processors of one entry with as many processes on one line,
		 * with the most bytes among them (a grid's last rows and columns
		 * hold fewer) */
		size_t run = 1, most = m.machine[i];
		while (sum && i + run < cfg->nmachines && cfg->machines[i + run].entry == mc->entry &&
		       m.procs[i + run] == m.procs[i]) {
			most = m.machine[i + run] > most ? m.machine[i + run] : most;
			run++;
		}
		char name[160];
		hl_text_run_label(cfg, i, i + run - 1, name, sizeof name);
		fprintf(out, "  %-16s %9zu %16zu  ", name, m.procs[i], most);
		if (mc->memory_gb > 0)
			fprintf(out, "%g", mc->memory_gb);
		else
			fprintf(out, "-");
		fprintf(out, run > 1 ? "  (%zu machines, bytes at most)\n" : "\n", run);
		i += run;
	}
	hl_memory_free(&m);
}

void hl_memory_json(const hl_plan *plan, jw *w)
{
	const hl_config *cfg = plan->cfg;
	hl_memory m;
	if (hl_memory_of(plan, 0, &m) < 0 || !m.known) {
		hl_memory_free(&m);
		return;
	}
	jw_key(w, "memory");
	jw_obj(w);
	jw_key(w, "n"); jw_uint(w, cfg->n);
	jw_key(w, "per_process"); jw_uint(w, m.per_process);
	jw_key(w, "machines");
	jw_arr(w);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		jw_obj(w);
		jw_key(w, "name"); jw_str(w, cfg->machines[i].name);
		jw_key(w, "processes"); jw_uint(w, m.procs[i]);
		jw_key(w, "bytes"); jw_uint(w, m.machine[i]);
		if (cfg->machines[i].memory_gb > 0) {
			jw_key(w, "memory_gb"); jw_num(w, cfg->machines[i].memory_gb);
		}
		jw_end(w);
	}
	jw_end(w);
	jw_end(w);
	hl_memory_free(&m);
}

/* Does the plan's matrix at order n fit memory_fraction of every machine's
 * memory (memory_gb; this computer's available memory for the machines on
 * it, together)?  *tight: the machine that limits it. */
static int auto_fits(hl_plan *plan, size_t n, size_t avail, const char **tight)
{
	hl_config *cfg = (hl_config *)plan->cfg;   /* the caller's own, not const */
	cfg->n = cfg->sizes[0] = n;
	hl_memory m;
	if (hl_memory_of(plan, 0, &m) < 0 || !m.known)
		return hl_memory_free(&m), 0;
	double f = cfg->memory_fraction, local = 0;
	int fits = 1;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const hl_machine *mc = &cfg->machines[i];
		if (mc->memory_gb > 0 && (double)m.machine[i] > f * mc->memory_gb * GB)
			fits = 0, *tight = mc->name;
		else if (mc->memory_gb == 0 && m.procs[i] && is_local(cfg, mc))
			local += (double)m.machine[i];
	}
	if (local > f * (double)avail)
		fits = 0, *tight = "this computer";
	hl_memory_free(&m);
	return fits;
}

/* The largest n a file may give, its row's in the key table: n: auto
 * chooses no more. */
static size_t n_max(void)
{
	return hl_key_find(HL_KS_TOP, "n")->hi;
}

/* n: auto: the largest multiple of nb that fits (kernel: hpl) with this
 * plan's grid, by bisection. */
static int choose_n(hl_plan *plan, diag *d)
{
	hl_config *cfg = (hl_config *)plan->cfg;   /* every machine's memory known: load_kernel.c */
	size_t avail = hl_mem_available(), nb = cfg->nb, lo = 0, hi = n_max() / nb + 1;
	const char *tight = NULL, *t = NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (auto_fits(plan, mid * nb, avail, &t))
			lo = mid;
		else
			hi = mid, tight = t;
	}
	if (lo == 0) {
		diag_error(d, cfg->n_loc.line, cfg->n_loc.col,
		           "n: auto: not even n = nb = %zu fits %g of the memory of %s",
		           nb, cfg->memory_fraction, tight ? tight : "the machines");
		return -1;
	}
	cfg->n = cfg->sizes[0] = lo * nb;
	snprintf(cfg->n_auto_why, sizeof cfg->n_auto_why,
	         "n: auto: n = %zu, the largest multiple of nb = %zu whose matrix fits %g of the "
	         "memory of %s", cfg->n, nb, cfg->memory_fraction, tight ? tight : "every machine");
	return 0;
}

/* n: auto's first plan, before n is chosen, at the largest n whose
 * matrix (8 n^2 bytes) fits memory_fraction of all the machines' memory
 * together (no plan fits more; at least nb): the plan's shapes (B at most
 * the column blocks) then see a size it could have, and when not even
 * n = nb fits, choose_n says so at n:, not the shape at its key. */
static void auto_start(hl_config *cfg)
{
	double total = 0;
	int local = 0;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const hl_machine *mc = &cfg->machines[i];
		total += mc->memory_gb * GB;
		local |= mc->memory_gb == 0 && is_local(cfg, mc);
	}
	if (local)
		total += (double)hl_mem_available();
	double n = sqrt(cfg->memory_fraction * total / 8);
	size_t blocks = n < (double)n_max() ? (size_t)n / cfg->nb : n_max() / cfg->nb;
	cfg->n = cfg->sizes[0] = (blocks ? blocks : 1) * cfg->nb;
}

/* hpcc runs its other benchmarks before HPL, each sized from HPL's
 * largest n: its RandomAccess table holds about n^2 words over the ranks.
 * Below 1024 words a rank (RandomAccess.h's MAX_TOTAL_PENDING_UPDATES)
 * Debian's hpcc 1.5 crashed or hung here (n = 1 even on one rank; n = 4
 * on two); from there on it ran on every grid tried (doc/design/safety.md). */
#define HPCC_MIN_WORDS 1024.0

static int hpcc_size_check(const hl_plan *plan, diag *d)
{
	const hl_config *cfg = plan->cfg;
	hl_ranks r, c;
	if (cfg->kernel != HL_KERNEL_HPL || cfg->program != NULL)
		return 0;   /* program: another HPL build, its own limits */
	if (hl_ranks_from_plan(plan, &r) < 0 || hl_ranks_cyclic(plan, &c) < 0) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	size_t ranks = r.nranks > c.nranks ? r.nranks : c.nranks;
	hl_ranks_free(&r);
	hl_ranks_free(&c);
	size_t least = (size_t)ceil(sqrt(HPCC_MIN_WORDS * (double)ranks));
	if (cfg->n >= least)
		return 0;
	diag_error(d, cfg->n_loc.line, cfg->n_loc.col, "n: %zu is too small for hpcc on %zu ranks: "
	           "it sizes its other benchmarks from HPL's largest n, and below n = %zu (1024 "
	           "words of its RandomAccess table a rank) they crash or hang", cfg->n, ranks, least);
	return -1;
}

int hl_plan_build_n(const hl_config *cfg, diag *d, hl_plan *plan)
{
	if (cfg->n_auto)
		auto_start((hl_config *)cfg);   /* the caller's own config, as choose_n's */
	if (hl_plan_build(cfg, d, plan) < 0)
		return -1;
	/* n: auto: the plan again at the chosen n, until n stays (the plan's
	 * grid may depend on n: B at most the column blocks) */
	for (int k = 0; cfg->n_auto && k < 4; k++) {
		size_t before = cfg->n;
		int rc = choose_n(plan, d);
		if (rc == 0 && cfg->n == before)
			break;
		hl_plan_free(plan);
		if (rc < 0 || hl_plan_build(cfg, d, plan) < 0)
			return -1;
	}
	if (cfg->n_auto && plan->B > plan->M) {
		diag_error(d, cfg->n_loc.line, cfg->n_loc.col, "n: auto: n = %zu, the largest that fits, "
		           "has %zu column blocks, fewer than B = %zu", cfg->n, plan->M, plan->B);
		hl_plan_free(plan);
		return -1;
	}
	if (hpcc_size_check(plan, d) < 0) {
		hl_plan_free(plan);
		return -1;
	}
	return 0;
}

int hl_plan_build_checked(const hl_config *cfg, diag *d, hl_plan *plan)
{
	if (hl_plan_build_n(cfg, d, plan) < 0)
		return -1;
	if (hl_memory_check(plan, d) < 0) {
		hl_plan_free(plan);
		return -1;
	}
	return 0;
}
