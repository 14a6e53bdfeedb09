/*
 * mmm.c -- hl-mmm, the MPI program of `layout: columns` (paper 001: C = A B
 * on a heterogeneous rectangle partition; notes
 * ../shared/specs/001-mmm-partition.md s4).  Stock PDGEMM cannot run such a
 * partition (its processes own Cartesian products of block rows and
 * columns, notes s4), hence this program.
 *
 * Rank k owns the block rectangle blocks[k] = (row, col, rows, cols) of C,
 * and the same rectangles of A and B (001 s2.1: one layout for the three),
 * column-major with leading dimension rows * nb.  For each block step
 * s = 0 .. n/nb - 1 (the outer product of 001 s2.1, no overlap):
 *   - the owners of block column s of A send every other rank the rows of
 *     it that rank's rectangle needs (point to point: the rectangles' row
 *     cuts differ between columns, so a rank may hear from several owners);
 *   - the owners of block row s of B send every other rank the columns it
 *     needs, the same way;
 *   - one DGEMM per rank: C_k += A_k(:, s) B_k(s, :), M = rows nb,
 *     N = cols nb, K = nb.
 * A rank receives (rows + cols) nb^2 doubles a step minus what it owns, so
 * a product moves 8 nb^2 (n/nb) (sum (rows + cols) - 2 n/nb) bytes: the
 * plan's half-perimeters (001 s3.2).  Any rectangle partition works, not
 * only columns (guillotine ones too).
 *
 * A, B and x are generated from their global indices (hlmpi.h, hl_entry);
 * the check compares y = C x with z = A (B x), each rank multiplying its own
 * pieces (Allreduce sums them): passed when
 * ||y - z||_inf / (n eps ||A||_inf ||B||_inf ||x||_inf) < 16.
 *
 * usage: mpiexec.hydra -n p hl-mmm n=N nb=R blocks=r,c,h,w/r,c,h,w/...
 *            [reps=K] [seed=S] [skip=K]
 * Output (rank 0):
 *   hetlaunch-result routine=rect-outer-product kernel=mmm n=N nb=R P=1 Q=p
 *       time=S gflops=G residual=X passed=0|1
 *   hetlaunch-rank rank=k n=N compute=S wait=S wait_from=...
 *   hetlaunch-mmm bytes_received=B bytes_planned=B
 * time is the fastest of K products (each barrier to barrier, the slowest
 * rank's).  skip=K leaves block step K out, so that tests see the check
 * fail.  Exit status 0 when the check passed and every rank received
 * exactly the planned bytes, 1 otherwise, 2 on bad arguments.
 *
 * Only MPI calls the runtime preload interposes (vproc/runtime/) are used:
 * Isend, Irecv, Waitall, Barrier, Reduce, Allreduce, Bcast.
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlmpi.h"

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);

#define SEED_A 1001u
#define SEED_B 1002u
#define SEED_X 1003u
#define MAX_RANKS 4096

typedef struct {
	long row, col, rows, cols;   /* in blocks */
} rect;

typedef struct {
	long n, nb, nblk;            /* nblk = n / nb */
	int p, reps;
	long skip;                   /* a step left out (tests: the check must fail); -1 */
	unsigned long seed;
	rect *r;                     /* [p] */
} opts;

static int parse_blocks(const char *s, opts *o)
{
	o->r = calloc(MAX_RANKS, sizeof *o->r);
	if (!o->r)
		return -1;
	o->p = 0;
	while (*s && o->p < MAX_RANKS) {
		rect *x = &o->r[o->p];
		int used = 0;
		if (sscanf(s, "%ld,%ld,%ld,%ld%n", &x->row, &x->col, &x->rows, &x->cols, &used) != 4)
			return -1;
		o->p++;
		s += used;
		if (*s == '/')
			s++;
		else if (*s)
			return -1;
	}
	return *s ? -1 : 0;
}

static int parse(int argc, char **argv, opts *o)
{
	memset(o, 0, sizeof *o);
	o->reps = 1;
	o->seed = 1;
	o->skip = -1;
	const char *blocks = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "n=", 2) == 0)
			o->n = atol(a + 2);
		else if (strncmp(a, "nb=", 3) == 0)
			o->nb = atol(a + 3);
		else if (strncmp(a, "reps=", 5) == 0)
			o->reps = atoi(a + 5);
		else if (strncmp(a, "skip=", 5) == 0)
			o->skip = atol(a + 5);
		else if (strncmp(a, "seed=", 5) == 0)
			o->seed = strtoul(a + 5, NULL, 10);
		else if (strncmp(a, "blocks=", 7) == 0)
			blocks = a + 7;
		else
			return -1;
	}
	if (o->n <= 0 || o->nb <= 0 || o->n % o->nb != 0 || o->reps < 1 || !blocks)
		return -1;
	o->nblk = o->n / o->nb;
	return parse_blocks(blocks, o);
}

