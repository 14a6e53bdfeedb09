/*
 * driver.c -- hl-driver, hetlaunch's own driver of stock ScaLAPACK
 *.  Debian's testers hold every problem in a fixed array
 * (xdlu 4 MB per process): this one allocates what the problem needs, so
 * the papers' method (000 s2: stock ScaLAPACK, CYCLIC(nb), more processes
 * on faster machines) runs at the sizes where it shows.
 *
 * usage: mpiexec -n P*Q hl-driver [--seed S] [--checksum] [--nan|--perturb] KERNEL NB P Q N [N ...]
 *
 *   lu    PDGETRF + PDGETRS, HPL's scaled residual
 *         ||Ax - b||_inf / (eps (||A||_inf ||x||_inf + ||b||_inf) n) < 16
 *   qr    PDGEQRF timed; checked by solving Ax = b with the factors
 *         (PDORMQR applies Q^T, PDTRSM solves with R) and the same residual
 *   chol  PDPOTRF + PDPOTRS on a symmetric matrix made diagonally dominant
 *         (hence positive definite), the same residual
 *   mm    PDGEMM C = A B, checked as ||C x - A (B x)||_inf /
 *         (eps n ||A||_inf ||B||_inf ||x||_inf) < 16
 *
 * Every matrix comes from hl_entry(seed, i, j) of its GLOBAL indices, so
 * every grid factors the same matrix; --checksum prints a checksum of A
 * that does not depend on the grid (tests/e2e/run_test.sh compares two).
 * A NaN or an Inf in the result, or INFO != 0, fails the problem; --nan
 * puts a NaN in A(0,0) to show it does, and --perturb checks against a
 * wrong right-hand side (lu, qr, chol) or a wrong C(0,0) (mm) to show the
 * residual catches a finite error (tests/e2e/driver_test.sh); under
 * compute: skip --nan fills the whole of A with NaN.
 * Under emulate: {compute: skip} (the runtime's BLAS return without
 * computing) nothing is checked: every entry is filled positive (so that
 * a Cholesky's pivots stay positive: blas.c), the factorization's INFO
 * does not stop the solve, and the result says residual=nan passed=1.
 * Output: hlmpi.h's lines (memory before allocating, result, ranks).
 * Exit status 0 when every problem passed, 1 otherwise; 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/dense/dense.h"
#include "hlmpi.h"

/* ---- ScaLAPACK and PBLAS (Fortran interfaces) --------------------------- */
extern void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
                      const int *irsrc, const int *icsrc, const int *ictxt, const int *lld,
                      int *info);
extern void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
                     const int *desca, int *ipiv, int *info);
extern void pdgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
                     const int *ia, const int *ja, const int *desca, const int *ipiv, double *b,
                     const int *ib, const int *jb, const int *descb, int *info);
extern void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
                     const int *desca, int *info);
extern void pdpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a,
                     const int *ia, const int *ja, const int *desca, double *b, const int *ib,
                     const int *jb, const int *descb, int *info);
extern void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
                     const int *desca, double *tau, double *work, const int *lwork, int *info);
extern void pdormqr_(const char *side, const char *trans, const int *m, const int *n,
                     const int *k, const double *a, const int *ia, const int *ja,
                     const int *desca, const double *tau, double *c, const int *ic,
                     const int *jc, const int *descc, double *work, const int *lwork,
                     int *info);
extern void pdtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
                    const int *m, const int *n, const double *alpha, const double *a,
                    const int *ia, const int *ja, const int *desca, double *b, const int *ib,
                    const int *jb, const int *descb);
extern void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
                    const double *alpha, const double *a, const int *ia, const int *ja,
                    const int *desca, const double *b, const int *ib, const int *jb,
                    const int *descb, const double *beta, double *c, const int *ic,
                    const int *jc, const int *descc);
extern void pdgemv_(const char *trans, const int *m, const int *n, const double *alpha,
                    const double *a, const int *ia, const int *ja, const int *desca,
                    const double *x, const int *ix, const int *jx, const int *descx,
                    const int *incx, const double *beta, double *y, const int *iy,
                    const int *jy, const int *descy, const int *incy);
extern double pdlange_(const char *norm, const int *m, const int *n, const double *a,
                       const int *ia, const int *ja, const int *desca, double *work);

static const int I1 = 1;
static const double ONE = 1.0, ZERO = 0.0, MONE = -1.0;
#define THRESHOLD 16.0
#define EPS (DBL_EPSILON / 2)   /* LAPACK's relative machine precision */

