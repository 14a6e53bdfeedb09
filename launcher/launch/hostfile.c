/*
 * hostfile.c -- host files for MPICH Hydra, Open MPI and Slurm, and the
 * probe for Hydra's -rankmap.  What each launcher does with its file, and
 * why each format looks the way it does, is in README "Host files".
 */
#define _GNU_SOURCE
#include "hostfile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fsutil.h"

static const struct {
	const char *name;
	hl_hosts_format fmt;
} formats[] = {
	{ "mpich", HL_HOSTS_MPICH },
	{ "mpich-grouped", HL_HOSTS_MPICH_GROUPED },
	{ "mpich-rankmap", HL_HOSTS_MPICH_RANKMAP },
	{ "openmpi", HL_HOSTS_OPENMPI },
	{ "openmpi-seq", HL_HOSTS_OPENMPI_SEQ },
	{ "slurm", HL_HOSTS_SLURM },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

int hl_hosts_format_parse(const char *name, hl_hosts_format *fmt)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(name, formats[i].name) == 0) {
			*fmt = formats[i].fmt;
			return 0;
		}
	return -1;
}

const char *hl_hosts_format_name(hl_hosts_format fmt)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i].fmt == fmt)
			return formats[i].name;
	return "?";
}

static const char *host_of(const hl_config *cfg, const hl_ranks *r, size_t k)
{
	return cfg->machines[r->machine[k]].host;
}

/* --- hosts shared by several machines --------------------------------------
 * A host is a string: two machines are on one host when their `host` values
 * are equal as written.  Sorting (host, list index) finds them in
 * O(N log N), which matters for the 100 000-machine lists the planner takes.
 */
typedef struct {
	const char *host;
	size_t m;
} host_ref;

static int cmp_host_ref(const void *x, const void *y)
{
	const host_ref *a = x, *b = y;
	int c = strcmp(a->host, b->host);
	if (c != 0)
		return c;
	return (a->m > b->m) - (a->m < b->m);
}

/*
 * hid[m]: a number shared by exactly the machines on m's host (0..H-1);
 * slot[m] (if slot != NULL): m's position among them in list order.
 * Returns H, or (size_t)-1 when out of memory.
 */
static size_t host_ids(const hl_config *cfg, size_t *hid, size_t *slot)
{
	size_t N = cfg->nmachines;
	host_ref *v = malloc((N ? N : 1) * sizeof *v);
	if (v == NULL)
		return (size_t)-1;
	for (size_t m = 0; m < N; m++)
		v[m] = (host_ref){ cfg->machines[m].host, m };
	qsort(v, N, sizeof *v, cmp_host_ref);
	size_t H = 0, pos = 0;
	for (size_t i = 0; i < N; i++) {
		if (i == 0 || strcmp(v[i].host, v[i - 1].host) != 0) {
			H++;
			pos = 0;
		}
		hid[v[i].m] = H - 1;
		if (slot)
			slot[v[i].m] = pos;
		pos++;
	}
	free(v);
	return H;
}

size_t hl_host_groups(const hl_config *cfg, size_t *group)
{
	size_t N = cfg->nmachines;
	size_t *first = malloc((N ? N : 1) * sizeof *first);
	size_t H = first ? host_ids(cfg, group, NULL) : (size_t)-1;
	if (H != (size_t)-1) {
		for (size_t h = 0; h < H; h++)
			first[h] = SIZE_MAX;
		size_t next = 0;
		for (size_t m = 0; m < N; m++) {   /* renumber in order of first appearance */
			if (first[group[m]] == SIZE_MAX)
				first[group[m]] = next++;
			group[m] = first[group[m]];
		}
	}
	free(first);
	return H;
}

