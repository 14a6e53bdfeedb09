/*
 * main.c -- the hetlaunch command: find the command's row in the table
 * (commands.c), parse its arguments with it (options.c), call it.
 * Exit status: 0 success, 1 the job (or writing the output) failed,
 * 2 bad usage or bad input, with nothing started or written.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "config/nodes.h"
#include "layouts/lu_predict.h"
#include "launch/slurm.h"
#include "cli.h"

/* ---- Slurm node types (nodes.h): where a type's nodes come from -------- */

static int counts_reader(void *ctx, hl_nodes *out, char *err, size_t len)
{
	return hl_nodes_parse_counts(ctx, out, err, len);
}

/* --nodes TYPE=COUNT,... plans for counts (the rows of plan, hostfile,
 * simulate, sbatch and run --dry-run have it); else, inside an allocation,
 * the nodes are Slurm's.  0, or the usage status. */
static int nodes_source(const hl_command *c, const hl_cli_args *a)
{
	const char *val = a->val[HL_OPT_NODES];
	if (val == NULL) {
		if (getenv("SLURM_JOB_ID") && getenv("SLURM_JOB_ID")[0])
			hl_nodes_source(hl_slurm_read_nodes, NULL);
		return 0;
	}
	if (strcmp(c->name, "run") == 0 && !hl_cli_has(a, HL_OPT_DRY_RUN))
		return hl_usage_error("%s", "run: --nodes plans for counts: it needs --dry-run "
		                      "(inside an allocation the nodes are Slurm's)");
	char err[256];
	hl_nodes probe;
	if (hl_nodes_parse_counts(val, &probe, err, sizeof err) < 0)
		return hl_usage_error("%s", err);
	hl_nodes_free(&probe);
	hl_nodes_source(counts_reader, (void *)val);
	return 0;
}

/* HETLAUNCH_PLAN_BUDGET=F scales the seconds models' budgets while
 * planning (lu_predict.c), for the whole process; a value that is not a
 * factor > 0 is refused rather than read as the default, so that a typo
 * does not pass for a plan at another budget. */
static int plan_budget(void)
{
	const char *v = getenv("HETLAUNCH_PLAN_BUDGET");
	if (v == NULL || v[0] == '\0' || hl_seconds_budget_scale(v) == 0)
		return 0;
	return hl_usage_error("HETLAUNCH_PLAN_BUDGET=%s: not a finite number > 0 (it scales the planner's "
	                      "budgets for the seconds models: 1 keeps them, 0.01 is a hundredth)", v);
}

/* A command's row: its --help, or its parsed arguments to its function. */
static int dispatch(const hl_command *c, int argc, char **argv)
{
	hl_cli_args a;
	int rc = hl_cli_parse(c, argc, argv, &a);
	if (rc < 0) {
		hl_cli_command_help(stdout, c);
		return hl_finish_stdout();
	}
	if (rc == 0)
		rc = nodes_source(c, &a);
	if (rc == 0)
		rc = plan_budget();
	return rc ? rc : c->run(&a);
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
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		hl_cli_usage(stdout);
		return hl_finish_stdout();
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("hetlaunch %s\n", VPROC_VERSION);
		return hl_finish_stdout();
	}
	const hl_command *c = hl_command_find(cmd);
	if (c)
		return dispatch(c, argc - 2, argv + 2);
	if (cmd[0] == '-')
		return hl_usage_error("unknown option '%s'", cmd);
	/* hetlaunch FILE [options] is hetlaunch run FILE [options] */
	return dispatch(hl_command_find("run"), argc - 1, argv + 1);
}
