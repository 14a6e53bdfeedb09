/*
 * ring.c -- hl-ring, the MPI program of `layout: ring` (paper 004, SliceRing;
 * notes ../shared/specs/004-slicering.md s8).  Rank k holds n_k of the
 * columns of an R x N grid, periodic in the columns; rank k's successor is
 * rank k+1 (mod q), its predecessor rank k-1, as in hetlaunch's ring plans.
 * Every iteration, as in the paper's model (004 s2), each rank
 *   - sends H bytes to its successor (its last column, padded) and receives
 *     its predecessor's (Isend, Recv, Wait): its communication;
 *   - computes: a DGEMM of n_k x F Mflop (so that an emulated machine is
 *     charged exactly the model's alpha_k W w_k), then a real Jacobi update
 *     of its columns, u'(r,j) = (u(r-1,j) + u(r+1,j) + 2 u(r,j-1)) / 4
 *     (zero above and below the grid), whose only neighbour to the left is
 *     the predecessor's last column.
 * After the run, rank 0 gathers the grid and checks it against the same
 * iterations computed serially from the same start (bit for bit: the same
 * operations in the same order).
 *
 * usage: mpiexec.hydra -n q hl-ring --columns n_0,n_1,...,n_{q-1}
 *            [--rows R] [--iterations I] [--warmup K]
 *            [--mflop-per-column F] [--bytes B]
 *   defaults R = 64, I = 20, K = 2, F = 0 (no DGEMM), B = 8 R (the column).
 * Output (rank 0), key=value tokens as in hetlaunch's other MPI programs:
 *   hetlaunch-result routine=jacobi-ring kernel=ring n=N nb=R P=1 Q=q
 *       time=S iterations=I warmup=K gflops=G residual=X passed=0|1
 *   hetlaunch-rank rank=k n=n_k compute=S wait=S
 * time is the mean time of one timed iteration (the slowest rank's); a
 * rank's compute and wait (its Isend, Recv and Wait) are per-iteration
 * means.  Exit status 0 when the check passed, 1 otherwise.
 *
 * Only MPI calls the runtime preload interposes (vproc/runtime/) are used:
 * Isend, Recv, Wait, Send, Barrier, Reduce, Allreduce, Bcast.
 */
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
                   const double *alpha, const double *a, const int *lda, const double *b,
                   const int *ldb, const double *beta, double *c, const int *ldc);

#define GEMM_K 40        /* the DGEMM is 40 x 40 times 40 x n: 3200 n flops */
#define GEMM_NMAX 4096   /* n per call, so that the buffers stay small */

typedef struct {
	long rows, iterations, warmup;
	double mflop_per_col;
	long bytes;
	long *cols;          /* [q] */
	int q;
} opts;

/* ---- helpers that belong with hlmpi.h (launcher/programs/) when it lands ------ */