/* --- MPICH Hydra grouped list + -rankmap -----------------------------------
 * The one place that knows the -rankmap syntax.  Source: pmodels/mpich
 * (main branch, after PR #7801 "hydra: directly pass rank assignment to
 * proxy", 2026; in no release yet), src/pm/hydra/mpiexec/options.c, read
 * at commit 08d29301: the value is a comma-separated list of node ids, one
 * per rank ("1,1,2,2 puts rank 0 and 1 on node 1, rank 2 and 3 on node 2");
 * Hydra wraps it in "(vector,...)" and decodes it with
 * MPL_rankmap_str_to_array, which also accepts "(start,nodes,ranks)" blocks.  A node id is the node's 0-based
 * position in the host list after Hydra merges consecutive equal lines
 * (HYDU_add_to_node_list numbers nodes 0, 1, ...); our grouped list has
 * each host once, so a node id is a line number.
 */
typedef struct {
	size_t H;        /* distinct hosts among the ranks' machines */
	size_t *node;    /* [nranks] 0-based line of rank k's host */
	size_t *first;   /* [H] a rank on each line, the first one */
	size_t *count;   /* [H] ranks on each line */
} hydra_groups;

static void hydra_groups_free(hydra_groups *g)
{
	free(g->node);
	free(g->first);
	free(g->count);
	memset(g, 0, sizeof *g);
}

static int hydra_groups_build(const hl_config *cfg, const hl_ranks *r, hydra_groups *g)
{
	size_t N = cfg->nmachines, R = r->nranks;
	memset(g, 0, sizeof *g);
	size_t *hid = malloc((N ? N : 1) * sizeof *hid);
	size_t *line = malloc((N ? N : 1) * sizeof *line);   /* by host id */
	g->node = malloc((R ? R : 1) * sizeof *g->node);
	g->first = malloc((R ? R : 1) * sizeof *g->first);
	g->count = calloc(R ? R : 1, sizeof *g->count);
	int rc = -1;
	if (!hid || !line || !g->node || !g->first || !g->count ||
	    host_ids(cfg, hid, NULL) == (size_t)-1)
		goto out;
	for (size_t h = 0; h < N; h++)
		line[h] = SIZE_MAX;
	/* Lines in order of first appearance: rank 0's host is line 0. */
	for (size_t k = 0; k < R; k++) {
		size_t h = hid[r->machine[k]];
		if (line[h] == SIZE_MAX) {
			line[h] = g->H;
			g->first[g->H++] = k;
		}
		g->node[k] = line[h];
		g->count[line[h]]++;
	}
	rc = 0;
out:
	free(hid);
	free(line);
	if (rc < 0)
		hydra_groups_free(g);
	return rc;
}

char *hl_hydra_rankmap(const hl_config *cfg, const hl_ranks *r)
{
	hydra_groups g;
	if (hydra_groups_build(cfg, r, &g) < 0)
		return NULL;
	/* at most 20 digits and a comma per rank */
	size_t cap = r->nranks * 21 + 1, len = 0;
	char *s = malloc(cap);
	if (s != NULL) {
		s[0] = '\0';
		for (size_t k = 0; k < r->nranks; k++)
			len += (size_t)snprintf(s + len, cap - len, "%s%zu", k ? "," : "",
			                        g.node[k]);
	}
	hydra_groups_free(&g);
	return s;
}

static int print_mpich_grouped(FILE *out, const hl_config *cfg, const hl_ranks *r)
{
	hydra_groups g;
	if (hydra_groups_build(cfg, r, &g) < 0)
		return -1;
	for (size_t i = 0; i < g.H; i++)
		fprintf(out, "%s:%zu\n", host_of(cfg, r, g.first[i]), g.count[i]);
	hydra_groups_free(&g);
	return 0;
}

static int print_mpich_rankmap(FILE *out, const hl_config *cfg, const hl_ranks *r)
{
	char *s = hl_hydra_rankmap(cfg, r);
	if (s == NULL)
		return -1;
	fprintf(out, "%s\n", s);
	free(s);
	return 0;
}

