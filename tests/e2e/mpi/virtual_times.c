/*
 * vclock.c -- programs whose times under emulate: {clock: virtual} are
 * known in closed form (tests/e2e/vclock_test.sh).  Every rank
 * prints "vclock mode=M rank=R time=SECONDS" (MPI_Wtime, and clock_gettime
 * beside it: both are the virtual clock).
 *
 *   pingpong BYTES REPS     ranks 2i and 2i+1 send BYTES back and forth
 *                           REPS times: 2 REPS (BYTES / bandwidth + latency)
 *                           for one pair
 *   ring BYTES ITERS N      each iteration every rank does a DGEMM of
 *                           order N, then sends BYTES to its successor and
 *                           receives from its predecessor (Sendrecv): the
 *                           slowest machine s sets the pace, ITERS (2N^3 /
 *                           speed_s + BYTES / bandwidth)
 *   share ITERS N           ITERS DGEMMs of order N, then a barrier: k
 *                           ranks on one machine take k times as long
 *   bcast BYTES REPS        REPS broadcasts of BYTES from rank 0 on
 *                           MPI_COMM_WORLD: BYTES cross the network once
 *                           per other machine (the runtime's two-level
 *                           trees, coll.c), REPS BYTES / bandwidth + latency
 *                           on a bus with two machines
 *   allreduce BYTES REPS    REPS sums of BYTES / 8 doubles: once to rank 0's
 *                           machine and once back, REPS 2 (BYTES /
 *                           bandwidth + latency) on a bus with two machines
 *   wildcard N              3 ranks: rank 1 does a DGEMM of order N and
 *                           sends to rank 0 at once; rank 2 does one of
 *                           order N / 4, sleeps 300 ms of real time and
 *                           sends: rank 0 receives both from
 *                           MPI_ANY_SOURCE and prints the order
 *                           ("vclock-wildcard first=2 second=1" in virtual
 *                           order, 1 then 2 in real order)
 *   iprobe N                2 ranks on one machine: rank 0 does two
 *                           DGEMMs of order N and sends; rank 1 spins on
 *                           MPI_Iprobe, then receives: 4N^3 / speed
 *   folded BYTES OFFSET     2 ranks: rank 0 writes a pattern at OFFSET in
 *                           a block it mallocs (folded under compute:
 *                           skip when large) and sends those BYTES; rank 1
 *                           receives them into calloc'd memory (never
 *                           folded) and prints "vclock-folded same=1" if
 *                           they are the pattern (0 if not)
 *   flood K                 2 ranks: rank 0 sends K ints, tags 1 .. K, to
 *                           rank 1, which receives them from
 *                           MPI_ANY_SOURCE in the reverse order (tag K
 *                           first): more messages pending for one rank
 *                           than its list in the segment holds; rank 1
 *                           takes K (4 bytes / bandwidth) + latency, and
 *                           prints "vclock-flood ok=1" if every value
 *                           is its tag
 *   deadlock                2 ranks, each receives from the other first:
 *                           they wait for ever (the stall watchdog's test)
 *   token HOPS              a 4-byte token around the ranks, rank 0 to 1
 *                           to 2 ..., HOPS hops in all: on one machine
 *                           each arrives 1 ns (the tick) after its send,
 *                           so under cpu_time: false the last receiver's
 *                           time is HOPS ns; its wall time shows what a
 *                           wake-up costs (a receiver that went back to
 *                           sleep after its wake took 1 ms a hop)
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);

static int rank, size;

static void gemm(int n, double *a, double *b, double *c)
{
	const double one = 1.0, zero = 0.0;
	dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n);
}

static void pingpong(char *sbuf, char *rbuf, int bytes, int peer)
{
	if (rank % 2 == 0) {
		MPI_Send(sbuf, bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
		MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(rbuf, bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(sbuf, bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
	}
}

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 7 + 3);
}

static int folded(size_t bytes, size_t offset)
{
	unsigned char *p = rank == 0 ? malloc(bytes + offset) : calloc(bytes, 1);
	if (p == NULL)
		return 1;
	if (rank == 0) {
		for (size_t i = 0; i < bytes; i++)
			p[offset + i] = pattern(i);
		MPI_Send(p + offset, (int)bytes, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
	} else {
		MPI_Recv(p, (int)bytes, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		size_t i = 0;
		while (i < bytes && p[i] == pattern(i))
			i++;
		printf("vclock-folded same=%d\n", i == bytes);
	}
	return 0;
}

/* Hop h goes from rank h % size to the next; each rank receives the hop
 * before each of its own, and the rank after the last hop's sender takes
 * that one. */
