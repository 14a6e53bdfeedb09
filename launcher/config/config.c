#define _GNU_SOURCE
/*
 * config.c -- validate a YAML machine list against the schema of
 * ../shared/INTERFACE.md: the top level.  Strict on purpose (the libcyaml
 * way): unknown keys, wrong types, non-positive or non-finite numbers,
 * duplicates, names that a launcher could read as options, and impossible
 * shapes are all errors, each at its own line and column.  This file reads
 * layout: first, then every other top-level key by its row in the schema
 * (keys.c), handing a layout's own keys to its row (layout.h); the
 * sections have files of their own: machines: (load_machines.c,
 * load_types.c), emulate: (load_emulate.c), the kernels' keys
 * (load_kernel.c), over the value readers (load_values.c).
 */
#include "config/load_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "layouts/layout.h"

const char *hl_allocation_name(hl_allocation a)
{
	return a == HL_ALLOC_OPTIMIZED ? "optimized" : "plain";
}

const char *hl_order_name(hl_order o)
{
	static const char *const names[] = { "auto", "interleaved", "grouped" };
	return names[o];
}

const char *hl_arrangement_name(hl_arrangement a)
{
	static const char *const names[] = { "auto", "exact", "heuristic" };
	return names[a];
}

size_t hl_config_blocks(const hl_config *cfg)
{
	return cfg->nb ? (cfg->n + cfg->nb - 1) / cfg->nb : 0;
}

/* layout: first, whatever its place in the file, so that every other key is
 * read knowing whose it is.  An unknown layout leaves the default, with the
 * error at its line. */
static int load_layout(diag *d, const yt_node *root, hl_config *cfg)
{
	cfg->layout = hl_layout_default();
	const yt_node *v = hl_cfg_get(root, "layout");
	if (v == NULL)
		return 0;
	size_t n = 0;
	const char *names[16];
	for (; hl_layouts[n] && n < 16; n++)
		names[n] = hl_layouts[n]->name;
	int e;
	if (hl_cfg_enum(d, "layout", v, names, n, &e) < 0)
		return -1;
	cfg->layout = hl_layouts[e];
	return 0;
}

/* Another layout's key says whose it is (at its value); anything else lists
 * what is allowed here. */
static void unknown_key(diag *d, const yt_node *key, const yt_node *v, const hl_layout_ops *mine)
{
	const char *s = key->kind == YT_SCALAR ? key->value : "";
	const hl_key_def *row = hl_key_find(HL_KS_TOP, s);
	for (size_t i = 0; row && row->layouts && hl_layouts[i]; i++)
		if (hl_key_for_layout(row, hl_layouts[i]->name)) {
			diag_error(d, v->line, v->col, "%s is for layout: %s (this file is "
			           "layout: %s)", s, hl_layouts[i]->name, mine->name);
			return;
		}
	char common[512], own[256];
	hl_key_list(common, sizeof common, HL_KS_TOP, NULL);
	hl_key_list(own, sizeof own, HL_KS_TOP, mine->name);
	diag_error(d, key->line, key->col, "unknown key \"%s\" (allowed: %s%s%s%s%s)", s, common,
	           own[0] ? "; for layout: " : "", own[0] ? mine->name : "", own[0] ? ": " : "",
	           own);
}

static char *stem_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	const char *dot = strrchr(base, '.');
	if (dot && dot != base)
		len = (size_t)(dot - base);
	/* The default run name becomes a directory name and a line of
	 * command.txt: what cfg_check_ident would refuse in name: becomes '_'. */
	char *s = len ? strndup(base, len) : strdup("run");
	if (s == NULL)
		return NULL;
	for (char *c = s; *c; c++)
		if ((!isalnum((unsigned char)*c) && *c != '_' && *c != '.' && *c != '-') ||
		    (c == s && (*c == '-' || *c == '.')))
			*c = '_';
	if (strlen(s) > MAX_NAME)
		s[MAX_NAME] = '\0';
	return s;
}

/* n: N or a list [N1, N2, ...] (INTERFACE.md "Dense kernels at any size"),
 * each in its row's range; cfg->n is the largest, which the plan and the
 * memory check use. */
