/*
 * send.c -- a send on the emulated network, for the bindings' point-to-
 * point calls (p2p.c) and their collectives (coll.c) alike: the emulated
 * port first (emu.c, vclock.c), then the send (buffered under the virtual
 * clock, bsend.c), then the receiver's wake-up (emu.c).  Below both
 * bindings so that a collective's send does not call back into p2p.c.
 */
#include "core.h"

/* A handle MPI gives a send may be one a receive had that completed
 * outside Wait/Waitall/Testall (MPI_Test, or a program's Waitany): its
 * entry in comm.c's table would make a later Waitall publish a receive
 * that no message ends (vproc_wait_wake: never), and the rank's bound
 * would rise above what it really waits for. */
static void forget_receive(int rc, MPI_Request req)
{
	if (rc == MPI_SUCCESS && req != MPI_REQUEST_NULL)
		vr_recv_done(req);
}

/* The nonblocking send of each mode: the emulated port first, then the
 * send, then the receiver's wake-up. */
int vr_post_send(vr_start_fn *start, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req)
{
	int stamped = vr_send_delay(comm, dest, tag, count, type);
	/* virtual clock: standard and ready sends are buffered (bsend.c) */
	int rc = vr_virtual() && start != PMPI_Issend && dest != MPI_PROC_NULL
	         ? vr_bsend(buf, count, type, dest, tag, comm, req, stamped)
	         : start(buf, count, type, dest, tag, comm, req);
	vr_wake(comm, dest);
	forget_receive(rc, *req);
	return rc;
}

/* A user's nonblocking send that was buffered gets a complete request. */
int vr_user_request(int rc, MPI_Request *req)
{
	if (rc == MPI_SUCCESS && *req == MPI_REQUEST_NULL && vr_virtual()) {
		rc = vr_completed_request(req);
		forget_receive(rc, *req);
	}
	return rc;
}

int vr_isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm, MPI_Request *req)
{
	return vr_post_send(PMPI_Isend, buf, count, type, dest, tag, comm, req);
}
