/*
 * test_core.c -- the runtime core's ordering and waiting: booking in
 * virtual-time order (vproc/runtime/core/vorder.c), the wake-ups it sleeps
 * on (wake.c) and the cooperative waits (wait.c), on a segment made here
 * (state.h's vr_seg: the state the core shares is one structure, so a
 * test can hand it one) with two ranks on one machine.  The test plays
 * rank 1 by writing its clock and state into the segment, as its
 * vclock.c and wait.c would; rank 0 books and waits.
 *
 * Below these files the test stands in for bsend.c (its progress,
 * counted: a rank waiting for the order must move its buffered sends),
 * comm.c (the world's ranks, one stamp channel) and MPI's test calls (a
 * mock whose requests complete on a given test, or when another thread
 * says so).  Built against MPICH's mpi.h: integer handles, no symbols.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "runtime/core/core.h"
#include "runtime/core/state.h"

static unsigned progress_calls;

void vr_bsend_progress(void)
{
	progress_calls++;
}

int vr_bsend_outstanding(void)
{
	return 0;
}

int vr_world_rank(MPI_Comm comm, int rank)
{
	(void)comm;
	return rank;
}

/* Every communicator stamps on channel 3, tag + 7. */
int vr_stamp_chan(MPI_Comm comm, int tag, MPI_Comm *sc, int *stag, int *chan)
{
	*sc = comm;
	*stag = tag + 7;
	*chan = 3;
	return 0;
}

/* ---- the mock's requests: request i (handle i + 1) completes on its
 * done_on-th test, or (done_on 0) once `released` is set ---------------- */
#define NREQ 4
static struct {
	int done_on, tests;
} req[NREQ];
static _Atomic int released;
static void (*inside_test)(void);   /* runs in every test of a request */

static int test_one(MPI_Request *r, MPI_Status *st)
{
	int i = *r - 1;
	assert_true(i >= 0 && i < NREQ);
	req[i].tests++;
	if (inside_test)
		inside_test();
	int done = req[i].done_on ? req[i].tests >= req[i].done_on : atomic_load(&released);
	if (done) {
		*r = MPI_REQUEST_NULL;
		if (st != MPI_STATUS_IGNORE)
			st->MPI_TAG = 40 + i;
	}
	return done;
}

int PMPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
	assert_true(*r != MPI_REQUEST_NULL);   /* no test after completion */
	*flag = test_one(r, st);
	return MPI_SUCCESS;
}

int PMPI_Testany(int n, MPI_Request *r, int *index, int *flag, MPI_Status *st)
{
	*flag = 0;
	for (int i = 0; i < n; i++)
		if (r[i] != MPI_REQUEST_NULL && test_one(&r[i], st)) {
			*flag = 1;
			*index = i;
			return MPI_SUCCESS;
		}
	return MPI_SUCCESS;
}

int PMPI_Testall(int n, MPI_Request *r, int *flag, MPI_Status *st)
{
	*flag = 1;
	for (int i = 0; i < n; i++)
		if (r[i] != MPI_REQUEST_NULL &&
		    !test_one(&r[i], st == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &st[i]))
			*flag = 0;
	return MPI_SUCCESS;
}

static void requests(int a, int b, int c)
{
	memset(req, 0, sizeof req);
	req[0].done_on = a, req[1].done_on = b, req[2].done_on = c;
	atomic_store(&released, 0);
	inside_test = NULL;
}

static vr_shm *seg;
static const int both[2] = { 0, 1 };

static unsigned long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* A segment of two ranks on machine 0, this process rank `me`, the order
 * escaping after escape_ms of nothing moving. */
static void segment(int me, const char *escape_ms)
{
	free(seg);
	seg = calloc(1, sizeof *seg);
	assert_non_null(seg);
	seg->nmachines = 1;
	seg->nranks = 2;
	seg->flags = VR_FLAG_EMULATE | VR_FLAG_VIRTUAL;
	vr_seg = (vr_state){ seg, &seg->machines[0], &seg->ranks[me], me, 2, 0, 1, 1, 1 };
	unsetenv("HETLAUNCH_VORDER");   /* "0" would turn the order off */
	setenv("HETLAUNCH_VORDER_ESCAPE_MS", escape_ms, 1);
	vr_order_init(both, 2);
	/* waits sleep at once, on the wake word, for 400 ms unless woken */
	setenv("HETLAUNCH_SHM", "test", 1);
	setenv("HETLAUNCH_WAIT", "0,0,400000000,400000000", 1);
	vr_wait_init();
	progress_calls = 0;
}

