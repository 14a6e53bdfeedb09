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

#include "runtime.h"

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
	unsigned long long c0 = thread_cpu_ns();
	f(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
	unsigned long long c1 = thread_cpu_ns();
	vr_charge_flops(2.0 * (double)*m * (double)*n * (double)*k, c1 - c0);
}
