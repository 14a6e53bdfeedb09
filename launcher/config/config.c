#define _GNU_SOURCE
/*
 * config.c -- validate a YAML machine list against the schema of
 * ../shared/INTERFACE.md.  Strict on purpose (the libcyaml way): unknown
 * keys, wrong types, non-positive or non-finite numbers, duplicates, names
 * that a launcher could read as options, and impossible shapes are all
 * errors, each at its own line and column.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "kernels/inputs.h"
#include "util/hostlist.h"
#include "keys.h"
#include "util/rundir.h"
#include "layouts/layout.h"
#include "yamltree.h"

#define MAX_MACHINES 100000   /* processors after expansion */
#define MAX_NAME 253          /* a DNS name's limit */


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

double hl_config_tmin(const hl_config *cfg)
{
	double tmin = cfg->nmachines ? cfg->machines[0].cycle_time : 0.0;
	for (size_t i = 1; i < cfg->nmachines; i++)
		if (cfg->machines[i].cycle_time < tmin)
			tmin = cfg->machines[i].cycle_time;
	return tmin;
}

double hl_config_emulation_tref(const hl_config *cfg)
{
	return cfg->emu.cycle_time > 0 ? cfg->emu.cycle_time : hl_config_tmin(cfg);
}

double hl_config_emulation_K(const hl_config *cfg)
{
	return cfg->emu.mflops * hl_config_emulation_tref(cfg);
}

size_t hl_config_blocks(const hl_config *cfg)
{
	return cfg->nb ? (cfg->n + cfg->nb - 1) / cfg->nb : 0;
}

/* ---------------------------------------------------------------- values */

static const char *kind_name(const yt_node *v)
{
	switch (v->kind) {
	case YT_SCALAR: return "a scalar";
	case YT_SEQ:    return "a list";
	case YT_MAP:    return "a mapping";
	}
	return "?";
}

/* YAML 1.2 core schema nulls: an empty plain scalar, ~, null. */
static int is_null(const yt_node *v)
{
	return v->kind == YT_SCALAR && v->plain &&
	       (v->value[0] == '\0' || strcmp(v->value, "~") == 0 ||
	        strcmp(v->value, "null") == 0 || strcmp(v->value, "Null") == 0 ||
	        strcmp(v->value, "NULL") == 0);
}

static int want_scalar(diag *d, const char *key, const yt_node *v)
{
	if (v->kind != YT_SCALAR) {
		diag_error(d, v->line, v->col, "%s: expected a value, got %s", key, kind_name(v));
		return -1;
	}
	if (is_null(v)) {
		diag_error(d, v->line, v->col, "%s: missing value", key);
		return -1;
	}
	return 0;
}

/* A positive integer in [lo, hi]. */
static int get_size(diag *d, const char *key, const yt_node *v, size_t lo, size_t hi,
                    size_t *out)
{
	if (want_scalar(d, key, v) < 0)
		return -1;
	const char *s = v->value;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (!v->plain || end == s || *end != '\0' || !isdigit((unsigned char)s[s[0] == '+']))
	{
		diag_error(d, v->line, v->col, "%s: expected an integer, got \"%s\"", key, s);
		return -1;
	}
	if (errno == ERANGE || x < (long long)lo || (unsigned long long)x > hi) {
		diag_error(d, v->line, v->col, "%s: %s is out of range [%zu, %zu]", key, s, lo, hi);
		return -1;
	}
	*out = (size_t)x;
	return 0;
}

/* A finite number > 0. */
static int get_positive(diag *d, const char *key, const yt_node *v, double *out)
{
	if (want_scalar(d, key, v) < 0)
		return -1;
	const char *s = v->value;
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	int alpha = 0;   /* strtod takes "nan", "inf", hex: YAML numbers have none */
	for (const char *c = s; *c; c++)
		if (isalpha((unsigned char)*c) && *c != 'e' && *c != 'E')
			alpha = 1;
	if (strstr(s, "inf") || strstr(s, "Inf") || strstr(s, "INF") ||
	    strstr(s, "nan") || strstr(s, "NaN") || strstr(s, "NAN")) {
		diag_error(d, v->line, v->col, "%s: must be a finite number, got \"%s\"", key, s);
		return -1;
	}
	if (!v->plain || end == s || *end != '\0' || alpha) {
		diag_error(d, v->line, v->col, "%s: expected a number, got \"%s\"", key, s);
		return -1;
	}
	if (!isfinite(x) || errno == ERANGE) {
		diag_error(d, v->line, v->col, "%s: must be a finite number, got \"%s\"", key, s);
		return -1;
	}
	if (!(x > 0.0)) {
		diag_error(d, v->line, v->col, "%s: must be > 0, got %s", key, s);
		return -1;
	}
	*out = x;
	return 0;
}

static int get_bool(diag *d, const char *key, const yt_node *v, int *out)
{
	if (want_scalar(d, key, v) < 0)
		return -1;
	if (v->plain && strcmp(v->value, "true") == 0) {
		*out = 1;
		return 0;
	}
	if (v->plain && strcmp(v->value, "false") == 0) {
		*out = 0;
		return 0;
	}
	diag_error(d, v->line, v->col, "%s: expected true or false, got \"%s\"", key, v->value);
	return -1;
}

static int get_enum(diag *d, const char *key, const yt_node *v,
                    const char *const *names, size_t n, int *out)
{
	if (want_scalar(d, key, v) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(v->value, names[i]) == 0) {
			*out = (int)i;
			return 0;
		}
	char list[256] = "";
	for (size_t i = 0; i < n; i++) {
		strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
		strncat(list, names[i], sizeof list - strlen(list) - 1);
	}
	diag_error(d, v->line, v->col, "%s: expected one of %s, got \"%s\"", key, list, v->value);
	return -1;
}

static int get_string(diag *d, const char *key, const yt_node *v, char **out)
{
	if (want_scalar(d, key, v) < 0)
		return -1;
	if (v->value[0] == '-') {
		diag_error(d, v->line, v->col,
		           "%s: \"%s\" starts with '-' and could be read as a command-line option",
		           key, v->value);
		return -1;
	}
	*out = strdup(v->value);
	return *out ? 0 : -1;
}

/* Names and hosts end up in argv and host files: keep them to characters
 * that no launcher or shell gives a meaning to, and never a leading '-'. */
static int check_ident(diag *d, const char *key, const yt_node *v, const char *extra)
{
	const char *s = v->value;
	if (s[0] == '-') {
		diag_error(d, v->line, v->col,
		           "%s: \"%s\" starts with '-' and could be read as a command-line option",
		           key, s);
		return -1;
	}
	if (strlen(s) > MAX_NAME) {
		diag_error(d, v->line, v->col, "%s: longer than %d characters", key, MAX_NAME);
		return -1;
	}
	for (const char *c = s; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '.' && *c != '-' &&
		    strchr(extra, *c) == NULL) {
			/* a UTF-8 character is shown whole, not as its first byte */
			int len = 1;
			while ((c[len] & 0xC0) == 0x80 && (*c & 0x80) && len < 4)
				len++;
			diag_error(d, v->line, v->col,
			           "%s: \"%s\" has the character '%.*s'; allowed: letters, digits, "
			           "_ . -%s%s", key, s, len, c, extra[0] ? " " : "", extra);
			return -1;
		}
	return 0;
}

