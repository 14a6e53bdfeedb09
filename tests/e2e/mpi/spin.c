/*
 * spin.c -- a program that polls its clock, as timer calibrations,
 * STREAM's checktick and `while (MPI_Wtime() < t)` waits do
 * (tests/e2e/spin_test.sh).  Under emulate: {clock: virtual} nothing is
 * charged between such reads, so the clock must move by itself (the
 * runtime's poll tick, vproc/runtime/core/vclock.c) or the loops never end.
 *
 *   spin CLOCK      CLOCK: wtime (MPI_Wtime), monotonic (clock_gettime
 *                   CLOCK_MONOTONIC), realtime (CLOCK_REALTIME) or tod
 *                   (gettimeofday)
 *
 * Every rank: (1) reads until the value changes; (2) waits 10 ms by
 * polling; (3) reads 1000 times in a row, each read strictly above the one
 * before; then prints
 *   "spin clock=C rank=R changed=S waited=S monotonic=0|1"
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static const char *clock_name;

static double now(void)
{
	if (strcmp(clock_name, "wtime") == 0)
		return MPI_Wtime();
	if (strcmp(clock_name, "tod") == 0) {
		struct timeval tv;
		gettimeofday(&tv, NULL);
		return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
	}
	struct timespec ts;
	clock_gettime(strcmp(clock_name, "realtime") == 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc != 2) {
		if (rank == 0)
			fprintf(stderr, "usage: spin wtime|monotonic|realtime|tod\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	clock_name = argv[1];
	double a = now(), b;
	do
		b = now();
	while (b == a);
	double changed = b - a;
	a = now();
	while (now() - a < 0.01)
		;
	double waited = now() - a;
	int monotonic = 1;
	double prev = now();
	for (int i = 0; i < 1000; i++) {
		double t = now();
		monotonic &= t > prev;
		prev = t;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	printf("spin clock=%s rank=%d changed=%.9f waited=%.9f monotonic=%d\n", clock_name, rank,
	       changed, waited, monotonic);
	MPI_Finalize();
	return 0;
}