/* Rank 1 runs at virtual time vt (its clock bounds it). */
static void rank1_at(unsigned long long vt)
{
	atomic_store(&seg->rank_vt[1], vt);
	atomic_fetch_add(&seg->order[1].ver, 1u);
}

/* Rank 1 blocked at vt in a receive whose message ends its wait at wake
 * (wait.c publishes the term; vorder.c's bound, max(vt, min(W, G))). */
static void rank1_blocked(unsigned long long vt, unsigned long long wake)
{
	rank1_at(vt);
	atomic_store(&seg->term[1], wake);
	atomic_store(&seg->order[1].blocked, 1);
}

static void *rank1_moves_later(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 30000000L };
	nanosleep(&ts, NULL);
	rank1_at(150);
	vr_wake_rank(0);   /* as its notify() would: rank 0 sleeps on it */
	return NULL;
}

/* Rank 0 books at 100 while rank 1's clock is 50: rank 1 may still book
 * the processor before 100, so rank 0 waits, moving its buffered sends,
 * until rank 1 is at 150 -- not out of order. */
static void booking_waits_for_the_sibling(void **state)
{
	(void)state;
	segment(0, "60000");
	rank1_at(50);
	pthread_t t;
	unsigned long long t0 = now_ns();
	assert_int_equal(pthread_create(&t, NULL, rank1_moves_later, NULL), 0);
	vr_order_book(100, 0);
	unsigned long long waited = now_ns() - t0;
	pthread_join(t, NULL);
	assert_true(waited >= 30000000ull);
	assert_int_equal(atomic_load(&seg->rank_vt[1]), 150);
	assert_int_equal(atomic_load(&seg->out_of_order), 0);
	assert_true(progress_calls > 0);
	assert_int_equal(atomic_load(&seg->order[0].doing), 0);
}

/* A tie of clocks goes to the lower rank: rank 0 books at rank 1's clock
 * at once; rank 1 at rank 0's clock would have to wait (here it escapes
 * after 20 ms of nothing moving, and the escape is counted). */
static void ties_go_to_the_lower_rank(void **state)
{
	(void)state;
	segment(0, "60000");
	rank1_at(100);
	vr_order_book(100, 0);
	assert_int_equal(atomic_load(&seg->out_of_order), 0);

	segment(1, "20");
	atomic_store(&seg->rank_vt[0], 100);
	unsigned long long t0 = now_ns();
	vr_order_book(100, 0);
	assert_true(now_ns() - t0 >= 20000000ull);
	assert_int_equal(atomic_load(&seg->out_of_order), 1);
}

/* A sibling blocked in a receive whose message ends its wait at 500 does
 * not hold back a booking at 100, though its clock reads 50: only that
 * message can wake it (vorder.c's bound, max(vt, min(W, G))). */
static void a_blocked_sibling_is_bounded_by_its_wake_up(void **state)
{
	(void)state;
	segment(0, "60000");
	rank1_blocked(50, 500);
	vr_order_book(100, 0);
	assert_int_equal(atomic_load(&seg->out_of_order), 0);
	/* past its wake-up it holds rank 0 back again (escape: 20 ms) */
	segment(0, "20");
	rank1_blocked(50, 500);
	vr_order_book(600, 0);
	assert_int_equal(atomic_load(&seg->out_of_order), 1);
}

/* A child process that spins for ever: on processor 0 beside nothing
 * (hog 0, idle 0), as the hog that holds processor 0, or (idle 1) there at
 * SCHED_IDLE, where beside the hog it is runnable and gets about 0.3% of
 * the processor: a rank that only lacks one. */
static pid_t spinner(int pinned, int idle)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (pinned)
		sched_setaffinity(0, sizeof one, &one);
	struct sched_param none = { 0 };
	if (idle)
		sched_setscheduler(0, SCHED_IDLE, &none);
	for (volatile unsigned long spin = 0;; spin++)
		;
}

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* How long a booking at 100 waits, with rank 1 (process pid) at 50,
 * before it escapes (20 ms of nothing moved); out_of_order is then 1. */
static unsigned long long escape_wait_ns(pid_t pid)
{
	segment(0, "20");
	rank1_at(50);
	atomic_store(&seg->ranks[1].pid, (int)pid);
	unsigned long long t0 = now_ns();
	vr_order_book(100, 0);
	return now_ns() - t0;
}

/* A runnable sibling delays the escape until it has had the escape's 20
 * ms of processor time (a rank spinning in MPI for a message the clocks
 * do not see: at once, about 40 ms), or 100 times that, 2 s, when it
 * lacks a processor (on a computer other programs load, its move comes).
 * Asleep (no process: pid 0, as in the tie test above), the escape comes
 * after its 20 ms. */
