/*
 * run.c -- see run.h.  Data flows one way: the plan gives the ranks, the
 * ranks give the host file and the tester's input, those give the command,
 * the command gives the log, the log gives the report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "emulation.h"
#include "util/rundir.h"
#include "util/fsutil.h"
#include "util/now.h"
#include "hostfile.h"
#include "hpcc_watch.h"
#include "kernels/hpl.h"
#include "kernels/inputs.h"
#include "util/json.h"
#include "layouts/layout.h"
#include "openmpi.h"
#include "run.h"
#include "slurm.h"
#include "kernels/exec_result.h"

#define DEFAULT_MPIEXEC "mpiexec.hydra"

/* ---- small helpers -------------------------------------------------------- */

static int fail(hl_run *run, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(hl_run *run, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(run->error, sizeof run->error, fmt, ap);
	va_end(ap);
	run->status = status;
	return status;
}

/* Are all the ranks on this computer? */
static int all_local(const hl_config *cfg, const hl_ranks *r)
{
	char me[256] = "";
	gethostname(me, sizeof me - 1);
	for (size_t k = 0; k < r->nranks; k++) {
		const char *h = cfg->machines[r->machine[k]].host;
		if (strcmp(h, "localhost") != 0 && strcmp(h, "127.0.0.1") != 0 && strcmp(h, me) != 0)
			return 0;
	}
	return 1;
}

/* ---- the files ------------------------------------------------------------ */

typedef struct {
	const hl_config *cfg;
	const hl_plan *plan;
	const hl_run *run;
	char *const *argv;
	const char *cwd;
	char *const *env;        /* NAME=VALUE before the command (srun), or NULL */
} fill_ctx;

static int fill_plan(FILE *f, void *arg)
{
	const fill_ctx *c = arg;
	hl_plan_print_json(c->plan, f);
	return 0;
}

static int fill_dat(FILE *f, void *arg)
{
	const fill_ctx *c = arg;
	return hl_tester_write_dat(c->cfg->kernel, c->cfg->sizes[0], c->cfg->nb, c->run->nprow,
	                           c->run->npcol, f);
}

/* kernel: hpl: hpccinf.txt, every size, this run's grid (hpl.h). */
static int fill_hpccinf(FILE *f, void *arg)
{
	const fill_ctx *c = arg;
	return hl_hpl_write_input(&c->cfg->hpl, c->cfg->sizes, c->cfg->nsizes, c->cfg->nb,
	                          c->run->nprow, c->run->npcol, f);
}

/* One inputs: file of kernel: exec, with this run's values. */
typedef struct {
	const hl_input_file *in;
	hl_input_vars vars;
} input_ctx;

static int fill_input(FILE *f, void *arg)
{
	const input_ctx *c = arg;
	return hl_input_write(c->in->text, &c->vars, f);
}

/* One line a user can paste into a POSIX shell: single quotes where needed. */
static void print_quoted(FILE *f, const char *s)
{
	int plain = s[0] != '\0';
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		            "_-./=:,+@%", *p))
			plain = 0;
	if (plain) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

