/*
 * coll.c -- Bcast, Reduce, Allreduce and Barrier over point-to-point.
 *
 * Why not PMPI_Bcast and friends: they spin (ch4:ucx), and their internal
 * traffic is invisible to PMPI, so the emulated network could not charge
 * it.  Ours are binomial trees on the communicator's shadow (comm.c):
 * every message goes through vr_isend (the emulated port) and every wait
 * through the cooperative loop.  A reduction with a non-commutative
 * operation is combined at the root in rank order, as MPI requires.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

enum { TAG_BCAST = 1, TAG_REDUCE = 2, TAG_BARRIER = 3 };

static int recv_wait(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm c)
{
	MPI_Request r;
	MPI_Status st;
	int rc = PMPI_Irecv(buf, count, type, src, tag, c, &r);
	if (rc == MPI_SUCCESS)
		rc = vr_wait_peer(&r, &st, c, src);
	if (rc == MPI_SUCCESS)
		vr_wake(c, src);   /* a sender of a large message waits for us */
	if (rc == MPI_SUCCESS)
		vr_recv_delay(c, &st);   /* the virtual clock's stamp */
	return rc;
}

static int send_wait(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm c)
{
	MPI_Request r;
	int rc = vr_isend(buf, count, type, dst, tag, c, &r);
	return rc == MPI_SUCCESS ? vr_wait_peer(&r, MPI_STATUS_IGNORE, c, dst) : rc;
}

/* Binomial broadcast (each rank receives once from its parent, then sends
 * to its children, the farthest first). */
