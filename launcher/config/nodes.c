/*
 * nodes.c -- see nodes.h.
 */
#define _GNU_SOURCE
#include "nodes.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hl_nodes_reader source_fn;
static void *source_ctx;

void hl_nodes_source(hl_nodes_reader fn, void *ctx)
{
	source_fn = fn;
	source_ctx = ctx;
}

int hl_nodes_have_source(void)
{
	return source_fn != NULL;
}

int hl_nodes_read(hl_nodes *out, char *err, size_t len)
{
	memset(out, 0, sizeof *out);
	if (source_fn == NULL) {
		snprintf(err, len, "no allocation");
		return -1;
	}
	if (source_fn(source_ctx, out, err, len) == 0)
		return 0;
	hl_nodes_free(out);
	return -1;
}

void hl_nodes_free(hl_nodes *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->nodes[i].name);
		free(a->nodes[i].features);
		free(a->nodes[i].partitions);
	}
	free(a->nodes);
	for (size_t i = 0; i < a->ncounts; i++)
		free(a->count_type[i]);
	free(a->count_type);
	free(a->count);
	memset(a, 0, sizeof *a);
}

const char *hl_node_kind_name(hl_node_kind k)
{
	static const char *const names[] = { "", "feature", "partition", "het_group" };
	return names[k];
}

/* Is word one of the comma-separated items of list? */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, ",");
		if (k == n && strncmp(p, word, n) == 0)
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

int hl_node_matches(const hl_node *nd, hl_node_kind kind, const char *word, long group)
{
	switch (kind) {
	case HL_NT_FEATURE: return in_list(nd->features, word);
	case HL_NT_PARTITION: return in_list(nd->partitions, word);
	case HL_NT_HET_GROUP: return nd->het_group == group;
	default: return 0;
	}
}

/* ------------------------------------------------------------ --nodes */

static int add_count(hl_nodes *out, const char *type, size_t tlen, size_t count)
{
	char **t = realloc(out->count_type, (out->ncounts + 1) * sizeof *t);
	if (t)
		out->count_type = t;
	size_t *c = realloc(out->count, (out->ncounts + 1) * sizeof *c);
	if (c)
		out->count = c;
	if (!t || !c || (t[out->ncounts] = strndup(type, tlen)) == NULL)
		return -1;
	c[out->ncounts++] = count;
	return 0;
}

/* One TYPE=COUNT of p (up to a ',' or the end), COUNT in 0..100000. */
static int one_count(const char *p, size_t k, hl_nodes *out, char *err, size_t len)
{
	const char *eq = memchr(p, '=', k);
	size_t count = 0, digits = eq ? k - (size_t)(eq - p) - 1 : 0;
	for (size_t i = 0; eq && i < digits && digits <= 6; i++)
		count = isdigit((unsigned char)eq[1 + i]) ? count * 10 + (size_t)(eq[1 + i] - '0')
		                                          : (size_t)-1;
	if (!eq || eq == p || digits == 0 || digits > 6 || count > 100000) {
		snprintf(err, len, "--nodes: '%.*s' is not TYPE=COUNT (COUNT 0..100000)", (int)k, p);
		return -1;
	}
	for (size_t i = 0; i < out->ncounts; i++)
		if (strlen(out->count_type[i]) == (size_t)(eq - p) &&
		    strncmp(out->count_type[i], p, (size_t)(eq - p)) == 0) {
			snprintf(err, len, "--nodes: %.*s is given twice", (int)(eq - p), p);
			return -1;
		}
	if (add_count(out, p, (size_t)(eq - p), count) < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}

int hl_nodes_parse_counts(const char *arg, hl_nodes *out, char *err, size_t len)
{
	memset(out, 0, sizeof *out);
	out->by_count = 1;
	snprintf(out->source, sizeof out->source, "--nodes");
	for (const char *p = arg;;) {
		size_t k = strcspn(p, ",");
		if (one_count(p, k, out, err, len) < 0) {
			hl_nodes_free(out);
			return -1;
		}
		if (p[k] == '\0')
			return 0;
		p += k + 1;
	}
}

/* ----------------------------------------------------------- scontrol */

/* The value of KEY= in the line [s, e), malloc'd ("" when absent). */
static char *value_of(const char *s, const char *e, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = s; p < e; p++)
		if ((p == s || p[-1] == ' ') && (size_t)(e - p) > n && strncmp(p, key, n) == 0 &&
		    p[n] == '=') {
			const char *v = p + n + 1;
			size_t k = strcspn(v, " \n");
			if (v + k > e)
				k = (size_t)(e - v);
			/* Slurm writes (null) for an empty list */
			return k == 6 && strncmp(v, "(null)", 6) == 0 ? strdup("") : strndup(v, k);
		}
	return strdup("");
}

static int add_node(hl_nodes *out, const char *s, const char *e)
{
	hl_node *v = realloc(out->nodes, (out->n + 1) * sizeof *v);
	if (v == NULL)
		return -1;
	out->nodes = v;
	hl_node *nd = &v[out->n];
	char *cpus = value_of(s, e, "CPUTot");
	nd->name = value_of(s, e, "NodeName");
	nd->features = value_of(s, e, "ActiveFeatures");
	nd->partitions = value_of(s, e, "Partitions");
	nd->cpus = cpus ? strtoul(cpus, NULL, 10) : 0;
	nd->het_group = -1;
	free(cpus);
	out->n++;
	return nd->name && nd->features && nd->partitions ? 0 : -1;
}

int hl_nodes_parse_scontrol(const char *text, hl_nodes *out, char *err, size_t len)
{
	for (const char *s = text; *s;) {
		const char *e = s + strcspn(s, "\n");
		if (strncmp(s, "NodeName=", 9) == 0 && add_node(out, s, e) < 0) {
			snprintf(err, len, "out of memory");
			return -1;
		}
		if (strncmp(s, "NodeName=", 9) == 0 && out->nodes[out->n - 1].name[0] == '\0') {
			snprintf(err, len, "scontrol printed a node without a name");
			return -1;
		}
		s = *e ? e + 1 : e;
	}
	return 0;
}
