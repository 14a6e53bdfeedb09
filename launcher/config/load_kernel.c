#define _GNU_SOURCE   /* PATH_MAX */
/*
 * load_kernel.c -- kernel: and the keys that belong to one kernel: hpl:
 * (HPL's settings), result: (how kernel: exec's program reports), inputs:
 * (the files written for it, from text: or a template: file), and the
 * checks of the top level that depend on the kernel (a key of another
 * kernel, tester: stock, n: auto, kernel: hpl's MPI).
 */
#include "config/load_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/inputs.h"
#include "util/fsutil.h"
#include "util/rundir.h"

/* kernel: a row of the kernel table (kernels.h). */
int cfg_get_kernel(diag *d, const yt_node *v, hl_kernel *out)
{
	if (cfg_want_scalar(d, "kernel", v) < 0)
		return -1;
	const hl_kernel_def *row = hl_kernel_find(v->value, 0);
	if (row == NULL) {
		diag_error(d, v->line, v->col, "kernel: expected one of %s, got \"%s\"",
		           hl_kernel_names(), v->value);
		return -1;
	}
	*out = row->id;
	return 0;
}

/* hpl: a mapping of the schema's hpl: keys, each checked at its value. */
int cfg_load_hpl(diag *d, const yt_node *v, hl_hpl_settings *s)
{
	char allowed[256];
	hl_key_list(allowed, sizeof allowed, HL_KS_HPL, NULL);
	if (v->kind != YT_MAP) {
		diag_error(d, v->line, v->col, "hpl: expected a mapping (%s)", allowed);
		return -1;
	}
	int rc = cfg_check_duplicate_keys(d, v);
	for (size_t i = 0; i < v->n; i++) {
		char name[CFG_KEY_NAME];
		const hl_key_def *row = cfg_section_key(d, HL_KS_HPL, "hpl", v->items[2 * i], name);
		if (row == NULL || cfg_read_value(d, name, row, v->items[2 * i + 1], s) < 0)
			rc = -1;
	}
	return rc < 0 ? -1 : 0;
}

/* result: a mapping of the schema's result: keys, each a regular
 * expression checked at its value (time: with a group for the seconds). */
int cfg_load_result(diag *d, const yt_node *v, hl_result_patterns *p)
{
	char allowed[256];
	hl_key_list(allowed, sizeof allowed, HL_KS_RESULT, NULL);
	if (v->kind != YT_MAP || v->n == 0) {
		diag_error(d, v->line, v->col, "result: expected a mapping of %s", allowed);
		return -1;
	}
	int rc = cfg_check_duplicate_keys(d, v);
	for (size_t i = 0; i < v->n; i++) {
		const yt_node *x = v->items[2 * i + 1];
		char name[CFG_KEY_NAME], why[160];
		const hl_key_def *row = cfg_section_key(d, HL_KS_RESULT, "result", v->items[2 * i],
		                                        name);
		char **at = row ? (char **)((char *)p + row->off) : NULL;
		if (row == NULL) {
			rc = -1;
			continue;
		}
		free(*at);   /* a duplicate's first */
		*at = NULL;
		if (cfg_read_value(d, name, row, x, p) < 0) {
			rc = -1;
		} else if (hl_result_pattern_check(*at, strcmp(row->name, "time") == 0, why,
		                                   sizeof why) < 0) {
			diag_error(d, x->line, x->col, "%s: %s", name, why);
			rc = -1;
		}
	}
	return rc < 0 ? -1 : 0;
}

/* A template's largest size: the YAML file's own. */
#define TEMPLATE_MAX (64 << 20)

/* Why a template: file was not read, at its value. */
static void template_error(diag *d, const yt_node *v, const char *path, hl_read_status rs)
{
	const char *why = rs == HL_READ_DIR ? "is a directory, not a file"
	                  : rs == HL_READ_NOT_REGULAR ? "is not a regular file (a FIFO or a device "
	                                                "could block or never end)"
	                  : rs == HL_READ_GREW ? "changed while being read"
	                  : rs == HL_READ_NOMEM ? "out of memory" : NULL;
	if (rs == HL_READ_TOO_BIG)
		diag_error(d, v->line, v->col, "template: %s is larger than %d MiB", path,
		           TEMPLATE_MAX >> 20);
	else if (why)
		diag_error(d, v->line, v->col, "template: %s %s", path, why);
	else
		diag_error(d, v->line, v->col, "template: cannot read %s: %s", path, strerror(errno));
}

/* A template: file's whole text, relative to the YAML file's directory,
 * byte for byte: a NUL would cut the text hetlaunch writes, so it is
 * refused rather than dropped with what follows. */
static char *read_template(diag *d, const char *yaml, const yt_node *v)
{
	char path[PATH_MAX];
	const char *slash = strrchr(yaml, '/');
	if (v->value[0] == '/' || slash == NULL)
		snprintf(path, sizeof path, "%s", v->value);
	else
		snprintf(path, sizeof path, "%.*s/%s", (int)(slash - yaml), yaml, v->value);
	char *text;
	size_t len;
	hl_read_status rs = hl_read_regular(path, TEMPLATE_MAX, &text, &len);
	if (rs != HL_READ_OK) {
		template_error(d, v, path, rs);
		return NULL;
	}
	size_t nul = strlen(text);
	if (nul < len) {
		diag_error(d, v->line, v->col, "template: %s has a NUL byte (byte %zu): a template "
		           "is text", path, nul + 1);
		free(text);
		return NULL;
	}
	return text;
}