/* --- the per-rank formats ---------------------------------------------------- */

/* Hydra before -rankmap: "host:k" for each run of equal hosts (a run of k
 * "host:1" lines is the same node to Hydra, so merging them is exact). */
static void print_mpich(FILE *out, const hl_config *cfg, const hl_ranks *r)
{
	for (size_t k = 0; k < r->nranks;) {
		const char *h = host_of(cfg, r, k);
		size_t run = 1;
		while (k + run < r->nranks && strcmp(host_of(cfg, r, k + run), h) == 0)
			run++;
		fprintf(out, "%s:%zu\n", h, run);
		k += run;
	}
}

static size_t cores_of(const hl_machine *m);
static int machine_cpus(const hl_config *cfg, size_t *cpu);

/* slot=S, or slot=S-E for a machine of several cores (Open MPI's logical
 * CPUs S to E: its ranks share them). */
static int print_rankfile(FILE *out, const hl_config *cfg, const hl_ranks *r)
{
	size_t N = cfg->nmachines;
	size_t *cpu = malloc((N ? N : 1) * sizeof *cpu);
	int rc = -1;
	if (cpu && machine_cpus(cfg, cpu) == 0) {
		for (size_t k = 0; k < r->nranks; k++) {
			size_t m = r->machine[k], c = cores_of(&cfg->machines[m]);
			fprintf(out, "rank %zu=%s slot=%zu", k, host_of(cfg, r, k), cpu[m]);
			if (c > 1)
				fprintf(out, "-%zu", cpu[m] + c - 1);
			fputc('\n', out);
		}
		rc = 0;
	}
	free(cpu);
	return rc;
}

static void print_per_line(FILE *out, const hl_config *cfg, const hl_ranks *r)
{
	for (size_t k = 0; k < r->nranks; k++)
		fprintf(out, "%s\n", host_of(cfg, r, k));
}

int hl_hostfile_print(FILE *out, hl_hosts_format fmt, const hl_config *cfg, const hl_ranks *r)
{
	int rc = 0;
	switch (fmt) {
	case HL_HOSTS_MPICH:
		print_mpich(out, cfg, r);
		break;
	case HL_HOSTS_MPICH_GROUPED:
		rc = print_mpich_grouped(out, cfg, r);
		break;
	case HL_HOSTS_MPICH_RANKMAP:
		rc = print_mpich_rankmap(out, cfg, r);
		break;
	case HL_HOSTS_OPENMPI:
		rc = print_rankfile(out, cfg, r);
		break;
	case HL_HOSTS_OPENMPI_SEQ:
	case HL_HOSTS_SLURM:
		print_per_line(out, cfg, r);
		break;
	default:
		return -1;
	}
	return rc < 0 || ferror(out) ? -1 : 0;
}

typedef struct {
	hl_hosts_format fmt;
	const hl_config *cfg;
	const hl_ranks *r;
} print_args;

static int fill_hostfile(FILE *f, void *arg)
{
	const print_args *a = arg;
	return hl_hostfile_print(f, a->fmt, a->cfg, a->r);
}

int hl_hostfile_write(const char *path, hl_hosts_format fmt, const hl_config *cfg,
                      const hl_ranks *r, char *err, size_t errlen)
{
	print_args a = { fmt, cfg, r };
	return hl_write_atomic(path, fill_hostfile, &a, err, errlen);
}

int hl_hostfile_output(const char *path, hl_hosts_format fmt, const hl_config *cfg,
                       const hl_ranks *r, char *err, size_t errlen)
{
	print_args a = { fmt, cfg, r };
	return hl_write_output(path, fill_hostfile, &a, err, errlen);
}

