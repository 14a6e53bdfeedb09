/*
 * slurm.c -- see slurm.h.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm.h"

int hl_slurm_wanted(const hl_config *cfg)
{
	const char *job = getenv("SLURM_JOB_ID");
	const char *off = getenv("HETLAUNCH_SLURM");
	return job && job[0] && !(off && strcmp(off, "0") == 0) && !cfg->emulate &&
	       cfg->mpiexec == NULL && cfg->mpi == 0;   /* MPICH: srun --mpi=pmi2 */
}

typedef struct {
	char **v;
	size_t n, cap;
} strv;

static int push(strv *s, char *owned)
{
	if (owned == NULL)
		return -1;
	if (s->n + 2 > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		char **v = realloc(s->v, cap * sizeof *v);
		if (v == NULL) {
			free(owned);
			return -1;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = owned;
	s->v[s->n] = NULL;
	return 0;
}

static char *join(const char *a, const char *b)
{
	char *s = NULL;
	return asprintf(&s, "%s%s", a, b) < 0 ? NULL : s;
}

static char *assign(const char *name, const char *value)
{
	char *s = NULL;
	return asprintf(&s, "%s=%s", name, value) < 0 ? NULL : s;
}

void hl_strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

int hl_slurm_argv(char *const *hydra, const char *hostfile, const char *cpu_bind, char ***argv,
                  char ***env)
{
	strv a = { 0 }, e = { 0 };
	const char *ntasks = NULL, *preload = NULL;
	int bad = 0;
	size_t i = 1;
	/* Hydra's options up to the program: the ones hetlaunch writes. */
	while (hydra[i] && hydra[i][0] == '-' && !bad) {
		if (strcmp(hydra[i], "-f") == 0 && hydra[i + 1]) {
			i += 2;
		} else if (strcmp(hydra[i], "-n") == 0 && hydra[i + 1]) {
			ntasks = hydra[i + 1];
			i += 2;
		} else if (strcmp(hydra[i], "-genv") == 0 && hydra[i + 1] && hydra[i + 2]) {
			if (strcmp(hydra[i + 1], "LD_PRELOAD") == 0)
				preload = hydra[i + 2];
			else if (strcmp(hydra[i + 1], "HETLAUNCH_PLACEMENT") == 0)
				/* srun starts each rank: its SLURMD_NODENAME is its own. */
				bad |= push(&e, assign(hydra[i + 1], "slurm"));
			else
				bad |= push(&e, assign(hydra[i + 1], hydra[i + 2]));
			i += 3;
		} else {
			bad = 1;   /* -rankmap and the like: not a command we translate */
		}
	}
	bad |= ntasks == NULL || hydra[i] == NULL;
	/* srun's --export list is comma separated: a path with a comma cannot go in it. */
	bad |= preload != NULL && strchr(preload, ',') != NULL;
	if (!bad) {
		bad |= push(&a, strdup("srun"));
		bad |= push(&a, strdup("--mpi=pmi2"));   /* MPICH's PMI client speaks it */
		bad |= push(&a, strdup("--distribution=arbitrary"));
		/* The method starts more processes than a machine has processors. */
		bad |= push(&a, strdup("--overcommit"));
		bad |= push(&a, join("--ntasks=", ntasks));
		if (cpu_bind)   /* each rank on its machine's cores (hostfile.h) */
			bad |= push(&a, join("--cpu-bind=", cpu_bind));
		bad |= push(&a, strdup("--kill-on-bad-exit=1"));
		bad |= push(&a, preload ? join("--export=ALL,LD_PRELOAD=", preload) : strdup("--export=ALL"));
		for (; hydra[i]; i++)
			bad |= push(&a, strdup(hydra[i]));
		bad |= push(&e, assign("SLURM_HOSTFILE", hostfile));
	}
	if (bad) {
		hl_strv_free(a.v);
		hl_strv_free(e.v);
		return -1;
	}
	*argv = a.v;
	*env = e.v;
	return 0;
}

int hl_slurm_cancelled(const char *log, int signal, char *msg, size_t len)
{
	const char *job = getenv("SLURM_JOB_ID");
	const char *s = log ? strstr(log, " CANCELLED AT ") : NULL;
	if (s != NULL) {
		const char *start = s;
		while (start > log && start[-1] != '\n')
			start--;
		snprintf(msg, len, "the Slurm job %s was cancelled (scancel, or its time limit): %.*s",
		         job ? job : "?", (int)strcspn(start, "\n"), start);
		return 1;
	}
	if (job && signal == SIGTERM) {
		snprintf(msg, len, "the Slurm job %s was cancelled (scancel, or its time limit): "
		         "hetlaunch got SIGTERM and ended the job", job);
		return 1;
	}
	return 0;
}
