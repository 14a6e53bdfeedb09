/*
 * emulation.c -- see emulation.h.  The arithmetic is vproc/model/emulate.c; this
 * module measures, creates the segment, and reads it back.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "emulation.h"
#include "kernels/kernels.h"
#include "layouts/layout_ring.h"
#include "model/shm_layout.h"
#include "spawn.h"
#include "util/now.h"
#include "model/model.h"

/* Reference BLAS, Fortran calling convention. */
extern void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
                   const double *alpha, const double *a, const int *lda, const double *b,
                   const int *ldb, const double *beta, double *c, const int *ldc);

/* The shape of LU's and QR's trailing updates (n x nb times nb x n with
 * nb = 32): the emulated machines' DGEMMs are charged by their flops at
 * their speed, so this computer must run that shape faster than they do. */
enum { HOST_M = 256, HOST_K = 32 };

double hl_host_mflops(void)
{
	/* HETLAUNCH_HOST_MFLOPS: a fixed value instead of the measurement,
	 * so that runs on a loaded computer charge CPU time at the same
	 * rate (the measurement varied 2.2-5.4 Gflop/s under other load),
	 * and runs to be compared (run --adapt against a reference run)
	 * share one figure. */
	const char *fixed = getenv("HETLAUNCH_HOST_MFLOPS");
	if (fixed != NULL) {
		char *end;
		double v = strtod(fixed, &end);
		if (end != fixed && *end == '\0' && v > 0 && isfinite(v))
			return v;
	}
	static double a[HOST_M * HOST_K], b[HOST_K * HOST_M], c[HOST_M * HOST_M];
	for (int i = 0; i < HOST_M * HOST_K; i++) {
		a[i] = (double)(i % 7) - 3.0;
		b[i] = (double)(i % 5) * 0.5;
	}
	const int m = HOST_M, k = HOST_K;
	const double one = 1.0;
	/* one warm-up, then repeat until 0.3 s: the median rate of the runs */
	dgemm_("N", "N", &m, &m, &k, &one, a, &m, b, &k, &one, c, &m);
	double t_start = hl_now();
	double rates[256];
	int n = 0;
	while (n < 256 && (hl_now() - t_start < 0.3 || n < 5)) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		dgemm_("N", "N", &m, &m, &k, &one, a, &m, b, &k, &one, c, &m);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		if (s > 0)
			rates[n++] = 2.0 * HOST_M * HOST_M * HOST_K / s / 1e6;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && rates[j - 1] > rates[j]; j--) {
			double x = rates[j];
			rates[j] = rates[j - 1];
			rates[j - 1] = x;
		}
	return n ? rates[n / 2] : 0.0;
}

/* network: links (layout: ring, paper 004): machine i sending H Mbit to j
 * costs H c_ij in the model's time, which the emulation runs 1/K as fast
 * (a machine of cycle time t runs at K/t Mflop/s): c_ij / K seconds per
 * 125000 bytes. */
static void set_links(const hl_config *cfg, double K, vr_shm *s)
{
	const double *c = hl_ring_links(cfg);
	size_t p = cfg->nmachines;
	if (!c || !(K > 0))
		return;
	s->flags |= VR_FLAG_LINKS;
	for (size_t i = 0; i < p; i++)
		for (size_t j = 0; j < p; j++)
			s->link_ns_per_byte[i * VR_MAX_LINKED + j] = i == j ? 0.0 : c[i * p + j] / K * 1e9 / 125000.0;
}

static hl_emu *registered;   /* for atexit */

static void cleanup_at_exit(void)
{
	if (registered)
		hl_emu_destroy(registered);
}

/* Machine i's emulated speed: its emulate_mflops, or K / cycle_time. */
static double machine_mflops(const hl_emu *e, const hl_config *cfg, size_t i)
{
	const hl_machine *m = &cfg->machines[i];
	return m->emulate_mflops > 0 ? m->emulate_mflops : e->K / m->cycle_time;
}

/* /dev/shm/hetlaunch-PID-K of ours whose hetlaunch PID is gone: left by a
 * hetlaunch killed outright (SIGKILL runs no atexit).  Its job got SIGTERM
 * (spawn.c) and a mapping outlives the name, so unlinking hurts nobody. */
