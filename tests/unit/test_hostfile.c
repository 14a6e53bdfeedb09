/*
 * test_hostfile.c -- launcher/util/fsutil.c (atomic replacement, mkdir -p) and
 * launcher/launch/hostfile.c (every format on a hand-made machine list with shared
 * hosts, the ':' check, the -rankmap probe against fake and real mpiexec).
 * The formats on the shipped configs are checked end to end by the golden
 * files of tests/cli/cli_test.sh.
 */
#define _GNU_SOURCE   /* mkdtemp, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "launch/hostfile.h"

/* --- a scratch directory per test ------------------------------------------ */

static char *scratch(void)
{
	char *d = strdup("/tmp/hetlaunch-test-XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static void rm_tree(const char *dir)
{
	DIR *dp = opendir(dir);
	if (dp == NULL)
		return;
	struct dirent *e;
	char p[4096];
	while ((e = readdir(dp)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(p);
		else
			unlink(p);
	}
	closedir(dp);
	rmdir(dir);
}

static size_t entries(const char *dir)
{
	DIR *dp = opendir(dir);
	assert_non_null(dp);
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dp)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(dp);
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return NULL;
	static char buf[65536];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int fill_text(FILE *f, void *arg)
{
	return fputs(arg, f) < 0 ? -1 : 0;
}

/* Writes half its text, then fails: what a fill that runs out of memory
 * half way does. */
static int fill_fails(FILE *f, void *arg)
{
	const char *s = arg;
	fwrite(s, 1, strlen(s) / 2, f);
	return -1;
}

/* --- hl_write_atomic ------------------------------------------------------------ */

static void atomic_new_and_replace(void **state)
{
	(void)state;
	char *d = scratch(), p[512], err[512];
	snprintf(p, sizeof p, "%s/hosts", d);
	umask(022);
	assert_int_equal(hl_write_atomic(p, fill_text, "a:1\n", err, sizeof err), 0);
	assert_string_equal(slurp(p), "a:1\n");
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);   /* 0666 & ~022, not mkstemp's 0600 */
	/* Replacing keeps the file's own mode. */
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(hl_write_atomic(p, fill_text, "b:2\n", err, sizeof err), 0);
	assert_string_equal(slurp(p), "b:2\n");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(d), 1);              /* no temporary file left */
	/* A name without a directory part is written in the current one. */
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(d), 0);
	assert_int_equal(hl_write_atomic("plain", fill_text, "x\n", err, sizeof err), 0);
	assert_int_equal(chdir(cwd), 0);
	snprintf(p, sizeof p, "%s/plain", d);
	assert_string_equal(slurp(p), "x\n");
	rm_tree(d);
	free(d);
}

static void atomic_failures_leave_old_file(void **state)
{
	(void)state;
	char *d = scratch(), p[512], err[512];
	snprintf(p, sizeof p, "%s/hosts", d);
	assert_int_equal(hl_write_atomic(p, fill_text, "old\n", err, sizeof err), 0);
	/* fill fails half way: the old file stays, the temporary file goes. */
	err[0] = '\0';
	assert_int_equal(hl_write_atomic(p, fill_fails, "new contents\n", err, sizeof err), -1);
	assert_string_equal(slurp(p), "old\n");
	assert_int_equal(entries(d), 1);
	assert_non_null(strstr(err, p));
	/* The destination is a directory: rename fails, nothing is left. */
	char sub[600];
	snprintf(sub, sizeof sub, "%s/adir", d);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(hl_write_atomic(sub, fill_text, "x\n", err, sizeof err), -1);
	assert_non_null(strstr(err, sub));
	assert_int_equal(entries(d), 2);
	assert_int_equal(entries(sub), 0);
	/* A directory that does not exist: nothing is created. */
	snprintf(sub, sizeof sub, "%s/missing/hosts", d);
	assert_int_equal(hl_write_atomic(sub, fill_text, "x\n", err, sizeof err), -1);
	assert_non_null(strstr(err, sub));
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(entries(d), 2);
	/* No file name at all. */
	snprintf(sub, sizeof sub, "%s/", d);
	assert_int_equal(hl_write_atomic(sub, fill_text, "x\n", err, sizeof err), -1);
	assert_int_equal(entries(d), 2);
	/* A write error at flush time (the file size limit, EFBIG): reported,
	 * and the old file stays. */
	struct rlimit lim, small;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &lim), 0);
	small = lim;
	small.rlim_cur = 64;
	void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	static char big[1000];
	memset(big, 'h', sizeof big - 1);
	int rc = hl_write_atomic(p, fill_text, big, err, sizeof err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	signal(SIGXFSZ, old_handler);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "write error"));
	assert_string_equal(slurp(p), "old\n");
	assert_int_equal(entries(d), 2);
	rm_tree(d);
	free(d);
}

