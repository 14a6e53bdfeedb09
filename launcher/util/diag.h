/*
 * diag.h -- configuration diagnostics in the form FILE:LINE:COL: message.
 * Errors are collected (up to DIAG_MAX) so one run of hetlaunch reports
 * every mistake in a file, not just the first.
 */
#ifndef HL_DIAG_H
#define HL_DIAG_H

#include <stddef.h>
#include <stdio.h>

#define DIAG_MAX 50

typedef struct {
	const char *file;   /* the path as the user gave it */
	size_t count;       /* errors reported so far (may exceed DIAG_MAX) */
	char *msg[DIAG_MAX];
} diag;

void diag_init(diag *d, const char *file);
/* line and col are 1-based; 0 means unknown (the message names the file only). */
void diag_error(diag *d, size_t line, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_print(const diag *d, FILE *out);
void diag_free(diag *d);

#endif