static int bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm c, int tag)
{
	int rank, size, rc = MPI_SUCCESS;
	PMPI_Comm_rank(c, &rank);
	PMPI_Comm_size(c, &size);
	int vr = (rank - root + size) % size;
	int mask = 1;
	while (mask < size) {
		if (vr & mask) {
			rc = recv_wait(buf, count, type, (rank - mask + size) % size, tag, c);
			break;
		}
		mask <<= 1;
	}
	mask >>= 1;
	MPI_Request reqs[32];
	int n = 0;
	for (; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
		if (vr + mask < size)
			rc = vr_isend(buf, count, type, (rank + mask) % size, tag, c, &reqs[n++]);
	if (n > 0) {
		int rc2 = vr_waitall(n, reqs, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = rc2;
	}
	return rc;
}

/* A buffer for count elements of type, and the pointer MPI wants (the
 * type's true lower bound may be nonzero). */
static void *tmp_buffer(int count, MPI_Datatype type, void **base)
{
	MPI_Aint lb, extent, tlb, textent;
	PMPI_Type_get_extent(type, &lb, &extent);
	PMPI_Type_get_true_extent(type, &tlb, &textent);
	size_t bytes = (size_t)textent + (count > 0 ? (size_t)(count - 1) * (size_t)extent : 0);
	*base = malloc(bytes ? bytes : 1);
	return *base ? (char *)*base - tlb : NULL;
}

static int copy(const void *src, void *dst, int count, MPI_Datatype type)
{
	return PMPI_Sendrecv(src, count, type, 0, 0, dst, count, type, 0, 0, MPI_COMM_SELF,
	                     MPI_STATUS_IGNORE);
}

static int reduce_commutative(const void *send, void *acc, int count, MPI_Datatype type,
                              MPI_Op op, int root, MPI_Comm c)
{
	int rank, size, rc = MPI_SUCCESS;
	PMPI_Comm_rank(c, &rank);
	PMPI_Comm_size(c, &size);
	if (send != acc && (rc = copy(send, acc, count, type)) != MPI_SUCCESS)
		return rc;
	void *base;
	void *in = tmp_buffer(count, type, &base);
	if (in == NULL)
		return MPI_ERR_NO_MEM;
	int vr = (rank - root + size) % size;
	for (int mask = 1; mask < size && rc == MPI_SUCCESS; mask <<= 1) {
		if (vr & mask) {
			rc = send_wait(acc, count, type, (vr - mask + root) % size, TAG_REDUCE, c);
			break;
		}
		if (vr + mask < size) {
			rc = recv_wait(in, count, type, (vr + mask + root) % size, TAG_REDUCE, c);
			if (rc == MPI_SUCCESS)
				rc = PMPI_Reduce_local(in, acc, count, type, op);
		}
	}
	free(base);
	return rc;
}

/* x_0 op x_1 op ... op x_{size-1}, in that order, at the root. */
static int reduce_ordered(const void *send, void *recv, int count, MPI_Datatype type,
                          MPI_Op op, int root, MPI_Comm c)
{
	int rank, size, rc = MPI_SUCCESS;
	PMPI_Comm_rank(c, &rank);
	PMPI_Comm_size(c, &size);
	if (rank != root)
		return send_wait(send, count, type, root, TAG_REDUCE, c);
	void *base, *ibase;
	void *acc = tmp_buffer(count, type, &base);
	void *in = tmp_buffer(count, type, &ibase);
	if (acc == NULL || in == NULL) {
		free(base);
		free(ibase);
		return MPI_ERR_NO_MEM;
	}
	/* Reduce_local(in, inout) computes inout = in op inout: go backwards. */
	for (int i = size - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
		void *dst = i == size - 1 ? acc : in;
		if (i == rank)
			rc = copy(send, dst, count, type);
		else
			rc = recv_wait(dst, count, type, i, TAG_REDUCE, c);
		if (rc == MPI_SUCCESS && i != size - 1)
			rc = PMPI_Reduce_local(in, acc, count, type, op);
	}
	if (rc == MPI_SUCCESS)
		rc = copy(acc, recv, count, type);
	free(base);
	free(ibase);
	return rc;
}

static int reduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm c)
{
	int rank, commute = 1;
	PMPI_Comm_rank(c, &rank);
	PMPI_Op_commutative(op, &commute);
	if (send == MPI_IN_PLACE)
		send = recv;    /* only the root may pass MPI_IN_PLACE */
	if (!commute)
		return reduce_ordered(send, recv, count, type, op, root, c);
	if (rank == root)
		return reduce_commutative(send, recv, count, type, op, root, c);
	void *base;
	void *acc = tmp_buffer(count, type, &base);
	if (acc == NULL)
		return MPI_ERR_NO_MEM;
	int rc = reduce_commutative(send, acc, count, type, op, root, c);
	free(base);
	return rc;
}

int vr_barrier(MPI_Comm comm)
{
	MPI_Comm c = vr_shadow(comm);
	if (c == MPI_COMM_NULL)
		return PMPI_Barrier(comm);
	int rank, size, rc = MPI_SUCCESS;
	PMPI_Comm_rank(c, &rank);
	PMPI_Comm_size(c, &size);
	/* fan in to 0, then fan out: empty messages */
	for (int mask = 1; mask < size && rc == MPI_SUCCESS; mask <<= 1) {
		if (rank & mask) {
			rc = send_wait(NULL, 0, MPI_BYTE, rank - mask, TAG_BARRIER, c);
			break;
		}
		if (rank + mask < size)
			rc = recv_wait(NULL, 0, MPI_BYTE, rank + mask, TAG_BARRIER, c);
	}
	if (rc == MPI_SUCCESS)
		rc = bcast(NULL, 0, MPI_BYTE, 0, c, TAG_BARRIER);
	return rc;
}

/* ---- the interposed collectives ------------------------------------------ */

int MPI_Barrier(MPI_Comm comm)
{
	vr_enter();
	int rc = vr_barrier(comm);
	vr_exit();
	return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	vr_enter();
	MPI_Comm c = vr_shadow(comm);
	int rc = c == MPI_COMM_NULL ? PMPI_Bcast(buf, count, type, root, comm)
	                            : bcast(buf, count, type, root, c, TAG_BCAST);
	vr_exit();
	return rc;
}

int MPI_Reduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm)
{
	vr_enter();
	MPI_Comm c = vr_shadow(comm);
	int rc = c == MPI_COMM_NULL ? PMPI_Reduce(send, recv, count, type, op, root, comm)
	                            : reduce(send, recv, count, type, op, root, c);
	vr_exit();
	return rc;
}

int MPI_Allreduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
	vr_enter();
	MPI_Comm c = vr_shadow(comm);
	int rc;
	if (c == MPI_COMM_NULL) {
		rc = PMPI_Allreduce(send, recv, count, type, op, comm);
	} else {
		int rank;
		PMPI_Comm_rank(c, &rank);
		/* MPI_IN_PLACE here means "in recv" on every rank; Reduce allows
		 * it at the root only. */
		const void *s = send;
		if (send == MPI_IN_PLACE && rank != 0)
			s = recv;
		rc = reduce(s, recv, count, type, op, 0, c);
		if (rc == MPI_SUCCESS)
			rc = bcast(recv, count, type, 0, c, TAG_BCAST);
	}
	vr_exit();
	return rc;
}
