#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag *d, const char *file)
{
	memset(d, 0, sizeof *d);
	d->file = file;
}

void diag_error(diag *d, size_t line, size_t col, const char *fmt, ...)
{
	size_t k = d->count++;
	if (k >= DIAG_MAX)
		return;
	char body[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	size_t need = strlen(d->file) + strlen(body) + 64;
	char *m = malloc(need);
	if (m == NULL)
		return;
	if (line > 0)
		snprintf(m, need, "%s:%zu:%zu: %s", d->file, line, col, body);
	else
		snprintf(m, need, "%s: %s", d->file, body);
	d->msg[k] = m;
}

void diag_print(const diag *d, FILE *out)
{
	size_t n = d->count < DIAG_MAX ? d->count : DIAG_MAX;
	for (size_t i = 0; i < n; i++)
		if (d->msg[i])
			fprintf(out, "%s\n", d->msg[i]);
	if (d->count > DIAG_MAX)
		fprintf(out, "%s: %zu more errors not shown\n", d->file,
		        d->count - DIAG_MAX);
}

void diag_free(diag *d)
{
	size_t n = d->count < DIAG_MAX ? d->count : DIAG_MAX;
	for (size_t i = 0; i < n; i++)
		free(d->msg[i]);
	memset(d, 0, sizeof *d);
}
