/*
 * wait.c -- cooperative waiting.
 *
 * Why: MPICH's ch4:ucx device busy-polls inside every blocking call.  The
 * method of the papers puts several processes on one machine (000 s3,
 * 002 s2); the 1999 PVM processes blocked in the kernel and left the
 * processor to their siblings, a spinning process does not.  So every
 * blocking call becomes its nonblocking form plus this loop, which polls a
 * few times (a message in flight is usually there within microseconds),
 * then yields, then naps with a growing sleep, never above VR_NAP_MAX_NS
 * so that a message is noticed within that long.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <time.h>

#include "runtime.h"

enum {
	VR_SPINS = 32,          /* plain polls */
	VR_YIELDS = 96,         /* polls with sched_yield() between them */
	VR_NAP_MIN_NS = 2000,
	VR_NAP_MAX_NS = 64000   /* about the latency of Fast Ethernet */
};

/* One step of the back-off after an unsuccessful test. */
void vr_backoff(unsigned *iter)
{
	unsigned i = (*iter)++;
	if (i < VR_SPINS)
		return;
	if (i < VR_SPINS + VR_YIELDS) {
		sched_yield();
		return;
	}
	unsigned k = (i - VR_SPINS - VR_YIELDS) / 4;
	long ns = VR_NAP_MIN_NS;
	while (k-- > 0 && ns < VR_NAP_MAX_NS)
		ns *= 2;
	if (ns > VR_NAP_MAX_NS)
		ns = VR_NAP_MAX_NS;
	struct timespec ts = { 0, ns };
	nanosleep(&ts, NULL);
}

int vr_waitall(int n, MPI_Request *reqs, MPI_Status *statuses)
{
	unsigned iter = 0;
	for (;;) {
		int flag = 0;
		int rc = PMPI_Testall(n, reqs, &flag, statuses);
		if (rc != MPI_SUCCESS || flag)
			return rc;
		vr_backoff(&iter);
	}
}

int vr_wait(MPI_Request *req, MPI_Status *status)
{
	unsigned iter = 0;
	for (;;) {
		int flag = 0;
		int rc = PMPI_Test(req, &flag, status);
		if (rc != MPI_SUCCESS || flag)
			return rc;
		vr_backoff(&iter);
	}
}
