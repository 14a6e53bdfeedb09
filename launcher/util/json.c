#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void jw_init(jw *w, FILE *f)
{
	memset(w, 0, sizeof *w);
	w->f = f;
}

static void indent(jw *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator and indentation before a value or a key. */
static void pre(jw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->count[w->depth]++)
		fputc(',', w->f);
	if (w->inline_[w->depth]) {
		if (w->count[w->depth] > 1)
			fputc(' ', w->f);
	} else {
		indent(w);
	}
}

static void open_(jw *w, char c, char close, int inl)
{
	pre(w);
	fputc(c, w->f);
	if (w->depth + 1 >= JW_DEPTH)
		abort();   /* a programming error: our documents are shallow */
	w->depth++;
	w->count[w->depth] = 0;
	w->inline_[w->depth] = inl;
	w->close[w->depth] = close;
}

void jw_obj(jw *w) { open_(w, '{', '}', 0); }
void jw_arr(jw *w) { open_(w, '[', ']', 0); }
void jw_arr_inline(jw *w) { open_(w, '[', ']', 1); }

void jw_end(jw *w)
{
	int had = w->count[w->depth];
	int inl = w->inline_[w->depth];
	char c = w->close[w->depth];
	w->depth--;
	if (had && !inl)
		indent(w);
	fputc(c, w->f);
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*c < 0x20)
				fprintf(f, "\\u%04x", *c);
			else
				fputc(*c, f);
		}
	}
	fputc('"', f);
}

void jw_key(jw *w, const char *k)
{
	pre(w);
	put_str(w->f, k);
	fputs(": ", w->f);
	w->after_key = 1;
}

void jw_str(jw *w, const char *s)
{
	pre(w);
	put_str(w->f, s);
}

void jw_num(jw *w, double x)
{
	pre(w);
	if (!isfinite(x)) {      /* JSON has no inf/nan */
		fputs("null", w->f);
		return;
	}
	/* The shortest %g that reads back to the same double. */
	char buf[32];
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	fputs(buf, w->f);
}

void jw_uint(jw *w, size_t x)
{
	pre(w);
	fprintf(w->f, "%zu", x);
}

void jw_bool(jw *w, int b)
{
	pre(w);
	fputs(b ? "true" : "false", w->f);
}

void jw_null(jw *w)
{
	pre(w);
	fputs("null", w->f);
}

void jw_raw(jw *w, const char *json)
{
	pre(w);
	fputs(json, w->f);
}

void jw_doc(jw *w, const char *json)
{
	pre(w);
	for (const char *p = json; *p; p++) {
		fputc(*p, w->f);
		for (int i = 0; *p == '\n' && i < w->depth; i++)
			fputs("  ", w->f);
	}
}

void jw_done(jw *w) { fputc('\n', w->f); }

void jw_num_array(jw *w, const double *x, size_t n)
{
	jw_arr_inline(w);
	for (size_t k = 0; k < n; k++)
		jw_num(w, x[k]);
	jw_end(w);
}

void jw_uint_array(jw *w, const size_t *x, size_t n)
{
	jw_arr_inline(w);
	for (size_t k = 0; k < n; k++)
		jw_uint(w, x[k]);
	jw_end(w);
}
