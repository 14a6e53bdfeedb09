/*
 * probe.c -- hl-probe, the MPI program behind `hetlaunch calibrate` (and
 * the emulation tests): every rank times REPS DGEMMs of order N, the way
 * paper 000 s5.1 measured its machines ("a 500x500 DGEMM, repeated and
 * averaged"), and rank 0 prints one line per rank, in rank order:
 *
 *   hl-probe RANK HOST SECONDS_PER_DGEMM TOTAL_SECONDS
 *
 * SECONDS_PER_DGEMM is the mean over the REPS DGEMMs, timed together.
 *
 * usage: mpiexec -n P hl-probe [N [REPS [SYNC [K]]]]   (defaults 500 7 0 N)
 *        mpiexec -n 2 hl-probe pingpong ITER      (the runtime's cost per
 *        round trip of 8 bytes)
 * SYNC = 1 times from one barrier to the next (the slowest rank's time,
 * for processes that share a machine); 0 times each rank alone.  K < N
 * makes the DGEMM N x N x K (m n k), the shape of a blocked factorization's
 * trailing update with block size K: `calibrate` times the plan's nb.
 *
 * Built with mpicc.mpich against the reference BLAS; runs under the
 * runtime (LD_PRELOAD) like any other program: MPI_Wtime is where the
 * emulated compute is charged.
 */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
                   const double *alpha, const double *a, const int *lda, const double *b,
                   const int *ldb, const double *beta, double *c, const int *ldc);

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2 && argv[1][0] == 'p') {   /* "pingpong ITER": the runtime's cost */
		int iter = atoi(argv[2]);
		double x = 0;
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		for (int i = 0; i < iter && size >= 2; i++) {
			if (rank == 0) {
				MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
				MPI_Recv(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else if (rank == 1) {
				MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
			}
		}
		double t = MPI_Wtime() - t0;
		if (rank == 0)
			printf("hl-probe pingpong %d round trips: %.3f us each\n", iter, t / iter * 1e6);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Finalize();
		return 0;
	}
	int n = argc > 1 ? atoi(argv[1]) : 500;
	int reps = argc > 2 ? atoi(argv[2]) : 7;
	int sync = argc > 3 ? atoi(argv[3]) : 0;
	int kk = argc > 4 ? atoi(argv[4]) : n;
	if (n <= 0 || reps <= 0 || kk <= 0) {
		if (rank == 0)
			fprintf(stderr, "usage: hl-probe [N [REPS [SYNC [K]]]]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	size_t nn = (size_t)n * (size_t)n, nk = (size_t)n * (size_t)kk;
	double *a = malloc(nk * sizeof *a), *b = malloc(nk * sizeof *b), *c = malloc(nn * sizeof *c);
	if (a == NULL || b == NULL || c == NULL)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (size_t i = 0; i < nk; i++) {
		a[i] = (double)(i % 7) - 3.0;
		b[i] = (double)(i % 5) * 0.5;
	}
	for (size_t i = 0; i < nn; i++)
		c[i] = 0.0;
	const double one = 1.0, zero = 0.0;
	/* warm the caches and the pages outside the timing */
	dgemm_("N", "N", &n, &n, &kk, &one, a, &n, b, &kk, &zero, c, &n);
	MPI_Barrier(MPI_COMM_WORLD);
	/* All the repetitions in one timing: every machine's DGEMMs then run
	 * for real at the same time, under the same contention, and only the
	 * emulated waiting differs (timing each DGEMM alone measured the
	 * ratios less steadily: up to 4% off against 2.6%). */
	double t0 = MPI_Wtime();
	for (int r = 0; r < reps; r++)
		dgemm_("N", "N", &n, &n, &kk, &one, a, &n, b, &kk, &zero, c, &n);
	if (sync)
		MPI_Barrier(MPI_COMM_WORLD);
	double t = MPI_Wtime() - t0;
	double med = t / reps;

	char host[256] = "?";
	gethostname(host, sizeof host - 1);
	/* A rank that is done must not spin in MPI_Gather (not interposed by
	 * the runtime) while the others still compute: wait cooperatively. */
	MPI_Barrier(MPI_COMM_WORLD);
	double mine[2] = { med, t };
	double *all = rank == 0 ? malloc((size_t)size * 2 * sizeof *all) : NULL;
	char *hosts = rank == 0 ? malloc((size_t)size * 256) : NULL;
	MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Gather(host, 256, MPI_CHAR, hosts, 256, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (int k = 0; k < size; k++)
			printf("hl-probe %d %s %.9g %.9g\n", k, hosts + 256 * k, all[2 * k],
			       all[2 * k + 1]);
		fflush(stdout);
	}
	free(all);
	free(hosts);
	free(a);
	free(b);
	free(c);
	MPI_Finalize();
	return 0;
}
