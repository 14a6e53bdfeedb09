/*
 * ucx.c -- a work-around for a hang in MPI_Finalize of Debian 12's MPICH
 * 4.0.2 (ch4:ucx) over UCX 1.13's TCP transport, found by the multi-host
 * test (tests/e2e/multihost/ucx-no-disconnect.c has the full story; UCX issue
 * #8738 is the same family).
 *
 * MPICH's finalize calls ucp_disconnect_nb() on every endpoint and spins
 * until all complete, and only then enters a PMI barrier.  Over TCP, a
 * disconnect of an endpoint whose wire-up the peer never answered needs
 * the peer to progress -- but the peer may already sit in the barrier,
 * which does not progress UCX: both wait for ever (measured: 3 runs in 11
 * of `hetlaunch run` across three hosts).  Reporting each disconnect as
 * done sends MPICH straight to the barrier; ucp_worker_destroy() after it
 * releases the endpoints.  A correct MPI program has received everything
 * it waits for before any rank calls MPI_Finalize, so nothing is lost.
 *
 * HETLAUNCH_UCX_DISCONNECT=1 calls UCX's own ucp_disconnect_nb instead.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucp/api/ucp.h>

#include "bindings.h"

ucs_status_ptr_t ucp_disconnect_nb(ucp_ep_h ep)
{
	const char *e = getenv("HETLAUNCH_UCX_DISCONNECT");
	if (e != NULL && e[0] == '1') {
		void *sym = dlsym(RTLD_NEXT, "ucp_disconnect_nb");
		ucs_status_ptr_t (*real)(ucp_ep_h);
		memcpy(&real, &sym, sizeof real);   /* POSIX: dlsym gives functions */
		if (sym != NULL)
			return real(ep);
	}
	(void)ep;
	return UCS_STATUS_PTR(UCS_OK);
}

/*
 * MPICH's own blocking loops (the collectives inside MPI_Comm_split and
 * MPI_Comm_dup, which ScaLAPACK's BLACS calls for every grid, and this
 * runtime's communicator set-up) spin on ucp_worker_progress: with 64 ranks
 * on 2 cores a spinner keeps its processor for a whole time slice while
 * the peer it needs waits for one, and the set-up of a 64-rank LU took 18
 * of its 27 s (perf: 98% of the samples in UCX and MPICH).  Under the
 * virtual clock a real-time wait changes no time, so after VR_UCX_IDLE idle
 * progress calls in a row the rank naps VR_UCX_NAP_NS and gives the
 * processor to a rank that has work.
 */
#define VR_UCX_IDLE 256
#define VR_UCX_NAP_NS 50000L

unsigned ucp_worker_progress(ucp_worker_h worker)
{
	static unsigned (*real)(ucp_worker_h);
	static unsigned idle;
	if (real == NULL) {
		void *sym = dlsym(RTLD_NEXT, "ucp_worker_progress");
		memcpy(&real, &sym, sizeof real);
	}
	unsigned n = real(worker);
	if (n != 0 || !vr_virtual()) {
		idle = 0;
		return n;
	}
	if (++idle >= VR_UCX_IDLE) {
		idle = 0;
		struct timespec ts = { 0, VR_UCX_NAP_NS };
		nanosleep(&ts, NULL);
	}
	return n;
}