static void a_runnable_sibling_delays_the_escape(void **state)
{
	(void)state;
	pid_t busy = spinner(0, 0);
	unsigned long long running = escape_wait_ns(busy);
	stop(busy);
	long ooo_running = atomic_load(&seg->out_of_order);
	pid_t hog = spinner(1, 0), starved = spinner(1, 1);
	unsigned long long lacking = escape_wait_ns(starved);
	stop(starved);
	stop(hog);
	long ooo_lacking = atomic_load(&seg->out_of_order);
	assert_true(running >= 20000000ull && running < 1000000000ull);
	assert_true(lacking >= 1000000000ull);
	assert_int_equal(ooo_running, 1);
	assert_int_equal(ooo_lacking, 1);
}

/* A sibling past MPI_Finalize's last booking never holds anyone back. */
static void a_finished_sibling_is_past_everything(void **state)
{
	(void)state;
	segment(0, "20");
	rank1_at(5);
	atomic_store(&seg->order[1].done, 1);
	vr_order_book(1000000, 0);
	assert_int_equal(atomic_load(&seg->out_of_order), 0);
}

/* A wake-up bumps the word first, so that a rank on its way to sleep (it
 * read the word before) does not sleep through it; a kick bumps it too;
 * a sleeper is asleep to its peers, and a sleep on a word that moved
 * since it was read returns at once. */
static void wake_bumps_the_word_kick_spares_receivers(void **state)
{
	(void)state;
	segment(0, "60000");
	uint32_t w0 = atomic_load(&seg->ranks[1].wake);
	vr_wake_rank(1);
	assert_int_equal(atomic_load(&seg->ranks[1].wake), w0 + 1);
	atomic_store(&seg->ranks[1].sleeping, VR_ASLEEP);
	vr_kick(MPI_COMM_WORLD, 1);   /* bumps, but no futex wake for a receiver */
	assert_int_equal(atomic_load(&seg->ranks[1].wake), w0 + 2);
	assert_int_equal(vr_peer_awake(MPI_COMM_WORLD, 1), 0);
	atomic_store(&seg->ranks[1].sleeping, 0u);
	assert_int_equal(vr_peer_awake(MPI_COMM_WORLD, 1), 1);
	/* a sleep whose word moved since it was read returns at once */
	struct timespec ts = { 5, 0 };
	unsigned long long t0 = now_ns();
	vr_futex_sleep(VR_ASLEEP, atomic_load(&seg->ranks[0].wake) - 1, &ts);
	assert_true(now_ns() - t0 < 1000000000ull);
	assert_int_equal(atomic_load(&seg->ranks[0].sleeping), 0);
}

static unsigned long long slept_ns;

static void *sleep_half_a_second(void *arg)
{
	uint32_t seen = *(uint32_t *)arg;
	struct timespec ts = { 0, 500000000L };
	unsigned long long t0 = now_ns();
	vr_futex_sleep(VR_ASLEEP, seen, &ts);
	slept_ns = now_ns() - t0;
	return NULL;
}

/* One sleep of rank 0 (receive-only, VR_ASLEEP) against a kick, then a
 * wake-up, 50 ms in: the kick saves the futex call and leaves it asleep
 * (wait.c: a receive-only wait does not need its sender's progress); the
 * wake-up ends the sleep at once. */
static void sleep_over_a_kick_until_woken(void **state)
{
	(void)state;
	segment(0, "60000");
	for (int wake = 0; wake < 2; wake++) {
		uint32_t seen = atomic_load(&seg->ranks[0].wake);
		pthread_t t;
		assert_int_equal(pthread_create(&t, NULL, sleep_half_a_second, &seen), 0);
		struct timespec ts = { 0, 50000000L };
		nanosleep(&ts, NULL);
		if (wake)
			vr_wake_rank(0);
		else
			vr_kick(MPI_COMM_WORLD, 0);
		pthread_join(t, NULL);
		if (wake)
			assert_true(slept_ns < 450000000ull);
		else
			assert_true(slept_ns >= 500000000ull);
	}
}

/* vr_wait, Waitall and Waitany test until MPI says done, and never again;
 * the status and the index are MPI's. */
