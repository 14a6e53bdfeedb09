/*
 * load_internal.h -- what the loader's files (config.c and load_*.c) share,
 * private to launcher/config/: the readers that only the loader uses, the
 * first pass's record of the machines: list, and each section's loader as
 * the top level (config.c) calls it.  Why a section has a file: the
 * machine list, the emulation and the kernels' keys change for different
 * reasons, and each reads as one story from its file's top.
 */
#ifndef HL_LOAD_INTERNAL_H
#define HL_LOAD_INTERNAL_H

#include <stddef.h>

#include "config/config.h"
#include "config/keys.h"
#include "config/load_values.h"
#include "config/yamltree.h"
#include "util/diag.h"

#define MAX_MACHINES 100000   /* processors after expansion */
#define MAX_NAME 253          /* a DNS name's limit */

/* ---- load_values.c ------------------------------------------------------ */

/* "a scalar", "a list" or "a mapping", for messages. */
const char *cfg_kind_name(const yt_node *v);
/* 0 for a scalar that is not null, else -1 (reported at v). */
int cfg_want_scalar(diag *d, const char *key, const yt_node *v);
/* A name for argv and host files: letters, digits, _ . - and extra. */
int cfg_check_ident(diag *d, const char *key, const yt_node *v, const char *extra);
/* Each repeated key of map reported; the keys to skip (load_values.c). */
unsigned char *cfg_duplicate_keys(diag *d, const yt_node *map, int *rc);
int cfg_check_duplicate_keys(diag *d, const yt_node *map);
/* The row of one key of a section's mapping (emulate:, hpl:, result:,
 * slurm:), and "SECTION: KEY" in name (CFG_KEY_NAME bytes) for its
 * messages; NULL for a key the section has not, reported at it. */
#define CFG_KEY_NAME 64
const hl_key_def *cfg_section_key(diag *d, hl_key_section s, const char *section,
                                  const yt_node *key, char *name);
/* A value of one of the schema's plain types, stored at row->off in base. */
int cfg_read_value(diag *d, const char *key, const hl_key_def *row, const yt_node *v,
                   void *base);

/* ---- load_machines.c, load_types.c ------------------------------------- */

/* What the first pass over the list keeps: each entry's count, the total,
 * and the first cycle_time and speed met (the units must not mix). */
typedef struct {
	const char *layout;            /* the file's layout: whose machine keys an
	                                * entry may also have */
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

/* machines: into cfg->machines, for a file of layout: layout. */
int cfg_load_machines(diag *d, const yt_node *list, const char *layout, hl_config *cfg);
/* An entry's slurm: mapping into t. */
int cfg_read_slurm_type(diag *d, const yt_node *v, hl_slurm_type *t);
/* The scan's types into cfg, each with the nodes it matched. */
int cfg_match_types(diag *d, const yt_node *list, machine_scan *s, hl_config *cfg);
void cfg_free_type(hl_slurm_type *t);

/* ---- load_emulate.c ----------------------------------------------------- */

int cfg_load_emulate(diag *d, const yt_node *v, hl_emulation *e);
/* The defaults that depend on the rest of the file (after every key). */
void cfg_emu_defaults(hl_config *cfg);

/* ---- config.c: the top level's keys, for the checks across keys --------- */

/* The values of the top level's common keys, by their row in the schema
 * (NULL: not given). */
typedef struct {
	const yt_node *at[HL_KEYS_MAX];
} cfg_top_keys;

/* The value of the common top-level key named key, or NULL (inline: the
 * kernel's checks read it too, and load_kernel.c would otherwise call
 * back into config.c, which calls it). */
static inline const yt_node *cfg_given(const cfg_top_keys *t, const char *key)
{
	return t->at[hl_key_find(HL_KS_TOP, key) - hl_keys];
}

/* ---- load_kernel.c ------------------------------------------------------ */

int cfg_get_kernel(diag *d, const yt_node *v, hl_kernel *out);
int cfg_load_hpl(diag *d, const yt_node *v, hl_hpl_settings *s);
int cfg_load_result(diag *d, const yt_node *v, hl_result_patterns *p);
int cfg_load_inputs(diag *d, const yt_node *v, hl_config *cfg);
/* The keys that depend on kernel: (layout: the file's layout's name). */
int cfg_check_kernel_keys(diag *d, const yt_node *root, hl_config *cfg, const cfg_top_keys *t,
                          const char *layout);

#endif