static int fill_command(FILE *f, void *arg)
{
	const fill_ctx *c = arg;
	/* A comment ends at a newline: a directory named with one would put
	 * the rest of its name on a line of its own, which `sh command.txt`
	 * runs.  Control characters are written as \ooo. */
	fputs("# run in: ", f);
	for (const unsigned char *p = (const unsigned char *)c->cwd; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			fprintf(f, "\\%03o", *p);
		else
			fputc(*p, f);
	fputc('\n', f);
	for (size_t i = 0; c->env && c->env[i]; i++) {
		print_quoted(f, c->env[i]);
		fputc(' ', f);
	}
	for (size_t i = 0; c->argv[i]; i++) {
		if (i)
			fputc(' ', f);
		print_quoted(f, c->argv[i]);
	}
	fputc('\n', f);
	return 0;
}

/* ---- the command ---------------------------------------------------------- */

typedef struct {
	char **v;
	size_t n, cap;
} argv_t;

static int argv_push(argv_t *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		char **v = realloc(a->v, cap * sizeof *v);
		if (v == NULL)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	if ((a->v[a->n] = strdup(s)) == NULL)
		return -1;
	a->v[++a->n] = NULL;
	return 0;
}

static int argv_pushf(argv_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int argv_pushf(argv_t *a, const char *fmt, ...)
{
	char buf[PATH_MAX + 64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return argv_push(a, buf);
}

static void argv_free(argv_t *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof *a);
}

/* v (NULL-terminated, malloc'd) in place of a's words. */
static void argv_replace(argv_t *a, char **v)
{
	argv_free(a);
	a->v = v;
	while (v[a->n])
		a->n++;
	a->cap = a->n + 1;
}

/* Ranks that ended early: those that never called MPI_Finalize (the
 * cause), then what Hydra says of the one it saw die, often a rank it
 * killed because the others left (EXIT CODE: 9). */
static void rank_died(hl_run *run, const char *log, const char *unfinalized)
{
	const char *s = strstr(log, "BAD TERMINATION");
	const char *pid = s ? strstr(s, "PID ") : NULL, *code = s ? strstr(s, "EXIT CODE:") : NULL;
	char died[256] = "";
	if (s)
		snprintf(died, sizeof died, "a rank died: %.*s, %.*s; ",
		         pid ? (int)strcspn(pid, "\n") : 0, pid ? pid : "",
		         code ? (int)strcspn(code, "\n") : 0, code ? code : "");
	if (unfinalized)
		fail(run, 1, "%s; %smpiexec exited with status %d", unfinalized, died,
		     run->job.exit_code);
	else
		fail(run, 1, "%.*s", (int)strlen(died) - 2, died);   /* without its "; " */
}

/* MPICH's line of a rank's MPI_Abort ("... MPI_Abort(COMM, CODE) -
 * process RANK"), with that rank in *rank (-1 if it names none). */
static const char *mpich_abort_line(const char *log, int *rank)
{
	const char *s = strstr(log, "MPI_Abort(");
	if (s) {
		const char *p = strstr(s, " - process ");
		*rank = p && p < s + strcspn(s, "\n") ? atoi(p + strlen(" - process ")) : -1;
	}
	return s;
}

/* The launcher's line of this rank's MPI_Abort, if the log kept it (MPICH
 * prints one a rank, Open MPI's mpirun one a job); another rank's is not
 * this one's: when every rank aborts, the runtime's first need not be the
 * log's. */
static const char *abort_line_of(const char *log, int rank)
{
	int r;
	for (const char *s = log; (s = mpich_abort_line(s, &r)) != NULL; s++)
		if (r == rank)
			return s;
	for (const char *s = log; (s = hl_openmpi_abort_line(s, &r)) != NULL; s++)
		if (r == rank)
			return s;
	return NULL;
}

/* The runtime's record of a rank's MPI_Abort, whatever reached the log. */
static void aborted_by(hl_run *run, const char *log)
{
	const char *s = abort_line_of(log, run->abort.rank);
	fail(run, 1, "rank %d called MPI_Abort (error code %d)%s%.*s", run->abort.rank,
	     run->abort.code, s ? ": " : "", s ? (int)strcspn(s, "\n") : 0, s ? s : "");
}

/* Why a job failed, from the runtime's records and what mpiexec printed;
 * unfinalized: the ranks that ended without MPI_Finalize, or NULL. */
static void diagnose(hl_run *run, const hl_config *cfg, const char *program,
                     const char *unfinalized)
{
	const char *log = run->job.log ? run->job.log : "";
	const char *s;
	char msg[sizeof run->error];
	int rank;
	if (run->job.exec_failed) {
		fail(run, 1, "cannot start %s: %s",
		     hl_slurm_wanted(cfg) ? "srun" : cfg->mpiexec ? cfg->mpiexec[0]
		     : cfg->mpi == HL_MPI_OPENMPI ? "mpirun" : DEFAULT_MPIEXEC,
		     strerror(run->job.exec_failed));
	} else if (run->job.stalled) {
		fail(run, 1, "stalled: no rank's virtual time moved for %g s; the job was ended "
		     "(each rank's state in log.txt)", hl_emu_stall_s(cfg->emu.stall_timeout_s));
	} else if (run->job.timed_out) {
		fail(run, 1, "the job ran longer than timeout: %g s and was ended", cfg->timeout);
	} else if (hl_slurm_cancelled(log, run->job.interrupted, msg, sizeof msg)) {
		fail(run, 1, "%s", msg);
	} else if (run->job.interrupted) {
		fail(run, 1, "interrupted: the job was ended");
	} else if (run->aborted) {
		aborted_by(run, log);
	} else if ((s = strstr(log, "execvp error on file")) != NULL) {
		fail(run, 1, "the program could not be started on a host: %s (%.*s)", program,
		     (int)strcspn(s, "\n"), s);
	} else if ((s = strstr(log, "ssh: ")) != NULL || (s = strstr(log, "Could not resolve")) ||
	           (s = strstr(log, "Connection refused")) || (s = strstr(log, "Permission denied"))) {
		fail(run, 1, "a host could not be reached: %.*s", (int)strcspn(s, "\n"), s);
	} else if (hl_openmpi_failure(log, msg, sizeof msg)) {
		fail(run, 1, "%s", msg);
	} else if ((s = mpich_abort_line(log, &rank)) != NULL) {
		fail(run, 1, "a rank called MPI_Abort: %.*s", (int)strcspn(s, "\n"), s);
	} else if (unfinalized || strstr(log, "BAD TERMINATION") != NULL) {
		rank_died(run, log, unfinalized);
	} else if (run->job.exit_code != 0) {
		fail(run, 1, "mpiexec exited with status %d%s", run->job.exit_code,
		     run->job.signal ? " (killed by a signal)" : "");
	} else if (!run->passed) {
		fail(run, 1, "the tester did not pass%s%s", run->results.error ? ": " : "",
		     run->results.error ? run->results.error : "");
	}
}

static void make_dir_name(const hl_config *cfg, const hl_run_opts *o, char *out, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	char stamp[32];
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	const char *suffix = o->baseline ? "-cyclic" : "";
	snprintf(out, len, "runs/%s-%s%s", cfg->name, stamp, suffix);
	/* mkdir, not stat: of two runs started in the same second, each gets a
	 * directory of its own (mkdir is atomic, a stat then a mkdir is not). */
	char err[256];
	if (hl_mkdir_p("runs", err, sizeof err) < 0)
		return;   /* said by the caller's hl_mkdir_p */
	for (int k = 2; mkdir(out, 0777) < 0 && errno == EEXIST && k < 1000; k++)
		snprintf(out, len, "runs/%s-%s%s-%d", cfg->name, stamp, suffix, k);
}

/* --out DIR that holds an earlier run: say so, and remove what the job
 * writes after it ends (report.json, log.txt), so that a dry run or a
 * failed start leaves nothing that looks like this run's result.  unlink
 * removes a link, never what it points to. */
static void reuse_dir(const char *dir)
{
	static const char *const stale[] = { HL_RD_REPORT, HL_RD_LOG, HL_RD_TRACE };
	char path[PATH_MAX + 32];
	int found = 0;
	for (size_t i = 0; i < sizeof stale / sizeof stale[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, stale[i]);
		found |= unlink(path) == 0;
	}
	snprintf(path, sizeof path, "%s/" HL_RD_PLAN, dir);
	struct stat st;
	found |= lstat(path, &st) == 0;
	if (found)
		fprintf(stderr, "hetlaunch: note: reusing the run directory %s: the earlier "
		        "run's files are replaced\n", dir);
}

/* The arguments a layout's plan gives its kernel (HL_INPUT_PLAN). */
static int plan_args(const hl_config *cfg, const hl_plan *plan, int baseline, argv_t *a)
{
	char **v = NULL;
	size_t n = 0;
	int oom = cfg->layout->kernel_args == NULL ||
	          cfg->layout->kernel_args(plan, baseline, &v, &n) < 0;
	for (size_t i = 0; i < n; i++) {
		oom |= argv_push(a, v[i]);
		free(v[i]);
	}
	free(v);
	return oom;
}

/* A program without a result line (INTERFACE.md, kernel exec): one result
 * of the given time, marked in the report as the job's wall time (span 0)
 * or as the largest rank's virtual span (span 1). */
static void silent_result(const hl_config *cfg, hl_run *run, double time, int span)
{
	hl_result *r = malloc(sizeof *r);
	if (r == NULL)
		return;
	*r = (hl_result){ .n = cfg->n, .nb = cfg->nb, .nprow = run->nprow, .npcol = run->npcol,
	                  .time = time, .gflops = NAN, .rate_time = NAN,
	                  .residual = NAN, .wall = !span, .span = span };
	strcpy(r->check, run->passed ? "PASSED" : "FAILED");
	free(run->results.results);
	run->results.results = r;
	run->results.nresults = 1;
}

/* Under the virtual clock the job's wall time says nothing of the
 * emulated cluster (two runs of the same virtual times took 0.34 and
 * 0.48 s): a silent program's time is its largest rank's MPI_Init to
 * MPI_Finalize, compute + wait, on the runtime's account.  -1 when some
 * rank has no figures. */
static int span_result(const hl_config *cfg, hl_run *run)
{
	if (run->nranks == 0 || run->results.nranks != run->nranks)
		return -1;
	double span = 0;
	for (size_t k = 0; k < run->nranks; k++)
		span = fmax(span, run->results.ranks[k].compute + run->results.ranks[k].wait);
	silent_result(cfg, run, span, 1);
	return 0;
}

/* ---- the job, stage by stage ---------------------------------------------- */

/* What the stages of hl_run_job share.  Each stage returns 0, or the exit
 * status after fail(); job_free is the one cleanup, whichever stage
 * stopped (a zeroed emu, argv or ranks frees nothing). */
typedef struct {
	const hl_config *cfg;
	const hl_plan *plan;
	const hl_run_opts *o;
	hl_run *run;
	hl_ranks ranks;
	const hl_kernel_def *row;     /* the kernel's row (kernels.h) */
	const char *user_program;     /* program:, or NULL for the row's own */
	char program[PATH_MAX];
	char preload[PATH_MAX];       /* the runtime; "" for --no-preload */
	int slurm;                    /* in an allocation: srun (slurm.h) */
	int ompi;                     /* mpirun and a rankfile (openmpi.h) */
	int rankmap;                  /* Hydra takes -rankmap */
	char cwd[PATH_MAX];           /* the run directory, absolute */
	hl_emu emu;                   /* the emulation / wake-up segment */
	int emu_watch;                /* the virtual clock's progress and stall watchdog */
	hl_hpcc_watch hpcc;           /* kernel: hpl: hpcc's sections as they come */
	argv_t argv;                  /* the command */
	int lock_fd;                  /* DIR/.hetlaunch.lock, held; -1: none */
	double started;               /* hl_now() when the job was started */
	char err[1024];
} job_state;

/* The one cleanup, whichever stage stopped the job (or none did). */
static void job_free(job_state *j)
{
	argv_free(&j->argv);
	hl_ranks_free(&j->ranks);
	hl_emu_destroy(&j->emu);
	if (j->lock_fd >= 0)
		close(j->lock_fd);   /* releases the run directory */
}

/* The ranks (the plan's, or one process per machine for --baseline) and
 * the placement record they are checked against. */
static int job_ranks(job_state *j)
{
	hl_run *run = j->run;
	const hl_plan *plan = j->plan;
	if ((j->o->baseline ? hl_ranks_cyclic(plan, &j->ranks) : hl_ranks_from_plan(plan, &j->ranks))
	    < 0) {
		/* A failed ranks() freed its own partial arrays: job_free must not. */
		memset(&j->ranks, 0, sizeof j->ranks);
		return fail(run, 1, "out of memory");
	}
	run->nprow = j->ranks.nprow;
	run->npcol = j->ranks.npcol;
	run->nranks = j->ranks.nranks;
	/* Inside an allocation the ranks can run only on its nodes: a host
	 * outside it is refused here, before anything is written or started. */
	int st = hl_slurm_check_allocation(j->cfg, j->ranks.machine, j->ranks.nranks, j->err,
	                                   sizeof j->err);
	if (st)
		return fail(run, st, "%s", st == 1 ? "out of memory" : j->err);
	if (hl_placement_init(&run->placement, j->cfg, &j->ranks, j->cfg->emulate) < 0)
		return fail(run, 1, "out of memory");
	return 0;
}

/* The program to start, refused (stock tester's one size, its memory
 * limit) before anything is written. */
static int job_program(job_state *j)
{
	const hl_config *cfg = j->cfg;
	hl_run *run = j->run;
	j->row = hl_kernel_row(cfg->kernel, cfg->stock);
	/* A baseline of another kernel (layout columns: stock PDGEMM) runs
	 * that kernel's own program: program: names the plan's. */
	j->user_program = cfg->program;
	if (j->o->baseline && cfg->layout->baseline_kernel) {
		j->row = hl_kernel_find(cfg->layout->baseline_kernel, 0);
		j->user_program = NULL;
	}
	const hl_kernel_def *row = j->row;
	if (hl_kernel_program(row, j->user_program, j->program, sizeof j->program, j->err,
	                      sizeof j->err) < 0)
		return fail(run, 1, "%s", j->err);
	/* mpi: openmpi: the same program built for Open MPI (openmpi.h). */
	if (cfg->mpi == HL_MPI_OPENMPI && j->user_program == NULL && !row->openmpi &&
	    hl_openmpi_program(row, j->program, sizeof j->program, j->err, sizeof j->err) < 0)
		return fail(run, 1, "%s", j->err);
	if (row->input == HL_INPUT_DAT && cfg->nsizes > 1)
		return fail(run, 2, "%s: tester: stock runs one size per job (n has %zu)", cfg->file,
		            cfg->nsizes);
	if (row->mem_limit && j->user_program == NULL) {
		size_t need = row->mem_need(row->id, cfg->n, cfg->nb, j->ranks.nprow, j->ranks.npcol);
		if (need > row->mem_limit) {
			char at[64] = "";   /* n's line and column, when the file has n: */
			if (cfg->n_loc.line)
				snprintf(at, sizeof at, ":%zu:%zu", cfg->n_loc.line, cfg->n_loc.col);
			return fail(run, 2, "%s%s: n = %zu on a %zu x %zu grid needs %zu bytes per "
			            "process in the stock %s, which has %zu: lower n or use more processes",
			            cfg->file, at, cfg->n, run->nprow, run->npcol, need, j->program,
			            row->mem_limit);
		}
	}
	return 0;
}

/* Each rank's machine for the report, the runtime to preload, and the
 * host file check: the last refusals before anything is written. */
static int job_runtime(job_state *j)
{
	const hl_config *cfg = j->cfg;
	hl_run *run = j->run;
	size_t nranks = j->ranks.nranks;
	free(run->rank_machine);
	if ((run->rank_machine = malloc(nranks * sizeof *run->rank_machine)) == NULL)
		return fail(run, 1, "out of memory");
	memcpy(run->rank_machine, j->ranks.machine, nranks * sizeof *run->rank_machine);
	const char *env = cfg->mpi == HL_MPI_OPENMPI ? "HETLAUNCH_PRELOAD_OPENMPI"
	                                             : "HETLAUNCH_PRELOAD";
	/* The runtime beside the binary:
	 * bin/hetlaunch -> lib/hetlaunch/libhetlaunch-rt.so. */
	if (!j->o->no_preload &&
	    hl_beside_binary(env, hl_mpi_runtime(cfg), 0, j->preload, sizeof j->preload) != 0)
		return fail(run, 1, "cannot find the runtime %s (set %s to its path)",
		            j->preload[0] ? j->preload : "libhetlaunch-rt.so", env);

	j->slurm = hl_slurm_wanted(cfg);
	j->ompi = cfg->mpi == HL_MPI_OPENMPI;
	char why[512];
	if (j->slurm && hl_slurm_het_refused(why, sizeof why))
		return fail(run, 2, "%s", why);
	/* Hydra reads "host:k" as k processes: a host with ':' cannot be said
	 * in hosts.mpich (`hetlaunch hostfile` refuses it the same way). */
	if (!j->slurm && !j->ompi) {
		diag hd;
		int st = 0;
		diag_init(&hd, cfg->file);
		if (hl_hostfile_check(HL_HOSTS_MPICH, cfg, &j->ranks, &hd) < 0)
			st = fail(run, 2, "%s", hd.msg[0] ? hd.msg[0] : "out of memory");
		diag_free(&hd);
		return st;
	}
	return 0;
}

/* An emulation this computer cannot run is refused before job_dir writes
 * anything, in a dry run too: this computer is measured for it then. */
/* The machine holding two ranks of the job, or -1. */
static long shared_machine(const hl_ranks *r, size_t nmachines)
{
	unsigned char *seen = calloc(nmachines ? nmachines : 1, 1);
	long twice = -1;
	for (size_t k = 0; seen && twice < 0 && k < r->nranks; k++)
		if (seen[r->machine[k]]++)
			twice = (long)r->machine[k];
	free(seen);
	return twice;
}

/* kernel: hpl under the virtual clock with cpu_time: false: hpcc's
 * LatencyBandwidth (which cannot be skipped) lengthens its loops of
 * ping-pongs, 1.5 times a round, until one lasts ten MPI_Wtick()s; between
 * two ranks of one machine they cost nothing on the flop models, and only
 * the clock's poll ticks end them (vproc/runtime/core/vclock.c): the
 * 7-rank run of doc/design/virtual-clock.md was still there after 10
 * minutes.  Refused before anything is written. */
static int hpl_flops_only(job_state *j)
{
	const hl_config *cfg = j->cfg;
	const hl_emulation *e = &cfg->emu;
	if (cfg->kernel != HL_KERNEL_HPL || !e->virtual_clock || !e->no_cpu_time)
		return 0;
	long m = shared_machine(&j->ranks, cfg->nmachines);
	if (m < 0)
		return 0;
	return fail(j->run, 2, "%s:%zu:%zu: emulate: cpu_time: false with kernel: hpl and two ranks "
	            "on machine %s: hpcc's LatencyBandwidth times ping-pongs between them, which "
	            "cost nothing without the CPU time, and lengthens them until they last ten "
	            "clock ticks (minutes of wall time); leave cpu_time at its default (true) for "
	            "kernel: hpl", cfg->file, e->cpu_time_loc.line, e->cpu_time_loc.col,
	            cfg->machines[m].name);
}

static int job_speeds(job_state *j)
{
	hl_run *run = j->run;
	if (!j->cfg->emulate)
		return 0;
	if (hpl_flops_only(j))
		return run->status;
	run->host_mflops = j->o->host_mflops > 0 ? j->o->host_mflops : hl_host_mflops();
	int st = hl_emu_check(j->cfg, j->ranks.nranks, run->host_mflops, j->err, sizeof j->err);
	return st ? fail(run, st, "%s", j->err) : 0;
}

/* The PID a lock file names, or 0. */
static long lock_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	return strtol(buf, NULL, 10);
}

/* Two runs into one directory would leave one's report beside the other's
 * plan: each run holds an flock on DIR/.hetlaunch.lock until it ends, and
 * a second is refused.  The kernel drops an flock with its process, so a
 * killed run blocks nobody; the file stays (removing it would let two runs
 * lock two different files of one name). */
static int lock_dir(job_state *j)
{
	hl_run *run = j->run;
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/" HL_RD_LOCK, run->dir);
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
	if (fd < 0)
		return fail(run, 1, "%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		long pid = e == EWOULDBLOCK ? lock_holder(fd) : 0;
		close(fd);
		if (e != EWOULDBLOCK)
			return fail(run, 1, "%s: cannot lock: %s", path, strerror(e));
		if (pid > 0)
			return fail(run, 2, "%s: another hetlaunch (PID %ld) is running into this "
			            "directory: wait for it, or give another --out", run->dir, pid);
		return fail(run, 2, "%s: another hetlaunch is running into this directory: wait "
		            "for it, or give another --out", run->dir);
	}
	char pid[32];
	int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		/* the lock holds without the PID; the message then names none */
	}
	j->lock_fd = fd;
	return 0;
}