/* A flow or block list of exactly two integers >= 1, e.g. [3, 3]. */
static int get_pair(diag *d, const char *key, const yt_node *v, size_t lo, size_t hi,
                    size_t out[2])
{
	if (v->kind != YT_SEQ || v->n != 2) {
		diag_error(d, v->line, v->col, "%s: expected a list of two integers, e.g. [3, 3]", key);
		return -1;
	}
	if (get_size(d, key, v->items[0], lo, hi, &out[0]) < 0 ||
	    get_size(d, key, v->items[1], lo, hi, &out[1]) < 0)
		return -1;
	return 0;
}

/* Duplicate keys are an error in YAML 1.2 that libyaml does not enforce.
 * Sorted, so that 10^5 keys take n log n, not n^2.  Returns the
 * keys to skip (1 for every repeat, reported at its line), so that a value
 * is read once: a second list read into the first's array overflowed it, and
 * a second string leaked the first.  NULL when out of memory (-1 in *rc). */
typedef struct {
	const char *s;
	size_t i;
} key_ref;

static int cmp_key_ref(const void *x, const void *y)
{
	const key_ref *a = x, *b = y;
	int k = strcmp(a->s, b->s);
	return k ? k : (a->i > b->i) - (a->i < b->i);
}

static unsigned char *duplicate_keys(diag *d, const yt_node *map, int *rc)
{
	unsigned char *dup = calloc(map->n + 1, 1);
	size_t *first = malloc((map->n + 1) * sizeof *first);
	key_ref *refs = malloc((map->n + 1) * sizeof *refs);
	size_t m = 0;
	if (dup == NULL || first == NULL || refs == NULL) {
		free(dup);
		free(first);
		free(refs);
		*rc = -1;
		return NULL;
	}
	for (size_t i = 0; i < map->n; i++)
		if (map->items[2 * i]->kind == YT_SCALAR)
			refs[m++] = (key_ref){ map->items[2 * i]->value, i };
	qsort(refs, m, sizeof *refs, cmp_key_ref);
	for (size_t j = 1; j < m; j++)
		if (strcmp(refs[j].s, refs[j - 1].s) == 0) {
			dup[refs[j].i] = 1;
			first[refs[j].i] = dup[refs[j - 1].i] ? first[refs[j - 1].i] : refs[j - 1].i;
		}
	for (size_t i = 0; i < map->n; i++)   /* in the file's order */
		if (dup[i]) {
			const yt_node *k = map->items[2 * i], *o = map->items[2 * first[i]];
			diag_error(d, k->line, k->col, "duplicate key \"%s\" (first at line %zu)",
			           k->value, o->line);
			*rc = -1;
		}
	free(first);
	free(refs);
	return dup;
}

static int check_duplicate_keys(diag *d, const yt_node *map)
{
	int rc = 0;
	free(duplicate_keys(d, map, &rc));
	return rc;
}

/* -------------------------------------------------------------- machines */

/* The values of one entry's common keys, by their row in the schema (keys.h). */
typedef struct {
	const yt_node *at[HL_KEYS_MAX];
} machine_keys;

static const yt_node *mkey(const machine_keys *k, const char *key)
{
	return k->at[hl_key_find(HL_KS_MACHINE, key) - hl_keys];
}

/* The layout's own per-machine keys are read by its row's check. */
static int read_machine_keys(diag *d, const yt_node *m, const char *layout, machine_keys *k)
{
	memset(k, 0, sizeof *k);
	if (m->kind != YT_MAP) {
		diag_error(d, m->line, m->col, "machines: each entry must be a mapping "
		           "(name, cycle_time or speed, ...), got %s", kind_name(m));
		return -1;
	}
	int rc = check_duplicate_keys(d, m);
	for (size_t i = 0; i < m->n; i++) {
		const yt_node *key = m->items[2 * i], *val = m->items[2 * i + 1];
		const char *s = key->kind == YT_SCALAR ? key->value : "";
		const hl_key_def *row = hl_key_find(HL_KS_MACHINE, s);
		if (row && row->layouts == NULL)
			k->at[row - hl_keys] = val;
		else if (row == NULL || !hl_key_for_layout(row, layout)) {
			char allowed[256];
			hl_key_list(allowed, sizeof allowed, HL_KS_MACHINE, NULL);
			diag_error(d, key->line, key->col, "machines: unknown key \"%s\" (allowed: %s)",
			           s, allowed);
			rc = -1;
		}
	}
	return rc;
}

static int cmp_machine_name(const void *x, const void *y)
{
	const hl_machine *a = *(const hl_machine *const *)x, *b = *(const hl_machine *const *)y;
	int k = strcmp(a->name, b->name);
	return k ? k : (a < b ? -1 : a > b);
}

/* What the first pass over the list keeps: each entry's count, the total,
 * and the first cycle_time and speed met (the units must not mix). */
typedef struct {
	size_t *counts, total;
	size_t *hosts;                 /* each entry's hosts (a hostlist's, else 1; a
	                                * type's: its nodes, once matched) */
	hl_slurm_type *types;          /* each entry's slurm: (kind NONE: hosts) */
	size_t ntypes;
	int seen_ct, seen_speed;
	const yt_node *first_ct, *first_speed;
	size_t with_mflops;            /* entries that give mflops: all or none */
	const yt_node *first_mflops, *first_without;
} machine_scan;

/* host: a Slurm hostlist (hostlist.h), one machine per host; each host
 * a name as check_ident allows it.  The hosts' number in *nhosts.  Made
 * (to check their lengths) only while the list is under its ceiling: so
 * many entries of 10^5 hosts each cost a count each, not 10^5 strings. */
static int check_hostlist(diag *d, const yt_node *v, size_t *nhosts, size_t so_far)
{
	char **hosts = NULL;
	hl_hostlist_error err;
	if (check_ident(d, "host", v, ":[],") < 0)
		return -1;
	int rc = hl_hostlist_count(v->value, MAX_MACHINES, nhosts, &err);
	if (rc == 0 && so_far + *nhosts <= MAX_MACHINES)
		rc = hl_hostlist_expand(v->value, MAX_MACHINES, &hosts, nhosts, &err);
	if (rc == -1)
		diag_error(d, v->line, v->col + !v->plain + err.pos, "host: \"%s\": %s", v->value,
		           err.msg);
	for (size_t h = 0; rc == 0 && hosts && h < *nhosts; h++)
		if (strlen(hosts[h]) > MAX_NAME) {
			diag_error(d, v->line, v->col, "host: \"%s\" makes a host name longer than %d "
			           "characters", v->value, MAX_NAME);
			rc = -1;
		}
	hl_hostlist_free(hosts);
	return rc < 0 ? -1 : 0;
}