/* Do the rectangles tile the nblk x nblk block matrix? */
static int tiles(const opts *o)
{
	long area = 0;
	for (int k = 0; k < o->p; k++) {
		const rect *a = &o->r[k];
		if (a->rows < 1 || a->cols < 1 || a->row < 0 || a->col < 0 ||
		    a->row + a->rows > o->nblk || a->col + a->cols > o->nblk)
			return 0;
		area += a->rows * a->cols;
		for (int j = 0; j < k; j++) {
			const rect *b = &o->r[j];
			if (a->row < b->row + b->rows && b->row < a->row + a->rows &&
			    a->col < b->col + b->cols && b->col < a->col + a->cols)
				return 0;
		}
	}
	return area == o->nblk * o->nblk;
}

/* The overlap of [a, a+la) and [b, b+lb): its start and length (0: none). */
static long overlap(long a, long la, long b, long lb, long *start)
{
	long lo = a > b ? a : b, hi = a + la < b + lb ? a + la : b + lb;
	*start = lo;
	return hi > lo ? hi - lo : 0;
}

typedef struct {
	const opts *o;
	int me;
	rect R;
	long M, N;                  /* local rows and columns (elements) */
	double *A, *B, *C;          /* M x N, ld M */
	double *At;                 /* pivot of A, transposed: nb x M, ld nb */
	double *Bp;                 /* pivot of B: nb x N, ld nb */
	double *sendbuf, *recvbuf;
	size_t sendcap, recvcap;
	MPI_Request *req;
	MPI_Status *stat;           /* not MPI_STATUSES_IGNORE: GCC's stringop warning */
	double bytes;               /* received */
} state;

static void fill(state *s)
{
	long nb = s->o->nb;
	for (long j = 0; j < s->N; j++)
		for (long i = 0; i < s->M; i++) {
			uint64_t gi = (uint64_t)(s->R.row * nb + i), gj = (uint64_t)(s->R.col * nb + j);
			s->A[j * s->M + i] = hl_entry(SEED_A + s->o->seed, gi, gj);
			s->B[j * s->M + i] = hl_entry(SEED_B + s->o->seed, gi, gj);
			s->C[j * s->M + i] = 0.0;
		}
}

/* Pack A(rows [g, g+len) blocks, block column k) of rank me, transposed
 * (nb x len nb, ld nb). */
static void pack_a(const state *s, long k, long g, long len, double *out)
{
	long nb = s->o->nb, c0 = (k - s->R.col) * nb, r0 = (g - s->R.row) * nb;
	for (long i = 0; i < len * nb; i++)
		for (long j = 0; j < nb; j++)
			out[i * nb + j] = s->A[(c0 + j) * s->M + r0 + i];
}

/* Pack B(block row k, columns [g, g+len) blocks) of rank me: nb x len nb, ld nb. */
static void pack_b(const state *s, long k, long g, long len, double *out)
{
	long nb = s->o->nb, r0 = (k - s->R.row) * nb, c0 = (g - s->R.col) * nb;
	for (long j = 0; j < len * nb; j++)
		for (long i = 0; i < nb; i++)
			out[j * nb + i] = s->B[(c0 + j) * s->M + r0 + i];
}

static void *grow(double **buf, size_t *cap, size_t need)
{
	if (need > *cap) {
		free(*buf);
		*buf = hl_alloc(need * sizeof **buf, "message buffers");
		*cap = need;
	}
	return *buf;
}

/* Sizes of what rank me sends (send = 1) or receives in step k, in doubles. */
static size_t step_volume(const state *s, long k, int send)
{
	const opts *o = s->o;
	size_t total = 0;
	long st;
	for (int q = 0; q < o->p; q++) {
		if (q == s->me)
			continue;
		const rect *own = send ? &s->R : &o->r[q], *oth = send ? &o->r[q] : &s->R;
		if (k >= own->col && k < own->col + own->cols)
			total += (size_t)(overlap(own->row, own->rows, oth->row, oth->rows, &st) * o->nb * o->nb);
		if (k >= own->row && k < own->row + own->rows)
			total += (size_t)(overlap(own->col, own->cols, oth->col, oth->cols, &st) * o->nb * o->nb);
	}
	return total;
}

/* One block step: post the receives, pack and send, copy what I own, wait,
 * unpack A, DGEMM. */