/* The run directory: --out DIR or a new runs/NAME-STAMP; j->cwd its
 * absolute path (the command and the job are given that). */
static int job_dir(job_state *j)
{
	hl_run *run = j->run;
	if (j->o->out_dir)
		snprintf(run->dir, sizeof run->dir, "%s", j->o->out_dir);
	else
		make_dir_name(j->cfg, j->o, run->dir, sizeof run->dir);
	if (hl_mkdir_p(run->dir, j->err, sizeof j->err) < 0)
		return fail(run, 1, "%s", j->err);
	if (lock_dir(j) != 0)
		return run->status;
	if (j->o->out_dir)
		reuse_dir(run->dir);   /* only once it is ours */
	if (realpath(run->dir, j->cwd) == NULL)
		return fail(run, 1, "%s: %s", run->dir, strerror(errno));
	return 0;
}

/* kernel: exec's inputs:, each with this run's values (the cyclic baseline
 * writes its own grid and mapping into its own directory). */
static int job_inputs(job_state *j)
{
	const hl_config *cfg = j->cfg;
	char path[PATH_MAX + 64];
	input_ctx ic = { NULL, { cfg->n, cfg->nb, j->ranks.nprow, j->ranks.npcol, j->ranks.nranks,
	                         j->o->baseline ? "cyclic" : "hetero" } };
	for (size_t i = 0; i < cfg->ninputs; i++) {
		ic.in = &cfg->inputs[i];
		snprintf(path, sizeof path, "%s/%s", j->run->dir, ic.in->file);
		if (hl_write_atomic(path, fill_input, &ic, j->err, sizeof j->err) < 0)
			return -1;
	}
	return 0;
}