/* An inputs: entry's file: a plain name in the run directory. */
static int input_name(diag *d, const yt_node *v, char **out)
{
	if (cfg_want_scalar(d, "inputs: file", v) < 0 || cfg_check_ident(d, "inputs: file", v, "") < 0)
		return -1;
	if (strcmp(v->value, ".") == 0 || strcmp(v->value, "..") == 0 ||
	    strncmp(v->value, ".hetlaunch", 10) == 0) {
		diag_error(d, v->line, v->col, "inputs: file: \"%s\" is not a file name", v->value);
		return -1;
	}
	/* The run directory's own files: a host file replaced by an entry
	 * would send the job to other hosts, a report or log replaced would
	 * lie about the run.  A stock tester's input is hetlaunch's only under
	 * tester: stock, never with inputs: (a tester run as kernel: exec
	 * reads the deck the user's template makes). */
	const char *owned = hl_rundir_owned(v->value);
	if (owned && !hl_rundir_tester_input(v->value)) {
		diag_error(d, v->line, v->col, "inputs: file: \"%s\" is hetlaunch's own file in the "
		           "run directory (%s): choose another name", v->value, owned);
		return -1;
	}
	return (*out = strdup(v->value)) == NULL ? -1 : 0;
}

/* The entry's text: text: as given, or the template:'s; its placeholders
 * checked (at the value: a template's line and column are in its file). */
static int input_text(diag *d, const char *yaml, const yt_node *v, int tmpl, char **out)
{
	if (cfg_want_scalar(d, tmpl ? "inputs: template" : "inputs: text", v) < 0)
		return -1;
	*out = tmpl ? read_template(d, yaml, v) : strdup(v->value);
	if (*out == NULL)
		return -1;
	size_t at, line = 1;
	char bad[96];
	if (hl_input_check(*out, &at, bad, sizeof bad) == 0)
		return 0;
	for (size_t i = 0; i < at; i++)
		line += (*out)[i] == '\n';
	diag_error(d, v->line, v->col, "inputs: %s: line %zu of the text: %s (placeholders: %s)",
	           tmpl ? "template" : "text", line, bad, hl_input_placeholders());
	return -1;
}

/* One inputs: entry: {file: NAME, text: TEXT} or {file: NAME, template: PATH}. */
static int load_input(diag *d, const char *yaml, const yt_node *e, hl_input_file *in)
{
	in->loc = (hl_loc){ e->line, e->col };
	if (e->kind != YT_MAP) {
		diag_error(d, e->line, e->col, "inputs: expected a mapping {file: NAME, text: TEXT}");
		return -1;
	}
	int rc = cfg_check_duplicate_keys(d, e), texts = 0;
	for (size_t i = 0; i < e->n; i++) {
		const yt_node *key = e->items[2 * i], *x = e->items[2 * i + 1];
		const char *k = key->kind == YT_SCALAR ? key->value : "";
		if (strcmp(k, "file") == 0 && !in->file)
			rc |= input_name(d, x, &in->file);
		else if ((strcmp(k, "text") == 0 || strcmp(k, "template") == 0) && !texts++)
			rc |= input_text(d, yaml, x, k[1] == 'e' && k[2] == 'm', &in->text);
		else if (strcmp(k, "text") != 0 && strcmp(k, "template") != 0 && strcmp(k, "file") != 0) {
			diag_error(d, key->line, key->col, "inputs: unknown key \"%s\" (allowed: file, "
			           "text, template)", k);
			rc = -1;
		}
	}
	if (rc == 0 && (!in->file || texts != 1)) {
		diag_error(d, e->line, e->col, "inputs: an entry needs file: and exactly one of text: "
		           "and template:");
		rc = -1;
	}
	return rc ? -1 : 0;
}

/* inputs: a list of entries, two files of one name refused. */
int cfg_load_inputs(diag *d, const yt_node *v, hl_config *cfg)
{
	if (v->kind != YT_SEQ || v->n == 0) {
		diag_error(d, v->line, v->col, "inputs: expected a list of {file: NAME, text: TEXT}");
		return -1;
	}
	if ((cfg->inputs = calloc(v->n, sizeof *cfg->inputs)) == NULL)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < v->n; i++, cfg->ninputs++) {
		hl_input_file *in = &cfg->inputs[i];
		if (load_input(d, cfg->file, v->items[i], in) < 0) {
			rc = -1;
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (cfg->inputs[j].file && strcmp(cfg->inputs[j].file, in->file) == 0) {
				diag_error(d, in->loc.line, in->loc.col, "inputs: %s is written twice",
				           in->file);
				rc = -1;
			}
	}
	return rc;
}

/* n: auto needs every machine's memory: memory_gb, or this computer's
 * (localhost, its own host name, or emulated). */
