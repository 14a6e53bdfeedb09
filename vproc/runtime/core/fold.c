/*
 * fold.c -- memory folding under emulate: {compute: skip}: a large
 * allocation is address space whose pages all map one small shared buffer
 * (a memfd mapped again and again, MAP_SHARED), so a matrix of any order
 * costs a few megabytes.  The idea is SMPI's SMPI_SHARED_MALLOC (SimGrid),
 * done here under unmodified programs: the BLAS that would read the values
 * are not run, so the values are garbage anyway (blas.c).  The allocator
 * interposers (../bindings/alloc.c) ask vr_fold_alloc first.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core.h"
#include "model/shm_layout.h"

#define FOLD_CHUNK VR_FOLD_CHUNK          /* the shared buffer, mapped per 2 MiB */
#define FOLD_MAX 4096                     /* live folded blocks */
#define FOLD_KEPT 8                       /* freed blocks kept mapped */

typedef struct { uintptr_t base; size_t len, bytes; } fold_block;

/* Freed blocks stay mapped for the next large allocation that fits: a
 * fresh mapping faults on every 4 KiB page it touches.  ScaLAPACK's LU
 * allocates and frees a panel-sized buffer every step, so a 256-rank LU
 * (n = 8192, 1 x 256) took 27 million minor faults, about a third of the
 * run's processor time, most of them inside MPI's copies. */
static fold_block kept[FOLD_KEPT];
static size_t nkept;

static vr_shm *fold_shm;
static int fold_fd = -1;
static size_t fold_min;
static atomic_flag fold_lock = ATOMIC_FLAG_INIT;
static fold_block blocks[FOLD_MAX];
static size_t nblocks;
static uintptr_t lo = UINTPTR_MAX, hi;    /* every block lies in [lo, hi) */

void vr_fold_init(void *segment)
{
	vr_shm *s = segment;
	const char *env = getenv("HETLAUNCH_FOLD_MIN");
	size_t min = env ? (size_t)strtoull(env, NULL, 10) : VR_FOLD_MIN_DEFAULT;
	if (min == 0)
		return;   /* HETLAUNCH_FOLD_MIN=0: no folding (for measuring) */
	int fd = memfd_create("hetlaunch-fold", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)FOLD_CHUNK) < 0) {
		if (fd >= 0)
			close(fd);
		return;   /* nothing folded: the run only needs more memory */
	}
	fold_fd = fd;
	fold_shm = s;
	fold_min = min < VR_FOLD_MIN_LEAST ? VR_FOLD_MIN_LEAST : min;
}

/* The MPI stack's buffers hold its own state (queues, requests): never
 * folded.  The program's, its libraries' and this runtime's (buffered
 * sends: data only) are. */
static int caller_foldable(const void *ret)
{
	Dl_info info;
	if (!dladdr(ret, &info) || info.dli_fname == NULL)
		return 1;
	const char *b = strrchr(info.dli_fname, '/');
	b = b ? b + 1 : info.dli_fname;
	static const char *const mpi_stack[] = { "libmpi", "libuc", "libpmi", "libhwloc",
	                                         "libfabric", "libopen-", "libpmix", "libevent",
	                                         "ld-linux", "libc.so" };
	for (size_t k = 0; k < sizeof mpi_stack / sizeof *mpi_stack; k++)
		if (strncmp(b, mpi_stack[k], strlen(mpi_stack[k])) == 0)
			return 0;
	return 1;
}

/* Reserve len bytes, then map the shared buffer over them chunk by chunk. */
static void *map_folded(size_t len)
{
	char *base = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	for (size_t off = 0; off < len; off += FOLD_CHUNK) {
		size_t n = len - off < FOLD_CHUNK ? len - off : FOLD_CHUNK;
		if (mmap(base + off, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fold_fd, 0) ==
		    MAP_FAILED) {
			munmap(base, len);
			return NULL;
		}
	}
	return base;
}

static void count(long long bytes)
{
	if (bytes < 0) {
		atomic_fetch_sub(&fold_shm->folded_live, (unsigned long long)-bytes);
		return;
	}
	unsigned long long live = atomic_fetch_add(&fold_shm->folded_live,
	                                           (unsigned long long)bytes) + (unsigned long long)bytes;
	unsigned long long peak = atomic_load(&fold_shm->folded_peak);
	while (live > peak && !atomic_compare_exchange_weak(&fold_shm->folded_peak, &peak, live))
		;
	atomic_fetch_add(&fold_shm->folded_count, 1);
}

/* The smallest kept block of at least len bytes, taken out of kept
 * ({0} if none).  Under the lock. */
static fold_block take_kept(size_t len)
{
	size_t best = nkept;
	for (size_t i = 0; i < nkept; i++)
		if (kept[i].len >= len && (best == nkept || kept[i].len < kept[best].len))
			best = i;
	if (best == nkept)
		return (fold_block){ 0, 0, 0 };
	fold_block b = kept[best];
	kept[best] = kept[--nkept];
	return b;
}

/* Keep a freed block mapped, in place of the smallest kept one if all
 * places are taken; returns the block to unmap ({0}: none).  Under the lock. */
static fold_block keep(fold_block b)
{
	if (nkept < FOLD_KEPT) {
		kept[nkept++] = b;
		return (fold_block){ 0, 0, 0 };
	}
	size_t small = 0;
	for (size_t i = 1; i < nkept; i++)
		if (kept[i].len < kept[small].len)
			small = i;
	if (kept[small].len >= b.len)
		return b;
	fold_block out = kept[small];
	kept[small] = b;
	return out;
}