int hl_hostfile_check(hl_hosts_format fmt, const hl_config *cfg, const hl_ranks *r, diag *d)
{
	if (fmt != HL_HOSTS_MPICH && fmt != HL_HOSTS_MPICH_GROUPED &&
	    fmt != HL_HOSTS_MPICH_RANKMAP)
		return 0;
	size_t N = cfg->nmachines;
	char *used = calloc(N ? N : 1, 1);
	if (used == NULL) {
		diag_error(d, 0, 0, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < r->nranks; k++)
		used[r->machine[k]] = 1;
	int rc = 0;
	for (size_t m = 0; m < N; m++) {
		const hl_machine *mc = &cfg->machines[m];
		if (!used[m] || strchr(mc->host, ':') == NULL)
			continue;
		diag_error(d, mc->loc.line, mc->loc.col,
		           "host \"%s\" of machine %s has ':', which an MPICH host file reads as "
		           "the start of a process count; use a host name, or --format openmpi "
		           "or slurm", mc->host, mc->name);
		rc = -1;
	}
	free(used);
	return rc;
}

size_t hl_hostfile_split_hosts(const hl_config *cfg, const hl_ranks *r)
{
	size_t N = cfg->nmachines;
	size_t *hid = malloc((N ? N : 1) * sizeof *hid);
	size_t *runs = calloc(N ? N : 1, sizeof *runs);
	size_t split = (size_t)-1;
	if (hid && runs && host_ids(cfg, hid, NULL) != (size_t)-1) {
		split = 0;
		for (size_t k = 0; k < r->nranks; k++) {
			size_t h = hid[r->machine[k]];
			if (k > 0 && hid[r->machine[k - 1]] == h)
				continue;
			if (++runs[h] == 2)
				split++;
		}
	}
	free(hid);
	free(runs);
	return split;
}

/* --- probing mpiexec for -rankmap -------------------------------------------- */

#define HELP_MAX (1u << 20)   /* Hydra's help is ~5 KB; more is not a help text */

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read fd until EOF, HELP_MAX bytes or the deadline.  Returns the text
 * (NUL-terminated, possibly empty) or NULL when out of memory; *late is set
 * if the deadline passed first. */
static char *read_until(int fd, long long deadline, int *late)
{
	size_t cap = 8192, len = 0;
	char *buf = malloc(cap);
	*late = 0;
	while (buf != NULL && len < HELP_MAX) {
		long long left = deadline - now_ms();
		if (left <= 0) {
			*late = 1;
			break;
		}
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			continue;   /* timeout: the loop head sees it */
		if (len + 1 >= cap) {
			char *b = realloc(buf, cap * 2);
			if (b == NULL) {
				free(buf);
				return NULL;
			}
			buf = b;
			cap *= 2;
		}
		ssize_t got = read(fd, buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;      /* EOF (or an error: nothing more to read) */
		len += (size_t)got;
	}
	if (buf != NULL)
		buf[len] = '\0';
	return buf;
}

/* Reap pid by the deadline, killing it if it is still running.  Returns its
 * wait status, or -1 if it had to be killed. */
static int reap(pid_t pid, long long deadline)
{
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			return status;
		if (now_ms() >= deadline)
			break;
		struct timespec ts = { 0, 10 * 1000000 };
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return -1;
}

/* In the child: stdin from /dev/null, stdout and stderr into the pipe. */
static void exec_help(const char *mpiexec, int rfd, int wfd)
{
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0 && null != STDIN_FILENO) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	dup2(wfd, STDOUT_FILENO);
	dup2(wfd, STDERR_FILENO);
	close(rfd);
	if (wfd != STDOUT_FILENO && wfd != STDERR_FILENO)
		close(wfd);
	prctl(PR_SET_PDEATHSIG, SIGKILL);   /* hetlaunch killed: no stray probe */
	char *argv[] = { (char *)mpiexec, "-help", NULL };
	execvp(mpiexec, argv);
	_exit(127);
}

int hl_hydra_has_rankmap(const char *mpiexec)
{
	if (mpiexec == NULL || mpiexec[0] == '\0')
		return -1;
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);   /* the child must not write our buffered output twice */
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0)
		exec_help(mpiexec, fds[0], fds[1]);
	close(fds[1]);
	long long deadline = now_ms() + HL_HELP_TIMEOUT_MS;
	int late;
	char *text = read_until(fds[0], deadline, &late);
	close(fds[0]);
	int status = reap(pid, deadline);
	int rc;
	if (text == NULL || late || status == -1)
		rc = -1;
	else if (strstr(text, "-rankmap") != NULL)
		rc = 1;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		rc = -1;    /* execvp failed (or the program says "not found") */
	else
		rc = 0;
	free(text);
	return rc;
}