static void step(state *s, long k)
{
	const opts *o = s->o;
	long nb = o->nb, st;
	double *sb = grow(&s->sendbuf, &s->sendcap, step_volume(s, k, 1) + 1);
	double *rb = grow(&s->recvbuf, &s->recvcap, step_volume(s, k, 0) + 1);
	int nreq = 0;
	size_t at = 0;
	/* receives: A pieces into rb (unpacked after), B pieces straight into Bp */
	for (int q = 0; q < o->p; q++) {
		const rect *Q = &o->r[q];
		if (q == s->me)
			continue;
		long len;
		if (k >= Q->col && k < Q->col + Q->cols &&
		    (len = overlap(Q->row, Q->rows, s->R.row, s->R.rows, &st)) > 0) {
			int cnt = (int)(len * nb * nb);
			MPI_Irecv(rb + at, cnt, MPI_DOUBLE, q, (int)(2 * k), MPI_COMM_WORLD, &s->req[nreq++]);
			at += (size_t)cnt;
			s->bytes += 8.0 * cnt;
		}
		if (k >= Q->row && k < Q->row + Q->rows &&
		    (len = overlap(Q->col, Q->cols, s->R.col, s->R.cols, &st)) > 0) {
			int cnt = (int)(len * nb * nb);
			MPI_Irecv(s->Bp + (st - s->R.col) * nb * nb, cnt, MPI_DOUBLE, q, (int)(2 * k + 1),
			          MPI_COMM_WORLD, &s->req[nreq++]);
			s->bytes += 8.0 * cnt;
		}
	}
	int own_col = k >= s->R.col && k < s->R.col + s->R.cols;
	int own_row = k >= s->R.row && k < s->R.row + s->R.rows;
	at = 0;
	for (int q = 0; q < o->p; q++) {
		const rect *Q = &o->r[q];
		long len;
		if (q == s->me)
			continue;
		if (own_col && (len = overlap(s->R.row, s->R.rows, Q->row, Q->rows, &st)) > 0) {
			pack_a(s, k, st, len, sb + at);
			MPI_Isend(sb + at, (int)(len * nb * nb), MPI_DOUBLE, q, (int)(2 * k), MPI_COMM_WORLD,
			          &s->req[nreq++]);
			at += (size_t)(len * nb * nb);
		}
		if (own_row && (len = overlap(s->R.col, s->R.cols, Q->col, Q->cols, &st)) > 0) {
			pack_b(s, k, st, len, sb + at);
			MPI_Isend(sb + at, (int)(len * nb * nb), MPI_DOUBLE, q, (int)(2 * k + 1),
			          MPI_COMM_WORLD, &s->req[nreq++]);
			at += (size_t)(len * nb * nb);
		}
	}
	if (own_col)
		pack_a(s, k, s->R.row, s->R.rows, s->At);
	if (own_row)
		pack_b(s, k, s->R.col, s->R.cols, s->Bp);
	MPI_Waitall(nreq, s->req, s->stat);
	/* A pieces arrive in rank order, each the rows of its owner's overlap */
	at = 0;
	for (int q = 0; q < o->p; q++) {
		const rect *Q = &o->r[q];
		long len;
		if (q != s->me && k >= Q->col && k < Q->col + Q->cols &&
		    (len = overlap(Q->row, Q->rows, s->R.row, s->R.rows, &st)) > 0) {
			memcpy(s->At + (st - s->R.row) * nb * nb, rb + at,
			       (size_t)(len * nb * nb) * sizeof *rb);
			at += (size_t)(len * nb * nb);
		}
	}
	int m = (int)s->M, n = (int)s->N, kk = (int)nb, ld = (int)nb;
	double one = 1.0;
	dgemm_("T", "N", &m, &n, &kk, &one, s->At, &ld, s->Bp, &ld, &one, s->C, &m);
}

/* Add M_local v(cols) into out(rows) and |M_local| row sums into rs(rows):
 * this rank's share of a product with a length-n vector. */
static void local_gemv(const state *s, const double *Ml, const double *v, double *out, double *rs)
{
	long nb = s->o->nb;
	for (long j = 0; j < s->N; j++) {
		double vj = v[s->R.col * nb + j];
		for (long i = 0; i < s->M; i++) {
			double m = Ml[j * s->M + i];
			out[s->R.row * nb + i] += m * vj;
			if (rs)
				rs[s->R.row * nb + i] += fabs(m);
		}
	}
}

static double vmax(const double *v, long n)
{
	double m = 0.0;
	for (long i = 0; i < n; i++)
		m = fmax(m, fabs(v[i]));
	return m;
}

/* ||C x - A (B x)||_inf / (n eps ||A||_inf ||B||_inf ||x||_inf), computed
 * where the data lies: every rank multiplies its own (unchanged) pieces of
 * A and B and its C, and Allreduce sums the parts.  A wrong C (a piece sent
 * to the wrong place, a step skipped) cannot hide: A and B are what
 * hl_entry generated, C is what the steps made.  O(rows cols) per rank, so
 * that an emulated slow rank 0 does not spend minutes on an O(n^2) check. */
