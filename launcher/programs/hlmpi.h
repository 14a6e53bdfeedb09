/*
 * hlmpi.h -- what every MPI program hetlaunch ships shares (the ScaLAPACK
 * driver hl-driver now; the mmm, ring and mw kernels later):
 *
 *   the BLACS grid      hl_grid_init / hl_grid_exit, NUMROC, local -> global
 *   the test matrices   hl_entry: a value from the GLOBAL (i, j) and a seed,
 *                       so every grid, every mapping (cyclic or hetero)
 *                       works on the same matrix
 *   memory              hl_alloc: a failed allocation is a clear message and
 *                       MPI_Abort, not a crash
 *   accounting          hl_clock: per-rank compute and wait seconds
 *   output              the machine-readable lines the launcher parses
 *                       (launcher/kernels/kernels.c), printed by rank 0:
 *
 *   hetlaunch-result routine=R kernel=K n=N nb=NB P=P Q=Q time=S gflops=G residual=X passed=0|1
 *   hetlaunch-rank rank=K n=N compute=S wait=S
 *   hetlaunch-memory kernel=K n=N bytes_per_process=B
 *
 * Values are key=value tokens separated by one blank: a reader splits at
 * blanks and ignores keys it does not know, so a line can gain keys.
 *
 * Only MPI calls the runtime preload interposes (vproc/runtime/) are used
 * here: Barrier, Reduce, Allreduce (never Gather, which would spin).
 */
#ifndef HL_MPI_H
#define HL_MPI_H

#include <stddef.h>
#include <stdint.h>

/* The BLACS context of a P x Q grid, row-major (rank k at row k / Q,
 * column k % Q, as hetlaunch's plans number their ranks). */
typedef struct {
	int ctxt;           /* BLACS context; -1 for a rank outside the grid */
	int nprow, npcol;
	int myrow, mycol;
	int rank, size;     /* in MPI_COMM_WORLD */
} hl_grid;

/* Returns 0, or -1 when P x Q is not the number of ranks (g->ctxt = -1). */
int hl_grid_init(int nprow, int npcol, hl_grid *g);
void hl_grid_exit(hl_grid *g);

/* The global index (0-based) of local index l on process iproc. */
size_t hl_l2g(size_t l, size_t nb, size_t iproc, size_t nprocs);

/* A uniform value in [-0.5, 0.5) from (seed, i, j), 0-based global
 * indices: a 64-bit mix (splitmix64) of the three, so it depends on
 * nothing but them. */
double hl_entry(uint64_t seed, uint64_t i, uint64_t j);

/* malloc that does not return NULL: on failure it prints "hetlaunch:
 * rank R: cannot allocate B bytes for WHAT" on stderr and calls
 * MPI_Abort(MPI_COMM_WORLD, 1).  bytes 0 allocates 1 byte. */
void *hl_alloc(size_t bytes, const char *what);
/* hl_alloc, zeroed by calloc: for values read after they are sent (the
 * pivots, the per-rank times), which the runtime never folds onto shared
 * pages under emulate: {compute: skip}, as it does large malloc'd blocks
 * (vproc/runtime/core/fold.c). */
void *hl_alloc_zeroed(size_t bytes, const char *what);

/*
 * Per-rank accounting.  hl_clock_start before a timed region (after a
 * barrier), hl_clock_stop after it, which ends with a barrier so that a
 * rank that finishes early counts the rest as waiting.  Wait is the
 * runtime's (the time blocked in MPI calls, hetlaunch_wait_seconds in
 * vproc/runtime/core/wait.c) when the preload is there, else only the final
 * barrier's; compute = elapsed - wait.  Regions add up.
 */
typedef struct {
	double t0, w0;          /* at start */
	double elapsed;         /* this region, barrier to barrier (s) */
	double compute, wait;   /* summed over regions (s) */
	int from_runtime;       /* 1 if wait came from the preload */
} hl_clock;

void hl_clock_start(hl_clock *c);
void hl_clock_stop(hl_clock *c);
/* Rank 0 prints one hetlaunch-rank line per rank (collective). */
void hl_clock_print(const hl_clock *c, const hl_grid *g, size_t n);

/* The result line (rank 0 only prints; call on every rank). */
typedef struct {
	const char *routine;    /* e.g. "PDGETRF+PDGETRS" */
	const char *kernel;     /* e.g. "lu" */
	size_t n, nb;
	int nprow, npcol;
	double time;            /* s, the slowest rank's */
	double flops;           /* the operation count, for Gflop/s */
	double residual;
	int passed;
} hl_result_line;

void hl_print_result(const hl_result_line *r, const hl_grid *g);

#endif
