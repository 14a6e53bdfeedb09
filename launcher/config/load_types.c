#define _GNU_SOURCE   /* asprintf */
/*
 * load_types.c -- a machines: entry that is a Slurm node type (slurm:
 * {feature | partition | het_group [, optional]}): its mapping, and the
 * nodes each type gets from the allocation or from --nodes TYPE=COUNT
 * (nodes.c reads them), before load_machines.c expands the entries.
 */
#include "config/load_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hostlist.h"

/* One key of slurm: (keys.h's HL_KS_SLURM rows) into t; kinds counts
 * feature, partition and het_group. */
static int read_slurm_key(diag *d, const yt_node *key, const yt_node *x, hl_slurm_type *t,
                          int *kinds)
{
	char name[CFG_KEY_NAME];
	const hl_key_def *row = cfg_section_key(d, HL_KS_SLURM, "slurm", key, name);
	size_t g;
	if (row == NULL)
		return -1;
	if (row->type == HL_KT_BOOL)
		return hl_cfg_bool(d, name, x, &t->optional);
	++*kinds;
	if (row->type == HL_KT_SIZE) {
		t->kind = HL_NT_HET_GROUP;
		int rc = hl_cfg_size(d, name, x, row->lo, row->hi, &g);
		t->het_group = (long)g;
		return rc;
	}
	if (cfg_want_scalar(d, name, x) < 0 || cfg_check_ident(d, name, x, "") < 0)
		return -1;
	t->kind = row->name[0] == 'f' ? HL_NT_FEATURE : HL_NT_PARTITION;
	free(t->word);
	return (t->word = strdup(x->value)) ? 0 : -1;
}

/* slurm: {feature: F | partition: P | het_group: K [, optional: B]} */
int cfg_read_slurm_type(diag *d, const yt_node *v, hl_slurm_type *t)
{
	if (v->kind != YT_MAP) {
		diag_error(d, v->line, v->col, "slurm: expected a mapping, e.g. {feature: gen3}");
		return -1;
	}
	int rc = cfg_check_duplicate_keys(d, v), kinds = 0;
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

void cfg_free_type(hl_slurm_type *t)
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

/* The types, moved from the scan into cfg, get their nodes; each type's
 * entry then counts its nodes as hosts. */
int cfg_match_types(diag *d, const yt_node *list, machine_scan *s, hl_config *cfg)
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
