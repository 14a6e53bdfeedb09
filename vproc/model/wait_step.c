/*
 * wait_step.c -- what a blocked rank does after a test that found its
 * message missing: poll again, yield, or sleep.  Pure: the
 * runtime (vproc/runtime/core/wait.c) feeds it the segment's counts and carries
 * the action out.
 *
 * Why: the method puts more processes than processors on one computer
 * (000 s3, 002 s2).  A poll is free while every awake process has its own
 * processor, and takes one from a process with work when they do not.  A
 * sleep costs its wake-up: two context switches, and on a virtual machine
 * an interrupt to a halted processor (perf bench sched pipe on the 2-core
 * machine this was measured on: 8 us a round trip on one processor, 84 us across
 * two).  So a crowded wait neither polls nor sleeps while the peer it waits
 * for is awake (that peer runs, or waits for a processor, maybe ours): it
 * yields.  A peer asleep cannot send before someone wakes it: sleep.
 * Under the virtual clock no wait is crowded (vr_backoff_wake): its
 * ordering's naps already keep the ranks off the processors.
 */
#include "model.h"

int vproc_wait_crowded(int awake, int cpus)
{
	return awake >= 0 && cpus > 0 && awake > cpus;
}

vproc_wait_action vproc_wait_step(const vproc_wait_policy *pol, unsigned steps,
                                  unsigned peer_yields, int crowded, int peer_awake)
{
	if (!crowded) {
		if (steps < pol->spins)
			return VPROC_WAIT_POLL;
		if (steps - pol->spins < pol->yields)
			return VPROC_WAIT_YIELD;
		return VPROC_WAIT_SLEEP;
	}
	if (peer_awake && peer_yields < pol->peer_yields)
		return VPROC_WAIT_PEER_YIELD;
	return VPROC_WAIT_SLEEP;
}

unsigned vproc_wait_nap_index(const vproc_wait_policy *pol, unsigned steps)
{
	unsigned before = pol->spins + pol->yields;
	return steps > before ? (steps - before) / 4 : 0;
}

/* Under the virtual clock a wait's real length changes no time; its
 * sender wakes it (wait.c), and the nap bounds only what no one
 * announces.  With 128 ranks on 2 cores a wait's sender or child is
 * often a processor's turn or more away: the 1 ms naps of the 128-rank
 * LU of bench_vclock.sh item 4 (n = 8192) timed out 330,000 times, each
 * a test of MPI, a kick of its peer and a sleep again, and the woken
 * peers woke others: 1.0 million context switches, 0.36 million with
 * these naps (virtual-clock.md, "Why 512 ranks crawl").  Small jobs
 * keep 1 ms. */
long vproc_wait_virtual_nap_ns(int nranks)
{
	long k = nranks / 16;
	return 1000000L * (k < 1 ? 1 : k > 10 ? 10 : k);
}
