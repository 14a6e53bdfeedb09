/*
 * main.c -- the hetlaunch command: parse the command line, call, print.
 * Exit status: 0 success, 1 the job (or writing the output) failed,
 * 2 bad usage or bad input, with nothing started or written.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "memory.h"
#include "hostfile.h"
#include "cli.h"
#include "keys.h"
#include "run.h"
#include "slurm.h"
#include "plan.h"
#include "vproc.h"

enum { EXIT_JOB = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
	"usage: hetlaunch COMMAND [ARGS]\n"
	"       hetlaunch FILE                same as 'hetlaunch run FILE'\n"
	"\n"
	"Plan and launch stock ScaLAPACK load-balanced on machines of different speeds.\n"
	"\n"
	"commands:\n"
	"  plan FILE [--json] [--full]  compute the mapping of virtual processes to\n"
	"                          machines and its predicted costs; --json prints the plan\n"
	"                          document; --full every table whole (large lists are\n"
	"                          summarised: identical processors grouped)\n"
	"  hostfile FILE [--format F] [-o PATH] [--baseline cyclic]\n"
	"                          the host file that makes a launcher start each rank\n"
	"                          where the plan puts it; F: mpich (default),\n"
	"                          mpich-grouped, mpich-rankmap, openmpi, openmpi-seq, slurm\n"
	"  run FILE [--out DIR] [--baseline cyclic] [--dry-run] [--json] [--quiet]\n"
	"                          plan, write the run directory, start the MPI job,\n"
	"                          report measured against predicted (report.json);\n"
	"                          --adapt K: K phases, each planned on the speeds\n"
	"                          the one before measured (paper 002 s4.5)\n"
	"  compare FILE [--out DIR] [--json]\n"
	"                          run the cyclic baseline and the plan; the speedup\n"
	"  calibrate FILE [--json] [-o NEWFILE]\n"
	"  calibrate --from RUNDIR [FILE] [--json] [-o NEWFILE]\n"
	"                          measure each machine's cycle time (DGEMM 500)\n"
	"  simulate FILE [--json]  LU/QR task graph under the static, optimized and\n"
	"                          dynamic schedules of paper 002 s4 (layout 1d)\n"
	"  sbatch FILE [-o SCRIPT] [--submit]\n"
	"                          the Slurm batch script that asks for the list's\n"
	"                          nodes and runs 'hetlaunch run FILE'; --submit submits it\n"
	"  keys [--format F]       the machine list's keys; F: md (default), man, dict\n"
	"\n"
	"options:\n"
	"  --nodes TYPE=COUNT,...  plan, hostfile, simulate, sbatch, run --dry-run: plan the\n"
	"                          list's Slurm node types for counts, outside an allocation\n"
	"  -h, --help              show this help\n"
	"  -V, --version           show the version\n"
	"\n"
	"FILE is a YAML machine list; see hetlaunch(1) and configs/lu.yaml.\n"
	"Exit status: 0 success, 1 the job failed, 2 bad usage or bad input.\n";

int hl_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "hetlaunch: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'hetlaunch --help'.\n");
	return EXIT_USAGE;
}

/* stdout must have reached its destination: a full disk is a failure. */
static int finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("hetlaunch: writing the output");
		return EXIT_JOB;
	}
	return 0;
}

/* keys [--format md|man|dict]: the schema (keys.c), for doc/, the man page
 * and the fuzz dictionary. */
static int cmd_keys(int argc, char **argv)
{
	const char *format = "md";
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
			format = argv[++i];
		else if (strncmp(argv[i], "--format=", 9) == 0)
			format = argv[i] + 9;
		else
			return hl_usage_error("keys: unexpected argument '%s'", argv[i]);
	}
	if (hl_keys_print(stdout, format) < 0)
		return hl_usage_error("keys: --format must be md, man or dict, not '%s'", format);
	return finish_stdout();
}

/* A command's --help: its usage on stdout, exit 0 (like run's and compare's). */
static int is_help(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

static int print_help(const char *text)
{
	fputs(text, stdout);
	return finish_stdout();
}

static const char plan_help[] =
	"usage: hetlaunch plan FILE [--json]\n"
	"Compute the mapping of virtual processes to machines and its predicted\n"
	"costs; --json prints only the plan document.  Nothing runs.\n";

static int cmd_plan(int argc, char **argv)
{
	const char *file = NULL;
	int json = 0, full = 0;
	for (int i = 0; i < argc; i++) {
		if (is_help(argv[i]))
			return print_help(plan_help);
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--full") == 0)
			full = 1;
		else if (strcmp(argv[i], "--") == 0 && i + 1 < argc && file == NULL)
			file = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1] != '\0')
			return hl_usage_error("plan: unknown option '%s'", argv[i]);
		else if (file == NULL)
			file = argv[i];
		else
			return hl_usage_error("plan: unexpected argument '%s'", argv[i]);
	}
	if (file == NULL)
		return hl_usage_error("%s", "plan: missing FILE");

	diag d;
	diag_init(&d, file);
	hl_config cfg;
	hl_plan plan;
	int rc = 0;
	if (hl_config_load(file, &d, &cfg) < 0 || hl_plan_build_checked(&cfg, &d, &plan) < 0) {
		diag_print(&d, stderr);
		rc = EXIT_USAGE;
	} else {
		plan.full = full;
		if (json)
			hl_plan_print_json(&plan, stdout);
		else
			hl_plan_print_text(&plan, stdout);
		rc = finish_stdout();
		hl_plan_free(&plan);
	}
	hl_config_free(&cfg);
	diag_free(&d);
	return rc;
}

