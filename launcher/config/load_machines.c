/*
 * load_machines.c -- the machines: list.  A first pass checks every entry
 * (its keys by the schema's HL_KS_MACHINE rows, its name and host, its
 * numbers) and counts its processors; then the list as a whole (units that
 * must not mix, the ceiling); then the Slurm node types get their nodes
 * (load_types.c); a second pass expands each entry's count into hl_machine
 * rows, whose names must be unique.  Every error at its entry's line.
 */
#include "config/load_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hostlist.h"

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
		           "(name, cycle_time or speed, ...), got %s", cfg_kind_name(m));
		return -1;
	}
	int rc = cfg_check_duplicate_keys(d, m);
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

/* host: a Slurm hostlist (hostlist.h), one machine per host; each host
 * a name as cfg_check_ident allows it.  The hosts' number in *nhosts.  Made
 * (to check their lengths) only while the list is under its ceiling: so
 * many entries of 10^5 hosts each cost a count each, not 10^5 strings. */
static int check_hostlist(diag *d, const yt_node *v, size_t *nhosts, size_t so_far)
{
	char **hosts = NULL;
	hl_hostlist_error err;
	if (cfg_check_ident(d, "host", v, ":[],") < 0)
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
	} else if (cfg_want_scalar(d, "name", name) < 0 || cfg_check_ident(d, "name", name, "") < 0)
		rc = -1;
	if (host && sl) {
		diag_error(d, sl->line, sl->col, "machines: slurm: and host: exclude each other "
		           "(a node type gets its hosts from the allocation)");
		rc = -1;
	} else if (sl) {
		s->hosts[i] = 0;
		s->ntypes++;
		if (cfg_read_slurm_type(d, sl, &s->types[i]) < 0)
			rc = -1;
	} else if (host && (cfg_want_scalar(d, "host", host) < 0 ||
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
		    ? hl_cfg_size(d, row->name, v, row->lo, row->hi,
		               strcmp(row->name, "count") == 0 ? &s->counts[i] : &cores) < 0
		    : row->type == HL_KT_NUMBER && hl_cfg_positive(d, row->name, v, &x) < 0)
			rc = -1;
	}
	return rc;
}

