/*
 * stdio.c -- the program's writes, as far as core/sections.c needs them:
 * hpcc's rank 0 announces each benchmark with "Begin of NAME section."
 * (an fprintf of a constant, which the compiler makes an fwrite).  Only
 * when the launcher asked for sections (kernel: hpl); otherwise each call
 * goes straight to the C library's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bindings.h"

typedef size_t fwrite_fn(const void *, size_t, size_t, FILE *);
typedef int fputs_fn(const char *, FILE *);

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

size_t fwrite(const void *restrict p, size_t size, size_t n, FILE *restrict f)
{
	static fwrite_fn *real;
	if (real == NULL) {
		void *s = next("fwrite");
		memcpy(&real, &s, sizeof real);
	}
	if (vr_sections_on())
		vr_section_seen(p, size * n);
	return real(p, size, n, f);
}

int fputs(const char *restrict s, FILE *restrict f)
{
	static fputs_fn *real;
	if (real == NULL) {
		void *sym = next("fputs");
		memcpy(&real, &sym, sizeof real);
	}
	if (vr_sections_on())
		vr_section_seen(s, strlen(s));
	return real(s, f);
}

int fprintf(FILE *restrict f, const char *restrict fmt, ...)
{
	if (vr_sections_on())
		vr_section_seen(fmt, strlen(fmt));
	va_list ap;
	va_start(ap, fmt);
	int rc = vfprintf(f, fmt, ap);
	va_end(ap);
	return rc;
}
