/*
 * emu.c -- the emulated heterogeneous cluster, in real time.
 *
 * Compute: DGEMM, which does most of the flops of LU, QR and MM, is charged
 * by a flop model, 2mnk at the machine's Mflop/s (blas.c): CPU time is not
 * a steady measure of work on a computer whose caches and memory other
 * processes share (measured: a DGEMM's CPU time grew by up to 7% when
 * another process computed beside it).  The rest of the CPU time a rank
 * spends between two MPI calls (other BLAS, LAPACK and ScaLAPACK's own
 * loops; CLOCK_THREAD_CPUTIME_ID, so time lost to other processes on this
 * computer is not counted) is charged at the next MPI call to the rank's
 * machine, scaled by the machine's speed, through a
 * busy-until clock in shared memory (vproc_emu_charge): siblings' compute
 * serializes, a lone sibling has the whole machine.  The rank then sleeps
 * to the absolute end of its segment.  A segment that ends later than that
 * in real time is an overrun: the emulated machine would have been faster
 * than what this computer delivered; overruns are counted and reported.
 *
 * Network: before a message leaves for another machine, the sender books
 * its port (or the shared bus) for bytes/bandwidth and sleeps until the
 * message would have arrived (latency included): the one-port model of
 * 003 s2.2 seen from the sender.  Messages between virtual processes of
 * one machine are free.
 *
 * network: links (paper 004 s2, notes s8): each pair of machines has its
 * own cost per byte and no port is shared; the sender pays link[i][j] (it
 * sleeps before the message leaves, as above) and the receiver, after the
 * message is in, pays link[j][i] (MPI_Recv only), so that a ring member
 * pays c(i,succ) + c(i,pred) each iteration as the model charges.
 *
 * emulate: {clock: virtual} (VR_FLAG_VIRTUAL): the same charges
 * go to the rank's virtual clock instead (vclock.c), and nothing sleeps.
 *
 * Without HETLAUNCH_SHM the runtime only waits cooperatively.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "state.h"
#include "model/shm_layout.h"
#include "model/model.h"

/* Below this, a compute debt waits for the next MPI call (see vr_enter). */
#define VR_MIN_SLEEP_NS 20000ull

static unsigned long long seg_cpu, seg_wall;   /* when the segment started */
static _Atomic unsigned long long seg_flop_ns; /* DGEMM work of the segment (blas.c) */
static unsigned long long seg_cpu_excluded;    /* the CPU time that DGEMM took */

