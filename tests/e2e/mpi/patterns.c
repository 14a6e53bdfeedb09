/*
 * patterns.c -- the MPI patterns BLACS uses, for the runtime test: run it
 * with and without LD_PRELOAD=libhetlaunch-rt.so and compare the outputs byte for
 * byte (tests/e2e/runtime_test.sh).  Each rank writes OUTDIR/rank-K.txt.  Every result is printed as hex doubles so
 * that "the same" means bit-identical.
 *
 * Covers: Send/Recv with a vector and an indexed type, Rsend against a
 * posted receive, Sendrecv in a ring, MPI_ANY_SOURCE/ANY_TAG, Isend/Irecv
 * with Waitall and Testall, Bcast of a struct type from every root, Reduce
 * with MPI_SUM and a non-commutative user operation, Allreduce (also
 * MPI_IN_PLACE), Barrier, Comm_split + collectives on the halves.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int rank, size;
static FILE *out;    /* DIR/rank-K.txt: ranks never share a stream */

static void show(const char *what, const double *x, int n)
{
	fprintf(out, "%d %s", rank, what);
	for (int i = 0; i < n; i++)
		fprintf(out, " %a", x[i]);
	fprintf(out, "\n");
}

/* 2x2 matrix product, row-major: not commutative, associative. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	double *a = in, *b = inout;
	for (int k = 0; k < *len; k++, a += 4, b += 4) {
		double c[4] = { a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
		                a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3] };
		memcpy(b, c, sizeof c);
	}
}

static void p2p(void)
{
	double a[16], b[16];
	for (int i = 0; i < 16; i++)
		a[i] = rank * 100 + i + 0.125;
	/* a column of a 4x4 column-major matrix: vector type */
	MPI_Datatype row, idx;
	MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &row);
	MPI_Type_commit(&row);
	int bl[3] = { 1, 2, 3 }, disp[3] = { 0, 5, 10 };
	MPI_Type_indexed(3, bl, disp, MPI_DOUBLE, &idx);
	MPI_Type_commit(&idx);
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;

	memset(b, 0, sizeof b);
	if (rank % 2 == 0 && next != rank) {
		MPI_Send(a + 1, 1, row, next, 7, MPI_COMM_WORLD);
		MPI_Recv(b, 1, idx, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (next != rank) {
		MPI_Recv(b + 2, 1, row, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(a, 1, idx, next, 8, MPI_COMM_WORLD);
	}
	show("send-recv-types", b, 16);

	/* Rsend needs the receive posted: post, barrier, then send. */
	MPI_Request r;
	memset(b, 0, sizeof b);
	MPI_Irecv(b, 16, MPI_DOUBLE, prev, 9, MPI_COMM_WORLD, &r);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Rsend(a, 16, MPI_DOUBLE, next, 9, MPI_COMM_WORLD);
	MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);
	show("rsend", b, 16);

	memset(b, 0, sizeof b);
	MPI_Sendrecv(a, 1, row, next, 10, b, 1, row, prev, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	show("sendrecv", b, 16);

	/* wildcards: rank 0 collects from everyone in whatever order, then
	 * prints in source order */
	if (rank == 0) {
		double got[64] = { 0 };
		for (int k = 1; k < size; k++) {
			MPI_Status st;
			double v[2];
			MPI_Recv(v, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			got[2 * st.MPI_SOURCE] = v[0];
			got[2 * st.MPI_SOURCE + 1] = v[1] + st.MPI_TAG;
		}
		show("any-source", got, 2 * size);
	} else {
		MPI_Send(a, 2, MPI_DOUBLE, 0, 20 + rank, MPI_COMM_WORLD);
	}
	/* the next messages to rank 0 must not meet its wildcard receives */
	MPI_Barrier(MPI_COMM_WORLD);

	/* Isend/Irecv, completed by Testall polling then Waitall */
	MPI_Request rq[2];
	memset(b, 0, sizeof b);
	MPI_Irecv(b, 8, MPI_DOUBLE, prev, 11, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(a + 8, 8, MPI_DOUBLE, next, 11, MPI_COMM_WORLD, &rq[1]);
	int flag = 0;
	MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
	if (!flag)
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	show("isend-irecv", b, 8);
	MPI_Type_free(&row);
	MPI_Type_free(&idx);
}

static void collectives(MPI_Comm comm, const char *tag)
{
	int r, n;
	MPI_Comm_rank(comm, &r);
	MPI_Comm_size(comm, &n);
	char what[64];

	/* a struct type: an int and two doubles */
	struct item { int i; double d[2]; } s[2];
	int bl[2] = { 1, 2 };
	MPI_Aint disp[2] = { offsetof(struct item, i), offsetof(struct item, d) };
	MPI_Datatype ty[2] = { MPI_INT, MPI_DOUBLE }, st;
	MPI_Type_create_struct(2, bl, disp, ty, &st);
	MPI_Type_commit(&st);
	for (int root = 0; root < n; root++) {
		memset(s, 0, sizeof s);
		if (r == root)
			for (int k = 0; k < 2; k++) {
				s[k].i = root * 10 + k;
				s[k].d[0] = root / 3.0;
				s[k].d[1] = -k / 7.0;
			}
		MPI_Bcast(s, 2, st, root, comm);
		double v[6] = { s[0].i, s[0].d[0], s[0].d[1], s[1].i, s[1].d[0], s[1].d[1] };
		snprintf(what, sizeof what, "%s-bcast-root%d", tag, root);
		show(what, v, 6);
	}
	MPI_Type_free(&st);

	double x[5], y[5];
	for (int i = 0; i < 5; i++)
		x[i] = 1.0 / (r + i + 1);
	for (int root = 0; root < n; root++) {
		memset(y, 0, sizeof y);
		MPI_Reduce(x, y, 5, MPI_DOUBLE, MPI_SUM, root, comm);
		snprintf(what, sizeof what, "%s-reduce-sum-root%d", tag, root);
		if (r == root)
			show(what, y, 5);
	}
	MPI_Op op;
	MPI_Datatype mat;    /* one 2x2 matrix */
	MPI_Type_contiguous(4, MPI_DOUBLE, &mat);
	MPI_Type_commit(&mat);
	MPI_Op_create(matmul, 0, &op);
	double m[4] = { 1.0 + r, 0.5, -0.25 * r, 1.0 }, prod[4] = { 0 };
	MPI_Reduce(m, prod, 1, mat, op, n - 1, comm);
	MPI_Type_free(&mat);
	snprintf(what, sizeof what, "%s-reduce-matmul", tag);
	if (r == n - 1)
		show(what, prod, 4);
	MPI_Op_free(&op);

	MPI_Allreduce(x, y, 5, MPI_DOUBLE, MPI_MAX, comm);
	snprintf(what, sizeof what, "%s-allreduce-max", tag);
	show(what, y, 5);
	memcpy(y, x, sizeof y);
	MPI_Allreduce(MPI_IN_PLACE, y, 5, MPI_DOUBLE, MPI_SUM, comm);
	snprintf(what, sizeof what, "%s-allreduce-inplace", tag);
	show(what, y, 5);
	MPI_Barrier(comm);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2 || size % 2 != 0) {
		if (rank == 0)
			fprintf(stderr, "usage: mpiexec -n EVEN patterns OUTDIR\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/rank-%d.txt", argv[1], rank);
	out = fopen(path, "w");
	if (out == NULL) {
		perror(path);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	p2p();
	collectives(MPI_COMM_WORLD, "world");
	MPI_Comm half;
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
	collectives(half, rank % 2 ? "odd" : "even");
	MPI_Comm_free(&half);
	if (fclose(out) != 0)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Finalize();
	return 0;
}