/* plan.json, the host files this launcher reads, and the tester's .dat. */
static int job_files(job_state *j)
{
	const hl_config *cfg = j->cfg;
	const hl_run *run = j->run;
	const hl_ranks *r = &j->ranks;
	char path[PATH_MAX + 64], *err = j->err;
	size_t errlen = sizeof j->err;
	fill_ctx fc = { cfg, j->plan, run, NULL, j->cwd, NULL };
	snprintf(path, sizeof path, "%s/" HL_RD_PLAN, run->dir);
	int rc = hl_write_atomic(path, fill_plan, &fc, err, errlen);
	snprintf(path, sizeof path, "%s/" HL_RD_HOSTS_MPICH, run->dir);
	if (rc == 0)
		rc = hl_hostfile_write(path, HL_HOSTS_MPICH, cfg, r, err, errlen);
	snprintf(path, sizeof path, "%s/" HL_RD_HOSTS_SLURM, run->dir);
	if (rc == 0 && j->slurm)
		rc = hl_hostfile_write(path, HL_HOSTS_SLURM, cfg, r, err, errlen);
	snprintf(path, sizeof path, "%s/" HL_RD_HOSTS_OPENMPI, run->dir);
	if (rc == 0 && j->ompi && !cfg->emulate)
		rc = hl_hostfile_write(path, HL_HOSTS_OPENMPI, cfg, r, err, errlen);
	if (rc == 0 && j->row->input == HL_INPUT_DAT) {
		snprintf(path, sizeof path, "%s/%s", run->dir, hl_tester_dat_name(cfg->kernel));
		rc = hl_write_atomic(path, fill_dat, &fc, err, errlen);
	}
	if (rc == 0 && j->row->input == HL_INPUT_HPCC) {
		snprintf(path, sizeof path, "%s/%s", run->dir, HL_HPL_INPUT);
		rc = hl_write_atomic(path, fill_hpccinf, &fc, err, errlen);
	}
	if (rc == 0)
		rc = job_inputs(j);
	if (rc < 0)
		return fail(j->run, 1, "%s", err);
	hl_trace_clean(run->dir);   /* the runtime creates its parts O_EXCL */
	/* hpcc appends to its output: an earlier run's results must not be read
	 * as this one's. */
	snprintf(path, sizeof path, "%s/%s", run->dir, j->row->output ? j->row->output : "");
	if (j->row->output && unlink(path) < 0 && errno != ENOENT)
		return fail(j->run, 1, "%s: %s", path, strerror(errno));
	return 0;
}