static int get_sizes(diag *d, const hl_key_def *row, const yt_node *v, hl_config *cfg)
{
	size_t cnt = v->kind == YT_SEQ ? v->n : 1;
	if (v->kind == YT_SCALAR && strcmp(v->value, "auto") == 0) {
		/* kernel: hpl only (check_hpl_keys); the plan chooses it */
		free(cfg->sizes);
		if ((cfg->sizes = calloc(1, sizeof *cfg->sizes)) == NULL)
			return -1;
		cfg->n_auto = 1;
		cfg->nsizes = 1;
		cfg->n = cfg->sizes[0] = 1;
		return 0;
	}
	if (cnt == 0) {
		diag_error(d, v->line, v->col, "n: expected a size or a non-empty list of sizes");
		return -1;
	}
	free(cfg->sizes);
	cfg->nsizes = 0;
	if ((cfg->sizes = calloc(cnt, sizeof *cfg->sizes)) == NULL)
		return -1;
	int rc = 0;
	cfg->n = 0;
	for (size_t i = 0; i < cnt; i++) {
		const yt_node *x = v->kind == YT_SEQ ? v->items[i] : v;
		if (hl_cfg_size(d, row->name, x, row->lo, row->hi, &cfg->sizes[i]) < 0) {
			rc = -1;
			continue;
		}
		if (cfg->sizes[i] > cfg->n)
			cfg->n = cfg->sizes[i];
	}
	cfg->nsizes = cnt;
	return rc;
}

/* args: a list of strings, each reported at its own line. */
static int load_args(diag *d, const yt_node *v, hl_config *cfg)
{
	if (v->kind != YT_SEQ) {
		diag_error(d, v->line, v->col, "args: expected a list of strings");
		return -1;
	}
	if ((cfg->args = calloc(v->n + 1, sizeof *cfg->args)) == NULL)
		return -1;
	int rc = 0;
	for (size_t j = 0; j < v->n; j++) {
		const yt_node *a = v->items[j];
		if (a->kind != YT_SCALAR) {
			diag_error(d, a->line, a->col, "args: expected a string, got %s", cfg_kind_name(a));
			rc = -1;
		} else if ((cfg->args[cfg->nargs++] = strdup(a->value)) == NULL) {
			rc = -1;
		}
	}
	return rc;
}

/* A string or a list of strings (an argv); the first must not look like an
 * option. */
static int get_argv(diag *d, const char *key, const yt_node *v, char ***out, size_t *n)
{
	size_t cnt = v->kind == YT_SEQ ? v->n : 1;
	if (v->kind == YT_MAP || cnt == 0) {
		diag_error(d, v->line, v->col, "%s: expected a string or a non-empty list of strings",
		           key);
		return -1;
	}
	char **a = calloc(cnt + 1, sizeof *a);
	if (a == NULL)
		return -1;
	*out = a;
	for (size_t j = 0; j < cnt; j++) {
		const yt_node *x = v->kind == YT_SEQ ? v->items[j] : v;
		if (x->kind != YT_SCALAR) {
			diag_error(d, x->line, x->col, "%s: expected a string, got %s", key,
			           cfg_kind_name(x));
			return -1;
		}
		if (j == 0 && x->value[0] == '-') {
			diag_error(d, x->line, x->col, "%s: \"%s\" starts with '-': the first item "
			           "is the program", key, x->value);
			return -1;
		}
		if ((a[(*n)++] = strdup(x->value)) == NULL)
			return -1;
	}
	return 0;
}

/* emulate: (cfg_load_emulate); network: links only where the ring has links. */
static int load_top_emulate(diag *d, const yt_node *v, hl_config *cfg)
{
	int rc = 0;
	if (cfg_load_emulate(d, v, &cfg->emu) < 0)
		rc = -1;
	else if (cfg->emu.links && strcmp(cfg->layout->name, "ring") != 0) {
		diag_error(d, v->line, v->col, "emulate: network: links is for layout: "
		           "ring (its links:)");
		rc = -1;
	}
	cfg->emulate = cfg->emu.on;
	return rc;
}

/* One common top-level key by its row's type.  machines: is read after
 * every other key (cfg_load_machines) and layout: before them (load_layout);
 * the schema has one key of each of the list types (n, args, mpiexec). */
