/*
 * hlmpi.c -- see hlmpi.h.  Shared by hetlaunch's MPI programs.
 */
#define _GNU_SOURCE
#include "hlmpi.h"

#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The BLACS C interface (in libscalapack-mpich). */
extern void Cblacs_pinfo(int *mypnum, int *nprocs);
extern void Cblacs_get(int ctxt, int what, int *val);
extern void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
extern void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
extern void Cblacs_gridexit(int ctxt);

int hl_grid_init(int nprow, int npcol, hl_grid *g)
{
	memset(g, 0, sizeof *g);
	g->ctxt = -1;
	MPI_Comm_rank(MPI_COMM_WORLD, &g->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g->size);
	if (nprow < 1 || npcol < 1 || (long)nprow * npcol != g->size)
		return -1;
	int me, np;
	Cblacs_pinfo(&me, &np);
	Cblacs_get(-1, 0, &g->ctxt);
	/* "Row": rank k at (k / Q, k % Q), the numbering of the plan's ranks[]
	 * (INTERFACE.md: BLACS row-major grid). */
	Cblacs_gridinit(&g->ctxt, "Row", nprow, npcol);
	Cblacs_gridinfo(g->ctxt, &g->nprow, &g->npcol, &g->myrow, &g->mycol);
	return 0;
}

void hl_grid_exit(hl_grid *g)
{
	if (g->ctxt >= 0)
		Cblacs_gridexit(g->ctxt);
	g->ctxt = -1;
}

size_t hl_l2g(size_t l, size_t nb, size_t iproc, size_t nprocs)
{
	return (l / nb * nprocs + iproc) * nb + l % nb;
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

double hl_entry(uint64_t seed, uint64_t i, uint64_t j)
{
	uint64_t h = splitmix64(splitmix64(splitmix64(seed) ^ i) ^ j);
	/* the top 53 bits: exactly representable, in [0, 1) */
	return (double)(h >> 11) * 0x1.0p-53 - 0.5;
}

static void *checked(void *p, size_t bytes, const char *what)
{
	if (p == NULL) {
		int rank = -1;
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		fprintf(stderr, "hetlaunch: rank %d: cannot allocate %zu bytes for %s: out of memory\n",
		        rank, bytes, what);
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	return p;
}

void *hl_alloc(size_t bytes, const char *what)
{
	return checked(malloc(bytes ? bytes : 1), bytes, what);
}

void *hl_alloc_zeroed(size_t bytes, const char *what)
{
	return checked(calloc(bytes ? bytes : 1, 1), bytes, what);
}

/* ---- accounting --------------------------------------------------------- */

typedef double (*wait_fn)(void);

/* The runtime's accumulated wait (vproc/runtime/core/wait.c), NULL without the
 * preload.  Looked up, not linked: the program runs without it too. */
static wait_fn runtime_wait(void)
{
	static int looked;
	static wait_fn fn;
	if (!looked) {
		void *sym = dlsym(RTLD_DEFAULT, "hetlaunch_wait_seconds");
		/* ISO C has no cast from void * to a function pointer; POSIX
		 * guarantees the representation, memcpy says so portably. */
		if (sym)
			memcpy(&fn, &sym, sizeof fn);
		looked = 1;
	}
	return fn;
}

void hl_clock_start(hl_clock *c)
{
	wait_fn fn = runtime_wait();
	c->from_runtime = fn != NULL;
	c->w0 = fn ? fn() : 0.0;
	c->t0 = MPI_Wtime();
}

void hl_clock_stop(hl_clock *c)
{
	double t1 = MPI_Wtime();
	MPI_Barrier(MPI_COMM_WORLD);
	double t2 = MPI_Wtime();
	wait_fn fn = runtime_wait();
	double w = fn ? fn() - c->w0 : t2 - t1;
	c->elapsed = t2 - c->t0;
	if (w > c->elapsed)
		w = c->elapsed;
	c->wait += w;
	c->compute += c->elapsed - w;
}

void hl_clock_print(const hl_clock *c, const hl_grid *g, size_t n)
{
	size_t bytes = 2 * (size_t)g->size * sizeof(double);
	double *mine = hl_alloc_zeroed(bytes, "per-rank times");
	double *all = hl_alloc_zeroed(bytes, "per-rank times");
	mine[2 * g->rank] = c->compute;
	mine[2 * g->rank + 1] = c->wait;
	/* Reduce, not Gather: the runtime interposes it (cooperative). */
	MPI_Reduce(mine, all, 2 * g->size, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (g->rank == 0) {
		for (int k = 0; k < g->size; k++)
			printf("hetlaunch-rank rank=%d n=%zu compute=%.6f wait=%.6f wait_from=%s\n", k, n,
			       all[2 * k], all[2 * k + 1], c->from_runtime ? "runtime" : "barrier");
		fflush(stdout);
	}
	free(mine);
	free(all);
}

void hl_print_result(const hl_result_line *r, const hl_grid *g)
{
	if (g->rank != 0)
		return;
	double gflops = r->time > 0 ? r->flops / r->time * 1e-9 : 0.0;
	printf("hetlaunch-result routine=%s kernel=%s n=%zu nb=%zu P=%d Q=%d time=%.6f gflops=%.4f "
	       "residual=%.6g passed=%d\n",
	       r->routine, r->kernel, r->n, r->nb, r->nprow, r->npcol, r->time, gflops, r->residual,
	       r->passed);
	fflush(stdout);
}
