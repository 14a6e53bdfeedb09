/*
 * json.h -- a small streaming JSON writer (pretty-printed, 2-space indent).
 * Enough for the plan and report documents of ../shared/INTERFACE.md.
 */
#ifndef HL_JSON_H
#define HL_JSON_H

#include <stddef.h>
#include <stdio.h>

#define JW_DEPTH 32

typedef struct {
	FILE *f;
	int depth;
	int count[JW_DEPTH];  /* members written at each level */
	int inline_[JW_DEPTH];/* 1: this array is written on one line */
	char close[JW_DEPTH]; /* '}' or ']' */
	int after_key;        /* a key was just written: the value follows it */
} jw;

void jw_init(jw *w, FILE *f);
void jw_obj(jw *w);                 /* { */
void jw_arr(jw *w);                 /* [ */
void jw_arr_inline(jw *w);          /* [ on one line: for short scalar lists */
void jw_end(jw *w);                 /* } or ] */
void jw_key(jw *w, const char *k);
void jw_str(jw *w, const char *s);
void jw_num(jw *w, double x);       /* shortest form that reads back exactly */
void jw_uint(jw *w, size_t x);
void jw_bool(jw *w, int b);
void jw_null(jw *w);
/* A value that is already JSON text (one line), written as it is. */
void jw_raw(jw *w, const char *json);
/* A value jw wrote at depth 0 (pretty-printed, on several lines, no final
 * newline), indented to where it goes: one writer's document inside
 * another's, byte for byte as the first wrote it. */
void jw_doc(jw *w, const char *json);
void jw_done(jw *w);                /* final newline */
/* A one-line array of n numbers (or counts). */
void jw_num_array(jw *w, const double *x, size_t n);
void jw_uint_array(jw *w, const size_t *x, size_t n);

#endif