/* One key of slurm: (keys.h's HL_KS_SLURM rows) into t; kinds counts
 * feature, partition and het_group. */
static int read_slurm_key(diag *d, const yt_node *key, const yt_node *x, hl_slurm_type *t,
                          int *kinds)
{
	const char *s = key->kind == YT_SCALAR ? key->value : "";
	const hl_key_def *row = hl_key_find(HL_KS_SLURM, s);
	char name[48], allowed[128];
	size_t g;
	snprintf(name, sizeof name, "slurm: %s", s);
	if (row == NULL) {
		hl_key_list(allowed, sizeof allowed, HL_KS_SLURM, NULL);
		diag_error(d, key->line, key->col, "slurm: unknown key \"%s\" (allowed: %s)", s,
		           allowed);
		return -1;
	}
	if (row->type == HL_KT_BOOL)
		return get_bool(d, name, x, &t->optional);
	++*kinds;
	if (row->type == HL_KT_SIZE) {
		t->kind = HL_NT_HET_GROUP;
		int rc = get_size(d, name, x, row->lo, row->hi, &g);
		t->het_group = (long)g;
		return rc;
	}
	if (want_scalar(d, name, x) < 0 || check_ident(d, name, x, "") < 0)
		return -1;
	t->kind = s[0] == 'f' ? HL_NT_FEATURE : HL_NT_PARTITION;
	free(t->word);
	return (t->word = strdup(x->value)) ? 0 : -1;
}

/* slurm: {feature: F | partition: P | het_group: K [, optional: B]} */
static int read_slurm_type(diag *d, const yt_node *v, hl_slurm_type *t)
{
	if (v->kind != YT_MAP) {
		diag_error(d, v->line, v->col, "slurm: expected a mapping, e.g. {feature: gen3}");
		return -1;
	}
	int rc = check_duplicate_keys(d, v), kinds = 0;
	t->loc = (hl_loc){ v->line, v->col };
	for (size_t i = 0; i < v->n; i++)
		if (read_slurm_key(d, v->items[2 * i], v->items[2 * i + 1], t, &kinds) < 0)
			rc = -1;
	if (rc == 0 && kinds != 1) {
		diag_error(d, v->line, v->col,
		           "slurm: give exactly one of feature, partition and het_group");
		rc = -1;
	}
	if (t->kind == HL_NT_NONE)
		t->kind = HL_NT_FEATURE;   /* still a type: no host of its own */
	return rc;
}

/* name: is required; name and host become argv words and host-file lines;
 * slurm: (a type) instead of host: waits for the allocation's nodes. */
static int check_machine_names(diag *d, const yt_node *m, size_t i, const machine_keys *k,
                               machine_scan *s)
{
	int rc = 0;
	const yt_node *name = mkey(k, "name"), *host = mkey(k, "host"), *sl = mkey(k, "slurm");
	s->hosts[i] = 1;
	if (name == NULL) {
		diag_error(d, m->line, m->col, "machines: entry %zu has no name", i + 1);
		rc = -1;
	} else if (want_scalar(d, "name", name) < 0 || check_ident(d, "name", name, "") < 0)
		rc = -1;
	if (host && sl) {
		diag_error(d, sl->line, sl->col, "machines: slurm: and host: exclude each other "
		           "(a node type gets its hosts from the allocation)");
		rc = -1;
	} else if (sl) {
		s->hosts[i] = 0;
		s->ntypes++;
		if (read_slurm_type(d, sl, &s->types[i]) < 0)
			rc = -1;
	} else if (host && (want_scalar(d, "host", host) < 0 ||
	                    check_hostlist(d, host, &s->hosts[i], s->total) < 0))
		rc = -1;
	return rc;
}

/* The numbers of one entry: one of cycle_time and speed, then the others
 * in the schema's order (count is kept in s->counts; cores is read again
 * when the entry is expanded). */
static int check_machine_fields(diag *d, const yt_node *m, size_t i, const machine_keys *k,
                                machine_scan *s)
{
	int rc = 0;
	const yt_node *ct = mkey(k, "cycle_time"), *speed = mkey(k, "speed");
	const yt_node *mflops = mkey(k, "mflops");
	if (!ct && !speed)
		speed = mflops;   /* a real speed is a speed */
	if ((ct != NULL) == (speed != NULL)) {
		diag_error(d, m->line, m->col,
		           "machines: entry %zu needs exactly one of cycle_time and speed", i + 1);
		rc = -1;
	}
	if (mflops && !s->with_mflops++)
		s->first_mflops = mflops;
	if (!mflops && !s->first_without)
		s->first_without = m;
	if (ct && !s->seen_ct++)
		s->first_ct = ct;
	if (speed && !s->seen_speed++)
		s->first_speed = speed;
	for (size_t r = 0; r < hl_nkeys; r++) {
		const hl_key_def *row = &hl_keys[r];
		const yt_node *v = k->at[r];
		double x;
		size_t cores;
		if (v == NULL || row->section != HL_KS_MACHINE || row->layouts)
			continue;
		if (row->type == HL_KT_SIZE
		    ? get_size(d, row->name, v, row->lo, row->hi,
		               strcmp(row->name, "count") == 0 ? &s->counts[i] : &cores) < 0
		    : row->type == HL_KT_NUMBER && get_positive(d, row->name, v, &x) < 0)
			rc = -1;
	}
	return rc;
}

/* First pass, one entry: its keys, names and numbers; counts its processors. */
static int check_machine_entry(diag *d, const yt_node *m, size_t i, const hl_config *cfg,
                               machine_scan *s)
{
	machine_keys k;
	if (read_machine_keys(d, m, cfg->layout->name, &k) < 0)
		return -1;
	s->counts[i] = 1;
	int rc = check_machine_names(d, m, i, &k, s);
	if (check_machine_fields(d, m, i, &k, s) < 0)
		rc = -1;
	/* both at most MAX_MACHINES: the product cannot overflow */
	s->total += s->counts[i] * s->hosts[i];
	return rc;
}

/* Across entries: cycle_time and speed are different units, and (for a
 * list with no error so far: rc, the entries' result) the processors after
 * expansion have a ceiling. */