/* Whether Hydra takes -rankmap, then the shared segment: the emulated
 * cluster's state or, without emulation, the runtime's wake-ups. */
static int job_segment(job_state *j)
{
	const hl_config *cfg = j->cfg;
	const hl_run_opts *o = j->o;
	hl_run *run = j->run;
	int st = 1;   /* set by hl_emu_create */
	/* Does this Hydra take -rankmap?  Asked by running `mpiexec -help`, so
	 * never in a dry run (it starts nothing: the plain host file then), and
	 * before the shared segment exists, which an interrupt here would leak. */
	j->rankmap = !cfg->emulate && !j->slurm && !j->ompi && !o->dry_run &&
	             hl_hydra_has_rankmap(cfg->mpiexec ? cfg->mpiexec[0] : DEFAULT_MPIEXEC) == 1;

	/* Without emulation, when every rank is on this computer, the segment
	 * carries the runtime's wake-ups (a rank that sends wakes the
	 * receiver at once). */
	if (!cfg->emulate && !o->dry_run && j->preload[0] && all_local(cfg, &j->ranks) &&
	    hl_emu_create(cfg, &j->ranks, 0.0, &j->emu, &st, j->err, sizeof j->err) < 0)
		return fail(run, st, "%s", j->err);
	if (cfg->emulate && !o->dry_run) {
		if (hl_emu_create(cfg, &j->ranks, run->host_mflops, &j->emu, &st, j->err,
		                  sizeof j->err) < 0)
			return fail(run, st, "%s", j->err);
		run->emulated = 1;
		if (!o->quiet)
			hl_emu_print_speeds(&j->emu, cfg);
	}
	return 0;
}

/* Where the ranks run: real hosts get a host file (grouped, with
 * -rankmap, when Hydra takes it); every rank of an emulated run is on
 * this computer: no host file.  Returns 0 or the status; *oom when a
 * word could not be pushed. */
static int push_hosts(job_state *j, int *oom)
{
	argv_t *a = &j->argv;
	char path[PATH_MAX + 64];
	if (j->cfg->emulate)
		return 0;
	if (!j->slurm && !j->ompi && !j->o->quiet)
		hl_hydra_mapping_warn(stderr, j->cfg, &j->ranks, !j->rankmap);
	if (!j->rankmap) {
		*oom |= argv_push(a, "-f") | argv_pushf(a, "%s/" HL_RD_HOSTS_MPICH, j->cwd);
		return 0;
	}
	snprintf(path, sizeof path, "%s/" HL_RD_HOSTS_GROUPED, j->run->dir);
	if (hl_hostfile_write(path, HL_HOSTS_MPICH_GROUPED, j->cfg, &j->ranks, j->err,
	                      sizeof j->err) < 0)
		return fail(j->run, 1, "%s", j->err);
	char *map = hl_hydra_rankmap(j->cfg, &j->ranks);
	*oom |= argv_push(a, "-f") | argv_pushf(a, "%s/" HL_RD_HOSTS_GROUPED, j->cwd);
	*oom |= map == NULL || argv_push(a, "-rankmap") || argv_push(a, map);
	free(map);
	return 0;
}

/* The binding option's value for this launcher (hostfile.h, hl_bind_list),
 * or NULL: none needed, or none possible, which is said on stderr (the
 * plan then runs unbound, as before; Open MPI's rankfile binds any plan). */
static char *bind_value(job_state *j, hl_bind_style style, int *oom)
{
	char *v = NULL;
	int rc = hl_bind_list(j->cfg, &j->ranks, style, style == HL_BIND_HYDRA && !j->rankmap, &v);
	*oom |= rc == -1;
	if (rc == -2 && !j->o->quiet)
		fprintf(stderr, "hetlaunch: note: ranks not bound to their cores: %s takes one "
		        "CPU list for every node, and the plan's nodes need different ones "
		        "(mpi: openmpi binds each rank by its rankfile)\n",
		        style == HL_BIND_SRUN ? "srun --cpu-bind" : "mpiexec.hydra -bind-to user:");
	return v;
}

/* Hydra's -bind-to user:..., on real hosts under Hydra itself. */
static int push_binding(job_state *j)
{
	int oom = 0;
	if (j->cfg->emulate || j->slurm || j->ompi)
		return 0;
	char *v = bind_value(j, HL_BIND_HYDRA, &oom);
	if (v)
		oom |= argv_push(&j->argv, "-bind-to") | argv_push(&j->argv, v);
	free(v);
	return oom;
}