/* Where `hostfile` writes: stdout, or a file replaced atomically. */
typedef struct {
	hl_hosts_format fmt;
	const char *out;      /* NULL: stdout */
	int cyclic;           /* --baseline cyclic */
} hostfile_opts;

/* One option that takes a value.  Returns 0 or the usage exit status. */
static int hostfile_option(const char *opt, const char *val, hostfile_opts *o)
{
	if (strcmp(opt, "-o") == 0) {
		if (val[0] == '\0')
			return hl_usage_error("%s", "hostfile: -o needs a file name");
		o->out = val;
	} else if (strcmp(opt, "--format") == 0) {
		if (hl_hosts_format_parse(val, &o->fmt) < 0)
			return hl_usage_error("hostfile: unknown format '%s' (formats: %s)", val,
			                   HL_HOSTS_FORMATS);
	} else if (strcmp(val, "cyclic") == 0) {
		o->cyclic = 1;
	} else {
		return hl_usage_error("hostfile: unknown baseline '%s' (baselines: cyclic)", val);
	}
	return 0;
}

static const char hostfile_help[] =
	"usage: hetlaunch hostfile FILE [--format F] [-o PATH] [--baseline cyclic]\n"
	"The host file that makes a launcher start each rank where the plan puts it,\n"
	"on stdout or in PATH (replaced atomically).  F: mpich (default),\n"
	"mpich-grouped, mpich-rankmap, openmpi, openmpi-seq, slurm.\n";

/* 0, hl_usage_error's status, or -1 for --help. */
static int hostfile_args(int argc, char **argv, const char **file, hostfile_opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (is_help(a)) {
			return -1;
		} else if (strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0 ||
		    strcmp(a, "--baseline") == 0) {
			if (val == NULL)
				return hl_usage_error("hostfile: %s needs a value", a);
			i++;
			int rc = hostfile_option(a, val, o);
			if (rc != 0)
				return rc;
		} else if (strcmp(a, "--") == 0 && val != NULL && *file == NULL) {
			*file = argv[++i];
		} else if (a[0] == '-' && a[1] != '\0') {
			return hl_usage_error("hostfile: unknown option '%s'", a);
		} else if (*file == NULL) {
			*file = a;
		} else {
			return hl_usage_error("hostfile: unexpected argument '%s'", a);
		}
	}
	if (*file == NULL)
		return hl_usage_error("%s", "hostfile: missing FILE");
	return 0;
}

/* Ranks -> file.  Returns an exit status. */
static int hostfile_emit(const hl_plan *plan, const hostfile_opts *o, diag *d)
{
	hl_ranks r;
	int built = o->cyclic ? hl_ranks_cyclic(plan, &r) : hl_ranks_from_plan(plan, &r);
	if (built < 0) {
		fprintf(stderr, "hetlaunch: out of memory\n");
		return EXIT_JOB;
	}
	int rc = 0;
	if (hl_hostfile_check(o->fmt, plan->cfg, &r, d) < 0) {
		diag_print(d, stderr);
		rc = EXIT_USAGE;
	} else if (o->out != NULL) {
		char err[1024];
		int w = hl_hostfile_output(o->out, o->fmt, plan->cfg, &r, err, sizeof err);
		if (w < 0) {
			fprintf(stderr, "hetlaunch: %s\n", err);
			rc = w == -2 ? EXIT_USAGE : EXIT_JOB;
		}
	} else if (hl_hostfile_print(stdout, o->fmt, plan->cfg, &r) < 0 && !ferror(stdout)) {
		fprintf(stderr, "hetlaunch: out of memory\n");
		rc = EXIT_JOB;
	} else {
		rc = finish_stdout();   /* also reports a write error on stdout */
	}
	/* Hydra through MPICH 4.x makes each run of lines a node: say so
	 * when it happens, since nothing else would (README "Host files"). */
	size_t split = 0;
	if (o->fmt == HL_HOSTS_MPICH && rc == 0)
		split = hl_hostfile_split_hosts(plan->cfg, &r);
	if (rc == 0 && (o->fmt == HL_HOSTS_MPICH || o->fmt == HL_HOSTS_MPICH_GROUPED ||
	                o->fmt == HL_HOSTS_MPICH_RANKMAP))
		hl_hydra_mapping_warn(stderr, plan->cfg, &r, o->fmt == HL_HOSTS_MPICH);
	if (split > 0 && split != (size_t)-1)
		fprintf(stderr, "hetlaunch: note: %zu %s on more than one line; MPICH treats "
		        "each line as its own node: pass no -bind-to, or use mpich-grouped "
		        "with -rankmap where mpiexec has it (hetlaunch(1), HOSTFILE)\n",
		        split, split == 1 ? "host appears" : "hosts appear");
	hl_ranks_free(&r);
	return rc;
}