static int check_machine_list(diag *d, const yt_node *list, const machine_scan *s, int rc)
{
	if (s->seen_ct && s->seen_speed) {
		const yt_node *later = s->first_ct->line > s->first_speed->line ? s->first_ct
		                                                                : s->first_speed;
		const yt_node *earlier = later == s->first_ct ? s->first_speed : s->first_ct;
		diag_error(d, later->line, later->col,
		           "machines: %s here, but %s at line %zu: give every machine the same one "
		           "(they are different units)",
		           later == s->first_ct ? "cycle_time" : "speed",
		           later == s->first_ct ? "speed" : "cycle_time", earlier->line);
		rc = -1;
	}
	if (s->with_mflops && s->first_without) {
		diag_error(d, s->first_without->line, s->first_without->col,
		           "machines: this entry has no mflops, but the one at line %zu has: give "
		           "every machine its Mflop/s or none", s->first_mflops->line);
		rc = -1;
	}
	if (rc == 0 && s->total > MAX_MACHINES) {
		diag_error(d, list->line, list->col, "machines: %zu processors, more than %d",
		           s->total, MAX_MACHINES);
		rc = -1;
	}
	return rc;
}

/* Second pass, one entry (already checked): count processors on each host
 * of its hostlist, named name.0, name.1, ... (host-major) when there are
 * several.  -1 only when out of memory. */
static int expand_machine_entry(diag *d, const yt_node *m, size_t i, size_t count,
                                hl_config *cfg)
{
	machine_keys k;
	read_machine_keys(d, m, cfg->layout->name, &k);   /* known to succeed now */
	const yt_node *name = mkey(&k, "name"), *host = mkey(&k, "host");
	const yt_node *ct = mkey(&k, "cycle_time"), *speed = mkey(&k, "speed");
	const yt_node *latency = mkey(&k, "latency_us"), *bandwidth = mkey(&k, "bandwidth_mbps");
	const yt_node *memory = mkey(&k, "memory_gb"), *emulate = mkey(&k, "emulate_mflops");
	const yt_node *cores = mkey(&k, "cores");
	const yt_node *mflops = mkey(&k, "mflops");
	double val, lat = 0.0, bw = 0.0, mem = 0.0, emf = 0.0, mf = 0.0;
	size_t ncores = 1;
	if (!ct && !speed)
		speed = mflops;
	if (mflops)
		get_positive(d, "", mflops, &mf);
	get_positive(d, "", ct ? ct : speed, &val);
	if (cores)
		get_size(d, "", cores, 1, (size_t)-1, &ncores);
	if (latency)
		get_positive(d, "", latency, &lat);
	if (bandwidth)
		get_positive(d, "", bandwidth, &bw);
	if (memory)
		get_positive(d, "", memory, &mem);
	if (emulate)
		get_positive(d, "", emulate, &emf);
	char **hosts = NULL;
	size_t nhosts;
	hl_hostlist_error err;
	const hl_slurm_type *type = hl_config_type(cfg, i);
	if (type) {
		nhosts = type->nnodes;
	} else if (hl_hostlist_expand(host ? host->value : name->value, MAX_MACHINES, &hosts,
	                              &nhosts, &err) != 0) {
		return -1;   /* checked: out of memory */
	}
	size_t per_host = count;
	count *= nhosts;   /* host-major: name.0 .. name.(count-1) on the first host */
	for (size_t j = 0; j < count; j++) {
		hl_machine *hm = &cfg->machines[cfg->nmachines++];
		size_t len = strlen(name->value) + 24;
		const char *h = type ? type->nodes[j / per_host] : hosts[j / per_host];
		if ((hm->name = malloc(len)) == NULL || (hm->host = strdup(h)) == NULL) {
			hl_hostlist_free(hosts);
			return -1;
		}
		/* a node type's machine is the whole node unless cores: says */
		if (type && !cores && type->cpus[j / per_host])
			ncores = type->cpus[j / per_host] / per_host ? type->cpus[j / per_host] / per_host
			                                            : 1;
		if (count > 1)
			snprintf(hm->name, len, "%s.%zu", name->value, j);
		else
			snprintf(hm->name, len, "%s", name->value);
		hm->speed = speed ? val : 0.0;
		hm->cycle_time = speed ? 1.0 / val : val;
		hm->latency_us = lat;
		hm->bandwidth_mbps = bw;
		hm->memory_gb = mem;
		hm->emulate_mflops = emf;
		hm->cores = ncores;
		hm->mflops = mf;
		hm->loc.line = m->line;
		hm->loc.col = m->col;
		hm->entry = i;
	}
	hl_hostlist_free(hosts);
	return 0;
}

/* Unique names, after expansion ("a" with count 2 makes a.0 and a.1).
 * Sorted, so that 10^5 processors take n log n, not n^2. */
static int check_unique_names(diag *d, const hl_config *cfg)
{
	const hl_machine **byname = malloc(cfg->nmachines * sizeof *byname);
	if (byname == NULL)
		return -1;
	for (size_t i = 0; i < cfg->nmachines; i++)
		byname[i] = &cfg->machines[i];
	qsort(byname, cfg->nmachines, sizeof *byname, cmp_machine_name);
	int rc = 0;
	for (size_t i = 1; i < cfg->nmachines; i++)
		if (strcmp(byname[i]->name, byname[i - 1]->name) == 0) {
			/* qsort is not stable: report the later entry of the two */
			const hl_machine *a = byname[i - 1], *b = byname[i];
			if (a > b) {
				const hl_machine *x = a;
				a = b;
				b = x;
			}
			diag_error(d, b->loc.line, b->loc.col,
			           "machines: duplicate name \"%s\" (first at line %zu)",
			           b->name, a->loc.line);
			rc = -1;
		}
	free(byname);
	return rc;
}

