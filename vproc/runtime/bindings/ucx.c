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
#include <ucp/api/ucp.h>

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