/* Register a live block; 0 if there are too many. */
static int add_block(fold_block b)
{
	while (atomic_flag_test_and_set(&fold_lock))
		;
	int ok = nblocks < FOLD_MAX;
	if (ok) {
		blocks[nblocks++] = b;
		lo = b.base < lo ? b.base : lo;
		hi = b.base + b.len > hi ? b.base + b.len : hi;
	}
	atomic_flag_clear(&fold_lock);
	return ok;
}

/* A block of len bytes: a kept one, else a new mapping ({0}: none). */
static fold_block obtain(size_t len)
{
	while (atomic_flag_test_and_set(&fold_lock))
		;
	fold_block b = take_kept(len);
	atomic_flag_clear(&fold_lock);
	if (b.base != 0) {
		atomic_fetch_add(&fold_shm->folded_reused, 1);
		return b;
	}
	void *p = map_folded(len);
	return p ? (fold_block){ (uintptr_t)p, len, 0 } : (fold_block){ 0, 0, 0 };
}

static size_t page_up(size_t len)
{
	size_t page = 4096;
	return (len + page - 1) / page * page;
}

/* A new live block of at least len bytes, counted as bytes; its base, or 0. */
static uintptr_t new_block(size_t len, size_t bytes)
{
	fold_block b = obtain(page_up(len));
	if (b.base == 0)
		return 0;
	b.bytes = bytes;
	if (!add_block(b)) {
		munmap((void *)b.base, b.len);
		return 0;
	}
	count((long long)bytes);
	return b.base;
}

void *vr_fold_alloc(size_t bytes, const void *caller)
{
	static _Thread_local int inside;   /* dladdr's own allocations */
	if (fold_fd < 0 || bytes < fold_min || inside || nblocks >= FOLD_MAX)
		return NULL;
	inside = 1;
	int ok = caller_foldable(caller);
	inside = 0;
	return ok ? (void *)new_block(bytes, bytes) : NULL;
}

/* The folded block at p: its index, or -1 (then p is libc's).  Under the lock. */
static long find(uintptr_t p)
{
	for (size_t i = 0; i < nblocks; i++)
		if (blocks[i].base == p)
			return (long)i;
	return -1;
}

size_t vr_fold_size(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	if (a < lo || a >= hi)
		return 0;
	while (atomic_flag_test_and_set(&fold_lock))
		;
	long i = find(a);
	size_t n = i < 0 ? 0 : blocks[i].bytes;
	atomic_flag_clear(&fold_lock);
	return n;
}

/* The base of the folded block that holds [a, a + len), or 0. */
static uintptr_t holding(uintptr_t a, size_t len)
{
	if (a < lo || a >= hi || len > hi - a)
		return 0;
	while (atomic_flag_test_and_set(&fold_lock))
		;
	uintptr_t base = 0;
	for (size_t i = 0; i < nblocks && base == 0; i++)
		if (a >= blocks[i].base && a + len <= blocks[i].base + blocks[i].len)
			base = blocks[i].base;
	atomic_flag_clear(&fold_lock);
	return base;
}

int vr_fold_holds(const void *p, size_t len)
{
	return holding((uintptr_t)p, len) != 0;
}

void vr_fold_unpacked(size_t bytes)
{
	if (fold_shm != NULL)
		atomic_fetch_add(&fold_shm->unpacked_bytes, bytes);
}

/* Data the program never reads (VR_FLAG_DATA_UNREAD: hl-driver, whose
 * values under skip are garbage it branches on nowhere) needs no bytes
 * on the wire at all, only its count in the stamp (vclock.c): UCX's copy
 * of a 1-2 MB panel from its sender (process_vm_readv) was on every ring
 * hop's critical path, 15% of the samples of the 256-rank LU at n = 8192,
 * whose wall time fell from 114-119 s to 85 s without it. */
int vr_fold_unread(const void *p, size_t len)
{
	return fold_shm != NULL && (fold_shm->flags & VR_FLAG_DATA_UNREAD) && vr_fold_holds(p, len);
}

void vr_fold_elided(size_t bytes)
{
	vr_fold_unpacked(bytes);
	atomic_fetch_add(&fold_shm->elided_bytes, bytes);
}

/* Every block maps the shared buffer from its start, FOLD_CHUNK after
 * FOLD_CHUNK, so a byte's page is fixed by its offset in its block
 * modulo FOLD_CHUNK: a new block, entered at p's offset, holds p's very
 * bytes, copied by no one. */
void *vr_fold_alias(const void *p, size_t len, void **block)
{
	uintptr_t a = (uintptr_t)p, base = holding(a, len);
	if (base == 0)
		return NULL;
	size_t off = (a - base) % FOLD_CHUNK;
	size_t need = page_up(off + len);
	uintptr_t b = new_block(need, need);
	if (b == 0)
		return NULL;
	vr_fold_unpacked(len);
	*block = (void *)b;
	return (char *)b + off;
}

int vr_fold_free(void *p)
{
	uintptr_t a = (uintptr_t)p;
	if (a < lo || a >= hi)
		return 0;
	while (atomic_flag_test_and_set(&fold_lock))
		;
	long i = find(a);
	fold_block b = { 0, 0, 0 }, out = { 0, 0, 0 };
	if (i >= 0) {
		b = blocks[i];
		blocks[i] = blocks[--nblocks];
		out = keep(b);
	}
	atomic_flag_clear(&fold_lock);
	if (i < 0)
		return 0;
	if (out.base != 0)
		munmap((void *)out.base, out.len);
	count(-(long long)b.bytes);
	return 1;
}