static void sweep_stale_segments(void)
{
	DIR *dir = opendir("/dev/shm");
	if (dir == NULL)
		return;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		long pid;
		unsigned k;
		char tail;
		struct stat st;
		if (sscanf(de->d_name, "hetlaunch-%ld-%u%c", &pid, &k, &tail) != 2 || pid <= 0 ||
		    pid == (long)getpid() || fstatat(dirfd(dir), de->d_name, &st,
		                                     AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != getuid())
			continue;
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			char name[300];
			snprintf(name, sizeof name, "/%s", de->d_name);
			shm_unlink(name);
		}
	}
	closedir(dir);
}

/* At most VR_MAX_* machines and processes fit the segment (shm_layout.h). */
static int check_limits(const hl_config *cfg, size_t nranks, char *err, size_t errlen)
{
	size_t p = cfg->nmachines;
	if (cfg->emu.links && p > VR_MAX_LINKED) {
		snprintf(err, errlen, "emulate: network: links emulates at most %d machines (this "
		         "plan: %zu)", VR_MAX_LINKED, p);
		return -1;
	}
	if (p > VR_MAX_MACHINES || nranks > VR_MAX_RANKS) {
		snprintf(err, errlen, "emulate: at most %d machines and %d processes on one "
		         "computer (this plan: %zu and %zu)", VR_MAX_MACHINES, VR_MAX_RANKS, p,
		         nranks);
		return -1;
	}
	return 0;
}

/* K and the scales from the cycle times t[] (vproc_emu_speeds); not
 * VPROC_OK when this computer is too slow for them. */
static vproc_status cycle_time_scales(const hl_config *cfg, double host_mflops, double tref,
                                      double *t, hl_emu *e)
{
	size_t p = cfg->nmachines;
	for (size_t i = 0; i < p; i++)
		t[i] = cfg->machines[i].cycle_time;
	vproc_status st = VPROC_OK;
	if (cfg->emulate)
		st = vproc_emu_speeds(p, t, host_mflops, e->cores, cfg->emu.mflops, tref,
		                      e->scale, &e->K);
	/* The virtual clock needs no real time to spare: machines
	 * faster than this computer are only charged less than their CPU time. */
	if (cfg->emulate && cfg->emu.virtual_clock && st != VPROC_OK && cfg->emu.mflops > 0) {
		e->K = cfg->emu.mflops * tref;
		for (size_t i = 0; i < p; i++)
			e->scale[i] = host_mflops * t[i] / e->K;
		st = VPROC_OK;
	}
	return st;
}

/* Per machine emulate_mflops (INTERFACE.md): its speed, whatever its
 * cycle_time says; scale = emulated seconds per CPU second. */
static int machine_scales(const hl_config *cfg, double host_mflops, hl_emu *e, char *err,
                          size_t errlen)
{
	for (size_t i = 0; i < cfg->nmachines; i++) {
		double mf = cfg->machines[i].emulate_mflops;
		if (mf > 0 && host_mflops / mf < 1.0 && !cfg->emu.virtual_clock) {
			snprintf(err, errlen, "%s: emulate_mflops %g is faster than this computer "
			         "(%.0f Mflop/s per core)", cfg->machines[i].name, mf, host_mflops);
			return -1;
		}
		if (mf > 0)
			e->scale[i] = host_mflops / mf;
	}
	return 0;
}

/* e->K, e->scale and e->chosen; -1 with *status 1 when out of memory,
 * left at 2 when this computer cannot emulate the speeds. */
static int choose_scales(const hl_config *cfg, double host_mflops, hl_emu *e, int *status,
                         char *err, size_t errlen)
{
	size_t p = cfg->nmachines;
	e->scale = calloc(p, sizeof *e->scale);
	double *t = calloc(p, sizeof *t);
	if (e->scale == NULL || t == NULL) {
		free(t);
		snprintf(err, errlen, "out of memory");
		*status = 1;
		return -1;
	}
	double tmin = hl_config_tmin(cfg), tref = hl_config_emulation_tref(cfg);
	e->chosen = !(cfg->emu.mflops > 0);
	vproc_status st = cycle_time_scales(cfg, host_mflops, tref, t, e);
	free(t);
	if (st == VPROC_OK && cfg->emulate && machine_scales(cfg, host_mflops, e, err, errlen) < 0)
		return -1;
	if (st != VPROC_OK) {
		snprintf(err, errlen, "emulate: mflops = %g at cycle_time %g makes the fastest "
		         "machine run at %.0f Mflop/s; this computer does %.0f Mflop/s per core, "
		         "so it cannot emulate it (lower mflops, or leave it out to have it chosen)",
		         cfg->emu.mflops, tref, cfg->emu.mflops * tref / tmin, host_mflops);
		return -1;
	}
	return 0;
}