static unsigned long long now_ns(clockid_t id)
{
	struct timespec ts;
	vr_real_clock_gettime(id, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void sleep_until(unsigned long long t)
{
	struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };
	/* An emulated slow machine's rank leaves the processor: a crowded
	 * waiter does not yield to it (vr_peer_awake). */
	atomic_store(&vr_seg.rank->sleeping, VR_ASLEEP_EMU);
	vr_asleep(1);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	vr_asleep(0);
	atomic_store(&vr_seg.rank->sleeping, 0u);
}

int vr_machine_of(int w)
{
	return vr_seg.shm && w >= 0 && (unsigned)w < vr_seg.shm->nranks ? vr_seg.shm->rank_machine[w] : -1;
}

/* 1 if this rank is the first to claim a record of the segment (its
 * state 0 -> 2, being written): it then fills the record and stores 1,
 * the state hetlaunch reads. */
static int first_to(_Atomic int *state)
{
	int no = 0;
	return atomic_compare_exchange_strong(state, &no, 2);
}

/* A runtime that cannot do what hetlaunch asked must not run silently at
 * the wrong speed: say why and end the job. */
/* MPI_Abort from a second thread while the first is inside MPI can stall
 * (Open MPI's job once took its whole timeout: to end): the rank ends
 * itself a few seconds on, whatever MPI_Abort does. */
static void *exit_later(void *arg)
{
	(void)arg;
	struct timespec ts = { 5, 0 };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	_exit(3);
}

static void die(const char *what)
{
	pthread_t t;
	if (pthread_create(&t, NULL, exit_later, NULL) == 0)
		pthread_detach(t);
	fprintf(stderr, "libhetlaunch-rt: %s: %s\n", getenv("HETLAUNCH_SHM"), what);
	int rank = -1;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (vr_seg.shm != NULL && first_to(&vr_seg.shm->refused)) {
		snprintf(vr_seg.shm->refusal, sizeof vr_seg.shm->refusal, "rank %d: %s", rank, what);
		atomic_store(&vr_seg.shm->refused, 1);   /* after the text */
	}
	PMPI_Abort(MPI_COMM_WORLD, 3);
}

void vr_emu_aborting(int code)
{
	if (vr_seg.shm == NULL || !first_to(&vr_seg.shm->aborted))
		return;
	vr_seg.shm->abort_rank = vr_seg.world_rank;
	vr_seg.shm->abort_code = code;
	vr_seg.shm->abort_ns = now_ns(CLOCK_MONOTONIC);
	atomic_store(&vr_seg.shm->aborted, 1);   /* after the fields */
}

/* The rank's account and timeline (account.c, trace.c), from the end of
 * MPI_Init on; slot: its place in the segment, or NULL. */
static void start_account(void *slot)
{
	int rank, size;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	vr_trace_init(rank, size);
	vr_account_init(slot);   /* after vr_vt_init: it may count virtual time */
	vr_exit();
}

static pthread_t init_thread;
static int init_thread_known;

int vr_foreign_thread(void)
{
	return init_thread_known && !pthread_equal(pthread_self(), init_thread);
}

void vr_emu_init(void)
{
	init_thread = pthread_self();
	init_thread_known = 1;
	const char *name = getenv("HETLAUNCH_SHM");
	if (name == NULL || name[0] == '\0') {
		start_account(NULL);
		return;
	}
	int fd = shm_open(name, O_RDWR, 0);
	if (fd < 0) {
		die(strerror(errno));
		return;
	}
	void *p = mmap(NULL, sizeof(vr_shm), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		die(strerror(errno));
		return;
	}
	vr_shm *s = p;
	int rank, size;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	if (s->magic != VR_SHM_MAGIC || s->version != VR_SHM_VERSION) {
		die("not a hetlaunch segment of this version");
		return;
	}
	if ((unsigned)size != s->nranks) {
		die("the job has a different number of ranks than the plan");
		return;
	}
	int m = s->rank_machine[rank];
	if (m < 0 || (unsigned)m >= s->nmachines) {
		die("rank without a machine");
		return;
	}
	vr_seg.shm = s;
	vr_seg.world_size = size;
	vr_seg.world_rank = rank;
	vr_seg.machine_index = m;
	vr_seg.machine = &s->machines[m];
	vr_seg.rank = &s->ranks[rank];
	vr_seg.emulating = (s->flags & VR_FLAG_EMULATE) != 0;
	atomic_store(&vr_seg.rank->pid, (int)getpid());
	/* The last rank to attach removes the name: every rank has its
	 * mapping, and nothing is left in /dev/shm even if hetlaunch is
	 * killed outright (hetlaunch then leaves the name alone). */
	if ((unsigned)atomic_fetch_add(&s->attached, 1) + 1 == s->nranks)
		shm_unlink(name);
	atomic_fetch_add(&s->awake, 1);
	cpu_set_t cpus;
	vr_seg.ncpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
	if (vr_seg.emulating && (s->flags & VR_FLAG_SKIP))
		vr_fold_init(s);
	if (vr_seg.emulating && (s->flags & VR_FLAG_VIRTUAL)) {
		vr_vt_init();
		vr_stamp_create(MPI_COMM_WORLD);
	}
	/* The default timer slack (50 us) would make every deadline late. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	start_account(vr_seg.rank);
}

void vr_emu_finalizing(void)
{
	if (vr_seg.shm != NULL)
		atomic_store(&vr_seg.rank->finalize_called, 1);
}

void vr_emu_finalize(void)
{
	vr_account_finalize();
	if (vr_seg.shm != NULL)
		atomic_store(&vr_seg.rank->finalized, 1);
	if (vr_virtual())
		vr_order_done();   /* books nothing more: holds no one back */
}

void vr_exit(void)
{
	vr_account_exit();
	if (!vr_seg.emulating)
		return;
	seg_cpu = now_ns(CLOCK_THREAD_CPUTIME_ID);
	seg_wall = now_ns(CLOCK_MONOTONIC);
	seg_flop_ns = 0;
	seg_cpu_excluded = 0;
	if (vr_virtual())
		vr_order_computing(1);
}

int vr_flop_model(double *mflops)
{
	if (!vr_seg.emulating || !(vr_seg.machine->mflops > 0))
		return 0;
	*mflops = vr_seg.machine->mflops;
	return 1;
}

int vr_skip_compute(void)
{
	return vr_seg.emulating && (vr_seg.shm->flags & VR_FLAG_SKIP) != 0;
}

void vr_charge_flops(double flops, unsigned long long cpu_ns)
{
	/* flops / (Mflop/s x 1e6) seconds, in ns; a worker thread's BLAS are
	 * the rank's work too, but not the MPI thread's CPU time */
	atomic_fetch_add(&seg_flop_ns, (unsigned long long)llround(flops / vr_seg.machine->mflops * 1e3));
	if (!vr_foreign_thread())
		seg_cpu_excluded += cpu_ns;
}

void vr_charge_ns(unsigned long long ns)
{
	if (vr_seg.emulating)
		seg_flop_ns += ns;
}

static unsigned long ncalls;

unsigned long vr_calls(void)
{
	return ncalls;
}

/* The compute segment that ends: charged to the machine (real clock: slept
 * off; virtual clock: booked on the rank's clock). */
static void charge_segment(void)
{
	if (vr_virtual())
		vr_order_computing(0);
	unsigned long long cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - seg_cpu;
	unsigned long long rest = cpu > seg_cpu_excluded ? cpu - seg_cpu_excluded : 0;
	if (vr_seg.shm->flags & VR_FLAG_FLOPS_ONLY)
		rest = 0;   /* emulate: {cpu_time: false}: only the flop models */
	unsigned long long cpu_work = vproc_emu_work(rest, vr_seg.machine->scale);
	unsigned long long work = cpu_work + seg_flop_ns;
	atomic_fetch_add(&vr_seg.machine->cpu_work_ns, cpu_work);
	if (vr_virtual()) { /* the rank's clock books the machine; nothing sleeps */
		vr_vt_compute(work);
		atomic_fetch_add(&vr_seg.machine->work_ns, work);
		atomic_fetch_add(&vr_seg.rank->cpu_ns, cpu);
		atomic_fetch_add(&vr_seg.rank->work_ns, work);
		return;
	}
	unsigned long long old = atomic_load(&vr_seg.machine->busy_until), end;
	do
		end = vproc_emu_charge(old, seg_wall, work);
	while (!atomic_compare_exchange_weak(&vr_seg.machine->busy_until, &old, end));
	atomic_fetch_add(&vr_seg.machine->work_ns, work);
	atomic_fetch_add(&vr_seg.rank->cpu_ns, cpu);
	atomic_fetch_add(&vr_seg.rank->work_ns, work);
	unsigned long long now = now_ns(CLOCK_MONOTONIC);
	if (now > end + vr_seg.shm->slack_ns) {
		atomic_fetch_add(&vr_seg.machine->overruns, 1);
		atomic_fetch_add(&vr_seg.machine->overrun_ns, now - end);
	} else if (now + VR_MIN_SLEEP_NS < end) {
		/* Shorter debts are not slept off: a sleep costs a wake-up
		 * (tens of us), more than the debt.  The machine's clock has
		 * booked them all the same, so the next segment starts after
		 * them and the next sleep pays them. */
		sleep_until(end);
	}
}

/* The emulation keeps one compute segment per rank, measured by the
 * CPU time of the thread that called MPI_Init: a call from another thread
 * would charge a segment it did not start (two threads once slept for
 * centuries on a wrapped-around deadline).  MPI_Init_thread says
 * MPI_THREAD_FUNNELED; a program that calls from another thread anyway
 * is ended, said, rather than left to hang. */
static void check_thread(const char *call)
{
	char what[160];
	if (!vr_foreign_thread())
		return;
	snprintf(what, sizeof what, "%s from a thread that did not initialise MPI: under "
	         "emulation the runtime provides MPI_THREAD_FUNNELED", call);
	die(what);
}

void vr_enter_call(const char *call)
{
	ncalls++;
	if (vr_seg.emulating)
		check_thread(call);
	if (vr_virtual())
		vr_order_call(call);   /* the stall watchdog's diagnosis */
	if (vr_seg.emulating)
		charge_segment();
	vr_account_enter(call);   /* after the charge: its sleep or booking is compute */
}

/* network: links: sleep bytes x link[me][peer]; both directions are this
 * machine's own cost (sent: the link to peer; received: the link back). */
static void link_delay(int peer, unsigned long long bytes, int sent)
{
	if (vr_seg.machine_index >= VR_MAX_LINKED || peer < 0 || peer >= VR_MAX_LINKED)
		return;
	double ns = (double)bytes * vr_seg.shm->link_ns_per_byte[vr_seg.machine_index * VR_MAX_LINKED + peer];
	if (!(ns > 0.0))
		return;
	unsigned long long now = now_ns(CLOCK_MONOTONIC), d = (unsigned long long)llround(ns);
	if (sent) {
		atomic_fetch_add(&vr_seg.machine->messages, 1);
		atomic_fetch_add(&vr_seg.machine->bytes, bytes);
	}
	atomic_fetch_add(&vr_seg.machine->wire_ns, d);
	sleep_until(now + d);
}

void vr_recv_delay(MPI_Comm comm, MPI_Status *st)
{
	if (vr_seg.emulating && vr_virtual()) {
		vr_vt_recv(comm, st);
		return;
	}
	if (!vr_seg.emulating || !(vr_seg.shm->flags & VR_FLAG_LINKS) || st->MPI_SOURCE < 0)
		return;
	int w = vr_world_rank(comm, st->MPI_SOURCE), n = 0;
	if (w < 0 || (unsigned)w >= vr_seg.shm->nranks || vr_seg.shm->rank_machine[w] == vr_seg.machine_index)
		return;
	if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n <= 0)
		return;
	link_delay(vr_seg.shm->rank_machine[w], (unsigned long long)n, 0);
}