static int load_top_value(diag *d, const hl_key_def *row, const yt_node *v, hl_config *cfg)
{
	switch (row->type) {
	case HL_KT_MACHINES:
	case HL_KT_LAYOUT:
		return 0;
	case HL_KT_KERNEL:
		return cfg_get_kernel(d, v, &cfg->kernel);
	case HL_KT_SIZES:
		cfg->n_loc.line = v->line;
		cfg->n_loc.col = v->col;
		return get_sizes(d, row, v, cfg);
	case HL_KT_STRINGS:
		return load_args(d, v, cfg);
	case HL_KT_ARGV:
		return get_argv(d, row->name, v, &cfg->mpiexec, &cfg->nmpiexec);
	case HL_KT_EMULATE:
		return load_top_emulate(d, v, cfg);
	case HL_KT_CUSTOM:   /* the kernels' mappings */
		return strcmp(row->name, "hpl") == 0      ? cfg_load_hpl(d, v, &cfg->hpl)
		       : strcmp(row->name, "result") == 0 ? cfg_load_result(d, v, &cfg->result)
		                                          : cfg_load_inputs(d, v, cfg);
	default:
		return cfg_read_value(d, row->name, row, v, cfg);
	}
}

/* One top-level key: a common key, else the layout's own, else unknown
 * (a key is never both: tests/cli/cli_test.sh, `hetlaunch keys`). */
static int load_top_key(diag *d, const yt_node *key, const yt_node *v, hl_config *cfg,
                        cfg_top_keys *t)
{
	const char *s = key->kind == YT_SCALAR ? key->value : "";
	const hl_key_def *row = hl_key_find(HL_KS_TOP, s);
	if (row && row->layouts == NULL) {
		t->at[row - hl_keys] = v;
		return load_top_value(d, row, v, cfg) < 0 ? -1 : 0;
	}
	if (row && hl_key_for_layout(row, cfg->layout->name))
		return cfg->layout->load_key(cfg, s, v, d) < 0 ? -1 : 0;
	unknown_key(d, key, v, cfg->layout);
	return -1;
}

/* Every top-level key in the file's order; a repeated key was reported
 * (cfg_duplicate_keys) and only its first counts. */
static int load_top_keys(diag *d, const yt_node *root, const unsigned char *dup,
                         hl_config *cfg, cfg_top_keys *t)
{
	int rc = 0;
	for (size_t i = 0; i < root->n; i++)
		if (!dup[i] && load_top_key(d, root->items[2 * i], root->items[2 * i + 1], cfg, t) < 0)
			rc = -1;
	return rc;
}

/* For a file with no error so far: n's default list, then impossible
 * shapes (nb larger than the smallest n, then the layout's own check). */
static int check_shapes(diag *d, const yt_node *root, hl_config *cfg, const cfg_top_keys *t)
{
	if (cfg->nsizes == 0) {   /* n: omitted */
		if ((cfg->sizes = malloc(sizeof *cfg->sizes)) == NULL)
			return -1;
		cfg->sizes[cfg->nsizes++] = cfg->n;
	}
	size_t smallest = cfg->n;
	for (size_t i = 0; i < cfg->nsizes; i++)
		if (cfg->sizes[i] < smallest)
			smallest = cfg->sizes[i];
	if (cfg->nb > smallest) {
		const yt_node *at = cfg_given(t, "nb") ? cfg_given(t, "nb") : cfg_given(t, "n");
		diag_error(d, at->line, at->col, "nb = %zu is larger than n = %zu", cfg->nb,
		           smallest);
		return -1;
	}
	if (cfg->layout->check && cfg->layout->check(cfg, root, d) < 0)
		return -1;
	return 0;
}

/* The defaults, and the document's root: -1 (reported) for an empty file
 * or a root that is not a mapping, the root then freed (cfg is
 * hl_config_free's, as on every failure). */