/* ---- one problem ------------------------------------------------------ */

typedef struct {
	const hl_grid *g;
	int n, nb;
	uint64_t seed;
	vproc_dense_local loc;   /* this process's array sizes */
	int descA[9], descV[9];  /* n x n and n x 1, CYCLIC(nb) */
	double *work;
	hl_clock clock;
	double time;             /* the slowest rank's, barrier to barrier */
	double residual;
	int info;                /* first nonzero INFO */
	int perturb;             /* --perturb: check against a wrong problem */
	int skip;                /* compute: skip: the BLAS were not run */
} problem;

/* The runtime's answer (libhetlaunch-rt.so, preloaded): are the BLAS
 * skipped?  0 without the runtime. */
static int compute_skipped(void)
{
	int (*f)(void);
	void *sym = dlsym(RTLD_DEFAULT, "hetlaunch_compute_skipped");
	memcpy(&f, &sym, sizeof f);
	return f != NULL && f();
}

/* Fill an n x n local array from the seed.  sym: entry (min, max) plus n on
 * the diagonal, symmetric and diagonally dominant, hence SPD. */
static void fill_matrix(const problem *pb, double *a, uint64_t seed, int sym)
{
	const hl_grid *g = pb->g;
	size_t nb = (size_t)pb->nb;
	for (size_t lj = 0; lj < pb->loc.nq; lj++) {
		size_t gj = hl_l2g(lj, nb, (size_t)g->mycol, (size_t)g->npcol);
		for (size_t li = 0; li < pb->loc.mp; li++) {
			size_t gi = hl_l2g(li, nb, (size_t)g->myrow, (size_t)g->nprow);
			double v = sym ? hl_entry(seed, gi < gj ? gi : gj, gi < gj ? gj : gi)
			               : hl_entry(seed, gi, gj);
			if (pb->skip)
				v = fabs(v) + 1.0;
			if (sym && gi == gj)
				v += pb->n;
			a[li + lj * pb->loc.lld] = v;
		}
	}
}

/* An n x 1 vector: the column of index n of the seed's matrix. */
static void fill_vector(const problem *pb, double *v, uint64_t seed)
{
	const hl_grid *g = pb->g;
	for (size_t li = 0; li < pb->loc.lld; li++)
		v[li] = li < pb->loc.mp
		                ? hl_entry(seed, hl_l2g(li, (size_t)pb->nb, (size_t)g->myrow,
		                                        (size_t)g->nprow), (uint64_t)pb->n)
		                : 0.0;
}

/* 1 on every rank if any rank's array holds a NaN or an Inf. */
static int any_nonfinite(const double *a, size_t count)
{
	int bad = 0;
	for (size_t i = 0; i < count && !bad; i++)
		bad = !isfinite(a[i]);
	int any = 0;
	MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return any;
}

/* A grid-independent checksum of A: the sum, mod 2^64, of a mix of each
 * entry's bits with its global position (integer addition is associative,
 * so the order of the ranks does not matter). */
static unsigned long long checksum(const problem *pb, const double *a)
{
	const hl_grid *g = pb->g;
	unsigned long long mine = 0, all = 0;
	for (size_t lj = 0; lj < pb->loc.nq; lj++)
		for (size_t li = 0; li < pb->loc.mp; li++) {
			uint64_t bits;
			memcpy(&bits, &a[li + lj * pb->loc.lld], sizeof bits);
			size_t gi = hl_l2g(li, (size_t)pb->nb, (size_t)g->myrow, (size_t)g->nprow);
			size_t gj = hl_l2g(lj, (size_t)pb->nb, (size_t)g->mycol, (size_t)g->npcol);
			mine += bits * (2 * (gi * (size_t)pb->n + gj) + 1);
		}
	MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	return all;
}

static void note_info(problem *pb, const char *routine, int info)
{
	if (info != 0 && pb->info == 0) {
		pb->info = info;
		if (pb->g->rank == 0)
			fprintf(stderr, "hetlaunch: %s INFO = %d (n = %d)\n", routine, info, pb->n);
	}
}

static void timer_start(problem *pb)
{
	MPI_Barrier(MPI_COMM_WORLD);
	hl_clock_start(&pb->clock);
}