/* --- hl_mkdir_p ------------------------------------------------------------------ */

static void mkdir_p(void **state)
{
	(void)state;
	char *d = scratch(), p[512], err[512];
	snprintf(p, sizeof p, "%s/a/b//c/", d);
	assert_int_equal(hl_mkdir_p(p, err, sizeof err), 0);
	snprintf(p, sizeof p, "%s/a/b/c", d);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(hl_mkdir_p(p, err, sizeof err), 0);   /* exists: fine */
	/* A file in the way is named in the message. */
	snprintf(p, sizeof p, "%s/a/file", d);
	assert_int_equal(hl_write_atomic(p, fill_text, "x\n", err, sizeof err), 0);
	snprintf(p, sizeof p, "%s/a/file/sub", d);
	assert_int_equal(hl_mkdir_p(p, err, sizeof err), -1);
	char want[600];
	snprintf(want, sizeof want, "%s/a/file: ", d);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "Not a directory"));
	assert_int_equal(hl_mkdir_p("", err, sizeof err), -1);
	rm_tree(d);
	free(d);
}

/* --- formats ------------------------------------------------------------------------
 * Four machines: a and c share host h1 (c after a in the list, so c is h1's
 * processor 1), b is on h2, x (host "x:y") is not in the ranks.  The ranks
 * interleave the hosts: h1 h2 h1 h1 h1 h2.
 */
static hl_machine mach[4] = {
	{ .name = "a", .host = "h1", .cycle_time = 1, .loc = { 3, 5 } },
	{ .name = "b", .host = "h2", .cycle_time = 2, .loc = { 6, 5 } },
	{ .name = "c", .host = "h1", .cycle_time = 1, .loc = { 9, 5 } },
	{ .name = "x", .host = "x:y", .cycle_time = 9, .loc = { 12, 5 } },
};
static hl_config cfg = { .file = "m.yaml", .machines = mach, .nmachines = 4 };
static size_t order[6] = { 0, 1, 0, 2, 2, 1 };   /* a b a c c b */
static hl_ranks ranks = { .nprow = 2, .npcol = 3, .nranks = 6, .machine = order };

static const char *print(hl_hosts_format fmt)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	assert_non_null(f);
	assert_int_equal(hl_hostfile_print(f, fmt, &cfg, &ranks), 0);
	fclose(f);
	return buf;
}

