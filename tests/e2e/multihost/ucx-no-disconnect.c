/* ucx-no-disconnect.so -- an LD_PRELOAD work-around for a hang in
 * MPI_Finalize of Debian 12's MPICH 4.0.2 (ch4:ucx) over UCX 1.13.1's TCP
 * transport.  Built and used by tests/e2e/multihost_test.sh.
 *
 * The hang: MPICH's UCX finalize hook first calls ucp_disconnect_nb() on
 * every endpoint and spins in ucp_worker_progress() until all of those
 * requests complete, and only then enters a PMI barrier.  A disconnect is a
 * flush, and over TCP a flush of an endpoint whose wire-up is not finished
 * (no reply yet from the peer; typical for a direction the program never
 * sent in, e.g. from the root of a gather to the leaves) needs the peer to
 * make progress.  The peer may already have finished its own disconnects
 * and sit in the PMI barrier, which does not progress UCX: both wait for
 * ever.  Measured on this machine, 3 ranks with UCX_TLS=tcp,self across
 * the test's namespaces: whereami hangs in 5 of 12 runs (6 of 12 on one
 * host without namespaces), the stock xdlu in 5 of 8; with this library 0
 * of 20 and 0 of 8.  Over shared memory xdlu did not hang (0 of 8).  UCX
 * issue #8738 ("TCP transport hangs during cleanup") describes the same
 * family of hang; later MPICH releases moved the PMI barrier before the
 * disconnects.
 *
 * The work-around: report each disconnect as already done.  MPICH then
 * goes straight to the PMI barrier, and ucp_worker_destroy(), after it,
 * releases the endpoints without waiting for peers.  Nothing is lost for a
 * correct MPI program: every message it waits for has been received before
 * any rank calls MPI_Finalize, and after the barrier nobody sends. */
#include <ucp/api/ucp.h>

ucs_status_ptr_t ucp_disconnect_nb(ucp_ep_h ep)
{
	(void)ep;
	return UCS_STATUS_PTR(UCS_OK);
}