/* A name of /dev/shm anyone may take first: another user who guesses our
 * PID, or our own leftover from a SIGKILL once the PID comes round again
 * (the sweep spares the PID it runs as).  So a taken name is passed over,
 * O_EXCL kept, for the next serial and then random ones (getrandom: not
 * to be guessed), in the form the sweep knows.  The descriptor, or -1. */
static int create_segment(hl_emu *e)
{
	static unsigned serial;
	unsigned k = serial++;
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 64; tries++) {
		snprintf(e->name, sizeof e->name, "/hetlaunch-%ld-%u", (long)getpid(), k);
		fd = shm_open(e->name, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
		if (fd < 0 && getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k)
			k = serial++;
	}
	return fd;
}

/* A new /dev/shm/hetlaunch-PID-K of sizeof(vr_shm) zero bytes, mapped;
 * NULL (and no name left behind) on failure. */
static void *open_segment(hl_emu *e, char *err, size_t errlen)
{
	int fd = create_segment(e);
	if (fd < 0) {
		snprintf(err, errlen, "shm_open %s: %s", e->name, strerror(errno));
		e->name[0] = '\0';
		return NULL;
	}
	if (ftruncate(fd, sizeof(vr_shm)) < 0) {
		snprintf(err, errlen, "ftruncate %s: %s", e->name, strerror(errno));
		close(fd);
		shm_unlink(e->name);
		e->name[0] = '\0';
		return NULL;
	}
	void *m = mmap(NULL, sizeof(vr_shm), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "mmap %s: %s", e->name, strerror(errno));
		shm_unlink(e->name);
		e->name[0] = '\0';
		return NULL;
	}
	return m;
}

/* The segment's flags; under the virtual clock its base: the
 * real and monotonic clocks now. */
static void set_flags(const hl_config *cfg, vr_shm *s)
{
	s->flags = (cfg->emu.bus ? VR_FLAG_BUS : 0) | (cfg->emulate ? VR_FLAG_EMULATE : 0);
	if (cfg->emulate && cfg->emu.no_cpu_time)
		s->flags |= VR_FLAG_FLOPS_ONLY;
	if (cfg->emulate && cfg->emu.skip_compute) {
		s->flags |= VR_FLAG_SKIP;
		/* the default program only: a program: of the user's may read anything */
		if (cfg->program == NULL && hl_kernel_row(cfg->kernel, cfg->stock)->data_unread)
			s->flags |= VR_FLAG_DATA_UNREAD;
	}
	if (cfg->emulate && cfg->emu.virtual_clock) {
		struct timespec rt, mt;
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &mt);
		s->flags |= VR_FLAG_VIRTUAL;
		s->real_base_ns = (unsigned long long)rt.tv_sec * 1000000000ull + (unsigned long long)rt.tv_nsec;
		s->mono_base_ns = (unsigned long long)mt.tv_sec * 1000000000ull + (unsigned long long)mt.tv_nsec;
	}
}

/* The network and each machine's speed and port, in the runtime's units. */
static void set_machines(const hl_config *cfg, const hl_emu *e, vr_shm *s)
{
	/* Mbit/s -> bytes/s; us -> ns */
	s->bus_latency_ns = cfg->emu.latency_us * 1e3;
	s->bus_bytes_per_s = cfg->emu.bandwidth_mbps * 1e6 / 8.0;
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const hl_machine *hm = &cfg->machines[i];
		s->machines[i].scale = e->scale[i];
		s->machines[i].mflops = cfg->emulate ? machine_mflops(e, cfg, i) : 0.0;
		s->machines[i].latency_ns =
			(hm->latency_us > 0 ? hm->latency_us : cfg->emu.latency_us) * 1e3;
		s->machines[i].bytes_per_s =
			(hm->bandwidth_mbps > 0 ? hm->bandwidth_mbps : cfg->emu.bandwidth_mbps) *
			1e6 / 8.0;
	}
}