/* --- binding ranks to their machines' CPUs -------------------------------------
 * A machine owns `cores` CPUs of its host (1 by default); the machines that
 * share a host own consecutive CPUs in machine-list order, so a `count: 64`
 * entry is CPUs 0..63 and a `cores: 64` machine is CPUs 0..63 too, shared by
 * all its ranks (002 s2.3: a machine's processes share its processors). */

static size_t cores_of(const hl_machine *m)
{
	return m->cores ? m->cores : 1;
}

/* cpu[m]: machine m's first CPU on its host.  0, or -1 when out of memory. */
static int machine_cpus(const hl_config *cfg, size_t *cpu)
{
	size_t N = cfg->nmachines;
	size_t *hid = malloc((N ? N : 1) * sizeof *hid);
	size_t *next = calloc(N ? N : 1, sizeof *next);
	int rc = -1;
	if (hid && next && host_ids(cfg, hid, NULL) != (size_t)-1) {
		for (size_t m = 0; m < N; m++) {
			cpu[m] = next[hid[m]];
			next[hid[m]] += cores_of(&cfg->machines[m]);
		}
		rc = 0;
	}
	free(hid);
	free(next);
	return rc;
}

/* The processors of one `count:` entry are identical, so which of its
 * CPUs each gets is free: srun and Hydra get them in the order the ranks
 * first use them on the host (0, 1, 2, ... on every node, one list that
 * fits all), an entry keeping its block of CPUs.  An entry's machines are
 * consecutive in the list, on one host.  0, or -1 when out of memory. */
static int renumber_by_use(const hl_config *cfg, const hl_ranks *r, size_t *cpu)
{
	size_t N = cfg->nmachines;
	size_t *lead = malloc((N ? N : 1) * sizeof *lead), *used = calloc(N ? N : 1, sizeof *used);
	size_t *base = malloc((N ? N : 1) * sizeof *base);
	char *seen = calloc(N ? N : 1, 1);
	int rc = lead && used && base && seen ? 0 : -1;
	if (rc == 0)
		memcpy(base, cpu, (N ? N : 1) * sizeof *base);
	for (size_t m = 0; rc == 0 && m < N; m++) {
		const hl_machine *a = &cfg->machines[m], *b = m ? &cfg->machines[m - 1] : NULL;
		lead[m] = b && a->entry == b->entry && strcmp(a->host, b->host) == 0 ? lead[m - 1] : m;
	}
	for (size_t k = 0; rc == 0 && k < r->nranks; k++) {
		size_t m = r->machine[k], l = lead[m];
		if (!seen[m]) {
			seen[m] = 1;
			cpu[m] = base[l] + used[l];
			used[l] += cores_of(&cfg->machines[m]);
		}
	}
	free(lead);
	free(used);
	free(base);
	free(seen);
	return rc;
}

/* Whether the ranks use more than one CPU of some host: only then is there
 * a binding to make (a host that is one machine of one core keeps the
 * command it always had). */
static int binding_matters(const hl_config *cfg, const hl_ranks *r, const size_t *cpu)
{
	for (size_t k = 0; k < r->nranks; k++) {
		const hl_machine *m = &cfg->machines[r->machine[k]];
		if (cores_of(m) > 1 || cpu[r->machine[k]] > 0)
			return 1;
	}
	return 0;
}

