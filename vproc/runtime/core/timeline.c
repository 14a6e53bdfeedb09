/*
 * trace.c -- each rank's timeline for the run directory's trace.json: the
 * compute and wait segments account.c measures, buffered in memory and
 * written as one part file at MPI_Finalize (or at exit, for a rank that
 * skips it), which hetlaunch merges and removes (launcher/launch/trace.c).
 *
 * A file, not the shared segment: the segment is a fixed size for 1024
 * ranks, and a timeline is not; and a rank on a remote host has no
 * segment.  The part is created O_EXCL | O_NOFOLLOW in the directory
 * HETLAUNCH_TRACE names (hetlaunch removes earlier parts first), so a
 * link planted there is never written through.
 *
 * A segment of no time (the virtual clock's waits for a message already
 * there) is no event.  Bounded: a segment shorter than the resolution (10 us at first) is
 * merged into the event before it while that event is also shorter, so
 * that every event keeps its exact compute and wait shares but a run of
 * tiny MPI calls (a polling loop, millions of MPI_Iprobe) costs a few
 * events.  When the buffer is full the resolution doubles and the buffer
 * is merged again in place: a long run loses detail evenly over its
 * whole length, never its end, and its totals stay exact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

#define TR_MIN_NS 10000ull        /* the first resolution: 10 us */
#define TR_BUDGET 200000u         /* events over the whole job ... */
#define TR_MIN_EVENTS 256u        /* ... but at least this many a rank */
#define TR_MAX_EVENTS 20000u      /* ... and at most this many */

typedef struct {
	unsigned long long start, compute, wait;   /* ns on the rank's clock */
	const char *call;            /* the longest wait's MPI call, or NULL */
	unsigned long long call_ns;
} tr_event;

static tr_event *ev;
static size_t n, cap;
static unsigned long long min_ns = TR_MIN_NS;
static unsigned long long segments, merged;
static int rank = -1, nranks;
static char dir[4096];

static unsigned long long dur(const tr_event *e)
{
	return e->compute + e->wait;
}

/* The events a rank keeps: the job's budget shared, within the bounds. */
static size_t capacity(int size)
{
	const char *v = getenv("HETLAUNCH_TRACE_EVENTS");   /* tests: a small cap */
	long fixed = v ? strtol(v, NULL, 10) : 0;
	if (fixed >= 2)
		return (size_t)fixed;
	size_t c = TR_BUDGET / (size_t)(size > 0 ? size : 1);
	return c < TR_MIN_EVENTS ? TR_MIN_EVENTS : c > TR_MAX_EVENTS ? TR_MAX_EVENTS : c;
}

void vr_trace_init(int world_rank, int world_size)
{
	const char *d = getenv("HETLAUNCH_TRACE");
	if (d == NULL || d[0] != '/' || strlen(d) >= sizeof dir || ev != NULL)
		return;
	cap = capacity(world_size);
	ev = calloc(cap, sizeof *ev);
	if (ev == NULL)
		return;
	strcpy(dir, d);
	rank = world_rank;
	nranks = world_size;
}

int vr_trace_on(void)
{
	return ev != NULL;
}

/* e absorbs a stretch [.., +d) of compute or of wait in `call`. */
static void absorb(tr_event *e, unsigned long long d, int wait, const char *call,
                   unsigned long long call_ns)
{
	if (!wait) {
		e->compute += d;
		return;
	}
	e->wait += d;
	if (call && call_ns >= e->call_ns) {
		e->call = call;
		e->call_ns = call_ns;
	}
}

/* Double the resolution and merge the buffer again, until it has room. */
static void coarsen(void)
{
	while (n == cap) {
		min_ns *= 2;
		size_t k = 0;
		for (size_t i = 1; i < n; i++) {
			if (dur(&ev[k]) < min_ns && dur(&ev[i]) < min_ns) {
				absorb(&ev[k], ev[i].compute, 0, NULL, 0);
				absorb(&ev[k], ev[i].wait, 1, ev[i].call, ev[i].call_ns);
				merged++;
			} else {
				ev[++k] = ev[i];
			}
		}
		n = k + 1;
	}
}

void vr_trace_segment(unsigned long long start, unsigned long long end, int wait,
                      const char *call)
{
	if (ev == NULL || end < start)
		return;
	unsigned long long d = end - start;
	segments++;
	if (d == 0 || (n > 0 && d < min_ns && dur(&ev[n - 1]) < min_ns)) {
		if (d > 0)
			absorb(&ev[n - 1], d, wait, call, d);
		merged++;
		return;
	}
	if (n == cap)
		coarsen();
	tr_event *e = &ev[n++];
	*e = (tr_event){ start, 0, 0, NULL, 0 };
	absorb(e, d, wait, call, d);
}

static void write_events(FILE *f, int finalized)
{
	char host[256] = "-";
	if (gethostname(host, sizeof host - 1) != 0 || strpbrk(host, " \t\n") || host[0] == '\0')
		strcpy(host, "-");   /* one word: the real clocks of a host go together */
	fprintf(f, "hetlaunch-trace 1\nrank %d %d\nclock %s\nfinalized %d\nhost %s\n", rank,
	        nranks, vr_virtual() ? "virtual" : "real", finalized, host);
	fprintf(f, "resolution_ns %llu\nsegments %llu\nmerged %llu\nevents %zu\n", min_ns,
	        segments, merged, n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%llu %llu %llu %s\n", ev[i].start, ev[i].compute, ev[i].wait,
		        ev[i].call ? ev[i].call : "-");
}

void vr_trace_finish(int finalized)
{
	if (ev == NULL)
		return;
	char path[sizeof dir + 64];
	snprintf(path, sizeof path, "%s/trace-%d.part", dir, rank);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL) {
		fprintf(stderr, "libhetlaunch-rt: %s: %s (no timeline for rank %d)\n", path,
		        strerror(errno), rank);
		if (fd >= 0)
			close(fd);
	} else {
		write_events(f, finalized);
		if (fclose(f) != 0)
			unlink(path);   /* a cut part would read as a short timeline */
	}
	free(ev);
	ev = NULL;
}