/* First pass, one entry: its keys, names and numbers; counts its processors. */
static int check_machine_entry(diag *d, const yt_node *m, size_t i, machine_scan *s)
{
	machine_keys k;
	if (read_machine_keys(d, m, s->layout, &k) < 0)
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

/* An entry's numbers (checked in the first pass), as every machine it
 * expands into starts; a node type's cores come per node. */
static hl_machine entry_numbers(diag *d, const machine_keys *k, const yt_node *m, size_t i)
{
	const yt_node *ct = mkey(k, "cycle_time"), *speed = mkey(k, "speed");
	const yt_node *mflops = mkey(k, "mflops"), *cores = mkey(k, "cores");
	const yt_node *latency = mkey(k, "latency_us"), *bandwidth = mkey(k, "bandwidth_mbps");
	const yt_node *memory = mkey(k, "memory_gb"), *emulate = mkey(k, "emulate_mflops");
	hl_machine p = { .cores = 1, .loc = { m->line, m->col }, .entry = i };
	double val;
	if (!ct && !speed)
		speed = mflops;   /* a real speed is a speed */
	if (mflops)
		hl_cfg_positive(d, "", mflops, &p.mflops);
	hl_cfg_positive(d, "", ct ? ct : speed, &val);
	p.speed = speed ? val : 0.0;
	p.cycle_time = speed ? 1.0 / val : val;
	if (cores)
		hl_cfg_size(d, "", cores, 1, (size_t)-1, &p.cores);
	if (latency)
		hl_cfg_positive(d, "", latency, &p.latency_us);
	if (bandwidth)
		hl_cfg_positive(d, "", bandwidth, &p.bandwidth_mbps);
	if (memory)
		hl_cfg_positive(d, "", memory, &p.memory_gb);
	if (emulate)
		hl_cfg_positive(d, "", emulate, &p.emulate_mflops);
	return p;
}

/* name, or name.j for the j-th machine of an entry of several; NULL when
 * out of memory. */
static char *machine_name(const char *name, size_t j, size_t count)
{
	size_t len = strlen(name) + 24;
	char *s = malloc(len);
	if (s && count > 1)
		snprintf(s, len, "%s.%zu", name, j);
	else if (s)
		snprintf(s, len, "%s", name);
	return s;
}

/* Second pass, one entry (already checked): count processors on each host
 * of its hostlist, named name.0, name.1, ... (host-major) when there are
 * several.  -1 only when out of memory. */
static int expand_machine_entry(diag *d, const yt_node *m, size_t i, const machine_scan *s,
                                hl_config *cfg)
{
	machine_keys k;
	read_machine_keys(d, m, s->layout, &k);   /* known to succeed now */
	const yt_node *name = mkey(&k, "name"), *host = mkey(&k, "host");
	const hl_slurm_type *type = hl_config_type(cfg, i);
	hl_machine proto = entry_numbers(d, &k, m, i);
	char **hosts = NULL;
	size_t nhosts, per_host = s->counts[i];
	hl_hostlist_error err;
	if (type)
		nhosts = type->nnodes;
	else if (hl_hostlist_expand(host ? host->value : name->value, MAX_MACHINES, &hosts,
	                            &nhosts, &err) != 0)
		return -1;   /* checked: out of memory */
	size_t count = per_host * nhosts;   /* host-major: name.0 .. name.(count-1) on the first host */
	for (size_t j = 0; j < count; j++) {
		hl_machine *hm = &cfg->machines[cfg->nmachines++];
		const char *h = type ? type->nodes[j / per_host] : hosts[j / per_host];
		size_t cpus = type ? type->cpus[j / per_host] : 0;
		/* a node type's machine is the whole node unless cores: says */
		if (cpus && !mkey(&k, "cores"))
			proto.cores = cpus / per_host ? cpus / per_host : 1;
		*hm = proto;
		if ((hm->name = machine_name(name->value, j, count)) == NULL ||
		    (hm->host = strdup(h)) == NULL) {
			hl_hostlist_free(hosts);
			return -1;
		}
	}
	hl_hostlist_free(hosts);
	return 0;
}

static int cmp_machine_name(const void *x, const void *y)
{
	const hl_machine *a = *(const hl_machine *const *)x, *b = *(const hl_machine *const *)y;
	int k = strcmp(a->name, b->name);
	return k ? k : (a < b ? -1 : a > b);
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
		if (expand_machine_entry(d, list->items[i], i, s, cfg) < 0)
			return -1;
	return 0;
}

/* machines: check every entry, then the list as a whole, then expand. */
int cfg_load_machines(diag *d, const yt_node *list, const char *layout, hl_config *cfg)
{
	if (list->kind != YT_SEQ || list->n == 0) {
		diag_error(d, list->line, list->col, "machines: expected a non-empty list");
		return -1;
	}
	machine_scan s = { .layout = layout,
		           .counts = calloc(list->n, sizeof *s.counts),
		           .hosts = calloc(list->n, sizeof *s.hosts),
		           .types = calloc(list->n, sizeof *s.types) };
	int rc = s.counts && s.hosts && s.types ? 0 : -1, bad = 0;
	for (size_t i = 0; rc == 0 && i < list->n; i++)
		if (check_machine_entry(d, list->items[i], i, &s) < 0)
			bad = 1;
	rc = bad ? -1 : rc;
	if (rc == 0 && s.ntypes)
		rc = cfg_match_types(d, list, &s, cfg);
	if (rc == 0 && s.total == 0) {
		diag_error(d, list->line, list->col, "machines: no machine left: no slurm: type got "
		           "a node of %s", cfg->types_source);
		rc = -1;
	}
	rc = check_machine_list(d, list, &s, rc);
	if (rc == 0)
		rc = expand_machines(d, list, &s, cfg);
	for (size_t i = 0; s.types && i < list->n; i++)
		cfg_free_type(&s.types[i]);
	free(s.types);
	free(s.counts);
	free(s.hosts);
	if (rc < 0)
		return -1;
	return check_unique_names(d, cfg);
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

double hl_config_tmin(const hl_config *cfg)
{
	double tmin = cfg->nmachines ? cfg->machines[0].cycle_time : 0.0;
	for (size_t i = 1; i < cfg->nmachines; i++)
		if (cfg->machines[i].cycle_time < tmin)
			tmin = cfg->machines[i].cycle_time;
	return tmin;
}