static void formats(void **state)
{
	(void)state;
	/* Runs of one host merge (Hydra merges a line with the one above). */
	assert_string_equal(print(HL_HOSTS_MPICH), "h1:1\nh2:1\nh1:3\nh2:1\n");
	assert_string_equal(print(HL_HOSTS_MPICH_GROUPED), "h1:4\nh2:2\n");
	assert_string_equal(print(HL_HOSTS_MPICH_RANKMAP), "0,1,0,0,0,1\n");
	assert_string_equal(print(HL_HOSTS_OPENMPI),
	                    "rank 0=h1 slot=0\nrank 1=h2 slot=0\nrank 2=h1 slot=0\n"
	                    "rank 3=h1 slot=1\nrank 4=h1 slot=1\nrank 5=h2 slot=0\n");
	const char *per_rank = "h1\nh2\nh1\nh1\nh1\nh2\n";
	assert_string_equal(print(HL_HOSTS_OPENMPI_SEQ), per_rank);
	assert_string_equal(print(HL_HOSTS_SLURM), per_rank);
	char *rm = hl_hydra_rankmap(&cfg, &ranks);
	assert_non_null(rm);
	assert_string_equal(rm, "0,1,0,0,0,1");
	free(rm);
	assert_int_equal(hl_hostfile_split_hosts(&cfg, &ranks), 2);
	/* One rank per host in list order: nothing split, one line each. */
	size_t one[2] = { 1, 0 };
	hl_ranks r2 = { .nprow = 1, .npcol = 2, .nranks = 2, .machine = one };
	assert_int_equal(hl_hostfile_split_hosts(&cfg, &r2), 0);
	/* A rank on c first: c keeps slot 1 (its processor), the grouped list
	 * starts with h1. */
	size_t cfirst[3] = { 2, 1, 0 };
	hl_ranks r3 = { .nprow = 1, .npcol = 3, .nranks = 3, .machine = cfirst };
	char buf[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	assert_int_equal(hl_hostfile_print(f, HL_HOSTS_OPENMPI, &cfg, &r3), 0);
	fclose(f);
	assert_string_equal(buf, "rank 0=h1 slot=1\nrank 1=h2 slot=0\nrank 2=h1 slot=0\n");
}

/* --- binding -------------------------------------------------------------------
 * The machines above: a and c share h1 (CPUs 0 and 1), b is h2's CPU 0. */
static char *bind(const hl_config *c, const hl_ranks *r, hl_bind_style st, int per_line,
                  int want)
{
	char *v = NULL;
	assert_int_equal(hl_bind_list(c, r, st, per_line, &v), want);
	return v;
}

static void binding(void **state)
{
	(void)state;
	/* srun: by host, h1's ranks a a c c and h2's b b agree on 0,0,1,1. */
	char *v = bind(&cfg, &ranks, HL_BIND_SRUN, 0, 0);
	assert_string_equal(v, "map_cpu:0,0,1,1");
	free(v);
	/* Hydra with the plain file: a proxy per line (h1 | h2 | h1 h1 h1 | h2). */
	v = bind(&cfg, &ranks, HL_BIND_HYDRA, 1, 0);
	assert_string_equal(v, "user:0,1,1");
	free(v);
	/* c first on h1 (CPU 1) but b first on h2 (CPU 0): no one list. */
	size_t cfirst[3] = { 2, 1, 0 };
	hl_ranks r3 = { .nprow = 1, .npcol = 3, .nranks = 3, .machine = cfirst };
	assert_null(bind(&cfg, &r3, HL_BIND_SRUN, 0, -2));
	/* One machine of one core per host: nothing to bind, as before. */
	size_t one[2] = { 1, 0 };
	hl_ranks r2 = { .nprow = 1, .npcol = 2, .nranks = 2, .machine = one };
	assert_null(bind(&cfg, &r2, HL_BIND_SRUN, 0, 1));
	assert_null(bind(&cfg, &r2, HL_BIND_HYDRA, 1, 1));
}

/* A node machine of 2 cores and a one-core machine after it on one host:
 * CPUs 0-1 and 2; the node's ranks share both of its CPUs. */
static void binding_cores(void **state)
{
	(void)state;
	hl_machine nm[2] = {
		{ .name = "node", .host = "h", .cycle_time = 1, .cores = 2 },
		{ .name = "core", .host = "h", .cycle_time = 1, .cores = 1 },
	};
	hl_config nc = { .file = "n.yaml", .machines = nm, .nmachines = 2 };
	size_t who[3] = { 0, 1, 0 };
	hl_ranks r = { .nprow = 1, .npcol = 3, .nranks = 3, .machine = who };
	char *v = bind(&nc, &r, HL_BIND_SRUN, 0, 0);
	assert_string_equal(v, "mask_cpu:0x3,0x4,0x3");
	free(v);
	v = bind(&nc, &r, HL_BIND_HYDRA, 1, 0);
	assert_string_equal(v, "user:0+1,2,0+1");
	free(v);
	char buf[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	assert_int_equal(hl_hostfile_print(f, HL_HOSTS_OPENMPI, &nc, &r), 0);
	fclose(f);
	assert_string_equal(buf, "rank 0=h slot=0-1\nrank 1=h slot=2\nrank 2=h slot=0-1\n");
	/* CPUs 4..9: a mask of three hexadecimal digits. */
	nm[0].cores = 4;
	nm[1].cores = 6;
	v = bind(&nc, &r, HL_BIND_SRUN, 0, 0);
	assert_string_equal(v, "mask_cpu:0xf,0x3f0,0xf");
	free(v);
}

/* Two `count: 2` entries on two hosts, their ranks in other orders: an
 * entry's identical processors take its CPUs in the order the ranks first
 * use them, so one list fits both nodes. */
static void binding_count(void **state)
{
	(void)state;
	hl_machine cm[4] = {
		{ .name = "e.0", .host = "h1", .cycle_time = 1, .entry = 0 },
		{ .name = "e.1", .host = "h1", .cycle_time = 1, .entry = 0 },
		{ .name = "f.0", .host = "h2", .cycle_time = 2, .entry = 1 },
		{ .name = "f.1", .host = "h2", .cycle_time = 2, .entry = 1 },
	};
	hl_config cc = { .file = "c.yaml", .machines = cm, .nmachines = 4 };
	size_t who[6] = { 1, 2, 0, 3, 1, 2 };   /* e.1 f.0 e.0 f.1 e.1 f.0 */
	hl_ranks r = { .nprow = 1, .npcol = 6, .nranks = 6, .machine = who };
	char *v = bind(&cc, &r, HL_BIND_SRUN, 0, 0);
	assert_string_equal(v, "map_cpu:0,1,0");
	free(v);
}

/* Hydra's node map: (vector,(node,nodes,ranks),...) as MPICH 4.0 writes it. */
static void mapping_len(void **state)
{
	(void)state;
	/* hosts 0 1 0 0 0 1: (vector,(0,2,1),(0,1,3),(1,1,1)) */
	assert_int_equal(hl_hydra_mapping_len(&cfg, &ranks, 0), 32);
	/* lines 0 1 2 2 2 3: (vector,(0,2,1),(2,1,3),(3,1,1)) */
	assert_int_equal(hl_hydra_mapping_len(&cfg, &ranks, 1), 32);
	/* 300 ranks alternating over two hosts: one block per pair (0,2,1) of
	 * 8 bytes: 1208 bytes, over the 1024 Hydra passes; the warning says so. */
	size_t alt[300];
	for (size_t k = 0; k < 300; k++)
		alt[k] = k % 2;   /* a, b, a, b, ... */
	hl_ranks ra = { .nprow = 1, .npcol = 300, .nranks = 300, .machine = alt };
	assert_int_equal(hl_hydra_mapping_len(&cfg, &ra, 0), 8 + 150 * 8);
	char buf[2048] = "";
	FILE *f = fmemopen(buf, sizeof buf, "w");
	hl_hydra_mapping_warn(f, &cfg, &ra, 0);
	fclose(f);
	assert_non_null(strstr(buf, "need 1208"));
	/* A node per line: lines 0, 1, 2, ... one rank each: one block. */
	assert_int_equal(hl_hydra_mapping_len(&cfg, &ra, 1), strlen("(vector,(0,300,1))"));
	buf[0] = '\0';
	f = fmemopen(buf, sizeof buf, "w");
	hl_hydra_mapping_warn(f, &cfg, &ranks, 0);
	fclose(f);
	assert_string_equal(buf, "");
}

static void format_names(void **state)
{
	(void)state;
	const char *names[] = { "mpich", "mpich-grouped", "mpich-rankmap", "openmpi",
		                "openmpi-seq", "slurm" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		hl_hosts_format f;
		assert_int_equal(hl_hosts_format_parse(names[i], &f), 0);
		assert_string_equal(hl_hosts_format_name(f), names[i]);
		assert_non_null(strstr(HL_HOSTS_FORMATS, names[i]));
	}
	hl_hosts_format f;
	assert_int_equal(hl_hosts_format_parse("MPICH", &f), -1);
	assert_int_equal(hl_hosts_format_parse("", &f), -1);
}

static void colon_hosts(void **state)
{
	(void)state;
	diag d;
	/* x:y is in no rank: every format is fine. */
	for (int fmt = HL_HOSTS_MPICH; fmt <= HL_HOSTS_SLURM; fmt++) {
		diag_init(&d, cfg.file);
		assert_int_equal(hl_hostfile_check((hl_hosts_format)fmt, &cfg, &ranks, &d), 0);
		assert_int_equal(d.count, 0);
		diag_free(&d);
	}
	size_t withx[2] = { 3, 0 };
	hl_ranks rx = { .nprow = 1, .npcol = 2, .nranks = 2, .machine = withx };
	diag_init(&d, cfg.file);
	assert_int_equal(hl_hostfile_check(HL_HOSTS_MPICH_GROUPED, &cfg, &rx, &d), -1);
	assert_int_equal(d.count, 1);
	assert_non_null(strstr(d.msg[0], "m.yaml:12:5: host \"x:y\" of machine x has ':'"));
	diag_free(&d);
	diag_init(&d, cfg.file);
	assert_int_equal(hl_hostfile_check(HL_HOSTS_OPENMPI, &cfg, &rx, &d), 0);
	diag_free(&d);
}

static void write_file(void **state)
{
	(void)state;
	char *d = scratch(), p[512], err[512];
	snprintf(p, sizeof p, "%s/hosts.rankfile", d);
	assert_int_equal(hl_hostfile_write(p, HL_HOSTS_OPENMPI, &cfg, &ranks, err, sizeof err), 0);
	assert_non_null(strstr(slurp(p), "rank 3=h1 slot=1\n"));
	snprintf(p, sizeof p, "%s/no/such/dir/hosts", d);
	assert_int_equal(hl_hostfile_write(p, HL_HOSTS_MPICH, &cfg, &ranks, err, sizeof err), -1);
	assert_non_null(strstr(err, p));
	rm_tree(d);
	free(d);
}

/* --- the -rankmap probe ------------------------------------------------------------ */

static char *fake_mpiexec(const char *dir, const char *name, const char *body)
{
	static char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s", body);
	fclose(f);
	assert_int_equal(chmod(p, 0755), 0);
	return p;
}

static void no_child_left(void)
{
	int st;
	assert_int_equal(waitpid(-1, &st, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void probe_fakes(void **state)
{
	(void)state;
	char *d = scratch();
	/* Help on stderr, as some builds print it: both streams are read. */
	assert_int_equal(hl_hydra_has_rankmap(fake_mpiexec(d, "new",
		"[ \"$1\" = -help ] || exit 3\n"
		"echo 'Usage: ./mpiexec [global opts]'\n"
		"echo '    -rankmap {rank map}              comma separated rank to node id list' >&2\n")),
	                 1);
	assert_int_equal(hl_hydra_has_rankmap(fake_mpiexec(d, "old",
		"echo '    -hosts {host list}               comma separated host list'\n")),
	                 0);
	/* Found through PATH, like execvp users expect. */
	char path[1024];
	const char *old_path = getenv("PATH");
	snprintf(path, sizeof path, "%s:%s", d, old_path ? old_path : "/usr/bin:/bin");
	char *saved = old_path ? strdup(old_path) : NULL;
	setenv("PATH", path, 1);
	assert_int_equal(hl_hydra_has_rankmap("new"), 1);
	if (saved) {
		setenv("PATH", saved, 1);
		free(saved);
	}
	assert_int_equal(hl_hydra_has_rankmap("/nonexistent/mpiexec"), -1);
	assert_int_equal(hl_hydra_has_rankmap(""), -1);
	no_child_left();
	rm_tree(d);
	free(d);
}

/* An mpiexec that never finishes is killed at the timeout, not waited for. */
static void probe_timeout(void **state)
{
	(void)state;
	char *d = scratch();
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(hl_hydra_has_rankmap(fake_mpiexec(d, "hang",
		"echo '    -rankmap {rank map}'\nexec sleep 60\n")), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	assert_true(s >= HL_HELP_TIMEOUT_MS / 1000.0 - 0.1);
	assert_true(s < HL_HELP_TIMEOUT_MS / 1000.0 + 2);
	no_child_left();
	rm_tree(d);
	free(d);
}

/* argv's stdout and stderr, or "" if it cannot run (fork + execvp: the
 * tests follow the no-shell rule too). */
static const char *run_capture(char *const argv[])
{
	static char out[16384];
	out[0] = '\0';
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	size_t len = 0;
	ssize_t got;
	while (len < sizeof out - 1 && (got = read(fds[0], out + len, sizeof out - 1 - len)) > 0)
		len += (size_t)got;
	out[len] = '\0';
	close(fds[0]);
	int st;
	waitpid(pid, &st, 0);
	return out;
}

/* Debian's MPICH 4.0.2 Hydra has no -rankmap; a Hydra 4.x never does. */
static void probe_real_hydra(void **state)
{
	(void)state;
	int has = hl_hydra_has_rankmap("mpiexec.hydra");
	if (has == -1) {
		print_message("mpiexec.hydra cannot be run here: not checked\n");
		skip();
	}
	char *info[] = { "mpiexec.hydra", "-info", NULL };
	const char *v = strstr(run_capture(info), "Version:");
	assert_non_null(v);
	v += strlen("Version:");
	v += strspn(v, " \t");
	print_message("mpiexec.hydra %.*s: -rankmap %s\n", (int)strcspn(v, "\n"), v,
	              has ? "found" : "not found");
	if (strncmp(v, "4.", 2) == 0)
		assert_int_equal(has, 0);
	no_child_left();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(atomic_new_and_replace),
		cmocka_unit_test(atomic_failures_leave_old_file),
		cmocka_unit_test(mkdir_p),
		cmocka_unit_test(formats),
		cmocka_unit_test(format_names),
		cmocka_unit_test(binding),
		cmocka_unit_test(binding_cores),
		cmocka_unit_test(binding_count),
		cmocka_unit_test(mapping_len),
		cmocka_unit_test(colon_hosts),
		cmocka_unit_test(write_file),
		cmocka_unit_test(probe_fakes),
		cmocka_unit_test(probe_timeout),
		cmocka_unit_test(probe_real_hydra),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
