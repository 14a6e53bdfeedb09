/*
 * p2p.c -- the interposed point-to-point calls (MPI_Init and
 * MPI_Finalize: init.c; MPI_Wtime: clock.c; the communicator constructors:
 * communicators.c).
 *
 * Every wrapper brackets its work with vr_enter()/vr_exit(): the CPU time
 * since the previous MPI call is one compute segment of the emulated
 * machine (emu.c).  Blocking calls become their nonblocking forms plus a
 * cooperative wait (wait.c).  Nonblocking calls (Isend, Irecv, Testall)
 * are interposed only to end the segment and, for sends, to charge the
 * emulated network.
 *
 * The list is what Debian's libscalapack-mpich and the stock testers
 * import (nm -D --undefined-only), plus the other blocking point-to-point
 * calls a user's own program (kernel: exec) is likely to make.
 */
#include <stdlib.h>

#include "bindings.h"

/* A blocking send of any mode: post it, wait with the receiver kicked. */
static int blocking_send(const char *call, vr_start_fn *start, const void *buf, int count,
                         MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	vr_enter_call(call);
	MPI_Request r;
	int rc = vr_post_send(start, buf, count, type, dest, tag, comm, &r);
	if (rc == MPI_SUCCESS)
		rc = vr_wait_peer(&r, MPI_STATUS_IGNORE, comm, dest);
	vr_exit();
	return rc;
}

/* ---- point to point ------------------------------------------------------ */

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	return blocking_send("MPI_Send", PMPI_Isend, buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	return blocking_send("MPI_Rsend", PMPI_Irsend, buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	return blocking_send("MPI_Ssend", PMPI_Issend, buf, count, type, dest, tag, comm);
}

/*
 * A wildcard receive under the virtual clock takes the message that
 * arrives first in virtual time (vorder.c), not the first in real time:
 * wait, blocked, until a matching message is pending for us and no other
 * rank can still send one that arrives earlier, then receive from its
 * sender.  The same source and tag on (comm, tag)'s stamp channel pair
 * with it by MPI's non-overtaking rule.  After the real-time escape, the
 * earliest pending one (or whatever MPI has) is taken, counted out of
 * order.  Sets *source and *tag to the chosen ones.
 */
static void wildcard_choose(MPI_Comm comm, int *source, int *tag)
{
	MPI_Comm sc;
	int stag, chan;
	if (!vr_virtual() || !vr_order_enabled() ||
	    vr_stamp_chan(comm, *tag == MPI_ANY_TAG ? 0 : *tag, &sc, &stag, &chan) < 0 || chan < 0)
		return;
	if (*tag == MPI_ANY_TAG)
		stag = -1;
	vr_wait_expect(comm, MPI_ANY_SOURCE, *tag);
	vr_wait_block();
	int nmembers = 0;
	const int *members = vr_comm_members(comm, &nmembers);
	unsigned iter = 0;
	unsigned long long t0 = 0;
	for (;;) {
		int w = -1, t = -1, safe = 0;
		int got = vr_order_pick(chan, stag, members, nmembers, &w, &t, &safe);
		int late = vr_order_escape_due(&t0);
		if (got == 1 && (safe || late)) {
			if (!safe)
				vr_order_escaped();
			int r = vr_comm_rank_of(comm, w);
			if (r >= 0) {
				*source = r;
				*tag = t;   /* a user communicator's stamps carry its tags */
			}
			break;
		}
		if (late) {
			int flag = 0;
			MPI_Status st;
			if (PMPI_Iprobe(MPI_ANY_SOURCE, *tag, comm, &flag, &st) == MPI_SUCCESS && flag) {
				vr_order_escaped();   /* MPI's choice, out of order */
				break;
			}
			t0 = 0;
		}
		vr_order_nap(&iter);
	}
	vr_wait_unblock();
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
	vr_enter();
	MPI_Request r;
	MPI_Status st;
	if (source == MPI_ANY_SOURCE)
		wildcard_choose(comm, &source, &tag);
	int rc = PMPI_Irecv(buf, count, type, source, tag, comm, &r);
	if (rc == MPI_SUCCESS)
		vr_wait_expect(comm, source, tag), rc = vr_wait_recv(&r, &st, comm, source);
	/* A sender may be waiting for this match (a large message): kick it. */
	if (rc == MPI_SUCCESS)
		vr_kick_matched(comm, st.MPI_SOURCE);
	if (rc == MPI_SUCCESS)
		vr_recv_delay(comm, &st);   /* network: links: the receiver's cost */
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	vr_exit();
	return rc;
}

int vr_sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                int recvtag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Request r[2];
	MPI_Status st[2];
	/* The receive first, so that two ranks exchanging never deadlock. */
	int rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &r[0]);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = vr_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &r[1]);
	if (rc != MPI_SUCCESS) {
		PMPI_Cancel(&r[0]);
		PMPI_Request_free(&r[0]);
		return rc;
	}
	vr_wait_expect(comm, source, recvtag);
	rc = vr_waitall(2, r, st);
	if (rc == MPI_SUCCESS)
		vr_kick_matched(comm, st[0].MPI_SOURCE);
	if (rc == MPI_SUCCESS)
		vr_recv_delay(comm, &st[0]);
	*status = st[0];
	return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status)
{
	vr_enter();
	MPI_Status st;
	int rc = vr_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
	                     recvtype, source, recvtag, comm,
	                     status != MPI_STATUS_IGNORE ? status : &st);
	vr_exit();
	return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
	vr_enter();
	int rc = vr_user_request(vr_isend(buf, count, type, dest, tag, comm, req), req);
	vr_exit();
	return rc;
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
	vr_enter();
	int rc = vr_user_request(vr_post_send(PMPI_Irsend, buf, count, type, dest, tag, comm, req), req);
	vr_exit();
	return rc;
}

