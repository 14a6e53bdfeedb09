/*
 * sections.c -- kernel: hpl without the rest of hpcc.  Debian's hpcc runs
 * HPL as the last of its sixteen sections (hpcc 1.5.0, src/hpcc.c), and its
 * input has no switch for the others (io.c, HPCC_Init, sets every Run*
 * flag to 1): a user who asked for HPL would wait for RandomAccess, PTRANS,
 * FFT and the rest first -- minutes under the emulator, where
 * MPIRandomAccess's storm of small messages is ordered one by one.
 *
 * hpcc is not changed.  Its rank 0 writes "Begin of NAME section." to
 * hpccoutf.txt before each benchmark (bindings/stdio.c passes us the
 * program's writes), and the benchmarks below check their main allocation
 * on every rank together before any other work (an MPI_Allreduce of the
 * failures: MPIRandomAccess.c, MPIRandomAccessLCG.c, PTRANS's
 * pdtransdriver.c), then skip cleanly with "Failed to allocate ...".  So while rank 0 is inside one of them, the runtime
 * refuses rank 0 the large allocations hpcc itself makes, and every rank
 * skips the benchmark.  The other sections (the Star and Single ones,
 * which each rank runs alone, and LatencyBandwidth) do not check together
 * -- StarSTREAM's ranks would wait in a barrier for rank 0 -- and run as
 * they are: local work, seconds at most.  Nor does MPIFFT: its plan
 * allocates first and a rank without one leaves at once, while the others
 * wait for it in the MPI_Allreduce after their own allocations.
 *
 * On only when the launcher asks (HETLAUNCH_HPCC_RUN: the sections to run,
 * comma-separated; hpl: {all_benchmarks: true} leaves it unset).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "core.h"

/* Sections a refused allocation on rank 0 skips on every rank. */
static const char *const skippable[] = { "MPIRandomAccess", "MPIRandomAccess_LCG", "PTRANS" };
/* Smaller allocations (a status array, a file buffer) are left alone. */
#define REFUSE_MIN_BYTES 16384

static int state = -1;   /* -1 not read yet, 0 off, 1 on */
static const char *run_list;
static int refusing;

int vr_sections_on(void)
{
	if (state < 0) {
		run_list = getenv("HETLAUNCH_HPCC_RUN");
		state = run_list != NULL && run_list[0] != '\0';
	}
	return state;
}

static int listed(const char *list, const char *name, size_t len)
{
	for (const char *s = list; *s;) {
		size_t l = strcspn(s, ",");
		if (l == len && strncmp(s, name, len) == 0)
			return 1;
		s += l + (s[l] == ',');
	}
	return 0;
}

static int is_skippable(const char *name, size_t len)
{
	for (size_t k = 0; k < sizeof skippable / sizeof *skippable; k++)
		if (strlen(skippable[k]) == len && strncmp(skippable[k], name, len) == 0)
			return 1;
	return 0;
}

void vr_section_seen(const char *text, size_t len)
{
	static const char begin[] = "Begin of ", end[] = "End of ", tail[] = " section.";
	if (len > sizeof end && strncmp(text, end, sizeof end - 1) == 0) {
		refusing = 0;
		return;
	}
	if (len <= sizeof begin || strncmp(text, begin, sizeof begin - 1) != 0)
		return;
	const char *name = text + sizeof begin - 1;
	const char *t = memmem(name, len - (sizeof begin - 1), tail, sizeof tail - 1);
	if (t == NULL)
		return;
	size_t n = (size_t)(t - name);
	refusing = is_skippable(name, n) && !listed(run_list, name, n);
}

/* Is `caller` code of the program itself (not of a library)? */
static int from_program(const void *caller)
{
	static void *program_base;
	Dl_info info;
	if (program_base == NULL) {
		if (!dladdr((void *)getauxval(AT_ENTRY), &info))
			return 0;
		program_base = info.dli_fbase;
	}
	return dladdr(caller, &info) && info.dli_fbase == program_base;
}

int vr_section_refuses(size_t bytes, const void *caller)
{
	return refusing && bytes >= REFUSE_MIN_BYTES && from_program(caller);
}