/* Second pass: expand every entry's count into processors. */
static int expand_machines(diag *d, const yt_node *list, const machine_scan *s, hl_config *cfg)
{
	cfg->by_speed = s->seen_speed > 0;
	cfg->machines = calloc(s->total, sizeof *cfg->machines);
	if (cfg->machines == NULL)
		return -1;
	for (size_t i = 0; i < list->n; i++)
		if (expand_machine_entry(d, list->items[i], i, s->counts[i], cfg) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------------ Slurm types */

static void free_type(hl_slurm_type *t)
{
	free(t->name);
	free(t->word);
	for (size_t i = 0; i < t->nnodes; i++)
		free(t->nodes[i]);
	free(t->nodes);
	free(t->cpus);
}

const hl_slurm_type *hl_config_type(const hl_config *cfg, size_t e)
{
	for (size_t i = 0; i < cfg->ntypes; i++)
		if (cfg->types[i].entry == e)
			return &cfg->types[i];
	return NULL;
}

/* The type's word: its feature, partition, or het_group number. */
static const char *type_word(const hl_slurm_type *t, char *buf, size_t len)
{
	if (t->kind != HL_NT_HET_GROUP)
		return t->word;
	snprintf(buf, len, "%ld", t->het_group);
	return buf;
}

static int type_add_node(hl_slurm_type *t, char *owned, size_t cpus)
{
	char **v = realloc(t->nodes, (t->nnodes + 1) * sizeof *v);
	if (v)
		t->nodes = v;
	size_t *c = realloc(t->cpus, (t->nnodes + 1) * sizeof *c);
	if (c)
		t->cpus = c;
	if (!v || !c || !owned) {
		free(owned);
		return -1;
	}
	v[t->nnodes] = owned;
	c[t->nnodes++] = cpus;
	return 0;
}

/* --nodes TYPE=COUNT: COUNT stand-in hosts NAME-0, NAME-1, ... for the
 * first type whose word is TYPE. */
static int assign_counts(diag *d, const hl_nodes *a, hl_config *cfg)
{
	int rc = 0;
	for (size_t k = 0; k < a->ncounts; k++) {
		hl_slurm_type *t = NULL;
		char w[32];
		for (size_t i = 0; i < cfg->ntypes && !t; i++)
			if (strcmp(type_word(&cfg->types[i], w, sizeof w), a->count_type[k]) == 0)
				t = &cfg->types[i];
		if (t == NULL) {
			diag_error(d, 0, 0, "--nodes: %s is no slurm: feature, partition or het_group "
			           "of this file", a->count_type[k]);
			rc = -1;
		}
		for (size_t j = 0; t && j < a->count[k] && rc == 0; j++) {
			char *h = NULL;
			if (asprintf(&h, "%s-%zu", t->name, j) < 0)
				h = NULL;
			rc = type_add_node(t, h, 0);
		}
	}
	return rc;
}

/* Is host one of the hosts that entry m (not a type) names? */
static int entry_has_host(const yt_node *m, const char *host)
{
	const char *expr = NULL, *name = NULL;
	for (size_t i = 0; m->kind == YT_MAP && i < m->n; i++) {
		const yt_node *k = m->items[2 * i], *v = m->items[2 * i + 1];
		if (k->kind == YT_SCALAR && v->kind == YT_SCALAR && strcmp(k->value, "host") == 0)
			expr = v->value;
		if (k->kind == YT_SCALAR && v->kind == YT_SCALAR && strcmp(k->value, "name") == 0)
			name = v->value;
	}
	char **hosts;
	size_t n;
	hl_hostlist_error err;
	if (hl_hostlist_expand(expr ? expr : name ? name : "", MAX_MACHINES, &hosts, &n, &err))
		return 0;
	int found = 0;
	for (size_t i = 0; i < n && !found; i++)
		found = strcmp(hosts[i], host) == 0;
	hl_hostlist_free(hosts);
	return found;
}

/* Each allocated node to the first type it matches; a node that none
 * matches (and no host: entry names) is refused at the list. */
static int assign_nodes(diag *d, const yt_node *list, const hl_nodes *a, hl_config *cfg,
                        const machine_scan *s)
{
	int rc = 0;
	for (size_t n = 0; n < a->n; n++) {
		const hl_node *nd = &a->nodes[n];
		hl_slurm_type *t = NULL;
		for (size_t i = 0; i < cfg->ntypes && !t; i++)
			if (hl_node_matches(nd, cfg->types[i].kind, cfg->types[i].word,
			                    cfg->types[i].het_group))
				t = &cfg->types[i];
		if (t) {
			if (type_add_node(t, strdup(nd->name), nd->cpus) < 0)
				return -1;
			continue;
		}
		int named = 0;
		for (size_t e = 0; e < list->n && !named; e++)
			named = s->types[e].kind == HL_NT_NONE && s->hosts[e] &&
			        entry_has_host(list->items[e], nd->name);
		if (!named) {
			diag_error(d, list->line, list->col, "machines: node %s of %s (features: %s; "
			           "partitions: %s; het_group: %ld) matches no slurm: type of this list",
			           nd->name, a->source, nd->features[0] ? nd->features : "none",
			           nd->partitions, nd->het_group);
			rc = -1;
		}
	}
	return rc;
}

/* A type that got no node: an error unless optional. */
static int check_types_got(diag *d, const hl_config *cfg, const hl_nodes *a)
{
	int rc = 0;
	for (size_t i = 0; i < cfg->ntypes; i++) {
		const hl_slurm_type *t = &cfg->types[i];
		char w[32];
		if (t->nnodes || t->optional)
			continue;
		if (a->by_count)
			diag_error(d, t->loc.line, t->loc.col, "machines: %s (slurm: %s %s) got no node: "
			           "give --nodes %s=COUNT, or optional: true", t->name,
			           hl_node_kind_name(t->kind), type_word(t, w, sizeof w),
			           type_word(t, w, sizeof w));
		else
			diag_error(d, t->loc.line, t->loc.col, "machines: %s (slurm: %s %s) got no node "
			           "of %s's %zu (optional: true leaves it out)", t->name,
			           hl_node_kind_name(t->kind), type_word(t, w, sizeof w), a->source, a->n);
		rc = -1;
	}
	return rc;
}

/* Without an allocation or --nodes, each type says what to do. */
static int no_nodes(diag *d, const hl_config *cfg)
{
	for (size_t i = 0; i < cfg->ntypes; i++) {
		const hl_slurm_type *t = &cfg->types[i];
		char w[32];
		diag_error(d, t->loc.line, t->loc.col, "machines: %s is a Slurm node type (slurm: %s "
		           "%s): run inside an allocation (SLURM_JOB_ID), or plan for counts with "
		           "--nodes %s=COUNT", t->name, hl_node_kind_name(t->kind),
		           type_word(t, w, sizeof w), type_word(t, w, sizeof w));
	}
	return -1;
}

/* The types, moved from the scan into cfg, get their nodes; each type's
 * entry then counts its nodes as hosts. */
/* The scan's types into cfg->types, each with its entry and name. */
static int move_types(const yt_node *list, machine_scan *s, hl_config *cfg)
{
	if ((cfg->types = calloc(s->ntypes, sizeof *cfg->types)) == NULL)
		return -1;
	for (size_t i = 0; i < list->n; i++) {
		if (s->types[i].kind == HL_NT_NONE)
			continue;
		hl_slurm_type *t = &cfg->types[cfg->ntypes++];
		*t = s->types[i];
		t->entry = i;
		s->types[i].word = NULL;   /* cfg's now */
		const yt_node *m = list->items[i], *name = NULL;
		for (size_t k = 0; k < m->n; k++)
			if (m->items[2 * k]->kind == YT_SCALAR && strcmp(m->items[2 * k]->value, "name") == 0)
				name = m->items[2 * k + 1];
		if ((t->name = strdup(name ? name->value : "?")) == NULL)
			return -1;
	}
	return 0;
}

static int match_types(diag *d, const yt_node *list, machine_scan *s, hl_config *cfg)
{
	if (move_types(list, s, cfg) < 0)
		return -1;
	if (!hl_nodes_have_source())
		return no_nodes(d, cfg);
	hl_nodes a;
	char err[256];
	if (hl_nodes_read(&a, err, sizeof err) < 0) {
		diag_error(d, list->line, list->col, "machines: the Slurm node types: %s", err);
		return -1;
	}
	snprintf(cfg->types_source, sizeof cfg->types_source, "%s", a.source);
	cfg->types_by_count = a.by_count;
	int rc = a.by_count ? assign_counts(d, &a, cfg) : assign_nodes(d, list, &a, cfg, s);
	if (rc == 0)
		rc = check_types_got(d, cfg, &a);
	for (size_t i = 0; rc == 0 && i < cfg->ntypes; i++) {
		s->hosts[cfg->types[i].entry] = cfg->types[i].nnodes;
		s->total += s->counts[cfg->types[i].entry] * cfg->types[i].nnodes;
	}
	hl_nodes_free(&a);
	return rc;
}

/* machines: check every entry, then the list as a whole, then expand. */
static int load_machines(diag *d, const yt_node *list, hl_config *cfg)
{
	if (list->kind != YT_SEQ || list->n == 0) {
		diag_error(d, list->line, list->col, "machines: expected a non-empty list");
		return -1;
	}
	machine_scan s = { .counts = calloc(list->n, sizeof *s.counts),
		           .hosts = calloc(list->n, sizeof *s.hosts),
		           .types = calloc(list->n, sizeof *s.types) };
	int rc = s.counts && s.hosts && s.types ? 0 : -1, bad = 0;
	for (size_t i = 0; rc == 0 && i < list->n; i++)
		if (check_machine_entry(d, list->items[i], i, cfg, &s) < 0)
			bad = 1;
	rc = bad ? -1 : rc;
	if (rc == 0 && s.ntypes)
		rc = match_types(d, list, &s, cfg);
	if (rc == 0 && s.total == 0) {
		diag_error(d, list->line, list->col, "machines: no machine left: no slurm: type got "
		           "a node of %s", cfg->types_source);
		rc = -1;
	}
	rc = check_machine_list(d, list, &s, rc);
	if (rc == 0)
		rc = expand_machines(d, list, &s, cfg);
	for (size_t i = 0; s.types && i < list->n; i++)
		free_type(&s.types[i]);
	free(s.types);
	free(s.counts);
	free(s.hosts);
	if (rc < 0)
		return -1;
	return check_unique_names(d, cfg);
}

/* ------------------------------------------------------------- emulate */

static size_t count_values(const char *const *values)
{
	size_t n = 0;
	while (values[n])
		n++;
	return n;
}

/* A value of one of the schema's plain types, stored at the row's offset
 * in base (an hl_config or an hl_emulation); key names it in messages. */
static int read_value(diag *d, const char *key, const hl_key_def *row, const yt_node *v,
                      void *base)
{
	void *at = (char *)base + row->off;
	int k, on = 1;
	switch (row->type) {
	case HL_KT_SIZE:
		return get_size(d, key, v, row->lo, row->hi, at);
	case HL_KT_NUMBER:
		return get_positive(d, key, v, at);
	case HL_KT_BOOL_NOT:
		k = get_bool(d, key, v, &on);
		*(int *)at = !on;
		return k;
	case HL_KT_BOOL:
		return get_bool(d, key, v, at);
	case HL_KT_ENUM:
		return get_enum(d, key, v, row->values, count_values(row->values), at);
	case HL_KT_NETWORK:   /* switch, bus or links: two flags */
		if (get_enum(d, key, v, row->values, count_values(row->values), &k) < 0)
			return -1;
		((hl_emulation *)base)->bus = k == 1;
		((hl_emulation *)base)->links = k == 2;
		return 0;
	case HL_KT_STRING:
		return get_string(d, key, v, at);
	case HL_KT_IDENT:
		if (want_scalar(d, key, v) < 0 || check_ident(d, key, v, "") < 0)
			return -1;
		return (*(char **)at = strdup(v->value)) == NULL ? -1 : 0;
	default:
		return -1;
	}
}

/* emulate: true | false | a mapping of the schema's emulate: keys */
static int load_emulate(diag *d, const yt_node *v, hl_emulation *e)
{
	char allowed[256];
	hl_key_list(allowed, sizeof allowed, HL_KS_EMULATE, NULL);
	if (v->kind == YT_SCALAR)
		return get_bool(d, "emulate", v, &e->on);
	if (v->kind != YT_MAP) {
		diag_error(d, v->line, v->col, "emulate: expected true, false or a mapping (%s)",
		           allowed);
		return -1;
	}
	int rc = check_duplicate_keys(d, v);
	const yt_node *compute = NULL, *stall = NULL;
	e->on = 1;
	for (size_t i = 0; i < v->n; i++) {
		const yt_node *key = v->items[2 * i], *x = v->items[2 * i + 1];
		const char *s = key->kind == YT_SCALAR ? key->value : "";
		const hl_key_def *row = hl_key_find(HL_KS_EMULATE, s);
		char name[64];
		snprintf(name, sizeof name, "emulate: %s", s);
		if (row == NULL) {
			diag_error(d, key->line, key->col, "emulate: unknown key \"%s\" (allowed: %s)",
			           s, allowed);
			rc = -1;
		} else if (read_value(d, name, row, x, e) < 0)
			rc = -1;
		else if (strcmp(s, "cpu_time") == 0)   /* else its default depends on the clock */
			e->cpu_time_given = 1, e->cpu_time_loc = (hl_loc){ key->line, key->col };
		else if (strcmp(s, "compute") == 0)
			compute = key;
		else if (strcmp(s, "stall_timeout_s") == 0)
			stall = key;
	}
	/* The real clock's time moves by itself: only virtual clocks stall. */
	if (rc == 0 && stall && !e->virtual_clock) {
		diag_error(d, stall->line, stall->col, "emulate: stall_timeout_s needs clock: virtual");
		rc = -1;
	}
	/* Skipped compute has no real duration to sleep off: only virtual
	 * time can charge what was not run. */
	if (rc == 0 && e->skip_compute && !e->virtual_clock) {
		diag_error(d, compute->line, compute->col, "emulate: compute: skip needs clock: "
		           "virtual (the real clock would sleep off work that never ran)");
		rc = -1;
	}
	if (rc == 0 && e->cycle_time > 0.0 && e->mflops == 0.0) {
		diag_error(d, v->line, v->col, "emulate: cycle_time needs mflops (the speed of a "
		           "machine of that cycle time)");
		rc = -1;
	}
	return rc < 0 ? -1 : 0;
}

/* hpl: a mapping of the schema's hpl: keys, each checked at its value. */
static int load_hpl(diag *d, const yt_node *v, hl_hpl_settings *s)
{
	char allowed[256];
	hl_key_list(allowed, sizeof allowed, HL_KS_HPL, NULL);
	if (v->kind != YT_MAP) {
		diag_error(d, v->line, v->col, "hpl: expected a mapping (%s)", allowed);
		return -1;
	}
	int rc = check_duplicate_keys(d, v);
	for (size_t i = 0; i < v->n; i++) {
		const yt_node *key = v->items[2 * i], *x = v->items[2 * i + 1];
		const char *k = key->kind == YT_SCALAR ? key->value : "";
		const hl_key_def *row = hl_key_find(HL_KS_HPL, k);
		char name[64];
		snprintf(name, sizeof name, "hpl: %s", k);
		if (row == NULL) {
			diag_error(d, key->line, key->col, "hpl: unknown key \"%s\" (allowed: %s)", k,
			           allowed);
			rc = -1;
		} else if (read_value(d, name, row, x, s) < 0) {
			rc = -1;
		}
	}
	return rc < 0 ? -1 : 0;
}

/* result: a mapping of the schema's result: keys, each a regular
 * expression checked at its value (time: with a group for the seconds). */
static int load_result(diag *d, const yt_node *v, hl_result_patterns *p)
{
	char allowed[256];
	hl_key_list(allowed, sizeof allowed, HL_KS_RESULT, NULL);
	if (v->kind != YT_MAP || v->n == 0) {
		diag_error(d, v->line, v->col, "result: expected a mapping of %s", allowed);
		return -1;
	}
	int rc = check_duplicate_keys(d, v);
	for (size_t i = 0; i < v->n; i++) {
		const yt_node *key = v->items[2 * i], *x = v->items[2 * i + 1];
		const char *k = key->kind == YT_SCALAR ? key->value : "";
		const hl_key_def *row = hl_key_find(HL_KS_RESULT, k);
		char name[64], why[160];
		snprintf(name, sizeof name, "result: %s", k);
		if (row == NULL) {
			diag_error(d, key->line, key->col, "result: unknown key \"%s\" (allowed: %s)", k,
			           allowed);
			rc = -1;
		} else if ((free(*(char **)((char *)p + row->off)),   /* a duplicate's first */
		            *(char **)((char *)p + row->off) = NULL, read_value(d, name, row, x, p)) < 0) {
			rc = -1;
		} else if (hl_result_pattern_check(*(char **)((char *)p + row->off),
		                                   strcmp(k, "time") == 0, why, sizeof why) < 0) {
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
	if (want_scalar(d, "inputs: file", v) < 0 || check_ident(d, "inputs: file", v, "") < 0)
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
	if (want_scalar(d, tmpl ? "inputs: template" : "inputs: text", v) < 0)
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
	int rc = check_duplicate_keys(d, e), texts = 0;
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
static int load_inputs(diag *d, const yt_node *v, hl_config *cfg)
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
			           kind_name(x));
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

/* ------------------------------------------------------------- layouts */

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
	if (get_enum(d, "layout", v, names, n, &e) < 0)
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

/* The value readers, for the rows' loaders (layout.h). */
int hl_cfg_size(diag *d, const char *key, const yt_node *v, size_t lo, size_t hi, size_t *out)
{
	return get_size(d, key, v, lo, hi, out);
}

int hl_cfg_positive(diag *d, const char *key, const yt_node *v, double *out)
{
	return get_positive(d, key, v, out);
}

int hl_cfg_bool(diag *d, const char *key, const yt_node *v, int *out)
{
	return get_bool(d, key, v, out);
}

int hl_cfg_enum(diag *d, const char *key, const yt_node *v, const char *const *names,
                size_t n, int *out)
{
	return get_enum(d, key, v, names, n, out);
}

int hl_cfg_string(diag *d, const char *key, const yt_node *v, char **out)
{
	return get_string(d, key, v, out);
}

int hl_cfg_key(diag *d, hl_key_section s, const char *key, const yt_node *v, void *out)
{
	const hl_key_def *k = hl_key_find(s, key);
	switch (k ? k->type : HL_KT_CUSTOM) {
	case HL_KT_SIZE:
		return get_size(d, key, v, k->lo, k->hi, out);
	case HL_KT_NUMBER:
		return get_positive(d, key, v, out);
	case HL_KT_ENUM:
		return get_enum(d, key, v, k->values, count_values(k->values), out);
	case HL_KT_PAIR:
		return get_pair(d, key, v, k->lo, k->hi, out);
	case HL_KT_STRING:
		return get_string(d, key, v, out);
	default:
		/* a layout asked for a key the table reads otherwise: a bug here */
		diag_error(d, v->line, v->col, "%s: internal error: no typed row in the key table",
		           key);
		return -1;
	}
}

const yt_node *hl_cfg_get(const yt_node *map, const char *key)
{
	if (map == NULL || map->kind != YT_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++) {
		const yt_node *k = map->items[2 * i];
		if (k->kind == YT_SCALAR && strcmp(k->value, key) == 0)
			return map->items[2 * i + 1];
	}
	return NULL;
}

void hl_cfg_machine_entry(const hl_config *cfg, size_t e, size_t *first, size_t *count)
{
	size_t k = 0;
	while (k < cfg->nmachines && cfg->machines[k].entry < e)
		k++;
	*first = k;
	while (k < cfg->nmachines && cfg->machines[k].entry == e)
		k++;
	*count = k - *first;
}

/* ------------------------------------------------------------- top level */

static char *stem_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	const char *dot = strrchr(base, '.');
	if (dot && dot != base)
		len = (size_t)(dot - base);
	/* The default run name becomes a directory name and a line of
	 * command.txt: what check_ident would refuse in name: becomes '_'. */
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

/* kernel: a row of the kernel table (kernels.h). */
static int get_kernel(diag *d, const yt_node *v, hl_kernel *out)
{
	if (want_scalar(d, "kernel", v) < 0)
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

/* n: N or a list [N1, N2, ...] (INTERFACE.md "Dense kernels at any size");
 * cfg->n is the largest, which the plan and the memory check use. */
static int get_sizes(diag *d, const yt_node *v, hl_config *cfg)
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
		if (get_size(d, "n", x, 1, 10000000, &cfg->sizes[i]) < 0) {
			rc = -1;
			continue;
		}
		if (cfg->sizes[i] > cfg->n)
			cfg->n = cfg->sizes[i];
	}
	cfg->nsizes = cnt;
	return rc;
}

/* The values of the top level's common keys, by their row in the schema
 * (NULL: not given), for the checks across keys. */
typedef struct {
	const yt_node *at[HL_KEYS_MAX];
} top_keys;

static const yt_node *given(const top_keys *t, const char *key)
{
	return t->at[hl_key_find(HL_KS_TOP, key) - hl_keys];
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
			diag_error(d, a->line, a->col, "args: expected a string, got %s", kind_name(a));
			rc = -1;
		} else if ((cfg->args[cfg->nargs++] = strdup(a->value)) == NULL) {
			rc = -1;
		}
	}
	return rc;
}

/* emulate: (load_emulate); network: links only where the ring has links. */
static int load_top_emulate(diag *d, const yt_node *v, hl_config *cfg)
{
	int rc = 0;
	if (load_emulate(d, v, &cfg->emu) < 0)
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
 * every other key (load_machines) and layout: before them (load_layout);
 * the schema has one key of each of the list types (n, args, mpiexec). */
static int load_top_value(diag *d, const hl_key_def *row, const yt_node *v, hl_config *cfg)
{
	switch (row->type) {
	case HL_KT_MACHINES:
	case HL_KT_LAYOUT:
		return 0;
	case HL_KT_KERNEL:
		return get_kernel(d, v, &cfg->kernel);
	case HL_KT_SIZES:
		cfg->n_loc.line = v->line;
		cfg->n_loc.col = v->col;
		return get_sizes(d, v, cfg);
	case HL_KT_STRINGS:
		return load_args(d, v, cfg);
	case HL_KT_ARGV:
		return get_argv(d, row->name, v, &cfg->mpiexec, &cfg->nmpiexec);
	case HL_KT_EMULATE:
		return load_top_emulate(d, v, cfg);
	case HL_KT_CUSTOM:   /* the kernels' mappings */
		return strcmp(row->name, "hpl") == 0      ? load_hpl(d, v, &cfg->hpl)
		       : strcmp(row->name, "result") == 0 ? load_result(d, v, &cfg->result)
		                                          : load_inputs(d, v, cfg);
	default:
		return read_value(d, row->name, row, v, cfg);
	}
}

/* One top-level key: a common key, else the layout's own, else unknown
 * (a key is never both: tests/cli/cli_test.sh, `hetlaunch keys`). */
static int load_top_key(diag *d, const yt_node *key, const yt_node *v, hl_config *cfg,
                        top_keys *t)
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
 * (duplicate_keys) and only its first counts. */
static int load_top_keys(diag *d, const yt_node *root, const unsigned char *dup,
                         hl_config *cfg, top_keys *t)
{
	int rc = 0;
	for (size_t i = 0; i < root->n; i++)
		if (!dup[i] && load_top_key(d, root->items[2 * i], root->items[2 * i + 1], cfg, t) < 0)
			rc = -1;
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
static int check_hpl_keys(diag *d, hl_config *cfg, const top_keys *t)
{
	const yt_node *mpi = given(t, "mpi"), *n = given(t, "n"), *mf = given(t, "memory_fraction");
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
	else if (cfg->mpi != 1 && given(t, "program") == NULL) {
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
static int check_kernel_keys(diag *d, const yt_node *root, hl_config *cfg,
                             const top_keys *t)
{
	int rc = 0;
	const yt_node *tester = given(t, "tester"), *kernel = given(t, "kernel");
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
	if (kernel && klayout && strcmp(cfg->layout->name, klayout) != 0) {
		diag_error(d, kernel->line, kernel->col, "kernel: %s is for layout: %s",
		           hl_kernel_name(cfg->kernel), klayout);
		rc = -1;
	}
	if (cfg->kernel == HL_KERNEL_EXEC && given(t, "program") == NULL) {
		diag_error(d, root->line, root->col, "kernel: exec needs program:");
		rc = -1;
	}
	const yt_node *model = given(t, "model");   /* the dense layouts' models only */
	if (model && strcmp(cfg->layout->name, "1d") != 0 && strcmp(cfg->layout->name, "2d") != 0 &&
	    strcmp(cfg->layout->name, "auto") != 0) {
		diag_error(d, model->line, model->col, "model is for layout: 1d, 2d or auto "
		           "(this file is layout: %s)", cfg->layout->name);
		rc = -1;
	}
	return check_hpl_keys(d, cfg, t) < 0 ? -1 : rc;
}

/* For a file with no error so far: n's default list, then impossible
 * shapes (nb larger than the smallest n, then the layout's own check). */
static int check_shapes(diag *d, const yt_node *root, hl_config *cfg, const top_keys *t)
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
		const yt_node *at = given(t, "nb") ? given(t, "nb") : given(t, "n");
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
		           kind_name(*root));
		yt_free(*root);
		return -1;
	}
	return 0;
}

/* layout: first, then the other keys, machines:, the checks across keys and
 * the shapes; the default name last, for a file with no error. */
/* cpu_time's default.  Under the virtual clock, the flop models only: a
 * run then gives the same times whatever else this computer is doing
 * (INTERFACE.md, "Emulation clock"), where the CPU time outside the modelled
 * BLAS moved lhpc's LU n = 1800 by 1-3% beside two CPU hogs.  kernel: exec
 * keeps it (its compute may be outside the BLAS), and so does kernel: hpl:
 * hpcc's LatencyBandwidth lengthens its loops of ping-pongs until they
 * last ten clock ticks, and between ranks of one machine they cost nothing
 * on the flop models (run.c refuses that case); so does the real clock,
 * whose times move with the load anyway. */
static void emu_defaults(hl_config *cfg)
{
	hl_emulation *e = &cfg->emu;
	if (!e->cpu_time_given && e->virtual_clock && cfg->kernel != HL_KERNEL_EXEC &&
	    cfg->kernel != HL_KERNEL_HPL)
		e->no_cpu_time = 1;
}

static int config_load(const char *path, diag *d, hl_config *cfg)
{
	yt_node *root;
	if (load_root(path, d, cfg, &root) < 0)
		return -1;
	int rc = 0;
	unsigned char *dup = duplicate_keys(d, root, &rc);
	if (dup == NULL) {
		yt_free(root);
		return -1;
	}
	top_keys t = { 0 };
	if (load_layout(d, root, cfg) < 0)
		rc = -1;
	if (load_top_keys(d, root, dup, cfg, &t) < 0)
		rc = -1;
	const yt_node *machines = given(&t, "machines");
	if (machines == NULL) {
		diag_error(d, root->line, root->col, "missing required key \"machines\"");
		rc = -1;
	} else if (load_machines(d, machines, cfg) < 0) {
		rc = -1;
	}
	if (check_kernel_keys(d, root, cfg, &t) < 0)
		rc = -1;
	if (cfg->max_procs == 0)
		cfg->max_procs = hl_config_max_procs(cfg->nmachines);
	if (rc == 0)
		rc = check_shapes(d, root, cfg, &t);
	if (rc == 0)
		emu_defaults(cfg);
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
		free_type(&cfg->types[i]);
	free(cfg->types);
	if (cfg->args)
		for (size_t i = 0; i < cfg->nargs; i++)
			free(cfg->args[i]);
	free(cfg->args);
	if (cfg->mpiexec)
		for (size_t i = 0; i < cfg->nmpiexec; i++)
			free(cfg->mpiexec[i]);
	free(cfg->mpiexec);
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