static int check_auto_memory(diag *d, const hl_config *cfg)
{
	char me[256] = "";
	gethostname(me, sizeof me - 1);
	for (size_t i = 0; cfg->n_auto && !cfg->emu.on && i < cfg->nmachines; i++) {
		const hl_machine *m = &cfg->machines[i];
		if (m->memory_gb == 0 && strcmp(m->host, "localhost") != 0 &&
		    strcmp(m->host, "127.0.0.1") != 0 && strcmp(m->host, me) != 0) {
			diag_error(d, m->loc.line, m->loc.col,
			           "%s: n: auto needs its memory_gb (it is not this computer)", m->name);
			return -1;
		}
	}
	return 0;
}

/* kernel: hpl: Debian's hpcc is linked with Open MPI (mpi: openmpi unless
 * another program: is named); at most HL_HPL_MAX_SIZES sizes fit its
 * input's line; memory_fraction is a fraction. */
static int check_hpl_keys(diag *d, hl_config *cfg, const cfg_top_keys *t)
{
	const yt_node *mpi = cfg_given(t, "mpi"), *n = cfg_given(t, "n"), *mf = cfg_given(t, "memory_fraction");
	int rc = 0;
	if (cfg->kernel != HL_KERNEL_HPL) {
		if (!cfg->n_auto)
			return 0;
		diag_error(d, n->line, n->col, "n: auto is for kernel: hpl (its matrix fills the "
		           "memory); give a size");
		return -1;
	}
	if (cfg->n_auto)
		cfg->n = cfg->sizes[0] = cfg->nb;   /* until the plan chooses it */
	if (check_auto_memory(d, cfg) < 0)
		rc = -1;
	if (mpi == NULL)
		cfg->mpi = 1;   /* openmpi: the second of keys.c's MPIS */
	else if (cfg->mpi != 1 && cfg_given(t, "program") == NULL) {
		diag_error(d, mpi->line, mpi->col, "kernel: hpl runs %s, which is linked with Open "
		           "MPI: mpi: openmpi (or name your own build in program:)", HL_HPL_PROGRAM);
		rc = -1;
	}
	if (n && cfg->nsizes > HL_HPL_MAX_SIZES) {
		diag_error(d, n->line, n->col, "n: kernel: hpl takes at most %d sizes (HPL's input "
		           "line), got %zu", HL_HPL_MAX_SIZES, cfg->nsizes);
		rc = -1;
	}
	if (mf && cfg->memory_fraction > 1.0) {
		diag_error(d, mf->line, mf->col, "memory_fraction: must be at most 1, got %s",
		           mf->value);
		rc = -1;
	}
	return rc;
}

hl_kernel hl_config_model(const hl_config *cfg)
{
	if (cfg->kernel != HL_KERNEL_EXEC)
		return cfg->kernel;
	static const hl_kernel models[] = { HL_KERNEL_EXEC, HL_KERNEL_LU, HL_KERNEL_QR,
	                                    HL_KERNEL_CHOL, HL_KERNEL_MM };
	return models[cfg->model];
}

/* The keys that depend on kernel: (tester:, a key of one kernel such as
 * args:, layout:, program:). */
int cfg_check_kernel_keys(diag *d, const yt_node *root, hl_config *cfg, const cfg_top_keys *t,
                          const char *layout)
{
	int rc = 0;
	const yt_node *tester = cfg_given(t, "tester"), *kernel = cfg_given(t, "kernel");
	if (tester && cfg->stock && hl_kernel_row(cfg->kernel, 1)->stock != 1) {
		diag_error(d, tester->line, tester->col, "tester: stock has no %s (it has "
		           "lu, qr and mm)", hl_kernel_name(cfg->kernel));
		rc = -1;
	}
	for (size_t r = 0; r < hl_nkeys; r++)
		if (hl_keys[r].kernel && t->at[r] &&
		    strcmp(hl_kernel_name(cfg->kernel), hl_keys[r].kernel) != 0) {
			diag_error(d, t->at[r]->line, t->at[r]->col, "%s is for kernel: %s",
			           hl_keys[r].name, hl_keys[r].kernel);
			rc = -1;
		}
	const char *klayout = hl_kernel_row(cfg->kernel, 0)->layout;
	if (kernel && klayout && strcmp(layout, klayout) != 0) {
		diag_error(d, kernel->line, kernel->col, "kernel: %s is for layout: %s",
		           hl_kernel_name(cfg->kernel), klayout);
		rc = -1;
	}
	if (cfg->kernel == HL_KERNEL_EXEC && cfg_given(t, "program") == NULL) {
		diag_error(d, root->line, root->col, "kernel: exec needs program:");
		rc = -1;
	}
	const yt_node *model = cfg_given(t, "model");   /* the dense layouts' models only */
	if (model && strcmp(layout, "1d") != 0 && strcmp(layout, "2d") != 0 &&
	    strcmp(layout, "auto") != 0) {
		diag_error(d, model->line, model->col, "model is for layout: 1d, 2d or auto "
		           "(this file is layout: %s)", layout);
		rc = -1;
	}
	return check_hpl_keys(d, cfg, t) < 0 ? -1 : rc;
}
