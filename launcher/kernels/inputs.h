/*
 * inputs.h -- the files kernel: exec's inputs: writes into the run
 * directory before each run: a text with placeholders, expanded per run
 * (the cyclic baseline and the plan each get their own).
 *
 *   {n} {nb} {nprow} {npcol} {nprocs} {mapping}    {{ and }}: a brace
 */
#ifndef HL_INPUTS_H
#define HL_INPUTS_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
	size_t n, nb, nprow, npcol, nprocs;
	const char *mapping;   /* "cyclic" or "hetero" */
} hl_input_vars;

/* The placeholders, for messages: "{n}, {nb}, ...". */
const char *hl_input_placeholders(void);

/*
 * hl_input_check -- 0 if every '{' and '}' of text is a known placeholder
 * or doubled; else -1 with *at the offset of the first bad one and what it
 * is in bad (e.g. "{foo}", or "{" unclosed).
 */
int hl_input_check(const char *text, size_t *at, char *bad, size_t badlen);

/* Write text with its placeholders replaced; 0, or -1 (a bad text, or
 * ferror). */
int hl_input_write(const char *text, const hl_input_vars *v, FILE *f);

#endif