static int cmd_hostfile(int argc, char **argv)
{
	const char *file = NULL;
	hostfile_opts o = { HL_HOSTS_MPICH, NULL, 0 };
	int rc = hostfile_args(argc, argv, &file, &o);
	if (rc != 0)
		return rc < 0 ? print_help(hostfile_help) : rc;
	char err[1024];
	if (o.out && hl_output_check(o.out, err, sizeof err) < 0) {
		fprintf(stderr, "hetlaunch: hostfile: %s\n", err);
		return EXIT_USAGE;
	}
	diag d;
	diag_init(&d, file);
	hl_config cfg;
	hl_plan plan;
	if (hl_config_load(file, &d, &cfg) < 0 || hl_plan_build_n(&cfg, &d, &plan) < 0) {
		diag_print(&d, stderr);
		rc = EXIT_USAGE;
	} else {
		rc = hostfile_emit(&plan, &o, &d);
		hl_plan_free(&plan);
	}
	hl_config_free(&cfg);
	diag_free(&d);
	return rc;
}

/* ---- Slurm node types (nodes.h): where a type's nodes come from -------- */

static int counts_reader(void *ctx, hl_nodes *out, char *err, size_t len)
{
	return hl_nodes_parse_counts(ctx, out, err, len);
}

/* --nodes TYPE=COUNT,... plans for counts (plan, hostfile, simulate,
 * sbatch, run --dry-run); else, inside an allocation, the nodes are
 * Slurm's.  Takes --nodes out of argv.  0, or the usage status. */
static int nodes_option(const char *cmd, int *argc, char **argv)
{
	const char *val = NULL;
	int dry = 0, k = 2;
	for (int i = 2; i < *argc; i++) {
		const char *a = argv[i];
		dry |= strcmp(a, "--dry-run") == 0;
		if (strcmp(a, "--nodes") == 0 && i + 1 < *argc)
			val = argv[++i];
		else if (strncmp(a, "--nodes=", 8) == 0)
			val = a + 8;
		else
			argv[k++] = argv[i];
	}
	*argc = k;
	argv[k] = NULL;
	if (val == NULL) {
		if (getenv("SLURM_JOB_ID") && getenv("SLURM_JOB_ID")[0])
			hl_nodes_source(hl_slurm_read_nodes, NULL);
		return 0;
	}
	if (!(strcmp(cmd, "plan") == 0 || strcmp(cmd, "hostfile") == 0 ||
	      strcmp(cmd, "simulate") == 0 || strcmp(cmd, "sbatch") == 0 ||
	      (strcmp(cmd, "run") == 0 && dry)))
		return hl_usage_error("%s", "--nodes plans for counts: it is for plan, hostfile, "
		                      "simulate, sbatch and run --dry-run");
	char err[256];
	hl_nodes probe;
	if (hl_nodes_parse_counts(val, &probe, err, sizeof err) < 0)
		return hl_usage_error("%s", err);
	hl_nodes_free(&probe);
	hl_nodes_source(counts_reader, (void *)val);
	return 0;
}

int main(int argc, char **argv)
{
	/* A closed pipe (`hetlaunch run ... | head`) must not kill us in the
	 * middle of a job: the job would run on unwatched and its shared
	 * memory would stay.  Writes then fail with EPIPE instead. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return hl_usage_error("%s", "missing COMMAND");
	const char *cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		fputs(usage_text, stdout);
		return finish_stdout();
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("hetlaunch %s\n", VPROC_VERSION);
		return finish_stdout();
	}
	int rc = nodes_option(cmd, &argc, argv);
	if (rc != 0)
		return rc;
	if (strcmp(cmd, "sbatch") == 0)
		return hl_cmd_sbatch(argc - 2, argv + 2);
	if (strcmp(cmd, "plan") == 0)
		return cmd_plan(argc - 2, argv + 2);
	if (strcmp(cmd, "hostfile") == 0)
		return cmd_hostfile(argc - 2, argv + 2);
	if (strcmp(cmd, "run") == 0)
		return hl_cmd_run(argc - 2, argv + 2);
	if (strcmp(cmd, "compare") == 0)
		return hl_cmd_compare(argc - 2, argv + 2);
	if (strcmp(cmd, "calibrate") == 0)
		return hl_cmd_calibrate(argc - 2, argv + 2);
	if (strcmp(cmd, "simulate") == 0)
		return hl_cmd_simulate(argc - 2, argv + 2);
	if (strcmp(cmd, "keys") == 0)
		return cmd_keys(argc - 2, argv + 2);
	if (cmd[0] == '-')
		return hl_usage_error("unknown option '%s'", cmd);
	/* hetlaunch FILE [options] is hetlaunch run FILE [options] */
	return hl_cmd_run(argc - 1, argv + 1);
}
