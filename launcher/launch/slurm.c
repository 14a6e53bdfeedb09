/*
 * slurm.c -- see slurm.h.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hostlist.h"
#include "slurm.h"
#include "spawn.h"

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

/* ------------------------------------------------- the allocation's nodes */

/* Appends the hosts of the hostlist in variable var, of group g. */
static int add_hosts(const char *var, long g, strv *hosts, long **group, char *err, size_t len)
{
	const char *list = getenv(var);
	char **h;
	size_t n;
	hl_hostlist_error e;
	if (list == NULL || list[0] == '\0') {
		snprintf(err, len, "%s is not set", var);
		return -1;
	}
	if (hl_hostlist_expand(list, 100000, &h, &n, &e) != 0) {
		snprintf(err, len, "%s=%s: %s", var, list, e.msg);
		return -1;
	}
	long *gr = realloc(*group, (hosts->n + n + 1) * sizeof *gr);
	int bad = gr == NULL;
	if (gr)
		*group = gr;
	for (size_t i = 0; i < n && !bad; i++) {
		gr[hosts->n] = g;
		bad = push(hosts, h[i]) < 0;
		h[i] = NULL;
	}
	hl_hostlist_free(h);
	if (bad)
		snprintf(err, len, "out of memory");
	return bad ? -1 : 0;
}

/* The allocation's hosts in Slurm's order, each with its het-job group. */
static int allocation_hosts(strv *hosts, long **group, char *err, size_t len)
{
	const char *size = getenv("SLURM_HET_SIZE");
	long groups = size ? strtol(size, NULL, 10) : 0;
	if (groups <= 0 || groups > 64)
		return add_hosts("SLURM_JOB_NODELIST", -1, hosts, group, err, len);
	for (long k = 0; k < groups; k++) {
		char var[64];
		snprintf(var, sizeof var, "SLURM_JOB_NODELIST_HET_GROUP_%ld", k);
		if (add_hosts(var, k, hosts, group, err, len) < 0)
			return -1;
	}
	return 0;
}

/* scontrol show node -o HOST,HOST,...: what Slurm knows of each node. */
static int scontrol_nodes(char **hosts, size_t n, hl_nodes *got, char *err, size_t len)
{
	size_t total = 1;
	for (size_t i = 0; i < n; i++)
		total += strlen(hosts[i]) + 1;
	char *list = calloc(total, 1), *out = NULL;
	size_t outlen = 0;
	for (size_t i = 0; list && i < n; i++) {
		strcat(list, i ? "," : "");
		strcat(list, hosts[i]);
	}
	char *argv[] = { "scontrol", "show", "node", "-o", list, NULL };
	int rc = list ? hl_spawn_filter(argv, "", 0, (size_t)1 << 26, 60, &out, &outlen) : -1;
	if (rc == 0)
		rc = hl_nodes_parse_scontrol(out, got, err, len);
	else
		snprintf(err, len, "scontrol show node -o %.*s %s", 64, list ? list : "",
		         rc == 1 ? "could not be started (not installed)" : "failed");
	free(out);
	free(list);
	return rc == 0 ? 0 : -1;
}

int hl_slurm_read_nodes(void *ctx, hl_nodes *out, char *err, size_t len)
{
	(void)ctx;
	strv hosts = { 0 };
	long *group = NULL;
	hl_nodes got = { 0 };
	memset(out, 0, sizeof *out);
	snprintf(out->source, sizeof out->source, "Slurm job %s", getenv("SLURM_JOB_ID"));
	int rc = allocation_hosts(&hosts, &group, err, len);
	if (rc == 0)
		rc = scontrol_nodes(hosts.v, hosts.n, &got, err, len);
	out->nodes = calloc(hosts.n + 1, sizeof *out->nodes);
	for (size_t i = 0; rc == 0 && i < hosts.n; i++) {
		size_t k = 0;
		while (k < got.n && (got.nodes[k].name == NULL ||
		                     strcmp(got.nodes[k].name, hosts.v[i]) != 0))
			k++;
		if (k == got.n || out->nodes == NULL) {
			snprintf(err, len, "scontrol show node says nothing of %s", hosts.v[i]);
			rc = -1;
			break;
		}
		out->nodes[out->n] = got.nodes[k];
		out->nodes[out->n++].het_group = group[i];
		memset(&got.nodes[k], 0, sizeof got.nodes[k]);   /* out's now */
	}
	hl_nodes_free(&got);
	hl_strv_free(hosts.v);
	free(group);
	return rc;
}