static void *xalloc(size_t bytes, const char *what)
{
	void *p = calloc(bytes ? bytes : 1, 1);
	if (!p) {
		fprintf(stderr, "hl-ring: cannot allocate %zu bytes for %s\n", bytes, what);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	return p;
}

/* The start value of cell (r, j), from the global indices only. */
static double start_value(long r, long j)
{
	uint64_t z = (uint64_t)r * 0x9E3779B97F4A7C15ull + (uint64_t)j * 0xBF58476D1CE4E5B9ull + 1;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}

static void print_result(const opts *o, long ncols, double time, double flops,
                         double residual, int passed)
{
	printf("hetlaunch-result routine=jacobi-ring kernel=ring n=%ld nb=%ld P=1 Q=%d "
	       "time=%.9g iterations=%ld warmup=%ld gflops=%.6g residual=%.3g passed=%d\n",
	       ncols, o->rows, o->q, time, o->iterations, o->warmup,
	       time > 0 ? flops / time * 1e-9 : 0.0, residual, passed);
}

/* Rank 0 prints every rank's line, in rank order (Send/Recv: no Gather). */
static void print_ranks(const opts *o, int rank, double compute, double wait)
{
	double mine[2] = { compute, wait };
	if (rank != 0) {
		MPI_Send(mine, 2, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
		return;
	}
	for (int k = 0; k < o->q; k++) {
		double x[2] = { compute, wait };
		if (k > 0)
			MPI_Recv(x, 2, MPI_DOUBLE, k, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("hetlaunch-rank rank=%d n=%ld compute=%.9g wait=%.9g\n", k, o->cols[k], x[0],
		       x[1]);
	}
}

/* ---- options ------------------------------------------------------------- */

static int parse_long(const char *s, long lo, long *out)
{
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (end == s || *end || errno || x < lo)
		return -1;
	*out = x;
	return 0;
}

static int parse_cols(const char *s, opts *o)
{
	int n = 1;
	for (const char *c = s; *c; c++)
		n += *c == ',';
	o->cols = xalloc((size_t)n * sizeof *o->cols, "--columns");
	o->q = n;
	char *copy = strdup(s), *save = NULL;
	int k = 0, rc = copy ? 0 : -1;
	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && rc == 0;
	     t = strtok_r(NULL, ",", &save))
		rc = k < n ? parse_long(t, 1, &o->cols[k++]) : -1;
	free(copy);
	return rc == 0 && k == n ? 0 : -1;
}

static int parse(int argc, char **argv, opts *o)
{
	*o = (opts){ 64, 20, 2, 0.0, 0, NULL, 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int rc = -1;
		if (!v)
			return -1;
		if (!strcmp(a, "--columns"))
			rc = parse_cols(v, o);
		else if (!strcmp(a, "--rows"))
			rc = parse_long(v, 1, &o->rows);
		else if (!strcmp(a, "--iterations"))
			rc = parse_long(v, 1, &o->iterations);
		else if (!strcmp(a, "--warmup"))
			rc = parse_long(v, 0, &o->warmup);
		else if (!strcmp(a, "--bytes"))
			rc = parse_long(v, 0, &o->bytes);
		else if (!strcmp(a, "--mflop-per-column")) {
			char *end;
			o->mflop_per_col = strtod(v, &end);
			rc = (end != v && !*end && isfinite(o->mflop_per_col) && o->mflop_per_col >= 0)
			             ? 0 : -1;
		}
		if (rc < 0)
			return -1;
		i++;
	}
	if (!o->cols)
		return -1;
	if (o->bytes < 8 * o->rows)
		o->bytes = 8 * o->rows;   /* the message carries at least the column */
	return 0;
}

/* ---- the computation ----------------------------------------------------- */

/* One Jacobi update of ncol columns of R rows (column-major), left: the
 * column to the left of the first. */
static void jacobi(long R, long ncol, const double *u, const double *left, double *out)
{
	for (long j = 0; j < ncol; j++) {
		const double *c = u + j * R, *l = j ? u + (j - 1) * R : left;
		double *o = out + j * R;
		for (long r = 0; r < R; r++) {
			double up = r ? c[r - 1] : 0.0, down = r + 1 < R ? c[r + 1] : 0.0;
			o[r] = 0.25 * (up + down + 2.0 * l[r]);
		}
	}
}

typedef struct {
	double *a, *b, *c;   /* GEMM_K x GEMM_K, GEMM_K x GEMM_NMAX, GEMM_K x GEMM_NMAX */
	long n;              /* total columns of B per iteration */
} gemm_work;

/* The model's work: 3200 n flops, n = round(n_k F 10^6 / 3200). */
static void gemm_init(gemm_work *g, double mflop)
{
	g->n = lround(mflop * 1e6 / (2.0 * GEMM_K * GEMM_K));
	g->a = xalloc(GEMM_K * GEMM_K * sizeof(double), "dgemm A");
	g->b = xalloc((size_t)GEMM_K * GEMM_NMAX * sizeof(double), "dgemm B");
	g->c = xalloc((size_t)GEMM_K * GEMM_NMAX * sizeof(double), "dgemm C");
	for (long i = 0; i < GEMM_K * GEMM_K; i++)
		g->a[i] = 1e-3 * (double)(i % 7);
	for (long i = 0; i < (long)GEMM_K * GEMM_NMAX; i++)
		g->b[i] = 1e-3 * (double)(i % 5);
}

static void gemm_run(const gemm_work *g)
{
	const double one = 1.0, zero = 0.0;
	const int k = GEMM_K;
	for (long done = 0; done < g->n; done += GEMM_NMAX) {
		int n = (int)(g->n - done < GEMM_NMAX ? g->n - done : GEMM_NMAX);
		dgemm_("N", "N", &k, &n, &k, &one, g->a, &k, g->b, &k, &zero, g->c, &k);
	}
}

typedef struct {
	const opts *o;
	int rank, succ, pred;
	long n, first;       /* my columns and the global index of the first */
	double *u, *v;       /* [R n] the current and the next grid */
	char *sendbuf, *recvbuf;   /* [bytes] */
	gemm_work gemm;
	double compute, wait;      /* summed over the timed iterations */
} ring_rank;

static void iterate(ring_rank *s, int timed)
{
	const opts *o = s->o;
	long R = o->rows;
	double t0 = MPI_Wtime();
	const double *left = s->u + (s->n - 1) * R;   /* q = 1: my own last column */
	if (o->q > 1) {
		MPI_Request req;
		memcpy(s->sendbuf, s->u + (s->n - 1) * R, (size_t)R * sizeof(double));
		MPI_Isend(s->sendbuf, (int)o->bytes, MPI_BYTE, s->succ, 1, MPI_COMM_WORLD, &req);
		MPI_Recv(s->recvbuf, (int)o->bytes, MPI_BYTE, s->pred, 1, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		left = (const double *)s->recvbuf;
	}
	double t1 = MPI_Wtime();
	gemm_run(&s->gemm);
	jacobi(R, s->n, s->u, left, s->v);
	double *t = s->u;
	s->u = s->v;
	s->v = t;
	double t2 = MPI_Wtime();
	if (timed) {
		s->wait += t1 - t0;
		s->compute += t2 - t1;
	}
}

/* Rank 0: the whole grid after `steps` iterations, serially, and the
 * largest difference from the gathered parallel one. */
static double check(const opts *o, long ncols, long steps, const double *par)
{
	long R = o->rows;
	double *u = xalloc((size_t)(R * ncols) * sizeof(double), "the serial grid");
	double *v = xalloc((size_t)(R * ncols) * sizeof(double), "the serial grid");
	for (long j = 0; j < ncols; j++)
		for (long r = 0; r < R; r++)
			u[j * R + r] = start_value(r, j);
	for (long s = 0; s < steps; s++) {
		jacobi(R, ncols, u, u + (ncols - 1) * R, v);
		double *t = u;
		u = v;
		v = t;
	}
	double d = 0.0;
	for (long i = 0; i < R * ncols; i++)
		d = fmax(d, fabs(u[i] - par[i]));
	free(u);
	free(v);
	return d;
}

/* Every rank's columns to rank 0, in rank order (Send/Recv). */
static double *gather(const ring_rank *s, long ncols)
{
	const opts *o = s->o;
	long R = o->rows;
	if (s->rank != 0) {
		MPI_Send(s->u, (int)(R * s->n), MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
		return NULL;
	}
	double *all = xalloc((size_t)(R * ncols) * sizeof(double), "the gathered grid");
	memcpy(all, s->u, (size_t)(R * s->n) * sizeof(double));
	long at = s->n;
	for (int k = 1; k < o->q; k++) {
		MPI_Recv(all + at * R, (int)(R * o->cols[k]), MPI_DOUBLE, k, 3, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
		at += o->cols[k];
	}
	return all;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	opts o;
	if (parse(argc, argv, &o) < 0 || o.q != size) {
		if (rank == 0)
			fprintf(stderr, "usage: mpiexec -n q hl-ring --columns n_0,...,n_{q-1} [--rows R] "
			        "[--iterations I] [--warmup K] [--mflop-per-column F] [--bytes B]\n"
			        "(one column count per rank, each >= 1; this job has %d ranks)\n", size);
		MPI_Finalize();
		return 2;
	}
	long R = o.rows, ncols = 0;
	ring_rank s = { &o, rank, (rank + 1) % size, (rank + size - 1) % size, o.cols[rank], 0,
	                NULL, NULL, NULL, NULL, { 0 }, 0.0, 0.0 };
	for (int k = 0; k < size; k++) {
		if (k < rank)
			s.first += o.cols[k];
		ncols += o.cols[k];
	}
	s.u = xalloc((size_t)(R * s.n) * sizeof(double), "the local grid");
	s.v = xalloc((size_t)(R * s.n) * sizeof(double), "the local grid");
	s.sendbuf = xalloc((size_t)o.bytes, "the message");
	s.recvbuf = xalloc((size_t)o.bytes, "the message");
	for (long j = 0; j < s.n; j++)
		for (long r = 0; r < R; r++)
			s.u[j * R + r] = start_value(r, s.first + j);
	gemm_init(&s.gemm, (double)s.n * o.mflop_per_col);

	for (long i = 0; i < o.warmup; i++)
		iterate(&s, 0);
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	for (long i = 0; i < o.iterations; i++)
		iterate(&s, 1);
	double mine = (MPI_Wtime() - t0) / (double)o.iterations, slowest = 0.0;
	MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	double flops = 0.0, f = 2.0 * GEMM_K * GEMM_K * (double)s.gemm.n;
	MPI_Reduce(&f, &flops, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

	double *all = gather(&s, ncols);
	int passed = 1;
	if (rank == 0) {
		double res = check(&o, ncols, o.warmup + o.iterations, all);
		passed = res <= 1e-12;
		print_result(&o, ncols, slowest, flops, res, passed);
		free(all);
	}
	print_ranks(&o, rank, s.compute / (double)o.iterations, s.wait / (double)o.iterations);
	if (rank == 0)
		fflush(stdout);
	MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
	free(s.u);
	free(s.v);
	free(s.sendbuf);
	free(s.recvbuf);
	free(s.gemm.a);
	free(s.gemm.b);
	free(s.gemm.c);
	free(o.cols);
	MPI_Finalize();
	return passed ? 0 : 1;
}