static double residual(const state *s)
{
	const opts *o = s->o;
	long n = o->n;
	size_t bytes = (size_t)n * sizeof(double);
	double *x = hl_alloc(bytes, "x"), *part = hl_alloc(bytes, "check"),
	       *bx = hl_alloc(bytes, "B x"), *ra = hl_alloc(bytes, "row sums"),
	       *rb = hl_alloc(bytes, "row sums"), *tmp = hl_alloc(bytes, "row sums");
	for (long j = 0; j < n; j++)
		x[j] = hl_entry(SEED_X + o->seed, (uint64_t)j, 0);
	memset(part, 0, bytes);
	memset(tmp, 0, bytes);
	local_gemv(s, s->B, x, part, tmp);                   /* B x, |B| row sums */
	MPI_Allreduce(part, bx, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(tmp, rb, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	memset(part, 0, bytes);
	memset(tmp, 0, bytes);
	local_gemv(s, s->C, x, part, NULL);                  /* + C x */
	for (long i = 0; i < n; i++)
		part[i] = -part[i];
	local_gemv(s, s->A, bx, part, tmp);                  /* A (B x) - C x */
	MPI_Allreduce(tmp, ra, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(part, bx, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	double res = vmax(bx, n) / ((double)n * DBL_EPSILON * vmax(ra, n) * vmax(rb, n) * vmax(x, n));
	free(x);
	free(part);
	free(bx);
	free(ra);
	free(rb);
	free(tmp);
	return res;
}

static double planned_bytes(const opts *o)
{
	long hp = 0;
	for (int k = 0; k < o->p; k++)
		hp += o->r[k].rows + o->r[k].cols;
	return 8.0 * (double)(o->nb * o->nb) * (double)o->nblk * (double)(hp - 2 * o->nblk);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int me, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	opts o;
	if (parse(argc, argv, &o) < 0 || o.p != size || !tiles(&o)) {
		if (me == 0)
			fprintf(stderr, "usage: hl-mmm n=N nb=R blocks=row,col,rows,cols/... [reps=K] "
			                "[seed=S]: one rectangle per rank (%d ranks), tiling the n/nb x "
			                "n/nb block matrix\n", size);
		MPI_Finalize();
		return 2;
	}
	state s = { .o = &o, .me = me, .R = o.r[me] };
	s.M = s.R.rows * o.nb;
	s.N = s.R.cols * o.nb;
	size_t mn = (size_t)(s.M * s.N);
	s.A = hl_alloc(mn * sizeof(double), "A");
	s.B = hl_alloc(mn * sizeof(double), "B");
	s.C = hl_alloc(mn * sizeof(double), "C");
	s.At = hl_alloc((size_t)(o.nb * s.M) * sizeof(double), "the pivot column of A");
	s.Bp = hl_alloc((size_t)(o.nb * s.N) * sizeof(double), "the pivot row of B");
	s.req = hl_alloc(4 * (size_t)o.p * sizeof *s.req, "requests");
	s.stat = hl_alloc(4 * (size_t)o.p * sizeof *s.stat, "statuses");
	hl_grid g = { -1, 1, size, 0, me, me, size };
	hl_clock clk = { 0 };
	double best = INFINITY;
	for (int rep = 0; rep < o.reps; rep++) {
		fill(&s);
		s.bytes = 0;
		MPI_Barrier(MPI_COMM_WORLD);
		hl_clock_start(&clk);
		for (long k = 0; k < o.nblk; k++)
			if (k != o.skip)
				step(&s, k);
		hl_clock_stop(&clk);
		double slowest;
		MPI_Allreduce(&clk.elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		best = fmin(best, slowest);
	}
	double bytes = 0;
	MPI_Reduce(&s.bytes, &bytes, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	double res = residual(&s);
	int passed = me == 0 && res < 16.0 && bytes == planned_bytes(&o);
	MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (me == 0) {
		printf("hetlaunch-mmm bytes_received=%.0f bytes_planned=%.0f\n", bytes, planned_bytes(&o));
		fflush(stdout);
	}
	hl_clock_print(&clk, &g, (size_t)o.n);
	hl_result_line line = { "rect-outer-product", "mmm", (size_t)o.n, (size_t)o.nb, 1, size, best,
	                        2.0 * (double)o.n * (double)o.n * (double)o.n, res, passed };
	hl_print_result(&line, &g);
	free(s.A);
	free(s.B);
	free(s.C);
	free(s.At);
	free(s.Bp);
	free(s.req);
	free(s.stat);
	free(s.sendbuf);
	free(s.recvbuf);
	free(o.r);
	MPI_Finalize();
	return passed ? 0 : 1;
}
