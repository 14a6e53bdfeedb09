/*
 * sbatch.c -- `hetlaunch sbatch FILE [--nodes TYPE=COUNT,...] [-o SCRIPT]
 * [--submit]`: the batch script that asks Slurm for the machine list's
 * nodes and runs `hetlaunch run FILE` in the allocation.
 *
 * What the script asks for, by the kind of the list's entries (one kind
 * per list: Slurm has no request that mixes them):
 *   features    one job, --constraint=[f1*c1&f2*c2] and --nodes=c1+c2
 *               (Slurm's "multiple counts"; one feature: --constraint=f1);
 *   hosts       --nodelist with every host, --nodes their number.
 * Partitions and het groups would be a heterogeneous job's components
 * (one job runs in one partition), which `run` refuses (slurm.h says
 * why): refused here too, before anything is written.
 * The counts are the types' nodes: --nodes's, or (inside an allocation)
 * the allocation's.  timeout: becomes --time, in whole minutes, one more
 * than the job's own limit so that hetlaunch ends the job and writes its
 * report before Slurm ends hetlaunch.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "config/config.h"
#include "util/fsutil.h"
#include "launch/spawn.h"

enum { EXIT_JOB = 1, EXIT_USAGE = 2 };

typedef struct {
	const hl_config *cfg;
	char self[PATH_MAX];     /* this hetlaunch, absolute */
	char file[PATH_MAX];     /* FILE, absolute */
	hl_node_kind kind;       /* the types' kind; NONE: hosts */
} script;

/* s in single quotes for sh: ' becomes '\''. */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		fputs(*s == '\'' ? "'\\''" : (char[]){ *s, 0 }, f);
	fputc('\'', f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Hosts entries: every distinct host once, in the list's order (sorted
 * copies mark the ones printed: 10^5 machines in n log n). */
static int request_hosts(FILE *f, const hl_config *cfg)
{
	char **sorted = malloc(cfg->nmachines * sizeof *sorted);
	unsigned char *done = calloc(cfg->nmachines, 1);
	size_t n = 0;
	if (sorted == NULL || done == NULL) {
		free(sorted);
		free(done);
		return -1;
	}
	for (size_t i = 0; i < cfg->nmachines; i++)
		sorted[i] = cfg->machines[i].host;
	qsort(sorted, cfg->nmachines, sizeof *sorted, cmp_str);
	fputs("#SBATCH --nodelist=", f);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		char **at = bsearch(&cfg->machines[i].host, sorted, cfg->nmachines, sizeof *sorted,
		                    cmp_str);
		while (at > sorted && strcmp(at[-1], *at) == 0)
			at--;   /* the first of equal hosts carries the mark */
		if (!done[at - sorted]++)
			fprintf(f, "%s%s", n++ ? "," : "", cfg->machines[i].host);
	}
	fprintf(f, "\n#SBATCH --nodes=%zu\n", n);
	free(sorted);
	free(done);
	return 0;
}

/* Features: one job, the counts as Slurm's "multiple counts" constraint. */
static void request_features(FILE *f, const hl_config *cfg)
{
	size_t total = 0, used = 0;
	for (size_t i = 0; i < cfg->ntypes; i++)
		if (cfg->types[i].nnodes) {
			total += cfg->types[i].nnodes;
			used++;
		}
	fputs("#SBATCH --constraint=", f);
	fputs(used > 1 ? "[" : "", f);
	for (size_t i = 0, k = 0; i < cfg->ntypes; i++) {
		const hl_slurm_type *t = &cfg->types[i];
		if (t->nnodes == 0)
			continue;
		if (used > 1)
			fprintf(f, "%s%s*%zu", k++ ? "&" : "", t->word, t->nnodes);
		else
			fputs(t->word, f);
	}
	fprintf(f, "%s\n#SBATCH --nodes=%zu\n", used > 1 ? "]" : "", total);
}

