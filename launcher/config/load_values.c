/*
 * load_values.c -- one YAML value at a time: the readers by type (an
 * integer in a range, a finite number > 0, a boolean, one of a list of
 * words, a string, a name), a value read by its row of the schema (keys.c),
 * and the mappings' duplicate keys.  The loader's sections read their keys
 * with these, and so do the layouts' rows (load_values.h), so that a key's
 * message reads the same whoever owns it.
 */
#include "config/load_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cfg_kind_name(const yt_node *v)
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

int cfg_want_scalar(diag *d, const char *key, const yt_node *v)
{
	if (v->kind != YT_SCALAR) {
		diag_error(d, v->line, v->col, "%s: expected a value, got %s", key, cfg_kind_name(v));
		return -1;
	}
	if (is_null(v)) {
		diag_error(d, v->line, v->col, "%s: missing value", key);
		return -1;
	}
	return 0;
}

/* A positive integer in [lo, hi]. */
int hl_cfg_size(diag *d, const char *key, const yt_node *v, size_t lo, size_t hi,
                    size_t *out)
{
	if (cfg_want_scalar(d, key, v) < 0)
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
int hl_cfg_positive(diag *d, const char *key, const yt_node *v, double *out)
{
	if (cfg_want_scalar(d, key, v) < 0)
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

int hl_cfg_bool(diag *d, const char *key, const yt_node *v, int *out)
{
	if (cfg_want_scalar(d, key, v) < 0)
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

int hl_cfg_enum(diag *d, const char *key, const yt_node *v,
                    const char *const *names, size_t n, int *out)
{
	if (cfg_want_scalar(d, key, v) < 0)
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

int hl_cfg_string(diag *d, const char *key, const yt_node *v, char **out)
{
	if (cfg_want_scalar(d, key, v) < 0)
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
int cfg_check_ident(diag *d, const char *key, const yt_node *v, const char *extra)
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
	if (hl_cfg_size(d, key, v->items[0], lo, hi, &out[0]) < 0 ||
	    hl_cfg_size(d, key, v->items[1], lo, hi, &out[1]) < 0)
		return -1;
	return 0;
}

static size_t count_values(const char *const *values)
{
	size_t n = 0;
	while (values[n])
		n++;
	return n;
}

/* One place for the sections' "unknown key" message and their keys' names,
 * so that emulate:, hpl:, result: and slurm: read alike. */
const hl_key_def *cfg_section_key(diag *d, hl_key_section s, const char *section,
                                  const yt_node *key, char *name)
{
	const char *k = key->kind == YT_SCALAR ? key->value : "";
	const hl_key_def *row = hl_key_find(s, k);
	char allowed[256];
	snprintf(name, CFG_KEY_NAME, "%s: %s", section, k);
	if (row)
		return row;
	hl_key_list(allowed, sizeof allowed, s, NULL);
	diag_error(d, key->line, key->col, "%s: unknown key \"%s\" (allowed: %s)", section, k,
	           allowed);
	return NULL;
}

/* A value of one of the schema's plain types, stored at the row's offset
 * in base (an hl_config or an hl_emulation); key names it in messages. */
int cfg_read_value(diag *d, const char *key, const hl_key_def *row, const yt_node *v,
                      void *base)
{
	void *at = (char *)base + row->off;
	int k, on = 1;
	switch (row->type) {
	case HL_KT_SIZE:
		return hl_cfg_size(d, key, v, row->lo, row->hi, at);
	case HL_KT_NUMBER:
		return hl_cfg_positive(d, key, v, at);
	case HL_KT_BOOL_NOT:
		k = hl_cfg_bool(d, key, v, &on);
		*(int *)at = !on;
		return k;
	case HL_KT_BOOL:
		return hl_cfg_bool(d, key, v, at);
	case HL_KT_ENUM:
		return hl_cfg_enum(d, key, v, row->values, count_values(row->values), at);
	case HL_KT_NETWORK:   /* switch, bus or links: two flags */
		if (hl_cfg_enum(d, key, v, row->values, count_values(row->values), &k) < 0)
			return -1;
		((hl_emulation *)base)->bus = k == 1;
		((hl_emulation *)base)->links = k == 2;
		return 0;
	case HL_KT_STRING:
		return hl_cfg_string(d, key, v, at);
	case HL_KT_IDENT:
		if (cfg_want_scalar(d, key, v) < 0 || cfg_check_ident(d, key, v, "") < 0)
			return -1;
		return (*(char **)at = strdup(v->value)) == NULL ? -1 : 0;
	default:
		return -1;
	}
}

int hl_cfg_key(diag *d, hl_key_section s, const char *key, const yt_node *v, void *out)
{
	const hl_key_def *k = hl_key_find(s, key);
	hl_key_type type = k ? k->type : HL_KT_CUSTOM;
	/* A custom key's shape is its layout's; one word or number of it is
	 * read here, so that its values or range are the row's only. */
	if (type == HL_KT_CUSTOM && k && k->values)
		type = HL_KT_ENUM;   /* columns' partition: columns | guillotine | auto */
	else if (type == HL_KT_CUSTOM && k && k->hi)
		type = HL_KT_SIZE;   /* master-worker's blocks: each of [r, t, s] */
	switch (type) {
	case HL_KT_SIZE:
		return hl_cfg_size(d, key, v, k->lo, k->hi, out);
	case HL_KT_NUMBER:
		return hl_cfg_positive(d, key, v, out);
	case HL_KT_ENUM:
		return hl_cfg_enum(d, key, v, k->values, count_values(k->values), out);
	case HL_KT_PAIR:
		return get_pair(d, key, v, k->lo, k->hi, out);
	case HL_KT_STRING:
		return hl_cfg_string(d, key, v, out);
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

unsigned char *cfg_duplicate_keys(diag *d, const yt_node *map, int *rc)
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

int cfg_check_duplicate_keys(diag *d, const yt_node *map)
{
	int rc = 0;
	free(cfg_duplicate_keys(d, map, &rc));
	return rc;
}