/* node[k]: the launcher's node of rank k: its host (srun, Hydra with
 * -rankmap), or its line of the plain mpich file (Hydra starts a proxy
 * per line).  Returns 0, or -1 when out of memory. */
static int launcher_nodes(const hl_config *cfg, const hl_ranks *r, int per_line, size_t *node)
{
	size_t N = cfg->nmachines;
	size_t *hid = malloc((N ? N : 1) * sizeof *hid);
	if (hid == NULL || host_ids(cfg, hid, NULL) == (size_t)-1) {
		free(hid);
		return -1;
	}
	size_t line = 0;
	for (size_t k = 0; k < r->nranks; k++) {
		size_t h = hid[r->machine[k]];
		if (per_line && k > 0 && h != hid[r->machine[k - 1]])
			line++;
		node[k] = per_line ? line : h;
	}
	free(hid);
	return 0;
}

/* The one list of CPU sets, by local index on a node, that every node's
 * ranks agree with (srun and Hydra apply one list to every node): set i is
 * (first[i], cores[i]); *len its length.  0, -1 (out of memory) or -2 (two
 * nodes need different sets at one local index). */
static int common_list(const hl_config *cfg, const hl_ranks *r, const size_t *node,
                       const size_t *cpu, size_t *first, size_t *cores, size_t *len)
{
	size_t R = r->nranks;
	size_t *local = calloc(R + cfg->nmachines + 1, sizeof *local);   /* node ids < R + N */
	if (local == NULL)
		return -1;
	*len = 0;
	int rc = 0;
	for (size_t k = 0; k < R && rc == 0; k++) {
		size_t m = r->machine[k], l = local[node[k]]++;
		size_t c = cores_of(&cfg->machines[m]);
		if (l == *len) {
			first[l] = cpu[m];
			cores[l] = c;
			(*len)++;
		} else if (first[l] != cpu[m] || cores[l] != c) {
			rc = -2;
		}
	}
	free(local);
	return rc;
}

/* Set i of the list as the launcher writes it: srun's map_cpu (one CPU) or
 * mask_cpu (hexadecimal, bit c for CPU c), Hydra's user binding (CPUs
 * joined by '+'). */
static int print_set(FILE *f, hl_bind_style style, int masks, size_t first, size_t cores)
{
	if (style == HL_BIND_HYDRA) {
		for (size_t c = 0; c < cores; c++)
			fprintf(f, "%s%zu", c ? "+" : "", first + c);
	} else if (!masks) {
		fprintf(f, "%zu", first);
	} else {
		static const char hex[] = "0123456789abcdef";
		size_t end = first + cores, digits = (end + 3) / 4;
		fputs("0x", f);
		for (size_t d = digits; d-- > 0;) {
			unsigned v = 0;
			for (size_t b = 0; b < 4; b++)
				v |= (4 * d + b >= first && 4 * d + b < end) << b;
			fputc(hex[v], f);
		}
	}
	return ferror(f) ? -1 : 0;
}