static int write_script(FILE *f, void *arg)
{
	const script *s = arg;
	const hl_config *cfg = s->cfg;
	fprintf(f, "#!/bin/sh\n# Written by hetlaunch sbatch from %s: the nodes of its "
	        "machine list,\n# then hetlaunch run on what Slurm gives (hetlaunch(1), SBATCH).\n",
	        s->file);
	fprintf(f, "#SBATCH --job-name=%s\n#SBATCH --output=%s-%%j.out\n", cfg->name, cfg->name);
	if (cfg->timeout > 0)
		fprintf(f, "#SBATCH --time=%.0f\n", ceil(cfg->timeout / 60.0) + 1);
	if (s->kind == HL_NT_NONE && request_hosts(f, cfg) < 0)
		return -1;
	if (s->kind == HL_NT_FEATURE)
		request_features(f, cfg);
	fputs("exec ", f);
	sh_quote(f, s->self);
	fputs(" run ", f);
	sh_quote(f, s->file);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

/* One kind of request per list: features, or hosts. */
static int check_request(const hl_config *cfg, script *s)
{
	s->kind = cfg->ntypes ? HL_NT_FEATURE : HL_NT_NONE;
	for (size_t i = 0; i < cfg->ntypes; i++) {
		const hl_slurm_type *t = &cfg->types[i];
		if (t->kind == HL_NT_FEATURE)
			continue;
		/* One job runs in one partition: partitions (and het groups) are a
		 * heterogeneous job's components, which run refuses (slurm.h). */
		fprintf(stderr, "%s:%zu:%zu: sbatch: slurm: %s asks for a heterogeneous job, one "
		        "component per type, and hetlaunch run refuses those (hetlaunch(1), "
		        "SBATCH): name the types by feature\n", cfg->file, t->loc.line, t->loc.col,
		        hl_node_kind_name(t->kind));
		return EXIT_USAGE;
	}
	for (size_t i = 0; cfg->ntypes && i < cfg->nmachines; i++)
		if (hl_config_type(cfg, cfg->machines[i].entry) == NULL) {
			fprintf(stderr, "%s:%zu:%zu: sbatch: %s names its host, the others are Slurm "
			        "node types: a batch script asks for one or the other\n", cfg->file,
			        cfg->machines[i].loc.line, cfg->machines[i].loc.col,
			        cfg->machines[i].name);
			return EXIT_USAGE;
		}
	return 0;
}

typedef struct {
	const char *file, *out;
	int submit;
} sbatch_args;

/* sbatch --parsable [SCRIPT] (the script on its stdin when there is no
 * file): prints the job id.  An exit status. */
static int submit(const char *path, const char *text)
{
	char *argv[] = { "sbatch", "--parsable", (char *)path, NULL }, *out = NULL;
	size_t len = 0;
	int rc = hl_spawn_filter(argv, path ? "" : text, path ? 0 : strlen(text), 4096, 120,
	                         &out, &len);
	size_t id = rc == 0 && out ? strspn(out, "0123456789") : 0;
	if (id == 0) {
		fprintf(stderr, "hetlaunch: sbatch: %s\n", rc == 1 ? "sbatch is not installed"
		        : "sbatch refused the script or failed (run sbatch on it to see why)");
		free(out);
		return EXIT_JOB;
	}
	printf("%.*s\n", (int)id, out);
	free(out);
	return 0;
}

/* The script's text in memory (for stdout and sbatch's stdin). */
static char *script_text(script *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f == NULL)
		return NULL;
	int rc = write_script(f, s);
	if (fclose(f) != 0 || rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int emit(const sbatch_args *a, script *s)
{
	char err[1024];
	char *text = script_text(s);
	if (text == NULL) {
		fprintf(stderr, "hetlaunch: out of memory\n");
		return EXIT_JOB;
	}
	int rc = 0;
	if (a->out) {
		int w = hl_write_output(a->out, write_script, s, err, sizeof err);
		if (w < 0)
			fprintf(stderr, "hetlaunch: sbatch: %s\n", err);
		rc = w == -2 ? EXIT_USAGE : w < 0 ? EXIT_JOB : 0;
	} else if (!a->submit) {
		fputs(text, stdout);
	}
	if (rc == 0 && a->submit)
		rc = submit(a->out, text);
	free(text);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		rc = EXIT_JOB;
	return rc;
}

int hl_cmd_sbatch(const hl_cli_args *args)
{
	sbatch_args a = { args->file, args->val[HL_OPT_OUTPUT], hl_cli_has(args, HL_OPT_SUBMIT) };
	if (a.out && a.out[0] == '\0')
		return hl_usage_error("%s", "sbatch: -o needs a file name");
	char err[1024];
	int rc;
	if (a.out && hl_output_check(a.out, err, sizeof err) < 0) {
		fprintf(stderr, "hetlaunch: sbatch: %s\n", err);
		return EXIT_USAGE;
	}
	diag d;
	diag_init(&d, a.file);
	hl_config cfg;
	script s = { .cfg = &cfg };
	ssize_t n = readlink("/proc/self/exe", s.self, sizeof s.self - 1);
	if (hl_config_load(a.file, &d, &cfg) < 0) {
		diag_print(&d, stderr);
		diag_free(&d);
		return EXIT_USAGE;
	}
	if (n <= 0 || realpath(a.file, s.file) == NULL) {
		fprintf(stderr, "hetlaunch: sbatch: cannot name this program or %s\n", a.file);
		rc = EXIT_JOB;
	} else {
		s.self[n] = '\0';
		if ((rc = check_request(&cfg, &s)) == 0)
			rc = emit(&a, &s);
	}
	hl_config_free(&cfg);
	diag_free(&d);
	return rc;
}
