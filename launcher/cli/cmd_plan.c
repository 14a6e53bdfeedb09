/*
 * cmd_plan.c -- the commands that plan and print, nothing run: `plan`,
 * `hostfile`, and the generated lists `keys` (the YAML schema) and `help`
 * (the command table).
 */
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/keys.h"
#include "launch/hostfile.h"
#include "layouts/memory.h"
#include "layouts/plan.h"
#include "util/diag.h"
#include "util/fsutil.h"
#include "cli.h"

enum { EXIT_JOB = 1, EXIT_USAGE = 2 };

/* stdout must have reached its destination: a full disk is a failure. */
int hl_finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("hetlaunch: writing the output");
		return EXIT_JOB;
	}
	return 0;
}

/* keys [--format md|man|dict]: the schema (keys.c), for doc/, the man page
 * and the fuzz dictionary. */
int hl_cmd_keys(const hl_cli_args *a)
{
	const char *format = hl_cli_has(a, HL_OPT_FORMAT) ? a->val[HL_OPT_FORMAT] : "md";
	if (hl_keys_print(stdout, format) < 0)
		return hl_usage_error("keys: --format must be md, man or dict, not '%s'", format);
	return hl_finish_stdout();
}

/* help [--format text|man-synopsis|man-options|md]: the command table
 * (commands.c), for --help, the man page and doc/format.md. */
int hl_cmd_help(const hl_cli_args *a)
{
	const char *format = hl_cli_has(a, HL_OPT_FORMAT) ? a->val[HL_OPT_FORMAT] : "text";
	if (hl_cli_print(stdout, format) < 0)
		return hl_usage_error("help: --format must be text, man-synopsis, man-options or "
		                      "md, not '%s'", format);
	return hl_finish_stdout();
}

int hl_cmd_plan(const hl_cli_args *a)
{
	const char *file = a->file;
	int json = hl_cli_has(a, HL_OPT_JSON), full = hl_cli_has(a, HL_OPT_FULL);
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
		rc = hl_finish_stdout();
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

/* The options into o.  Returns 0 or the usage exit status. */
static int hostfile_options(const hl_cli_args *a, hostfile_opts *o)
{
	const char *fmt = a->val[HL_OPT_FORMAT];
	if (fmt && hl_hosts_format_parse(fmt, &o->fmt) < 0)
		return hl_usage_error("hostfile: unknown format '%s' (formats: %s)", fmt,
		                      HL_HOSTS_FORMATS);
	o->out = a->val[HL_OPT_OUTPUT];
	if (o->out && o->out[0] == '\0')
		return hl_usage_error("%s", "hostfile: -o needs a file name");
	o->cyclic = hl_cli_has(a, HL_OPT_BASELINE);
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
		rc = hl_finish_stdout();   /* also reports a write error on stdout */
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

int hl_cmd_hostfile(const hl_cli_args *a)
{
	const char *file = a->file;
	hostfile_opts o = { HL_HOSTS_MPICH, NULL, 0 };
	int rc = hostfile_options(a, &o);
	if (rc != 0)
		return rc;
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
