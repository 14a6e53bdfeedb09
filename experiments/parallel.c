/*
 * parallel.c -- experiments/: independent samples over worker processes
 * (harness.h, ex_parallel).
 *
 * `experiments/run --quick --check` must finish in 3 minutes on
 * CI's 2-core machine, and 000 Figs 12-14's random-grid study alone took
 * 17 s of one core.  Its samples are independent, so they are spread over
 * processes (not threads: the reference LAPACK the heuristics call is not
 * promised to be reentrant).  Each result goes to its own slot of a shared
 * mapping, and the caller reduces the slots in index order, so the sums,
 * and every printed digit, are those of a serial run whatever the number of
 * workers.
 */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

enum { MAX_JOBS = 8 };

/* EXP_JOBS=k, else the online processors, at most MAX_JOBS. */
static size_t jobs(void)
{
	const char *e = getenv("EXP_JOBS");
	long k = e && *e ? atol(e) : sysconf(_SC_NPROCESSORS_ONLN);
	if (k < 1)
		k = 1;
	return k > MAX_JOBS ? MAX_JOBS : (size_t)k;
}

/* Take indices from the shared counter until none is left: the costly
 * samples (000's exact 4x4 optima) do not pile up on one worker. */
static void work(_Atomic size_t *next, size_t count, size_t size, char *slots,
                 void (*fn)(size_t, void *, void *), void *arg)
{
	size_t i;
	while ((i = atomic_fetch_add(next, 1)) < count)
		fn(i, slots + i * size, arg);
}

static void serial(size_t count, size_t size, void (*fn)(size_t, void *, void *), void *arg,
                   void *out)
{
	for (size_t i = 0; i < count; i++)
		fn(i, (char *)out + i * size, arg);
}

void ex_parallel(size_t count, size_t size, void (*fn)(size_t, void *, void *), void *arg,
                 void *out)
{
	size_t w = jobs();
	if (w > count)
		w = count;
	if (w <= 1) {
		serial(count, size, fn, arg, out);
		return;
	}
	size_t len = sizeof(_Atomic size_t) + count * size;
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die("mmap", strerror(errno));
	_Atomic size_t *next = map;
	atomic_init(next, 0);
	char *slots = (char *)map + sizeof *next;
	fflush(NULL);   /* nothing buffered is written twice */
	pid_t kids[MAX_JOBS];
	size_t nkids = 0;
	for (; nkids + 1 < w; nkids++) {
		kids[nkids] = fork();
		if (kids[nkids] < 0)
			die("fork", strerror(errno));
		if (kids[nkids] == 0) {
			work(next, count, size, slots, fn, arg);
			_exit(0);   /* the parent writes the results */
		}
	}
	work(next, count, size, slots, fn, arg);
	int failed = 0;
	for (size_t k = 0; k < nkids; k++) {
		int st;
		if (waitpid(kids[k], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed = 1;
	}
	if (failed)
		die("ex_parallel", "a worker process failed");
	memcpy(out, slots, count * size);
	munmap(map, len);
}