/* What the runtime reads (runtime/model/shm_layout.h), into the zero-filled segment. */
static void fill_segment(const hl_config *cfg, const hl_ranks *r, const hl_emu *e, vr_shm *s)
{
	s->magic = VR_SHM_MAGIC;
	s->version = VR_SHM_VERSION;
	s->nmachines = (uint32_t)cfg->nmachines;
	s->nranks = (uint32_t)r->nranks;
	set_flags(cfg, s);
	s->slack_ns = 200000;   /* 0.2 ms: a scheduler tick's worth of lateness */
	set_machines(cfg, e, s);
	for (size_t k = 0; k < r->nranks; k++)
		s->rank_machine[k] = (int32_t)r->machine[k];
	if (cfg->emu.links)
		set_links(cfg, e->K, s);
}

int hl_emu_create(const hl_config *cfg, const hl_ranks *r, double host_mflops, hl_emu *e,
                  int *status, char *err, size_t errlen)
{
	memset(e, 0, sizeof *e);
	*status = 2;
	if (check_limits(cfg, r->nranks, err, errlen) < 0)
		return -1;
	long nc = sysconf(_SC_NPROCESSORS_ONLN);
	e->cores = nc > 0 ? (unsigned)nc : 1u;
	e->host_mflops = host_mflops;
	e->nmachines = cfg->nmachines;
	if (choose_scales(cfg, host_mflops, e, status, err, errlen) < 0)
		return -1;
	*status = 1;
	sweep_stale_segments();
	void *m = open_segment(e, err, errlen);
	if (m == NULL)
		return -1;
	e->shm = m;
	registered = e;
	static int once;
	if (!once++)
		atexit(cleanup_at_exit);
	fill_segment(cfg, r, e, m);
	*status = 0;
	return 0;
}

int hl_emu_check(const hl_config *cfg, size_t nranks, double host_mflops, char *err,
                 size_t errlen)
{
	hl_emu e;
	memset(&e, 0, sizeof e);
	int status = 2;
	long nc = sysconf(_SC_NPROCESSORS_ONLN);
	e.cores = nc > 0 ? (unsigned)nc : 1u;
	e.nmachines = cfg->nmachines;
	if (check_limits(cfg, nranks, err, errlen) < 0 ||
	    choose_scales(cfg, host_mflops, &e, &status, err, errlen) < 0) {
		free(e.scale);
		return status;
	}
	free(e.scale);
	return 0;
}

void hl_emu_print_speeds(const hl_emu *e, const hl_config *cfg)
{
	fprintf(stderr, "hetlaunch: this computer: %.0f Mflop/s per core (DGEMM 256x256x32), %u cores; "
	        "emulated speeds%s:", e->host_mflops, e->cores,
	        e->chosen ? " (chosen: the cluster asks at most half of it, a machine a quarter of a core)" : "");
	for (size_t i = 0; i < e->nmachines; i++)
		fprintf(stderr, " %s %.0f", cfg->machines[i].name, machine_mflops(e, cfg, i));
	fprintf(stderr, " Mflop/s\n");
}

void hl_emu_overruns(const hl_emu *e, double *fraction, int *flagged)
{
	const vr_shm *s = e->shm;
	unsigned long long work = 0, over = 0;
	for (size_t i = 0; s && i < e->nmachines; i++) {
		work += atomic_load(&s->machines[i].work_ns);
		over += atomic_load(&s->machines[i].overrun_ns);
	}
	*fraction = work ? (double)over / (double)work : 0.0;
	*flagged = *fraction > HL_OVERRUN_LIMIT;
}

const char *hl_emu_refusal(const hl_emu *e)
{
	vr_shm *s = e->shm;
	if (s == NULL || atomic_load(&s->refused) != 1)
		return NULL;
	s->refusal[sizeof s->refusal - 1] = '\0';
	return s->refusal;
}

int hl_emu_aborted(const hl_emu *e, hl_emu_abort *a)
{
	const vr_shm *s = e->shm;
	if (s == NULL || atomic_load(&s->aborted) != 1)
		return 0;
	*a = (hl_emu_abort){ s->abort_rank, s->abort_code, (double)s->abort_ns * 1e-9 };
	return 1;
}