static void token(int hops)
{
	int v = 0, next = (rank + 1) % size, prev = (rank + size - 1) % size;
	for (int h = rank; h < hops; h += size) {
		if (h > 0)
			MPI_Recv(&v, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		v++;
		MPI_Send(&v, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
	}
	if (hops > 0 && rank == hops % size) {
		MPI_Recv(&v, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("vclock-token hops=%d\n", v);
	}
}

static void flood(int k)
{
	int ok = 1;
	for (int t = 1; t <= k; t++) {
		int v = t;
		if (rank == 0)
			MPI_Send(&v, 1, MPI_INT, 1, t, MPI_COMM_WORLD);
		else
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, k + 1 - t, MPI_COMM_WORLD,
			         MPI_STATUS_IGNORE), ok &= v == k + 1 - t;
	}
	if (rank == 1)
		printf("vclock-flood ok=%d\n", ok);
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2) {
		if (rank == 0)
			fprintf(stderr, "usage: vclock pingpong BYTES REPS | ring BYTES ITERS N | share ITERS N"
			                " | bcast BYTES REPS | allreduce BYTES REPS | wildcard N | iprobe N | flood K | deadlock"
			                " | token HOPS\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	const char *mode = argv[1];
	int bytes = 0, iters = 0, n = 0, hops = 0;
	if (strcmp(mode, "folded") == 0 && argc == 4 && size == 2) {
		int rc = folded((size_t)atol(argv[2]), (size_t)atol(argv[3]));
		MPI_Finalize();
		return rc;
	}
	if ((strcmp(mode, "pingpong") == 0 || strcmp(mode, "bcast") == 0 ||
	     strcmp(mode, "allreduce") == 0) && argc == 4) {
		bytes = atoi(argv[2]);
		iters = atoi(argv[3]);
	} else if (strcmp(mode, "ring") == 0 && argc == 5) {
		bytes = atoi(argv[2]);
		iters = atoi(argv[3]);
		n = atoi(argv[4]);
	} else if (strcmp(mode, "wildcard") == 0 && argc == 3 && size == 3) {
		n = atoi(argv[2]);
	} else if ((strcmp(mode, "iprobe") == 0 || strcmp(mode, "flood") == 0) && argc == 3 &&
	           size == 2) {
		n = atoi(argv[2]);
	} else if (strcmp(mode, "deadlock") == 0 && size == 2) {
		int v = rank;
		MPI_Recv(&v, 1, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD);
	} else if (strcmp(mode, "token") == 0 && argc == 3 && size >= 2) {
		hops = atoi(argv[2]);
	} else if (strcmp(mode, "share") == 0 && argc == 4) {
		iters = atoi(argv[2]);
		n = atoi(argv[3]);
	} else {
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	char *sbuf = calloc((size_t)bytes + 1, 1), *rbuf = calloc((size_t)bytes + 1, 1);
	size_t nn = (size_t)n * (size_t)n + 1;
	double *a = calloc(nn, sizeof *a), *b = calloc(nn, sizeof *b), *c = calloc(nn, sizeof *c);
	if (!sbuf || !rbuf || !a || !b || !c)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (size_t i = 0; i < nn; i++)
		a[i] = b[i] = 1.0 / (double)(i + 1);
	/* one untimed round first: the first calls resolve their symbols,
	 * CPU time the emulation charges like any other */
	/* Clocks start together: a rank's own start-up (its CPU time before
	 * this point) is booked on its machine in real order, and siblings
	 * would otherwise start the timed part at different virtual times. */
	MPI_Barrier(MPI_COMM_WORLD);
	int peer = rank ^ 1;
	int pairs = mode[0] == 'p' && peer < size;
	if (pairs)
		pingpong(sbuf, rbuf, 0, peer);
	if (n > 0)
		gemm(n < 8 ? n : 8, a, b, c);
	(void)mono();
	double t0 = MPI_Wtime(), m0 = mono();
	if (mode[0] == 'w') {
		int src[2] = { -1, -1 }, v = rank;
		if (rank == 0) {
			for (int k = 0; k < 2; k++) {
				MPI_Status st;
				MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
				src[k] = st.MPI_SOURCE == v ? v : -1;
			}
			printf("vclock-wildcard first=%d second=%d\n", src[0], src[1]);
		} else {
			gemm(rank == 1 ? n : n / 4, a, b, c);
			if (rank == 2) {
				struct timespec ts = { 0, 300000000L };
				nanosleep(&ts, NULL);   /* real time only: not charged */
			}
			MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
		}
	}
	if (mode[0] == 'i') {
		int v = rank, flag = 0;
		if (rank == 0) {
			gemm(n, a, b, c);
			(void)MPI_Wtime();   /* books it: the next booking is after rank 1's clock */
			gemm(n, a, b, c);
			MPI_Send(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
		} else {
			while (!flag)
				MPI_Iprobe(0, 6, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
			MPI_Recv(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
	if (mode[0] == 'f')
		flood(n);
	if (mode[0] == 't')
		token(hops);
	for (int k = 0; k < iters; k++) {
		if (pairs)
			pingpong(sbuf, rbuf, bytes, peer);
		else if (mode[0] == 'r') {
			gemm(n, a, b, c);
			MPI_Sendrecv(sbuf, bytes, MPI_BYTE, (rank + 1) % size, 3, rbuf, bytes, MPI_BYTE,
			             (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (mode[0] == 's') {
			gemm(n, a, b, c);
		} else if (mode[0] == 'b') {
			MPI_Bcast(sbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
		} else if (mode[0] == 'a') {
			MPI_Allreduce(MPI_IN_PLACE, sbuf, bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		}
	}
	if (mode[0] == 's')
		MPI_Barrier(MPI_COMM_WORLD);
	double t1 = MPI_Wtime(), m1 = mono();
	printf("vclock mode=%s rank=%d time=%.9f monotonic=%.9f start=%.9f end=%.9f\n", mode,
	       rank, t1 - t0, m1 - m0, t0, t1);
	free(sbuf);
	free(rbuf);
	free(a);
	free(b);
	free(c);
	MPI_Finalize();
	return 0;
}
