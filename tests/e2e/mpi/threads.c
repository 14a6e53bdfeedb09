/*
 * threads.c -- a ring of ranks exchanging with MPI_Irecv, MPI_Isend and
 * MPI_Waitall, from one thread or two (tests/e2e/trace_test.sh; built for
 * MPICH and for Open MPI).  It prints no result line, so hetlaunch times
 * it from the runtime's account (report.json's ranks[], trace.json).
 *
 *   ring ITERS N            one thread: ITERS times a DGEMM of order N (0:
 *                           none), then an 8-byte exchange with both
 *                           neighbours
 *   threads ITERS           MPI_Init_thread(MPI_THREAD_MULTIPLE); if it is
 *                           provided, two threads each do ITERS exchanges
 *                           (tags of their own), else the main thread does
 *                           both threads' exchanges itself
 *   threads-force ITERS     two threads whatever is provided (a program
 *                           that ignores *provided)
 *   no-finalize ITERS N     ring, then exit without MPI_Finalize (after a
 *                           barrier, lingering 2 s in an exit handler: see
 *                           linger())
 *
 * Every rank prints "threads rank=R provided=P threads=T sum=S": S is the
 * sum of the ranks it received from, ITERS (pred + succ) per tag used.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);

static int rank, size, iters, order;
static double *a, *b, *c;

/* ITERS exchanges with both neighbours on tag `tag`: the sum received. */
/* Hydra ends the job when the first rank exits without MPI_Finalize,
 * killing the others, and the runtime writes a rank's timeline in its own
 * exit handler.  This one, registered before MPI_Init, runs after the
 * runtime's: every rank has written before any process ends (trace_test's
 * three timelines of three unfinalized ranks; under load one was killed
 * before it got there). */
static void linger(void)
{
	sleep(2);
}

static long exchange(int tag)
{
	long sum = 0;
	int pred = (rank + size - 1) % size, succ = (rank + 1) % size;
	const double one = 1.0, zero = 0.0;
	for (int k = 0; k < iters; k++) {
		long in[2] = { 0, 0 }, out = rank;
		MPI_Request r[4];
		if (order > 0)
			dgemm_("N", "N", &order, &order, &order, &one, a, &order, b, &order, &zero, c, &order);
		MPI_Irecv(&in[0], 1, MPI_LONG, pred, tag, MPI_COMM_WORLD, &r[0]);
		MPI_Irecv(&in[1], 1, MPI_LONG, succ, tag, MPI_COMM_WORLD, &r[1]);
		MPI_Isend(&out, 1, MPI_LONG, succ, tag, MPI_COMM_WORLD, &r[2]);
		MPI_Isend(&out, 1, MPI_LONG, pred, tag, MPI_COMM_WORLD, &r[3]);
		MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
		sum += in[0] + in[1];
	}
	return sum;
}

static void *thread_main(void *arg)
{
	long *sum = arg;
	*sum = exchange(20);
	return NULL;
}

/* The exchanges of two threads' tags: by two threads, or one after the other. */
static long two_tags(int threads)
{
	long s1 = 0, s2;
	pthread_t t;
	if (threads && pthread_create(&t, NULL, thread_main, &s1) != 0)
		MPI_Abort(MPI_COMM_WORLD, 1);
	s2 = exchange(10);
	if (threads)
		pthread_join(t, NULL);
	else
		s1 = exchange(20);
	return s1 + s2;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int provided = MPI_THREAD_SINGLE, finalize = strcmp(mode, "no-finalize") != 0;
	int ring = strcmp(mode, "ring") == 0 || !finalize;
	if (!finalize)
		atexit(linger);
	if (ring)
		MPI_Init(&argc, &argv);
	else
		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	iters = argc > 2 ? atoi(argv[2]) : 0;
	order = ring && argc > 3 ? atoi(argv[3]) : 0;
	if (iters <= 0 || order < 0 || (!ring && strncmp(mode, "threads", 7) != 0))
		MPI_Abort(MPI_COMM_WORLD, 2);
	size_t nn = (size_t)order * (size_t)order + 1;
	a = calloc(nn, sizeof *a), b = calloc(nn, sizeof *b), c = calloc(nn, sizeof *c);
	if (!a || !b || !c)
		MPI_Abort(MPI_COMM_WORLD, 1);
	int threads = strcmp(mode, "threads-force") == 0 ||
	              (strcmp(mode, "threads") == 0 && provided == MPI_THREAD_MULTIPLE);
	long sum = ring ? exchange(10) : two_tags(threads);
	printf("threads rank=%d provided=%d threads=%d sum=%ld\n", rank, provided, 1 + threads, sum);
	free(a);
	free(b);
	free(c);
	fflush(stdout);
	if (finalize)
		MPI_Finalize();
	else
		MPI_Barrier(MPI_COMM_WORLD);
	return 0;
}
