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
 * so that a message is noticed within that long.  Measured on 2 cores,
 * xdlu 3x3 n = 900 (tests/bench_runtime.sh, HETLAUNCH_WAIT): yields
 * before the naps beat naps alone (0.30 s against 0.76 s), and shorter
 * naps (8 us) made it worse (3.3 s): they wake the sleepers so often that
 * the ranks with work lose the processor.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#include "runtime.h"

/* The back-off; HETLAUNCH_WAIT="spins,yields,nap_min_ns,nap_max_ns"
 * overrides it (for measuring, see tests/bench_runtime.sh). */
static unsigned VR_SPINS = 32;        /* plain polls */
static unsigned VR_YIELDS = 96;       /* polls with sched_yield() between them */
static long VR_NAP_MIN_NS = 2000;
static long VR_NAP_MAX_NS = 64000;    /* about the latency of Fast Ethernet */

void vr_wait_init(void)
{
	const char *e = getenv("HETLAUNCH_WAIT");
	if (e) {
		unsigned s, y;
		long a, b;
		if (sscanf(e, "%u,%u,%ld,%ld", &s, &y, &a, &b) == 4 && a > 0 && b >= a) {
			VR_SPINS = s;
			VR_YIELDS = y;
			VR_NAP_MIN_NS = a;
			VR_NAP_MAX_NS = b;
		}
	}
	/* A nap is only short if the kernel does not round it up: the
	 * default timer slack (50 us) would make every nap that long. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
}

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
