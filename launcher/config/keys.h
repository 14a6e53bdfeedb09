/*
 * keys.h -- the schema of the machine list: every YAML key once, with its
 * type, range, the layouts (or kernel) it belongs to, its default and one
 * line of documentation (in the spirit of libcyaml's CYAML_FIELD_* and
 * Slurm's s_p_options_t).  The loader reads the common keys by this table
 * and refuses unknown keys with its lists; the layouts' rows (layout.h)
 * own the keys whose `layouts` name them; `hetlaunch keys` prints it as the
 * fuzz dictionary, the man page's key list and a Markdown table.
 */
#ifndef HL_KEYS_H
#define HL_KEYS_H

#include <stddef.h>
#include <stdio.h>

/* Where a key is: the top level, a machines: entry, the emulate: mapping,
 * layout ring's links: mapping, kernel hpl's hpl: mapping, an inputs:
 * entry and the result: mapping (kernel exec), a machines: entry's slurm:
 * mapping (a node type). */
typedef enum { HL_KS_TOP, HL_KS_MACHINE, HL_KS_EMULATE, HL_KS_LINKS, HL_KS_HPL,
	       HL_KS_INPUTS, HL_KS_SLURM, HL_KS_RESULT } hl_key_section;

typedef enum {
	HL_KT_SIZE,      /* an integer in [lo, hi] */
	HL_KT_NUMBER,    /* a finite number > 0 */
	HL_KT_BOOL,      /* true | false */
	HL_KT_BOOL_NOT,  /* true | false, stored as its negation */
	HL_KT_ENUM,      /* one of values */
	HL_KT_STRING,    /* a string not starting with '-' */
	HL_KT_IDENT,     /* a name: letters, digits, _ . - (values: the extra ones) */
	HL_KT_PAIR,      /* [a, b], each in [lo, hi] */
	HL_KT_SIZES,     /* an integer in [lo, hi] or a non-empty list of them */
	HL_KT_STRINGS,   /* a list of strings */
	HL_KT_ARGV,      /* a string or a non-empty list of strings */
	HL_KT_LAYOUT,    /* a row of the layouts' registry (layout.h) */
	HL_KT_KERNEL,    /* a row of the kernel table (kernels.h) */
	HL_KT_MACHINES,  /* the list of machines (HL_KS_MACHINE keys) */
	HL_KT_EMULATE,   /* true, false or a mapping (HL_KS_EMULATE keys) */
	HL_KT_NETWORK,   /* emulate's network: an enum read into two flags */
	HL_KT_CUSTOM     /* read by its layout's own code (what doc says) */
} hl_key_type;

typedef struct {
	hl_key_section section;
	const char *name;
	hl_key_type type;
	const char *layouts;         /* NULL: every layout; else the owners, ' '-separated */
	const char *kernel;          /* NULL: every kernel; else the only one it is for */
	size_t lo, hi;               /* SIZE, SIZES, PAIR */
	const char *const *values;   /* ENUM, NETWORK (NULL-terminated); IDENT: extra chars */
	size_t off;                  /* where the loader stores a value it reads generically:
	                              * in hl_config (top) or hl_emulation (emulate) */
	const char *def;             /* the default, in words ("" : required or none) */
	const char *doc;             /* one line */
} hl_key_def;

/* At most this many rows (the loader keeps a node per row). */
#define HL_KEYS_MAX 128

/* The table, in the order the "allowed:" lists name them. */
extern const hl_key_def hl_keys[];
extern const size_t hl_nkeys;

/* The row of name in section s, or NULL. */
const hl_key_def *hl_key_find(hl_key_section s, const char *name);
/* Does row k belong to the layout named layout (1 for every common key)? */
int hl_key_for_layout(const hl_key_def *k, const char *layout);
/* The row of name in section s owned by the layout (not a common key), or NULL. */
const hl_key_def *hl_key_of_layout(hl_key_section s, const char *layout, const char *name);
/* ", "-joined names of section s: layout NULL, the common keys; else that
 * layout's own.  Truncated to len - 1 characters. */
void hl_key_list(char *buf, size_t len, hl_key_section s, const char *layout);

/* `hetlaunch keys --format F`: dict (libFuzzer), man (roff), md (Markdown).
 * 0, or -1 for an unknown format. */
int hl_keys_print(FILE *out, const char *format);

#endif