static void timer_stop(problem *pb)
{
	hl_clock_stop(&pb->clock);
	double t = pb->clock.elapsed;
	MPI_Allreduce(&t, &pb->time, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

/*
 * HPL's scaled residual of a solve: A and b regenerated from the seed
 * (the factorization overwrote A), x the solution.  r is overwritten.
 */
static double solve_residual(problem *pb, double *a, const double *x, double *r, int sym)
{
	fill_matrix(pb, a, pb->seed, sym);
	fill_vector(pb, r, pb->seed + 2 + (uint64_t)pb->perturb);
	double na = pdlange_("I", &pb->n, &pb->n, a, &I1, &I1, pb->descA, pb->work);
	double nx = pdlange_("I", &pb->n, &I1, x, &I1, &I1, pb->descV, pb->work);
	double nbv = pdlange_("I", &pb->n, &I1, r, &I1, &I1, pb->descV, pb->work);
	/* r = A x - b */
	pdgemv_("N", &pb->n, &pb->n, &ONE, a, &I1, &I1, pb->descA, x, &I1, &I1, pb->descV, &I1,
	        &MONE, r, &I1, &I1, pb->descV, &I1);
	double nr = pdlange_("I", &pb->n, &I1, r, &I1, &I1, pb->descV, pb->work);
	return nr / (EPS * (na * nx + nbv) * pb->n);
}

/* ---- the kernels ------------------------------------------------------ */

static void run_lu(problem *pb, double *a, double *x, double *r, int *ipiv)
{
	int info;
	fill_vector(pb, x, pb->seed + 2);
	timer_start(pb);
	pdgetrf_(&pb->n, &pb->n, a, &I1, &I1, pb->descA, ipiv, &info);
	note_info(pb, "PDGETRF", info);
	if (info == 0 || pb->skip) {   /* skip: the solve a real run does */
		pdgetrs_("N", &pb->n, &I1, a, &I1, &I1, pb->descA, ipiv, x, &I1, &I1, pb->descV, &info);
		note_info(pb, "PDGETRS", info);
	}
	timer_stop(pb);
	if (!pb->skip && pb->info == 0 && !any_nonfinite(x, pb->loc.mp))
		pb->residual = solve_residual(pb, a, x, r, 0);
}

static void run_chol(problem *pb, double *a, double *x, double *r)
{
	int info;
	fill_vector(pb, x, pb->seed + 2);
	timer_start(pb);
	pdpotrf_("L", &pb->n, a, &I1, &I1, pb->descA, &info);
	note_info(pb, "PDPOTRF", info);
	if (info == 0 || pb->skip) {
		pdpotrs_("L", &pb->n, &I1, a, &I1, &I1, pb->descA, x, &I1, &I1, pb->descV, &info);
		note_info(pb, "PDPOTRS", info);
	}
	timer_stop(pb);
	if (!pb->skip && pb->info == 0 && !any_nonfinite(x, pb->loc.mp))
		pb->residual = solve_residual(pb, a, x, r, 1);
}

/* The work array starts with tau (nq doubles), then PDGEQRF's workspace. */
static void run_qr(problem *pb, double *a, double *x, double *r)
{
	int info;
	double *tau = pb->work, *w = pb->work + pb->loc.nq;
	int lwork = (int)(pb->loc.work - pb->loc.nq);
	timer_start(pb);
	pdgeqrf_(&pb->n, &pb->n, a, &I1, &I1, pb->descA, tau, w, &lwork, &info);
	note_info(pb, "PDGEQRF", info);
	timer_stop(pb);
	if (pb->skip || pb->info != 0 || any_nonfinite(a, pb->loc.lld * pb->loc.nq))
		return;
	/* The check: x = R^-1 Q^T b, then the residual of A x = b. */
	fill_vector(pb, x, pb->seed + 2);
	pdormqr_("L", "T", &pb->n, &I1, &pb->n, a, &I1, &I1, pb->descA, tau, x, &I1, &I1,
	         pb->descV, w, &lwork, &info);
	note_info(pb, "PDORMQR", info);
	pdtrsm_("L", "U", "N", "N", &pb->n, &I1, &ONE, a, &I1, &I1, pb->descA, x, &I1, &I1,
	        pb->descV);
	/* tau is no longer needed: PDLANGE may overwrite it */
	if (pb->info == 0 && !any_nonfinite(x, pb->loc.mp))
		pb->residual = solve_residual(pb, a, x, r, 0);
}

/* C = A B; then C x against A (B x).  v holds x, B x, C x, A (B x). */
static void run_mm(problem *pb, double *a, double *b, double *c, double *v)
{
	size_t lv = pb->loc.lld;
	double *x = v, *bx = v + lv, *cx = v + 2 * lv, *abx = v + 3 * lv;
	fill_matrix(pb, b, pb->seed + 1, 0);
	memset(c, 0, pb->loc.lld * pb->loc.nq * sizeof *c);
	timer_start(pb);
	pdgemm_("N", "N", &pb->n, &pb->n, &pb->n, &ONE, a, &I1, &I1, pb->descA, b, &I1, &I1,
	        pb->descA, &ZERO, c, &I1, &I1, pb->descA);
	timer_stop(pb);
	if (pb->skip || any_nonfinite(c, pb->loc.lld * pb->loc.nq))
		return;
	if (pb->perturb && pb->g->myrow == 0 && pb->g->mycol == 0)
		c[0] += 1.0;
	fill_vector(pb, x, pb->seed + 2);
	memset(bx, 0, 3 * lv * sizeof *bx);
	const int *dA = pb->descA, *dV = pb->descV;
	pdgemv_("N", &pb->n, &pb->n, &ONE, c, &I1, &I1, dA, x, &I1, &I1, dV, &I1, &ZERO, cx, &I1,
	        &I1, dV, &I1);
	pdgemv_("N", &pb->n, &pb->n, &ONE, b, &I1, &I1, dA, x, &I1, &I1, dV, &I1, &ZERO, bx, &I1,
	        &I1, dV, &I1);
	pdgemv_("N", &pb->n, &pb->n, &ONE, a, &I1, &I1, dA, bx, &I1, &I1, dV, &I1, &ZERO, abx, &I1,
	        &I1, dV, &I1);
	double na = pdlange_("I", &pb->n, &pb->n, a, &I1, &I1, dA, pb->work);
	double nbm = pdlange_("I", &pb->n, &pb->n, b, &I1, &I1, dA, pb->work);
	double nx = pdlange_("I", &pb->n, &I1, x, &I1, &I1, dV, pb->work);
	for (size_t i = 0; i < pb->loc.mp; i++)
		cx[i] -= abx[i];
	double nd = pdlange_("I", &pb->n, &I1, cx, &I1, &I1, dV, pb->work);
	pb->residual = nd / (EPS * pb->n * na * nbm * nx);
}

typedef struct {
	const char *name, *routine;
	vproc_dense_kernel k;
	double (*flops)(double n);   /* the operation count (LAPACK's) */
} kernel_def;

static double lu_flops(double n) { return 2.0 / 3.0 * n * n * n - 0.5 * n * n + 2 * n * n; }
static double qr_flops(double n) { return 4.0 / 3.0 * n * n * n + 2 * n * n; }
static double chol_flops(double n) { return n * n * n / 3.0 + 2.5 * n * n; }
static double mm_flops(double n) { return 2 * n * n * n; }

static const kernel_def kernels[] = {
	{ "lu", "PDGETRF+PDGETRS", VPROC_DENSE_LU, lu_flops },
	{ "qr", "PDGEQRF", VPROC_DENSE_QR, qr_flops },
	{ "chol", "PDPOTRF+PDPOTRS", VPROC_DENSE_CHOL, chol_flops },
	{ "mm", "PDGEMM", VPROC_DENSE_MM, mm_flops },
};

/* One problem of order n, start to result line.  Returns 1 if it passed. */
static int run_problem(const kernel_def *kd, const hl_grid *g, int n, int nb, uint64_t seed,
                       int want_checksum, int poison, int perturb)
{
	/* NAN until a check has run: a skipped check is a failure */
	problem pb = { .g = g, .n = n, .nb = nb, .seed = seed, .residual = NAN, .perturb = perturb,
		       .skip = compute_skipped() };
	if (vproc_dense_layout(kd->k, (size_t)n, (size_t)nb, (size_t)g->nprow, (size_t)g->npcol,
	                       (size_t)g->myrow, (size_t)g->mycol, &pb.loc) != VPROC_OK) {
		fprintf(stderr, "hetlaunch: n = %d does not fit in memory sizes\n", n);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (g->rank == 0) {   /* before allocating: process (0,0) holds the most */
		printf("hetlaunch-memory kernel=%s n=%d bytes_per_process=%zu\n", kd->name, n,
		       pb.loc.bytes);
		fflush(stdout);
	}
	int info, lld = (int)pb.loc.lld, zero = 0;
	descinit_(pb.descA, &n, &n, &nb, &nb, &zero, &zero, &g->ctxt, &lld, &info);
	descinit_(pb.descV, &n, &I1, &nb, &nb, &zero, &zero, &g->ctxt, &lld, &info);
	size_t mat = pb.loc.lld * pb.loc.nq;
	double *a = hl_alloc(pb.loc.matrices * mat * sizeof(double), "the matrices");
	double *v = hl_alloc(pb.loc.vectors * pb.loc.lld * sizeof(double), "the vectors");
	pb.work = hl_alloc(pb.loc.work * sizeof(double), "the workspace");
	int *ipiv = hl_alloc_zeroed(pb.loc.ipiv * sizeof(int), "the pivots");
	fill_matrix(&pb, a, seed, kd->k == VPROC_DENSE_CHOL);
	if (poison && pb.skip)   /* nothing is checked: the worst garbage */
		for (size_t e = 0; e < mat; e++)
			a[e] = NAN;
	else if (poison && g->myrow == 0 && g->mycol == 0)
		a[0] = NAN;
	if (want_checksum) {
		unsigned long long sum = checksum(&pb, a);
		if (g->rank == 0)
			printf("hetlaunch-checksum kernel=%s n=%d A=%016llx\n", kd->name, n, sum);
	}
	switch (kd->k) {
	case VPROC_DENSE_LU: run_lu(&pb, a, v, v + pb.loc.lld, ipiv); break;
	case VPROC_DENSE_CHOL: run_chol(&pb, a, v, v + pb.loc.lld); break;
	case VPROC_DENSE_QR: run_qr(&pb, a, v, v + pb.loc.lld); break;
	case VPROC_DENSE_MM: run_mm(&pb, a, a + mat, a + 2 * mat, v); break;
	}
	/* Every rank computed the same residual (PDLANGE returns it to all). */
	int passed = pb.skip || (pb.info == 0 && isfinite(pb.residual) && pb.residual < THRESHOLD);
	if (pb.info != 0 || !isfinite(pb.residual))
		pb.residual = NAN;
	hl_result_line line = { kd->routine, kd->name, (size_t)n, (size_t)nb, g->nprow, g->npcol,
		                pb.time, kd->flops(n), pb.residual, passed };
	hl_print_result(&line, g);
	hl_clock_print(&pb.clock, g, (size_t)n);
	free(a);
	free(v);
	free(pb.work);
	free(ipiv);
	return passed;
}

/* ---- main ------------------------------------------------------------- */

static int positive(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 1 || v > 1000000000)
		return -1;
	*out = (int)v;
	return 0;
}

static void usage_exit(int rank, const char *why)
{
	if (rank == 0)
		fprintf(stderr, "hl-driver: %s\nusage: hl-driver [--seed S] [--checksum] [--nan|--perturb] "
		        "lu|qr|chol|mm NB P Q N [N ...]\n", why);
	MPI_Finalize();
	exit(2);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	uint64_t seed = 1;
	int want_checksum = 0, poison = 0, perturb = 0, i = 1;
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--checksum") == 0)
			want_checksum = 1;
		else if (strcmp(argv[i], "--nan") == 0)
			poison = 1;
		else if (strcmp(argv[i], "--perturb") == 0)
			perturb = 1;
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else
			usage_exit(rank, "unknown option");
	}
	if (argc - i < 5)
		usage_exit(rank, "missing arguments");
	const kernel_def *kd = NULL;
	for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
		if (strcmp(argv[i], kernels[k].name) == 0)
			kd = &kernels[k];
	int nb, p, q;
	if (kd == NULL)
		usage_exit(rank, "unknown kernel");
	if (positive(argv[i + 1], &nb) || positive(argv[i + 2], &p) || positive(argv[i + 3], &q))
		usage_exit(rank, "NB, P and Q must be positive integers");
	for (int k = i + 4; k < argc; k++) {
		int n;
		if (positive(argv[k], &n) || nb > n)
			usage_exit(rank, "every N must be an integer >= NB");
	}
	hl_grid g;
	if (hl_grid_init(p, q, &g) < 0)
		usage_exit(rank, "P x Q must be the number of MPI ranks");
	int all_passed = 1;
	for (int k = i + 4; k < argc; k++)
		all_passed &= run_problem(kd, &g, atoi(argv[k]), nb, seed, want_checksum, poison, perturb);
	hl_grid_exit(&g);
	MPI_Finalize();
	return all_passed ? 0 : 1;
}
