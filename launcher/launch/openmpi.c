/*
 * openmpi.c -- see openmpi.h.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "openmpi.h"
#include "slurm.h"
#include "util/fsutil.h"
#include "kernels/testers.h"

/* Debian's scalapack-mpi-test ships each tester for both MPIs, in
 * .../scalapack/mpich-tests and .../scalapack/openmpi-tests. */
#define OPENMPI_TESTER_DIR "/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests"

int hl_openmpi_program(const hl_kernel_def *row, char *out, size_t len, char *err, size_t errlen)
{
	size_t ntester = strlen(HL_TESTER_DIR);
	if (row->program == NULL) {
		snprintf(err, errlen, "kernel %s: no program", row->name);
		return -1;
	}
	if (!row->beside_binary) {   /* a stock tester: the openmpi-tests build */
		if (strncmp(row->program, HL_TESTER_DIR, ntester) != 0 ||
		    snprintf(out, len, "%s%s", OPENMPI_TESTER_DIR, row->program + ntester) >= (int)len) {
			snprintf(err, errlen, "kernel %s: no Open MPI build of %s", row->name, row->program);
			return -1;
		}
		return 0;
	}
	/* lib/hetlaunch/hl-driver -> lib/hetlaunch/openmpi/hl-driver */
	const char *base = strrchr(row->program, '/');
	char rel[PATH_MAX];
	snprintf(rel, sizeof rel, "%.*s/openmpi%s", base ? (int)(base - row->program) : 0,
	         row->program, base ? base : row->program);
	if (hl_beside_binary(NULL, rel, 1, out, len) != 0) {
		snprintf(err, errlen, "cannot find %s, the Open MPI build of %s", out[0] ? out : rel,
		         row->program);
		return -1;
	}
	return 0;
}

const char *hl_mpi_runtime(const hl_config *cfg)
{
	return cfg->mpi == HL_MPI_OPENMPI ? "lib/hetlaunch/openmpi/libhetlaunch-rt.so"
	                                   : "lib/hetlaunch/libhetlaunch-rt.so";
}

typedef struct {
	char **v;
	size_t n, cap;
	int bad;
} strv;

/* Append `owned` (NULL: out of memory); a failure sticks in s->bad. */
static void push(strv *s, char *owned)
{
	if (owned == NULL || s->bad) {
		free(owned);
		s->bad = 1;
		return;
	}
	if (s->n + 2 > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 32;
		char **v = realloc(s->v, cap * sizeof *v);
		if (v == NULL) {
			free(owned);
			s->bad = 1;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = owned;
	s->v[s->n] = NULL;
}

static void words(strv *s, const char *const *w)
{
	for (; *w; w++)
		push(s, strdup(*w));
}

static char *assign(const char *name, const char *value)
{
	char *str = NULL;
	return asprintf(&str, "%s=%s", name, value) < 0 ? NULL : str;
}

int hl_openmpi_argv(char *const *hydra, size_t nprefix, const hl_config *cfg,
                    const char *rankfile, char ***argv)
{
	strv a = { 0 }, env = { 0 };
	const char *ntasks = NULL;
	int hostfile = 0;
	size_t i = nprefix;
	while (hydra[i] && hydra[i][0] == '-' && !a.bad) {
		if (strcmp(hydra[i], "-f") == 0 && hydra[i + 1]) {
			hostfile = 1;
			i += 2;
		} else if (strcmp(hydra[i], "-n") == 0 && hydra[i + 1]) {
			ntasks = hydra[i + 1];
			i += 2;
		} else if (strcmp(hydra[i], "-genv") == 0 && hydra[i + 1] && hydra[i + 2]) {
			/* In a Slurm allocation, mpirun starts its daemons with srun
			 * and passes on only what -x names: a rank's SLURMD_NODENAME
			 * is its node's (measured; Hydra, which passes on everything,
			 * is another story: slurm.h). */
			int node = strcmp(hydra[i + 1], "HETLAUNCH_PLACEMENT") == 0 &&
			           getenv("SLURM_JOB_ID") != NULL;
			push(&env, assign(hydra[i + 1], node ? "slurm" : hydra[i + 2]));
			i += 3;
		} else {
			a.bad = 1;   /* -rankmap and the like: not a command we translate */
		}
	}
	a.bad |= env.bad || ntasks == NULL || hydra[i] == NULL;
	if (cfg->mpiexec)
		for (size_t k = 0; k < cfg->nmpiexec; k++)
			push(&a, strdup(cfg->mpiexec[k]));
	else
		push(&a, strdup("mpirun"));
	if (geteuid() == 0)   /* Open MPI refuses root without it */
		push(&a, strdup("--allow-run-as-root"));
	push(&a, strdup("-np"));
	push(&a, strdup(ntasks ? ntasks : ""));
	if (hostfile) {
		/* The rankfile places and binds every rank (README "Host files"):
		 * no --map-by or --bind-to beside it. */
		push(&a, strdup("--rankfile"));
		push(&a, strdup(rankfile));
		/* In a Slurm allocation a node's slots are the CPUs allocated on
		 * it; the plan may start more processes there. */
		if (getenv("SLURM_JOB_ID") != NULL)
			push(&a, strdup("--oversubscribe"));
	} else {
		/* Emulation: every rank here, more ranks than cores, none bound. */
		words(&a, (const char *const[]){ "--oversubscribe", "--bind-to", "none", NULL });
	}
	/* Open MPI's own waiting yields too (the runtime's comes first). */
	words(&a, (const char *const[]){ "--mca", "mpi_yield_when_idle", "1", NULL });
	for (size_t k = 0; k < env.n; k++) {
		push(&a, strdup("-x"));
		push(&a, strdup(env.v[k]));
	}
	for (; hydra[i]; i++)
		push(&a, strdup(hydra[i]));
	hl_strv_free(env.v);
	if (a.bad) {
		hl_strv_free(a.v);
		return -1;
	}
	*argv = a.v;
	return 0;
}

#define ABORT_NOTICE "MPI_ABORT was invoked on rank "

const char *hl_openmpi_abort_line(const char *log, int *rank)
{
	const char *s = strstr(log, ABORT_NOTICE);
	if (s)
		*rank = atoi(s + strlen(ABORT_NOTICE));
	return s;
}

int hl_openmpi_failure(const char *log, char *msg, size_t len)
{
	const char *s;
	int rank;
	if (log == NULL)
		return 0;
	if ((s = hl_openmpi_abort_line(log, &rank)) != NULL)
		snprintf(msg, len, "a rank called MPI_Abort: %.*s", (int)strcspn(s, "\n"), s);
	else if ((s = strstr(log, "mpirun noticed that process rank")) != NULL)
		snprintf(msg, len, "a rank died: %.*s", (int)strcspn(s, "\n"), s);
	else if ((s = strstr(log, "ORTE_ERROR_LOG")) != NULL && strstr(s, "show_help.c"))
		/* Open MPI 4.1.4 loses its own notice (MPI_ABORT, ...) in about
		 * half of the runs, with or without the runtime (measured 5 of 10
		 * without): say what is left. */
		snprintf(msg, len, "a rank failed, and Open MPI lost its notice of how (%.*s); "
		         "mpirun's exit status is the rank's error code", (int)strcspn(s, "\n"), s);
	else
		return 0;
	return 1;
}