int vr_send_delay(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type)
{
	if (vr_seg.emulating && vr_virtual())
		return vr_vt_send(comm, dest, tag, count, type);
	if (!vr_seg.emulating || dest == MPI_PROC_NULL || count <= 0)
		return 0;
	int w = vr_world_rank(comm, dest);
	if (w < 0 || (unsigned)w >= vr_seg.shm->nranks || vr_seg.shm->rank_machine[w] == vr_seg.machine_index)
		return 0;
	int tsize = 0;
	PMPI_Type_size(type, &tsize);
	unsigned long long bytes = (unsigned long long)count * (unsigned long long)tsize;
	if (vr_seg.shm->flags & VR_FLAG_LINKS) {
		link_delay(vr_seg.shm->rank_machine[w], bytes, 1);
		return 0;
	}
	int bus = (vr_seg.shm->flags & VR_FLAG_BUS) != 0;
	_Atomic unsigned long long *port = bus ? &vr_seg.shm->bus_free : &vr_seg.machine->port_free;
	double lat = bus ? vr_seg.shm->bus_latency_ns : vr_seg.machine->latency_ns;
	double bw = bus ? vr_seg.shm->bus_bytes_per_s : vr_seg.machine->bytes_per_s;
	if (lat <= 0.0 && bw <= 0.0)
		return 0;
	unsigned long long now = now_ns(CLOCK_MONOTONIC);
	unsigned long long old = atomic_load(port), nfree, arrival;
	do
		arrival = vproc_emu_send(old, now, (unsigned long long)lat, bw, bytes, &nfree);
	while (!atomic_compare_exchange_weak(port, &old, nfree));
	atomic_fetch_add(&vr_seg.machine->messages, 1);
	atomic_fetch_add(&vr_seg.machine->bytes, bytes);
	atomic_fetch_add(&vr_seg.machine->wire_ns, nfree - (old > now ? old : now));
	sleep_until(arrival);
	return 0;
}