/* A synchronous send keeps its semantics (never buffered), but its stamp
 * must leave: a receive takes one for every message (vclock.c). */
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
	vr_enter();
	int rc = vr_post_send(PMPI_Issend, buf, count, type, dest, tag, comm, req);
	vr_exit();
	return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
	vr_enter();
	int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
	if (rc == MPI_SUCCESS)
		vr_recv_posted(*req, comm, source, tag);
	vr_exit();
	return rc;
}

/* Before a Wait or Waitall: the user's receives among the requests, for
 * the virtual clock's ordering (vorder.c; sends need no message to end).
 * Before a Waitany on several (any): their receives, any of which ends
 * it; a send or an unknown request among them (it may end with no
 * message) names nothing, and the rank's bound stays its clock. */
static void expect_receives(int n, const MPI_Request *reqs, int any)
{
	if (!vr_virtual())
		return;
	for (int i = 0; i < n; i++) {
		MPI_Comm c;
		int source, tag;
		if (vr_recv_peek(reqs[i], &c, &source, &tag) == 0)
			vr_wait_expect(c, source, tag);
		else if (any && reqs[i] != MPI_REQUEST_NULL)
			vr_wait_expect_unknown();
	}
	if (any)
		vr_wait_expect_any();
}

/* The user's receives that complete in Wait/Waitall/Testall: wake their
 * senders, as MPI_Recv does.  The statuses are needed for that. */