size_t hl_emu_attached(const hl_emu *e)
{
	const vr_shm *s = e->shm;
	return s ? (size_t)atomic_load(&s->attached) : 0;
}

size_t hl_emu_finalized(const hl_emu *e)
{
	const vr_shm *s = e->shm;
	size_t n = 0;
	for (size_t k = 0; s && k < s->nranks; k++)
		n += atomic_load(&s->ranks[k].finalize_called) != 0;
	return n;
}

size_t hl_emu_unfinalized(const hl_emu *e, char *list, size_t len)
{
	const vr_shm *s = e->shm;
	size_t n = 0, at = 0;
	list[0] = '\0';
	for (size_t k = 0; s && k < s->nranks; k++) {
		const vr_rank *r = &s->ranks[k];
		if (atomic_load(&r->pid) == 0 || atomic_load(&r->finalize_called))
			continue;   /* never attached (not an MPI program), or finalized */
		if (at < len)
			at += (size_t)snprintf(list + at, len - at, n ? ", %zu" : "%zu", k);
		n++;
	}
	if (at >= len && len > 4)
		memcpy(list + len - 4, "...", 4);
	return n;
}

size_t hl_emu_rank_times(const hl_emu *e, size_t nranks, hl_rank_time *t)
{
	const vr_shm *s = e->shm;
	size_t got = 0;
	for (size_t k = 0; s && k < nranks && k < s->nranks; k++) {
		const vr_rank *r = &s->ranks[k];
		if (!atomic_load(&r->accounted))
			continue;
		t[k] = (hl_rank_time){ k, (double)r->compute_ns * 1e-9, (double)r->wait_ns * 1e-9 };
		got++;
	}
	return got;
}

void hl_emu_report(const hl_emu *e, const hl_config *cfg, jw *w, int *flagged,
                   double *fraction)
{
	const vr_shm *s = e->shm;
	unsigned long long overruns = 0;
	jw_obj(w);
	jw_key(w, "host_mflops"); jw_num(w, e->host_mflops);
	jw_key(w, "cores"); jw_uint(w, e->cores);
	jw_key(w, "K"); jw_num(w, e->K);
	jw_key(w, "speeds_chosen"); jw_bool(w, e->chosen);
	jw_key(w, "network");
	jw_str(w, cfg->emu.links ? "links" : cfg->emu.bus ? "bus" : "switch");
	jw_key(w, "attached"); jw_uint(w, s ? (size_t)atomic_load(&s->attached) : 0);
	jw_key(w, "clock"); jw_str(w, cfg->emu.virtual_clock ? "virtual" : "real");
	jw_key(w, "cpu_time"); jw_bool(w, !cfg->emu.no_cpu_time);
	jw_key(w, "compute"); jw_str(w, cfg->emu.skip_compute ? "skip" : "run");
	if (s && cfg->emu.skip_compute) {
		/* the runtime's allocator (core/fold.c): what the job's large
		 * allocations would have taken at once, how many there were,
		 * how many reused a freed block, the bytes sent from them
		 * without a copy (core/bsend.c), and of those the bytes not
		 * sent at all (VR_FLAG_DATA_UNREAD) */
		jw_key(w, "folded_bytes"); jw_uint(w, (size_t)atomic_load(&s->folded_peak));
		jw_key(w, "folded_allocations"); jw_uint(w, (size_t)atomic_load(&s->folded_count));
		jw_key(w, "folded_reused"); jw_uint(w, (size_t)atomic_load(&s->folded_reused));
		jw_key(w, "unpacked_bytes"); jw_uint(w, (size_t)atomic_load(&s->unpacked_bytes));
		jw_key(w, "elided_bytes"); jw_uint(w, (size_t)atomic_load(&s->elided_bytes));
	}
	if (s && cfg->emu.virtual_clock) {
		/* messages sent on a communicator the runtime could not stamp,
		 * and busy intervals lost to a full calendar (vproc/model/calendar.c) */
		unsigned long long dropped = s->bus_cal.dropped;
		for (size_t i = 0; i < e->nmachines; i++)
			dropped += s->cpu_cal[i].dropped + s->port_cal[i].dropped;
		jw_key(w, "unstamped"); jw_uint(w, (size_t)atomic_load(&s->unstamped));
		/* bookings that gave up waiting for virtual-time order
		 * (vproc/runtime/core/vorder.c): 0 for a deterministic run */
		jw_key(w, "out_of_order"); jw_uint(w, (size_t)atomic_load(&s->out_of_order));
		jw_key(w, "calendar_dropped"); jw_uint(w, (size_t)dropped);
	}
	jw_key(w, "machines");
	jw_arr(w);
	for (size_t i = 0; i < e->nmachines; i++) {
		const vr_machine *m = s ? &s->machines[i] : NULL;
		jw_obj(w);
		jw_key(w, "name"); jw_str(w, cfg->machines[i].name);
		jw_key(w, "mflops"); jw_num(w, machine_mflops(e, cfg, i));
		jw_key(w, "scale"); jw_num(w, e->scale[i]);
		if (m) {
			overruns += atomic_load(&m->overruns);
			jw_key(w, "compute_s"); jw_num(w, (double)atomic_load(&m->work_ns) * 1e-9);
			/* the part charged by scaled CPU time, not by a flop model */
			jw_key(w, "compute_cpu_s"); jw_num(w, (double)atomic_load(&m->cpu_work_ns) * 1e-9);
			jw_key(w, "overruns"); jw_uint(w, (size_t)atomic_load(&m->overruns));
			jw_key(w, "overrun_s"); jw_num(w, (double)atomic_load(&m->overrun_ns) * 1e-9);
			jw_key(w, "messages"); jw_uint(w, (size_t)atomic_load(&m->messages));
			jw_key(w, "bytes"); jw_uint(w, (size_t)atomic_load(&m->bytes));
			jw_key(w, "network_s"); jw_num(w, (double)atomic_load(&m->wire_ns) * 1e-9);
		}
		jw_end(w);
	}
	jw_end(w);
	hl_emu_overruns(e, fraction, flagged);
	jw_key(w, "overruns"); jw_uint(w, (size_t)overruns);
	jw_key(w, "overrun_fraction"); jw_num(w, *fraction);
	jw_key(w, "overrun_flagged"); jw_bool(w, *flagged);
	jw_end(w);
}