/* The -genv NAME VALUE the ranks get, in this order, each when it applies. */
static int push_genv(job_state *j)
{
	const hl_config *cfg = j->cfg;
	const hl_ranks *r = &j->ranks;
	char nprow[32], npcol[32], nb[32], n[32];
	snprintf(nprow, sizeof nprow, "%zu", r->nprow);
	snprintf(npcol, sizeof npcol, "%zu", r->npcol);
	snprintf(nb, sizeof nb, "%zu", cfg->nb);
	snprintf(n, sizeof n, "%zu", cfg->n);
	int preload = j->preload[0] != '\0', shm = j->emu.shm != NULL;
	/* kernel: hpl: the runtime skips hpcc's costly other benchmarks */
	int hpl_only = j->run->hpl_only =
		preload && cfg->kernel == HL_KERNEL_HPL && !cfg->hpl.all_benchmarks;
	/* A rank per core or fewer: nobody needs the processor a waiting rank
	 * would give up, so it polls for about a millisecond before sleeping
	 * (a round trip of 8 bytes: 20 us with the sleep, a few without). */
	long ncores = sysconf(_SC_NPROCESSORS_ONLN);
	int poll_first = shm && getenv("HETLAUNCH_WAIT") == NULL && ncores > 0 &&
	           r->nranks <= (size_t)ncores;
	const struct { int on; const char *name, *value; } genv[] = {
		{ preload, "LD_PRELOAD", j->preload },
		{ preload, "HETLAUNCH_PLACEMENT", "1" },   /* every rank says where it runs */
		{ shm, "HETLAUNCH_SHM", j->emu.name },
		{ preload, "HETLAUNCH_TRACE", j->cwd },   /* the ranks' timelines (trace.h) */
		{ poll_first, "HETLAUNCH_WAIT", "4000,0,200000,200000" },
		{ hpl_only, "HETLAUNCH_HPCC_RUN", "HPL" },   /* hpcc's other sections skipped */
		{ 1, "HETLAUNCH_NPROW", nprow },
		{ 1, "HETLAUNCH_NPCOL", npcol },
		{ 1, "HETLAUNCH_NB", nb },
		{ 1, "HETLAUNCH_N", n },
	};
	int oom = 0;
	for (size_t i = 0; i < sizeof genv / sizeof genv[0]; i++)
		if (genv[i].on)
			oom |= argv_push(&j->argv, "-genv") | argv_push(&j->argv, genv[i].name) |
			       argv_push(&j->argv, genv[i].value);
	return oom;
}

/* The Hydra command: mpiexec [options] program [args], no shell. */
static int job_command(job_state *j)
{
	const hl_config *cfg = j->cfg;
	argv_t *a = &j->argv;
	int oom = 0, st;
	if (cfg->mpiexec)
		for (size_t i = 0; i < cfg->nmpiexec; i++)
			oom |= argv_push(a, cfg->mpiexec[i]);
	else
		oom |= argv_push(a, DEFAULT_MPIEXEC);
	if ((st = push_hosts(j, &oom)) != 0)
		return st;
	oom |= push_binding(j);
	oom |= argv_push(a, "-n") | argv_pushf(a, "%zu", j->ranks.nranks);
	oom |= push_genv(j);
	oom |= argv_push(a, j->program);
	char **kargs = hl_kernel_args(j->row, cfg->args, cfg->nargs, cfg->sizes, cfg->nsizes,
	                              cfg->nb, j->ranks.nprow, j->ranks.npcol);
	oom |= kargs == NULL;
	for (size_t i = 0; kargs && kargs[i]; i++)
		oom |= argv_push(a, kargs[i]);
	hl_kernel_args_free(kargs);
	if (j->row->input == HL_INPUT_PLAN)   /* what the layout's plan says */
		oom |= plan_args(cfg, j->plan, j->o->baseline, a);
	return oom ? fail(j->run, 1, "out of memory") : 0;
}

/* In a Slurm allocation or with mpi: openmpi, srun's or mpirun's command
 * made from the Hydra one takes its place; then command.txt. */
static int job_launcher(job_state *j)
{
	hl_run *run = j->run;
	char path[PATH_MAX + 64];
	char **other = NULL;
	snprintf(path, sizeof path, "%s/" HL_RD_HOSTS_SLURM, j->cwd);
	int oom = 0;
	char *bind = j->slurm ? bind_value(j, HL_BIND_SRUN, &oom) : NULL;
	int bad = oom || (j->slurm && hl_slurm_argv(j->argv.v, path, bind, &other, &run->job_env) < 0);
	free(bind);
	if (bad)
		return fail(run, 1, "cannot make the srun command (out of memory, or a comma in %s)",
		            j->preload);
	snprintf(path, sizeof path, "%s/" HL_RD_HOSTS_OPENMPI, j->cwd);
	if (j->ompi && hl_openmpi_argv(j->argv.v, j->cfg->mpiexec ? j->cfg->nmpiexec : 1, j->cfg,
	                               path, &other) < 0)
		return fail(run, 1, "cannot make the mpirun command (out of memory)");
	if (other)
		argv_replace(&j->argv, other);
	fill_ctx fc = { j->cfg, j->plan, run, j->argv.v, j->cwd, run->job_env };
	snprintf(path, sizeof path, "%s/" HL_RD_COMMAND, run->dir);
	if (hl_write_atomic(path, fill_command, &fc, j->err, sizeof j->err) < 0)
		return fail(run, 1, "%s", j->err);
	return 0;
}

/* --dry-run: the command on stdout, as command.txt has it (no comment). */
static void print_command(const job_state *j)
{
	char *const *env = j->run->job_env;
	for (size_t i = 0; env && env[i]; i++) {
		print_quoted(stdout, env[i]);
		putchar(' ');
	}
	for (size_t i = 0; j->argv.v[i]; i++) {
		if (i)
			putchar(' ');
		print_quoted(stdout, j->argv.v[i]);
	}
	putchar('\n');
}

/* What the job's watch does at every poll: hpcc's sections; under the
 * virtual clock the emulation's progress lines and stall watchdog, whose
 * message ends the job. */
static char *job_watch(void *ctx, double elapsed)
{
	job_state *j = ctx;
	if (j->cfg->kernel == HL_KERNEL_HPL)
		hl_hpcc_watch_poll(&j->hpcc, elapsed);
	return j->emu_watch ? hl_emu_watch(&j->emu, elapsed) : NULL;
}

/* Start the job and wait for it; log.txt is its output. */
static int job_spawn(job_state *j)
{
	hl_run *run = j->run;
	/* A program that is not there fails here, not in every rank. */
	if (strchr(j->program, '/') && access(j->program, X_OK) != 0)
		return fail(run, 1, "the program %s cannot be run: %s", j->program, strerror(errno));
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/" HL_RD_LOG, run->dir);
	hl_spawn_opts so = { j->argv.v, j->cwd, path, j->cfg->timeout, !j->o->quiet, run->job_env,
		             job_watch, j };
	if (j->emu.shm && j->cfg->emulate && j->cfg->emu.virtual_clock) {
		j->emu.progress_lines = !j->o->quiet;
		j->emu.stall_s = hl_emu_stall_s(j->cfg->emu.stall_timeout_s);
		j->emu_watch = 1;
	}
	hl_hpcc_watch_init(&j->hpcc, j->cwd);
	j->started = hl_now();
	if (hl_spawn(&so, &run->job, j->err, sizeof j->err) < 0)
		return fail(run, 1, "%s", j->err);
	if (j->cfg->kernel == HL_KERNEL_HPL) {   /* what came after the last poll */
		hl_hpcc_watch_poll(&j->hpcc, run->job.elapsed);
		run->hpl_wall = hl_hpcc_watch_hpl(&j->hpcc, run->job.elapsed);
	}
	return 0;
}