static void waits_test_until_done(void **state)
{
	(void)state;
	segment(0, "60000");
	setenv("HETLAUNCH_WAIT", "2,2,1000,1000", 1);   /* short naps: no one wakes */
	vr_wait_init();
	requests(5, 0, 0);
	MPI_Request r = 1;
	MPI_Status st;
	assert_int_equal(vr_wait(&r, &st), MPI_SUCCESS);
	assert_int_equal(req[0].tests, 5);
	assert_int_equal(r, MPI_REQUEST_NULL);
	assert_int_equal(st.MPI_TAG, 40);

	requests(3, 7, 1);
	MPI_Request all[3] = { 1, 2, 3 };
	MPI_Status sts[3];
	assert_int_equal(vr_waitall(3, all, sts), MPI_SUCCESS);
	assert_int_equal(req[1].tests, 7);
	assert_int_equal(req[2].tests, 1);
	assert_int_equal(sts[1].MPI_TAG, 41);

	requests(9, 4, 0);
	MPI_Request any[2] = { 1, 2 };
	int index = -1;
	assert_int_equal(vr_waitany(2, any, &index, &st), MPI_SUCCESS);
	assert_int_equal(index, 1);
	assert_int_equal(any[0], 1);   /* still MPI's */
	assert_int_equal(st.MPI_TAG, 41);
}

static void *complete_and_wake(void *arg)
{
	int wake = *(int *)arg;
	struct timespec ts = { 0, 50000000L };
	nanosleep(&ts, NULL);
	atomic_store(&released, 1);
	if (wake)
		vr_wake_rank(0);   /* what a sender on this computer does (send.c) */
	return NULL;
}

/* With a segment a wait sleeps on the rank's wake word: a message's sender
 * ends the sleep at once; unannounced, the completion is seen when the
 * nap (400 ms here) ends. */
static void a_wait_sleeps_until_its_sender_wakes_it(void **state)
{
	(void)state;
	segment(0, "60000");
	for (int wake = 1; wake >= 0; wake--) {
		requests(0, 0, 0);
		pthread_t t;
		MPI_Request r = 1;
		unsigned long long t0 = now_ns();
		assert_int_equal(pthread_create(&t, NULL, complete_and_wake, &wake), 0);
		assert_int_equal(vr_wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
		unsigned long long took = now_ns() - t0;
		pthread_join(t, NULL);
		if (wake)
			assert_true(took < 350000000ull);
		else
			assert_true(took >= 400000000ull);
	}
}

/* Under the virtual clock a wait publishes the receives it waits for
 * while it is blocked (channel, world source, stamp tag: vorder.c bounds
 * a blocked rank by their messages), an any-of wait as such, and forgets
 * them when it returns. */
static int seen_blocked, seen_npat, seen_any;
static vr_pattern seen_pat;

static void look_at_rank0(void)
{
	if (req[0].tests < 2)
		return;   /* the first test comes before the wait blocks */
	seen_blocked = atomic_load(&seg->order[0].blocked);
	seen_npat = (int)seg->order[0].npat;
	seen_any = (int)seg->order[0].any;
	seen_pat = seg->order[0].pat[0];
}

static void a_wait_publishes_its_receives(void **state)
{
	(void)state;
	segment(0, "60000");
	setenv("HETLAUNCH_WAIT", "2,2,1000,1000", 1);
	vr_wait_init();
	for (int any = 0; any < 2; any++) {
		requests(4, 0, 0);
		inside_test = look_at_rank0;
		seen_blocked = seen_npat = seen_any = -1;
		vr_wait_expect(MPI_COMM_WORLD, 1, 5);
		MPI_Request r = 1;
		int index;
		if (any) {
			vr_wait_expect_any();
			assert_int_equal(vr_waitany(1, &r, &index, MPI_STATUS_IGNORE), MPI_SUCCESS);
		} else {
			assert_int_equal(vr_wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
		}
		assert_int_equal(seen_blocked, 1);
		assert_int_equal(seen_npat, 1);
		assert_int_equal(seen_any, any);
		assert_int_equal(seen_pat.chan, 3);
		assert_int_equal(seen_pat.src, 1);
		assert_int_equal(seen_pat.stag, 12);
		assert_int_equal(atomic_load(&seg->order[0].blocked), 0);
	}
	inside_test = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(booking_waits_for_the_sibling),
		cmocka_unit_test(ties_go_to_the_lower_rank),
		cmocka_unit_test(a_blocked_sibling_is_bounded_by_its_wake_up),
		cmocka_unit_test(a_runnable_sibling_delays_the_escape),
		cmocka_unit_test(a_finished_sibling_is_past_everything),
		cmocka_unit_test(wake_bumps_the_word_kick_spares_receivers),
		cmocka_unit_test(sleep_over_a_kick_until_woken),
		cmocka_unit_test(waits_test_until_done),
		cmocka_unit_test(a_wait_sleeps_until_its_sender_wakes_it),
		cmocka_unit_test(a_wait_publishes_its_receives),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(seg);
	return rc;
}
