/*
 * options.h -- the command line as one table (commands.c): every command
 * with its FILE argument, its options and its help.  One parser
 * (options.c) reads argv with it, and the same rows print `hetlaunch
 * --help`, each command's --help, and the man page's SYNOPSIS and OPTIONS
 * (`hetlaunch help --format man-synopsis|man-options`, spliced by
 * scripts/gen-keys), as the key
 * table (config/keys.c) drives the key lists.  Nothing below cli/ includes
 * this header.
 */
#ifndef HL_OPTIONS_H
#define HL_OPTIONS_H

#include <stdio.h>

/* Every option any command takes; a command's row lists its own. */
typedef enum {
	HL_OPT_JSON,
	HL_OPT_FULL,
	HL_OPT_QUIET,
	HL_OPT_NO_PRELOAD,
	HL_OPT_OUT,          /* --out DIR: the run directory */
	HL_OPT_DRY_RUN,
	HL_OPT_BASELINE,     /* --baseline cyclic */
	HL_OPT_ADAPT,        /* --adapt K */
	HL_OPT_FORMAT,       /* --format F */
	HL_OPT_OUTPUT,       /* -o PATH: a file written atomically */
	HL_OPT_FROM,         /* --from RUNDIR */
	HL_OPT_NODES,        /* --nodes TYPE=COUNT,...: Slurm node types planned for counts */
	HL_OPT_SUBMIT,       /* sbatch --submit */
	HL_OPT_COUNT
} hl_opt;

typedef struct {
	hl_opt id;
	const char *name;    /* "--out"; NULL ends a row's list */
	const char *alias;   /* "-q", or NULL */
	const char *arg;     /* the value's name ("DIR"), or NULL for a flag */
	int literal;         /* 1: arg is the only value, printed as is ("cyclic") */
	const char *help;    /* one line, for this command */
} hl_option;

/* What the parser read: the command's FILE and each option's value ("" for
 * a flag that was given, NULL for one that was not). */
typedef struct {
	const char *file;
	const char *val[HL_OPT_COUNT];
} hl_cli_args;

#define HL_CMD_OPTS 10

typedef struct hl_command {
	const char *name;        /* "run"; NULL ends the table */
	const char *file_arg;    /* "FILE" (required), "[FILE]" (optional) or NULL */
	const char *summary;     /* one line of `hetlaunch --help` (wrapped there) */
	const char *description; /* the command's --help after its usage line */
	hl_option opts[HL_CMD_OPTS];
	int (*run)(const hl_cli_args *a);
} hl_command;

extern const hl_command hl_commands[];   /* commands.c */

/* The row named name, or NULL. */
const hl_command *hl_command_find(const char *name);

/* The row whose list has option opt (spelled as a user would), other than
 * except, or NULL: for "'--dry-run' is an option of run". */
const hl_command *hl_command_with_option(const char *opt, const hl_command *except);

/* Reads argv (after the command's name) into a.  Returns 0, or 2 after
 * printing a usage error (unknown option, with the nearest one; a missing
 * value; a second FILE; a missing required FILE), or -1 for -h/--help. */
int hl_cli_parse(const hl_command *c, int argc, char **argv, hl_cli_args *a);

static inline int hl_cli_has(const hl_cli_args *a, hl_opt o)
{
	return a->val[o] != NULL;
}

/* `hetlaunch --help`, a command's --help, and the generated documents:
 * format "text" (the --help), "man-synopsis", "man-options" (the man
 * page's blocks between its BEGIN/END marker lines) or "md".  -1 for an
 * unknown format. */
void hl_cli_usage(FILE *f);
void hl_cli_command_help(FILE *f, const hl_command *c);
int hl_cli_print(FILE *f, const char *format);

/* "hetlaunch: MESSAGE" and the --help hint on stderr; returns 2. */
int hl_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