int hl_slurm_het_refused(char *msg, size_t len)
{
	const char *size = getenv("SLURM_HET_SIZE");
	if (size == NULL || strtol(size, NULL, 10) < 2)
		return 0;
	snprintf(msg, len, "a heterogeneous Slurm job (SLURM_HET_SIZE=%s): srun cannot place each "
	         "rank on the plan's node across components (SLURM_HOSTFILE is refused in a het "
	         "job), and a step over all components did not end after MPI_Finalize with this "
	         "Slurm and MPICH (doc/guide.md, \"On a Slurm cluster\"): ask for one job, the "
	         "types by feature (hetlaunch sbatch)", size);
	return 1;
}

static int in_list(char **hosts, const char *h)
{
	for (size_t i = 0; hosts[i]; i++)
		if (strcmp(hosts[i], h) == 0)
			return 1;
	return 0;
}

/* The plan's hosts not in hosts[], each once, in list order, into err. */
static size_t missing_hosts(const hl_config *cfg, const size_t *machine, size_t nranks,
                            char **hosts, char *err, size_t len)
{
	char *used = calloc(cfg->nmachines, 1);
	if (used == NULL)
		return 0;
	for (size_t k = 0; k < nranks; k++)
		used[machine[k]] = 1;
	size_t n = 0, at = strlen(err);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		const char *h = cfg->machines[i].host;
		int skip = !used[i] || strcmp(h, "localhost") == 0 || in_list(hosts, h);
		for (size_t j = 0; j < i && !skip; j++)   /* said once */
			skip = used[j] && strcmp(cfg->machines[j].host, h) == 0;
		if (skip)
			continue;
		int w = snprintf(err + at, at < len ? len - at : 0, "%s%s", n++ ? ", " : "", h);
		at += w > 0 ? (size_t)w : 0;
	}
	free(used);
	return n;
}

int hl_slurm_check_allocation(const hl_config *cfg, const size_t *machine, size_t nranks,
                              char *err, size_t len)
{
	const char *list = getenv("SLURM_JOB_NODELIST");
	/* emulate: runs here; an explicit mpiexec: may reach other hosts */
	if (list == NULL || list[0] == '\0' || cfg->emulate || cfg->mpiexec != NULL)
		return 0;
	/* every component's nodes in a heterogeneous job (run refuses it
	 * afterwards, with its own reason) */
	strv hosts = { 0 };
	long *group = NULL;
	char why[256] = "";
	if (allocation_hosts(&hosts, &group, why, sizeof why) < 0 || hosts.v == NULL) {
		snprintf(err, len, "%s: not a node list hetlaunch can read: %s", cfg->file,
		         hosts.v || why[0] ? why : "SLURM_JOB_NODELIST lists no node");
		hl_strv_free(hosts.v);
		free(group);
		return 2;
	}
	int w = snprintf(err, len, "%s: the Slurm allocation (SLURM_JOB_NODELIST=%s) lacks the "
	                 "plan's hosts: ", cfg->file, list);
	size_t n = w > 0 && (size_t)w < len ? missing_hosts(cfg, machine, nranks, hosts.v, err, len)
	                                    : 0;
	hl_strv_free(hosts.v);
	free(group);
	if (n == 0) {
		err[0] = '\0';
		return 0;
	}
	size_t at = strlen(err);
	snprintf(err + at, len - at, " (%zu host%s: run inside an allocation that holds "
	         "them)", n, n == 1 ? "" : "s");
	return 2;
}