static void completed(int n, const MPI_Request *before, MPI_Status *st)
{
	for (int i = 0; i < n; i++) {
		MPI_Comm c = vr_recv_done(before[i]);
		if (c != MPI_COMM_NULL) {
			vr_kick_matched(c, st[i].MPI_SOURCE);
			vr_recv_delay(c, &st[i]);   /* links, virtual clock */
		}
	}
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	vr_enter();
	MPI_Request before = *req;
	MPI_Status st;
	expect_receives(1, req, 0);
	int rc = vr_wait(req, &st);
	if (rc == MPI_SUCCESS)
		completed(1, &before, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	vr_exit();
	return rc;
}

enum { SMALL = 64 };

/* Waitall (flag NULL) and Testall: the requests are remembered before the
 * call and the statuses kept, so that completed receives wake their
 * senders; without the memory for that, the call just goes through. */
static int complete_all(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	MPI_Request b0[SMALL];
	MPI_Status s0[SMALL];
	MPI_Request *before = n <= SMALL ? b0 : malloc((size_t)n * sizeof *before);
	MPI_Status *st = statuses != MPI_STATUSES_IGNORE ? statuses
	                 : n <= SMALL ? s0 : malloc((size_t)n * sizeof *st);
	int done = 1, rc;
	if (before == NULL || st == NULL) {
		rc = flag ? PMPI_Testall(n, reqs, flag, statuses) : vr_waitall(n, reqs, statuses);
	} else {
		for (int i = 0; i < n; i++)
			before[i] = reqs[i];
		if (flag == NULL)
			expect_receives(n, reqs, 0);
		rc = flag ? PMPI_Testall(n, reqs, &done, st) : vr_waitall(n, reqs, st);
		if (flag)
			*flag = done;
		if (rc == MPI_SUCCESS && done)
			completed(n, before, st);
	}
	if (before != b0)
		free(before);
	if (st != statuses && st != s0)
		free(st);
	return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
	vr_enter();
	int rc = complete_all(n, reqs, NULL, statuses);
	vr_exit();
	return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	vr_enter();
	int rc = complete_all(n, reqs, flag, statuses);
	vr_exit();
	return rc;
}

/* Test, Testany and Waitany: a user's receive they complete takes its
 * stamp and wakes its sender, as in Wait (under the virtual clock a
 * receive whose stamp stays behind moves no clock and stays pending for
 * the order); Waitany waits cooperatively.  Debian's hpcc imports them. */
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	vr_enter();
	MPI_Request before = *req;
	MPI_Status st;
	int rc = PMPI_Test(req, flag, &st);
	if (rc == MPI_SUCCESS && *flag) {
		completed(1, &before, &st);
		if (status != MPI_STATUS_IGNORE)
			*status = st;
	}
	vr_exit();
	return rc;
}

/* Waitany (flag NULL) and Testany. */
static int complete_any(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	MPI_Request b0[SMALL];
	MPI_Request *before = n <= SMALL ? b0 : malloc((size_t)n * sizeof *before);
	MPI_Status st;
	int done = 1;
	int active = 0, last = -1;
	for (int i = 0; i < n; i++)
		if (reqs[i] != MPI_REQUEST_NULL)
			active++, last = i;
	for (int i = 0; before != NULL && i < n; i++)
		before[i] = reqs[i];
	/* any of one request is that request: its receive is published, as
	 * in Wait (hpcc's MPIRandomAccess waits so for each message; unnamed,
	 * every wait held its polling siblings until the escape, 100 ms); of
	 * several, their receives as an any-of wait (hpcc's MPIRandomAccess
	 * with 5 processes or more) */
	if (flag == NULL && active == 1)
		expect_receives(1, &reqs[last], 0);
	else if (flag == NULL && active > 1)
		expect_receives(n, reqs, 1);
	int rc = flag ? PMPI_Testany(n, reqs, index, &done, &st) : vr_waitany(n, reqs, index, &st);
	if (flag)
		*flag = done;
	if (rc == MPI_SUCCESS && done) {
		if (before != NULL && *index >= 0 && *index < n)
			completed(1, &before[*index], &st);
		if (status != MPI_STATUS_IGNORE)
			*status = st;
	}
	if (before != b0)
		free(before);
	return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	vr_enter();
	int rc = complete_any(n, reqs, index, flag, status);
	vr_exit();
	return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	vr_enter();
	int rc = complete_any(n, reqs, index, NULL, status);
	vr_exit();
	return rc;
}

/*
 * MPI_Probe and MPI_Iprobe under the virtual clock: the answer depends on
 * virtual time, not on when MPI delivers.  HPL polls for its panels with
 * MPI_Iprobe, between pieces of its update (look-ahead) and in loops of
 * nothing else; not interposed, a polling rank counted as computing at
 * its clock and held its siblings until the order's escape, and hpcc at
 * N = 400 on 1 x 2 took 25-80 s instead of 3 s.
 *   - A poll after compute answers for the rank's clock: true if a
 *     matching message arrives by then (vr_order_poll), else false once
 *     no rank can still send one that does.
 *   - A poll that repeats a failed one with no MPI call and almost no
 *     compute between (a spin), and MPI_Probe, block as a receive does
 *     until the next matching message, the earliest in virtual time for a
 *     wildcard (wildcard_choose): the receive that follows moves the
 *     clock to its arrival, as if the rank had spun until then.  A pure
 *     spin has nothing else to do, so blocking it cannot deadlock.
 */
