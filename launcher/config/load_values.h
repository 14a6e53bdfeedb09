/*
 * load_values.h -- the readers of one YAML value (load_values.c), for the
 * layouts' rows (layout.h: load_key, check) as for the loader's own
 * sections: every error at the value's line:col, named by key.
 */
#ifndef HL_LOAD_VALUES_H
#define HL_LOAD_VALUES_H

#include <stddef.h>

#include "config/keys.h"
#include "config/yamltree.h"
#include "util/diag.h"

int hl_cfg_size(diag *d, const char *key, const yt_node *v, size_t lo, size_t hi, size_t *out);
int hl_cfg_positive(diag *d, const char *key, const yt_node *v, double *out);
int hl_cfg_bool(diag *d, const char *key, const yt_node *v, int *out);
int hl_cfg_enum(diag *d, const char *key, const yt_node *v, const char *const *names,
                size_t n, int *out);
int hl_cfg_string(diag *d, const char *key, const yt_node *v, char **out);
/* A key read by its row of the key table (config/keys.c): its type and its
 * range or values, so that a limit is written once.  out is a size_t
 * (integer), a double (number), an int (enum: the value's index), size_t[2]
 * (pair) or char * (string).  Of a custom row (its shape read by its
 * layout), one scalar: by the row's values (an enum), else its range. */
int hl_cfg_key(diag *d, hl_key_section s, const char *key, const yt_node *v, void *out);
/* The value of key in mapping map, or NULL. */
const yt_node *hl_cfg_get(const yt_node *map, const char *key);

#endif
