/*
 * coll.c -- Bcast, Reduce, Allreduce, Barrier and Alltoall over
 * point-to-point.
 *
 * Why not PMPI_Bcast and friends: they spin (ch4:ucx), and their internal
 * traffic is invisible to PMPI, so the emulated network could not charge
 * it.  Ours are binomial trees, across machines then inside each (below),
 * on the communicator's shadow (comm.c):
 * every message goes through vr_isend (the emulated port) and every wait
 * through the cooperative loop.  A reduction with a non-commutative
 * operation is combined at the root in rank order, as MPI requires.
 */
#include <stdlib.h>
#include <string.h>

#include "bindings.h"

enum { TAG_BCAST = 1, TAG_REDUCE = 2, TAG_BARRIER = 3, TAG_ALLTOALL = 4 };

static int recv_wait(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm c)
{
	MPI_Request r;
	MPI_Status st;
	int rc = PMPI_Irecv(buf, count, type, src, tag, c, &r);
	if (rc == MPI_SUCCESS)
		vr_wait_expect(c, src, tag), rc = vr_wait_recv(&r, &st, c, src);
	if (rc == MPI_SUCCESS)
		vr_kick_matched(c, src);   /* a sender of a large message waits for us */
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

/*
 * The tree of a collective, in two levels, as MPICH builds its own on a
 * cluster (its "SMP-aware" Bcast, Reduce, Allreduce and Barrier, on by
 * default when a communicator has several processes on some node): a
 * binomial tree over one leader per machine (the root leads its own), then
 * a binomial tree inside each machine.  A collective then crosses the
 * network once per other machine, as it would between the real machines;
 * a tree over the ranks alone sent 5 of the 5 messages of a 6-process
 * column broadcast across machines on Table 3's 6 x 3 panel (row pattern
 * 0 1 2 0 1 0) where 2 suffice, and made the 2D plan slower than cyclic on
 * the emulated bus (README, "The virtual clock").  Without a segment the
 * machines are unknown and every rank is its own: the plain binomial tree.
 * Both lists are in cyclic order from the root, so every member computes
 * the same tree.
 */
typedef struct {
	int *lead, nlead, ilead;     /* leaders, root first; my index, or -1 */
	int *group, ngroup, igroup;  /* my machine's members, its leader first */
	int *mem;
} tree2;

static int tree_make(tree2 *t, MPI_Comm c, int root)
{
	int rank, size;
	PMPI_Comm_rank(c, &rank);
	PMPI_Comm_size(c, &size);
	t->mem = malloc(3 * (size_t)size * sizeof *t->mem);
	if (t->mem == NULL)
		return MPI_ERR_NO_MEM;
	int *mach = t->mem;
	t->lead = mach + size;
	t->group = t->lead + size;
	int known = 1;
	for (int r = 0; r < size; r++)
		if ((mach[r] = vr_machine_of(vr_world_rank(c, r))) < 0)
			known = 0;
	for (int r = 0; !known && r < size; r++)
		mach[r] = r;
	t->nlead = t->ngroup = 0;
	t->ilead = t->igroup = -1;
	for (int k = 0; k < size; k++) {
		int r = (root + k) % size, first = 1;
		for (int j = 0; j < t->nlead && first; j++)
			first = mach[t->lead[j]] != mach[r];
		if (first) {
			if (r == rank)
				t->ilead = t->nlead;
			t->lead[t->nlead++] = r;
		}
		if (mach[r] == mach[rank]) {
			if (r == rank)
				t->igroup = t->ngroup;
			t->group[t->ngroup++] = r;
		}
	}
	return MPI_SUCCESS;
}

/* Binomial broadcast over list[0..n) from list[0]; I am list[me] (each
 * member receives once from its parent, then sends to its children, the
 * farthest first). */
static int bcast_list(void *buf, int count, MPI_Datatype type, const int *list, int n, int me,
                      MPI_Comm c, int tag)
{
	int rc = MPI_SUCCESS, mask = 1;
	while (mask < n) {
		if (me & mask) {
			rc = recv_wait(buf, count, type, list[me - mask], tag, c);
			break;
		}
		mask <<= 1;
	}
	mask >>= 1;
	MPI_Request reqs[32];
	int k = 0;
	for (; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
		if (me + mask < n)
			rc = vr_isend(buf, count, type, list[me + mask], tag, c, &reqs[k++]);
	if (k > 0) {
		int rc2 = vr_waitall(k, reqs, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = rc2;
	}
	return rc;
}

static int bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm c, int tag)
{
	tree2 t;
	int rc = tree_make(&t, c, root);
	if (rc == MPI_SUCCESS && t.ilead >= 0)
		rc = bcast_list(buf, count, type, t.lead, t.nlead, t.ilead, c, tag);
	if (rc == MPI_SUCCESS)
		rc = bcast_list(buf, count, type, t.group, t.ngroup, t.igroup, c, tag);
	free(t.mem);
	return rc;
}

/* Binomial fan-in over list[0..n) to list[0], combining into acc (count 0:
 * empty messages, a barrier's).  *sent: I passed acc to my parent. */
static int fanin_list(void *acc, void *in, int count, MPI_Datatype type, MPI_Op op,
                      const int *list, int n, int me, MPI_Comm c, int tag, int *sent)
{
	int rc = MPI_SUCCESS;
	*sent = 0;
	for (int mask = 1; mask < n && rc == MPI_SUCCESS; mask <<= 1) {
		if (me & mask) {
			*sent = 1;
			return send_wait(acc, count, type, list[me - mask], tag, c);
		}
		if (me + mask < n) {
			rc = recv_wait(in, count, type, list[me + mask], tag, c);
			if (rc == MPI_SUCCESS && count > 0)
				rc = PMPI_Reduce_local(in, acc, count, type, op);
		}
	}
	return rc;
}

/* Inside my machine to its leader, then across the leaders to the root. */
static int fanin(void *acc, void *in, int count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm c, int tag)
{
	tree2 t;
	int sent = 0, rc = tree_make(&t, c, root);
	if (rc == MPI_SUCCESS)
		rc = fanin_list(acc, in, count, type, op, t.group, t.ngroup, t.igroup, c, tag, &sent);
	if (rc == MPI_SUCCESS && !sent && t.ilead >= 0)
		rc = fanin_list(acc, in, count, type, op, t.lead, t.nlead, t.ilead, c, tag, &sent);
	free(t.mem);
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
	int rc = MPI_SUCCESS;
	if (send != acc && (rc = copy(send, acc, count, type)) != MPI_SUCCESS)
		return rc;
	void *base;
	void *in = tmp_buffer(count, type, &base);
	if (in == NULL)
		return MPI_ERR_NO_MEM;
	rc = fanin(acc, in, count, type, op, root, c, TAG_REDUCE);
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
	/* fan in to 0, then fan out: empty messages */
	int rc = fanin(NULL, NULL, 0, MPI_BYTE, MPI_OP_NULL, 0, c, TAG_BARRIER);
	if (rc == MPI_SUCCESS)
		rc = bcast(NULL, 0, MPI_BYTE, 0, c, TAG_BARRIER);
	return rc;
}

/* Pairwise exchanges, round k with rank + k and rank - k (MPICH's
 * algorithm for long messages).  PMPI_Alltoall spun uninterposed: a rank
 * in it counted as computing, so the virtual clock's order never escaped
 * and a sibling booking its compute waited for it while it waited for
 * that sibling (hpcc's MPIFFT on 6 processes: 1 run in 5 hung). */
static int alltoall(const void *send, int scount, MPI_Datatype stype, void *recv, int rcount,
                    MPI_Datatype rtype, MPI_Comm c)
{
	int rank, size, rc = MPI_SUCCESS;
	MPI_Aint lb, sext, rext;
	PMPI_Comm_rank(c, &rank);
	PMPI_Comm_size(c, &size);
	PMPI_Type_get_extent(stype, &lb, &sext);
	PMPI_Type_get_extent(rtype, &lb, &rext);
	for (int k = 0; k < size && rc == MPI_SUCCESS; k++) {
		int dst = (rank + k) % size, src = (rank - k + size) % size;
		MPI_Status st;
		rc = vr_sendrecv((const char *)send + (MPI_Aint)dst * scount * sext, scount, stype,
		                 dst, TAG_ALLTOALL, (char *)recv + (MPI_Aint)src * rcount * rext,
		                 rcount, rtype, src, TAG_ALLTOALL, c, &st);
	}
	return rc;
}

/* ---- the interposed collectives ------------------------------------------ */

int MPI_Alltoall(const void *send, int scount, MPI_Datatype stype, void *recv, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm)
{
	vr_enter();
	MPI_Comm c = vr_shadow(comm);
	int rc = c == MPI_COMM_NULL || send == MPI_IN_PLACE
	         ? PMPI_Alltoall(send, scount, stype, recv, rcount, rtype, comm)
	         : alltoall(send, scount, stype, recv, rcount, rtype, c);
	vr_exit();
	return rc;
}

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
