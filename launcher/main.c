/*
 * main.c -- the hetlaunch command: parse the command line, call, print.
 * Exit status: 0 success, 1 the job (or writing the output) failed,
 * 2 bad usage or bad input, with nothing started or written.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "diag.h"
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
	"  plan FILE [--json]      compute the mapping of virtual processes to machines\n"
	"                          and its predicted costs; --json prints the plan document\n"
	"\n"
	"options:\n"
	"  -h, --help              show this help\n"
	"  -V, --version           show the version\n"
	"\n"
	"FILE is a YAML machine list; see hetlaunch(1) and configs/lu.yaml.\n"
	"Exit status: 0 success, 1 the job failed, 2 bad usage or bad input.\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
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

static int cmd_plan(int argc, char **argv)
{
	const char *file = NULL;
	int json = 0;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--") == 0 && i + 1 < argc && file == NULL)
			file = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1] != '\0')
			return usage_error("plan: unknown option '%s'", argv[i]);
		else if (file == NULL)
			file = argv[i];
		else
			return usage_error("plan: unexpected argument '%s'", argv[i]);
	}
	if (file == NULL)
		return usage_error("%s", "plan: missing FILE");

	diag d;
	diag_init(&d, file);
	hl_config cfg;
	hl_plan plan;
	int rc = 0;
	if (hl_config_load(file, &d, &cfg) < 0 || hl_plan_build(&cfg, &d, &plan) < 0) {
		diag_print(&d, stderr);
		rc = EXIT_USAGE;
	} else {
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

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("%s", "missing COMMAND");
	const char *cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		fputs(usage_text, stdout);
		return finish_stdout();
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("hetlaunch %s\n", VPROC_VERSION);
		return finish_stdout();
	}
	if (strcmp(cmd, "plan") == 0)
		return cmd_plan(argc - 2, argv + 2);
	if (strcmp(cmd, "run") == 0 || strcmp(cmd, "hostfile") == 0 ||
	    strcmp(cmd, "compare") == 0 || strcmp(cmd, "calibrate") == 0)
		return usage_error("'%s' is not in this version of hetlaunch yet; "
		                   "'hetlaunch plan FILE' is", cmd);
	if (cmd[0] == '-')
		return usage_error("unknown option '%s'", cmd);
	/* hetlaunch FILE is hetlaunch run FILE, which this version lacks. */
	return usage_error("'hetlaunch FILE' (run) is not in this version yet; try "
	                   "'hetlaunch plan %s'", cmd);
}