static int probe_blocking(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	int flag = 0, rc;
	unsigned iter = 0;
	if (source == MPI_ANY_SOURCE)
		wildcard_choose(comm, &source, &tag);
	vr_wait_expect(comm, source, tag);
	while ((rc = PMPI_Iprobe(source, tag, comm, &flag, status)) == MPI_SUCCESS && !flag) {
		if (iter == 0)
			vr_wait_block();
		vr_backoff(&iter);
	}
	vr_wait_unblock();
	return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	vr_enter();
	int rc = probe_blocking(source, tag, comm, status);
	vr_exit();
	return rc;
}

/* What the order needs of a probe: its stamp channel, or -1 (then MPI
 * answers as it would). */
typedef struct {
	MPI_Comm comm;
	int source, tag, chan, stag, w, nmembers;
	const int *members;
} probe_q;

static int probe_ordered(probe_q *q, int source, int tag, MPI_Comm comm)
{
	MPI_Comm sc;
	if (!vr_virtual() || !vr_order_enabled() || source == MPI_PROC_NULL ||
	    vr_stamp_chan(comm, tag == MPI_ANY_TAG ? 0 : tag, &sc, &q->stag, &q->chan) < 0 ||
	    q->chan < 0)
		return -1;
	if (tag == MPI_ANY_TAG)
		q->stag = -1;
	q->w = source == MPI_ANY_SOURCE ? -1 : vr_world_rank(comm, source);
	if (source != MPI_ANY_SOURCE && q->w < 0)
		return -1;
	*q = (probe_q){ comm, source, tag, q->chan, q->stag, q->w, 0, NULL };
	q->members = vr_comm_members(comm, &q->nmembers);
	return 0;
}

/* A poll at the rank's clock; the escape answers as MPI does. */
static int poll_at_clock(const probe_q *q, int *flag, MPI_Status *status)
{
	unsigned iter = 0;
	unsigned long long t0 = 0;
	*flag = 0;
	for (;;) {
		int w = q->w, t = q->stag;
		int s = vr_order_poll(q->chan, q->stag, &w, &t, q->members, q->nmembers, vr_vt_ns());
		if (s == 0)
			return MPI_SUCCESS;
		if (s == 1) {
			int r = vr_comm_rank_of(q->comm, w);
			int rc = PMPI_Iprobe(r >= 0 ? r : q->source, q->tag == MPI_ANY_TAG ? t : q->tag,
			                     q->comm, flag, status);
			if (rc != MPI_SUCCESS || *flag)
				return rc;
		}
		if (vr_order_escape_due(&t0)) {
			vr_order_escaped();
			return PMPI_Iprobe(q->source, q->tag, q->comm, flag, status);
		}
		vr_order_nap(&iter);
	}
}

/* The last failed poll: a spin repeats it at once.  Virtual ns of compute
 * a spin's turn may take (HPL's loop, our wrapper: a few us). */
#define SPIN_NS 50000ull
static struct {
	unsigned long call;
	MPI_Comm comm;
	int source, tag;
	unsigned long long vt;
} failed;

static int spinning(int source, int tag, MPI_Comm comm)
{
	return failed.call != 0 && failed.call + 1 == vr_calls() && failed.comm == comm &&
	       failed.source == source && failed.tag == tag && vr_vt_ns() - failed.vt <= SPIN_NS;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	vr_enter();
	probe_q q;
	int rc;
	if (probe_ordered(&q, source, tag, comm) < 0)
		rc = PMPI_Iprobe(source, tag, comm, flag, status);
	else if (spinning(source, tag, comm))
		rc = probe_blocking(source, tag, comm, status), *flag = rc == MPI_SUCCESS;
	else
		rc = poll_at_clock(&q, flag, status);
	if (rc == MPI_SUCCESS && !*flag)
		failed.call = vr_calls(), failed.comm = comm, failed.source = source,
		failed.tag = tag, failed.vt = vr_vt_ns();
	vr_exit();
	return rc;
}