static double progress_interval(void)
{
	const char *v = getenv("HETLAUNCH_PROGRESS_S");   /* doc/format.md */
	double s = v ? strtod(v, NULL) : HL_EMU_PROGRESS_S;
	return s > 0 ? s : HL_EMU_PROGRESS_S;
}

/* An emulation of hundreds of ranks runs for minutes between the ranks'
 * placement lines and their results: the virtual clock of the rank that
 * is furthest behind says how far the job has come (the ranks past
 * MPI_Finalize aside). */
void hl_emu_progress(void *ctx, double elapsed)
{
	hl_emu *e = ctx;
	const vr_shm *s = e->shm;
	if (s == NULL || elapsed < e->next_progress + progress_interval())
		return;   /* the first line one interval in */
	e->next_progress = elapsed;
	size_t n = s->nranks, done = 0;
	if ((size_t)atomic_load(&s->attached) < n)
		return;   /* still starting */
	unsigned long long low = ~0ull;
	for (size_t r = 0; r < n; r++) {
		unsigned long long t = atomic_load(&s->rank_vt[r]);
		if (atomic_load(&s->ranks[r].finalized))
			done++;
		else if (t < low)
			low = t;
	}
	if (done < n)
		fprintf(stderr, "[%7.1fs] hetlaunch-progress: emulated %.6f s (the slowest rank), "
		        "%zu of %zu ranks finished\n", elapsed, (double)low / 1e9, done, n);
}

void hl_emu_destroy(hl_emu *e)
{
	const vr_shm *sh = e->shm;
	int all_attached = sh && sh->nranks > 0 &&
	                   (unsigned)atomic_load(&sh->attached) >= sh->nranks;
	if (e->shm) {
		munmap(e->shm, sizeof(vr_shm));
		e->shm = NULL;
	}
	/* Once every rank attached, the last one removed the name (the
	 * runtime's vr_emu_init): it may be someone else's by now. */
	if (e->name[0] && !all_attached) {
		shm_unlink(e->name);
		e->name[0] = '\0';
	}
	free(e->scale);
	e->scale = NULL;
	if (registered == e)
		registered = NULL;
}