static char *format_list(hl_bind_style style, const size_t *first, const size_t *cores,
                         size_t len)
{
	int masks = 0;
	for (size_t i = 0; i < len; i++)
		masks |= cores[i] > 1;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (f == NULL)
		return NULL;
	fputs(style == HL_BIND_HYDRA ? "user:" : masks ? "mask_cpu:" : "map_cpu:", f);
	int bad = 0;
	for (size_t i = 0; i < len; i++) {
		if (i)
			fputc(',', f);
		bad |= print_set(f, style, masks, first[i], cores[i]);
	}
	if (fclose(f) != 0 || bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

int hl_bind_list(const hl_config *cfg, const hl_ranks *r, hl_bind_style style, int per_line,
                 char **out)
{
	size_t N = cfg->nmachines, R = r->nranks;
	size_t *cpu = malloc((N ? N : 1) * sizeof *cpu);
	size_t *node = malloc((R ? R : 1) * sizeof *node);
	size_t *first = malloc((R ? R : 1) * sizeof *first);
	size_t *cores = malloc((R ? R : 1) * sizeof *cores);
	size_t len = 0;
	int rc = -1;
	*out = NULL;
	if (cpu && node && first && cores && machine_cpus(cfg, cpu) == 0 &&
	    renumber_by_use(cfg, r, cpu) == 0) {
		rc = 1;
		if (binding_matters(cfg, r, cpu))
			rc = launcher_nodes(cfg, r, per_line, node) < 0 ? -1
			     : common_list(cfg, r, node, cpu, first, cores, &len);
		if (rc == 0 && (*out = format_list(style, first, cores, len)) == NULL)
			rc = -1;
	}
	free(cpu);
	free(node);
	free(first);
	free(cores);
	return rc;
}

/* --- Hydra's node map ------------------------------------------------------------
 * Hydra hands every rank the rank-to-node map as the PMI value
 * PMI_process_mapping, "(vector,(node,nodes,ranks),...)": one block per
 * run of nodes holding equal runs of consecutive ranks (MPICH 4.0's
 * HYD_pmcd_pmi_process_mapping).  A PMI value has at most MAXVALLEN = 1024
 * bytes (src/pm/hydra/pm/pmiserv/pmi_common.h), and Hydra leaves the map out
 * when it is longer (pmiserv_utils.c: `if (strlen(mapping) > MAXVALLEN)`).
 * Newer MPICH (MPL_rankmap_array_to_str) also folds repeated patterns,
 * so this length is an upper bound there. */
static size_t digits(size_t x)
{
	size_t d = 1;
	while (x >= 10) {
		x /= 10;
		d++;
	}
	return d;
}

static size_t block_len(size_t node, size_t nodes, size_t ranks)
{
	return 4 + digits(node) + digits(nodes) + digits(ranks);   /* "(a,b,c)" */
}

size_t hl_hydra_mapping_len(const hl_config *cfg, const hl_ranks *r, int per_line)
{
	size_t R = r->nranks;
	size_t *node = malloc((R ? R : 1) * sizeof *node);
	if (node == NULL || launcher_nodes(cfg, r, per_line, node) < 0) {
		free(node);
		return (size_t)-1;
	}
	size_t len = strlen("(vector)"), bnode = 0, bnodes = 0, branks = 0;
	for (size_t k = 0; k < R;) {
		size_t run = 1;
		while (k + run < R && node[k + run] == node[k])
			run++;
		if (bnodes && run == branks && node[k] == bnode + bnodes) {
			bnodes++;   /* the next node with as many ranks: the same block */
		} else {
			if (bnodes)
				len += 1 + block_len(bnode, bnodes, branks);
			bnode = node[k];
			bnodes = 1;
			branks = run;
		}
		k += run;
	}
	if (bnodes)
		len += 1 + block_len(bnode, bnodes, branks);
	free(node);
	return len;
}

void hl_hydra_mapping_warn(FILE *err, const hl_config *cfg, const hl_ranks *r, int per_line)
{
	size_t len = hl_hydra_mapping_len(cfg, r, per_line);
	if (len == (size_t)-1 || len <= HL_HYDRA_MAPPING_MAX)
		return;
	fprintf(err, "hetlaunch: warning: Hydra passes the ranks their node map "
	        "(PMI_process_mapping) in at most %d bytes and leaves it out when longer; "
	        "these %zu ranks need %zu (MPICH 4.0's encoding), so MPICH must find the ranks "
	        "that share a node another way, and PMI clients that need the map fail in "
	        "MPI_Init: use layout 1d's order: grouped (each machine's ranks together), srun in a Slurm "
	        "allocation, or mpi: openmpi (a rankfile has no such limit)\n",
	        HL_HYDRA_MAPPING_MAX, r->nranks, len);
}