/* emulate: {compute: skip}: the BLAS were not run, so no result is
 * checked, whatever the program said: residual null, check NOCHECK, and a
 * result counts as passed when the job ended normally. */
static void results_unchecked(hl_run *run)
{
	for (size_t i = 0; i < run->results.nresults; i++) {
		run->results.results[i].residual = NAN;
		strcpy(run->results.results[i].check, "NOCHECK");
	}
	/* HPL's own check then read a matrix never factorised: not an error */
	if (run->results.error_is_check) {
		free(run->results.error);
		run->results.error = NULL;
		run->results.error_is_check = 0;
	}
	run->results.passed = run->results.nresults > 0 && run->results.finished;
}

/* What the kernel's parser reads: the log, then the file the program wrote
 * its results into (kernels.h, output), if any; NULL when out of memory. */
static char *job_output(job_state *j)
{
	const char *log = j->run->job.log ? j->run->job.log : "";
	if (j->row->output == NULL)
		return j->run->job.log;
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/%s", j->run->dir, j->row->output);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (m) {
		fprintf(m, "%s\n", log);
		for (int c; f && (c = fgetc(f)) != EOF && c != '\0';)
			fputc(c, m);
		fclose(m);
	}
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	return text;
}

/* The ranks' compute and wait: the program's own hetlaunch-rank lines
 * first (hl-driver's, unchanged), else the runtime's account through the
 * segment (vproc/runtime/core/account.c), else none and why. */
static void job_rank_times(job_state *j)
{
	hl_run *run = j->run;
	size_t n = run->nranks, got = 0;
	if (run->results.nranks > 0) {
		run->ranks_source = "program";
		return;
	}
	hl_rank_time *t = j->emu.shm && n ? calloc(n, sizeof *t) : NULL;
	if (t && (got = hl_emu_rank_times(&j->emu, n, t)) == n) {
		run->results.ranks = t;
		run->results.nranks = n;
		run->ranks_source = "runtime";
		return;
	}
	free(t);
	const char *none = "the program printed no hetlaunch-rank lines and";
	if (!j->preload[0])
		snprintf(run->ranks_missing, sizeof run->ranks_missing,
		         "%s the runtime was not preloaded (--no-preload)", none);
	else if (!j->emu.shm)
		snprintf(run->ranks_missing, sizeof run->ranks_missing, "%s the ranks do not all run on "
		         "this computer: the runtime has no shared segment to report through", none);
	else if (n > 0 && t == NULL)
		snprintf(run->ranks_missing, sizeof run->ranks_missing, "out of memory");
	else
		snprintf(run->ranks_missing, sizeof run->ranks_missing, "%s only %zu of %zu ranks "
		         "reached MPI_Finalize under the runtime", none, hl_emu_finalized(&j->emu), n);
}

/* The results in the log: passed, the predicted time, the measured one. */
/*
 * kernel: exec without hetlaunch-result lines: the program's own time and
 * verdict, by the file's result: patterns or the stock testers' lines
 * (exec_result.h), into run->results (its rank times kept).  Returns the
 * verdict: 1, 0, or -1 when the log says none.
 */
static int exec_results(job_state *j, const char *log)
{
	const hl_config *cfg = j->cfg;
	hl_run *run = j->run;
	hl_results got;
	int verdict = -1;
	hl_results_init(&got);
	if (hl_exec_result_parse(&cfg->result, hl_config_model(cfg), log, &got, &verdict) < 0) {
		hl_results_free(&got);
		return -1;
	}
	for (size_t i = 0; i < got.nresults; i++) {
		hl_result *r = &got.results[i];
		if (r->n == 0) {   /* a pattern's: the problem is the file's */
			r->n = got.nresults == cfg->nsizes ? cfg->sizes[i] : cfg->n;
			r->nb = cfg->nb;
			r->nprow = run->nprow;
			r->npcol = run->npcol;
			strcpy(r->check, verdict == 0 ? "FAILED" : verdict == 1 ? "PASSED" : "");
		}
	}
	hl_rank_time *ranks = run->results.ranks;
	size_t nranks = run->results.nranks;
	run->results.ranks = NULL;
	hl_results_free(&run->results);
	run->results = got;
	free(run->results.ranks);
	run->results.ranks = ranks;
	run->results.nranks = nranks;
	return verdict;
}

static void job_results(job_state *j)
{
	const hl_config *cfg = j->cfg;
	const hl_plan *plan = j->plan;
	int baseline = j->o->baseline;
	hl_run *run = j->run;
	char *text = job_output(j);
	j->row->parse(j->row->id, text ? text : run->job.log, &run->results);
	int verdict = -1;   /* exec: its own result lines' (exec_result.h) */
	if (cfg->kernel == HL_KERNEL_EXEC && run->results.nresults == 0)
		verdict = exec_results(j, text ? text : run->job.log);
	if (text != run->job.log)
		free(text);
	job_rank_times(j);
	if (cfg->emulate && cfg->emu.skip_compute)
		results_unchecked(run);
	/* The program's own clock reads and the runtime's account are both
	 * virtual under the virtual clock (the runtime interposes them). */
	int virt = run->emulated && cfg->emu.virtual_clock && j->preload[0];
	if (cfg->kernel == HL_KERNEL_EXEC) {
		run->passed = run->job.exit_code == 0 && !run->job.timed_out && !run->job.interrupted &&
		              !run->job.stalled;
		if (verdict >= 0)
			run->passed &= verdict;
		else if (run->results.nresults > 0)
			run->passed &= run->results.passed;
		if (run->results.nresults == 0 && (!virt || span_result(cfg, run) < 0)) {
			silent_result(cfg, run, run->job.elapsed, 0);
			virt = 0;
		}
	} else {
		run->passed = run->results.passed && run->job.exit_code == 0;
	}
	run->time_clock = virt ? "virtual" : "wall";
	/* A layout that predicts its job's time: emulated, a machine of cycle
	 * time t runs at K/t, so one unit of cycle_time takes 1/K s. */
	if (cfg->layout->predicted_time && run->emulated && j->emu.K > 0)
		/* the plan's (plan.c, the same K when emulate: mflops is given) */
		run->predicted_time = plan->seconds[baseline] > 0
		                      ? plan->seconds[baseline]
		                      : cfg->layout->predicted_time(plan, baseline) / j->emu.K;
	for (size_t i = 0; i < run->results.nresults; i++)
		run->time += isfinite(run->results.results[i].rate_time) &&
		             run->results.results[i].rate_time > 0
		                     ? run->results.results[i].rate_time
		                     : run->results.results[i].time;
}

