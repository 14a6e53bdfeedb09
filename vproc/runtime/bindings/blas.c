/*
 * blas.c -- DGEMM under emulation: it runs for real (the reference BLAS,
 * found with dlsym(RTLD_NEXT)), and its cost is charged by a flop model,
 * 2 m n k at the machine's Mflop/s, instead of by its CPU time (emu.c says
 * why).  ScaLAPACK and the testers load the BLAS dynamically, so the
 * preload sees every call; without emulation the wrapper only forwards.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <time.h>

#include "bindings.h"

/* For hl-driver (dlsym): 1 when emulate: {compute: skip} is on, so that
 * it checks nothing. */
int hetlaunch_compute_skipped(void);
int hetlaunch_compute_skipped(void)
{
	return vr_skip_compute();
}

typedef void dgemm_fn(const char *, const char *, const int *, const int *, const int *,
                      const double *, const double *, const int *, const double *,
                      const int *, const double *, double *, const int *);

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);

static dgemm_fn *real_dgemm(void)
{
	static dgemm_fn *f;
	if (f == NULL) {
		void *sym = dlsym(RTLD_NEXT, "dgemm_");
		memcpy(&f, &sym, sizeof f);   /* POSIX: dlsym gives functions */
	}
	return f;
}

static unsigned long long thread_cpu_ns(void)
{
	struct timespec ts;
	vr_real_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc)
{
	dgemm_fn *f = real_dgemm();
	double mflops;
	if (!vr_flop_model(&mflops)) {
		f(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
		return;
	}
	if (vr_skip_compute()) {
		vr_charge_flops(2.0 * (double)*m * (double)*n * (double)*k, 0);
		return;
	}
	unsigned long long c0 = thread_cpu_ns();
	f(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
	unsigned long long c1 = thread_cpu_ns();
	vr_charge_flops(2.0 * (double)*m * (double)*n * (double)*k, c1 - c0);
}

/*
 * The other level-2 and level-3 BLAS that ScaLAPACK imports are charged by
 * their flops too, under both clocks, so that the two clocks
 * charge the same: the CPU time of this computer is not a steady measure
 * (on this 2-core virtual machine the DGEMM rate measured by CPU time,
 * hl_host_mflops, varied from 2.2 to 5.4 Gflop/s with the other load), and
 * the virtual clock promises the same times whatever else runs.
 */
static void *real_fn(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

#define VR_REAL(type, name)                                      \
	static type *f;                                              \
	if (f == NULL) {                                             \
		void *sym = real_fn(name);                               \
		memcpy(&f, &sym, sizeof f);                              \
	}

/* Run `call`; when emulating, charge `flops` for it; under compute: skip
 * only charge them (the results are garbage, which the program survives:
 * doc/design/virtual-clock.md). */
#define VR_CHARGED(flops, call)                                  \
	do {                                                         \
		double mf_;                                              \
		if (!vr_flop_model(&mf_)) {                              \
			call;                                                \
			return;                                              \
		}                                                        \
		if (vr_skip_compute()) {                                 \
			vr_charge_flops((flops), 0);                         \
			return;                                              \
		}                                                        \
		unsigned long long c0_ = thread_cpu_ns();                \
		call;                                                    \
		vr_charge_flops((flops), thread_cpu_ns() - c0_);         \
	} while (0)

typedef void trsm_fn(const char *, const char *, const char *, const char *, const int *,
                     const int *, const double *, const double *, const int *, double *,
                     const int *);
void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb);
void dtrmm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb);

/* m n^2 or m^2 n: a triangle of order m (left) or n (right) on an m x n block */
static double trxm_flops(const char *side, int m, int n)
{
	return (*side == 'L' || *side == 'l') ? (double)m * m * n : (double)m * n * n;
}

void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb)
{
	VR_REAL(trsm_fn, "dtrsm_");
	VR_CHARGED(trxm_flops(side, *m, *n), f(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb));
}

void dtrmm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb)
{
	VR_REAL(trsm_fn, "dtrmm_");
	VR_CHARGED(trxm_flops(side, *m, *n), f(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb));
}

typedef void gemv_fn(const char *, const int *, const int *, const double *, const double *,
                     const int *, const double *, const int *, const double *, double *,
                     const int *);
void dgemv_(const char *ta, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy);
void dgemv_(const char *ta, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy)
{
	VR_REAL(gemv_fn, "dgemv_");
	VR_CHARGED(2.0 * *m * *n, f(ta, m, n, alpha, a, lda, x, incx, beta, y, incy));
}

typedef void ger_fn(const int *, const int *, const double *, const double *, const int *,
                    const double *, const int *, double *, const int *);
void dger_(const int *m, const int *n, const double *alpha, const double *x, const int *incx,
           const double *y, const int *incy, double *a, const int *lda);
void dger_(const int *m, const int *n, const double *alpha, const double *x, const int *incx,
           const double *y, const int *incy, double *a, const int *lda)
{
	VR_REAL(ger_fn, "dger_");
	VR_CHARGED(2.0 * *m * *n, f(m, n, alpha, x, incx, y, incy, a, lda));
}

typedef void syrk_fn(const char *, const char *, const int *, const int *, const double *,
                     const double *, const int *, const double *, double *, const int *);
void dsyrk_(const char *uplo, const char *ta, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc);
void dsyrk_(const char *uplo, const char *ta, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc)
{
	VR_REAL(syrk_fn, "dsyrk_");
	VR_CHARGED((double)*n * (*n + 1) * *k, f(uplo, ta, n, k, alpha, a, lda, beta, c, ldc));
}

typedef void trxv_fn(const char *, const char *, const char *, const int *, const double *,
                     const int *, double *, const int *);
void dtrsv_(const char *uplo, const char *ta, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx);
void dtrmv_(const char *uplo, const char *ta, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx);
void dtrsv_(const char *uplo, const char *ta, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx)
{
	VR_REAL(trxv_fn, "dtrsv_");
	VR_CHARGED((double)*n * *n, f(uplo, ta, diag, n, a, lda, x, incx));
}

void dtrmv_(const char *uplo, const char *ta, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx)
{
	VR_REAL(trxv_fn, "dtrmv_");
	VR_CHARGED((double)*n * *n, f(uplo, ta, diag, n, a, lda, x, incx));
}

/*
 * DDOT is level 1 and charged by nothing (as under cpu_time: false); it is
 * interposed for compute: skip alone, where it returns 0: ScaLAPACK's
 * PDPOTF2 takes the pivot A(j,j) - x'x and stops the factorization (INFO >
 * 0) at the first that is not positive, so garbage in x would end a
 * Cholesky early and its emulated time with it.  With 0 the pivot is the
 * diagonal entry itself, which hl-driver fills positive under skip.
 */
typedef double dot_fn(const int *, const double *, const int *, const double *, const int *);
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy)
{
	VR_REAL(dot_fn, "ddot_");
	if (vr_skip_compute())
		return 0.0;
	return f(n, x, incx, y, incy);
}