/* The program's clock reads, on the virtual clock (vclock.c) but
 * entering and leaving the runtime as the MPI calls do (here, above it).
 * The program's clock reads (MPI_Wtime, clock_gettime, gettimeofday).
 * A program that polls its clock with nothing between the reads (a timer
 * calibration, STREAM's checktick, `while (MPI_Wtime() < t)`) charges
 * nothing while it spins when only the flop models move the clock
 * (emulate: {cpu_time: false}), and would wait for ever.  So does a loop
 * whose MPI calls cost nothing on that model -- hpcc's LatencyBandwidth
 * lengthens a loop of ping-pongs between ranks of one machine (whose
 * messages arrive at the sender's clock) until it lasts ten clock ticks.
 * So a read that finds the clock where the last read left it charges a
 * tick of compute first: 1 ns, doubling each time it happens again in a
 * row, up to 1 ms.  Reads are then strictly monotonic, a loop that waits
 * for the clock to change sees it change at once, and a wait for any time
 * ends after a few dozen reads.  The tick is compute booked on the machine
 * like any other (the spinning rank holds its processor), so runs stay
 * deterministic; a program whose clock moves between two reads (any
 * charged compute, any message from another machine) never pays one, and
 * its next tick starts again from 1 ns. */
#define POLL_TICK_MAX_NS 1000000ull

unsigned long long vr_vt_read(const char *call)
{
	static unsigned long long last_read = ~0ull, tick;
	vr_enter_call(call);   /* the compute before the read is charged first */
	if (vr_vt_ns() == last_read) {
		tick = tick == 0 ? 1 : tick < POLL_TICK_MAX_NS / 2 ? 2 * tick : POLL_TICK_MAX_NS;
		vr_exit();   /* the tick is compute, charged as the next segment's */
		vr_charge_ns(tick);
		vr_enter_call(call);
	} else {
		tick = 0;
	}
	unsigned long long t = last_read = vr_vt_ns();
	vr_exit();
	return t;
}