/* Ranks that called MPI_Init under the runtime and ended without
 * MPI_Finalize did not finish their work, whatever mpiexec's status says
 * (MPICH's is 0 for them).  Returns 1 with the ranks in why. */
static int unfinalized(const hl_emu *emu, size_t nranks, char *why, size_t len)
{
	char list[128];
	size_t n = emu->shm ? hl_emu_unfinalized(emu, list, sizeof list) : 0;
	if (n == 0)
		return 0;
	snprintf(why, len, "%s %s of %zu ended without calling MPI_Finalize (exit or return from "
	         "main before it; %zu of %zu ranks called it)", n == 1 ? "rank" : "ranks", list,
	         nranks, hl_emu_finalized(emu), nranks);
	return 1;
}

/* Why the job failed, if it did: the log, where the ranks ran, whether
 * they all loaded the runtime.  Sets run->status (the report is written
 * either way). */
static void job_verdict(job_state *j)
{
	const hl_config *cfg = j->cfg;
	hl_run *run = j->run;
	run->status = 0;
	char why[300];
	run->aborted = hl_emu_aborted(&j->emu, &run->abort);
	run->abort.at = run->aborted ? run->abort.at - j->started : 0.0;
	diagnose(run, cfg, j->program,
	         unfinalized(&j->emu, run->nranks, why, sizeof why) ? why : NULL);
	/* The runtime ended the job, and said why: that, not mpiexec's status. */
	const char *refused = hl_emu_refusal(&j->emu);
	if (refused)
		fail(run, 1, "the runtime ended the job: %s", refused);
	if (j->preload[0])
		hl_placement_check(&run->placement, run->job.log);
	if (run->placement.status == HL_PLACE_WRONG && run->status == 0) {
		char where[sizeof run->error - 16];
		hl_placement_text(&run->placement, where, sizeof where);
		fail(run, 1, "placement: %s", where);
	}
	/* A rank that did not load the runtime (a library replaced under a
	 * running job, a preload the loader refused) ran at this computer's
	 * speed on no emulated network: its times mean nothing. */
	if (run->emulated && j->preload[0] && run->status == 0 && cfg->kernel != HL_KERNEL_EXEC &&
	    hl_emu_attached(&j->emu) < run->nranks)
		fail(run, 1, "emulation: %zu of %zu ranks attached to the runtime (%s not preloaded?)",
		     hl_emu_attached(&j->emu), run->nranks, j->preload);
	/* A full disk: the results were read from memory, but log.txt, the
	 * record the run leaves, is cut: the run fails (as with report.json). */
	if (run->job.log_error && run->status == 0)
		fail(run, 1, "%s/log.txt: %s: the job's output is not all in it", run->dir,
		     strerror(run->job.log_error));
	if (run->status != 0)
		run->passed = 0;   /* a PASSED line before a hang or a kill is not a pass */
}

/* trace.json from the ranks' parts, whichever ranks left one; a failure
 * to write it is said but fails nothing (report.json's trace is null). */
static void job_trace(job_state *j)
{
	hl_run *run = j->run;
	if (!j->preload[0])
		return;
	if (hl_trace_write(run->dir, j->cfg, run->rank_machine, run->nranks, &run->trace, j->err,
	                   sizeof j->err) < 0)
		fprintf(stderr, "hetlaunch: note: no trace.json: %s\n", j->err);
}

/* The emulation's counters, read while the segment exists: report/ writes
 * them into report.json after the job (report.h). */
static void job_emulation(job_state *j)
{
	hl_run *run = j->run;
	run->finished = 1;
	if (!run->emulated)
		return;
	hl_emu_overruns(&j->emu, &run->overrun_fraction, &run->overrun_flagged);
	size_t len = 0;
	FILE *m = open_memstream(&run->emulation_json, &len);
	if (m == NULL)
		return;
	jw w;
	jw_init(&w, m);
	int flagged;
	double frac;
	hl_emu_report(&j->emu, j->cfg, &w, &flagged, &frac);
	if (fclose(m) != 0) {
		free(run->emulation_json);
		run->emulation_json = NULL;
	}
}

/* Refuse what cannot work before anything is written; then the files,
 * the segment, the command; then (unless a dry run) the job and its
 * report.  Every stage that stops leaves its message in run->error. */
int hl_run_job(const hl_config *cfg, const hl_plan *plan, const hl_run_opts *o, hl_run *run)
{
	memset(run, 0, sizeof *run);
	hl_results_init(&run->results);
	run->job.exit_code = -1;
	run->hpl_wall = -1;
	run->baseline = o->baseline;
	job_state j;
	memset(&j, 0, sizeof j);
	j.lock_fd = -1;
	j.cfg = cfg;
	j.plan = plan;
	j.o = o;
	j.run = run;
	/* In this order: every refusal (exit 2) before job_dir writes a file. */
	static int (*const stages[])(job_state *) = {
		job_ranks, job_program, job_runtime, job_speeds, job_dir, job_files, job_segment, job_command,
		job_launcher,
	};
	int st = 0;
	for (size_t i = 0; st == 0 && i < sizeof stages / sizeof stages[0]; i++)
		st = stages[i](&j);
	if (st == 0 && o->dry_run)
		print_command(&j);
	else if (st == 0 && (st = job_spawn(&j)) == 0) {
		job_results(&j);
		job_verdict(&j);
		job_trace(&j);
		job_emulation(&j);
	}
	job_free(&j);
	return run->status;
}

int hl_run_precheck(const hl_config *cfg, size_t nranks, hl_run_opts *o, char *err,
                    size_t errlen)
{
	if (!cfg->emulate)
		return 0;
	if (o->host_mflops <= 0)
		o->host_mflops = hl_host_mflops();
	return hl_emu_check(cfg, nranks, o->host_mflops, err, errlen);
}

void hl_run_free(hl_run *run)
{
	hl_results_free(&run->results);
	hl_spawn_result_free(&run->job);
	free(run->report);
	run->report = NULL;
	free(run->emulation_json);
	run->emulation_json = NULL;
	free(run->rank_machine);
	run->rank_machine = NULL;
	hl_placement_free(&run->placement);
	hl_strv_free(run->job_env);
	run->job_env = NULL;
}