static int load_root(const char *path, diag *d, hl_config *cfg, yt_node **root)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->layout = hl_layout_default();
	cfg->file = strdup(path);
	cfg->n = HL_DEFAULT_N;
	cfg->nb = HL_DEFAULT_NB;
	cfg->max_procs = 0;   /* derived from the machines once read (hl_config_max_procs) */
	cfg->memory_fraction = 0.8;
	hl_hpl_defaults(&cfg->hpl);
	*root = NULL;
	if (cfg->file == NULL || yt_load(path, d, root) < 0)
		return -1;
	if (*root == NULL) {
		diag_error(d, 0, 0, "empty file: expected a mapping with at least 'machines:'");
		return -1;
	}
	if ((*root)->kind != YT_MAP) {
		diag_error(d, (*root)->line, (*root)->col,
		           "expected a mapping at the top (machines:, layout:, ...), got %s",
		           cfg_kind_name(*root));
		yt_free(*root);
		return -1;
	}
	return 0;
}

/* layout: first, then the other keys, machines:, the checks across keys and
 * the shapes; the default name last, for a file with no error. */
static int config_load(const char *path, diag *d, hl_config *cfg)
{
	yt_node *root;
	if (load_root(path, d, cfg, &root) < 0)
		return -1;
	int rc = 0;
	unsigned char *dup = cfg_duplicate_keys(d, root, &rc);
	if (dup == NULL) {
		yt_free(root);
		return -1;
	}
	cfg_top_keys t = { 0 };
	if (load_layout(d, root, cfg) < 0)
		rc = -1;
	if (load_top_keys(d, root, dup, cfg, &t) < 0)
		rc = -1;
	const yt_node *machines = cfg_given(&t, "machines");
	if (machines == NULL) {
		diag_error(d, root->line, root->col, "missing required key \"machines\"");
		rc = -1;
	} else if (cfg_load_machines(d, machines, cfg->layout->name, cfg) < 0) {
		rc = -1;
	}
	if (cfg_check_kernel_keys(d, root, cfg, &t, cfg->layout->name) < 0)
		rc = -1;
	if (cfg->max_procs == 0)
		cfg->max_procs = hl_config_max_procs(cfg->nmachines);
	if (rc == 0)
		rc = check_shapes(d, root, cfg, &t);
	if (rc == 0)
		cfg_emu_defaults(cfg);
	if (rc == 0 && cfg->name == NULL && (cfg->name = stem_of(path)) == NULL)
		rc = -1;
	free(dup);
	yt_free(root);
	if (rc < 0 && d->count == 0)
		diag_error(d, 0, 0, "out of memory");
	return rc;
}

/* 64 virtual processes were plenty for the papers' 4 to 16 machines; a
 * list of hundreds of processors needs room for every one of them and
 * some to spare (000 s3.2: the balance improves with B), so the cap grows
 * with the list: 4 per processor. */
size_t hl_config_max_procs(size_t nmachines)
{
	size_t m = HL_MAX_PROCS_PER_MACHINE * nmachines;
	return m > HL_DEFAULT_MAX_PROCS ? m : HL_DEFAULT_MAX_PROCS;
}

/* A refused file leaves nothing allocated, whichever command loaded it. */
int hl_config_load(const char *path, diag *d, hl_config *cfg)
{
	if (config_load(path, d, cfg) == 0)
		return 0;
	hl_config_free(cfg);
	if (d->count == 0)
		diag_error(d, 0, 0, "out of memory");
	return -1;
}

/* args: and mpiexec:, as far as they were read. */
static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void hl_config_free(hl_config *cfg)
{
	if (cfg->layout && cfg->layout->free_config)
		cfg->layout->free_config(cfg);
	for (size_t i = 0; i < cfg->nmachines; i++) {
		free(cfg->machines[i].name);
		free(cfg->machines[i].host);
	}
	free(cfg->machines);
	for (size_t i = 0; i < cfg->ntypes; i++)
		cfg_free_type(&cfg->types[i]);
	free(cfg->types);
	free_strings(cfg->args, cfg->nargs);
	free_strings(cfg->mpiexec, cfg->nmpiexec);
	free(cfg->program);
	free(cfg->result.time);
	free(cfg->result.passed);
	free(cfg->result.failed);
	for (size_t i = 0; i < cfg->ninputs; i++) {
		free(cfg->inputs[i].file);
		free(cfg->inputs[i].text);
	}
	free(cfg->inputs);
	free(cfg->sizes);
	free(cfg->name);
	free(cfg->file);
	memset(cfg, 0, sizeof *cfg);
}
